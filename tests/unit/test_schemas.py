"""The built-in schemas, the fast validator, and its agreement with python-jsonschema."""
from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import time

import pytest

from ascend_compile.catalogue import (BAD_FORMAT, MISSING_REQUIRED, NOT_ALLOWED_VALUE, NOT_AN_OBJECT, UNKNOWN_FIELD,
                                      UNKNOWN_KIND, WRONG_TYPE)
from ascend_compile.findings import ERROR, WARNING
from ascend_compile.schemacheck.check import validate_document, validate_object
from ascend_compile.schemacheck.messages import SCHEMA_RULES, SchemaError
from ascend_compile.schemacheck.registry import Registry, normalize_volcano_version
from ascend_compile.schemacheck.validator import Validator, _Compiler
from ascend_compile.yamlio.parsing import load_documents, load_file

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(REPO, "schemas")
NEGATIVE = os.path.join(REPO, "tests", "negative")
UPSTREAM = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))), "shared", "upstream")
SAMPLES = os.path.join(UPSTREAM, "samples")
CRDS = os.path.join(UPSTREAM, "crds")

needs_upstream = pytest.mark.skipif(
    not os.path.isdir(SAMPLES),
    reason="the upstream samples and CRDs (../shared/upstream beside the repository) are not in this checkout")


def sample_files():
    if not os.path.isdir(SAMPLES):
        return []
    return sorted(glob.glob(os.path.join(SAMPLES, "*.yaml")) + glob.glob(os.path.join(SAMPLES, "master", "*.yaml")))


def negative_files():
    return sorted(glob.glob(os.path.join(NEGATIVE, "*.yaml")))


_EXPECT = re.compile(r"^#\s*expect:\s*(AC\d{3})\s+(\d+):(\d+)\s*$")
_OPTIONS = re.compile(r"^#\s*options:\s*(.*)$")


def parse_header(path):
    """``# expect: AC101 12:7`` lines (one per finding) and ``# options: volcano-version=1.9``."""
    expects, options = set(), {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.startswith("#"):
                break
            match = _EXPECT.match(line.strip())
            if match:
                expects.add((match.group(1), int(match.group(2)), int(match.group(3))))
            match = _OPTIONS.match(line.strip())
            if match:
                for item in match.group(1).split():
                    key, _, value = item.partition("=")
                    options[key] = value
    return expects, options


# --------------------------------------------------------------------------- the schema files


def index_files():
    with open(os.path.join(SCHEMAS, "index.json"), encoding="utf-8") as handle:
        kinds = json.load(handle)["kinds"]
    files = []
    for key, entry in sorted(kinds.items()):
        if "file" in entry:
            files.append(entry["file"])
        else:
            assert entry["default"] in entry["volcano"], key
            files.extend(sorted(entry["volcano"].values()))
    return files


def walk_schema(node, visit):
    if isinstance(node, dict):
        visit(node)
        for key, value in node.items():
            if key == "properties":
                for sub in value.values():
                    walk_schema(sub, visit)
            elif key in ("items", "additionalProperties", "not") and isinstance(value, dict):
                walk_schema(value, visit)
            elif key in ("anyOf", "oneOf", "allOf"):
                for sub in value:
                    walk_schema(sub, visit)
            elif key in ("$defs", "definitions"):
                for sub in value.values():
                    walk_schema(sub, visit)


@pytest.mark.parametrize("name", index_files())
def test_every_indexed_schema_exists_and_compiles_completely(name):
    path = os.path.join(SCHEMAS, name)
    if not os.path.exists(path) and name.startswith(("trainingjob-", "profile-")):
        pytest.skip(f"{name} is written by the lead and not present yet")
    with open(path, encoding="utf-8") as handle:
        schema = json.load(handle)
    compiler = _Compiler(schema, strict=True)
    walk_schema(schema, compiler.compile)  # raises SchemaError on an unsupported keyword


GENERATED = ["ascendjob-v1.json", "volcano-job-v1.9.0.json", "volcano-job-v1.15.0.json",
             "volcano-podgroup-v1.9.0.json", "volcano-podgroup-v1.15.0.json",
             "volcano-queue-v1.9.0.json", "volcano-queue-v1.15.0.json", "configmap-v1.json", "namespace-v1.json"]


@pytest.mark.parametrize("name", GENERATED)
def test_generated_schemas_are_strict_and_prose_free(name):
    with open(os.path.join(SCHEMAS, name), encoding="utf-8") as handle:
        text = handle.read()
    schema = json.loads(text)
    assert text == json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    assert schema["additionalProperties"] is False
    assert {"apiVersion", "kind", "metadata"} <= set(schema["required"])
    assert "const" in schema["properties"]["apiVersion"] and "const" in schema["properties"]["kind"]
    meta = schema["properties"]["metadata"]
    assert meta["additionalProperties"] is False and "generateName" in meta["properties"]

    def visit(node):
        assert "description" not in node
        assert "anyOf" not in node or not node.get("x-kubernetes-int-or-string")
        if "properties" in node:
            assert "additionalProperties" in node or node.get("x-kubernetes-preserve-unknown-fields"), node
        if node.get("x-kubernetes-int-or-string"):
            assert node["type"] == ["integer", "string"]
    walk_schema(schema, visit)


def test_ascendjob_pod_template_metadata_is_strict_object_meta():
    with open(os.path.join(SCHEMAS, "ascendjob-v1.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    template = schema["properties"]["spec"]["properties"]["replicaSpecs"]["additionalProperties"]["properties"][
        "template"]
    meta = template["properties"]["metadata"]
    assert meta["additionalProperties"] is False
    assert meta["properties"]["labels"] == {"additionalProperties": {"type": "string"}, "type": "object"}


@needs_upstream
def test_generator_reproduces_the_committed_schemas(tmp_path):
    crds = [os.path.join(CRDS, "CustomResourceDefinition-ascendjobs.mindxdl.gitee.com.yaml")]
    for release in ("volcano-v1.9.0", "volcano-v1.15.0"):
        crds += sorted(glob.glob(os.path.join(CRDS, release, "*.yaml")))
    result = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "gen_schemas.py"), *crds,
                             "--out", str(tmp_path)], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, result.stderr
    for name in GENERATED:
        with open(os.path.join(SCHEMAS, name), encoding="utf-8") as committed:
            assert (tmp_path / name).read_text(encoding="utf-8") == committed.read(), name
    index = json.loads((tmp_path / "index.json").read_text(encoding="utf-8"))["kinds"]
    assert index["batch.volcano.sh/v1alpha1/Job"]["default"] == "1.15"


