"""The simulated-cluster tests run in a second pytest process (tests/simcluster/offload.py) are reported by the
run as that process reported them: each outcome of each phase, the failure's text, the skip's reason (and so are
those of the share of the other tests run in a third process, which it replays the same way)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import pytest

from tests.simcluster import offload

pytest_plugins = ["pytester"]

PROBE = '''
import pytest

def test_passes():
    pass

def test_fails():
    assert 1 == 2, "one is not two"

def test_skips():
    pytest.skip("no reason to run")

@pytest.mark.xfail(reason="known to fail", strict=True)
def test_xfails():
    assert False

@pytest.mark.xfail(reason="fixed since", strict=True)
def test_xpasses():
    pass

@pytest.fixture
def broken():
    raise RuntimeError("setup broke")

def test_errors_in_setup(broken):
    pass

@pytest.fixture
def untidy():
    yield
    raise RuntimeError("teardown broke")

def test_errors_in_teardown(untidy):
    pass
'''

Outcome = Tuple[str, str, str, bool]


def _outcomes(run: pytest.HookRecorder) -> List[Outcome]:
    return [(r.nodeid, r.when, r.outcome, bool(getattr(r, "wasxfail", None)))
            for r in run.getreports("pytest_runtest_logreport")]


def _text(run: pytest.HookRecorder, name: str, when: str) -> str:
    return next(r.longreprtext for r in run.getreports("pytest_runtest_logreport")
                if r.nodeid.endswith(name) and r.when == when)


def _replay(pytester: pytest.Pytester, reports: Path) -> pytest.HookRecorder:
    children: List[offload.Child] = []

    class Replay:  # what tests/conftest.py does, with the reports of a second process that has ended
        def pytest_collection_modifyitems(self, config: pytest.Config, items: List[pytest.Item]) -> None:
            child = offload.Child(config, [i.nodeid for i in items], {})
            child.reports_file = reports
            children.append(child)
            items[:] = [offload.ChildTest.replacing(i, child) for i in items]

    try:
        return pytester.inline_run("-p", "no:cacheprovider", plugins=[Replay()])
    finally:
        for child in children:
            child.remove_folder()


def test_each_phase_is_reported_as_the_second_process_reported_it(pytester: pytest.Pytester, tmp_path: Path):
    pytester.makepyfile(test_probe=PROBE)
    reports = tmp_path / "reports.jsonl"
    there = pytester.inline_run("-p", "no:cacheprovider", plugins=[offload.ReportWriter(str(reports))])
    here = _replay(pytester, reports)
    assert _outcomes(here) == _outcomes(there)
    assert here.countoutcomes() == there.countoutcomes() == [2, 2, 4]  # passed, skipped (xfailed too), failed (errors too)
    assert "one is not two" in _text(here, "test_fails", "call")
    assert "setup broke" in _text(here, "test_errors_in_setup", "setup")
    assert "teardown broke" in _text(here, "test_errors_in_teardown", "teardown")
    skipped = next(r for r in here.getreports("pytest_runtest_logreport") if r.nodeid.endswith("test_skips") and r.skipped)
    assert skipped.longrepr[0].endswith("test_probe.py") and skipped.longrepr[2] == "Skipped: no reason to run"
    assert "[XPASS(strict)] fixed since" in _text(here, "test_xpasses", "call")


def test_a_test_the_second_process_never_reported_is_an_error(pytester: pytest.Pytester, tmp_path: Path):
    pytester.makepyfile(test_probe="def test_one():\n    pass\n\ndef test_two():\n    pass\n")
    reports = tmp_path / "reports.jsonl"
    pytester.inline_run("-p", "no:cacheprovider", plugins=[offload.ReportWriter(str(reports))])
    kept = [line for line in reports.read_text().splitlines() if "test_two" not in line]
    reports.write_text("".join(line + "\n" for line in kept))
    here = _replay(pytester, reports)
    assert [(r.nodeid.split("::")[-1], r.when, r.outcome) for r in here.getreports("pytest_runtest_logreport")
            if r.outcome != "passed"] == [("test_two", "setup", "failed")]
    assert "gave no result for this test" in _text(here, "test_two", "setup")


class _Item:  # what offline_share reads of a test item
    def __init__(self, nodeid: str):
        self.nodeid = nodeid


def test_the_share_of_the_tests_that_need_no_cluster_is_what_offline_share_names(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(offload, "OFFLINE_SHARE", ("tests/ecosystem/", "tests/golden/test_determinism.py"))
    ids = ["tests/cli/test_a.py::test_one", "tests/ecosystem/test_b.py::test_two[x::y]",
           "tests/golden/test_determinism.py::test_three", "tests/golden/test_determinism_more.py::test_four",
           "tests/lint/test_c.py::test_five", "tests/unit/test_ecosystem/test_d.py::test_six"]
    items = [_Item(i) for i in ids]
    assert [i.nodeid for i in offload.offline_share(items)] == ids[1:3]
    assert offload.offline_share(items[1:4]) == []  # the share would be most of what runs: it stays


def test_the_offline_share_names_test_files_that_need_no_cluster():
    root = Path(__file__).resolve().parents[2]
    assert offload.OFFLINE_SHARE
    for path in offload.OFFLINE_SHARE:
        assert (root / path).is_dir() if path.endswith("/") else (root / path).is_file(), path
        assert path.startswith("tests/") and not path.startswith(("tests/simcluster", "tests/integration",
                                                                 "tests/fidelity")), path
        text = "".join(p.read_text(encoding="utf-8") for p in ([root / path] if (root / path).is_file()
                                                               else sorted((root / path).rglob("*.py"))))
        assert "judged_early" not in text and not re.search(r"\bdef test_\w*\([^)]*\bsim\b", text), path
