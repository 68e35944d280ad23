"""Claims about a named release, shown on that release's simulated cluster (issue 44: every claim re-proven).

- **A non-zero exit restarted in place** (fact ``exit-code-fails-task``, compiler/releases.py): a Volcano Job
  labelled ``fault-scheduling: force`` and ``fault-retry-times: "3"``, restartPolicy OnFailure; its container
  exits 1 and the kubelet restarts it in place (kwok stage ``sim-pod-restart-in-place``: the pod stays Running,
  ``lastState.terminated.exitCode`` 1, ``restartCount`` 1).  Up to v7.0.RC1 the plugin judges a task by its
  pod's phase only and never restarts the job; from v7.3.2 it counts the exit code and restarts the job (new
  pods).  Shown at the ends of both spans: v6.0.0, v7.0.RC1, v7.3.2, v26.1.0.
- **``maxRetry: -1`` without Volcano's admission webhook** (AC402; MindCluster's own install ships no
  webhook): on the release's cluster with its webhook configurations taken away for the case (and put back),
  the job is admitted and runs; a failed pod under a ``PodFailed: RestartJob`` policy then fails the job at
  its first restart (Volcano's controller counts the restart, then fails a restarting job once
  ``retryCount >= maxRetry``: 1 >= -1), where ``maxRetry`` 3 restarts it.  With the webhook the API server
  refuses it.  Shown on v26.1.0.
- **A renamed job's ranktable ConfigMap** (AC503; fact ``ranktable-configmap``): a Volcano Job whose ranktable
  volume names ``rings-config-<old name>``: once its pod runs, the operator has written ``rings-config-<job>``
  (status completed) and left the mounted one as it was created (initializing).  That the pods then wait for a
  ranktable is the start script's doing, which the simulated containers do not run (they sleep): the rule cites
  upstream's script for it.  Shown at the ends of the fact's one span: v6.0.0 and v26.1.0.
- **A job without a handler beside a job waiting for nodes** (AC306, AC307; fact ``no-handler-crashes-scheduler``):
  on v6.0.0 vc-scheduler crashes, and again after each restart; on v7.0.RC1 it runs on.  A crashing scheduler would
  take this module's other batches with it, so tests/simcluster/test_no_handler_crash.py shows it on small clusters of
  its own (``own``).

:data:`CLAIMS` names, for each claim, the rules and the facts of compiler/releases.py it shows and the releases it
runs on; compiler/catalogue/proven.py is made from it with the job shapes (scripts/gen_rule_proofs.py).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

from tests.simcluster import jobs
from tests.simcluster.cluster import SimCluster
from tests.simcluster.release_shapes import vcjob
from tests.simcluster.releases import SUPPORTED

NAMESPACE = "release-claims"
#: the releases at the ends of the two spans of exit-code-fails-task
RESTART_RELEASES = ("v6.0.0", "v7.0.RC1", "v7.3.2", "v26.1.0")
WEBHOOK_RELEASE = "v26.1.0"
#: the ends of the one span of ranktable-configmap
RANKTABLE_RELEASES = ("v6.0.0", "v26.1.0")
#: how long the pod of a release that does not restart the job is watched after its in-place restart (scheduling
#: sessions are a second apart; the plugin of v7.3.2 restarted the job within a few)
WATCH_SECONDS = 15.0


def _retry_job(name: str) -> Dict[str, Any]:
    job = vcjob(name, "module-910b-8", 8, accelerator_type="module-910b-8")
    job["metadata"]["namespace"] = NAMESPACE
    job["metadata"]["labels"].update({"fault-scheduling": "force", "fault-retry-times": "3"})
    job["spec"]["tasks"][0]["template"]["spec"]["restartPolicy"] = "OnFailure"
    return job


def _running_pod(sim: SimCluster, name: str, avoid: frozenset = frozenset()) -> Dict[str, Any]:
    def check() -> Optional[Dict[str, Any]]:
        pods = [p for p in jobs.pods_of(sim, NAMESPACE, "Job", name) if p["metadata"]["uid"] not in avoid
                and (p.get("status") or {}).get("phase") == "Running"]
        return pods[0] if pods else None
    return jobs.wait_for(check, timeout=120, what=f"a running pod of {name}", sim=sim,
                         last=lambda: jobs.describe_namespace(sim, NAMESPACE))


class _ContainerRestart:
    """Watches one pod from before its container is made to exit: the container status with restartCount 1, as
    the watch delivered it (every change is delivered, including the deletion that may follow at once)."""

    def __init__(self, sim: SimCluster, pod: Dict[str, Any]):
        self.sim, self.pod = sim, pod
        self.found: Optional[Dict[str, Any]] = None
        self._reading = threading.Event()
        self._watch: Any = None
        self._thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        import kubernetes

        self._watch = kubernetes.watch.Watch()
        name = self.pod["metadata"]["name"]
        for event in self._watch.stream(self.sim.core_api().list_namespaced_pod, NAMESPACE,
                                        field_selector=f"metadata.name={name}", timeout_seconds=120):
            self._reading.set()
            raw = event["raw_object"]
            if raw["metadata"]["uid"] != self.pod["metadata"]["uid"]:
                continue
            for status in (raw.get("status") or {}).get("containerStatuses") or []:
                if status.get("restartCount") == 1 and self.found is None:
                    self.found = status
            if self.found is not None:
                break

    def restarted(self) -> Optional[Dict[str, Any]]:
        return self.found

    def __enter__(self) -> "_ContainerRestart":
        self._thread.start()
        jobs.wait_for(self._reading.is_set, timeout=60, interval=0.1,
                      what=f"a watch on {self.pod['metadata']['name']}", sim=self.sim)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._watch is not None:
            self._watch.stop()


def restart_in_place(sim: SimCluster) -> Dict[str, Any]:
    """Run the retry job, make its container exit 1 in place; what happened to the job's pod."""
    name = "exit-in-place"
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects([_retry_job(name)], create=True)
        pod = _running_pod(sim, name)
        time.sleep(5)  # a few scheduling sessions: the plugin has taken the job in as a fault job
        seen = _ContainerRestart(sim, pod)
        with seen:
            jobs.label_pods(sim, NAMESPACE, [pod], 1)
            # a watch, not polling: a plugin that restarts the job deletes the pod at its next session, a second
            # or less after the restart, which a poll of a loaded machine can miss (CI at 380faa4 did)
            container = jobs.wait_for(seen.restarted, timeout=60, interval=0.1,
                                      what=f"{name}'s container to restart in place", sim=sim)
        deadline, replaced = time.monotonic() + WATCH_SECONDS, False
        while time.monotonic() < deadline and not replaced:
            uids = {p["metadata"]["uid"] for p in jobs.pods_of(sim, NAMESPACE, "Job", name)
                    if not p["metadata"].get("deletionTimestamp")}
            replaced = pod["metadata"]["uid"] not in uids
            time.sleep(1)
        if replaced:
            _running_pod(sim, name, frozenset({pod["metadata"]["uid"]}))
        return {"exit_code": container["lastState"]["terminated"]["exitCode"], "replaced": replaced,
                "remaining": jobs.remaining_retries(sim, NAMESPACE, name, "Job"),
                "retry_count": jobs.job_object(sim, NAMESPACE, "Job", name).get("status", {}).get("retryCount", 0)}
    finally:
        jobs.clean_namespace(sim, NAMESPACE)


