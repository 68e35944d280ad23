"""docs/spec.md is generated from the TrainingJob schema and must not go stale."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_spec_docs.py"
DOC = ROOT / "docs" / "spec.md"
SCHEMA = ROOT / "schemas" / "trainingjob-v1alpha1.json"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_spec_docs", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_spec_docs_are_up_to_date():
    gen = _generator()
    expected = gen.render(json.loads(SCHEMA.read_text(encoding="utf-8")), SCHEMA.name)
    assert DOC.is_file(), "docs/spec.md is missing: run python scripts/gen_spec_docs.py"
    assert DOC.read_text(encoding="utf-8") == expected, \
        "docs/spec.md is stale: run python scripts/gen_spec_docs.py and commit the result"


def test_every_schema_field_is_documented():
    gen = _generator()
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    text = DOC.read_text(encoding="utf-8")
    paths = [path for path, _sub, _req in gen.walk(schema, "", True)]
    assert "spec.npusPerPod" in paths and "spec.volumes[].mountPath" in paths
    for path in paths:
        assert f"### `{path}`" in text, f"{path} has no section in docs/spec.md"
    for name, sub in schema["properties"]["spec"]["properties"].items():
        section = text.split(f"### `spec.{name}`\n", 1)[1].split("\n### ", 1)[0]
        assert "- **Type:**" in section
        for value in sub.get("enum") or ():
            assert json.dumps(value) in section or f"`{value}`" in section, f"spec.{name}: {value!r} not listed"
        if "default" in sub:
            assert "- **Default:**" in section
        if sub.get("description"):
            assert sub["description"] in section


def test_python_names_match_jobspec():
    from ascend_compile.api import JobSpec

    gen = _generator()
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for name in schema["properties"]["spec"]["properties"]:
        keyword = gen.python_name(f"spec.{name}")
        assert JobSpec.spec_fields().get(keyword) == name, f"docs say JobSpec({keyword}=...) for spec.{name}"
