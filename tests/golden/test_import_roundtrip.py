"""``import``: every golden imports to a spec that compiles back to it; with ``--exact`` every upstream sample
imports to a spec that compiles back to the same objects (and the scheduling/runtime fields the projection
tests/golden/test_samples_agree.py compares samples with), or is refused with its reason; the specs are short;
random manifests import exactly or fail loudly. (Without ``--exact``: tests/golden/test_import_same_job.py.)"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ascend_compile.files.discovery import read_documents
from ascend_compile.importer import ImportRefused, import_documents
from ascend_compile.importer.mergediff import canonical
from ascend_compile.importer.render import render
from ascend_compile.importer.search import comparable
from ascend_compile.compiling.pipeline import compile_specs
from ascend_compile.yamlio.parsing import load_documents
from tests.checkout import ROOT, SHARED, run_cli
from tests.golden.test_samples_agree import project

GOLDENS = sorted((ROOT / "golden").rglob("*.yaml"))
SAMPLES = sorted((SHARED / "upstream" / "samples").rglob("*.yaml")) if (SHARED / "upstream").is_dir() else []

#: upstream samples import refuses, each because upstream itself refuses the job (or there is none), and
#: what import says
REFUSED = {
    # `value: 1` under env: the AscendJob CRD types EnvVar.value as a string, so the API server rejects the
    # job (the samples agreement test lists it as the samples' defect)
    "component__ascend-operator__examples__mindspore-distribute-acjob.yaml": "expected a string, got an integer",
    "component__ascend-operator__examples__mindspore-standalone-acjob.yaml": "expected a string, got an integer",
    "component__ascend-operator__examples__pytorch-distribute-acjob.yaml": "expected a string, got an integer",
    "component__ascend-operator__examples__tensorflow-distribute-acjob.yaml": "expected a string, got an integer",
    # cleanPodPolicy, backoffLimit, schedulingPolicy directly under spec: kubectl's strict field validation
    # rejects unknown fields (the API server would prune them: the operator never sees them either way)
    "component__ascend-operator__examples__tensorflow-standalone-acjob.yaml": 'unknown field "cleanPodPolicy"',
    # a Deployment and its ConfigMap: no job at all (both are skipped with a note)
    "samples__train__basic-training__ranktable__yaml__910b__a800_pytorch_deployment.yaml":
        "no AscendJob or Volcano Job to import",
    # 8 NPUs in one pod: the plugin's 310P card handler takes 1 or 2 per pod, so the job stays Pending
    # ("req npu(8) illegal"; lint says so too)
    "samples__inference__volcano__pytorch_acjob_infer_310p_with_ranktable.yaml":
        "8 NPUs cannot be placed on 310p",
    # a volume named huawei.com/npu-config: not a DNS-1123 label, Volcano's admission webhook refuses the job
    # (lint's AC709); the spec would say the same and compile would refuse it
    "samples__train__basic-training__ranktable__yaml__950__a950_superpod_pytorch_vcjob.yaml":
        "volume name 'huawei.com/npu-config' is not a DNS-1123 label",
    # what a spec field writes, the job has otherwise or lacks (compile refuses a jobPatch that changes it, AC024),
    # so no spec compiles to the job: the Master has the accelerator-type selector, the Worker not
    **{f"samples__train__basic-training__without-ranktable__{name}.yaml":
       "lacks spec.replicaSpecs.Worker.template.spec.nodeSelector.accelerator-type"
       for name in ("mindspore__mindspore_multinodes_acjob", "mindspore__mindspore_multinodes_acjob_super_pod",
                    "pytorch__pytorch_multinodes_acjob_super_pod", "tensorflow__tensorflow_multinodes_acjob_super_pod")},
    # chip4-node8 names a handler the module-910 profile never writes (it writes accelerator-type)
    "samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob.yaml":
        "has metadata.annotations.huawei.com/schedule_policy: 'chip4-node8'",
    # the ranktable ConfigMap is mounted under another volume name than the one the spec writes
    **{f"samples__train__basic-training__ranktable__yaml__950__a950_superpod_{fw}_vcjob.yaml":
       "lacks spec.tasks[default-test].template.spec.volumes[ascend-910-config]" for fw in ("mindspore", "tensorflow")},
    # a Volcano Job without the ring-controller.atlas label every compiled job has
    "samples__utils__env_validation__train-volcano.yaml": "lacks metadata.labels.ring-controller.atlas",
    # a volume named ranktable mounted at /user/mindx/ranktable, not where spec.ranktable puts it
    "tests__st__testcases__multi_node_schedule__resources_0001__job_kwok_simulator-8x8.yaml":
        "volumeMounts[ranktable]: {'name': 'ranktable', 'mountPath': '/user/mindx/ranktable'}",
    # the job lacks an env the compiled job writes (named after the job, from the pod)
    "tests__st__testcases__multi_node_schedule__resources_0001__vcjob_kwok_simulator-8x8.yaml":
        "env[default-test-vcjob-8pod-8npu]",
    # MindIO's ttp-port without the recover-strategy annotation: processRecovery writes both or neither
    "tests__st__testcases__multi_pod_schedule__resources_0001__job_llama-2x16.yaml":
        "has spec.replicaSpecs.Master.template.spec.containers[ascend].ports[ttp-port]",
}
#: refused samples of which the other version (upstream's master branch, or the release) a spec carries, by the
#: folder of the version that imports ("master" or "samples")
IMPORTS_IN = {"samples__train__basic-training__without-ranktable__mindspore__mindspore_multinodes_acjob_super_pod.yaml":
              "master",
              "samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob.yaml": "samples"}


def refused(path: Path) -> Optional[str]:
    """Why import refuses the sample at ``path``, or None when it imports."""
    if IMPORTS_IN.get(path.name) == path.parent.name:
        return None
    return REFUSED.get(path.name)


#: upstream samples whose job imports while an object beside it is skipped with a note (it stays a manifest)
SKIPPED = {
    # the reset ConfigMap says namespace: default, the job names none: the spec writes its own reset
    # ConfigMap in the job's namespace, and this one is left as it is
    "tests__st__testcases__multi_node_schedule__resources_0001__job_kwok_simulator-8x8.yaml":
        ("ConfigMap", "reset-config-default-test-8x8"),
    "tests__st__testcases__multi_pod_schedule__resources_0001__job_llama-2x16.yaml":
        ("ConfigMap", "reset-config-default-test-2x16"),
}


def roundtrip(path: Path, skipped: Optional[List[Any]] = None, exact: bool = True) -> List[Any]:
    """Import ``path`` (``--exact`` unless told), render the spec as text, read it back, compile it as ``compile``
    does, its output linted (a job lint finds an error in, e.g. a volume name Volcano refuses, is refused by
    import with that reason, not written as a spec that compile refuses): the objects.
    """
    imported = import_documents(read_documents([str(path)]), skipped=skipped, exact=exact)
    text = "---\n".join(render(one) for one in imported)
    return [obj for job in compile_specs(load_documents(text, "imported.yaml")) for obj in job.objects]


def same_objects(original: List[Any], compiled: List[Any]) -> None:
    """The compiled objects the original has are the original's; projected, the two agree."""
    mine = {(o.get("kind"), (o.get("metadata") or {}).get("name")): o for o in original}
    kept = [o for o in compiled if (o.get("kind"), (o.get("metadata") or {}).get("name")) in mine]
    assert len(kept) == len(mine)
    for obj in kept:
        other = mine[(obj.get("kind"), (obj.get("metadata") or {}).get("name"))]
        assert canonical(comparable(obj)) == canonical(comparable(other))
    assert project(kept) == project(original)


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: str(p.relative_to(ROOT / "golden")))
def test_every_golden_imports_and_compiles_back(path: Path) -> None:
    """Exactly; and what the compiler wrote has no harmless difference to accept (unless its spec patched one
    away), so without --exact too it comes back whole."""
    original = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    same_objects(original, roundtrip(path))
    source = ROOT / "examples" / path.relative_to(ROOT / "golden")
    if not (source.is_file() and "Patch:" in source.read_text(encoding="utf-8")):
        same_objects(original, roundtrip(path, exact=False))


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name[-70:] for p in SAMPLES])  # a list: SAMPLES may be empty
def test_with_exact_every_upstream_sample_imports_and_compiles_back_or_is_refused_with_its_reason(path: Path) -> None:
    original = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    if refused(path) is not None:
        with pytest.raises(ImportRefused):
            roundtrip(path)
        with pytest.raises(ImportRefused) as info:  # the reason: without --exact, which accepts harmless differences
            roundtrip(path, exact=False)
        assert any(str(refused(path)) in f.message for f in info.value.findings), info.value.findings
        # AC026, or the ID of the lint error the job has (one problem, one ID)
        assert all(f.rule == "AC026" or "import refuses the job:" in f.message for f in info.value.findings)
        return
    skipped: List[Any] = []
    try:
        compiled = roundtrip(path, skipped)
    except ImportRefused as exc:
        # a job that differs from every spec's only where the cluster does not act on it (a missing ring-controller
        # label, anti-affinity, mount or env): a jobPatch may not take out what a field writes (AC024), so --exact
        # refuses it, says why, and points to the import without --exact, which works
        errors = [f for f in exc.findings if f.severity == "error"]
        assert errors and all("import it without --exact" in f.hint for f in errors), exc.findings
        assert import_documents(read_documents([str(path)]))
        return
    if path.name in SKIPPED:
        kind, name = SKIPPED[path.name]
        assert [(f.severity, f.message.startswith(f"skipped {kind} {name} ")) for f in skipped] == [("info", True)]
        original = [d for d in original if (d["kind"], d["metadata"]["name"]) != (kind, name)]
        compiled = [o for o in compiled if (o["kind"], o["metadata"]["name"]) != (kind, name)]
    assert skipped == [] or path.name in SKIPPED
    same_objects(original, compiled)


