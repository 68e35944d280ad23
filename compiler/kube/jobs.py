"""The two job kinds as the cluster sees them, and the state of a job: shared by both backends.

kubectl (:mod:`ascend_compile.kube.kubectl`) and the Python client
(:mod:`ascend_compile.kube.client`) name, find and report jobs the same way:
:class:`JobType` gives a kind's API coordinates and the names people call it
by, :func:`job_state` reads an AscendJob's last condition or a Volcano Job's
phase into one :class:`JobState`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple

from ..vocabulary import (ASCEND_JOB, ASCEND_JOB_API_GROUP, ASCEND_JOB_PLURAL, VOLCANO_JOB_API_GROUP, VOLCANO_JOB_KIND,
                          VOLCANO_JOB_PLURAL)


@dataclass(frozen=True)
class JobType:
    kind: str  # as in the object: AscendJob, Job
    group: str
    version: str
    plural: str
    label: str  # as people say it
    #: what ``--kind`` and ``Cluster(kind=...)`` accept besides the kind and the resource (lower case)
    aliases: Tuple[str, ...] = ()

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}"

    @property
    def resource(self) -> str:
        """The fully qualified resource name, so that no other CRD's short name can shadow it."""
        return f"{self.plural}.{self.group}"


ASCEND_JOB_TYPE = JobType(ASCEND_JOB, ASCEND_JOB_API_GROUP, "v1", ASCEND_JOB_PLURAL, ASCEND_JOB,
                          ("acjob", "ascendjob", "ascendjobs"))
VOLCANO_JOB_TYPE = JobType(VOLCANO_JOB_KIND, VOLCANO_JOB_API_GROUP, "v1alpha1", VOLCANO_JOB_PLURAL, "Volcano Job",
                           ("vcjob", "vj", "volcanojob"))
JOB_TYPES: Tuple[JobType, ...] = (ASCEND_JOB_TYPE, VOLCANO_JOB_TYPE)
#: fully qualified resource name -> job type
BY_RESOURCE: Mapping[str, JobType] = {t.resource: t for t in JOB_TYPES}


def find_job_type(name: str) -> Optional[JobType]:
    """The job type a user means by ``name`` (any case): the kind, the spec's target, or kubectl's names."""
    key = name.lower()
    for job_type in JOB_TYPES:
        if key in (job_type.kind.lower(), job_type.resource, *job_type.aliases):
            return job_type
    return None


def job_type_of(obj: Mapping[str, Any]) -> Optional[JobType]:
    """The job type of an object (by apiVersion and kind), None for anything else."""
    key = (obj.get("apiVersion"), obj.get("kind"))
    return next((t for t in JOB_TYPES if key == (t.api_version, t.kind)), None)


# --------------------------------------------------------------------------- job state

ASCEND_TERMINAL = {"Succeeded": True, "Failed": False}
VOLCANO_TERMINAL = {"Completed": True, "Failed": False, "Aborted": False, "Terminated": False}


@dataclass(frozen=True)
class JobState:
    kind: str  # the API kind: "AscendJob" or "Job" (Volcano)
    name: str
    namespace: Optional[str]
    state: str  # last condition type / phase, or "Pending" when the controller wrote nothing yet
    reason: str = ""
    message: str = ""
    terminal: bool = False
    #: True/False once terminal (succeeded or not), None while the job runs
    succeeded: Optional[bool] = None
    #: no status written by any controller yet
    observed: bool = True
    details: Dict[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        """``Failed (JobValidFailed): message``; ``Pending (no conditions yet; ...)`` before any controller."""
        if not self.observed:
            return f"{self.state} ({self.message})"
        text = self.state
        if self.reason:
            text += f" ({self.reason})"
        if self.message:
            text += f": {self.message}"
        return text

    @property
    def job_type(self) -> JobType:
        return ASCEND_JOB_TYPE if self.kind == ASCEND_JOB else VOLCANO_JOB_TYPE

    @property
    def label(self) -> str:
        return self.job_type.label

    def line(self) -> str:
        where = f"{self.namespace}/" if self.namespace else ""
        return f"{self.label} {where}{self.name}: {self.summary()}"

    @property
    def start_time(self) -> str:
        """When the job started running (RFC 3339, as the controller wrote it), '' before."""
        return str(self.details.get("startTime") or "")

    @property
    def completion_time(self) -> str:
        """When the job ended (RFC 3339), '' while it runs."""
        return str(self.details.get("completionTime") or "")

    def times(self) -> str:
        """``started 2026-..Z, completed 2026-..Z``, or '' when neither is known."""
        parts = [f"{label} {value}" for label, value in (("started", self.start_time),
                                                         ("completed", self.completion_time)) if value]
        return ", ".join(parts)

    def as_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, "apiVersion": self.job_type.api_version,
                "name": self.name, "namespace": self.namespace, "state": self.state, "reason": self.reason,
                "message": self.message, "terminal": self.terminal, "succeeded": self.succeeded,
                "observed": self.observed, "summary": self.summary(), **self.details}


