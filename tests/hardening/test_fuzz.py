"""Property tests: random valid specs compile to manifests that validate and lint clean; mutated
manifests never crash the checkers.

Runs with the derandomized ``ci`` Hypothesis profile (see ``conftest.py``); set
``HYPOTHESIS_PROFILE=dev`` for random, longer runs.  Most checks run in
process through the library functions; a small sample goes through the CLI.
"""
from __future__ import annotations

import copy
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, note, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ascend_compile.config import ProjectConfig  # noqa: E402
from ascend_compile.errors import AscendCompileError, CompileError, InternalError  # noqa: E402
from ascend_compile.findings import ERROR, Finding, exit_code  # noqa: E402
from ascend_compile.compiling.pipeline import compile_specs  # noqa: E402
from ascend_compile.hardware.profiles import ProfileRegistry  # noqa: E402
from ascend_compile.lint.session import open_session  # noqa: E402
from ascend_compile.yamlio.dump import dump_documents
from ascend_compile.yamlio.locations import Document
from ascend_compile.yamlio.parsing import load_documents
from tests.checkout import run_cli

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ProfileRegistry()
CONFIG = ProjectConfig()
SESSION = open_session(CONFIG, REGISTRY)
PROFILES = sorted(REGISTRY.all(), key=lambda p: p.name)
INTERNAL = "internal error"

DNS_LABEL = st.from_regex(r"\A[a-z]([-a-z0-9]{0,20}[a-z0-9])?\Z")
SAFE_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, blacklist_characters="\x7f"),
                    min_size=1, max_size=30)
ENV_NAME = st.from_regex(r"\A[A-Z][A-Z0-9_]{0,15}\Z").filter(
    lambda n: not n.startswith(("ASCEND", "HCCL", "RANK", "MASTER", "WORLD", "LOCAL", "MS_", "NPU", "POD",
                                "TF_", "CM_", "WORKER", "SERVER", "JOB", "DEVICE")))
LABEL_KEY = st.from_regex(r"\A[a-z]([a-z0-9-]{0,10}[a-z0-9])?\Z").map(lambda k: f"example.com/{k}")


# --------------------------------------------------------------------------- strategies


@st.composite
def npus_fields(draw, profile) -> Dict[str, int]:
    """Either ``npus`` or ``pods`` + ``npusPerPod``, always something the profile accepts."""
    if draw(st.booleans()):
        if draw(st.booleans()) or profile.npus_per_node not in profile.multi_pod:  # whole nodes or one pod
            return {"npus": draw(st.sampled_from(profile.single_pod))}
        per_node = profile.npus_per_node
        return {"npus": per_node * draw(st.integers(2, 6))}
    pods = draw(st.integers(1, 4))
    per_pod = draw(st.sampled_from(profile.allowed_per_pod(pods)))
    return {"pods": pods, "npusPerPod": per_pod}


@st.composite
def volumes(draw) -> List[Dict[str, Any]]:
    names = draw(st.lists(DNS_LABEL.filter(lambda n: n not in ("ascend-driver", "dshm", "localtime",
                                                                "ascend-910-config", "ranktable")),
                          max_size=3, unique=True))
    out = []
    for index, name in enumerate(names):
        source = draw(st.sampled_from(["nfs", "hostPath", "pvc", "emptyDir"]))
        volume: Dict[str, Any] = {"name": name, "mountPath": f"/job/v{index}"}
        if source == "nfs":
            volume["nfs"] = f"10.0.0.{index + 1}:/data/{name}"
        elif source == "hostPath":
            volume["hostPath"] = f"/data/{name}"
        elif source == "pvc":
            volume["pvc"] = f"claim-{name}"
        else:
            volume["emptyDir"] = {}
        if draw(st.booleans()):
            volume["readOnly"] = draw(st.booleans())
        out.append(volume)
    return out