def test_schema_rules_metadata():
    ids = [rule[0] for rule in SCHEMA_RULES]
    assert ids == ["AC101", "AC102", "AC103", "AC104", "AC105", "AC106", "AC107"]
    assert all(len(rule) == 3 and rule[1] and rule[2] for rule in SCHEMA_RULES)


# --------------------------------------------------------------------------- upstream samples

#: Samples that are genuinely defective: file -> {(rule, line, column)}.
DEFECTIVE = {
    # v6.0.0-RC3 operator examples: env `value: 1` is an integer; Kubernetes wants a string.
    "component__ascend-operator__examples__mindspore-distribute-acjob.yaml": {(WRONG_TYPE, 90, 24)},
    "component__ascend-operator__examples__mindspore-standalone-acjob.yaml": {(WRONG_TYPE, 32, 24)},
    "component__ascend-operator__examples__pytorch-distribute-acjob.yaml": {(WRONG_TYPE, 95, 24)},
    "component__ascend-operator__examples__tensorflow-distribute-acjob.yaml": {(WRONG_TYPE, 90, 24)},
    # RunPolicy fields written directly under spec instead of spec.runPolicy.
    "component__ascend-operator__examples__tensorflow-standalone-acjob.yaml": {
        (UNKNOWN_FIELD, 8, 3), (UNKNOWN_FIELD, 9, 3), (UNKNOWN_FIELD, 10, 3)},
    # Not defective, but a Deployment has no built-in schema: an info only.
    "samples__train__basic-training__ranktable__yaml__910b__a800_pytorch_deployment.yaml": {(UNKNOWN_KIND, 15, 7)},
}


#: ids as a list, not a function: without ../shared the list is empty, and pytest before 8.3.5 calls an ids
#: function with its internal NOTSET for an empty parameter set (a collection error); needs_upstream skips it
SAMPLE_FILES = sample_files()


