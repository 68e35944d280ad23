"""``bench/run.py --quick`` judges no time: a smoke run on a tiny corpus never prints FAIL (its help says so)."""
from __future__ import annotations

import importlib.util
from types import SimpleNamespace

from tests.checkout import ROOT


def _report():
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "bench" / "report.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _results(report, judged: bool):
    """Every ratio far on the wrong side of its limit, as a tiny noisy corpus can give."""
    slow, fast = [SimpleNamespace(seconds=100.0)], [SimpleNamespace(seconds=0.001)]
    by = {}
    for _key, _what, a, b, better, _limit in report.TARGETS:
        if a.startswith("rss:"):
            continue
        for name in (a, b, "kc_mixed"):
            by.setdefault(name, SimpleNamespace(runs=None))
        by[a].runs, by[b].runs = (slow, fast) if better == "<=" else (fast, slow)
    by["kc_mixed"].runs = fast
    rows = {"lint_vc10": {"peak_rss_mib": 10_000.0, "label": "lint", "median_s": 1.0, "min_s": 1.0, "max_s": 1.0,
                          "rounds": 1, "docs": 1}}
    machine = {"nproc": 2, "cpu": "cpu", "python": "3", "pyyaml": "6", "libyaml": True}
    corpus = {"mixed_files": 1, "mixed_docs": 1, "mixed_invalid_jobs": 0, "stream_docs": 1, "specs": 1,
              "volcano_dirs": 1, "volcano_per_dir": 1}
    return {"date": "today", "quick": not judged, "machine": machine, "corpus": corpus, "kubeconform": None,
            "check_jsonschema": None, "rows": rows, "notes": [], "targets": report.targets(by, rows, judged)}


def test_quick_never_prints_fail_and_a_full_run_does() -> None:
    report = _report()
    quick = report.render(_results(report, judged=False))
    assert "FAIL" not in quick and "not judged" in quick and "quick: no time is judged" in quick
    full = report.render(_results(report, judged=True))
    assert full.count("FAIL") == len(report.TARGETS)