def test_samples_are_there_and_most_import(shared_dir: Path) -> None:
    assert len(SAMPLES) >= 50 and len([p for p in SAMPLES if refused(p) is None]) >= 41


def _leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values())
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    return 1


def test_imported_specs_are_short() -> None:
    """A golden compiled from a spec without patches imports to one without patches, with about as many values
    (a default the compiler fills in may be written out: at most two more)."""
    longer = []
    for path in sorted((ROOT / "golden" / "matrix").glob("*.yaml")) + sorted(ROOT.glob("golden/*.yaml")):
        [imported] = import_documents(read_documents([str(path)]))
        source = yaml.safe_load((ROOT / "examples" / path.relative_to(ROOT / "golden")).read_text())
        if "podTemplatePatch" in source["spec"] or "jobPatch" in source["spec"]:
            continue
        mine, theirs = _leaves(imported.spec), _leaves(source)
        if "jobPatch" in imported.spec["spec"] or mine > theirs + 2:
            longer.append((path.name, mine, theirs))
    assert longer == []


def test_a_fault_retry_volcano_job_with_the_ignore_policy_imports_to_fault_retry_times(tmp_path: Path) -> None:
    """The policy {event: PodFailed, action: Ignore} that upstream's YAML reference asks for (and this compiler
    emitted before) no longer comes from faultRetryTimes: such a manifest still imports to faultRetryTimes, the
    policy kept in the job patch, and compiles back to itself."""
    docs = [d for d in yaml.safe_load_all((ROOT / "golden" / "showcase" / "pytorch-fault-retry-vcjob.yaml")
                                          .read_text(encoding="utf-8")) if d]
    job = docs[-1]
    assert job["kind"] == "Job" and "policies" not in job["spec"]
    job["spec"] = {**job["spec"], "policies": [{"event": "PodFailed", "action": "Ignore"}]}
    path = tmp_path / "with-ignore.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    [imported] = import_documents(read_documents([str(path)]))
    assert imported.spec["spec"]["faultRetryTimes"] == 3
    assert imported.spec["spec"]["jobPatch"]["spec"]["policies"][-1] == {"event": "PodFailed", "action": "Ignore"}
    same_objects(docs, roundtrip(path))


