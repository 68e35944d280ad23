"""Spec fields own the paths they write (issue 46): which field writes which part of the job is derived from the
emitter (:mod:`ascend_compile.emit.ownership`), and a ``jobPatch`` or ``podTemplatePatch`` that changes, adds or
removes one of those parts is refused on its own line (AC024), naming the field to use instead."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, Iterator, List, Sequence, Tuple

import pytest
import yaml

from ascend_compile.compiling.pipeline import compile_specs
from ascend_compile.emit import unpatched_job
from ascend_compile.emit.ownership import ANY, FIELDS, REPLICA_SETTINGS, UNCHANGED, Item, Ownership, at, derive
from ascend_compile.errors import CompileError
from ascend_compile.files.discovery import read_documents
from ascend_compile.hardware.profiles import ProfileRegistry
from ascend_compile.jobspec.model import Replica, Resilience, Spec
from ascend_compile.jobspec.resolve import resolve
from ascend_compile.lint.session import open_session
from ascend_compile.yamlio.locations import Document
from tests.checkout import run_cli
from tests.specs_passed_through import HEAD

VOLUME = {"name": "code", "nfs": "10.0.0.5:/data/code", "mountPath": "/job/code"}
#: specs that set (between them) every field the compiler has; each is compiled as written and with patches
BASES: Dict[str, Dict[str, Any]] = {
    "volcano": {
        "framework": "pytorch", "profile": "module-910b-8", "target": "VolcanoJob", "npus": 16, "image": "t:1",
        "imagePullPolicy": "Always", "command": ["/bin/bash", "-c"], "args": ["train.sh"], "workingDir": "/job",
        "env": {"MODE": "train"}, "resources": {"cpu": "8", "memory": "64Gi", "shm": "16Gi"}, "volumes": [VOLUME],
        "ports": [{"name": "metrics", "containerPort": 9090}], "restartPolicy": "Never", "queue": "q",
        "hostArch": "huawei-arm", "torAffinity": "normal-schema", "retries": 2, "hostNetwork": True,
        "plugins": {"ssh": [], "svc": []}, "taskName": "main", "containerName": "trainer",
        "labels": {"team": "a"}, "annotations": {"owner": "b"}, "podLabels": {"app": "c"},
        "podAnnotations": {"note": "d"}, "faultRetryTimes": 3, "faultScheduling": "force",
        "subHealthyStrategy": "graceExit"},
    "ascend": {
        "framework": "mindspore", "profile": "module-910b-8", "target": "AscendJob", "npus": 16, "image": "t:1",
        "ranktable": "hostPath", "ranktableVolume": {"nfs": "10.0.0.5:/ranktables"}, "schedulerHoldsNpus": True,
        "scheduling": "schedulePolicy", "faultRetryTimes": 3, "podRescheduling": True,
        "processRecovery": {"strategies": ["retry", "recover", "dump"], "waitRescheduleTimeout": 270},
        "terminationGracePeriodSeconds": 900, "resetConfig": "configMap", "subHealthyStrategy": "hotSwitch",
        "replicaTypes": {"Worker": {"env": {"ROLE": "w"}, "volumes": [dict(VOLUME, name="data")],
                                    "ports": [{"name": "w", "containerPort": 9091}], "restartPolicy": "Never",
                                    "resources": {"cpu": "4", "memory": "32Gi", "shm": "8Gi"}}}},
    "super-pod": {"framework": "pytorch", "profile": "module-a3-16-super-pod", "npus": 32, "image": "t:1",
                  "superPod": {"spBlock": 32, "raBlock": 16}},
    "multi-level": {"framework": "pytorch", "profile": "module-a3-16-super-pod", "npus": 128, "image": "t:1",
                    "multiLevel": [2, 4], "retries": 1},
}
#: every field the compiler writes from, as the derivation must find it among the bases
KNOWN = (
    "metadata.name", "metadata.namespace", "spec.framework", "spec.target", "spec.profile", "spec.image",
    "spec.imagePullPolicy", "spec.command", "spec.args", "spec.workingDir", "spec.env", "spec.resources.cpu",
    "spec.resources.memory", "spec.resources.shm", "spec.volumes", "spec.ports", "spec.restartPolicy", "spec.queue",
    "spec.hostArch", "spec.scheduling", "spec.ranktable", "spec.ranktableVolume", "spec.schedulerHoldsNpus",
    "spec.torAffinity", "spec.superPod.spBlock", "spec.superPod.raBlock", "spec.multiLevel", "spec.retries",
    "spec.hostNetwork", "spec.plugins", "spec.taskName", "spec.containerName", "spec.labels", "spec.annotations",
    "spec.podLabels", "spec.podAnnotations", "spec.faultScheduling", "spec.faultRetryTimes",
    "spec.podRescheduling", "spec.processRecovery.strategies", "spec.processRecovery.waitRescheduleTimeout",
    "spec.resetConfig", "spec.subHealthyStrategy", "spec.terminationGracePeriodSeconds",
    "spec.npus (or spec.pods)", "spec.npus (or spec.npusPerPod)", "spec.replicaTypes.Worker.env",
    "spec.replicaTypes.Worker.volumes", "spec.replicaTypes.Worker.ports", "spec.replicaTypes.Worker.restartPolicy",
    "spec.replicaTypes.Worker.resources.cpu", "spec.replicaTypes.Worker.resources.memory",
    "spec.replicaTypes.Worker.resources.shm")
REGISTRY = ProfileRegistry()
#: compile without its output lint (what these tests judge is the spec check), the built-in profiles
SESSION = open_session(registry=REGISTRY, output_lint=False)


def _document(fields: Dict[str, Any]) -> Dict[str, Any]:
    return {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
            "metadata": {"name": "job", "namespace": "train"}, "spec": fields}


def _job(base: str) -> Dict[str, Any]:
    return unpatched_job(resolve(Document("<test>", 0, _document(BASES[base]), None), REGISTRY))


def _ownership(base: str) -> Ownership:
    spec = resolve(Document("<test>", 0, _document(BASES[base]), None), REGISTRY)
    return derive(spec, unpatched_job(spec), unpatched_job)


OWNED = {base: _ownership(base) for base in BASES}
NOTHING = ("no such field",)


def _cases() -> Iterator[Tuple[str, str, Tuple[Any, ...]]]:
    """(base, field, a path the field owns there), one per field and base: one it is the most specific owner of,
    where there is one; a value the job has, else an item the field would add, else an item it has."""
    for base, owned in OWNED.items():
        job = _job(base)
        fields = {field: None for here in owned.values() for field in here.fields}
        for field in fields:
            paths = [p for p, here in owned.items() if here.fields[0] == field] or \
                    [p for p, here in owned.items() if field in here.fields]
            present = {p: at(job, p) != at(job, NOTHING) for p in paths}
            yield base, field, min(paths, key=lambda p: (
                (0 if present[p] else 3) if not _names_an_item(p) else (2 if present[p] else 1)))


def _names_an_item(path: Sequence[Any]) -> bool:
    return len(path) > 1 and path[-1] == "name" and isinstance(path[-2], Item)


def _patch_at(path: Sequence[Any], value: Any) -> Tuple[Any, List[Any]]:
    """A patch that puts ``value`` at ``path`` of the job (named items as list items), and the spec path of the
    value in the patch."""
    if not path:
        return value, []
    head, rest = path[0], path[1:]
    if isinstance(head, Item):
        inner, where = _patch_at(rest, value)
        return [{"name": head.name, **inner}], [0, *where]
    key = "added-by-patch" if head is ANY else head
    inner, where = _patch_at(rest, value)
    return {key: inner}, [key, *where]


def _compile(tmp_path: Path, fields: Dict[str, Any]) -> List[Any]:
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump(_document(fields), sort_keys=False, default_flow_style=False), encoding="utf-8")
    with pytest.raises(CompileError) as refused:
        compile_specs(read_documents([str(path)]), SESSION)
    return list(refused.value.findings)


def test_the_derivation_finds_every_field_the_compiler_writes_from():
    found = {field for owned in OWNED.values() for here in owned.values() for field in here.fields}
    assert sorted(set(KNOWN) - found) == []


@pytest.mark.parametrize("base,field,path", list(_cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_a_job_patch_over_each_field_is_refused_on_its_line(tmp_path, base, field, path):
    job = _job(base)
    marker, owners = "patched-by-the-test", (field,)
    if _names_an_item(path):  # the patch adds the item the field would write, or removes the one it writes
        present = at(job, path[:-1]) != at(job, NOTHING)
        item = {"name": path[-2].name, "$patch": "delete"} if present else {"name": path[-2].name}
        patch, where = _patch_at(path[:-1], item)
        marker = f"name: {path[-2].name}"
        if present:  # every field that writes something in the item owns what the patch removes
            owners = tuple(f for p, here in OWNED[base].items() if p[:len(path) - 1] == path[:-1] for f in here.fields)
    else:
        patch, where = _patch_at(path, marker)
        assert at(job, path) != marker
    [finding] = _compile(tmp_path, {**BASES[base], "jobPatch": patch})
    assert finding.rule == "AC024"
    assert finding.path in (("spec", "jobPatch", *where), ("spec", "jobPatch", *where, "name"))
    assert any(owner in finding.message + finding.hint for owner in owners)
    lines = (tmp_path / "job.yaml").read_text(encoding="utf-8").splitlines()
    assert marker in lines[finding.line - 1]


# --------------------------------------------------------------------------- the cases of the issue

VOLCANO_JOB = HEAD + "  profile: module-910b-8\n  target: VolcanoJob\n  npus: 16\n"
CONTAINER_PATCH = """\
  image: train:v2
  podTemplatePatch:
    spec:
      containers:
        - name: ascend
          image: train:v1
          resources:
            limits: {huawei.com/Ascend910: 4}
            requests: {huawei.com/Ascend910: 4}
