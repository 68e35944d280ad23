"""A hostile API server against ``cluster snapshot``, ``lint --cluster`` and ``why`` (issue 43, "Low"): values no
Kubernetes server writes ("1e999", NaN, negative counts, a string where an object belongs, an object where a string
belongs) in nodes, pods, events and queues exit 4 naming the object and the field, never 3 (our bug) and never a
snapshot that fails its own schema; a hostile snapshot FILE is an input error (2) at its line; a snapshot keeps only
the taints the rules read and no annotation.  kubectl is the fake of ``tests/cli/test_kubectl.py``."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest
import yaml

from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - fake is a fixture
from tests.hardening.helpers import assert_clean, cli, output, write

ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "tests" / "lint" / "cases" / "AC901-cluster-queue-missing.yaml"
NPU = "huawei.com/Ascend910"
UID = "uid-big"

NODE: Dict[str, Any] = {
    "metadata": {"name": "n1", "labels": {"accelerator-type": "module-910b-8", "host-arch": "huawei-arm"},
                 "annotations": {NPU: "Ascend910-0,Ascend910-1", "huawei.com/baseDeviceInfos": "{ip: 10.0.0.1}"}},
    "spec": {"taints": [{"key": "dedicated", "value": "ai", "effect": "NoSchedule"}]},
    "status": {"allocatable": {NPU: "8", "cpu": "192"}, "conditions": [{"type": "Ready", "status": "True"}]}}
POD: Dict[str, Any] = {
    "metadata": {"name": "big-worker-0", "namespace": "team", "ownerReferences": [{"uid": UID, "controller": True,
                                                                                   "name": "big"}],
                 "labels": {"replica-type": "worker", "replica-index": "0"}},
    "spec": {"nodeName": "n1", "containers": [{"name": "c", "resources": {"requests": {NPU: "8"},
                                                                          "limits": {NPU: "8"}}}]},
    "status": {"phase": "Pending", "containerStatuses": [{"name": "c", "state": {"waiting": {"reason": "X"}},
                                                          "restartCount": 0}]}}
QUEUE: Dict[str, Any] = {"metadata": {"name": "default"}, "status": {"state": "Open"}}
EVENT: Dict[str, Any] = {"metadata": {"name": "big.1", "namespace": "team"},
                         "involvedObject": {"kind": "Pod", "name": "big-worker-0"}, "type": "Warning",
                         "reason": "FailedScheduling", "message": "0/1 nodes", "count": 2}
JOB: Dict[str, Any] = {
    "apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
    "metadata": {"name": "big", "namespace": "team", "uid": UID},
    "spec": {"replicaSpecs": {"Worker": {"replicas": 1, "template": {"spec": {"containers": [
        {"name": "c", "resources": {"requests": {NPU: 8}, "limits": {NPU: 8}}}]}}}}},
    "status": {"conditions": [{"type": "Created", "status": "True"}]}}


def _items(objs: List[Dict[str, Any]]) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": objs})


def _serve(fake: Fake, node: Any = None, pod: Any = None, queue: Any = None, event: Any = None) -> None:
    fake.rules(
        {"match": ["get", "nodes"], "stdout": _items([node or NODE])},
        {"match": ["get", "pods"], "stdout": _items([pod or POD])},
        {"match": ["get", "events"], "stdout": _items([event or EVENT])},
        {"match": ["get", "queues.scheduling.volcano.sh", "default"], "stdout": json.dumps(queue or QUEUE)},
        {"match": ["get", "queues.scheduling.volcano.sh"], "stdout": _items([queue or QUEUE])},
        {"match": ["get", "podgroups.scheduling.volcano.sh"], "stdout": _items([])},
        {"match": ["get", "namespaces"], "stdout": _items([{"metadata": {"name": "team"}}])},
        {"match": ["get", "big"], "stdout": json.dumps(JOB)},
        {"match": ["get"], "stdout": _items([])},
    )


def _with(base: Dict[str, Any], change: Callable[[Dict[str, Any]], None]) -> Dict[str, Any]:
    out = copy.deepcopy(base)
    change(out)
    return out


def _set(path: List[Any], value: Any) -> Callable[[Dict[str, Any]], None]:
    def change(obj: Dict[str, Any]) -> None:
        for step in path[:-1]:
            obj = obj[step]
        obj[path[-1]] = value
    return change


#: (what is poisoned, its hostile object, what the error must name)
HOSTILE = {
    "allocatable-1e999": ("node", _with(NODE, _set(["status", "allocatable", NPU], "1e999")),
                          'Node n1: status.allocatable["huawei.com/Ascend910"]'),
    "allocatable-NaN": ("node", _with(NODE, _set(["status", "allocatable", NPU], "NaN")),
                        'Node n1: status.allocatable["huawei.com/Ascend910"]'),
    "allocatable-negative": ("node", _with(NODE, _set(["status", "allocatable", NPU], -8)),
                             'Node n1: status.allocatable["huawei.com/Ascend910"]'),
    "node-labels-a-string": ("node", _with(NODE, _set(["metadata", "labels"], "x")), "Node n1: metadata.labels"),
    "node-label-a-number": ("node", _with(NODE, _set(["metadata", "labels", "rack"], 7)),
                            "Node n1: metadata.labels.rack"),
    "node-taint-a-list": ("node", _with(NODE, _set(["spec", "taints", 0], ["k"])), "Node n1: spec.taints[0]"),
    "node-status-a-list": ("node", _with(NODE, _set(["status"], [])), "Node n1: status"),
    "node-name-an-object": ("node", _with(NODE, _set(["metadata", "name"], {"a": 1})), "metadata.name"),
    "pod-spec-a-string": ("pod", _with(POD, _set(["spec"], "x")), "Pod team/big-worker-0: spec"),
    "pod-npus-1e999": ("pod", _with(POD, _set(["spec", "containers", 0, "resources", "requests", NPU], "1e999")),
                       "Pod team/big-worker-0: spec.containers"),
    "pod-negative-npus": ("pod", _with(POD, _set(["spec", "containers", 0, "resources"],
                                                 {"requests": {NPU: "-8"}, "limits": {NPU: "-8"}})),
                          "Pod team/big-worker-0: spec.containers"),
    "queue-state-a-number": ("queue", _with(QUEUE, _set(["status", "state"], 5)), "Queue default: status.state"),
    "queue-state-unknown": ("queue", _with(QUEUE, _set(["status", "state"], "Pwned")), "Queue default: status.state"),
    "queue-capability-an-object": ("queue", _with(QUEUE, _set(["spec"], {"capability": {NPU: {"a": 1}}})),
                                   'Queue default: spec.capability["huawei.com/Ascend910"]'),
}
#: why reads events and container statuses too
WHY_ONLY = {
    "event-count-1e999": ("event", _with(EVENT, _set(["count"], "1e999")), "Event team/big.1: count"),
    "event-involved-a-list": ("event", _with(EVENT, _set(["involvedObject"], [])), "Event team/big.1: involvedObject"),
    "restart-count-NaN": ("pod", _with(POD, _set(["status", "containerStatuses", 0, "restartCount"], "NaN")),
                          "Pod team/big-worker-0: status.containerStatuses[0].restartCount"),
}
COMMANDS = {"snapshot": ["cluster", "snapshot"], "lint": ["lint", "--no-cache", str(CASE), "--cluster"],
            "why": ["why", "big", "--kind", "acjob", "-n", "team"]}


def _check(proc: Any, named: str) -> None:
    assert_clean(proc, {4}, named, "malformed reply from the cluster")
    assert "internal error" not in output(proc)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_value_exits_4_naming_the_object_and_field(fake: Fake, tmp_path: Path, command: str,
                                                             case: str) -> None:
    where, obj, named = HOSTILE[case]
    _serve(fake, **{where: obj})
    out = tmp_path / "cluster.yaml"
    args = COMMANDS[command] + (["-o", str(out)] if command == "snapshot" else [])
    proc = cli(*args, cwd=tmp_path, env=fake.env())
    _check(proc, named)
    assert not out.exists()  # nothing half-written


@pytest.mark.parametrize("case", sorted(WHY_ONLY))
def test_why_refuses_hostile_events_and_statuses(fake: Fake, tmp_path: Path, case: str) -> None:
    where, obj, named = WHY_ONLY[case]
    _serve(fake, **{where: obj})
    proc = cli(*COMMANDS["why"], "--format", "json", cwd=tmp_path, env=fake.env())
    _check(proc, named)
    assert json.loads(proc.stdout)["error"] == {"exitCode": 4, "reason": "malformed-reply",
                                                "message": json.loads(proc.stdout)["error"]["message"]}


def test_the_same_objects_well_formed_are_read(fake: Fake, tmp_path: Path) -> None:
    """The fixtures above are hostile only where a case changes them."""
    _serve(fake)
    for command in ("snapshot", "why"):
        assert_clean(cli(*COMMANDS[command], cwd=tmp_path, env=fake.env()), {0})
    assert_clean(cli(*COMMANDS["lint"], cwd=tmp_path, env=fake.env()), {0, 1})


def test_a_snapshot_keeps_no_annotation_and_only_the_taints_rules_read(fake: Fake, tmp_path: Path) -> None:
    node = copy.deepcopy(NODE)
    node["metadata"]["annotations"].update({f"huawei.com/extra-{i}": "x" * 100 for i in range(100)})
    node["spec"]["taints"] += [{"key": f"soft-{i}", "value": "secret-ish", "effect": "PreferNoSchedule"}
                               for i in range(50)]
    node["spec"]["taints"] += [{"key": "odd", "value": "v", "effect": "SomeFutureEffect"},
                               {"key": "gone", "effect": "NoExecute"}]
    _serve(fake, node=node)
    out = tmp_path / "cluster.yaml"
    assert_clean(cli("cluster", "snapshot", "-o", str(out), cwd=tmp_path, env=fake.env()), {0})
    text = out.read_text(encoding="utf-8")
    assert "annotations" not in text and "extra-" not in text and "baseDeviceInfos" not in text
    [written] = yaml.safe_load(text)["spec"]["nodes"]
    assert written["taints"] == [{"key": "dedicated", "value": "ai", "effect": "NoSchedule"},
                                 {"key": "gone", "effect": "NoExecute"}]
    _assert_valid(out)


def _assert_valid(path: Path) -> None:
    """The file passes schemas/clustersnapshot-v1alpha1.json (and reads back)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "schemas" / "clustersnapshot-v1alpha1.json").read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)
    from ascend_compile.inventory.snapshot import load

    load(str(path))