INFERRED = ("resources", "labels", "podLabels", "annotations", "podAnnotations", "replicaTypes", "ports")


def test_resources_labels_and_per_replica_settings_come_back_as_their_fields() -> None:
    """Where a golden's spec (one without patches) sets CPU, memory, /dev/shm, extra labels and annotations,
    shared ports or per-replica settings, import finds the same fields (not a jobPatch that says the same at
    length)."""
    seen, wrong = 0, []
    for path in GOLDENS:
        source_path = ROOT / "examples" / path.relative_to(ROOT / "golden")
        source = yaml.safe_load(source_path.read_text()) if source_path.is_file() else None
        wanted = {k: v for k, v in (source or {}).get("spec", {}).items() if k in INFERRED}
        if not wanted or "Patch" in source_path.read_text():
            continue
        seen += 1
        [imported] = import_documents(read_documents([str(path)]))
        got = {k: imported.spec["spec"].get(k) for k in wanted}
        if got != wanted:
            wrong.append((path.name, wanted, got))
    assert seen >= 10 and wrong == []


# --------------------------------------------------------------------------- random manifests

BASE = [d for d in yaml.safe_load_all((ROOT / "golden" / "matrix" / "pytorch-module-910b-8-acjob.yaml").read_text())
        if d]
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from(["", "x", "$patch", "1.0"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                           st.dictionaries(st.sampled_from(["name", "a", "$patch"]),
                                                                           inner, max_size=3)), max_leaves=6)


