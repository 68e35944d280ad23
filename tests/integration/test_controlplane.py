"""The integration harness itself: a real apiserver with the CRDs installed."""

from __future__ import annotations

import json
import os

MINIMAL_ASCENDJOB = """\
apiVersion: mindxdl.gitee.com/v1
kind: AscendJob
metadata: {name: t1, namespace: default, labels: {framework: pytorch}}
spec:
  replicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers: [{name: ascend, image: busybox}]
"""

# spec.minAvailable is an integer in the Volcano Job schema.
INVALID_VOLCANO_JOB = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: bad, namespace: default}
spec:
  minAvailable: "x"
  schedulerName: volcano
  queue: default
  tasks:
    - name: worker
      replicas: 1
      template:
        spec:
          containers: [{name: c, image: busybox}]
"""

EXPECTED_CRDS = {
    "ascendjobs.mindxdl.gitee.com",
    "jobs.batch.volcano.sh",
    "podgroups.scheduling.volcano.sh",
    "queues.scheduling.volcano.sh",
}


def test_server_is_ready(control_plane):
    out = control_plane.kubectl("get", "--raw", "/readyz").stdout
    assert out.strip() == "ok"
    assert control_plane.server.startswith("https://127.0.0.1:")


def test_server_version_is_pinned(control_plane):
    version = json.loads(control_plane.kubectl("get", "--raw", "/version").stdout)
    assert version["gitVersion"].startswith("v1.32."), version


def test_crds_are_established(control_plane):
    crds = json.loads(control_plane.kubectl("get", "crd", "-o", "json").stdout)["items"]
    established = {
        crd["metadata"]["name"]
        for crd in crds
        if any(
            c["type"] == "Established" and c["status"] == "True"
            for c in crd.get("status", {}).get("conditions", [])
        )
    }
    assert EXPECTED_CRDS <= established


def test_default_queue_exists(control_plane):
    queue = json.loads(control_plane.kubectl("get", "queues.scheduling.volcano.sh", "default", "-o", "json").stdout)
    assert queue["metadata"]["name"] == "default"
    assert queue["spec"]["weight"] == 1


def test_minimal_ascendjob_passes_server_dry_run(control_plane):
    proc = control_plane.kubectl("apply", "--dry-run=server", "-f", "-", input=MINIMAL_ASCENDJOB, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "ascendjob.mindxdl.gitee.com/t1" in proc.stdout
    # A dry run stores nothing.
    got = control_plane.kubectl("get", "ascendjobs.mindxdl.gitee.com", "-n", "default", "-o", "name").stdout
    assert "t1" not in got


def test_invalid_volcano_job_is_rejected_by_server(control_plane):
    proc = control_plane.kubectl("apply", "--dry-run=server", "-f", "-", input=INVALID_VOLCANO_JOB, check=False)
    assert proc.returncode != 0
    # The apiserver's OpenAPI validation message, relayed by kubectl.
    assert "spec.minAvailable" in proc.stderr, proc.stderr
    assert "integer" in proc.stderr, proc.stderr


def test_stop_leaves_no_process_or_files(control_plane, controlplane_lib):
    # A second, bare control plane (no CRDs): stop() must end its whole process
    # group and remove its work directory.
    cp = controlplane_lib.ControlPlane()
    with cp:
        pid = cp._proc.pid
        workdir = cp.workdir
        assert cp.kubectl("get", "--raw", "/readyz").stdout.strip() == "ok"
        assert cp.server != control_plane.server
    assert not cp.running
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError(f"process group {pid} still alive after stop()")
    assert not workdir.exists()
