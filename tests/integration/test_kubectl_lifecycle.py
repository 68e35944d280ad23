"""``apply``/``diff``/``status``/``delete`` against a real kube-apiserver (tests/integration/controlplane.py).

No controllers run in this control plane (no ascend-operator, no Volcano, no
garbage collector), so a fresh job has no status: the tests write one through
the status subresource, as the operator would, to check what ``status`` prints.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Dict, List, Optional

import pytest
import yaml

from ascend_compile.kube import kubectl
from ascend_compile.kube.objects import apply_object
from tests.checkout import run_cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "golden"
GOLDEN_FILES = sorted(GOLDEN.rglob("*.yaml"))
RANKTABLE_EXAMPLE = ROOT / "examples" / "pytorch-hostnetwork-ranktable.yaml"  # AscendJob gpt-finetune + ConfigMap
VCJOB_EXAMPLE = ROOT / "examples" / "mindspore-module-910b-16-vcjob.yaml"  # Volcano Job
TEST_MANAGER = "ascend-compile-tests"


# --------------------------------------------------------------------------
# helpers


@pytest.fixture(scope="module")
def cp(control_plane, tmp_path_factory):
    """The control plane, plus a kubectl cache directory of our own (kubectl honours $KUBECACHEDIR)."""
    return SimpleNamespace(kubeconfig=control_plane.kubeconfig, kubectl=control_plane.kubectl,
                           cache_env={"KUBECACHEDIR": str(tmp_path_factory.mktemp("kubecache"))})


def cli(cp: Any, *args: str, input: Optional[str] = None) -> subprocess.CompletedProcess:
    """``ascend-compile ARGS --kubeconfig <test cluster>`` as a user runs it."""
    return run_cli(*args, "--kubeconfig", str(cp.kubeconfig), input=input, env=cp.cache_env,
                   unset=("KUBECONFIG", kubectl.ENV_KUBECTL), timeout=300)


def ensure_namespace(cp: Any, name: str) -> None:
    cp.kubectl("apply", "--server-side", f"--field-manager={TEST_MANAGER}", "-f", "-",
               input=f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {name}\n")


def get(cp: Any, resource: str, name: str, namespace: Optional[str] = None) -> Optional[Dict[str, Any]]:
    args = ["get", resource, name, "--ignore-not-found", "--show-managed-fields", "-o", "json"]
    if namespace:
        args += ["-n", namespace]
    out = cp.kubectl(*args).stdout.strip()
    return json.loads(out) if out else None


def spec_in(tmp_path: Path, example: Path, namespace: str, *, create_namespace: bool = False,
            replace: Optional[Dict[str, str]] = None, name: str = "job.yaml") -> Path:
    """A copy of an example spec moved to its own namespace (each test works in its own)."""
    data = yaml.safe_load(example.read_text(encoding="utf-8"))
    data["metadata"]["namespace"] = namespace
    if create_namespace:
        data["spec"]["createNamespace"] = True
    text = yaml.safe_dump(data, sort_keys=False)
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def set_status(cp: Any, resource: str, name: str, namespace: str, status: Dict[str, Any]) -> None:
    """What a controller does: write the status subresource."""
    cp.kubectl("patch", resource, name, "-n", namespace, "--subresource=status", "--type=merge",
               "-p", json.dumps({"status": status}))


def condition(kind: str, reason: str, message: str) -> Dict[str, str]:
    stamp = "2026-01-01T00:00:00Z"
    return {"type": kind, "status": "True", "reason": reason, "message": message,
            "lastUpdateTime": stamp, "lastTransitionTime": stamp}


# --------------------------------------------------------------------------
# every golden output is accepted by the server as is


@pytest.fixture(scope="module")
def golden_namespaces(cp) -> None:
    names = {"default"}
    for path in GOLDEN_FILES:
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if isinstance(doc, dict) and (doc.get("metadata") or {}).get("namespace"):
                names.add(doc["metadata"]["namespace"])
    for name in sorted(names):
        ensure_namespace(cp, name)


def test_there_are_golden_files() -> None:
    assert len(GOLDEN_FILES) > 20, f"expected the golden outputs under {GOLDEN}"


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_golden_file_passes_server_dry_run(cp, golden_namespaces, path: Path) -> None:
    """The file exactly as committed, through kubectl server-side apply with strict field validation."""
    k = kubectl.Kubectl.locate(kubeconfig=str(cp.kubeconfig), env={**os.environ, **cp.cache_env})
    proc = k.run("apply", "--server-side", "--dry-run=server", "--validate=strict",
                 f"--field-manager={kubectl.FIELD_MANAGER}", "-f", "-",
                 input=path.read_text(encoding="utf-8"), what=f"dry-run {path.name}")
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    docs = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    assert len(lines) == len(docs), proc.stdout
    assert all(line.endswith("serverside-applied (server dry run)") for line in lines), proc.stdout
    assert "Warning" not in proc.stderr, proc.stderr


def test_golden_dry_run_stored_nothing(cp, golden_namespaces) -> None:
    for resource in ("ascendjobs.mindxdl.gitee.com", "jobs.batch.volcano.sh"):
        out = cp.kubectl("get", resource, "-n", "matrix", "-o", "name").stdout
        assert out.strip() == ""


# --------------------------------------------------------------------------
# lifecycle


def test_lifecycle_apply_status_diff_change_delete(cp, tmp_path: Path) -> None:
    ns = "kc-life"
    spec = spec_in(tmp_path, RANKTABLE_EXAMPLE, ns, create_namespace=True)
    name = yaml.safe_load(spec.read_text())["metadata"]["name"]
    configmap = f"rings-config-{name}"

    # before anything exists: everything is a change, nothing is stored
    proc = cli(cp, "diff", str(spec))
    assert proc.returncode == 1, proc.stderr
    assert f"+  name: {configmap}" in proc.stdout and "+kind: AscendJob" in proc.stdout
    proc = cli(cp, "apply", str(spec), "--dry-run=server")
    assert proc.returncode == 0, proc.stderr
    assert get(cp, "namespaces", ns) is None

    # apply: Namespace, ConfigMap, job, in that order, by server-side apply
    proc = cli(cp, "apply", str(spec))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"namespace/{ns} serverside-applied",
        f"configmap/{configmap} serverside-applied",
        f"ascendjob.mindxdl.gitee.com/{name} serverside-applied",
    ]
    job = get(cp, "ascendjobs.mindxdl.gitee.com", name, ns)
    assert job is not None and get(cp, "configmaps", configmap, ns) is not None
    managers = {(m["manager"], m["operation"]) for m in job["metadata"]["managedFields"]}
    assert ("ascend-compile", "Apply") in managers

    # status of a job no operator has seen
    proc = cli(cp, "status", str(spec))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"AscendJob {ns}/{name}: Pending (no conditions yet; is the ascend-operator running?)\n"

    # no change after apply; applying again is a no-op
    proc = cli(cp, "diff", str(spec))
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stderr
    version = job["metadata"]["resourceVersion"]
    proc = cli(cp, "apply", str(spec))
    assert proc.returncode == 0, proc.stderr
    assert get(cp, "ascendjobs.mindxdl.gitee.com", name, ns)["metadata"]["resourceVersion"] == version

    # a change: diff shows it first, apply makes it, then no difference is left
    changed = spec_in(tmp_path, RANKTABLE_EXAMPLE, ns, create_namespace=True, name="changed.yaml",
                      replace={"image: pytorch-train:2.1.0": "image: pytorch-train:2.2.0"})
    proc = cli(cp, "diff", str(changed))
    assert proc.returncode == 1, proc.stderr
    # the two containers (Master and Worker) change, and so does metadata.generation; nothing else
    changes = [line.replace(" ", "") for line in proc.stdout.splitlines()
               if line[:1] in "+-" and not line.startswith(("---", "+++")) and "generation:" not in line]
    assert changes == ["-image:pytorch-train:2.1.0", "+image:pytorch-train:2.2.0"] * 2, proc.stdout
    assert get(cp, "ascendjobs.mindxdl.gitee.com", name, ns)["spec"]["replicaSpecs"]["Master"]["template"][
        "spec"]["containers"][0]["image"] == "pytorch-train:2.1.0"
    proc = cli(cp, "apply", str(changed))
    assert proc.returncode == 0, proc.stderr
    stored = get(cp, "ascendjobs.mindxdl.gitee.com", name, ns)
    assert stored["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["image"] == \
        "pytorch-train:2.2.0"
    assert cli(cp, "diff", str(changed)).returncode == 0

    # delete: job and ConfigMap go, the Namespace stays
    proc = cli(cp, "delete", str(changed), "--wait", "--timeout", "60s")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f'ascendjob.mindxdl.gitee.com "{name}" deleted',
                                        f'configmap "{configmap}" deleted']
    assert get(cp, "ascendjobs.mindxdl.gitee.com", name, ns) is None
    assert get(cp, "configmaps", configmap, ns) is None
    assert get(cp, "namespaces", ns) is not None
    proc = cli(cp, "status", name, "-n", ns)
    assert proc.returncode == 1
    assert f"no AscendJob or Volcano Job named '{name}' in namespace '{ns}'" in proc.stderr

    # deleting again: NotFound (exit 1) unless --ignore-not-found
    proc = cli(cp, "delete", str(changed))
    assert proc.returncode == 1
    assert "NotFound" in proc.stderr and "Traceback" not in proc.stderr
    assert cli(cp, "delete", str(changed), "--ignore-not-found").returncode == 0
    assert cli(cp, "delete", name, "-n", ns, "--ignore-not-found").returncode == 0


def test_status_reports_operator_conditions(cp, tmp_path: Path) -> None:
    ns = "kc-status"
    spec = spec_in(tmp_path, RANKTABLE_EXAMPLE, ns, create_namespace=True)
    name = yaml.safe_load(spec.read_text())["metadata"]["name"]
    assert cli(cp, "apply", str(spec)).returncode == 0

    set_status(cp, "ascendjobs.mindxdl.gitee.com", name, ns, {"replicaStatuses": {}, "conditions": [
        condition("Created", "JobCreated", f"Job {name} is create."),
        condition("Running", "JobRunning", "pods are running"),
    ]})
    proc = cli(cp, "status", name, "-n", ns, "--kind", "acjob")
    assert proc.stdout == f"AscendJob {ns}/{name}: Running (JobRunning): pods are running\n"

    message = "job is invalid: the replicas of Master must be 1"
    set_status(cp, "ascendjobs.mindxdl.gitee.com", name, ns, {"replicaStatuses": {}, "conditions": [
        condition("Created", "JobCreated", f"Job {name} is create."),
        condition("Failed", "JobValidFailed", message),
    ]})
    proc = cli(cp, "status", name, "-n", ns)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"AscendJob {ns}/{name}: Failed (JobValidFailed): {message}\n"
    (state,) = json.loads(cli(cp, "status", str(spec), "-o", "json").stdout)
    assert (state["state"], state["reason"], state["message"]) == ("Failed", "JobValidFailed", message)
    assert state["terminal"] is True and state["succeeded"] is False

    # --watch stops at a terminal state: exit 1 for a failed job
    proc = cli(cp, "status", name, "-n", ns, "--watch", "--timeout", "30s", "--interval", "0.2s")
    assert proc.returncode == 1
    assert f"Failed (JobValidFailed): {message}" in proc.stdout
    assert cli(cp, "delete", str(spec)).returncode == 0


def test_volcano_job_lifecycle(cp, tmp_path: Path) -> None:
    ns = "kc-vcjob"
    spec = spec_in(tmp_path, VCJOB_EXAMPLE, ns, create_namespace=True)
    name = yaml.safe_load(spec.read_text())["metadata"]["name"]
    proc = cli(cp, "apply", str(spec))
    assert proc.returncode == 0, proc.stderr
    assert f"job.batch.volcano.sh/{name} serverside-applied" in proc.stdout
    proc = cli(cp, "status", name, "-n", ns)
    assert proc.stdout.startswith(f"Volcano Job {ns}/{name}: Pending (no phase yet"), proc.stdout
    assert cli(cp, "diff", str(spec)).returncode == 0

    set_status(cp, "jobs.batch.volcano.sh", name, ns, {"state": {"phase": "Completed"}, "succeeded": 2})
    proc = cli(cp, "status", str(spec), "--watch", "--timeout", "30s", "--interval", "0.2s")
    assert proc.returncode == 0, proc.stderr
    assert f"Volcano Job {ns}/{name}: Completed" in proc.stdout
    proc = cli(cp, "delete", name, "-n", ns, "--kind", "vcjob", "--wait")
    assert proc.returncode == 0, proc.stderr
    assert get(cp, "jobs.batch.volcano.sh", name, ns) is None


# --------------------------------------------------------------------------
# errors


def test_missing_namespace_is_a_readable_server_error(cp, tmp_path: Path) -> None:
    spec = spec_in(tmp_path, RANKTABLE_EXAMPLE, "kc-does-not-exist")
    proc = cli(cp, "apply", str(spec))
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    assert first.startswith("error: apply ConfigMap kc-does-not-exist/rings-config-"), proc.stderr
    assert 'namespaces "kc-does-not-exist" not found' in first
    assert "hint: create the namespace first" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_object_the_server_rejects(cp) -> None:
    """The API server's schema check, relayed word for word: exit code 1."""
    k = kubectl.Kubectl.locate(kubeconfig=str(cp.kubeconfig), env={**os.environ, **cp.cache_env})
    bad = {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
           "metadata": {"name": "kc-bad", "namespace": "default"},
           "spec": {"replicaSpecs": {"Master": {"replicas": "one", "template": {
               "spec": {"containers": [{"name": "ascend", "image": "busybox"}]}}}}}}
    with pytest.raises(kubectl.KubectlError) as info:
        apply_object(k, bad)
    assert info.value.exit_code == 1
    assert info.value.message.startswith("apply AscendJob default/kc-bad: ")
    assert "spec.replicaSpecs.Master.replicas: expected numeric (int or float), got string" in info.value.message
    # the CRD's OpenAPI schema: spec.replicaSpecs is required
    with pytest.raises(kubectl.KubectlError) as info:
        apply_object(k, {**bad, "spec": {"schedulerName": "volcano"}})
    assert info.value.exit_code == 1
    assert 'is invalid: spec.replicaSpecs: Required value' in info.value.message
    assert get(cp, "ascendjobs.mindxdl.gitee.com", "kc-bad", "default") is None


