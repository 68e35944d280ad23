"""On MindCluster v6.0.0 a job the Ascend plugin has no handler for crashes vc-scheduler beside a job waiting for
nodes; from v7.0.RC1 it does not (fact ``no-handler-crashes-scheduler``, compiler/releases.py; AC306 and AC307).

What the v6.0.0 plugin does (component/ascend-for-volcano of its archive): at each session's start it sets up every
NPU job it takes in (plugin/factory.go InitJobsPlugin, a loop over a Go map, so in a random order each session) and
stops at the first job whose InitMyJobPlugin fails, as it does for a huawei.com/Ascend910 job whose handler name
(resource and accelerator-type) it has no handler for (internal/ascend910/frame.go) and for a huawei.com/Ascend310 job
whose npu-310-strategy it does not know (internal/ascend310/frame.go).  The jobs after it in that order keep a handler
without job data; when the scheduler tries a pod of such an Ascend910 job against a node with enough free NPUs
(plugin/node.go NodePredicate), internal/ascend910/frame.go CheckNodeNPUByTask reads the job type through it: a nil
pointer dereference, and the process exits.  From v7.0.RC1 a job without a handler gets an empty list of handlers and
no error (internal/controller.go InitMyJobPlugin), so the set-up goes on.

One small cluster per release (two module-910b-8 nodes, two module-910b-16), each step on both releases:

1. the job without a handler, alone: a Volcano Job whose two pods select accelerator-type module-910b-8 and
   module-910b-16, which the plugin joins into one selector that names no handler (AC306): it runs (release shape
   accelerator-types-joined);
2. beside it, an ordinary job that waits for nodes: three pods of 8 NPUs on module-910b-8 nodes, of which one is
   free.  Its gang never fits, so the scheduler tries its pods against the free node in every session (one a
   second).  Whether a session crashes depends on that session's map order; a job tried in every session makes the
   crash a matter of seconds, bounded by :data:`WAIT` (a job that fits would be placed in the first session whose
   order set it up first, and nothing would crash after it: the outcome would be chance);
3. v6.0.0: vc-scheduler exits (the nil pointer dereference in CheckNodeNPUByTask); started again, as a real install's
   Deployment restarts it, it exits again; with the job without a handler swapped for an Atlas 300 job whose
   npu-310-strategy names no handler (AC307; the cluster has no 310 nodes, and the plugin sets up a job that waits),
   started again, it exits again.  v7.0.RC1: vc-scheduler runs through :data:`SESSIONS` sessions of each pair, and
   the waiting job's PodGroup says why it waits (its pods were tried);
4. with neither job without a handler, the scheduler (started again) runs through :data:`SESSIONS` sessions on both
   releases: the crash is that job's doing.

Observed on 2026-12-07 (idle machine but for a build): on v6.0.0 each crash came in the 2nd or 3rd session of its step,
the module's v6.0.0 cluster took 64 s and the v7.0.RC1 one 126 s, each with its start (about 20 s).
"""
from __future__ import annotations

import re
import time
from typing import Any, Dict, Iterator, List, Optional

import pytest

from tests.simcluster import jobs
from tests.simcluster.cluster import SimCluster
from tests.simcluster.conftest import skip_reason
from tests.simcluster.release_shapes import vcjob, with_task
from tests.simcluster.test_release_claims import CLAIMS

NAMESPACE = "no-handler-crash"
#: this module's claim among the release claims (compiler/catalogue/proven.py is made from them)
CLAIM = next(claim for claim in CLAIMS if claim.id == "no-handler-crash")
#: the release where a job without a handler crashes the scheduler, and the first after it
CRASHES, LATER = CLAIM.releases
PROFILES = ("module-910b-8", "module-910b-16")
#: how many sessions the scheduler must run with each pair on the release where it does not crash
SESSIONS = 20
#: how long a step waits, at most, for the crash or for those sessions (a session a second; the loaded machine's
#: sessions were slower)
WAIT = 120.0
SCHEDULER = "vc-scheduler"
#: one scheduling session of Volcano's, as its log says at -v=3 (framework/session.go openSession)
SESSION_LINE = re.compile(r"Open Session [0-9a-f-]+ with <\d+> Job")


