"""``import`` (without ``--exact``) over the upstream samples: the spec compiles to a job the cluster treats the
same as the sample, field by field, but for the harmless differences the spec's header lists; ``jobPatch`` is
a small part of the specs; ``--set spec.image`` and ``--set spec.npus`` change what every spec compiles to.

The harmless differences are judged here on their own (HARMLESS below), not by asking the importer: each one
found must be a kind this test accepts, and the spec's header must name it.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import pytest
import yaml

from ascend_compile.compiling.overrides import apply, parse
from ascend_compile.compiling.pipeline import compile_specs
from ascend_compile.errors import CompileError
from ascend_compile.files.discovery import read_documents
from ascend_compile.importer import Imported, ImportRefused, import_documents
from ascend_compile.importer.render import render
from ascend_compile.importer.search import comparable
from ascend_compile.yamlio.parsing import load_documents
from tests.checkout import SHARED, run_cli
from tests.golden.test_import_roundtrip import SAMPLES, SKIPPED, refused

_MISSING: Any = "<missing>"
_POD = r"spec\.(tasks\[\d+\]|replicaSpecs\.\w+)\.template\.spec"
_CONTAINER = _POD + r"\.containers\[0\]"
#: (path pattern, "sample" where only a value the sample lacks is harmless ("AscendJob": of an AscendJob), None
#: for any change, what the header must say):
#: the differences the cluster does not act on (docs/spec.md, and the importer's harmless module, say why)
HARMLESS: List[Tuple[str, Optional[str], str]] = [
    (r"spec\.tasks\[\d+\]\.name", None, "the task "),
    (r"spec\.tasks\[\d+\]\.template\.spec\.containers\[0\]\.name", None, "the container "),
    (_POD + r"\.volumes\.(dshm|localtime|ascend-driver|ascend-910-config|reset-config)(\..*)?", "sample",
     "every pod also mounts"),
    (_CONTAINER + r"\.volumeMounts\.(dshm|localtime|ascend-driver|ascend-910-config|reset-config)(\..*)?", "sample",
     "every pod also mounts"),
    (_CONTAINER + r"\.ports\.taskd-port(\..*)?", "sample", "taskd-port"),
    (_CONTAINER + r"\.env\.(HCCL_IF_IP|XDL_IP|POD_UID|ASCEND_VISIBLE_DEVICES|POD_IP)(\..*)?", "sample", "the env "),
    (_POD + r"\.dnsPolicy", "sample", "dnsPolicy"),
    (_POD + r"\.automountServiceAccountToken", "sample", "automountServiceAccountToken"),
    (_POD + r"\.affinity(\..*)?", "sample", "anti-affinity"),
    (r"spec\.(queue|maxRetry|schedulerName|minAvailable)", "sample", "is written out"),
    (r"spec\.successPolicy", "sample", "successPolicy"),
    (r"spec\.replicaSpecs\.\w+\.(replicas|restartPolicy)", "sample", "the operator's default"),
    (_CONTAINER + r"\.ports\.ascendjob-port(\..*)?", "sample", "ascendjob-port"),
    (r"spec\.(replicaSpecs\.\w+|tasks\[\d+\])\.template\.metadata(\.labels)?(\.ring-controller\.atlas)?",
     "sample", "ring-controller.atlas"),
    (r"metadata(\.labels)?(\.ring-controller\.atlas)?", "AscendJob", "ring-controller.atlas"),
    (_POD + r"\.affinity\.podAntiAffinity\..*\.values\[0\]", None, "anti-affinity"),
    (r"metadata\.namespace", "sample", "namespace default"),
    (r"spec\.runPolicy(\.schedulingPolicy)?(\.minAvailable)?", "AscendJob", "the operator's default: every pod"),
    (_CONTAINER + r"\.imagePullPolicy", "sample", "imagePullPolicy: IfNotPresent"),
]


def _keyed(items: List[Any], path: str) -> Dict[str, Any]:
    """A list as a map: tasks and containers by position (a rename is one difference), the rest by name."""
    named = all(isinstance(i, dict) and isinstance(i.get("name"), str) for i in items)
    if named and not re.search(r"(tasks|containers)$", path):
        return {f".{i['name']}": i for i in items}
    return {f"[{n}]": i for n, i in enumerate(items)}


def differences(sample: Any, compiled: Any, path: str = "") -> Iterator[Tuple[str, Any, Any]]:
    """(path, sample's value, compiled value) wherever the two differ; a missing side is _MISSING (a map or list
    one side lacks is walked as an empty one, so each of its entries is a difference of its own)."""
    if sample is _MISSING and isinstance(compiled, (dict, list)):
        sample = type(compiled)()
    if compiled is _MISSING and isinstance(sample, (dict, list)):
        compiled = type(sample)()
    if isinstance(sample, dict) and isinstance(compiled, dict):
        for key in sorted(set(sample) | set(compiled), key=str):
            yield from differences(sample.get(key, _MISSING), compiled.get(key, _MISSING),
                                   f"{path}.{key}" if path else str(key))
    elif isinstance(sample, list) and isinstance(compiled, list):
        mine, theirs = _keyed(sample, path), _keyed(compiled, path)
        for key in sorted(set(mine) | set(theirs)):
            yield from differences(mine.get(key, _MISSING), theirs.get(key, _MISSING), path + key)
    elif sample != compiled:
        yield path, sample, compiled


def _trailing_slash(path: str, sample: Any, compiled: Any) -> bool:
    return path.endswith(".path") and isinstance(sample, str) and isinstance(compiled, str) \
        and sample.rstrip("/") == compiled.rstrip("/")


def unexplained(sample: Dict[str, Any], compiled: Dict[str, Any], imported: Imported) -> List[str]:
    """The differences that are not harmless, or harmless and not listed in the spec's header."""
    header = " ".join(imported.accepted)
    out = []
    for path, theirs, mine in differences(sample, compiled):
        if _trailing_slash(path, theirs, mine):
            if "the same directory" not in header:
                out.append(f"{path}: trailing slash, not listed")
            continue
        kind = next((h for h in HARMLESS if re.fullmatch(h[0], path) and (h[1] is None or theirs == _MISSING)
                     and h[1] in (None, "sample", sample.get("kind"))), None)
        if kind is None:
            out.append(f"{path}: {theirs!r} in the sample, {mine!r} compiled")
        elif kind[2] not in header:
            out.append(f"{path}: harmless, but the header does not list it ({kind[2]!r})")
    return out