@st.composite
def specs(draw) -> Dict[str, Any]:
    profile = draw(st.sampled_from(PROFILES))
    framework = draw(st.sampled_from(profile.frameworks))
    target = draw(st.sampled_from(profile.targets))
    spec: Dict[str, Any] = {"framework": framework, "profile": profile.name,
                            "image": draw(st.sampled_from(["train:1", "swr.example.com/ml/pytorch-train:2.1.0",
                                                           "registry.local:5000/a/b@sha256:" + "a" * 64]))}
    if draw(st.booleans()):
        spec["target"] = target
    spec.update(draw(npus_fields(profile)))
    optional = {
        "imagePullPolicy": st.sampled_from(["Always", "IfNotPresent", "Never"]),
        "command": st.lists(SAFE_TEXT, min_size=1, max_size=3),
        "args": st.lists(SAFE_TEXT, max_size=3),
        "workingDir": st.just("/job/code"),
        "env": st.one_of(st.dictionaries(ENV_NAME, SAFE_TEXT, max_size=3),
                         st.lists(ENV_NAME, max_size=3, unique=True).map(
                             lambda names: [{"name": n, "value": "v"} for n in names])),
        "resources": st.fixed_dictionaries({}, optional={"cpu": st.sampled_from(["8", 16, "500m"]),
                                                         "memory": st.sampled_from(["64Gi", "512Mi"])}),
        "volumes": volumes(),
        "queue": DNS_LABEL,
        "scheduling": st.sampled_from(profile.dialects),
        "retries": st.integers(0, 5),
        "faultRetryTimes": st.integers(0, 100),
        "labels": st.dictionaries(LABEL_KEY, DNS_LABEL, max_size=2),
        "annotations": st.dictionaries(LABEL_KEY, SAFE_TEXT, max_size=2),
        "podLabels": st.dictionaries(LABEL_KEY, DNS_LABEL, max_size=2),
        "podAnnotations": st.dictionaries(LABEL_KEY, SAFE_TEXT, max_size=2),
    }
    for key, strategy in optional.items():
        if draw(st.integers(0, 3)) == 0:
            spec[key] = draw(strategy)
    metadata: Dict[str, Any] = {"name": draw(DNS_LABEL)}
    if draw(st.booleans()):
        metadata["namespace"] = draw(DNS_LABEL)
    return {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob", "metadata": metadata, "spec": spec}


def compile_data(data: Dict[str, Any]) -> List[Dict[str, Any]]:
    text = dump_documents([data])
    jobs = compile_specs(load_documents(text, "spec.yaml"), SESSION)
    return [obj for job in jobs for obj in job.objects]


def describe(findings: List[Finding]) -> str:
    return "\n".join(f"{f.file}:{f.line}:{f.column} {f.rule} {f.severity} {f.field_path}: {f.message}"
                     for f in findings)


def validate_text(text: str, name: str = "out.yaml") -> List[Finding]:
    from ascend_compile.schemacheck.check import validate_document

    findings: List[Finding] = []
    for doc in load_documents(text, name):
        findings.extend(validate_document(doc))
    return findings


def lint_text(text: str, name: str = "out.yaml") -> List[Finding]:
    from ascend_compile.lint import lint_documents

    return lint_documents(load_documents(text, name), REGISTRY, CONFIG, texts={name: text})


# --------------------------------------------------------------------------- valid specs


@given(specs())
def test_random_valid_specs_compile_validate_and_lint_clean(data: Dict[str, Any]) -> None:
    note(dump_documents([data]))
    try:
        objects = compile_data(data)
    except CompileError as exc:
        raise AssertionError("a spec drawn from the valid domain was refused:\n" + describe(exc.findings))
    assert objects
    text = dump_documents(objects)
    assert dump_documents(compile_data(data)) == text, "compile is not deterministic"
    problems = [f for f in validate_text(text) if f.severity == ERROR]
    assert not problems, describe(problems)
    findings = lint_text(text)
    errors = [f for f in findings if f.severity == ERROR or INTERNAL in f.message]
    assert not errors, describe(errors)


def test_mindspore_single_pod_lints_clean() -> None:
    """MindSpore adds a Scheduler pod without NPUs; it is not an NPU pod, so a 2-NPU single-pod job is a
    single-pod job for the NPU rules (it once tripped the multi-pod counts of 850-super-pod)."""
    data = {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "a"},
            "spec": {"framework": "mindspore", "profile": "850-super-pod", "image": "train:1", "pods": 1,
                     "npusPerPod": 2}}
    text = dump_documents(compile_data(data))
    errors = [f for f in lint_text(text) if f.severity == ERROR]
    assert not errors, describe(errors)


