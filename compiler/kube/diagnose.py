"""``why``: from a :class:`~ascend_compile.kube.jobview.JobView`, the causes of a job's state, real cause first.

The checks run from the most certain cause to the least: the job's own end (failed, succeeded), a gang
that can never be complete (minAvailable above the job's pods), the queue, pods that could not be
created, containers that cannot start (image pulls, mounts, config), node fit (labels, NPU counts,
NPUs held by others), and last the scheduler's own Unschedulable words.  Each cause names what to
do; where a lint rule predicts it, its rule ID (``ascend-compile explain ID``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

from .fit import FITS, NEVER_FITS, NO_NODES, NO_ROOM, TOO_FEW, Fit, node_fit
from .jobview import EventView, JobView, PodView

#: container waiting reasons that are a problem, not a step on the way to running
_STUCK = {"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull", "CreateContainerConfigError",
          "CreateContainerError", "RunContainerError", "CrashLoopBackOff", "ContainerCannotRun"}
_PULL = {"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull"}
#: events that say a pod could not be made or could not start
_CREATE_FAILED = {"FailedCreate", "FailedCreatePod"}
_MOUNT_FAILED = {"FailedMount", "FailedAttachVolume"}
#: events the operator records when a pod exits and when it restarts the job
_RESTART_EVENTS = ("ExitedWithCode", "JobRestarting")
#: the operator's reason while the PodGroup is not yet scheduled: it does not mean the scheduler is down
_PODGROUP_NOT_READY = "PodGroupNotInitialized"
#: the PodGroup condition reason under which the scheduler's plugins (the Ascend plugin's ValidNPUJob) refuse a job
_JOB_REFUSED = "JobValidateFailed"
#: the cause of NPU pods that run without NPUs
NO_NPUS = "no-npus"


@dataclass(frozen=True)
class Cause:
    code: str
    summary: str
    details: List[str] = field(default_factory=list)
    rules: List[str] = field(default_factory=list)

    def as_dict(self) -> Dict[str, Any]:
        return {"code": self.code, "summary": self.summary, "details": list(self.details), "rules": list(self.rules)}


def causes(view: JobView, findings: Sequence[Any] = ()) -> List[Cause]:
    """Every cause found, the real one first; lint ``findings`` (errors) are attached where they predict one."""
    found: List[Cause] = []
    for check in (_no_npus, _ended, _gang, _queue, _create_failed, _containers, _mounts, _fit, _restarting):
        found.extend(check(view))
    if not found or found[0].code == NO_ROOM:  # the scheduler's plugin refuses the job: more certain than NPUs
        found[:0] = _refused(view)             # other jobs hold now (they would not help it once freed)
    if not found:  # the scheduler's own words, when nothing more certain explains them
        found.extend(_unschedulable(view))
    if not found:
        found.append(_healthy(view))
    rules = [f for f in findings if getattr(f, "severity", "") == "error"]
    if rules and found[0].code not in ("succeeded", "running"):
        head = found[0]
        summary = f"{head.summary} — {rules[0].rule}: {rules[0].message}" if head.code == NO_NPUS else head.summary
        found[0] = Cause(head.code, summary, head.details + [f"lint predicts it: {f.rule}: {f.message}"
                                                             for f in rules],
                         head.rules + sorted({f.rule for f in rules}))
    return found


def _no_npus(view: JobView) -> List[Cause]:
    """NPU pods bound and running without the plugin's device annotation: the first thing to say, whatever the
    job's state claims (the job may well show Running)."""
    bare = [p for p in view.pods if p.running_without_npus]
    if view.state.terminal or not bare:
        return []
    npu_pods = [p for p in view.pods if p.npus > 0 and not p.ended]
    resource = bare[0].npu_resource
    return [Cause(NO_NPUS, f"running without NPUs: the scheduler assigned none to {len(bare)} of {len(npu_pods)} NPU "
                           f"pods (no {resource} device annotation), so their containers see no NPU",
                  [f"pod {p.name} on {p.node}: asks for {p.npus} {p.npu_resource}, none assigned" for p in bare])]


def _refused(view: JobView) -> List[Cause]:
    """The Ascend plugin's refusal of the job (the PodGroup's JobValidateFailed condition): the real reason behind
    the scheduler's generic "pod group is not ready" and the operator's PodGroupNotInitialized."""
    if view.state.terminal:
        return []
    for pg in view.podgroups:
        for cond in pg.conditions:
            if cond.get("type") == "Unschedulable" and str(cond.get("status")) == "True" \
                    and cond.get("reason") == _JOB_REFUSED:
                return [Cause("job-refused", f"the scheduler refuses the job ({_JOB_REFUSED}): {cond.get('message')}; "
                                             "it stays Pending until the job is changed", _podgroup_words(view))]
    return []