@functools.lru_cache(maxsize=None)
def _imported(path: Path) -> Tuple[Imported, ...]:
    """The specs import gives for ``path``, imported once for the five tests that read them (none changes them)."""
    return tuple(import_documents(read_documents([str(path)])))


def _compiled(imported: Sequence[Imported], *overrides: str) -> List[Dict[str, Any]]:
    text = "---\n".join(render(one) for one in imported)
    docs = [apply(d, [parse(o) for o in overrides]) for d in load_documents(text, "imported.yaml")]
    return [obj for job in compile_specs(docs) for obj in job.objects]  # linted, as compile does


IMPORTED = [p for p in SAMPLES if refused(p) is None]
#: the parameters: the samples, or one stand-in that the shared_dir fixture skips with its reason
PARAMS = IMPORTED or [Path("(the upstream samples are absent)")]


@pytest.mark.parametrize("path", PARAMS, ids=lambda p: p.name[-70:])
def test_a_sample_imports_to_a_spec_that_compiles_to_a_job_the_cluster_treats_the_same(path: Path,
                                                                                       shared_dir: Path) -> None:
    imported = _imported(path)
    original = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    compiled = {(o["kind"], o["metadata"]["name"]): o for o in _compiled(imported)}
    problems = []
    for obj in original:
        key = (obj["kind"], obj["metadata"]["name"])
        assert key in compiled, f"the spec does not write {key}"
        mine = imported[0] if obj["kind"] in ("AscendJob", "Job") else None
        problems += [f"{key[0]} {key[1]}: {p}" for p in unexplained(comparable(obj), comparable(compiled[key]),
                                                                   mine or Imported({}, "", [], ()))]
    assert problems == []


