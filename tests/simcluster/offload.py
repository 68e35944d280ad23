"""The simulated-cluster tests of a run, in a second pytest process beside the others (issue 30).

Those tests mostly wait (for the scheduler's next session, a pod's next phase), while the rest of the suite
keeps one core busy; run one after the other they made up half of a run's time.  So when a run selects both,
the tests that use the fixture ``sim`` go to a child ``python -m pytest`` with their node IDs, started at
collection: the child has a session cluster of its own (tests/simcluster/session.py), on which nothing
else runs, and the tests run there unchanged, fixtures and all, while this process runs the others.  The
oracle's batch runs (the modules that declare ``JUDGED_EARLY``) stay here, on this process's cluster: a test
holding the scheduler, or filling the nodes, would change their verdicts.  The modules that declare
``JUDGED_ON_RELEASES`` go to the child too: their batches run on clusters of their own, one per release.

Here each offloaded test is a :class:`ChildTest` in the same place of the run, with the same node ID: it
waits for the child's reports of that test and replays them (passed; failed or error, with the child's
report text; skipped or xfailed, with the reason), so counts, exit code and the terminal summary are those
of one run.  The child's whole output is in a log file whose path the run prints.

They stay in this process (``ASCEND_COMPILE_SIM_INLINE=1`` forces it) when nothing else was selected, when
the run debugs (``--pdb``, ``--trace``), and when only collecting.

Such a run also hands a measured share of the tests that need no cluster (:data:`OFFLINE_SHARE`,
:func:`offline_share`) to a third pytest process, replayed here the same way: the tests that need no cluster were
the run's critical path, one after the other in this process, while the child mostly waits on its cluster, so
the share runs beside both (docs/testing.md, "The quick start: how long it takes").
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest
from _pytest.outcomes import Skipped

from tests.simcluster import processes

#: set in the child: the file its reports go to (one JSON object per line)
CHILD_ENV = "ASCEND_COMPILE_SIM_CHILD"
INLINE_ENV = "ASCEND_COMPILE_SIM_INLINE"


#: the test files (paths from the repository root; a folder ends with "/") that a run with a second process runs
#: in a third: chosen by their measured CPU time (about 47% of that of the tests that need no cluster; docs/
#: testing.md), among tests that write nothing outside their own temporary folders
OFFLINE_SHARE: Tuple[str, ...] = ("tests/cli/", "tests/ecosystem/", "tests/golden/")
#: (what a child runs, which process it is): the words of its summary line and of its failures
SECOND = ("simulated-cluster tests", "a second pytest process")
THIRD = ("a share of the tests that need no cluster", "a third pytest process")


def offline_share(offline: Sequence[pytest.Item]) -> List[pytest.Item]:
    """The tests of ``offline`` (none needs a cluster) that go to the third process: those under
    :data:`OFFLINE_SHARE`, when they are fewer than the ones left here (a run that selects little besides the
    share keeps it)."""
    share = [i for i in offline if i.nodeid.split("::", 1)[0].startswith(OFFLINE_SHARE)]
    return share if len(share) < len(offline) - len(share) else []


def wanted(config: pytest.Config, offloadable: Sequence[pytest.Item], others: Sequence[pytest.Item]) -> bool:
    """Whether this run hands ``offloadable`` to a child process."""
    return bool(offloadable and others) and os.environ.get(INLINE_ENV) != "1" \
        and CHILD_ENV not in os.environ and not config.option.collectonly \
        and not config.getoption("usepdb", False) and not config.getoption("trace", False)


# ---------------------------------------------------------------------------------------------- the child's side


class ReportWriter:
    """Registered in the child: every test report, as JSON, appended to the file the parent reads."""

    def __init__(self, path: str):
        self._out = open(path, "a", encoding="utf-8")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        text = report.longreprtext
        if report.failed:
            text += "".join(f"\n{'-' * 20} {title} {'-' * 20}\n{content}" for title, content in report.sections)
        record = {"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome,
                  "text": text, "wasxfail": getattr(report, "wasxfail", None)}
        if report.skipped and isinstance(report.longrepr, tuple):
            reason = str(report.longrepr[2])  # (file, line, reason): the reason, which the replay's skip prefixes again
            record["text"] = reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
        self._out.write(json.dumps(record) + "\n")
        self._out.flush()

    def pytest_unconfigure(self) -> None:
        self._out.close()


# --------------------------------------------------------------------------------------------- the parent's side


class Child:
    """A child pytest process (the second, or the third: ``role``) and what it has reported so far."""

    def __init__(self, config: pytest.Config, nodeids: List[str], env: Dict[str, str],
                 role: Tuple[str, str] = SECOND):
        self.runs, self.process = role
        self.folder = Path(tempfile.mkdtemp(prefix="ascend-compile-sim-tests-"))
        self.log = self.folder / "pytest.log"
        self.reports_file = self.folder / "reports.jsonl"
        self.reports_file.touch()
        self.nodeids = nodeids
        argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "--rootdir", str(config.rootpath)]
        if config.inipath is not None:
            argv += ["-c", str(config.inipath)]
        if config.getoption("--update-golden", False):
            argv.append("--update-golden")
        args_file = self.folder / "tests.txt"  # node IDs from a file: no command line grows with the selection
        args_file.write_text("\n".join(nodeids) + "\n", encoding="utf-8")
        self.argv = argv + [f"@{args_file}"]
        self.env = dict(env, **{CHILD_ENV: str(self.reports_file)})
        self.cwd = str(config.rootpath)
        self.popen: "Optional[subprocess.Popen[bytes]]" = None
        self._start_when: Optional[threading.Event] = None
        self._thread: Optional[threading.Thread] = None
        self._stopping = threading.Event()
        self._reports: Dict[str, List[Dict[str, Any]]] = {}
        self._read_upto = 0
        self.started_at = self.ended_at = 0.0

    def start(self, after: Optional[threading.Event] = None) -> None:
        """Start the child now, or once ``after`` is set (the programs it needs are being built here)."""
        self._start_when = after
        self._thread = threading.Thread(target=self._run, name="simcluster-tests-child", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        if self._start_when is not None:
            while not self._start_when.wait(0.5):
                if self._stopping.is_set():
                    return
        if self._stopping.is_set():
            return
        self.started_at = time.monotonic()
        with open(self.log, "wb") as out:
            self.popen = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                          stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                          preexec_fn=processes.die_with_parent)
        self.popen.wait()
        self.ended_at = time.monotonic()

    def stop(self) -> None:
        """Let the child end once it has reported every test; else (this run ends early) end it as SIGTERM ends a
        pytest run: its cluster stops and its folders go."""
        self._stopping.set()
        if self._thread is not None:
            while self._thread.is_alive() and self.popen is None and self._start_when is not None:
                self._thread.join(0.5)
        proc = self.popen
        if proc is not None and proc.poll() is None and self._all_reported():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=120)  # it is stopping its cluster: let it end as a run ends
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
        if self._thread is not None:
            self._thread.join(timeout=30)

    def remove_folder(self) -> None:
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)

    def _read(self) -> None:
        with open(self.reports_file, "r", encoding="utf-8") as text:
            text.seek(self._read_upto)
            while True:
                line = text.readline()
                if not line.endswith("\n"):
                    break  # a line still being written: read it whole next time
                self._read_upto = text.tell()
                record = json.loads(line)
                self._reports.setdefault(record["nodeid"], []).append(record)

    def _all_reported(self) -> bool:
        self._read()
        return all(self._finished(nodeid) for nodeid in self.nodeids)

    def _finished(self, nodeid: str) -> bool:
        return any(r["when"] == "teardown" for r in self._reports.get(nodeid, ()))

    def reports(self, nodeid: str) -> List[Dict[str, Any]]:
        """The child's reports of one test, once it is done (waits for them)."""
        while True:
            self._read()
            if self._finished(nodeid):
                return self._reports[nodeid]
            if self._ended():
                self._read()
                return self._reports.get(nodeid, [])
            time.sleep(0.2)

    def _ended(self) -> bool:
        """Whether the child can report nothing more: it exited, or was never started (or never will be)."""
        if self.popen is not None:
            return self.popen.poll() is not None
        return self._thread is None or not self._thread.is_alive()

    def tail(self, lines: int = 60) -> str:
        if not self.log.exists():
            return "(the child pytest process never started)"
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def summary(self, kept: bool) -> str:
        """The child's last line (its counts and time), for the terminal summary."""
        last = [line.strip(" =") for line in self.tail(5).splitlines() if line.strip()]
        took = f", {self.ended_at - self.started_at:.0f}s" if self.ended_at else ""
        return f"{self.runs}, in {self.process}{took}: {last[-1] if last else '-'}" + \
            (f" (its output: {self.log})" if kept else "")


