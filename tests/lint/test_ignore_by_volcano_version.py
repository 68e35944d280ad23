"""AC408's ``Ignore`` finding depends on the cluster's Volcano release (``--volcano-version``).

MindCluster's Volcano v1.9 build acts on ``Ignore``; elsewhere Volcano's webhook refuses it or the
controller takes it as no policy.  So the finding is reported unless the run says the cluster is v1.9,
and the rule's other findings are reported whatever the release.
"""
from __future__ import annotations

import pytest

from tests.checkout import run_cli

from .conftest import lint_text

JOB = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: retry
  labels: {fault-scheduling: force, fault-retry-times: "3"}
spec:
  minAvailable: 1
  policies:
  - {event: PodFailed, action: Ignore}
  - {event: PodEvicted, action: RestartJob}
  tasks:
  - name: worker
    replicas: 1
    template:
      spec:
        restartPolicy: Never
        containers:
        - {name: train, image: "torch:2.1"}
"""
IGNORE_LINE, RESTART_LINE = 9, 10


def _ac408_lines(**options):
    return sorted(f.line for f in lint_text(JOB, "job.yaml", **options) if f.rule == "AC408")


@pytest.mark.parametrize("version", [None, "1.15"])
def test_ignore_is_reported_unless_the_cluster_runs_volcano_1_9(version):
    assert _ac408_lines(volcano_version=version) == [IGNORE_LINE, RESTART_LINE]


def test_on_volcano_1_9_only_the_ignore_finding_goes():
    assert _ac408_lines(volcano_version="1.9") == [RESTART_LINE]


def test_the_command_line_option_and_the_result_cache_follow_the_release(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(JOB, encoding="utf-8")
    env = {"ASCEND_COMPILE_CACHE_DIR": str(tmp_path / "cache")}

    def lines(*options):
        out = run_cli("lint", str(path), "--format", "github", *options, env=env)
        assert out.returncode == 0, out.stderr  # warnings only: below the default --fail-on error
        return sorted(int(line.split(",line=")[1].split(",")[0]) for line in out.stdout.splitlines() if "AC408" in line)

    assert lines() == [IGNORE_LINE, RESTART_LINE]
    assert lines("--volcano-version", "v1.9.0") == [RESTART_LINE]  # not the default run's cached result
    assert lines() == [IGNORE_LINE, RESTART_LINE]  # nor the other way round
