"""Reading a job's fault-tolerance settings as upstream reads them (shared by the resilience rules).

The Volcano plugin reads a job's labels as the PodGroup's labels together with its pods' labels
(``MC: ascend-for-volcano/plugin/job.go``), so a label on a pod template counts as on the job.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ...findings import Path
from ...vocabulary import FAULT_RETRY_TIMES_LABEL, FAULT_SCHEDULING_LABEL, FAULT_SCHEDULING_ON
from ..context import ObjectContext


def job_label(obj: ObjectContext, key: str) -> Tuple[Optional[str], Path]:
    """(value, where) of ``key`` on the job, else on its first pod template that has it; (None, labels)."""
    found = _job_labels(obj).get(key)
    if found is None:
        return None, ("metadata", "labels") if "labels" in obj.metadata else ("metadata",)
    value, labels_path = found
    return (value if isinstance(value, str) else str(value)), labels_path + (key,)


def _job_labels(obj: ObjectContext) -> Dict[Any, Tuple[Any, Path]]:
    """(value, path of its labels) of every label key, the job's first, then each pod template's in order
    (worked out once per object: the resilience rules ask for a dozen labels)."""
    found = obj.shared.get("resilience.labels")
    if found is None:
        found = obj.shared["resilience.labels"] = {key: (value, ("metadata", "labels"))
                                                   for key, value in obj.labels.items()}
        for pod_set in obj.pod_sets():
            if pod_set.labels:
                where = pod_set.spec_path[:-1] + ("metadata", "labels")
                for key, value in pod_set.labels.items():
                    if key not in found:
                        found[key] = (value, where)
    return found


def annotated_only(obj: ObjectContext, keys: Tuple[str, ...]) -> List[str]:
    """The label keys among ``keys`` the job gives as annotations and nowhere as labels (the plugin reads labels
    only: the PodGroup's and its pods', ``plugin/job.go`` getJobLabelFromVcJob)."""
    if not obj.annotations:
        return []
    return [key for key in keys if key in obj.annotations and key not in _job_labels(obj)]


def retry_times(obj: ObjectContext) -> int:
    """The job's fault-retry-times as the plugin takes it: 0 when absent or not a number (rescheduling/job.go)."""
    value, _ = job_label(obj, FAULT_RETRY_TIMES_LABEL)
    try:
        return int(value) if value is not None else 0
    except ValueError:
        return 0


def rescheduling_on(obj: ObjectContext) -> bool:
    """Whether the plugin's rescheduling runs for the job: fault-scheduling grace or force."""
    value, _ = job_label(obj, FAULT_SCHEDULING_LABEL)
    return value in FAULT_SCHEDULING_ON
