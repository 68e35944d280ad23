"""Reading a job's fault-tolerance settings as upstream reads them (shared by the resilience rules).

The Volcano plugin reads a job's labels as the PodGroup's labels together with its pods' labels
(``MC: ascend-for-volcano/plugin/job.go``), so a label on a pod template counts as on the job.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from ...findings import Path
from ...vocabulary import FAULT_RETRY_TIMES_LABEL, FAULT_SCHEDULING_LABEL, FAULT_SCHEDULING_ON
from ..context import ObjectContext


def job_label(obj: ObjectContext, key: str) -> Tuple[Optional[str], Path]:
    """(value, where) of ``key`` on the job, else on its first pod template that has it; (None, labels).

    Looked up where it may be rather than gathered beforehand: the resilience rules ask for a dozen labels that
    most jobs lack."""
    labels = obj.labels
    if key in labels:
        where: Path = ("metadata", "labels", key)
    else:
        for pod_set in obj.pod_sets():
            if key in pod_set.labels:
                labels, where = pod_set.labels, pod_set.spec_path[:-1] + ("metadata", "labels", key)
                break
        else:
            return None, ("metadata", "labels") if "labels" in obj.metadata else ("metadata",)
    value = labels[key]
    return (value if isinstance(value, str) else str(value)), where


def annotated_only(obj: ObjectContext, keys: Tuple[str, ...]) -> List[str]:
    """The label keys among ``keys`` the job gives as annotations and nowhere as labels (the plugin reads labels
    only: the PodGroup's and its pods')."""
    if not obj.annotations:
        return []
    return [key for key in keys if key in obj.annotations and job_label(obj, key)[0] is None]


def retry_times(obj: ObjectContext) -> int:
    """The job's fault-retry-times as the plugin takes it: 0 when absent or not a number."""
    value, _ = job_label(obj, FAULT_RETRY_TIMES_LABEL)
    try:
        return int(value) if value is not None else 0
    except ValueError:
        return 0


def rescheduling_on(obj: ObjectContext) -> bool:
    """Whether the plugin's rescheduling runs for the job: fault-scheduling grace or force."""
    value, _ = job_label(obj, FAULT_SCHEDULING_LABEL)
    return value in FAULT_SCHEDULING_ON
