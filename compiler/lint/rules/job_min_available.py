"""A Volcano Job's ``minAvailable`` is negative or larger than its total replicas.

**What.** ``spec.minAvailable`` must be ≥ 0 and ≤ the sum of the tasks'
``replicas``. (MindCluster samples use exactly the number of pods, so the
gang starts only when every pod fits.)

**Why.** Volcano's admission webhook rejects the job: "job 'minAvailable'
must be >= 0." and "job 'minAvailable' should not be greater than total
replicas in tasks;". Source:
``VC@v1.9.0: pkg/webhooks/admission/jobs/validate/admit_job.go``

**How to fix.** Set ``minAvailable`` to the number of pods of the job.

Failing::

    spec:
      minAvailable: 3
      tasks:
      - name: worker
        replicas: 2

Passing::

    spec:
      minAvailable: 2
      tasks:
      - name: worker
        replicas: 2
"""
from ..context import as_dict, as_int, as_list
from ..rule import Problem


def check(obj, run):
    value = as_int(obj.spec.get("minAvailable"))
    if value is None:
        return
    path = ("spec", "minAvailable")
    if value < 0:
        yield Problem(path, f"job minAvailable must be >= 0, not {value}")
        return
    tasks = [t for t in as_list(obj.spec.get("tasks")) if isinstance(t, dict)]
    if not tasks:
        return  # AC403
    total = sum(max(as_int(as_dict(t).get("replicas")) or 0, 0) for t in tasks)
    if value > total:
        yield Problem(path, f"job minAvailable {value} is greater than the {total} replicas of its tasks: "
                            "Volcano rejects the job")
