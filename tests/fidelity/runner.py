"""Run generated jobs through ``lint`` and the oracle, in batches on one simulated cluster."""
from __future__ import annotations

import itertools
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from tests.checkout import run_cli
from tests.fidelity.generator import Job
from tests.fidelity.mutations_job import UNKNOWN_QUEUE
from tests.fidelity.verdicts import CRASHED, Result, digest, lint_findings
from tests.simcluster.cluster import SimCluster
from tests.simcluster.oracle import ASCEND_JOB, PODGROUP, VOLCANO_JOB, Case, Verdict, judge

#: jobs submitted to the cluster at once: enough to keep every profile's nodes busy, few enough that
#: the round-based settling (docs/testing.md) stays within the oracle's total timeout
BATCH = 100
#: twice the oracle's default: the generator keeps every job within 4 nodes, so most jobs of a batch
#: run in the first round and few wait for room
NODES_PER_PROFILE = 8
#: seconds without change before a round ends, and the longest round (the oracle's defaults: 12, 90).
#: A job that went on to run changed at most 5.1 s apart (batches of 100 on the 2-core machine with
#: other work beside it, 2026-12-01); QUIET leaves room for a slower day.  (Until the oracle compared
#: messages regardless of their word order, every round with a pending job lasted ROUND.)
QUIET = 8.0
ROUND = 35.0
TOTAL = 900.0


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "ascend-compile" / "fidelity"


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def unjudged(jobs: Sequence[Job]) -> Dict[str, Result]:
    """A result per job, without lint's findings and the oracle's verdict yet."""
    return {job.id: Result(job.id, job.parent, job.source, job.profile, job.mutation, digest=digest(job.objects))
            for job in jobs}


def lint_all(jobs: Sequence[Job], inventory: Any = None, release: str = "") -> Dict[str, Result]:
    """Every job linted offline and, with the ``inventory`` of the oracle's cluster (:func:`take_snapshot`), against
    it; both with the target set to the oracle's ``release`` ("" for the simulated cluster's default)."""
    results = unjudged(jobs)
    for job in jobs:
        results[job.id].findings = lint_findings(job.objects, release=release)
        if inventory is not None:
            results[job.id].cluster_findings = lint_findings(job.objects, inventory, release)
    return results


def with_verdicts(results: Dict[str, Result], judged: Dict[str, Result]) -> List[Result]:
    """``results`` (lint's findings) with the oracle's verdicts of ``judged``, in the order of ``results``."""
    for result in results.values():
        verdict = judged[result.id]
        assert verdict.digest == result.digest, f"{result.id}: judged other objects than were linted"
        result.outcome, result.room, result.reason, result.message = (verdict.outcome, verdict.room,
                                                                      verdict.reason, verdict.message)
    return list(results.values())


def _judge_chunk(sim: SimCluster, chunk: Sequence[Job], results: Dict[str, Result],
                 round_timeout: float = ROUND) -> None:
    verdicts = judge(sim, [Case(job.id, job.objects) for job in chunk], quiet=QUIET, round_timeout=round_timeout,
                     total_timeout=TOTAL)
    for verdict in verdicts:
        result = results[verdict.case]
        result.outcome, result.room = verdict.outcome, verdict.room
        result.reason, result.message = verdict.reason, verdict.message[:400]
    clean(sim, verdicts)


#: the gang plugin's message "<unready>/<the job's pods> tasks in gang unschedulable" (pkg/scheduler/plugins/gang/gang.go
#: of Volcano v1.9.0 and v1.12.0) for a job with no pod yet: "0/0" under v1.12.0, "<minAvailable>/0" under v1.9.0
NO_POD = re.compile(r"\b\d+/0 tasks in gang unschedulable")


def never_enqueued(result: Result) -> bool:
    return result.outcome == "pending" and result.room == "never-fits" and bool(NO_POD.search(result.message))


def fresh_cluster(release: str = "") -> SimCluster:
    """A new cluster of the oracle's size running ``release`` ("" for the default; the recheck and hint rounds of the
    full run start one)."""
    if release:
        return SimCluster(nodes_per_profile=NODES_PER_PROFILE, release=release)
    return SimCluster(nodes_per_profile=NODES_PER_PROFILE)