def test_the_comparison_finds_a_difference_that_is_not_harmless() -> None:
    """The field-by-field comparison above is not blind: a changed image, a lost volume and an added env value
    that is not on the list are each reported; a listed harmless addition is not."""
    sample = {"spec": {"tasks": [{"name": "t", "template": {"spec": {"containers": [
        {"name": "c", "image": "a:1", "env": [{"name": "X", "value": "1"}]}], "volumes": [{"name": "code"}]}}}]}}
    compiled = {"spec": {"tasks": [{"name": "worker", "template": {"spec": {"containers": [
        {"name": "ascend", "image": "a:2", "env": [{"name": "X", "value": "1"}, {"name": "Y", "value": "2"},
                                                    {"name": "HCCL_IF_IP", "value": "ip"}]}]}}}]}}
    listed = Imported({}, "", [], ["the task 't' is named 'worker'", "the container 'c' is named 'ascend'",
                                   "the env HCCL_IF_IP is set"])
    found = unexplained(sample, compiled, listed)
    assert [f.split(":")[0] for f in found] == ["spec.tasks[0].template.spec.containers[0].env.Y.name",
                                                "spec.tasks[0].template.spec.containers[0].env.Y.value",
                                                "spec.tasks[0].template.spec.containers[0].image",
                                                "spec.tasks[0].template.spec.volumes.code.name"]
    assert unexplained(sample, compiled, Imported({}, "", [], []))[0].endswith("the header does not list it "
                                                                               "('the task ')")


def _patch_lines(text: str) -> Tuple[int, int]:
    """(lines of jobPatch, lines of the spec), comments left out."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    inside, patch = False, 0
    for line in lines:
        if line.startswith("  ") and not line.startswith("   "):
            inside = line.startswith("  jobPatch:")
        patch += inside
    return patch, len(lines)


def test_job_patches_are_under_a_tenth_of_the_imported_specs(shared_dir: Path) -> None:
    patch = total = 0
    for path in IMPORTED:
        for one in _imported(path):
            mine, lines = _patch_lines(render(one))
            patch, total = patch + mine, total + lines
    assert total > 1000 and patch < total / 10, f"jobPatch is {patch} of {total} lines"


def _job(objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return [o for o in objects if o["kind"] in ("AscendJob", "Job")][-1]


@pytest.mark.parametrize("path", PARAMS, ids=lambda p: p.name[-70:])
def test_set_image_and_npus_change_what_every_imported_spec_compiles_to(path: Path, shared_dir: Path) -> None:
    """The fields stay effective: no jobPatch puts back the old image or NPU layout. A count the hardware cannot
    take (a super-pod block of 1 holds 1 NPU) is refused by compile for that field, never by the patch."""
    imported = _imported(path)
    before = _job(_compiled(imported))
    spec = imported[0].spec["spec"]
    images = yaml.safe_dump(_job(_compiled(imported, "spec.image=registry/new:2")))
    assert "registry/new:2" in images and f" {spec['image']}\n" not in images
    field = "npus" if "npus" in spec else "pods"  # pods and npusPerPod: a layout the total alone does not give
    try:
        more = _job(_compiled(imported, f"spec.{field}={2 * spec[field]}"))
    except CompileError as exc:
        assert path.name in ONE_NPU_BLOCKS, exc.findings
        assert all(f.rule != "AC401" and "jobPatch" not in str(f.path) for f in exc.findings), exc.findings
        return
    assert more != before


#: samples whose super-pod block (sp-block 1, a single pod) fixes the NPU count: compile refuses any other
ONE_NPU_BLOCKS = {f"samples__train__basic-training__without-ranktable__{fw}__{fw}_standalone_acjob_super_pod.yaml"
                  for fw in ("mindspore", "tensorflow")}


def _framework_said(job: Dict[str, Any]) -> Optional[str]:
    """What the sample itself says its framework is: its framework label, else its pods' framework env."""
    label = (job["metadata"].get("labels") or {}).get("framework")
    if label:
        return str(label)
    said = {"PyTorch": "pytorch", "MindSpore": "mindspore", "Tensorflow": "tensorflow"}
    for line in yaml.safe_dump(job).splitlines():
        found = re.search(r"value: (PyTorch|MindSpore|Tensorflow)$", line)
        if found:
            return said[found.group(1)]
    return None