@pytest.mark.parametrize("case", ["allocatable-quantity", "long-names", "empty-values"])
def test_every_snapshot_written_passes_its_schema(fake: Fake, tmp_path: Path, case: str) -> None:
    """Values a server may legally send that once made a snapshot its own schema refuses."""
    node = copy.deepcopy(NODE)
    pvc = {"metadata": {"name": "data", "namespace": "team"}}
    if case == "allocatable-quantity":
        node["status"]["allocatable"][NPU] = "1e1"  # ten, in the exponent form
    elif case == "long-names":
        node["metadata"]["labels"] = {"a" * 300: "b" * 300}
    else:
        node["spec"]["taints"] = [{"key": "", "value": "", "effect": "NoSchedule"}]
    _serve(fake, node=node)
    rules = json.loads(fake.env()["FAKE_KUBECTL_RULES"])
    fake.rules({"match": ["get", "persistentvolumeclaims"], "stdout": _items([pvc])}, *rules)
    out = tmp_path / "cluster.yaml"
    assert_clean(cli("cluster", "snapshot", "-o", str(out), cwd=tmp_path, env=fake.env()), {0})
    _assert_valid(out)


HEAD = "apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: x}\nspec:\n  nodes:\n"


@pytest.mark.parametrize("node, line", [
    ("  - {name: n1, ready: true, npus: {huawei.com/Ascend910: {allocatable: 1e999}}}\n", 6),
    ("  - {name: n1, ready: true, npus: {huawei.com/Ascend910: {allocatable: .nan}}}\n", 6),
    ("  - {name: n1, ready: true, npus: {huawei.com/Ascend910: {allocatable: -8}}}\n", 6),
    ("  - {name: n1, ready: true, npus: {huawei.com/Ascend910: {allocatable: " + "9" * 5000 + "}}}\n", 6),
    ("  - {name: n1, ready: true, labels: {a: 5}}\n", 6),
    ("  - {name: n1, ready: true, labels: [a]}\n", 6),
    ("  - {name: n1, ready: true, taints: [{key: k, effect: Pwned}]}\n", 6),
    ("  - {name: '', ready: true}\n", 6),
    ("  - name: n1\n    ready: yes-please\n", 7),
], ids=["1e999", "nan", "negative", "5000-digits", "label-number", "labels-list", "taint-effect", "empty-name",
        "ready-text"])