class ChildFailure(Exception):
    """A phase of the test failed in the child; the message is the child's report of it."""


class ChildTest(pytest.Item):
    """One offloaded test: replays what the child reported for the test of the same node ID."""

    child: Child

    def __init__(self, *, original: pytest.Item, child: Child, **kwargs: Any):
        super().__init__(**kwargs)
        self.child = child
        self._info = original.reportinfo()
        self._reports: Optional[Dict[str, Dict[str, Any]]] = None

    @classmethod
    def replacing(cls, item: pytest.Item, child: Child) -> "ChildTest":
        return cls.from_parent(item.parent, name=item.name, nodeid=item.nodeid, original=item, child=child)

    def reportinfo(self):  # type: ignore[no-untyped-def]
        return self._info

    def _phase(self, when: str) -> None:
        if self._reports is None:
            self._reports = {r["when"]: r for r in self.child.reports(self.nodeid)}
            if "setup" not in self._reports:
                raise ChildFailure(f"{self.child.process} (exit {self.child.popen.poll() if self.child.popen else '-'}) "
                                   f"gave no result for this test; the end of its output "
                                   f"({self.child.log}):\n{self.child.tail()}")
        report = self._reports.get(when)
        if report is None:
            return
        if report["outcome"] == "failed":
            raise ChildFailure(report["text"])
        if report["outcome"] == "skipped":
            if report["wasxfail"] is not None:
                pytest.xfail(report["wasxfail"])
            # reported at the test's own place, as a skip mark's skip is (pytest.skip would name this line)
            raise Skipped(report["text"], _use_item_location=True)

    def setup(self) -> None:
        self._phase("setup")

    def runtest(self) -> None:
        self._phase("call")

    def teardown(self) -> None:
        self._phase("teardown")

    def repr_failure(self, excinfo, style=None):  # type: ignore[no-untyped-def]
        if isinstance(excinfo.value, ChildFailure):
            return f"(run in {self.child.process}, tests/simcluster/offload.py)\n{excinfo.value}"
        return super().repr_failure(excinfo, style)
