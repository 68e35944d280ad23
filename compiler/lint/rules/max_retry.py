"""A Volcano Job's ``maxRetry`` (or ``ttlSecondsAfterFinished``) is negative.

**What.** ``spec.maxRetry`` must be ≥ 0 (the default is 3), and so must
``spec.ttlSecondsAfterFinished`` where set.

**Why.** Volcano's admission webhook refuses such a job: |severity| where the
webhook is installed (``--volcano-webhook``, or ``cluster.volcanoWebhook: true``).
MindCluster's own install ships no webhook, and there the API server takes the
job (the job CRD sets no minimum) and it runs; but a negative ``maxRetry`` is not
"unlimited": Volcano's job controller fails the job at its first restart instead
of restarting it (the retry count, 0, is already at or above the limit), and a
negative ``ttlSecondsAfterFinished`` deletes the job, with its status, as soon as
it finishes. Runs, very likely not as intended: a warning without the webhook,
and a warning naming both cases where the target does not say whether it is
installed.

**How to fix.** Use ``maxRetry: 3`` (the samples' value) or another non-negative number; leave
``ttlSecondsAfterFinished`` out to keep a finished job.

Failing::

    spec:
      maxRetry: -1

Passing::

    spec:
      maxRetry: 3
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, NO_WEBHOOK, Place, VC, VC19, VCJ
from ...manifest.values import as_int
from ..rule import Problem
from ._release import webhook_refusal

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateJobCreate", VCJ, VC, "'maxRetry' cannot be less than zero.",
                    also=(*NO_WEBHOOK, Place("validateJobCreate", VCJ, VC19), Place("Execute", "pkg/controllers/job/state/restarting.go", VC19), Place("Execute", "pkg/controllers/job/state/restarting.go", VC), Place("timeLeft", "pkg/controllers/garbagecollector/garbagecollector.go", VC19),))


#: what Volcano's job controller does with each negative field when no webhook refused the job
WITHOUT = {
    "maxRetry": "the job runs, and Volcano's job controller fails it at its first restart instead of restarting it "
                "(a negative maxRetry allows no retry, it is not unlimited)",
    "ttlSecondsAfterFinished": "the job runs, and Volcano deletes it, with its status, as soon as it finishes",
}


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for key, without in WITHOUT.items():
        value = as_int(obj.spec.get(key))
        if value is not None and value < 0:
            what, severity = webhook_refusal(run, without)
            yield Problem(("spec", key), f"{key} cannot be less than zero (got {value}): {what}", severity=severity)
