"""``compile examples/ -o DIR``: the shipped examples compile as the sets examples/README.md names, and
the one folder that cannot (samples/, upstream's job names repeat) is the only reason the whole fails."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tests.checkout import ROOT, run_cli

LAYOUT = (ROOT / "examples" / "README.md").read_text(encoding="utf-8")


def test_everything_but_the_samples_compiles_as_one_set(tmp_path: Path) -> None:
    [command] = [line for line in LAYOUT.splitlines() if line.startswith("ascend-compile compile examples/*.yaml")]
    args = command.split()[2:-2]  # the paths between "ascend-compile compile" and "-o manifests/"
    specs = [str(p.relative_to(ROOT)) for arg in args for p in sorted(ROOT.glob(arg))]  # as the shell expands them
    result = run_cli("compile", *specs, "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr[-3000:]
    written = {p.name for p in (tmp_path / "out").iterdir()}
    assert len(written) >= 90


def test_the_whole_folder_fails_only_for_the_reasons_the_layout_gives(tmp_path: Path) -> None:
    result = run_cli("compile", "examples/", "-o", str(tmp_path / "out"), "--format", "json")
    assert result.returncode == 1
    assert not (tmp_path / "out").exists()  # all or nothing
    findings = json.loads(result.stdout)["findings"]
    reasons = {(f["rule"], "samples" if f["file"].startswith("examples/samples/") else f["file"]) for f in findings}
    assert reasons == {("AC020", "samples")}  # a walk leaves kustomize/generator's kustomization.yaml out
    assert all("defined twice" in f["message"] for f in findings if f["rule"] == "AC020")
    assert "defined twice" in LAYOUT and re.search(r"`samples/`.*\*\*no\*\*", LAYOUT)
    assert "skips its `kustomization.yaml`" in LAYOUT
