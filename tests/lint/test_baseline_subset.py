"""The journey "baseline with pre-commit's file subset" (issue 36 item 3): pre-commit lints only the changed
files.  A baseline's entries of the files not linted in this run are neither stale nor dropped:
``--baseline`` on one file does not call the others' entries stale, ``--write-baseline`` on one file
replaces that file's entries and keeps every other; ``lint.baseline`` in .ascend-compile.yaml is the
baseline lint reads when no option names one."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.checkout import run_cli
from tests.lint.test_baseline import repo  # noqa: F401 - 72 legacy manifests with findings

BASELINE = ".ascend-compile-baseline.json"


def lint(repo: Path, *args: str):
    return run_cli("lint", "--no-cache", *args, cwd=repo)


def entries_by_file(repo: Path) -> dict:
    out: dict = {}
    for entry in json.loads((repo / BASELINE).read_text())["findings"]:
        out.setdefault(entry["file"], []).append(entry)
    return out


def _one_file_with_findings(repo: Path) -> str:
    return sorted(entries_by_file(repo))[0]


@pytest.fixture()
def baselined(repo: Path) -> Path:  # noqa: F811
    written = lint(repo, "manifests/", "--write-baseline", BASELINE)
    assert written.returncode == 0, written.stderr
    return repo


def test_linting_one_file_calls_no_other_files_entries_stale(baselined: Path) -> None:
    everything = entries_by_file(baselined)
    one = _one_file_with_findings(baselined)
    others = sum(e.get("count", 1) for f, es in everything.items() if f != one for e in es)
    ours = sum(e.get("count", 1) for e in everything[one])
    proc = lint(baselined, one, "--baseline", BASELINE, "--fail-on", "info")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == (f"baseline {BASELINE}: {ours} finding(s) baselined (not shown), 0 stale entries; "
                           f"{others} entries of files not linted in this run (kept, not judged)\n")


def test_a_fixed_finding_in_the_linted_file_is_still_stale(baselined: Path) -> None:
    one = _one_file_with_findings(baselined)
    path = baselined / one
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: clean\n", encoding="utf-8")
    ours = sum(e.get("count", 1) for e in entries_by_file(baselined)[one])
    proc = lint(baselined, one, "--baseline", BASELINE, "--fail-on", "info")
    assert proc.returncode == 0, proc.stderr
    assert f"0 finding(s) baselined (not shown), {ours} stale entr" in proc.stderr


def test_write_baseline_on_a_subset_updates_only_those_files(baselined: Path) -> None:
    before = entries_by_file(baselined)
    one = _one_file_with_findings(baselined)
    path = baselined / one
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: clean\n", encoding="utf-8")
    proc = lint(baselined, one, "--write-baseline", BASELINE)
    assert proc.returncode == 0, proc.stderr
    kept = sum(len(es) for f, es in before.items() if f != one)
    assert proc.stderr == (f"wrote baseline {BASELINE}: 0 finding(s) in 1 file(s), kept {kept} entries of files "
                           f"not linted in this run; lint --baseline {BASELINE} now reports only new ones\n")
    after = entries_by_file(baselined)
    assert one not in after
    assert after == {f: es for f, es in before.items() if f != one}
    # and the whole repository still lints clean against it
    proc = lint(baselined, "manifests/", "--baseline", BASELINE, "--fail-on", "info")
    assert proc.returncode == 0, proc.stdout
    assert "0 stale entries" in proc.stderr


def test_the_baseline_written_from_parts_is_the_one_written_at_once(baselined: Path) -> None:
    whole = (baselined / BASELINE).read_text()
    files = sorted(p.name for p in (baselined / "manifests").iterdir())
    (baselined / BASELINE).unlink()
    for chunk in (files[:30], files[30:]):
        proc = lint(baselined, *[f"manifests/{name}" for name in chunk], "--write-baseline", BASELINE)
        assert proc.returncode == 0, proc.stderr
    assert (baselined / BASELINE).read_text() == whole


def test_lint_baseline_in_the_config(baselined: Path) -> None:
    (baselined / ".ascend-compile.yaml").write_text(f"lint:\n  baseline: {BASELINE}\n", encoding="utf-8")
    one = _one_file_with_findings(baselined)
    proc = lint(baselined, one, "--fail-on", "info")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr.startswith(f"baseline {Path(baselined, BASELINE)}: ")
    # --write-baseline is not read against the configured one (they would be "both at once")
    proc = lint(baselined, one, "--write-baseline", BASELINE)
    assert proc.returncode == 0, proc.stderr


def test_lint_baseline_must_be_a_path(repo: Path) -> None:  # noqa: F811
    (repo / ".ascend-compile.yaml").write_text("lint:\n  baseline: [a]\n", encoding="utf-8")
    proc = lint(repo, "manifests/")
    assert proc.returncode == 2
    assert "lint.baseline must be a file path" in proc.stderr