"""
FAULT_RETRY_LABEL = """\
  image: train:v1
  jobPatch:
    metadata:
      labels: {fault-retry-times: "3"}
"""
RESTART_POLICY = """\
  image: train:v1
  faultRetryTimes: 3
  podTemplatePatch:
    spec:
      restartPolicy: OnFailure
"""


@pytest.mark.parametrize("text,fields,lines", [
    (CONTAINER_PATCH, ("spec.image", "spec.npus"), ("image: train:v1", "huawei.com/Ascend910: 4")),
    (FAULT_RETRY_LABEL, ("spec.faultRetryTimes",), ("fault-retry-times",)),
    (RESTART_POLICY, ("spec.restartPolicy",), ("restartPolicy: OnFailure",)),
], ids=["npus-and-image-under-a-container-patch", "fault-retry-times-added", "restart-policy-on-failure"])
def test_the_overrides_of_the_issue_are_located_errors(tmp_path, text, fields, lines):
    """npus: 16 and image: v2 compiled to 2 pods x 4 NPUs of v1; a fault-retry-times label added by patch gave
    OnFailure and RestartJob; a patched restartPolicy: OnFailure was a warning where the field's is an error."""
    path = tmp_path / "job.yaml"
    path.write_text(VOLCANO_JOB + text, encoding="utf-8")
    proc = run_cli("compile", str(path))
    assert proc.returncode == 1 and proc.stdout == "", proc.stderr
    first = proc.stderr.splitlines()[0]
    rows = (VOLCANO_JOB + text).splitlines()
    places = [(n, rows[n - 1].index(line.split(":")[0]) + 1) for n in range(1, len(rows) + 1)
              for line in lines if line in rows[n - 1]]
    assert any(first.startswith(f"{path}:{n}:") for n, _ in places), first
    assert first.endswith("[AC024]") and any(field in proc.stderr for field in fields)
    linted = run_cli("lint", str(path))  # lint of the spec says what compile says
    assert linted.returncode == 1 and linted.stdout.splitlines()[0] == first, linted.stdout + linted.stderr