@pytest.mark.parametrize("path", PARAMS, ids=lambda p: p.name[-70:])
def test_the_framework_is_the_one_the_sample_says(path: Path, shared_dir: Path) -> None:
    """A MindSpore Volcano Job (framework env MindSpore, no framework label) was imported as pytorch."""
    job = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d and d["kind"] in ("AscendJob", "Job")]
    said = _framework_said(job[-1])
    if said is not None:
        assert _imported(path)[0].spec["spec"]["framework"] == said


#: samples whose patch still writes a key a spec field owns, and why no field can
OWNED_IN_PATCH: Dict[str, Any] = {}  # none: compile refuses such a patch (AC024), so import refuses such a job


def test_no_patch_writes_a_label_or_annotation_a_field_owns(shared_dir: Path) -> None:
    from ascend_compile.importer.search import generated_keys

    found = {}
    for path in IMPORTED:
        keys = generated_keys(_imported(path)[0].spec["spec"].get("jobPatch"))
        if keys:
            found[str(path.relative_to(shared_dir / "upstream" / "samples"))] = keys
    assert found == OWNED_IN_PATCH


def test_configmaps_in_default_beside_a_job_that_names_no_namespace_are_the_spec_s(shared_dir: Path,
                                                                                  tmp_path: Path) -> None:
    """The reset ConfigMap of a namespace-less job, in namespace default: the spec names default and writes it
    (it was skipped as an object of another namespace); with --exact the job keeps no namespace and it is
    skipped as before."""
    sample = shared_dir / "upstream" / "samples" / \
        "tests__st__testcases__multi_node_schedule__resources_0001__job_kwok_simulator-8x8.yaml"
    # without its ranktable volume, which only its Worker mounts, at a path of its own: as written no spec carries
    # it (test_import_roundtrip's REFUSED)
    docs = [d for d in yaml.safe_load_all(sample.read_text(encoding="utf-8")) if d]
    for replica in docs[-1]["spec"]["replicaSpecs"].values():
        pod = replica["template"]["spec"]
        pod["volumes"] = [v for v in pod.get("volumes", []) if v["name"] != "ranktable"]
        for container in pod["containers"]:
            container["volumeMounts"] = [m for m in container.get("volumeMounts", []) if m["name"] != "ranktable"]
    path = tmp_path / sample.name
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    skipped: List[Any] = []
    [one] = import_documents(read_documents([str(path)]), skipped=skipped)
    assert skipped == [] and one.spec["metadata"]["namespace"] == "default"
    assert ("ConfigMap", "reset-config-default-test-8x8") in \
        {(o["kind"], o["metadata"]["name"]) for o in _compiled([one])}
    # with --exact the job keeps no namespace, so the ConfigMap is skipped; the job itself is refused (its
    # anti-affinity selects the pods of another name, which only the spec's job name writes), pointing to the
    # import above
    with pytest.raises(ImportRefused) as info:
        import_documents(read_documents([str(path)]), skipped=skipped, exact=True)
    assert [f.message.split(" (")[0] for f in info.value.findings if f.severity == "info"] == \
        ["skipped ConfigMap reset-config-default-test-8x8"]
    assert all("import it without --exact" in f.hint for f in info.value.findings if f.severity == "error")


def test_a_job_lint_finds_an_error_in_is_refused_where_the_error_is(shared_dir: Path) -> None:
    """The spec of upstream's a950 PyTorch Volcano Job would carry its volume named huawei.com/npu-config, which
    compile (its output linted) refuses: import refuses it instead, at that volume of the manifest, under the one
    ID lint gives that error (AC709), not AC026 as well."""
    path = shared_dir / "upstream" / "samples" / \
        "samples__train__basic-training__ranktable__yaml__950__a950_superpod_pytorch_vcjob.yaml"
    with pytest.raises(ImportRefused) as info:
        _imported(path)
    [finding] = [f for f in info.value.findings if f.severity == "error"]
    line = next(n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "- name: huawei.com/npu-config" in text and n > 100)
    assert (finding.rule, finding.line, finding.path[-3:]) == ("AC709", line, ("volumes", 0, "name"))
    assert "compile would refuse" in finding.message and "AC" not in finding.message
    printed = run_cli("import", str(path))
    [said] = [text for text in printed.stderr.splitlines() if ": error: " in text]
    assert printed.returncode == 1 and said.startswith(f"{path}:{line}:") and re.findall(r"\[AC\d+\]", said) == \
        ["[AC709]"], printed.stderr