# --------------------------------------------------------------------------- mutated manifests


def _seed_texts() -> List[Tuple[str, str]]:
    seeds: List[Tuple[str, str]] = []
    for spec in sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "examples" / "matrix").glob("*.yaml"))[:12]:
        try:
            jobs = compile_specs(load_documents(spec.read_text(encoding="utf-8"), spec.name), SESSION)
        except AscendCompileError:
            continue
        seeds.append((f"compiled/{spec.name}", dump_documents([o for j in jobs for o in j.objects])))
    for folder in (ROOT / "golden", ROOT / "tests" / "negative"):
        for path in sorted(folder.rglob("*.yaml"))[:20]:
            seeds.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return seeds


SEEDS = _seed_texts()
SEED_DATA = [(name, [d.data for d in load_documents(text, name)]) for name, text in SEEDS]
SEED_DATA = [(name, docs) for name, docs in SEED_DATA if docs]

REPLACEMENTS = st.one_of(
    st.none(), st.booleans(), st.integers(-2 ** 40, 2 ** 40), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.just({}), st.just([]), st.just({"a": [1, {"b": None}]}),
    st.just([[]]), st.just("1500GB"), st.just("-1"), st.just(2 ** 70))


def _paths(value: Any, prefix: Tuple = ()) -> List[Tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out.extend(_paths(child, prefix + (key,)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out.extend(_paths(child, prefix + (index,)))
    return out


def _parent(root: Any, path: Tuple) -> Any:
    for element in path[:-1]:
        root = root[element]
    return root


@st.composite
def mutated(draw) -> Tuple[str, str]:
    """A seed manifest stream with 1-3 mutations, as YAML text (or raw text for a duplicate key)."""
    name, docs = draw(st.sampled_from(SEED_DATA))
    docs = copy.deepcopy(docs)
    duplicate = False
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(docs) - 1))
        paths = _paths(docs[index])
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "duplicate-key"] if path else ["replace"]))
        if not path:
            docs[index] = copy.deepcopy(draw(REPLACEMENTS))
            continue
        parent = _parent(docs[index], path)
        if action == "replace":
            parent[path[-1]] = copy.deepcopy(draw(REPLACEMENTS))
        elif action == "delete":
            del parent[path[-1]]
        else:
            duplicate = True
    text = dump_documents(docs)
    if duplicate:  # repeat one "key: value" line right after itself
        lines = text.splitlines(keepends=True)
        candidates = [i for i, line in enumerate(lines) if ": " in line and not line.lstrip().startswith("-")]
        if candidates:
            i = draw(st.sampled_from(candidates))
            lines.insert(i + 1, lines[i])
            text = "".join(lines)
    return name, text


def check_in_process(text: str, name: str = "mutant.yaml") -> Tuple[int, str]:
    """Validate and lint ``text`` as the CLI would; return (exit code, rendered findings)."""
    from ascend_compile.errors import InputError
    from ascend_compile.lint import lint_documents
    from ascend_compile.schemacheck.check import validate_document

    try:
        docs = load_documents(text, name)
    except InputError as exc:
        return exit_code(exc.findings), describe(exc.findings)
    findings = [f for doc in docs for f in validate_document(doc)]
    findings += lint_documents(docs, REGISTRY, CONFIG, texts={name: text})
    findings.sort(key=Finding.sort_key)
    return exit_code(findings), describe(findings)