def test_patches_that_change_nothing_a_field_writes_still_merge():
    """Tolerations, a sidecar, a standard volume removed, a field restated, and the Ignore policy upstream's YAML
    reference asks for with fault-retry-times (no field writes it) are the patches' to say."""
    fields = {"framework": "pytorch", "profile": "module-910b-8", "target": "VolcanoJob", "npus": 16, "image": "t:1",
              "faultRetryTimes": 3,
              "podTemplatePatch": {"spec": {"tolerations": [{"key": "npu", "operator": "Exists"}],
                                            "restartPolicy": "Never",
                                            "containers": [{"name": "log-shipper", "image": "fluent-bit:3.0"},
                                                           {"name": "ascend", "volumeMounts": [
                                                               {"name": "localtime", "$patch": "delete"}]}],
                                            "volumes": [{"name": "localtime", "$patch": "delete"}]}},
              "jobPatch": {"metadata": {"labels": {"team": "a", "fault-retry-times": "3"}},
                           "spec": {"policies": [{"event": "PodFailed", "action": "Ignore"}]}}}
    job = compile_specs([Document("<test>", 0, _document(fields), None)], SESSION)[0].objects[-1]
    assert job["spec"]["policies"] == [{"event": "PodFailed", "action": "Ignore"}]
    pod = job["spec"]["tasks"][0]["template"]["spec"]
    assert [c["name"] for c in pod["containers"]] == ["ascend", "log-shipper"] and pod["tolerations"]


