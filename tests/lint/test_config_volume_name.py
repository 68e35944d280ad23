"""AC507 looks at the other objects of the run and at the YAML files beside the job's file (as AC501 does)."""
from __future__ import annotations

import re

from tests.checkout import run_cli

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: mindie-b, namespace: mindie}
spec:
  replicas: 1
  selector: {matchLabels: {app: mindie-b}}
  template:
    metadata: {labels: {app: mindie-b}}
    spec:
      containers:
      - {name: server, image: "mindie:1.0", volumeMounts: [{name: cfg, mountPath: /conf}]}
      volumes:
      - name: cfg
        configMap: {name: server-config-mindie-a}
"""
CONFIG_MAP = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: %s, namespace: mindie}
data: {config.json: "{}"}
"""


def _rules(path):
    """(rule, line) of the AC507 findings of linting ``path`` alone (as pre-commit lints a changed file)."""
    out = run_cli("lint", "--disable", "AC106", str(path)).stdout
    return [(rule, int(line)) for line, rule in re.findall(r":(\d+):\d+: \w+: .*\[(AC507)\]", out)]


def test_a_misnamed_volume_is_reported_only_beside_a_config_map_of_the_job(tmp_path):
    job = tmp_path / "mindie.yaml"
    job.write_text(CONFIG_MAP % "server-config-mindie-b" + "---\n" + DEPLOYMENT)
    assert _rules(job) == [("AC507", 19)]
    job.write_text(CONFIG_MAP % "server-config-other" + "---\n" + DEPLOYMENT)  # not this job's: may be in the cluster
    assert _rules(job) == []


def test_the_named_config_map_in_a_file_beside_the_job_counts(tmp_path):
    job = tmp_path / "mindie.yaml"
    job.write_text(CONFIG_MAP % "server-config-mindie-b" + "---\n" + DEPLOYMENT)
    (tmp_path / "old-config.yaml").write_text(CONFIG_MAP % "server-config-mindie-a")
    assert _rules(job) == []  # pre-commit passes only the changed file; the ConfigMap it names is beside it