def test_a_hostile_snapshot_file_is_an_input_error_at_its_line(tmp_path: Path, node: str, line: int) -> None:
    path = write(tmp_path / "cluster.yaml", HEAD + node)
    proc = cli("lint", "--no-cache", str(CASE), "--cluster-snapshot", str(path), cwd=tmp_path)
    assert_clean(proc, {2}, "AC016", f"{path}:{line}:")


# --------------------------------------------------------------------------- replies over the byte cap

HUGE_NODES = """import json, os, sys
argv = sys.argv[1:]
if "get" in argv and "nodes" in argv:  # 300 MB, made as it is written: never held anywhere
    sys.stdout.write('{"items": [')
    chunk = ('{"metadata": {"name": "n"}},' * 40000)
    for _ in range(300 * 1024 * 1024 // len(chunk)):
        sys.stdout.write(chunk)
    sys.exit(0)
if "get" in argv and "big" in argv:
    print(json.dumps(%s))
    sys.exit(0)
if "get" in argv and "default" in argv:
    print(json.dumps(%s))
    sys.exit(0)
print('{"items": []}')
""" % (json.dumps(JOB), json.dumps(QUEUE))


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_over_cap_reply_through_kubectl_is_refused_in_bounded_memory(tmp_path: Path, command: str) -> None:
    kubectl = write(tmp_path / "bin" / "kubectl", f"#!{__import__('sys').executable}\n{HUGE_NODES}")
    kubectl.chmod(0o755)
    proc = cli(*COMMANDS[command], "--kubectl", str(kubectl), cwd=tmp_path, memory=500 * 1024 ** 2, timeout=180)
    # the nodes are left out with a note (as a part that may not be read), or the command fails: never read whole
    assert_clean(proc, {0, 1, 4}, "more than 67108864 bytes")