def _webhook_configurations(sim: SimCluster) -> List[Dict[str, Any]]:
    found = []
    for kind in ("mutatingwebhookconfigurations", "validatingwebhookconfigurations"):
        for item in jobs.get_json(sim, kind)["items"]:
            for key in ("resourceVersion", "uid", "creationTimestamp", "managedFields", "generation"):
                item["metadata"].pop(key, None)
            found.append(item)
    return found


def _run_to_first_failure(sim: SimCluster, name: str, max_retry: int) -> Dict[str, Any]:
    job = vcjob(name, "module-910b-8", 8, accelerator_type="module-910b-8")
    job["metadata"]["namespace"] = NAMESPACE
    job["spec"]["maxRetry"] = max_retry
    job["spec"]["policies"] = [{"event": "PodFailed", "action": "RestartJob"}]
    created = sim.kubectl("create", "-f", "-", input=json.dumps(job), check=False)
    if created.returncode != 0:
        return {"admitted": False, "message": created.stderr.strip()}
    pod = _running_pod(sim, name)
    jobs.label_pods(sim, NAMESPACE, [pod], 1)

    def settled() -> Optional[Dict[str, Any]]:
        status = jobs.job_object(sim, NAMESPACE, "Job", name).get("status") or {}
        phase = (status.get("state") or {}).get("phase")
        return status if phase == "Failed" or status.get("retryCount", 0) > 0 else None

    status = jobs.wait_for(settled, timeout=90, what=f"{name} to restart or fail after its pod failed", sim=sim,
                           last=lambda: jobs.describe_namespace(sim, NAMESPACE))
    return {"admitted": True, "phase": status["state"]["phase"], "retry_count": status.get("retryCount", 0)}