def test_label_syntax_the_server_rejects_is_what_lint_reports(cp, tmp_path: Path) -> None:
    """AC712's claim, on a real API server: a label value with a space or an annotation key with one refuses the
    whole object (a custom resource's metadata is checked too), and lint reports exactly those two as errors."""
    k = kubectl.Kubectl.locate(kubeconfig=str(cp.kubeconfig), env={**os.environ, **cp.cache_env})
    bad = {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
           "metadata": {"name": "kc-bad-label", "namespace": "default", "labels": {"team": "my team"},
                        "annotations": {"bad key": "x"}},
           "spec": {"replicaSpecs": {"Master": {"replicas": 1, "template": {
               "spec": {"containers": [{"name": "ascend", "image": "busybox"}]}}}}}}
    with pytest.raises(kubectl.KubectlError) as info:
        apply_object(k, bad)
    assert 'metadata.labels: Invalid value: "my team"' in info.value.message
    assert 'metadata.annotations: Invalid value: "bad key"' in info.value.message
    assert get(cp, "ascendjobs.mindxdl.gitee.com", "kc-bad-label", "default") is None
    path = tmp_path / "bad-label.yaml"
    path.write_text(yaml.safe_dump(bad))
    found = [line for line in run_cli("lint", str(path)).stdout.splitlines() if "[AC712]" in line]
    assert len(found) == 2 and all(": error: " in line for line in found), found


