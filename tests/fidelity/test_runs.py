"""A full run's verdicts as committed files (tests/fidelity/runs.py), the refusal to write docs/fidelity.md without
every release's run, and a run that survives a cluster process exiting (runner.Clusters): no cluster needed, a
fake one whose "scheduler" dies on a given job."""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest

from tests.fidelity import cli, runner, runs
from tests.fidelity.generator import Job
from tests.fidelity.verdicts import CRASHED, Result
from tests.simcluster.cluster import SimCluster, SimClusterError
from tests.simcluster.processes import Process, ProcessGroup
from tests.simcluster.releases import SUPPORTED

#: the tail of a log of the v6.0.0 scheduler that crashed (its shape; paths as -trimpath builds write them)
PANIC_LOG = """I1207 12:00:01.000 frame.go:80] InitMyJobPlugin err: not support huawei.com/Ascend910module-910b-9
panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x10 pc=0x1f2e3d]

goroutine 512 [running]:
volcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/internal/ascend910.(*Base910).CheckNodeNPUByTask(...)
\tvolcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/internal/ascend910/frame.go:138 +0x1d
volcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/plugin.(*ScheduleHandler).NodePredicate(...)
\tvolcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/plugin/factory.go:301 +0x2a4
"""
PANIC = "panic: runtime error: invalid memory address or nil pointer dereference at internal/ascend910/frame.go:138"


class _Exited:
    """A Popen stand-in: running until :meth:`exit`."""

    def __init__(self) -> None:
        self.code: Optional[int] = None
        self.pid = 0

    def poll(self) -> Optional[int]:
        return self.code


class FakeCluster:
    """A cluster whose vc-scheduler exits (exit 2, a Go panic in its log) when a job of ``poison`` is submitted with
    any other job (``in_batch_only``) or at all; :meth:`SimCluster.dead_processes` sees it as it sees a real one."""

    started: List["FakeCluster"] = []

    def __init__(self, folder: Path, poison: Sequence[str], in_batch_only: Sequence[str] = ()):
        self.release, self.control, self.poison, self.in_batch_only = "v6.0.0", None, poison, in_batch_only
        self.group = ProcessGroup()
        self.scheduler = Process("vc-scheduler", ["vc-scheduler"], folder / f"scheduler-{id(self)}.log")
        self.scheduler.popen = _Exited()  # type: ignore[assignment]
        self.group.processes.append(self.scheduler)
        self.stopped, self.judged = False, []  # type: ignore[var-annotated]

    dead_processes = SimCluster.dead_processes

    def start(self) -> "FakeCluster":
        FakeCluster.started.append(self)
        return self

    def stop(self) -> None:
        self.stopped = True

    def judge(self, chunk: Sequence[Job], results: Dict[str, Result]) -> None:
        """What the oracle does here: every job runs, unless the scheduler exits first."""
        assert not self.stopped and self.scheduler.alive()
        self.judged.append([job.id for job in chunk])
        ids = {job.id for job in chunk}
        if ids & set(self.poison) or (len(ids) > 1 and ids & set(self.in_batch_only)):
            self.scheduler.log.write_text(PANIC_LOG, encoding="utf-8")
            self.scheduler.popen.code = 2  # type: ignore[union-attr]
            raise SimClusterError("vc-scheduler (exit 2) exited while judging")
        for job in chunk:
            results[job.id].outcome = "running"


def _jobs(*names: str) -> List[Job]:
    return [Job(name, name, "golden", "module-910b-8", "", [{"kind": "Job", "metadata": {"name": name}}])
            for name in names]


@pytest.fixture()
def fake(monkeypatch, tmp_path):
    """Clusters made by :class:`FakeCluster` (``poison`` set by the test), the oracle's judging theirs."""
    FakeCluster.started = []
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # where crash logs are kept
    monkeypatch.setattr(runner, "prepare", lambda sim, jobs: None)
    monkeypatch.setattr(runner, "_judge_chunk", lambda sim, chunk, results: sim.judge(chunk, results))

    def make(poison: Sequence[str], in_batch_only: Sequence[str] = ()):
        return lambda: FakeCluster(tmp_path, poison, in_batch_only)
    return make


def test_a_crash_in_a_batch_is_survived_and_the_job_that_crashes_alone_gets_a_verdict_of_its_own(fake):
    fresh = fake(["j3"])
    first = fresh().start()
    jobs = _jobs("j1", "j2", "j3", "j4", "j5", "j6")
    results = runner.unjudged(jobs)
    lines: List[str] = []
    crashes = runner.judge_jobs(first, jobs, results, batch=4, log=lines.append, fresh=fresh)
    # the first batch crashed; its jobs were judged one at a time on a new cluster, which j3 took down too
    assert first.judged == [["j1", "j2", "j3", "j4"]] and first.stopped
    second, third = FakeCluster.started[1:]
    assert second.judged == [["j1"], ["j2"], ["j3"]] and second.stopped
    assert third.judged == [["j4"], ["j5", "j6"]] and third.stopped  # the rest of the batch alone, then batches
    assert [results[j].outcome for j in ("j1", "j2", "j4", "j5", "j6")] == ["running"] * 5
    crashed = results["j3"]
    assert (crashed.outcome, crashed.reason, crashed.message) == (CRASHED, "vc-scheduler (exit 2) exited", PANIC)
    assert crashed.upstream_bad is True  # never scheduled on a real cluster
    assert [c["during"] for c in crashes] == ["the batch of jobs 1-4", "j3 (alone)"]
    assert all(c["message"] == PANIC for c in crashes)
    assert any("the batch of jobs 1-4" in line and PANIC in line for line in lines)


