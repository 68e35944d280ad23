"""``lint --fix`` / ``--diff`` and SARIF ``fixes`` on a synthetic legacy repository (72 manifests made here):
after --fix only the findings that cannot be fixed mechanically are left, and every file is byte-identical
to what it was except for the fixed values (comments, CRLF line ends, flow style and key order kept)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from tests.checkout import ROOT, run_cli

MATRIX = sorted((ROOT / "golden" / "matrix").glob("*.yaml"))
ENV_ANCHOR = "            - name: XDL_IP\n"
#: (what is put into a file, what --fix turns it into); None: nothing to fix there
INJECTED: List[Tuple[str, str]] = [
    ("            - name: HCCL_CONNECT_TIMEOUT\n              value: 600   # seconds, from the old runbook\n",
     "            - name: HCCL_CONNECT_TIMEOUT\n              value: \"600\"   # seconds, from the old runbook\n"),
    ("            - {name: USE_CACHE, value: true}\n", "            - {name: USE_CACHE, value: \"true\"}\n"),
    ("            - name: MODEL_VERSION\n              value: 1.10\n",
     "            - name: MODEL_VERSION\n              value: \"1.10\"\n"),
]
NOT_FIXABLE = "            - name: SHAPE\n              value: [1, 2]\n"  # a list where a string goes: no safe fix


def lint(repo: Path, *args: str):
    return run_cli("lint", "manifests/", "--no-cache", *args, cwd=repo)


@pytest.fixture()
def repo(tmp_path: Path) -> Tuple[Path, Dict[str, bytes]]:
    """manifests/ and, per file, the bytes --fix must leave (fixable values fixed, all else as written)."""
    folder = tmp_path / "manifests"
    folder.mkdir()
    expected: Dict[str, bytes] = {}
    for i, golden in enumerate(MATRIX):
        text = golden.read_text(encoding="utf-8")
        fixed = text
        if ENV_ANCHOR in text and i % 2 == 0:
            before, after = INJECTED[i % 3]
            text, fixed = (text.replace(ENV_ANCHOR, before + ENV_ANCHOR, 1),
                           fixed.replace(ENV_ANCHOR, after + ENV_ANCHOR, 1))
        if ENV_ANCHOR in text and i % 5 == 0:
            text, fixed = (text.replace(ENV_ANCHOR, NOT_FIXABLE + ENV_ANCHOR, 1),
                           fixed.replace(ENV_ANCHOR, NOT_FIXABLE + ENV_ANCHOR, 1))
        if i % 7 == 0:
            text, fixed = text.replace("\nspec:\n", "\nlegacyField: 1\nspec:\n", 1), \
                fixed.replace("\nspec:\n", "\nlegacyField: 1\nspec:\n", 1)
        data, want = text.encode(), fixed.encode()
        if i % 4 == 1:  # some files were written on Windows
            data, want = data.replace(b"\n", b"\r\n"), want.replace(b"\n", b"\r\n")
        (folder / golden.name).write_bytes(data)
        expected[golden.name] = want
    return tmp_path, expected


def findings(result) -> List[Dict[str, str]]:
    return json.loads(result.stdout)["findings"]


def test_diff_shows_the_fixes_and_changes_nothing(repo) -> None:
    root, _ = repo
    before = {p.name: p.read_bytes() for p in (root / "manifests").iterdir()}
    result = lint(root, "--diff")
    assert result.returncode == 1
    assert '+              value: "600"   # seconds, from the old runbook' in result.stdout
    assert '+            - {name: USE_CACHE, value: "true"}' in result.stdout
    assert {p.name: p.read_bytes() for p in (root / "manifests").iterdir()} == before


def test_fix_leaves_only_what_cannot_be_fixed_and_every_other_byte(repo) -> None:
    root, expected = repo
    assert len(expected) >= 50
    found = findings(lint(root, "--format", "json"))
    fixable = [f for f in found if f["rule"] == "AC102" and "got a list" not in f["message"]]
    assert len(fixable) >= 12 and len(fixable) < len(found)
    result = lint(root, "--fix", "--format", "json")
    assert f"fixed {len(fixable)} finding(s)" in result.stderr
    left = findings(result)
    assert {(f["rule"], f["file"], f["path"]) for f in left} == \
        {(f["rule"], f["file"], f["path"]) for f in found if f not in fixable}
    for name, want in expected.items():
        assert (root / "manifests" / name).read_bytes() == want, name
    assert lint(root, "--diff").returncode == 0  # nothing more to fix


def test_sarif_offers_the_fixes(repo) -> None:
    root, _ = repo
    sarif = json.loads(lint(root, "--format", "sarif").stdout)
    results = sarif["runs"][0]["results"]
    with_fix = [r for r in results if "fixes" in r]
    assert with_fix and all(r["ruleId"] == "AC102" for r in with_fix)
    assert all("fixes" not in r for r in results if r["ruleId"] != "AC102" or "got a list" in r["message"]["text"])
    change = with_fix[0]["fixes"][0]["artifactChanges"][0]
    region = change["replacements"][0]["deletedRegion"]
    assert region["startLine"] == with_fix[0]["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert change["replacements"][0]["insertedContent"]["text"].startswith('"')
