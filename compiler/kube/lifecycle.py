"""The rest of a job's lifecycle on the shared model: wait for a state, list our jobs, pick a pod for its log.

Used by the ``wait``, ``list``, ``logs`` and ``events`` commands (through kubectl) and by
:class:`~ascend_compile.kube.client.Cluster` (through the Python client) alike.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .jobs import JOB_TYPES, JobState, job_state
from .jobview import PodView, Reader

#: what ``wait --for`` accepts
WAIT_FOR = ("running", "succeeded", "finished")
#: how a wait ended: the state was reached, the job ended in another state, time ran out
REACHED, OTHER_END, TIMED_OUT = 0, 1, 2
#: each outcome in words (``wait -o json``'s ``result``)
RESULTS = {REACHED: "reached", OTHER_END: "ended otherwise", TIMED_OUT: "timed out"}
#: each outcome's exit code (``ascend-compile wait``; ``Waited.code``): a timeout is "not in the state asked",
#: as in ``status --watch``
EXIT_CODES = {REACHED: 0, OTHER_END: 1, TIMED_OUT: 1}
#: the field manager whose jobs ``list`` shows (what ``apply`` and ``Cluster.create`` write as)
MANAGER = "ascend-compile"
_RUNNING = "Running"


def reached(state: JobState, want: str) -> Optional[int]:
    """REACHED, OTHER_END, or None to keep waiting.

    ``running``: the job runs (AscendJob condition Running, Volcano phase Running) or already
    succeeded (it ran); ``succeeded``: it succeeded; ``finished``: it ended either way.
    """
    if want not in WAIT_FOR:
        raise ValueError(f"wait for one of {', '.join(WAIT_FOR)}, not {want!r}")
    if want == "finished":
        return REACHED if state.terminal else None
    if state.terminal:
        return REACHED if state.succeeded else OTHER_END
    if want == "running" and state.state == _RUNNING:
        return REACHED
    return None


@dataclass(frozen=True)
class Waited:
    outcome: int  # REACHED, OTHER_END or TIMED_OUT
    state: Optional[JobState]  # the last state read (None if the job was never read)

    @property
    def code(self) -> int:
        """The exit code ``ascend-compile wait`` gives this outcome: 0 reached, 1 ended otherwise or timed out."""
        return EXIT_CODES[self.outcome]

    @property
    def result(self) -> str:
        """The outcome in words: ``reached``, ``ended otherwise`` or ``timed out``."""
        return RESULTS[self.outcome]


def wait_for(read: Callable[[float], JobState], want: str, timeout: float, interval: float = 2.0,
             seen: Optional[Callable[[JobState], None]] = None,
             clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> Waited:
    """Read the job's state (``read(seconds_left)``) until ``want`` is reached, it ended otherwise, or
    ``timeout`` seconds passed (0: no limit).  ``seen`` gets every state that differs from the last."""
    reached(JobState("", "", None, ""), want)  # refuse a bad ``want`` before any reading
    deadline = clock() + timeout if timeout > 0 else None
    last: Optional[JobState] = None
    while True:
        left = deadline - clock() if deadline is not None else 0.0
        state = read(max(left, 0.5) if deadline is not None else 0.0)
        if seen is not None and (last is None or last.as_dict() != state.as_dict()):
            seen(state)
        last = state
        code = reached(state, want)
        if code is not None:
            return Waited(code, state)
        if deadline is not None and clock() + interval > deadline:
            return Waited(TIMED_OUT, state)
        sleep(interval)


def applied_by_us(obj: Dict[str, Any], manager: str = MANAGER) -> bool:
    """True when ``manager`` (ascend-compile by default) wrote the object's spec (server-side apply or create)."""
    fields = (obj.get("metadata") or {}).get("managedFields") or []
    return any(isinstance(f, dict) and f.get("manager") == manager and f.get("operation") in ("Apply", "Update")
               for f in fields)


def list_jobs(reader: Reader, namespace: Optional[str], selector: str = "", everyone: bool = False,
              ) -> List[JobState]:
    """The jobs of both kinds (in ``namespace``, or all when None) that ascend-compile applied
    (every job with ``everyone``), optionally by label ``selector``; by namespace, then name."""
    out = []
    for job_type in JOB_TYPES:
        for obj in reader.list(job_type.resource, namespace, labels=selector):
            if everyone or applied_by_us(obj):
                out.append(job_state(obj))
    return sorted(out, key=lambda s: (s.namespace or "", s.name, s.kind))


def pick_pod(pods: Sequence[PodView], job_name: str, replica: Optional[str], index: Optional[int]) -> PodView:
    """The pod of ``replica`` (type or task, any case) with ``index``; the first pod when neither is given.

    Raises LookupError naming the pods there are."""
    chosen = [p for p in pods if replica is None or p.replica.lower() == replica.lower()]
    if index is not None:
        chosen = [p for p in chosen if pod_index(p, job_name) == index]
    if not chosen:
        there = ", ".join(f"{p.name} ({p.replica or '-'} {pod_index(p, job_name)})" for p in pods) or "none"
        want = " ".join(x for x in (replica or "", "" if index is None else f"index {index}") if x)
        raise LookupError(f"job {job_name!r} has no pod {want}; its pods: {there}")
    return sorted(chosen, key=lambda p: (p.replica, pod_index(p, job_name) or 0, p.name))[0]


def pod_index(pod: PodView, job_name: str) -> Optional[int]:
    """The pod's index within its replica type (the operator's label; Volcano's ``<job>-<task>-<i>`` name)."""
    text = pod.index or pod.name.rpartition("-")[2]
    return int(text) if text.isdigit() else None


def container_of(pod: PodView, container: Optional[str]) -> Tuple[str, List[str]]:
    """(the container to read: the one named, else the pod's first, names of all app containers)."""
    names = [c.name for c in pod.containers if not c.init]
    if container:
        return container, names
    return (names[0] if names else ""), names
