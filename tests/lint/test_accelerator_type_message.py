"""AC305's message without a target, on a job whose ring-controller label names other servers: the clause for the
older releases reads as a sentence (it said "the scheduler gives it the default Atlas 800 handler refuses every
node")."""
from __future__ import annotations

from ascend_compile.releases import Target

from .conftest import lint_text

JOB = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: j
  labels: {ring-controller.atlas: ascend-910b}
spec:
  schedulerName: volcano
  minAvailable: 1
  tasks:
  - name: t
    replicas: 1
    template:
      metadata: {labels: {ring-controller.atlas: ascend-910b}}
      spec:
        restartPolicy: Never
        containers:
        - name: c
          image: x:1
          resources:
            requests: {huawei.com/Ascend910: 8}
            limits: {huawei.com/Ascend910: 8}
"""


def test_the_older_releases_clause_is_a_sentence() -> None:
    (found,) = [f for f in lint_text(JOB, "job.yaml", target=Target()) if f.rule == "AC305"]
    assert "on MindCluster v6.0.0-v26.0.1 the scheduler's default Atlas 800 handler refuses every node" in found.message
    assert "gives it the default Atlas 800 handler refuses" not in found.message
