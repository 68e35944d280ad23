"""A restart policy upstream refuses: an AscendJob replica's, or a Volcano Job pod template's.

**What.** ``spec.replicaSpecs.<type>.restartPolicy`` must be one of
``Always``, ``OnFailure``, ``Never`` (the default) or ``ExitCode``; a Volcano
Job task's ``template.spec.restartPolicy`` one of ``Always``, ``OnFailure`` or
``Never`` (Volcano's admission validates each task's pod template with
Kubernetes' pod validation, ``validateTaskTemplate``, and rejects the job:
"Unsupported value").

**Why.** The CRD takes any string, but the operator (kubeflow common) only knows
these four; it copies the value into the pod template, where the API server then
rejects anything else, so no pod is ever created. Upstream docs recommend
``Never`` (required with ``fault-retry-times``).

**How to fix.** Use ``Never`` unless you need operator-driven restarts.

Failing::

    Worker:
      restartPolicy: OnError

Passing::

    Worker:
      restartPolicy: Never
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, K8S, K8V, MC, Place
from ...manifest.values import as_dict
from ...vocabulary import VOLCANO_JOB
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateRestartPolicy", K8V, K8S, "Unsupported value: \"%s\": supported values: \"Always\", "
                                                        "\"OnFailure\", \"Never\"",
                    also=(Place("", "component/ascend-operator/pkg/api/v1/ascendjob_types.go "
                                    "(kubeflow common's RestartPolicy)", MC),))

ALLOWED = ("Always", "OnFailure", "Never", "ExitCode")
POD_ALLOWED = ALLOWED[:3]


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.kind == VOLCANO_JOB:
        for pod_set in obj.pod_sets():
            value = pod_set.spec.get("restartPolicy")
            if "restartPolicy" in pod_set.spec and value not in POD_ALLOWED:
                yield Problem(pod_set.spec_path + ("restartPolicy",),
                              f"the {pod_set.role} pods' restartPolicy {value!r} is not one of {', '.join(POD_ALLOWED)}")
        return
    for rtype, rspec in as_dict(obj.spec.get("replicaSpecs")).items():
        rspec = as_dict(rspec)
        if "restartPolicy" not in rspec:
            continue
        value = rspec.get("restartPolicy")
        if value not in ALLOWED:
            yield Problem(("spec", "replicaSpecs", rtype, "restartPolicy"),
                          f"{rtype} restartPolicy {value!r} is not one of {', '.join(ALLOWED)}")
