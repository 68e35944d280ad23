"""A finding on a document without a kind (a snippet of only metadata: AC107) names its object in words a
reader understands, the same in every reporter and for lint and validate: ``namespace/name (no kind)``, or
nothing (its file and line say where) when it has no name either; never ``?``."""
from __future__ import annotations

import json

import pytest

from tests.checkout import run_cli, write_tree

FILES = {"named.yaml": "metadata:\n  name: train\n  namespace: team-a\n",
         "bare.yaml": "metadata:\n  labels: {app: x}\n",
         "nokind.yaml": "apiVersion: v1\nmetadata: {generateName: job-}\n"}
OBJECTS = {"./bare.yaml": "", "./named.yaml": "team-a/train (no kind)", "./nokind.yaml": "job- (no kind)"}
COMMANDS = [("lint", "--no-cache"), ("validate",)]


@pytest.fixture
def snippets(tmp_path):
    write_tree(tmp_path, FILES)
    return tmp_path


def _run(snippets, command, fmt):
    result = run_cli(*command, "--format", fmt, ".", cwd=snippets, env={"NO_COLOR": "1"})
    assert result.returncode == 1, result.stderr
    return result.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_json_and_sarif_name_the_object_without_a_kind(snippets, command):
    findings = json.loads(_run(snippets, command, "json"))["findings"]
    assert {f["file"]: f["object"] for f in findings if f["rule"] == "AC107"} == OBJECTS
    results = json.loads(_run(snippets, command, "sarif"))["runs"][0]["results"]
    named = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r.get("properties", {}).get("object", "")
             for r in results if r["ruleId"] == "AC107"}
    assert named == OBJECTS


@pytest.mark.parametrize("command", COMMANDS)
def test_text_says_in_with_a_name_and_nothing_without(snippets, command):
    text = _run(snippets, command, "text")
    assert "?" not in text
    assert "    in: team-a/train (no kind)\n" in text and "    in: job- (no kind)\n" in text
    bare = text[text.index("./bare.yaml:"):].split("\n\n")[0]
    assert "in:" not in bare and "[AC107]" in bare
