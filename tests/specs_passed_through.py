"""The job specs of the reproductions of issue 32 and 36 that several tests compile, lint, apply and diff."""
from __future__ import annotations

HEAD = """\
apiVersion: ascend-compile.io/v1alpha1
kind: TrainingJob
metadata: {name: job, namespace: training}
spec:
  framework: pytorch
"""

#: a 2-node job on module-910b-8, to which a case adds the rest of its spec
JOB = HEAD + "  profile: module-910b-8\n  npus: 16\n  image: t:1\n"


def worker_patch(*lines: str) -> str:
    """JOB with a jobPatch that sets ``lines`` (indented as written) in the Worker's pod spec."""
    return JOB + """\
  jobPatch:
    spec:
      replicaSpecs:
        Worker:
          template:
            spec:
""" + "".join(f"              {line}\n" for line in lines)


#: the compiled AscendJob is schema-valid; only the lint of the output refuses it (AC409, twice)
SCHEDULER_PATCH = worker_patch("schedulerName: default-scheduler")
#: the compiled AscendJob is schema-invalid because of the user's integer (was exit 3, "a bug")
ENV_PATCH = worker_patch("containers:", "  - name: ascend", "    env: [{name: BATCH, value: 32}]")