def judge_jobs(sim: SimCluster, jobs: Sequence[Job], results: Dict[str, Result],
               batch: int = BATCH, log: Callable[[str], None] = _log,
               fresh: Optional[Callable[[], SimCluster]] = None) -> List[Dict[str, str]]:
    """The oracle's verdict on every job, filled into ``results``; the crashes the run survived (see below).

    Jobs that never got a pod are judged again, each alone, with ``fresh`` on a new cluster: after some hundred
    jobs the simulated cluster stops enqueueing some jobs that, judged alone on a new cluster, run within
    seconds (the seven fault-retry / fault-scheduling jobs of the run of 2026-12-01 all did); the cause
    inside the long-running cluster is not pinned down.  In a batch, the plugin enqueues a job only when enough
    nodes of its resource are wholly idle (jobEnqueueable in ascend-for-volcano's npu.go), which other jobs of the
    batch can prevent.  Judged together instead (all at once, then the ones that got pods one by one), a round
    could pass with none of them placed only because the operator and the scheduler were behind: with 128 such
    jobs of the v7.3.2 run on a new cluster, a PodGroup was created 16 s after its job and its pods 22 s after it
    was Inqueue, the rounds ended first, and every job was called never-fits; judged ten at a time, 4 of the 19
    that ran alone still were (2026-12-07).  So each is judged alone, at some seconds a job.

    With ``fresh`` too, a run survives a cluster process that exits (as :meth:`SimCluster.dead_processes` sees it:
    the v6.0.0 scheduler's nil pointer, known.yaml): the batch's jobs are judged again one at a time on a new
    cluster (:class:`Clusters`), and a job that takes the cluster down alone gets a verdict of its own.  Without
    ``fresh`` the crash is raised, as before.
    """
    started = time.monotonic()
    prepare(sim, jobs)
    clusters = Clusters(sim, fresh, jobs, log)
    alone = set()  # judged alone already, after their batch crashed
    try:
        for first in range(0, len(jobs), batch):
            chunk = jobs[first:first + batch]
            if not clusters.judge(chunk, results):
                clusters.crashed(f"the batch of jobs {first + 1}-{first + len(chunk)}")
                clusters.judge_each(chunk, results)
                alone.update(job.id for job in chunk)
            log(f"fidelity: {min(first + batch, len(jobs))}/{len(jobs)} jobs judged, {time.monotonic() - started:.0f}s")
        again = [job for job in jobs if never_enqueued(results[job.id]) and job.id not in alone]
        if again and fresh is not None:
            clusters.restart()
        clusters.judge_each(again, results)
        if again:
            log(f"fidelity: {len(again)} jobs that never got a pod judged again one by one, "
                f"{time.monotonic() - started:.0f}s")
    finally:
        clusters.close()
    return clusters.crashes


def judge_each(sim: SimCluster, jobs: Sequence[Job], results: Dict[str, Result],
               fresh: Optional[Callable[[], SimCluster]] = None, log: Callable[[str], None] = _log) -> None:
    """Judge each job alone (one after the other, nothing else submitted beside it), filling ``results``; with
    ``fresh``, surviving a crash as :func:`judge_jobs` does."""
    clusters = Clusters(sim, fresh, jobs, log)
    try:
        clusters.judge_each(jobs, results)
    finally:
        clusters.close()


#: lines of a dead process's log kept in the fidelity cache (crashes/), for a look at a crash
CRASH_LOG_LINES = 80


_CRASHES = itertools.count(1)