SERVER = r'''
import http.server, json, socketserver, threading

class Huge(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        chunk = b'{"metadata": {"name": "n"}},' * 40000
        try:
            self.wfile.write(b'{"apiVersion": "v1", "kind": "List", "items": [')
            for _ in range(800 * 1024 * 1024 // len(chunk)):  # 800 MB, made as it is sent
                self.wfile.write(chunk)
        except OSError:
            pass  # the client stopped reading

    def log_message(self, *args):
        pass

server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Huge)
server.daemon_threads = True
threading.Thread(target=server.serve_forever, daemon=True).start()
'''

CLIENT = r'''
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (600 * 1024 ** 2, 600 * 1024 ** 2))
import kubernetes
from ascend_compile import Cluster, ClusterError
configuration = kubernetes.client.Configuration()
configuration.host = "http://127.0.0.1:%d"
configuration.retries = False
cluster = Cluster(kubernetes.client.ApiClient(configuration), "default", request_timeout=60)
try:
    cluster.status("big", "AscendJob", "team")
except ClusterError as exc:
    print("refused:", exc)
    sys.exit(0)
print("read it all")
sys.exit(1)
'''


def test_an_over_cap_reply_through_the_python_client_is_refused_in_bounded_memory() -> None:
    """The Python client path had no cap: an 800 MB reply peaked at 6.9 GB.  A fake API server on 127.0.0.1 streams
    one; the client, in a process of 600 MB of address space, stops at the cap of every reply."""
    import subprocess
    import sys

    pytest.importorskip("kubernetes", reason="the Python client is the optional k8s extra")
    from tests.checkout import checkout_env

    scope: Dict[str, Any] = {}
    exec(SERVER, scope)  # noqa: S102 - the fake server of this test, in this process
    server = scope["server"]
    try:
        proc = subprocess.run([sys.executable, "-c", CLIENT % server.server_address[1]], capture_output=True,
                              text=True, timeout=300, env=checkout_env())
    finally:
        server.shutdown()
        server.server_close()
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    assert "larger than 67108864 bytes" in proc.stdout, proc.stdout
