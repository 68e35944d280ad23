"""Cluster-aware lint against a large cluster (issue 43, "cluster checks index nodes once"): 20,000 nodes and 400
jobs took 36 s when every job's selector was matched against every node, and every job's NPU sums were taken over
every node it may use.  Now the nodes are indexed by label once per run and what the rules work out over one set of
nodes is worked out once: the work grows as nodes + jobs.

The bound: the lint below takes about 1 s of CPU on the shared 2-core machine (the quadratic one took over 100 s
of CPU for the same input); 5 s of CPU leaves room for a slow runner and still fails the quadratic one many times
over.  The counts of node checks are the machine-independent half: they were nodes x jobs (8,000,000)."""
from __future__ import annotations

import itertools
import random
import time
from typing import Any, Dict, List

import pytest

from ascend_compile.inventory.model import Inventory, Node, NodeIndex, Queue, Taint
from ascend_compile.lint.oneshot import lint_objects

NPU = "huawei.com/Ascend910"
NODES, JOBS, POOLS = 20_000, 400, 500


def _nodes() -> List[Node]:
    return [Node(f"node-{i:05d}", {"accelerator-type": "module-910b-8", "host-arch": "huawei-arm", "pool": f"p{i % POOLS}",
                                   "rack": str(i // 16)}, {NPU: 8}, {NPU: (i % 3) * 4}, True, False)
            for i in range(NODES)]


def _job(number: int, selector: Dict[str, str]) -> Dict[str, Any]:
    template = {"spec": {"nodeSelector": selector, "containers": [
        {"name": "ascend", "image": "swr.example.com/pytorch:24.0",
         "ports": [{"containerPort": 2222, "name": "ascendjob-port"}],
         "resources": {"requests": {NPU: 8}, "limits": {NPU: 8}}}]},
        "metadata": {"labels": {"ring-controller.atlas": "ascend-910b"}}}
    return {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
            "metadata": {"name": f"job{number}", "namespace": "team",
                         "labels": {"framework": "pytorch", "ring-controller.atlas": "ascend-910b"}},
            "spec": {"schedulerName": "volcano", "runPolicy": {"schedulingPolicy": {"minAvailable": 2, "queue": "default"}},
                     "successPolicy": "AllWorkers",
                     "replicaSpecs": {role: {"replicas": 1, "restartPolicy": "Never", "template": template}
                                      for role in ("Master", "Worker")}}}


def _jobs() -> List[Dict[str, Any]]:
    """Half select a pool of their own (a selector no other job has: no answer shared), half the whole cluster (every
    job sums the NPUs of all 20,000 nodes)."""
    broad = {"host-arch": "huawei-arm", "accelerator-type": "module-910b-8"}
    return [_job(i, {**broad, "pool": f"p{i}"} if i % 2 else dict(broad)) for i in range(JOBS)]


def test_cluster_lint_of_20000_nodes_and_400_jobs_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    inventory = Inventory(nodes=tuple(_nodes()), queues={"default": Queue("default", "Open")}, default_namespace="team")
    jobs = _jobs()
    counts = {"selected_by": 0, "free": 0}
    for name in counts:
        original = getattr(Node, name)

        def counting(self: Node, *args: Any, _original: Any = original, _name: str = name) -> Any:
            counts[_name] += 1
            return _original(self, *args)

        monkeypatch.setattr(Node, name, counting)
    started = time.process_time()
    findings = lint_objects(jobs, inventory=inventory)
    elapsed = time.process_time() - started
    assert not [f for f in findings if f.rule.startswith("AC9")], findings[:3]  # every job fits: nothing to report
    # each node is matched once for the broad selector, each pool's 40 nodes once for its job: not once per job
    assert counts["selected_by"] <= NODES + JOBS * (NODES // POOLS), counts
    assert counts["free"] <= 4 * NODES, counts  # the sums over the broad nodes are taken once, not once per job
    assert elapsed < 5.0, f"{elapsed:.1f} s of CPU"


def test_the_index_picks_the_nodes_a_pass_over_every_node_picks() -> None:
    rng = random.Random(43)
    nodes = [Node(f"n{i}", {k: rng.choice("ab") for k in ("x", "y", "z") if rng.random() < 0.7},
                  {}, {}, rng.random() < 0.9, rng.random() < 0.1, taints=(Taint("t", "v", "NoSchedule"),) if i % 5 else ())
             for i in range(200)]
    index = NodeIndex(nodes)
    selectors = [dict(pairs) for size in range(3) for pairs in itertools.combinations(
        [("x", "a"), ("y", "b"), ("z", "a"), ("x", "b")], size)]
    terms: List[Any] = [None, (((), ()),), (((("x", "In", ("a", "b")),), ()),), (((("y", "NotIn", ("a",)),), ()),),
                        (((("z", "Exists", ()),), ()),), (((), (("metadata.name", "In", ("n3", "n4", "n5")),)),),
                        (((("x", "In", ("a",)),), ()), ((("y", "DoesNotExist", ()),), ()), ((), ()))]
    for selector, affinity in itertools.product(selectors, terms):
        expected = [n for n in nodes if n.schedulable and n.selected_by(selector, affinity)]
        assert index.select(selector, affinity) == expected, (selector, affinity)
