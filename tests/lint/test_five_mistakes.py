"""A hand-written 60-line AscendJob with five different mistakes gives exactly those five findings."""
from __future__ import annotations

from .conftest import lint_text

JOB = """\
apiVersion: mindxdl.gitee.com/v1
kind: AscendJob
metadata:
  name: bert-large
  labels:
    framework: pytorch
    ring-controller.atlas: ascend-910b
spec:
  schedulerName: volcano
  runPolicy:
    schedulingPolicy:                      # mistake: AC205 (no queue)
      minAvailable: 2
  successPolicy: AllWorker                 # mistake: AC204
  replicaSpecs:
    Master:
      replicas: 1
      restartPolicy: Never
      template:
        metadata:
          labels:
            ring-controller.atlas: ascend-910b
        spec:
          nodeSelector:
            host-arch: huawei-arm
            accelerator-type: module-910b-8
          containers:
          - name: ascend
            image: bert:2.1
            ports:
            - name: ascendjob-port
              containerPort: 2222
            resources:
              requests:
                huawei.com/Ascend910: 8
              limits:
                huawei.com/Ascend910: 4      # mistake: AC701
    Worker:
      replicas: 1
      restartPolicy: OnError               # mistake: AC214
      template:
        metadata:
          labels:
            ring-controller.atlas: ascend-910b
        spec:
          nodeSelector:
            host-arch: huawei-arm
            accelerator-type: module-910b-8
          containers:
          - name: pytorch                  # mistake: AC210
            image: bert:2.1
            env:
            - name: MASTER_TIMEOUT
              value: "600"
            - name: LOG_LEVEL
              value: info
            resources:
              requests:
                huawei.com/Ascend910: 8
              limits:
                huawei.com/Ascend910: 8
"""


def _mistakes():
    out = set()
    for number, line in enumerate(JOB.splitlines(), start=1):
        if "# mistake:" in line:
            rule = line.split("# mistake:")[1].split()[0]
            out.add((rule, number))
    return out


def test_the_job_is_sixty_lines():
    assert len(JOB.splitlines()) == 60


def test_exactly_the_five_mistakes_on_their_lines():
    findings = lint_text(JOB, "bert.yaml")
    assert {(f.rule, f.line) for f in findings} == _mistakes()
    assert len(findings) == 5
    by_rule = {f.rule: f for f in findings}
    # columns: the value for wrong values, the key for missing pieces
    assert by_rule["AC204"].column == 18
    assert by_rule["AC205"].column == 5
    assert by_rule["AC701"].column == 39
    assert by_rule["AC214"].column == 22
    assert by_rule["AC210"].column == 19
    assert all(f.file == "bert.yaml" and f.obj == "AscendJob/bert-large" for f in findings)