def _ended(view: JobView) -> List[Cause]:
    state = view.state
    if not state.terminal:
        return []
    when = state.details.get("completionTime") or ""
    if state.succeeded:
        return [Cause("succeeded", f"the job succeeded{' at ' + when if when else ''}")]
    details = [f"pod {p.name}: {c.name} exited {c.exit_code}{' (' + c.reason + ')' if c.reason else ''}"
               for p in view.pods for c in p.containers if c.state == "terminated" and c.exit_code]
    what = f"{state.reason}: {state.message}" if state.reason else state.message or state.state
    return [Cause("failed", f"the job {state.state.lower()}: {what}", details)]


def _gang(view: JobView) -> List[Cause]:
    want = view.podgroups[0].min_member if view.podgroups else view.min_available
    total = view.total_pods
    if want is None or not view.replicas or want <= total:
        return []
    field_name = "spec.runPolicy.schedulingPolicy.minAvailable" if view.state.kind == "AscendJob" \
        else "spec.minAvailable"
    return [Cause("min-available", f"the job needs {want} pods running together (minAvailable {want}) but has only "
                                   f"{total}: it can never be scheduled; set {field_name} to {total} or less",
                  _podgroup_words(view))]


def _queue(view: JobView) -> List[Cause]:
    queue = view.queue
    if queue is None or view.state.terminal:
        return []
    if not queue.found:
        return [Cause("queue-missing", f"the queue {queue.name!r} does not exist: create it or set the job's queue "
                                       "to an existing one (kubectl get queues)")]
    if queue.state and queue.state != "Open":
        return [Cause("queue-closed", f"the queue {queue.name!r} is {queue.state}: it admits no new jobs; open it "
                                      f"or use another queue", _podgroup_words(view))]
    return []


def _create_failed(view: JobView) -> List[Cause]:
    if len(view.pods) >= view.total_pods or view.state.terminal:
        return []
    events = [e for e in view.events if e.reason in _CREATE_FAILED]
    if not events:
        return []
    last = events[-1]
    return [Cause("create-pod-failed", f"the controller cannot create the pods ({len(view.pods)} of "
                                       f"{view.total_pods} exist): {last.message}")]


def _containers(view: JobView) -> List[Cause]:
    out: List[Cause] = []
    for pod in view.pods:
        for c in pod.containers:
            if c.state == "waiting" and c.reason in _STUCK:
                code = "image-pull" if c.reason in _PULL else "container-waiting"
                words = f": {c.message}" if c.message else ""
                what = "cannot pull its image" if code == "image-pull" else "cannot start"
                out.append(Cause(code, f"pod {pod.name}: container {c.name} {what} ({c.reason}){words}"))
    return _merge_same(out)


def _mounts(view: JobView) -> List[Cause]:
    if view.state.terminal:
        return []
    events = [e for e in view.events if e.reason in _MOUNT_FAILED and e.kind == "Pod"]
    pending = {p.name for p in view.pods if p.phase == "Pending" and p.node}
    latest: Dict[str, EventView] = {e.name: e for e in events if e.name in pending}
    return _merge_same([Cause("mount-failed", f"pod {name}: a volume cannot be mounted ({e.reason}): {e.message}")
                        for name, e in sorted(latest.items())])


def _fit(view: JobView) -> List[Cause]:
    unplaced = [p for p in view.pods if not p.node and not p.ended]
    if view.state.terminal or (view.pods and not unplaced):
        return []
    out = []
    for fit in node_fit(view):
        if fit.verdict == FITS or fit.pods == 0:
            continue
        out.append(Cause(fit.verdict, fit.line(), _fit_advice(fit) + _podgroup_words(view)))
    return out


def _fit_advice(fit: Fit) -> List[str]:
    if fit.verdict == NO_NODES:
        return ["fix the job's nodeSelector (accelerator-type, host-arch), its required node affinity or its profile; "
                "kubectl get nodes -L accelerator-type,host-arch shows what the nodes carry"]
    if fit.verdict == NEVER_FITS:
        return [f"ask for at most {fit.largest} NPUs per pod (more pods instead), or use a profile whose nodes "
                f"have {fit.npus}"]
    if fit.verdict == TOO_FEW:
        return ["use fewer pods (more NPUs per pod, if the nodes have them), or add nodes of this kind"]
    return ["wait for other jobs to end, or ask for fewer NPUs"]