def job_state(obj: Mapping[str, Any]) -> JobState:
    """The state of an AscendJob (its last condition) or a Volcano Job (its phase)."""
    if obj.get("kind") == ASCEND_JOB:
        return _ascend_job_state(obj)
    return _volcano_job_state(obj)


def _identity(obj: Mapping[str, Any]) -> Tuple[str, Optional[str]]:
    meta = obj.get("metadata") or {}
    return str(meta.get("name", "")), meta.get("namespace")


def _ascend_job_state(obj: Mapping[str, Any]) -> JobState:
    name, namespace = _identity(obj)
    status = obj.get("status") or {}
    conditions = [c for c in status.get("conditions") or [] if isinstance(c, dict) and c.get("type")]
    details: Dict[str, Any] = {"conditions": conditions,
                               **_times(status.get("startTime"), status.get("completionTime"))}
    if status.get("replicaStatuses"):
        details["replicaStatuses"] = status["replicaStatuses"]
    if not conditions:
        return JobState(ASCEND_JOB, name, namespace, "Pending",
                        message="no conditions yet; is the ascend-operator running?",
                        observed=False, details=details)
    last = conditions[-1]
    state = str(last["type"])
    if str(last.get("status", "True")) != "True":
        state += f"={last.get('status')}"
    done = ASCEND_TERMINAL.get(str(last["type"])) if str(last.get("status", "True")) == "True" else None
    return JobState(ASCEND_JOB, name, namespace, state, str(last.get("reason") or ""),
                    str(last.get("message") or ""), done is not None, done, True, details)


def _volcano_job_state(obj: Mapping[str, Any]) -> JobState:
    name, namespace = _identity(obj)
    status = obj.get("status") or {}
    state_obj = status.get("state") or {}
    phase = state_obj.get("phase")
    counts = {key: status[key] for key in ("pending", "running", "succeeded", "failed", "terminating", "unknown",
                                           "minAvailable", "retryCount") if isinstance(status.get(key), int)}
    details: Dict[str, Any] = {"counts": counts} if counts else {}
    details.update(_volcano_times(status))
    if not phase:
        return JobState(VOLCANO_JOB_KIND, name, namespace, "Pending",
                        message="no phase yet; is the volcano-controllers deployment running?",
                        observed=False, details=details)
    done = VOLCANO_TERMINAL.get(str(phase))
    return JobState(VOLCANO_JOB_KIND, name, namespace, str(phase), str(state_obj.get("reason") or ""),
                    str(state_obj.get("message") or ""), done is not None, done, True, details)


def _times(start: Any, end: Any) -> Dict[str, str]:
    return {key: str(value) for key, value in (("startTime", start), ("completionTime", end)) if value}


def _volcano_times(status: Mapping[str, Any]) -> Dict[str, str]:
    """A Volcano Job's start (its first Running condition) and end (its terminal phase's condition)."""
    conditions = [c for c in status.get("conditions") or [] if isinstance(c, dict)]
    start = next((c.get("lastTransitionTime") for c in conditions if c.get("status") == "Running"), None)
    end = next((c.get("lastTransitionTime") for c in reversed(conditions) if c.get("status") in VOLCANO_TERMINAL),
               None)
    return _times(start, end)