@needs_upstream
@pytest.mark.parametrize("volcano", [None, "1.9"])
@pytest.mark.parametrize("path", SAMPLE_FILES, ids=[os.path.basename(p) for p in SAMPLE_FILES])
def test_upstream_samples(path, volcano):
    got = set()
    for doc in load_file(path):
        for finding in validate_document(doc, volcano_version=volcano):
            got.add((finding.rule, finding.line, finding.column))
            assert finding.file == path
    assert got == DEFECTIVE.get(os.path.basename(path), set())


@needs_upstream
def test_defective_samples_messages():
    doc = load_file(os.path.join(SAMPLES, "component__ascend-operator__examples__pytorch-distribute-acjob.yaml"))[0]
    (finding,) = validate_document(doc)
    assert finding.path[-3:] == ("env", 0, "value")
    assert finding.hint.startswith('quote it: "1"')
    doc = load_file(os.path.join(SAMPLES, "component__ascend-operator__examples__tensorflow-standalone-acjob.yaml"))[0]
    hints = {f.path[-1]: f.hint for f in validate_document(doc)}
    assert hints["backoffLimit"] == '"backoffLimit" belongs under "runPolicy": move it there'


# --------------------------------------------------------------------------- the negative corpus


@pytest.mark.parametrize("path", negative_files(), ids=os.path.basename)
def test_negative_corpus(path):
    expects, options = parse_header(path)
    assert expects, f"{path} declares no '# expect:' line"
    got = set()
    for doc in load_file(path):
        for finding in validate_document(doc, volcano_version=options.get("volcano-version")):
            got.add((finding.rule, finding.line, finding.column))
    assert got == expects


def test_volcano_only_file_is_clean_under_the_default_release():
    path = os.path.join(NEGATIVE, "volcano-1.9-new-pod-field.yaml")
    assert [f for doc in load_file(path) for f in validate_document(doc)] == []


def test_negative_corpus_covers_every_level_and_rule():
    names = {os.path.basename(p)[:-5] for p in negative_files()}
    for level in ("top", "metadata", "spec", "replica", "podspec", "container", "env"):
        assert f"unknown-field-{level}" in names
    rules = set()
    for path in negative_files():
        rules |= {rule for rule, _, _ in parse_header(path)[0]}
    assert {UNKNOWN_FIELD, WRONG_TYPE, MISSING_REQUIRED, NOT_ALLOWED_VALUE, BAD_FORMAT, UNKNOWN_KIND,
            NOT_AN_OBJECT} <= rules


# --------------------------------------------------------------------------- messages and hints


def _findings(text, **kwargs):
    return [f for doc in load_documents(text, "t.yaml") for f in validate_document(doc, **kwargs)]


def _negative(name, **kwargs):
    return [f for doc in load_file(os.path.join(NEGATIVE, name)) for f in validate_document(doc, **kwargs)]


@pytest.mark.parametrize("name, suggestion", [
    ("unknown-field-spec.yaml", '"replicaSpecs"'),
    ("unknown-field-podspec.yaml", '"nodeSelector"'),
    ("unknown-field-runpolicy.yaml", '"backoffLimit"'),
    ("unknown-field-container.yaml", '"imagePullPolicy"'),
    ("unknown-field-metadata.yaml", '"labels"'),
])
def test_did_you_mean(name, suggestion):
    hints = [f.hint for f in _negative(name) if f.rule == UNKNOWN_FIELD]
    assert hints == [f"did you mean {suggestion}?"]


def test_unknown_field_path_and_severity():
    (finding,) = _negative("unknown-field-env.yaml")
    assert finding.severity == ERROR
    assert finding.field_path == "spec.replicaSpecs.Master.template.spec.containers[0].env[1].valeu"
    assert finding.obj == "AscendJob/default/demo"


def test_enum_lists_allowed_values():
    (finding,) = _negative("not-allowed-event.yaml")
    assert finding.rule == NOT_ALLOWED_VALUE
    assert "PodEvicted" in finding.hint and "PodFailed" in finding.hint


def test_quantity_message():
    (finding,) = _negative("bad-format-quantity.yaml")
    assert "not a valid quantity" in finding.message and "32Gi" in finding.hint


def test_string_where_integer_expected_hint():
    (finding,) = _negative("wrong-type-replicas.yaml")
    assert finding.hint == "remove the quotes: 1"


def test_missing_required_points_at_the_object():
    found = {f.rule: f for f in _negative("unknown-field-spec.yaml")}
    assert found[MISSING_REQUIRED].path == ("spec", "replicaSpecs")
    assert found[MISSING_REQUIRED].message == 'missing required field "replicaSpecs"'