def _unschedulable(view: JobView) -> List[Cause]:
    if view.state.terminal:
        return []
    for pg in view.podgroups:
        cond = pg.unschedulable()
        if cond and (not view.pods or any(not p.node for p in view.pods)):
            return [Cause("unschedulable", f"the scheduler cannot place the PodGroup ({cond.get('reason')}): "
                                           f"{cond.get('message')}", _plugin_words(view))]
    messages = sorted({p.unschedulable for p in view.pods if p.unschedulable and not p.node})
    if messages:
        return [Cause("unschedulable", f"the scheduler cannot place the pods: {messages[0]}", messages[1:])]
    return []


def _restarting(view: JobView) -> List[Cause]:
    restarted = [(p, c) for p in view.pods for c in p.containers if c.restarts or (c.exit_code or 0) != 0]
    restarting = view.state.state.startswith("Restarting")
    if view.state.terminal or not (restarting or restarted):
        return []
    details = [f"pod {p.name}: {c.name} restarted {c.restarts} time(s), last exit code "
               f"{c.last_exit_code if c.last_exit_code is not None else c.exit_code}" for p, c in restarted]
    what = f" ({view.state.reason}: {view.state.message})" if restarting and view.state.reason else ""
    summary = f"the job is restarting after a pod failed{what}" if restarting else \
        "containers of the job failed and were restarted"
    return [Cause("restarting", summary, details)]


def _healthy(view: JobView) -> Cause:
    running = sum(1 for p in view.pods if p.phase == "Running")
    if running and running == len(view.pods):
        restarts = restart_history(view)
        again = f"; it restarted before: {restarts[-1]}" if restarts else ""
        return Cause("running", f"the job is running: {running} of {view.total_pods} pods Running{again}",
                     restarts[:-1])
    return Cause("unknown", f"no cause found: the job is {view.state.summary()}; {len(view.pods)} of "
                            f"{view.total_pods} pods exist; see the PodGroup, pods and events below")


def restart_history(view: JobView) -> List[str]:
    """The job's past restarts, oldest first: the controller's restart events (the exit code that caused
    one, then the restart), else Restarting conditions still in the status, else a Volcano Job's retry count."""
    out = [f"{e.reason}{f' (x{e.count})' if e.count > 1 else ''}: {e.message}" for e in view.events
           if e.kind == view.state.kind and e.reason in _RESTART_EVENTS]
    if not out:
        out = [f"{c.get('reason') or ''}: {c.get('message') or ''}" for c in view.state.details.get("conditions") or []
               if c.get("type") == "Restarting"]
    retries = (view.state.details.get("counts") or {}).get("retryCount")
    if not out and retries:
        out.append(f"{retries} time(s) (status.retryCount)")
    return out


def _podgroup_words(view: JobView) -> List[str]:
    out = []
    for pg in view.podgroups:
        cond = pg.unschedulable()
        if cond:
            out.append(f"scheduler: {cond.get('message')}")
    return out


def _plugin_words(view: JobView) -> List[str]:
    """Warning events of the PodGroup and pods that add to its condition (the Ascend plugin's messages)."""
    seen, out = set(), []
    for event in reversed(view.events):
        if event.type == "Warning" and event.kind in ("PodGroup", "Pod") and event.message not in seen:
            seen.add(event.message)
            out.append(f"{event.kind} {event.reason}: {event.message}")
    return out[:3]


def _merge_same(found: List[Cause]) -> List[Cause]:
    """Causes with the same code and words after the pod name become one, naming how many pods share it."""
    groups: Dict[str, List[Cause]] = {}
    for cause in found:
        groups.setdefault(cause.code + cause.summary.partition(": ")[2], []).append(cause)
    out = []
    for group in groups.values():
        head = group[0]
        if len(group) > 1:
            head = Cause(head.code, f"{head.summary} (and {len(group) - 1} more pod(s) alike)", head.details)
        out.append(head)
    return out


def operator_note(view: JobView) -> Optional[str]:
    """A word on the operator's reason when it points away from the real cause."""
    if view.state.reason == _PODGROUP_NOT_READY and any(pg.conditions for pg in view.podgroups):
        return (f"the operator's reason {_PODGROUP_NOT_READY} means the PodGroup is not scheduled yet; the "
                "scheduler is running (it wrote the PodGroup's conditions)")
    return None


def failed_containers(pods: Sequence[PodView]) -> List[Any]:
    """(pod, container, previous) for each container whose log tells why it failed."""
    out = []
    for pod in pods:
        for c in pod.containers:
            if c.state == "terminated" and c.exit_code:
                out.append((pod, c, False))
            elif c.restarts and c.last_exit_code:
                out.append((pod, c, True))
    return out
