"""``why JOB``: one job's state explained, for people (:meth:`Why.lines`) and machines (:meth:`Why.as_dict`).

Built from the shared job-state model (:func:`~ascend_compile.kube.jobview.gather`) and the causes of
:mod:`~ascend_compile.kube.diagnose`; the job as stored is also linted, so a cause a lint rule predicts
carries the rule's ID.  Read-only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from ..lint.session import Session

from .diagnose import Cause, causes, failed_containers, operator_note
from .fit import Fit, node_fit
from .jobview import JobView, PodView, Reader, gather

#: events shown (the most recent)
MAX_EVENTS = 12
#: log lines shown per failed container, and how many containers
LOG_LINES = 10
MAX_LOGS = 3


@dataclass
class Why:
    view: JobView
    causes: List[Cause]
    fit: List[Fit]
    note: Optional[str] = None
    logs: List[Dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> Dict[str, Any]:
        view = self.view
        return {"job": view.state.as_dict(), "cause": self.causes[0].as_dict(),
                "causes": [c.as_dict() for c in self.causes], "operatorNote": self.note,
                "podGroups": [{"name": pg.name, "phase": pg.phase, "minMember": pg.min_member, "queue": pg.queue,
                               "conditions": list(pg.conditions)} for pg in view.podgroups],
                "queue": None if view.queue is None else {
                    "name": view.queue.name, "exists": view.queue.found, "state": view.queue.state,
                    "capability": view.queue.capability, "allocated": view.queue.allocated},
                "nodeFit": [f.as_dict() for f in self.fit],
                "pods": [_pod_dict(p) for p in view.pods],
                "events": [e.as_dict() for e in view.events[-MAX_EVENTS:]],
                "logs": self.logs, "notes": list(view.notes)}

    def lines(self) -> List[str]:
        """The real cause first, then what it rests on: PodGroup, queue, nodes, pods, events, logs."""
        view, head = self.view, self.causes[0]
        out = [view.state.line(), f"why: {head.summary}"]
        out += [f"  {d}" for d in head.details]
        if head.rules:
            out.append(f"  see: {', '.join(f'ascend-compile explain {r}' for r in head.rules)}")
        for other in self.causes[1:]:
            out.append(f"also: {other.summary}")
            out += [f"  {d}" for d in other.details]
        if self.note:
            out.append(f"note: {self.note}")
        out += _sections(self)
        return out


def explain(reader: Reader, job: Mapping[str, Any], *, lint: bool = True, log_lines: int = LOG_LINES,
            session: Optional[Session] = None) -> Why:
    """Gather the job's picture and explain it; the job as stored is linted in ``session`` (a
    :class:`~ascend_compile.lint.session.Session`: the team's profiles, config and target; default: none of theirs)."""
    view = gather(reader, job)
    findings = lint_job(view.obj, session) if lint else []
    why = Why(view, causes(view, findings), node_fit(view), operator_note(view))
    if log_lines > 0:
        why.logs = failed_logs(reader, view, log_lines)
    return why


def lint_job(obj: Mapping[str, Any], session: Optional[Session] = None) -> List[Any]:
    """Our lint findings (errors) for the job as the cluster stores it (status and server fields left out).  A
    failure of lint is our bug and is raised (the CLI exits 3), never taken for "no findings"."""
    from ..errors import InternalError
    from ..lint.session import open_session

    meta = obj.get("metadata") or {}
    metadata: Dict[str, Any] = {k: meta[k] for k in ("name", "namespace", "labels") if k in meta}
    annotations = dict(meta.get("annotations") or {})
    annotations.pop("kubectl.kubernetes.io/last-applied-configuration", None)
    if annotations:
        metadata["annotations"] = annotations
    clean = {"apiVersion": obj.get("apiVersion"), "kind": obj.get("kind"), "metadata": metadata,
             "spec": obj.get("spec") or {}}
    findings = (session or open_session()).linter().run(objects=[(clean, "cluster")])
    crashed = [f for f in findings if f.internal]
    if crashed:  # a rule of ours failed on the stored job: our bug, said as such (exit 3), not silence
        raise InternalError(f"linting the job as stored failed: {crashed[0].message}")
    return [f for f in findings if f.severity == "error"]


def failed_logs(reader: Reader, view: JobView, lines: int) -> List[Dict[str, Any]]:
    """The last lines of each failed container's log (the previous run's, after a restart in place)."""
    out = []
    for pod, container, previous in failed_containers(view.pods)[:MAX_LOGS]:
        entry: Dict[str, Any] = {"pod": pod.name, "container": container.name, "previous": previous}
        try:
            entry["lines"] = reader.logs(pod.name, pod.namespace, container.name, lines, previous).splitlines()
        except reader.errors as exc:
            entry["error"] = str(getattr(exc, "message", None) or exc)
        out.append(entry)
    return out


def _pod_dict(pod: PodView) -> Dict[str, Any]:
    return {"name": pod.name, "phase": pod.phase, "node": pod.node, "replica": pod.replica, "index": pod.index,
            "unschedulable": pod.unschedulable, "startTime": pod.start_time,
            "containers": [{"name": c.name, "state": c.state, "reason": c.reason, "message": c.message,
                            "exitCode": c.exit_code, "restarts": c.restarts} for c in pod.containers]}


def _sections(why: Why) -> List[str]:
    view = why.view
    out = [""]
    for pg in view.podgroups:
        out.append(f"PodGroup {pg.name}: {pg.phase}, minMember {pg.min_member}, queue {pg.queue or '-'}")
        out += [f"  {c.get('type')}={c.get('status')} ({c.get('reason')}): {c.get('message')}" for c in pg.conditions]
    if not view.podgroups:
        out.append("PodGroup: none yet")
    if view.queue is not None:
        queue = view.queue
        cap = ", ".join(f"{k}={v}" for k, v in sorted(queue.capability.items())) or "no limit"
        out.append(f"Queue {queue.name}: {queue.state if queue.found else 'does not exist'}"
                   + (f", capability {cap}" if queue.found else ""))
    if why.fit:
        out.append("Nodes:")
        out += [f"  {f.line()}" for f in why.fit]
    out.append(f"Pods ({len(view.pods)} of {view.total_pods}):")
    out += [f"  {_pod_line(p)}" for p in view.pods]
    if not view.pods and view.podgroups and view.podgroups[0].phase == "Pending":
        out.append("  none yet: the scheduler has not admitted the PodGroup (it is Pending)")
    if view.events:
        out.append("Events (latest last):")
        out += [f"  {e.line()}" for e in view.events[-MAX_EVENTS:]]
    for entry in why.logs:
        out.append(f"Log of {entry['pod']}/{entry['container']}{' (previous run)' if entry['previous'] else ''}:")
        out += [f"  {line}" for line in entry.get("lines") or []] or [f"  ({entry.get('error') or 'empty'})"]
    out += [f"note: {n}" for n in view.notes]
    return out


def _pod_line(pod: PodView) -> str:
    parts = [pod.name, pod.phase, f"on {pod.node}" if pod.node else "not placed"]
    for c in pod.containers:
        if c.state != "running" or c.restarts:
            reason = f" {c.reason}" if c.reason else ""
            code = f" exit {c.exit_code}" if c.exit_code is not None else ""
            restarts = f", {c.restarts} restarts" if c.restarts else ""
            parts.append(f"[{c.name}: {c.state}{reason}{code}{restarts}]")
    if pod.unschedulable and not pod.node:
        parts.append(f"({pod.unschedulable})")
    return " ".join(parts)
