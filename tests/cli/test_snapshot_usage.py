"""``cluster snapshot`` records capacity by default and usage only with ``--usage``, stamped with its time (issue 45
item 3); it records the PriorityClasses and HyperNodes the cluster checks read (item 4)."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import yaml

from tests.checkout import run_cli as cli
from tests.cli.test_cluster_snapshot import _items, _serve
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture


def _npus(doc):
    return [npus for node in doc["spec"]["nodes"] for npus in (node.get("npus") or {}).values()]


def test_capacity_by_default_usage_with_its_time_when_asked(fake: Fake) -> None:
    _serve(fake)
    plain = cli("cluster", "snapshot", env=fake.env())
    assert plain.returncode == 0, plain.stderr
    doc = yaml.safe_load(plain.stdout)
    assert _npus(doc) and all(set(n) == {"allocatable"} for n in _npus(doc)) and "usageTime" not in doc["spec"]
    used = cli("cluster", "snapshot", "--usage", env=fake.env())
    assert used.returncode == 0, used.stderr
    doc = yaml.safe_load(used.stdout)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", str(doc["spec"]["usageTime"]))
    assert all("allocated" in n for n in _npus(doc))


def test_priority_classes_and_hyper_nodes_are_recorded_and_read_back(fake: Fake, tmp_path: Path) -> None:
    _serve(fake)
    fake.rules(
        *json.loads(os.environ["FAKE_KUBECTL_RULES"]),
        {"match": ["get", "priorityclasses.scheduling.k8s.io"], "stdout": _items([
            {"metadata": {"name": "high"}, "value": 1000}, {"metadata": {"name": "low"}, "value": 1}])},
        {"match": ["get", "hypernodes.topology.volcano.sh"], "stdout": _items([
            {"metadata": {"name": "rack-0"}, "spec": {"tier": 1, "members": [{"type": "Node"}]}}])})
    out = tmp_path / "c.yaml"
    proc = cli("cluster", "snapshot", "-o", str(out), env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert "capacity only (--usage also records the NPUs in use)" in proc.stderr
    spec = yaml.safe_load(out.read_text(encoding="utf-8"))["spec"]
    assert spec["priorityClasses"] == ["high", "low"] and spec["hyperNodes"] == [{"name": "rack-0", "tier": 1}]
    assert "members" not in out.read_text(encoding="utf-8")
    job = tmp_path / "job.yaml"
    job.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "training"},
        "spec": {"priorityClassName": "urgent", "containers": [{"name": "c", "image": "x/y:1"}]}}), encoding="utf-8")
    linted = cli("lint", "--no-cache", str(job), "--cluster-snapshot", str(out))
    assert "AC913" in linted.stdout and str(out) in linted.stdout, linted.stdout