def panic_line(text: str) -> str:
    """The last ``panic:`` line of a Go program's log with the frame that panicked (``internal/ascend910/frame.go:138``:
    the first of its trace, or the one after the last ``panic(`` call when a handler caught and re-raised it, as
    Kubernetes' HandleCrash does); the last line of the log when it has none."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("panic: ")]
    if not starts:
        return next((line.strip() for line in reversed(lines) if line.strip()), "(empty log)")[:200]
    trace = lines[starts[-1] + 1:]
    calls = [i for i, line in enumerate(trace) if line.startswith("panic(")]
    frames = [line.strip().split(" +0x")[0] for line in trace[calls[-1] + 2 if calls else 0:]  # past its own file
              if line.startswith("\t") and ".go:" in line]
    where = "/".join(frames[0].split("/")[-3:]) if frames else ""
    return lines[starts[-1]][:200] + (f" at {where}" if where else "")


def crash_message(sim: SimCluster) -> Tuple[str, str]:
    """(which processes exited, the last panic line of the first one's log) of a cluster with a dead process."""
    dead = sim.dead_processes()
    program = dead[0].split(" ", 1)[0] if dead else ""
    logs = [p.log for p in sim.group.processes if p.name == program]
    if not logs and program == "kube-apiserver" and sim.control is not None and sim.control.log_path:
        logs = [Path(sim.control.log_path)]
    text = logs[0].read_text(errors="replace") if logs and logs[0].exists() else ""
    kept = cache_dir() / "crashes" / f"{sim.release}-{time.strftime('%H%M%S')}-{next(_CRASHES)}-{program}.log"
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text("\n".join(text.splitlines()[-CRASH_LOG_LINES:]) + "\n", encoding="utf-8")
    return ", ".join(dead) + " exited", panic_line(text)


class Clusters:
    """The cluster jobs are judged on, replaced by a new one (``fresh``, prepared for ``jobs``) after a process of
    it exits.  The first is the caller's (stopped here only once it crashed); the later ones are stopped here."""

    def __init__(self, sim: SimCluster, fresh: Optional[Callable[[], SimCluster]], jobs: Sequence[Job],
                 log: Callable[[str], None]):
        self.current, self.fresh, self.jobs, self.log = sim, fresh, jobs, log
        self.own: Optional[SimCluster] = None
        self.crashes: List[Dict[str, str]] = []

    def judge(self, chunk: Sequence[Job], results: Dict[str, Result]) -> bool:
        """Judge ``chunk`` together; False when a process of the cluster exited meanwhile (with ``fresh``)."""
        try:
            _judge_chunk(self.current, chunk, results)
        except Exception:
            if self.fresh is None or not self.current.dead_processes():
                raise
            return False
        return self.fresh is None or not self.current.dead_processes()

    def crashed(self, during: str) -> Tuple[str, str]:
        """Note the crash of the current cluster ``during`` something, start a new one; (who exited, panic line)."""
        who, line = crash_message(self.current)
        self.crashes.append({"during": during, "exited": who, "message": line})
        self.log(f"fidelity: {who} during {during}: {line}; on a new cluster")
        self.restart(crashed=True)
        return who, line

    def judge_each(self, jobs: Sequence[Job], results: Dict[str, Result]) -> None:
        """Judge each job alone; one that takes the cluster down gets the verdict :data:`CRASHED`."""
        for job in jobs:
            if self.fresh is not None and self.current.dead_processes():  # died after the job before
                self.crashed(f"the cleanup before {job.id}")
            if self.judge([job], results):
                continue
            who, line = self.crashed(job.id + " (alone)")
            result = results[job.id]
            result.outcome, result.room, result.reason, result.message = CRASHED, "", who, line

    def restart(self, crashed: bool = False) -> None:
        """Go on on a new cluster (stopping the current one when it is ours, or dead)."""
        assert self.fresh is not None, "no way to start a new cluster"
        if crashed or self.own is not None:
            self.current.stop()
        self.own = self.current = self.fresh()
        self.current.start()
        prepare(self.current, self.jobs)

    def close(self) -> None:
        if self.own is not None:
            self.own.stop()


def clean(sim: SimCluster, verdicts: Sequence[Verdict]) -> None:
    """Delete every job of a batch with its pods and PodGroups, the pending ones too: a PodGroup left
    Inqueue keeps its share of the queue, and later batches' jobs would never be enqueued."""
    custom, core = sim.custom_api(), sim.core_api()
    for verdict in verdicts:
        group, version, plural = ASCEND_JOB if verdict.kind == "AscendJob" else VOLCANO_JOB
        for call in (lambda: custom.delete_namespaced_custom_object(group, version, verdict.sim_namespace, plural,
                                                                    verdict.name),
                     lambda: core.delete_collection_namespaced_pod(verdict.sim_namespace),
                     lambda: custom.delete_collection_namespaced_custom_object(*PODGROUP[:2], verdict.sim_namespace,
                                                                               PODGROUP[2])):
            try:
                call()
            except Exception:  # noqa: BLE001 - rejected jobs were never created; gone is gone
                pass


def queues_named(jobs: Sequence[Job]) -> List[str]:
    """Every queue the jobs name, but the one the queue-unknown mutation invents."""
    names = set()
    for job in jobs:
        for obj in job.objects:
            spec = obj.get("spec") or {}
            policy = (spec.get("runPolicy") or {}).get("schedulingPolicy") or {}
            for name in (spec.get("queue"), policy.get("queue")):
                if isinstance(name, str) and name and name != UNKNOWN_QUEUE:
                    names.add(name)
    return sorted(names - {"default"})


def prepare(sim: SimCluster, jobs: Sequence[Job]) -> None:
    """What a cluster the jobs are meant for has and a new simulated one lacks: the queues they name (but the one the
    queue-unknown mutation invents) and their namespaces.  The oracle runs each job in a namespace of its own, which
    holds nothing but what the job brings (and what the API server puts in every namespace): the job's namespace,
    empty here, is what the snapshot shows of it."""
    ensure_queues(sim, jobs)
    ensure_namespaces(sim, jobs)


def namespaces_named(jobs: Sequence[Job]) -> List[str]:
    """Every namespace the jobs' objects name."""
    return sorted({str(o["metadata"]["namespace"]) for job in jobs for o in job.objects
                   if isinstance(o.get("metadata"), dict) and o["metadata"].get("namespace")})


def ensure_namespaces(sim: SimCluster, jobs: Sequence[Job]) -> None:
    core = sim.core_api()
    for name in namespaces_named(jobs):
        try:
            core.create_namespace({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
        except Exception as exc:  # noqa: BLE001 - already there (default, or from an earlier run)
            if getattr(exc, "status", None) != 409:
                raise


def take_snapshot(sim: SimCluster, kubectl: str, path: Path, env: Optional[Mapping[str, str]] = None) -> None:
    """The cluster's inventory as a user gets it: ``ascend-compile cluster snapshot -o PATH`` of this checkout, through
    ``kubectl`` (an absolute path).  Take it after :func:`prepare` and before any job runs (its NPUs all free).
    ``env``: the environment, made beforehand, that the session's thread runs it in (other tests change this
    process's for a while); read it with :func:`read_snapshot`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    taken = run_cli("cluster", "snapshot", "--kubectl", kubectl, "--kubeconfig", str(sim.kubeconfig),
                    "--name", "simulated", "-o", str(path), env=env, timeout=300)
    if taken.returncode != 0:
        raise RuntimeError(f"cluster snapshot failed (exit {taken.returncode}): {taken.stderr.strip()}")


def read_snapshot(path: Path) -> Any:
    """The inventory of a snapshot file, read as ``lint --cluster-snapshot PATH`` reads it (its schema checked)."""
    from ascend_compile.inventory.snapshot import load

    return load(str(path))


def ensure_queues(sim: SimCluster, jobs: Sequence[Job]) -> None:
    """Create the queues the jobs name (a real cluster has the queues its jobs use; lint cannot know)."""
    custom = sim.custom_api()
    for name in queues_named(jobs):
        body = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": name},
                "spec": {"weight": 1, "reclaimable": True}}
        try:
            custom.create_cluster_custom_object("scheduling.volcano.sh", "v1beta1", "queues", body)
        except Exception as exc:  # noqa: BLE001 - already there from an earlier batch
            if getattr(exc, "status", None) != 409:
                raise


def save(results: Sequence[Result], path: Path, extra: Optional[Dict[str, Any]] = None) -> None:
    """Every result with lint's findings, as JSON (the CI test's, for a look at a failure; a run's verdicts are
    saved by :mod:`tests.fidelity.runs`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"results": [r.as_dict() for r in results], **(extra or {})}
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")

