"""An AscendJob replica's ``restartPolicy`` is not Always, OnFailure, Never or ExitCode.

**What.** ``spec.replicaSpecs.<type>.restartPolicy`` must be one of
``Always``, ``OnFailure``, ``Never`` (the default) or ``ExitCode``.

**Why.** The CRD takes any string, but the operator (kubeflow common) only
knows these four; it copies the value into the pod template, where the API
server then rejects anything else, so no pod is ever created. Source:
``MC: component/ascend-operator/pkg/api/v1/ascendjob_types.go`` (kubeflow
common v0.4.3 ``RestartPolicy``) (restartPolicy values). Upstream
docs recommend ``Never`` (required with ``fault-retry-times``).

**How to fix.** Use ``Never`` unless you need operator-driven restarts.

Failing::

    Worker:
      restartPolicy: OnError

Passing::

    Worker:
      restartPolicy: Never
"""
from ..context import as_dict
from ..rule import Problem

ALLOWED = ("Always", "OnFailure", "Never", "ExitCode")


def check(obj, run):
    for rtype, rspec in as_dict(obj.spec.get("replicaSpecs")).items():
        rspec = as_dict(rspec)
        if "restartPolicy" not in rspec:
            continue
        value = rspec.get("restartPolicy")
        if value not in ALLOWED:
            yield Problem(("spec", "replicaSpecs", rtype, "restartPolicy"),
                          f"{rtype} restartPolicy {value!r} is not one of {', '.join(ALLOWED)}")