def max_retry_without_webhook(sim: SimCluster) -> Dict[str, Any]:
    """maxRetry -1 with the webhook, then without it (and maxRetry 3 without it, for comparison)."""
    jobs.create_namespace(sim, NAMESPACE)
    saved = _webhook_configurations(sim)
    try:
        out = {"with-webhook": _run_to_first_failure(sim, "max-retry-webhook", -1)}
        for item in saved:
            sim.kubectl("delete", item["kind"].lower() + "s", item["metadata"]["name"])
        time.sleep(2)  # the API server's webhook configuration cache
        out["without-webhook"] = _run_to_first_failure(sim, "max-retry-minus-one", -1)
        out["without-webhook-3"] = _run_to_first_failure(sim, "max-retry-three", 3)
        return out
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
        present = {(i["kind"], i["metadata"]["name"]) for i in _webhook_configurations(sim)}
        missing = [i for i in saved if (i["kind"], i["metadata"]["name"]) not in present]
        if missing:
            sim.apply_objects(missing, create=True)


def _ranktable_status(sim: SimCluster, name: str) -> str:
    data = jobs.get_json(sim, "configmap", name, "-n", NAMESPACE).get("data") or {}
    return str(json.loads(data.get("hccl.json") or "{}").get("status"))


def renamed_ranktable(sim: SimCluster) -> Dict[str, Any]:
    """A job renamed to ``renamed-job`` whose volume still names rings-config-old-job: what each ConfigMap holds
    once the operator wrote the job's ranktable."""
    name, old = "renamed-job", "rings-config-old-job"
    job = vcjob(name, "module-910b-8", 8, accelerator_type="module-910b-8")
    job["metadata"]["namespace"] = NAMESPACE
    pod = job["spec"]["tasks"][0]["template"]["spec"]
    pod["volumes"] = [{"name": "ascend-910-config", "configMap": {"name": old}}]
    pod["containers"][0]["volumeMounts"] = [{"name": "ascend-910-config",
                                             "mountPath": "/user/serverid/devindex/config"}]
    maps = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": cm, "namespace": NAMESPACE,
                                                                   "labels": {"ring-controller.atlas": "ascend-910b"}},
             "data": {"hccl.json": json.dumps({"status": "initializing"})}} for cm in (old, f"rings-config-{name}")]
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects(maps + [job], create=True)
        _running_pod(sim, name)
        written = jobs.wait_for(lambda: _ranktable_status(sim, f"rings-config-{name}") == "completed" or None,
                                timeout=120, what=f"rings-config-{name} to be completed by ascend-operator", sim=sim,
                                last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        return {"job's": "completed" if written else "", "mounted": _ranktable_status(sim, old)}
    finally:
        jobs.clean_namespace(sim, NAMESPACE)


@dataclass(frozen=True)
class Claim:
    id: str
    #: the rules whose per-release claim it shows, and the facts of compiler/releases.py it shows (at span ends)
    rules: Tuple[str, ...]
    facts: Tuple[str, ...]
    #: the releases whose simulated cluster shows it
    releases: Tuple[str, ...]
    #: what it does on the release cluster (None: shown by the module ``own`` names, on clusters of its own)
    work: Optional[Callable[[SimCluster], Dict[str, Any]]]
    own: str = ""


CLAIMS: Tuple[Claim, ...] = (
    Claim("restart-in-place", ("AC312",), ("exit-code-fails-task",), RESTART_RELEASES, restart_in_place),
    Claim("max-retry-without-webhook", ("AC402",), (), (WEBHOOK_RELEASE,), max_retry_without_webhook),
    Claim("renamed-ranktable", ("AC503",), ("ranktable-configmap",), RANKTABLE_RELEASES, renamed_ranktable),
    Claim("no-handler-crash", ("AC306", "AC307"), ("no-handler-crashes-scheduler",), ("v6.0.0", "v7.0.RC1"), None,
          own="tests/simcluster/test_no_handler_crash.py"),
)
#: the claims whose work runs on the release clusters of this module's batches
ON_RELEASE_CLUSTERS = tuple(claim for claim in CLAIMS if claim.work is not None)


def _claims(release: str) -> Callable[[SimCluster], Dict[str, Any]]:
    def run(sim: SimCluster) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for claim in ON_RELEASE_CLUSTERS:
            if release in claim.releases and claim.work is not None:
                try:
                    out[claim.id] = claim.work(sim)
                except Exception as exc:  # noqa: BLE001 - the claim's test reports it
                    out[claim.id] = exc
        return out
    return run


def JUDGED_ON_RELEASES() -> Dict[str, Callable[[SimCluster], Any]]:  # noqa: N802 - the session's attribute name
    return {release: _claims(release) for release in SUPPORTED
            if any(release in c.releases for c in ON_RELEASE_CLUSTERS)}


def _result(judged_early: Dict[str, Any], release: str, claim: str) -> Dict[str, Any]:
    value = judged_early[release][claim]
    if isinstance(value, Exception):
        raise value
    return value


@pytest.mark.parametrize("release", RESTART_RELEASES)
def test_a_non_zero_exit_restarted_in_place_restarts_the_job_from_v7_3_2(judged_early, release) -> None:
    from ascend_compile import releases as targets

    seen = _result(judged_early, release, "restart-in-place")
    assert seen["exit_code"] == 1
    assert seen["replaced"] is targets.value("exit-code-fails-task", release), seen
    if seen["replaced"]:
        assert seen["retry_count"] == 0, seen  # the plugin restarted it, not Volcano's controller


def test_max_retry_minus_one_is_refused_only_with_the_webhook_and_fails_at_the_first_failure(judged_early) -> None:
    seen = _result(judged_early, WEBHOOK_RELEASE, "max-retry-without-webhook")
    assert seen["with-webhook"]["admitted"] is False, seen
    assert "maxRetry" in seen["with-webhook"]["message"], seen
    # the first failure restarts the job (retryCount 1) and the restart fails it: 1 >= -1
    assert seen["without-webhook"] == {"admitted": True, "phase": "Failed", "retry_count": 1}, seen
    assert seen["without-webhook-3"]["admitted"] and seen["without-webhook-3"]["phase"] != "Failed", seen


@pytest.mark.parametrize("release", RANKTABLE_RELEASES)
def test_the_operator_writes_only_the_ranktable_configmap_named_for_the_job(judged_early, release) -> None:
    from ascend_compile import releases as targets

    seen = _result(judged_early, release, "renamed-ranktable")
    assert targets.value("ranktable-configmap", release) == "<prefix><job>"
    assert seen == {"job's": "completed", "mounted": "initializing"}, seen