def test_no_strict_allows_unknown_fields_but_still_checks_types():
    assert _negative("unknown-field-env.yaml", strict=False) == []
    assert _negative("unknown-field-top.yaml", strict=False) == []
    assert [f.rule for f in _negative("wrong-type-env-value.yaml", strict=False)] == [WRONG_TYPE]


def test_unknown_kind_is_a_warning_unless_strict_kinds():
    (finding,) = _negative("unknown-kind.yaml")
    assert finding.severity == WARNING
    (finding,) = _negative("unknown-kind.yaml", strict_kinds=True)
    assert finding.severity == ERROR


def test_another_projects_kind_is_an_info_unless_strict_kinds():
    (finding,) = _negative("other-project-kind.yaml")
    assert (finding.rule, finding.severity) == (UNKNOWN_KIND, "info")
    (finding,) = _negative("other-project-kind.yaml", strict_kinds=True)
    assert finding.severity == ERROR


@pytest.mark.parametrize("api_version, kind", [
    ("kubeflow.org/v1", "AscendJob"),  # one of our kinds under another group
    ("mindxdl.gitee.com/v1", "AscendJobs"),  # another kind in our group
    ("apps/v1", "Deploymnet"),  # another kind in a Kubernetes group
    ("v1", "ConfigMaps"),
])
def test_an_unknown_kind_that_may_be_a_typo_of_ours_or_kubernetes_is_a_warning(api_version, kind):
    (finding,) = _findings(f"apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: x}}\n")
    assert (finding.rule, finding.severity) == (UNKNOWN_KIND, WARNING)


def test_a_kubernetes_kind_without_a_schema_is_an_info_unless_strict_kinds():
    (finding,) = _negative("kubernetes-kind.yaml")
    assert (finding.rule, finding.severity) == (UNKNOWN_KIND, "info")
    # lint rules still read a Deployment's or Pod's pods: only its fields went unchecked
    assert "fields were not checked" in finding.message and "object was not checked" not in finding.message
    (finding,) = _negative("kubernetes-kind.yaml", strict_kinds=True)
    assert finding.severity == ERROR


def test_not_an_object_variants():
    assert [f.rule for f in _findings("just a string\n")] == [NOT_AN_OBJECT]
    assert [f.rule for f in _findings("apiVersion: 1\nkind: ConfigMap\n")] == [NOT_AN_OBJECT]
    assert [f.rule for f in _findings("kind: ConfigMap\n")] == [NOT_AN_OBJECT]


def test_kind_list_items_are_checked():
    text = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"
            "  data: {x: 1}\n")
    (finding,) = _findings(text)
    assert (finding.rule, finding.path, finding.line, finding.column) == (WRONG_TYPE, ("items", 0, "data", "x"), 7, 13)


def test_booleans_are_not_integers_and_whole_floats_are():
    base = ("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\n"
            "spec:\n  minAvailable: VALUE\n  tasks: [{name: t, replicas: 1, template: {spec: {containers: []}}}]\n")
    assert [f.rule for f in _findings(base.replace("VALUE", "true"))] == [WRONG_TYPE]
    assert _findings(base.replace("VALUE", "1.0")) == []
    assert [f.rule for f in _findings(base.replace("VALUE", "1.5"))] == [WRONG_TYPE]


def test_int_or_string_and_null_timestamp():
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  creationTimestamp: null\n")
    assert _findings(text) == []


def test_validate_object_has_no_locations():
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": 1}, "extra": {}}
    found = validate_object(obj, source="generated")
    assert {(f.rule, f.field_path) for f in found} == {(WRONG_TYPE, "data.a"), (UNKNOWN_FIELD, "extra")}
    assert all(f.line == 0 and f.column == 0 and f.file == "generated" for f in found)
    assert validate_object({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}) == []


def test_volcano_version_selection():
    reg = Registry()
    assert reg.schema_file("batch.volcano.sh/v1alpha1", "Job") == "volcano-job-v1.15.0.json"
    assert reg.schema_file("batch.volcano.sh/v1alpha1", "Job", "1.9") == "volcano-job-v1.9.0.json"
    assert reg.schema_file("batch.volcano.sh/v1alpha1", "Job", "v1.9.0") == "volcano-job-v1.9.0.json"
    assert reg.schema_file("scheduling.volcano.sh/v1beta1", "PodGroup", "1.15") == "volcano-podgroup-v1.15.0.json"
    assert reg.schema_file("example.com/v1", "Thing") is None
    with pytest.raises(ValueError):
        normalize_volcano_version("1.12")