def test_a_job_that_crashes_only_in_a_batch_keeps_its_verdict_alone(fake):
    """Map order decides which job of a batch takes the scheduler down (known.yaml): alone it ran, so it ran."""
    fresh = fake([], in_batch_only=["j2"])
    first = fresh().start()
    jobs = _jobs("j1", "j2", "j3")
    results = runner.unjudged(jobs)
    crashes = runner.judge_jobs(first, jobs, results, batch=10, log=lambda _line: None, fresh=fresh)
    assert [results[j.id].outcome for j in jobs] == ["running"] * 3
    assert [c["during"] for c in crashes] == ["the batch of jobs 1-3"]
    assert len(FakeCluster.started) == 2 and FakeCluster.started[1].judged == [["j1"], ["j2"], ["j3"]]


def test_without_a_way_to_start_a_cluster_the_crash_is_raised(fake):
    first = fake(["j1"])().start()
    jobs = _jobs("j1", "j2")
    with pytest.raises(SimClusterError, match="vc-scheduler"):
        runner.judge_jobs(first, jobs, runner.unjudged(jobs), log=lambda _line: None)


#: the end of the log of the v6.0.0 scheduler that exited in the first batch of the run of 2026-12-07 18:07 (the
#: panic caught by Kubernetes' HandleCrash and raised again; arguments and offsets cut)
REPANICKED = """panic: runtime error: invalid memory address or nil pointer dereference [recovered, repanicked]
[signal SIGSEGV: segmentation violation code=0x1 addr=0x48 pc=0x1c4c6ce]

goroutine 307 [running]:
k8s.io/apimachinery/pkg/util/runtime.HandleCrash({0x0, 0x0, 0x3ab5900?})
\tk8s.io/apimachinery@v0.29.0/pkg/util/runtime/runtime.go:56 +0xc7
panic({0x1fb4ac0?, 0x3a7d870?})
\truntime/panic.go:860 +0x13a
volcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/internal/ascend310p.(*ascend310P).ValidNPUJob(0x7e0)
\tvolcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/internal/ascend310p/frame.go:111 +0x1ae
volcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/plugin.SchedulerJob.ValidJobFn({...})
\tvolcano.sh/volcano/pkg/scheduler/plugins/ascend-volcano-plugin/plugin/job.go:524 +0x1f0
"""


def test_the_panic_line_names_the_frame_that_panicked():
    assert runner.panic_line(PANIC_LOG) == PANIC
    assert runner.panic_line(REPANICKED) == ("panic: runtime error: invalid memory address or nil pointer dereference "
                                             "[recovered, repanicked] at internal/ascend310p/frame.go:111")
    assert runner.panic_line("I1207 starting\nF1207 fatal: no config\n\n") == "F1207 fatal: no config"


def _results() -> List[Result]:
    return [Result("b~x", "b", "golden", "p", "x", outcome="pending", room="never-fits", reason="Unschedulable",
                   message="m" * 1000, digest="0123456789abcdef"),
            Result("a", "a", "golden", "p", "", outcome="running", digest="fedcba9876543210")]


def test_the_verdicts_file_keeps_the_verdicts_sorted_bounded_and_in_the_same_bytes(tmp_path):
    path = runs.verdicts_file("v6.0.0", tmp_path)
    runs.save(path, _results(), {"release": "v6.0.0", "seconds": 12})
    text = path.read_bytes()
    runs.save(path, list(reversed(_results())), {"seconds": 12, "release": "v6.0.0"})
    assert path.read_bytes() == text
    loaded, meta = runs.load(path)
    assert meta == {"release": "v6.0.0", "seconds": 12}
    assert [(r.id, r.digest, r.outcome, r.room, r.reason) for r in loaded] == [
        ("a", "fedcba9876543210", "running", "", ""), ("b~x", "0123456789abcdef", "pending", "never-fits",
                                                        "Unschedulable")]
    assert loaded[1].message == "m" * runs.MESSAGE and loaded[1].findings == []
    assert b"findings" not in text


def test_the_document_is_not_written_without_every_release_s_committed_run(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(runs, "RUNS_DIR", tmp_path)
    runs.save(runs.verdicts_file("v6.0.0"), _results(), {"release": "v6.0.0"})
    doc = cli.DOC.read_bytes()
    assert cli.main(["report", "--full", "--all"]) == 2
    said = capsys.readouterr().err
    assert "docs/fidelity.md not written" in said and ", ".join(SUPPORTED[1:]) + " have no committed run" in said
    assert cli.DOC.read_bytes() == doc
    assert cli.without_run(True) == list(SUPPORTED[1:])
