"""``lint --cluster-snapshot FILE`` and ``lint --cluster`` (issue 35): the cluster-aware rules (AC901-AC910) run only
with an inventory; without one, lint's output is what it was; a bad snapshot is an input error with its place;
a live cluster (a fake kubectl serving the same cluster) gives the same findings as its snapshot."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import yaml

from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "lint" / "cases"
SNAPSHOT = ROOT / "tests" / "lint" / "clusters" / "small.yaml"
CLUSTER_CASES = sorted(str(p) for p in CASES.glob("AC9*.yaml"))


def _findings(*args: str) -> List[Dict[str, Any]]:
    proc = cli("lint", "--no-cache", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    return data["findings"] if isinstance(data, dict) else data


def test_cluster_rules_are_off_without_an_inventory() -> None:
    with_cluster = _findings(*CLUSTER_CASES, "--cluster-snapshot", str(SNAPSHOT))
    without = _findings(*CLUSTER_CASES)
    assert {f["rule"] for f in with_cluster} >= {f"AC9{n:02d}" for n in range(1, 11)}
    assert not [f for f in without if f["rule"].startswith("AC9")]
    # with the nodes known, AC903 answers the host-arch guess of AC319 (tests/lint/test_host_arch_with_cluster.py) and
    # AC306's error on an accelerator-type that only decides which nodes take the pods; with the namespace's
    # ConfigMaps known, AC915 answers AC501's warning about a mounted ranktable ConfigMap
    assert any(f["rule"] == "AC319" for f in without)
    answers = {rule: {(f["file"], f["line"]) for f in with_cluster if f["rule"] == by}
               for rule, by in (("AC501", "AC915"), ("AC306", "AC903"))}
    for rule, lines in answers.items():
        assert any(f["rule"] == rule and (f["file"], f["line"]) in lines for f in without), rule
    assert [f for f in without if f["rule"] != "AC319" and (f["file"], f["line"]) not in answers.get(f["rule"], ())] \
        == [f for f in with_cluster if not f["rule"].startswith("AC9")]


def test_plain_lint_output_is_byte_identical_with_a_snapshot_that_knows_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: x}\nspec: {}\n",
                     encoding="utf-8")
    paths = [str(ROOT / "examples"), str(ROOT / "golden")]
    plain = cli("lint", "--no-cache", *paths)
    known_nothing = cli("lint", "--no-cache", *paths, "--cluster-snapshot", str(empty))
    assert (plain.returncode, plain.stdout) == (known_nothing.returncode, known_nothing.stdout)


def test_a_bad_snapshot_is_exit_2_with_file_line_column_and_path(tmp_path: Path) -> None:
    bad = tmp_path / "cluster.yaml"
    bad.write_text("apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: x}\nspec:\n"
                   "  queues:\n  - {name: default, state: open}\n", encoding="utf-8")
    proc = cli("lint", "--no-cache", str(CASES / "AC901-cluster-queue-missing.yaml"), "--cluster-snapshot", str(bad))
    assert proc.returncode == 2
    assert f"{bad}:6:28" in proc.stderr and "spec.queues[0].state" in proc.stderr and "AC016" in proc.stderr
    assert proc.stdout == ""
    missing = cli("lint", str(CASES / "AC901-cluster-queue-missing.yaml"), "--cluster-snapshot", str(tmp_path / "no"))
    assert missing.returncode == 2 and "AC016" in missing.stderr


def test_cluster_and_snapshot_together_is_a_usage_error() -> None:
    proc = cli("lint", str(CASES / "AC901-cluster-queue-missing.yaml"), "--cluster", "--cluster-snapshot", str(SNAPSHOT))
    assert proc.returncode == 2 and "give one" in proc.stderr


def _serve_snapshot(fake: Fake) -> None:
    """The fake kubectl serves the cluster that ``small.yaml`` describes (its scheduler's configuration too, and the
    context's namespace)."""
    spec = yaml.safe_load(SNAPSHOT.read_text(encoding="utf-8"))["spec"]
    nodes, pods = [], []
    for node in spec["nodes"]:
        npus = node.get("npus", {})
        nodes.append({"metadata": {"name": node["name"], "labels": node.get("labels", {})},
                      "spec": {"taints": node.get("taints", [])},
                      "status": {"allocatable": {r: str(v["allocatable"]) for r, v in npus.items()},
                                 "conditions": [{"type": "Ready", "status": "True"}]}})
        for resource, counts in npus.items():
            if counts.get("allocated"):
                pods.append({"metadata": {"name": f"busy-{node['name']}", "namespace": "other"},
                             "spec": {"nodeName": node["name"], "containers": [{"name": "c", "resources": {
                                 "requests": {resource: str(counts["allocated"])},
                                 "limits": {resource: str(counts["allocated"])}}}]},
                             "status": {"phase": "Running"}})
    items = lambda objs: json.dumps({"apiVersion": "v1", "kind": "List", "items": objs})  # noqa: E731
    names = lambda key: [{"metadata": {"name": n, "namespace": ns["name"]}}  # noqa: E731
                         for ns in spec["namespaces"] for n in ns[key]]
    levels = {tree: {f"level{i}": {"label": label} for i, label in enumerate(labels, 1)}
              for tree, labels in spec["resourceLevels"].items()}
    arguments = {"resource-level-config": json.dumps(levels)} if levels else {}
    conf = {"tiers": [{"plugins": [{"name": "volcano-npu_v26.1.0"}]}],
            "configurations": [{"name": "init-params", "arguments": arguments}]}
    scheduler = {"metadata": {"name": "volcano-scheduler-configmap", "namespace": "volcano-system"},
                 "data": {"volcano-scheduler.conf": yaml.safe_dump(conf)}}
    fake.rules(
        {"match": ["config", "view", "--minify"], "stdout": spec["defaultNamespace"]},
        {"match": ["get", "nodes"], "stdout": items(nodes)},
        {"match": ["get", "pods"], "stdout": items(pods)},
        {"match": ["get", "queues.scheduling.volcano.sh"], "stdout": items(
            [{"metadata": {"name": q["name"]}, "status": {"state": q["state"]}} for q in spec["queues"]])},
        {"match": ["get", "namespaces"], "stdout": items([{"metadata": {"name": ns["name"]}}
                                                          for ns in spec["namespaces"]])},
        {"match": ["get", "persistentvolumeclaims"], "stdout": items(names("persistentVolumeClaims"))},
        {"match": ["get", "configmaps"], "stdout": items(names("configMaps") + [scheduler])},
        {"match": ["get", "deployments.apps"], "stdout": items([])},
        _listed_or_forbidden(spec, "priorityClasses", "priorityclasses.scheduling.k8s.io",
                             lambda name: {"metadata": {"name": name}}),
        _listed_or_forbidden(spec, "hyperNodes", "hypernodes.topology.volcano.sh",
                             lambda h: {"metadata": {"name": h["name"]}, "spec": {"tier": h["tier"]}}),
    )


def _listed_or_forbidden(spec: Dict[str, Any], key: str, resource: str, make: Any) -> Dict[str, Any]:
    """The fake's rule for a part of the snapshot: its objects, or (a snapshot without the part: not read) refused."""
    if key in spec:
        return {"match": ["get", resource], "stdout": json.dumps({"items": [make(x) for x in spec[key]]})}
    return {"match": ["get", resource], "rc": 1, "stderr": f"Error from server (Forbidden): {resource} is forbidden"}


def test_live_cluster_gives_the_findings_of_its_snapshot(fake: Fake) -> None:
    _serve_snapshot(fake)
    live = cli("lint", "--no-cache", "--format", "json", *CLUSTER_CASES, "--cluster", env=fake.env())
    offline = cli("lint", "--no-cache", "--format", "json", *CLUSTER_CASES, "--cluster-snapshot", str(SNAPSHOT))
    assert live.returncode == offline.returncode == 1, live.stderr
    live_found, offline_found = (json.loads(proc.stdout)["findings"] for proc in (live, offline))
    # the same, but for what the NPUs in use say (AC907): live, a warning about now; from the snapshot's record of
    # usage, info about when it was taken (issue 45: usage never fails a build by default)
    assert [f for f in live_found if f["rule"] != "AC907"] == [f for f in offline_found if f["rule"] != "AC907"]
    where = lambda found: [(f["file"], f["line"], f["column"]) for f in found if f["rule"] == "AC907"]  # noqa: E731
    assert where(live_found) == where(offline_found) != []
    assert {f["severity"] for f in live_found if f["rule"] == "AC907"} == {"warning"}
    assert {f["severity"] for f in offline_found if f["rule"] == "AC907"} == {"info"}


def test_live_cluster_unreachable_exits_4(fake: Fake) -> None:
    fake.rules({"match": ["get"], "rc": 1, "stderr": "The connection to the server 127.0.0.1:1 was refused - "
                                                      "did you specify the right host or port?\n"})
    proc = cli("lint", str(CASES / "AC901-cluster-queue-missing.yaml"), "--cluster", env=fake.env())
    assert proc.returncode == 4 and "was refused" in proc.stderr and proc.stdout == ""


def test_the_clusters_volcano_release_picks_the_schemas(tmp_path: Path) -> None:
    docs = [d for d in yaml.safe_load_all((ROOT / "golden/matrix/pytorch-module-910b-8-vcjob.yaml").read_text()) if d]
    job = next(d for d in docs if d["kind"] == "Job")
    job["spec"]["tasks"][0]["template"]["spec"]["securityContext"] = {"appArmorProfile": {"type": "RuntimeDefault"}}
    manifest = tmp_path / "job.yaml"
    manifest.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text("apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: old}\n"
                        "spec:\n  versions: {volcano: v1.9.0}\n", encoding="utf-8")
    rules = lambda *args: {f["rule"] for f in _findings(str(manifest), *args)}  # noqa: E731
    assert "AC101" not in rules()  # Volcano 1.15's pod template knows appArmorProfile
    assert "AC101" in rules("--cluster-snapshot", str(snapshot))  # the cluster runs 1.9, whose does not
    assert "AC101" not in rules("--cluster-snapshot", str(snapshot), "--volcano-version", "1.15")  # the flag wins


def test_live_cluster_in_one_namespace_checks_claims_and_config_maps_there_only(fake: Fake) -> None:
    """lint -n NS with --cluster (its --help): only NS's (and kube-system's) claims and ConfigMaps are read, so the
    AC908/AC909 cases (namespace team) are checked with -n team and not with -n other; the other rules are not."""
    _serve_snapshot(fake)
    cases = [str(CASES / "AC908-cluster-claim-missing.yaml"), str(CASES / "AC909-cluster-config-map-missing.yaml"),
             str(CASES / "AC901-cluster-queue-missing.yaml")]
    rules = lambda ns: {f["rule"] for f in json.loads(cli(  # noqa: E731
        "lint", "--no-cache", "--format", "json", *cases, "--cluster", "-n", ns, env=fake.env()).stdout)["findings"]}
    assert {"AC901", "AC908", "AC909"} <= rules("team")
    assert "AC901" in rules("other") and not {"AC908", "AC909"} & rules("other")