def test_validators_are_built_once():
    reg = Registry()
    first = reg.validator_for("mindxdl.gitee.com/v1", "AscendJob")
    assert reg.validator_for("mindxdl.gitee.com/v1", "AscendJob") is first
    assert reg.validator_for("mindxdl.gitee.com/v1", "AscendJob", strict=False) is not first


SCHEMA_MODULES = ["schemacheck/check.py", "schemacheck/messages.py", "schemacheck/keywords.py",
                  "schemacheck/validator.py", "schemacheck/registry.py", "files/validate.py"]


@pytest.mark.parametrize("name", SCHEMA_MODULES)
def test_schema_modules_stay_small(name):
    """Issue 12: no module over 400 lines, no function over 60."""
    import ast

    with open(os.path.join(REPO, "compiler", name), encoding="utf-8") as handle:
        text = handle.read()
    assert text.count("\n") <= 400, name
    long = [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 60]
    assert long == [], (name, long)


def test_schema_code_imports_no_validator_library():
    """The decision in docs/dependencies.md: our own validator, python-jsonschema only in the tests."""
    for name in SCHEMA_MODULES:
        with open(os.path.join(REPO, "compiler", name), encoding="utf-8") as handle:
            text = handle.read()
        assert not re.search(r"^\s*(import|from)\s+(jsonschema|jsonschema_rs|fastjsonschema)\b", text, re.M), name


def test_unsupported_keyword_is_refused():
    with pytest.raises(SchemaError):
        Validator({"type": "object", "patternProperties": {"x": {}}})