def test_a_patch_bringing_back_the_policy_fault_retry_times_replaces_is_refused():
    fields = {"framework": "pytorch", "profile": "module-910b-8", "target": "VolcanoJob", "npus": 16, "image": "t:1",
              "faultRetryTimes": 3,
              "jobPatch": {"spec": {"policies": [{"event": "PodEvicted", "action": "RestartJob"}]}}}
    with pytest.raises(CompileError) as refused:
        compile_specs([Document("<test>", 0, _document(fields), None)], SESSION)
    [finding] = refused.value.findings
    assert (finding.rule, finding.path) == ("AC024", ("spec", "jobPatch", "spec", "policies"))
    assert "spec.faultRetryTimes" in finding.hint


@pytest.mark.parametrize("patch,where,hint", [
    ({"metadata": {"labels": {"ring-controller.atlas": None}}}, ("metadata", "labels", "ring-controller.atlas"),
     "no spec field leaves it out"),
    ({"metadata": {"labels": {"fault-retry-times": None}}}, ("metadata", "labels", "fault-retry-times"),
     "set spec.faultRetryTimes instead"),
])
def test_a_removal_names_the_field_that_leaves_it_out_or_says_none_does(patch, where, hint):
    fields = {"framework": "pytorch", "profile": "module-910b-8", "target": "VolcanoJob", "npus": 16, "image": "t:1",
              "faultRetryTimes": 3, "jobPatch": patch}
    with pytest.raises(CompileError) as refused:
        compile_specs([Document("<test>", 0, _document(fields), None)], SESSION)
    [finding] = refused.value.findings
    assert (finding.rule, finding.path) == ("AC024", ("spec", "jobPatch", *where)) and hint in finding.hint


def test_the_derivation_changes_every_setting_of_a_spec():
    """A setting the emitter may read is one the derivation changes, so a new field is derived without a list of
    its paths (the field's name and the values it takes are all it needs in FIELDS)."""
    changed = {setting.attribute for _, setting, _ in FIELDS}
    settings = {*Spec.__match_args__, *(f"resilience.{name}" for name in Resilience.__match_args__)}
    assert sorted(settings - changed - set(UNCHANGED)) == []
    assert {name for name, _, _ in REPLICA_SETTINGS} == set(Replica.__match_args__) - {"patch"}