def _in_namespace(job: Dict[str, Any]) -> Dict[str, Any]:
    job["metadata"]["namespace"] = NAMESPACE
    return job


def no_handler_910() -> Dict[str, Any]:
    """Two pods whose accelerator-types join into a selector no handler has (shape accelerator-types-joined)."""
    return _in_namespace(with_task(vcjob("no-handler", "module-910b-8", 8, accelerator_type="module-910b-8"), "other",
                                   "module-910b-16", 8, accelerator_type="module-910b-16"))


def no_handler_310() -> Dict[str, Any]:
    """An Atlas 300 job labelled npu-310-strategy: cards, which names no 310 handler (shape npu-310-strategy-typo)."""
    job = _in_namespace(vcjob("no-handler-310", "310", 2, resource="huawei.com/Ascend310", ring="ascend-310"))
    for labels in (job["metadata"]["labels"], job["spec"]["tasks"][0]["template"]["metadata"]["labels"]):
        labels["npu-310-strategy"] = "cards"
    return job


def waiting() -> Dict[str, Any]:
    """Three pods of 8 NPUs on the module-910b-8 nodes, two of which exist: it waits for nodes."""
    return _in_namespace(vcjob("waits-for-nodes", "module-910b-8", 8, replicas=3, accelerator_type="module-910b-8"))


class SchedulerLog:
    """vc-scheduler's log from a point on: the sessions it opened since, and whether it died of the nil pointer."""

    def __init__(self, sim: SimCluster):
        self.sim, self.process = sim, sim.group.get(SCHEDULER)
        self.offset = self.process.log.stat().st_size

    def text(self) -> str:
        with open(self.process.log, "rb") as handle:
            handle.seek(self.offset)
            return handle.read().decode(errors="replace")

    def sessions(self) -> int:
        return len(SESSION_LINE.findall(self.text()))

    def crash(self) -> Optional[str]:
        """The panic's lines (from ``panic:`` on, 40 at most) once the scheduler has exited; None while it runs."""
        if self.process.alive():
            return None
        lines = self.text().splitlines()
        start = next((i for i, line in enumerate(lines) if "panic" in line), max(len(lines) - 40, 0))
        return "\n".join(lines[start:start + 40]) or f"(exit {self.process.exit_code()}, nothing logged)"


def watch(sim: SimCluster, log: SchedulerLog) -> Dict[str, Any]:
    """Wait until the scheduler exits, or has run :data:`SESSIONS` sessions, or :data:`WAIT` has passed."""
    started = time.monotonic()
    while time.monotonic() - started < WAIT:
        if log.crash() is not None or log.sessions() >= SESSIONS:
            break
        time.sleep(0.5)
    return {"crash": log.crash(), "sessions": log.sessions(), "seconds": round(time.monotonic() - started, 1)}


def _running(sim: SimCluster, name: str) -> Optional[bool]:
    pods = jobs.pods_of(sim, NAMESPACE, "Job", name)
    return bool(pods) and all((p.get("status") or {}).get("phase") == "Running" for p in pods) or None


def _podgroup_of(sim: SimCluster, name: str) -> Optional[Dict[str, Any]]:
    for group in jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n", NAMESPACE)["items"]:
        if any(owner.get("name") == name for owner in group["metadata"].get("ownerReferences", [])):
            return group
    return None


def _gone(sim: SimCluster, name: str) -> None:
    """Delete the job, its pods and its PodGroup (no garbage collector runs here), and wait until they are gone."""
    group = _podgroup_of(sim, name)
    sim.kubectl("delete", "jobs.batch.volcano.sh", name, "-n", NAMESPACE, "--wait=false", check=False)
    sim.kubectl("delete", "pods", "-l", f"volcano.sh/job-name={name}", "-n", NAMESPACE, "--wait=false", check=False)
    if group is not None:
        sim.kubectl("delete", "podgroups.scheduling.volcano.sh", group["metadata"]["name"], "-n", NAMESPACE,
                    "--wait=false", check=False)
    jobs.wait_for(lambda: not jobs.pods_of(sim, NAMESPACE, "Job", name) and _podgroup_of(sim, name) is None,
                  timeout=60, what=f"{name}'s pods and PodGroup to go")