def _paths(value: Any, path: tuple = ()) -> List[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out += _paths(child, path + (index,))
    return out


def _mutate(job: Dict[str, Any], choice: int, key: str, value: Any, delete: bool) -> Dict[str, Any]:
    job = copy.deepcopy(job)
    paths = [p for p in _paths(job) if p]
    path = paths[choice % len(paths)]
    parent = job
    for part in path[:-1]:
        parent = parent[part]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    elif isinstance(parent[path[-1]], dict) and not delete:
        parent[path[-1]][key] = value
    else:
        parent[path[-1]] = value
    return job


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from(["name", "extra", "$patch", "labels"]), _VALUES, st.booleans())
@example(choice=878, key="name", value=[], delete=False)  # a port named by a list: the importer crashed
def test_a_random_manifest_imports_exactly_or_fails_loudly(choice: int, key: str, value: Any, delete: bool) -> None:
    job = _mutate(BASE[-1], choice, key, value, delete)
    text = yaml.safe_dump_all([*BASE[:-1], job], sort_keys=False)
    try:
        imported = import_documents(load_documents(text, "random.yaml"), exact=True)
    except ImportRefused as exc:
        # AC026, or the ID of the lint error the job has (one problem, one ID)
        assert exc.findings and all(f.message and (f.rule == "AC026" or "import refuses the job:" in f.message)
                                    for f in exc.findings)
        return
    spec_text = "---\n".join(render(one) for one in imported)
    objects = [obj for one in compile_specs(load_documents(spec_text, "spec.yaml")) for obj in one.objects]
    assert canonical(objects[-1]) == canonical(json.loads(json.dumps(job)))


# --------------------------------------------------------------------------- the command


def test_the_command_prints_specs_and_writes_them(tmp_path: Path) -> None:
    golden = "golden/showcase/pytorch-pod-rescheduling-vcjob.yaml"
    result = run_cli("import", golden)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"# Imported from {golden} by 'ascend-compile import'")
    compiled = run_cli("compile", "-", input=result.stdout)
    assert compiled.returncode == 0, compiled.stderr
    assert [d for d in yaml.safe_load_all(compiled.stdout)] == \
        [d for d in yaml.safe_load_all((ROOT / golden).read_text())]
    written = run_cli("import", golden, "-o", str(tmp_path))
    assert written.returncode == 0 and (tmp_path / "gpt3-pod-resched.yaml").read_text() == result.stdout
    again = run_cli("import", golden, "-o", str(tmp_path))
    assert again.returncode == 2 and "--force" in again.stderr


