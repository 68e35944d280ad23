"""The benchmark's verdicts: a quick run judges no time (it never prints FAIL), a full run judges every ratio."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.checkout import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench"))
try:
    import report  # noqa: E402
    import run as bench_run  # noqa: E402
finally:
    sys.path.remove(os.path.join(ROOT, "bench"))

CORPUS = {"mixed_files": 60, "mixed_docs": 77, "mixed_invalid_jobs": 3, "stream_docs": 60, "specs": 20,
          "volcano_dirs": 16, "volcano_per_dir": 10}


class _FakeSetup:
    """Everything a run sets up, without a corpus on disk, Go or a peer tool."""

    def __init__(self, info, log, peers, checkout):
        self.info, self.python, self.tool, self.commit = info, sys.executable, ["ascend-compile"], "abc1234"
        self.env, self.notes, self.kubeconform, self.schemas, self.check_jsonschema = {}, [], "kubeconform", "", None
        self.cache = Path(os.devnull)

    ac = bench_run.Setup.ac
    kc = bench_run.Setup.kc
    parse = bench_run.Setup.parse

    def empty_cache(self):
        pass


def _slow_ascend_compile(commands, rounds, warmup, log):
    """Rounds in which ascend-compile misses every target by far (kubeconform and the floors take 1 s)."""
    for command in commands:
        for _ in range(rounds):
            ours = command.label.startswith("ascend-compile")
            command.runs.append(bench_run.Run(100.0 if ours else 1.0, 9000.0 if ours else 20.0, 0))


def _run(monkeypatch, tmp_path, capsys, *options):
    monkeypatch.setattr(bench_run, "Setup", _FakeSetup)
    monkeypatch.setattr(bench_run, "interleave", _slow_ascend_compile)
    monkeypatch.setattr(bench_run, "cold_group", lambda s: [s.ac("lint1", "ascend-compile lint (1 manifest)"),
                                                            *s.kc("kc1", "kubeconform (1 manifest)"),
                                                            s.parse("parse1", "parse-only (1 manifest)", [], 1)])
    monkeypatch.setattr(bench_run, "machine", lambda python: {"nproc": 2, "cpu": "x", "python": "3", "pyyaml": "6",
                                                               "libyaml": True})
    monkeypatch.setattr(bench_run.subprocess, "run", lambda *a, **k: None)  # the corpus and tool versions
    monkeypatch.setattr(bench_run, "CORPUS", tmp_path)
    (tmp_path / "corpus.json").write_text(json.dumps(CORPUS))
    monkeypatch.setattr(bench_run.tools, "KUBECONFORM_VERSION", "v0.8.0")
    (tmp_path / "mixed").mkdir()
    for name in ("ascendjob-job-00000.yaml", "vcjob-job-00001.yaml"):
        (tmp_path / "mixed" / name).write_text("")
    for number in range(CORPUS["volcano_dirs"]):
        (tmp_path / "volcano" / f"{number:02d}").mkdir(parents=True)
    monkeypatch.setattr(bench_run.tempfile, "mkdtemp", lambda prefix: str(tmp_path / prefix))
    out = tmp_path / "results.json"
    assert bench_run.main([*options, "--output", str(out)]) == 0
    return capsys.readouterr().out, json.loads(out.read_text())


def test_a_quick_run_never_prints_fail_for_timing(monkeypatch, tmp_path, capsys):
    printed, results = _run(monkeypatch, tmp_path, capsys, "--quick")
    judged = [t for t in results["targets"] if t["value"] is not None]
    assert judged and all(t["pass"] is None for t in judged)
    assert "FAIL" not in printed and "not judged" in printed


def test_a_full_run_judges_every_target_it_measured(monkeypatch, tmp_path, capsys):
    printed, results = _run(monkeypatch, tmp_path, capsys)
    judged = [t for t in results["targets"] if t["value"] is not None]
    assert {t["key"] for t in judged} >= {"lint1_vs_kc", "lint1_vs_parse", "rss"}
    assert all(isinstance(t["pass"], bool) for t in judged)
    failed = {t["key"] for t in judged if t["pass"] is False}
    assert failed >= {"lint1_vs_kc", "lint1_vs_parse", "validate_vs_kc", "rss"} and printed.count("FAIL") == len(failed)


@pytest.mark.parametrize("value,limit,verdict", [(1.49, 1.5, True), (1.51, 1.5, False)])
def test_a_ratio_is_judged_against_its_limit(value, limit, verdict):
    class Runs:
        def __init__(self, seconds):
            self.runs = [bench_run.Run(s, 0.0, 0) for s in seconds]

    by = {"lint1": Runs([value, value * 2, value * 3]), "kc1": Runs([1.0, 2.0, 3.0])}
    found = {t["key"]: t for t in report.targets(by, {}, judged=True)}
    assert found["lint1_vs_kc"]["value"] == pytest.approx(value) and found["lint1_vs_kc"]["pass"] is verdict


def test_the_single_file_lint_rows_keep_the_startup_cache_and_miss_the_result_cache(tmp_path, monkeypatch):
    """A user's cold lint of one file: a new process, the start-up cache present (as after any first run), no
    result for that file; so these rows pass no --no-cache (it bypasses both caches) and empty only ``lint/``."""
    monkeypatch.setattr(bench_run, "CORPUS", tmp_path)
    (tmp_path / "mixed").mkdir()
    for name in ("ascendjob-job-00002.yaml", "vcjob-job-00003.yaml"):
        (tmp_path / "mixed" / name).write_text("")
    setup = _FakeSetup(CORPUS, print, False, tmp_path)
    setup.cache = tmp_path / "cache"
    setup.empty_result_cache = bench_run.Setup.empty_result_cache.__get__(setup)
    rows = {c.key: c for c in bench_run.cold_group(setup) if c.key in ("lint1", "precommit_alone", "precommit")}
    assert len(rows) == 3
    for command in rows.values():
        for folder in ("lint/1.0-key", "startup/1.0-key"):
            (setup.cache / folder).mkdir(parents=True, exist_ok=True)
        assert command.argv[:2] == ["ascend-compile", "lint"] and "--no-cache" not in command.argv
        command.before()
        assert not (setup.cache / "lint").exists() and (setup.cache / "startup" / "1.0-key").is_dir()