def test_field_conflict_is_refused_then_forced(cp, tmp_path: Path) -> None:
    ns = "kc-conflict"
    spec = spec_in(tmp_path, RANKTABLE_EXAMPLE, ns, create_namespace=True)
    name = yaml.safe_load(spec.read_text())["metadata"]["name"]
    assert cli(cp, "apply", str(spec)).returncode == 0
    # someone else takes over the queue field with their own server-side apply
    cp.kubectl("apply", "--server-side", "--force-conflicts", "--field-manager=someone-else", "-f", "-", input=(
        f"apiVersion: mindxdl.gitee.com/v1\nkind: AscendJob\nmetadata: {{name: {name}, namespace: {ns}}}\n"
        "spec:\n  runPolicy:\n    schedulingPolicy:\n      queue: other\n"))
    proc = cli(cp, "apply", str(spec))
    assert proc.returncode == 1
    assert "conflict" in proc.stderr.lower() and "someone-else" in proc.stderr, proc.stderr
    proc = cli(cp, "apply", str(spec), "--force-conflicts")
    assert proc.returncode == 0, proc.stderr
    stored = get(cp, "ascendjobs.mindxdl.gitee.com", name, ns)
    assert stored["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "default"
    assert cli(cp, "delete", str(spec)).returncode == 0


def test_reapply_after_operator_wrote_the_ranktable(cp, tmp_path: Path) -> None:
    ns = "kc-ranktable"
    spec = spec_in(tmp_path, RANKTABLE_EXAMPLE, ns, create_namespace=True)
    name = yaml.safe_load(spec.read_text())["metadata"]["name"]
    assert cli(cp, "apply", str(spec)).returncode == 0
    # what ascend-operator does once the pods are scheduled (an update, not an apply)
    cp.kubectl("patch", "configmap", f"rings-config-{name}", "-n", ns, "--type=merge",
               "--field-manager=ascend-operator", "-p", json.dumps(
                   {"data": {"hccl.json": '{"status":"completed"}', "version": "1"}}))
    proc = cli(cp, "apply", str(spec))
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: apply ConfigMap {ns}/rings-config-{name}: Apply failed with 1 conflict: "
                                  'conflict with "ascend-operator"'), proc.stderr
    assert "hint: ascend-operator has already written this job's ranktable" in proc.stderr
    assert get(cp, "configmaps", f"rings-config-{name}", ns)["data"]["hccl.json"] == '{"status":"completed"}'
    assert cli(cp, "delete", str(spec), "--wait").returncode == 0


def test_unknown_context_is_a_usage_error(cp) -> None:
    proc = cli(cp, "status", "anything", "--context", "no-such-context")
    assert proc.returncode == 2
    assert "no-such-context" in proc.stderr and "Traceback" not in proc.stderr


def test_apply_twice_is_idempotent(cp, tmp_path: Path) -> None:
    ns = "kc-twice"
    spec = spec_in(tmp_path, VCJOB_EXAMPLE, ns, create_namespace=True)
    name = yaml.safe_load(spec.read_text())["metadata"]["name"]
    first = cli(cp, "apply", str(spec))
    assert first.returncode == 0, first.stderr
    before = get(cp, "jobs.batch.volcano.sh", name, ns)
    second = cli(cp, "apply", str(spec))
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout
    after = get(cp, "jobs.batch.volcano.sh", name, ns)
    assert after["metadata"]["resourceVersion"] == before["metadata"]["resourceVersion"]
    assert after["metadata"]["generation"] == before["metadata"]["generation"]
    assert cli(cp, "diff", str(spec)).returncode == 0
    assert cli(cp, "delete", str(spec)).returncode == 0