def _step(sim: SimCluster) -> Dict[str, Any]:
    """Watch the scheduler from now, started again first where it has exited."""
    log = SchedulerLog(sim)
    if not sim.group.get(SCHEDULER).alive():
        sim.restart(SCHEDULER)
    return watch(sim, log)


def pair_run(sim: SimCluster) -> Dict[str, Any]:
    """The steps of the module's docstring on one release's cluster, and then, the job without a handler deleted,
    the scheduler started again once more: what each showed."""
    out: Dict[str, Any] = {}
    jobs.create_namespace(sim, NAMESPACE)
    sim.apply_objects([no_handler_910()], create=True)
    out["alone-ran"] = bool(jobs.wait_for(lambda: _running(sim, "no-handler"), timeout=120, sim=sim,
                                          what="the job without a handler to run alone",
                                          last=lambda: jobs.describe_namespace(sim, NAMESPACE)))
    log = SchedulerLog(sim)
    sim.apply_objects([waiting()], create=True)
    out["beside"] = watch(sim, log)
    out["beside-why"] = jobs.podgroup_unschedulable(sim, NAMESPACE, "waits-for-nodes")
    out["restarted"] = _step(sim)
    _gone(sim, "no-handler")
    sim.apply_objects([no_handler_310()], create=True)
    jobs.wait_for(lambda: _podgroup_of(sim, "no-handler-310"), timeout=60, what="the 310 job's PodGroup")
    out["beside-310"] = _step(sim)
    _gone(sim, "no-handler-310")
    out["without"] = _step(sim)
    out["waiting-why"] = jobs.wait_for(lambda: jobs.podgroup_unschedulable(sim, NAMESPACE, "waits-for-nodes"),
                                       timeout=60, what="the waiting job's Unschedulable condition", sim=sim)
    out["waiting-placed"] = bool(_running(sim, "waits-for-nodes"))
    out["detail"] = jobs.describe_namespace(sim, NAMESPACE)
    return out


def test_the_claim_names_this_module_and_the_ends_of_the_facts_spans() -> None:
    from ascend_compile import releases

    assert CLAIM.own == "tests/simcluster/test_no_handler_crash.py" and CLAIM.work is None
    assert CLAIM.facts == ("no-handler-crashes-scheduler",)
    first, second = releases.fact(CLAIM.facts[0]).spans
    assert (first[0], first[1], second[0]) == (CRASHES, CRASHES, LATER)


@pytest.fixture(scope="module", params=[CRASHES, LATER])
def seen(request: pytest.FixtureRequest) -> Iterator[Dict[str, Any]]:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    with SimCluster(profiles=list(PROFILES), nodes_per_profile=2, release=request.param) as sim:
        yield {"release": request.param, **pair_run(sim)}


def _steps(seen: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [seen["beside"], seen["restarted"], seen["beside-310"]]


def test_the_job_without_a_handler_runs_alone(seen: Dict[str, Any]) -> None:
    assert seen["alone-ran"], seen["detail"]


def test_beside_a_waiting_job_it_crashes_the_v6_0_0_scheduler_again_after_each_restart(seen: Dict[str, Any]) -> None:
    from ascend_compile import releases

    crashes = releases.value("no-handler-crashes-scheduler", seen["release"])
    for step in _steps(seen):
        if crashes:
            assert step["crash"] is not None, (seen["release"], step)
            assert "nil pointer dereference" in step["crash"] and "CheckNodeNPUByTask" in step["crash"], step["crash"]
        else:
            assert step["crash"] is None and step["sessions"] >= SESSIONS, (seen["release"], step)
    if not crashes:  # it ran on while it tried the waiting job's pods, the job without a handler beside it
        assert "gang unschedulable" in (seen["beside-why"] or ""), seen["detail"]
    assert crashes is (seen["release"] == CRASHES)


def test_without_the_job_without_a_handler_the_scheduler_runs_and_the_waiting_job_waits(seen: Dict[str, Any]) -> None:
    """The crash is the job without a handler's doing: once it is deleted the scheduler, started again, runs its
    sessions on every release, and the waiting job's PodGroup says its gang does not fit (its pods were tried)."""
    assert seen["without"]["crash"] is None and seen["without"]["sessions"] >= SESSIONS, seen["without"]
    assert seen["waiting-why"] and not seen["waiting-placed"], seen["detail"]