def test_the_command_accepts_a_harmless_difference_and_lists_it_unless_exact(tmp_path: Path) -> None:
    """A job without /dev/shm: the spec compiles to the job with it, and says so at the top; with --exact its
    jobPatch removes the volume and the spec compiles back to the job byte for byte."""
    job = copy.deepcopy(BASE[-1])
    for replica in job["spec"]["replicaSpecs"].values():
        pod = replica["template"]["spec"]
        pod["volumes"] = [v for v in pod["volumes"] if v["name"] != "dshm"]
        for container in pod["containers"]:
            container["volumeMounts"] = [m for m in container["volumeMounts"] if m["name"] != "dshm"]
    (tmp_path / "job.yaml").write_text(yaml.safe_dump(job, sort_keys=False))
    loose = run_cli("import", str(tmp_path / "job.yaml"))
    assert loose.returncode == 0, loose.stderr
    assert "it compiles to a job the cluster treats the same,\n# with these differences ('import --exact' keeps " \
           "them out):\n#   - every pod also mounts the /dev/shm memory volume" in loose.stdout
    assert "jobPatch" not in loose.stdout
    compiled = yaml.safe_load(run_cli("compile", "-", input=loose.stdout).stdout)
    assert [v["name"] for v in compiled["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["volumes"]].count("dshm") == 1
    exact = run_cli("import", str(tmp_path / "job.yaml"), "--exact")
    assert exact.returncode == 0 and "compiles back to the same job." in exact.stdout and "dshm" in exact.stdout
    assert yaml.safe_load(run_cli("compile", "-", input=exact.stdout).stdout) == job


def test_the_command_refuses_what_it_cannot_carry(tmp_path: Path) -> None:
    job = copy.deepcopy(BASE[-1])
    job["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["nodeSelector"]["zone"] = None
    (tmp_path / "job.yaml").write_text(yaml.safe_dump(job))
    (tmp_path / "other.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unrelated}\n")
    result = run_cli("import", str(tmp_path), "--format", "json")
    assert result.returncode == 1 and result.stderr == ""  # nothing imported: the JSON document is stdout's
    found = json.loads(result.stdout)["findings"]
    assert {f["rule"] for f in found} == {"AC026"}
    assert [f["severity"] for f in found if f["message"].startswith("skipped ConfigMap unrelated: not an AscendJob or Volcano Job")] \
        == ["info"]
    assert [f["severity"] for f in found if "nodeSelector" in f["path"]] == ["error"]
    assert run_cli("import", str(tmp_path / "job.yaml"), "--profile", "nope").returncode == 2


def test_objects_that_are_not_jobs_are_skipped_with_a_note(tmp_path: Path) -> None:
    deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: matrix}\nspec: {}\n"
    golden = ROOT / "golden" / "matrix" / "pytorch-module-910b-8-acjob.yaml"
    (tmp_path / "job.yaml").write_text(golden.read_text() + "---\n" + deployment)
    (tmp_path / "service.yaml").write_text("apiVersion: v1\nkind: Service\nmetadata: {name: web}\n")
    result = run_cli("import", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "# Note: skipped the Deployment web (namespace matrix) of the same file, not an AscendJob or Volcano Job" in result.stdout
    assert "Service web" not in result.stdout  # another file's object: said on stderr only
    line = len(golden.read_text().splitlines()) + 2  # after the golden and the "---"
    assert f"job.yaml:{line}:1: info: skipped Deployment web (namespace matrix): not an AscendJob or Volcano Job" in result.stderr
    assert "service.yaml:1:1: info: skipped Service web: not an AscendJob or Volcano Job" in result.stderr
    compiled = run_cli("compile", "-", input=result.stdout)
    assert [d for d in yaml.safe_load_all(compiled.stdout)] == [d for d in yaml.safe_load_all(golden.read_text())]
    alone = run_cli("import", str(tmp_path / "service.yaml"))
    assert alone.returncode == 1 and "no AscendJob or Volcano Job to import" in alone.stderr


#: a sample that lint --fix does not make runnable: minAvailable 3 for its one pod, so the PodGroup waits for
#: pods never created (lint's AC216, an error: compile would refuse the spec, so import refuses the job)
STILL_REFUSED = {"component__ascend-operator__examples__mindspore-standalone-acjob.yaml": "AC216"}


@pytest.mark.parametrize("name", sorted(n for n in REFUSED if "expected a string" in REFUSED[n]))
def test_a_sample_refused_for_an_env_number_imports_after_lint_fix(name: str, tmp_path: Path) -> None:
    paths = {p.name: p for p in SAMPLES}
    if name not in paths:
        pytest.skip("the upstream samples are not there (../shared)")
    path = tmp_path / name
    path.write_bytes(paths[name].read_bytes())
    with pytest.raises(ImportRefused) as info:
        roundtrip(path, exact=False)
    assert any("'lint --fix' makes the mechanical fixes" in f.hint for f in info.value.findings)
    fixed = run_cli("lint", str(path), "--no-cache", "--fix")
    assert "fixed 1 finding(s) in 1 file(s)" in fixed.stderr, fixed.stderr
    if name in STILL_REFUSED:
        with pytest.raises(ImportRefused) as info:
            roundtrip(path, exact=False)
        assert [f.rule for f in info.value.findings] == [STILL_REFUSED[name]]  # under the lint error's one ID
        assert all("[AC" not in f.message for f in info.value.findings)
        return
    assert roundtrip(path, exact=False)
    try:  # exactly: only if no field writes what the job lacks (else refused, pointing to the import above)
        same_objects([d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d], roundtrip(path))
    except ImportRefused as exc:
        assert all("import it without --exact" in f.hint for f in exc.findings if f.severity == "error")