def test_combinators_and_refs():
    schema = {"$defs": {"port": {"type": "integer", "minimum": 1}},
              "type": "object", "additionalProperties": False,
              "properties": {"p": {"$ref": "#/$defs/port"},
                             "q": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^x"}]},
                             "r": {"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]},
                             "s": {"not": {"const": "no"}}},
              "dependentRequired": {"p": ["q"]}}
    v = Validator(schema)
    assert v.is_valid({"p": 2, "q": "xy", "r": "a", "s": "yes"})
    problems = {(rule, path) for rule, path, *_ in v.iter_problems({"p": 0, "r": "ab", "s": "no"})}
    # p below its minimum, q required by p, r matches both oneOf forms, s is the forbidden value
    assert problems == {(BAD_FORMAT, ("p",)), (MISSING_REQUIRED, ("q",)), (BAD_FORMAT, ("r",)),
                        (NOT_ALLOWED_VALUE, ("s",))}
    assert [p for _, p, *_ in v.iter_problems({"q": "yz"})] == [("q",)]


# --------------------------------------------------------------------------- agreement with python-jsonschema

jsonschema = pytest.importorskip("jsonschema")

_INT_RANGES = {"int32": 2 ** 31, "int64": 2 ** 63}
_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")


def reference_checker():
    checker = jsonschema.FormatChecker(formats=())
    for name, bound in _INT_RANGES.items():
        def check(value, bound=bound):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return True
            if isinstance(value, float) and not value.is_integer():
                return True
            return -bound <= value <= bound - 1
        checker.checks(name)(check)
    checker.checks("date-time")(lambda v: not isinstance(v, str) or bool(_DATE_TIME.match(v)))
    checker.checks("byte")(lambda v: not isinstance(v, str) or bool(_BASE64.match(v)))
    return checker


_REFERENCE = {}


def reference_validator(file):
    if file not in _REFERENCE:
        with open(os.path.join(SCHEMAS, file), encoding="utf-8") as handle:
            schema = json.load(handle)
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        _REFERENCE[file] = cls(schema, format_checker=reference_checker())
    return _REFERENCE[file]


def our_paths(problems):
    """Our paths, moved to where jsonschema reports: the object, for unknown and missing fields."""
    out = set()
    for rule, path, _message, _hint, _at_key in problems:
        out.add(path[:-1] if rule in (UNKNOWN_FIELD, MISSING_REQUIRED) else path)
    return out


def agreement_documents():
    docs = []
    for path in sample_files() + negative_files():
        for doc in load_file(path):
            data = doc.data
            if isinstance(data, dict) and isinstance(data.get("apiVersion"), str) and isinstance(data.get("kind"), str):
                docs.append((f"{os.path.basename(path)}#{doc.index}", data))
    return docs


def mutations():
    """Extra invalid variants of the samples, to exercise more of the schemas."""
    out = []
    for name, data in agreement_documents():
        if data.get("kind") not in ("AscendJob", "Job"):
            continue
        text = json.dumps(data)
        variants = {
            "int-to-str": re.sub(r'"replicas": (\d+)', r'"replicas": "\1"', text),
            "bool-to-int": text.replace(": true", ": 1").replace(": false", ": 0"),
            "str-to-list": text.replace('"imagePullPolicy": "IfNotPresent"', '"imagePullPolicy": ["IfNotPresent"]'),
            "rename": text.replace('"containers"', '"container"').replace('"mountPath"', '"mountpath"'),
            "quantity": text.replace('"Gi"', '"Gx"').replace('Gi"', 'GG"'),
        }
        for label, variant in variants.items():
            if variant != text:
                out.append((f"{name}/{label}", json.loads(variant)))
    return out


CORPUS = agreement_documents()


@pytest.mark.parametrize("volcano", [None, "1.9"])
def test_agrees_with_jsonschema(volcano):
    reg = Registry()
    corpus = CORPUS + mutations()
    assert len(corpus) > 40 or not os.path.isdir(SAMPLES)
    checked = invalid = 0
    for name, data in corpus:
        file = reg.schema_file(data["apiVersion"], data["kind"], volcano)
        if file is None or data.get("kind") == "List":
            continue
        ours = reg.validator(file).iter_problems(data)
        ref = list(reference_validator(file).iter_errors(data))
        assert bool(ours) == bool(ref), (name, ours, [e.message for e in ref])
        assert our_paths(ours) == {tuple(e.absolute_path) for e in ref}, name
        checked += 1
        invalid += bool(ours)
    assert checked and (invalid or not os.path.isdir(SAMPLES))
    if os.path.isdir(SAMPLES):  # the size docs/dependencies.md quotes: 420 documents, valid and invalid
        assert checked >= 420 and invalid >= 100 and checked - invalid >= 50, (checked, invalid)


def test_much_faster_than_jsonschema():
    if not os.path.isdir(SAMPLES):
        pytest.skip("the upstream samples (../shared/upstream beside the repository) are not in this checkout")
    path = os.path.join(SAMPLES, "samples__train__basic-training__ranktable__yaml__910b__"
                                 "pytorch_multinodes_acjob_910b_with_ranktable.yaml")
    data = load_file(path)[0].data
    ours = Registry().validator("ascendjob-v1.json")
    ref = reference_validator("ascendjob-v1.json")

    def best(fn, n):
        fn()
        times = []
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(n):
                fn()
            times.append((time.perf_counter() - start) / n)
        return min(times)

    fast = best(lambda: ours.errors(data), 50)
    slow = best(lambda: list(ref.iter_errors(data)), 10)
    assert fast * 4 < slow, (fast, slow)  # about 17x on the development machine


def test_agrees_with_jsonschema_on_the_repository_examples():
    """The hand-written spec/profile schemas (anyOf, const, ...) against the examples and profiles."""
    reg = Registry()
    paths = sorted(glob.glob(os.path.join(REPO, "examples", "**", "*.yaml"), recursive=True)
                   + glob.glob(os.path.join(REPO, "profiles", "*.yaml")))
    checked = 0
    for path in paths:
        for doc in load_file(path):
            data = doc.data
            if not (isinstance(data, dict) and isinstance(data.get("apiVersion"), str)
                    and isinstance(data.get("kind"), str)):
                continue
            file = reg.schema_file(data["apiVersion"], data["kind"])
            if file is None or not os.path.exists(os.path.join(SCHEMAS, file)):
                continue
            variants = [data, dict(data, unexpectedField=1), {k: v for k, v in data.items() if k != "spec"}]
            for variant in variants:
                ours = reg.validator(file).is_valid(variant)
                ref = reference_validator(file).is_valid(variant)
                assert ours == ref, (path, variant is data)
            checked += 1
    if not checked:
        pytest.skip("no examples with a built-in schema in this checkout")
