"""Where a job names its Volcano queue (for the findings of the queue rules)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...findings import Path
from ...manifest.values import as_dict
from ...vocabulary import ASCEND_JOB

if TYPE_CHECKING:
    from ..context import ObjectContext


def queue_path(obj: "ObjectContext") -> Path:
    """The queue field's path when the job sets it, else the object that would hold it."""
    if obj.kind == ASCEND_JOB:
        policy = as_dict(as_dict(obj.spec.get("runPolicy")).get("schedulingPolicy"))
        if "queue" in policy:
            return ("spec", "runPolicy", "schedulingPolicy", "queue")
        return ("spec", "runPolicy") if "runPolicy" in obj.spec else ("spec",)
    return ("spec", "queue") if "queue" in obj.spec else ("spec",)