@settings(max_examples=100)
@given(mutated())
def test_mutated_manifests_never_crash(case: Tuple[str, str]) -> None:
    seed, text = case
    note(f"seed {seed}:\n{text}")
    code, report = check_in_process(text)
    assert code in (0, 1, 2)
    assert INTERNAL not in report, report
    assert check_in_process(text) == (code, report), "not deterministic"


@settings(max_examples=60)
@given(mutated())
def test_mutated_specs_never_crash_compile(case: Tuple[str, str]) -> None:
    """Compile anything (mostly not specs): only clean findings, never an exception."""
    seed, text = case
    try:
        compile_specs(load_documents(text, "mutant.yaml"), SESSION)
    except AscendCompileError as exc:
        assert exc.findings and INTERNAL not in describe(exc.findings)


SPEC_SEEDS = [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*.yaml"))]


@st.composite
def mutated_specs(draw) -> str:
    name, text = draw(st.sampled_from(SPEC_SEEDS))
    data = load_documents(text, name)[0].data
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = _parent(data, path)
        if draw(st.booleans()):
            parent[path[-1]] = copy.deepcopy(draw(REPLACEMENTS))
        else:
            del parent[path[-1]]
    return dump_documents([data])


@settings(max_examples=100)
@given(mutated_specs())
def test_mutated_specs_compile_or_fail_cleanly(text: str) -> None:
    note(text)
    try:
        jobs = compile_specs(load_documents(text, "spec.yaml"), SESSION)
    except InternalError as exc:
        raise AssertionError(f"internal error: {exc}")
    except AscendCompileError as exc:
        assert exc.findings and INTERNAL not in describe(exc.findings), describe(exc.findings)
        assert all(f.line > 0 for f in exc.findings if not f.input_error), describe(exc.findings)
        return
    text_out = dump_documents([o for j in jobs for o in j.objects])
    assert not [f for f in validate_text(text_out) if f.severity == ERROR]


@pytest.mark.parametrize("extra", ["  env:\n  - name: NODE_NAME\n    valueFrom:\n      fieldRef: {}\n",
                                   "  podTemplatePatch:\n    spec:\n      containers: 5\n"],
                         ids=["valueFrom", "podTemplatePatch"])
def test_passthrough_fields_are_checked(extra: str) -> None:
    text = (ROOT / "examples" / "pytorch-module-910b-8.yaml").read_text(encoding="utf-8") + extra
    with pytest.raises(CompileError) as info:
        compile_specs(load_documents(text, "spec.yaml"), SESSION)
    assert all(f.line > 0 for f in info.value.findings)


@pytest.mark.parametrize("fields", ["npus: 16.0", "pods: 2.0\n  npusPerPod: 8"])
def test_integral_float_npus(fields: str) -> None:
    text = (ROOT / "examples" / "pytorch-module-910b-8.yaml").read_text(encoding="utf-8").replace("npus: 16", fields)
    try:
        compile_specs(load_documents(text, "spec.yaml"), SESSION)
    except CompileError as exc:
        assert all(f.line > 0 for f in exc.findings)


# --------------------------------------------------------------------------- a CLI sample


def _cli(*args: str, input: str) -> subprocess.CompletedProcess:
    return run_cli(*args, input=input)


@settings(max_examples=6)
@given(mutated())
def test_mutated_manifests_through_the_cli(case: Tuple[str, str]) -> None:
    seed, text = case
    note(f"seed {seed}:\n{text}")
    for command in ("validate", "lint"):
        first = _cli(command, "-", input=text)
        assert "Traceback" not in first.stdout + first.stderr, first.stderr
        assert first.returncode in (0, 1, 2), first.stderr
        assert INTERNAL not in first.stdout + first.stderr
        second = _cli(command, "-", input=text)
        assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
