"""The inventory is truth (issue 45 item 2): no finding made with a cluster inventory claims a node, resource, label,
taint, queue, claim, PriorityClass or HyperNode fact the inventory contradicts.

For every rule that reads an inventory (the AC9xx rules, and the offline rules that assume MindCluster's defaults or
read the nodes: AC305's handler refusal, AC306's accelerator-type values, AC315's host-arch, AC316's resource names,
AC317's node sizes) a job draws the finding against a base inventory; hypothesis then adds unrelated nodes, queues
and namespaces in any number and order, checks the finding is still there, and adds the one fact that contradicts
it: the finding must go (or, for one whose offline form stays, change).  A scan of the rule units keeps the list
whole.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.lint.conftest import lint_text, one_pod_acjob

Doc = Dict[str, Any]


def _node(name: str, labels: Dict[str, str], npus: int, resource: str = "huawei.com/Ascend910",
          allocated: int = 0) -> Doc:
    return {"name": name, "ready": True, "labels": labels,
            "npus": {resource: {"allocatable": npus, "allocated": allocated}}}


A2 = {"accelerator-type": "module-910b-8", "host-arch": "huawei-arm"}


def _base() -> Doc:
    """One idle 8-NPU node, queues default (Open) and frozen (Closed), PriorityClass normal, no HyperNode; namespace
    team (where a job without one lands) with no claim and one ConfigMap; kube-system without the switch topology."""
    return {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "ClusterSnapshot", "metadata": {"name": "t"},
            "spec": {"defaultNamespace": "team", "versions": {"volcano": "v1.12.0"}, "resourceLevels": {},
                     "usageTime": "2026-12-07T05:00:00Z",
                     "nodes": [_node("a2-0", dict(A2), 8)],
                     "queues": [{"name": "default", "state": "Open"}, {"name": "frozen", "state": "Closed"}],
                     "priorityClasses": ["normal"], "hyperNodes": [],
                     "namespaces": [{"name": "kube-system", "persistentVolumeClaims": [], "configMaps": []},
                                    {"name": "team", "persistentVolumeClaims": [],
                                     "configMaps": ["kube-root-ca.crt"]}]}}


def _namespace(doc: Doc, name: str) -> Doc:
    return next(ns for ns in doc["spec"]["namespaces"] if ns["name"] == name)


def _queue(doc: Doc, name: str) -> Doc:
    return next(q for q in doc["spec"]["queues"] if q["name"] == name)


JOB = one_pod_acjob(selector="module-910b-8")
WORKERS = ("    Worker:\n      replicas: 2\n      restartPolicy: Never\n      template:\n        spec:\n"
           "          nodeSelector: {accelerator-type: module-910b-8}\n          containers:\n"
           "          - name: ascend\n            image: x/y:1\n            resources:\n"
           "              requests: {huawei.com/Ascend910: 8}\n              limits: {huawei.com/Ascend910: 8}\n")
VOLUMES = "          volumes:\n          - name: v\n"
RANKTABLE = ("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: rings-config-j\n  namespace: other\n"
             "  labels: {ring-controller.atlas: ascend-910b}\ndata:\n  hccl.json: '{\"status\":\"initializing\"}'\n")
VC_JOB = ("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: v\n  namespace: team\nspec:\n"
          "  schedulerName: volcano\n  queue: default\n  networkTopology: {mode: hard, highestTierAllowed: 1}\n"
          "  tasks:\n  - name: worker\n    replicas: 1\n    template:\n      spec:\n"
          "        nodeSelector: {accelerator-type: module-910b-8}\n        restartPolicy: OnFailure\n"
          "        containers:\n        - name: train\n          image: torch:2.1\n          resources:\n"
          "            requests: {huawei.com/Ascend910: 8}\n            limits: {huawei.com/Ascend910: 8}\n")


class Case(NamedTuple):
    rule: str
    job: str
    base: Callable[[Doc], None]  # makes the base inventory draw the finding
    contradict: Callable[[Doc], None]  # the one fact that contradicts it


def _nothing(doc: Doc) -> None:
    pass


def _append_node(labels: Dict[str, str], npus: int = 8, resource: str = "huawei.com/Ascend910") -> Callable[[Doc], None]:
    return lambda doc: doc["spec"]["nodes"].append(_node("truth-0", labels, npus, resource))


def _label(index: int, key: str, value: str) -> Callable[[Doc], None]:
    return lambda doc: doc["spec"]["nodes"][index]["labels"].__setitem__(key, value)


def _levels(doc: Doc) -> None:
    """The plugin's topology tree default (level1 by rack-id), and the A3 node of the case in it."""
    doc["spec"]["resourceLevels"] = {"default": ["rack-id"]}
    _label(-1, "rack-id", "r1")(doc)


def _set(getter: Callable[[Doc], Doc], key: str, value: Any) -> Callable[[Doc], None]:
    return lambda doc: getter(doc).__setitem__(key, value)


def _add(getter: Callable[[Doc], Doc], key: str, value: Any) -> Callable[[Doc], None]:
    return lambda doc: getter(doc).setdefault(key, []).append(value)


#: a pod that asks HAMi for soft slicing, and a node of HAMi's resource that cuts template vNPUs (hami-vnpu-core "false")
SOFT_POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: soft\n  namespace: team\n"
            "  annotations: {huawei.com/vnpu-mode: hami-core}\nspec:\n  containers:\n  - name: c\n    image: x/y:1\n"
            "    resources:\n      limits: {huawei.com/Ascend910B3: 1, huawei.com/Ascend910B3-memory: 16384}\n")


def _hami_node(name: str, soft: bool) -> Callable[[Doc], None]:
    return lambda doc: doc["spec"]["nodes"].append({**_node(name, {}, 8, "huawei.com/Ascend910B3"), "hamiVnpuCore": soft})


CASES = [
    # the nodes offer HAMi's resources: the target is HAMi; a node that slices softly takes the pod
    Case("AC330", SOFT_POD, _hami_node("hard-0", False), _hami_node("soft-0", True)),
    # an accelerator-type of no profile that decides only which nodes take the pods (the 310P handler is the
    # resource's): with the nodes known, AC903's (AC306 says nothing), until a node carries it
    Case("AC903", one_pod_acjob(selector="inference-310p-9", npus=1, resource="huawei.com/Ascend310P"), _nothing,
         _append_node({"accelerator-type": "inference-310p-9"}, 4, "huawei.com/Ascend310P")),
    Case("AC315", JOB.replace("{accelerator-type: module-910b-8}", "{accelerator-type: module-910b-8, host-arch: arm64}"),
         _nothing, _append_node({**A2, "host-arch": "arm64"})),
    Case("AC315", JOB.replace("{accelerator-type: module-910b-8}", "{accelerator-type: module-910b-8, host_arch: huawei-arm}"),
         _nothing, _append_node({**A2, "host_arch": "huawei-arm"})),
    Case("AC316", one_pod_acjob(selector="module-910b-8", resource="huawei.com/Ascend910B"), _nothing,
         _append_node(A2, 8, "huawei.com/Ascend910B")),
    # no accelerator-type on a release whose default handler refuses typed nodes: an error naming the nodes, until a
    # node the handler takes offers the NPUs (then the offline finding alone stays)
    Case("AC305", "# mindcluster: v26.0.1\n" + one_pod_acjob(selector=None).replace(
        "        spec:\n", "        spec:\n          nodeSelector: {host-arch: huawei-arm}\n", 1), _nothing,
         _append_node({"accelerator-type": "module", "host-arch": "huawei-arm"})),
    # the card handler takes nodes of at most 8 free NPUs; the profile's module-a3-16 nodes have 16, this cluster's 8
    Case("AC317", one_pod_acjob(job_annotations="huawei.com/schedule_policy: chip1-node2", selector="module-a3-16",
                                npus=1), _nothing, _append_node({"accelerator-type": "module-a3-16"}, 8)),
    Case("AC901", JOB.replace("queue: default", "queue: research"), _nothing,
         _add(lambda d: d["spec"], "queues", {"name": "research", "state": "Open"})),
    Case("AC902", JOB.replace("queue: default", "queue: frozen"), _nothing,
         _set(lambda d: _queue(d, "frozen"), "state", "Open")),
    Case("AC903", JOB.replace("module-910b-8", "module-a3-16"), _nothing,
         _append_node({"accelerator-type": "module-a3-16"}, 16)),
    Case("AC903", JOB, lambda d: d["spec"]["nodes"][0].__setitem__(
        "taints", [{"key": "dedicated", "value": "x", "effect": "NoSchedule"}]), _append_node(A2)),
    # a card handler (at most 8 free NPUs) and only idle 16-NPU nodes: refused, until a node it takes is there
    Case("AC904", one_pod_acjob(job_annotations="huawei.com/schedule_policy: chip1-node2", selector="module-a3-16",
                                npus=1), _append_node({"accelerator-type": "module-a3-16"}, 16),
         lambda d: d["spec"]["nodes"].append(_node("truth-1", {"accelerator-type": "module-a3-16"}, 16, allocated=15))),
    Case("AC905", one_pod_acjob(selector="module-910b-8", npus=16), _nothing, _append_node(A2, 16)),
    Case("AC906", JOB + WORKERS, _nothing, lambda d: d["spec"]["nodes"].extend(
        _node(f"truth-{i}", dict(A2), 8) for i in range(2))),
    Case("AC907", JOB, lambda d: d["spec"]["nodes"][0]["npus"]["huawei.com/Ascend910"].__setitem__("allocated", 8),
         lambda d: d["spec"]["nodes"][0]["npus"]["huawei.com/Ascend910"].__setitem__("allocated", 0)),
    Case("AC908", JOB + VOLUMES + "            persistentVolumeClaim: {claimName: data}\n", _nothing,
         _add(lambda d: _namespace(d, "team"), "persistentVolumeClaims", "data")),
    Case("AC909", JOB + VOLUMES + "            configMap: {name: settings}\n", _nothing,
         _add(lambda d: _namespace(d, "team"), "configMaps", "settings")),
    Case("AC910", JOB.replace("ascend-910b}", "ascend-910b, tor-affinity: normal-schema}"), _nothing,
         _add(lambda d: _namespace(d, "kube-system"), "configMaps", "basic-tor-node-cm")),
    Case("AC911", one_pod_acjob(job_annotations="huawei.com/schedule_policy: multilevel, huawei.com/affinity-config: "
                                "'level1=1'", selector="module-a3-16", npus=16),
         _append_node({"accelerator-type": "module-a3-16"}, 16), _levels),
    Case("AC912", JOB, _set(lambda d: _queue(d, "default"), "capability", {"huawei.com/Ascend910": "4"}),
         _set(lambda d: _queue(d, "default"), "capability", {"huawei.com/Ascend910": "8"})),
    Case("AC913", JOB.replace("        spec:\n", "        spec:\n          priorityClassName: urgent\n", 1), _nothing,
         _add(lambda d: d["spec"], "priorityClasses", "urgent")),
    Case("AC914", VC_JOB, _nothing, _add(lambda d: d["spec"], "hyperNodes", {"name": "rack-0", "tier": 1})),
    Case("AC915", JOB + VOLUMES + "            configMap: {name: rings-config-j}\n" + RANKTABLE, _nothing,
         _add(lambda d: _namespace(d, "team"), "configMaps", "rings-config-j")),
    # mounted and nowhere (not in the files, not in the namespace): AC915's error, and AC501 says no more
    Case("AC915", "# device-stack: mindcluster\n" + JOB + VOLUMES + "            configMap: {name: rings-config-j}\n",
         _nothing, _add(lambda d: _namespace(d, "team"), "configMaps", "rings-config-j")),
    # a Volcano Job of several pods labelled for a file ranktable, mounting none: AC501 warns while the namespace
    # lacks rings-config-v, and not once the cluster has it
    Case("AC501", "# device-stack: mindcluster\n" + VC_JOB.replace("  namespace: team\n", "  namespace: team\n  labels: "
         "{ring-controller.atlas: ascend-910b}\n").replace("replicas: 1", "replicas: 2"), _nothing,
         _add(lambda d: _namespace(d, "team"), "configMaps", "rings-config-v")),
]

#: what hypothesis adds around the case: nodes no job selects (labelled zone only, maybe tainted), queues and
#: namespaces no job names, PriorityClasses and HyperNodes of tiers no job allows
NOISE_NODES = st.lists(st.builds(lambda zone, npus, tainted: (zone, npus, tainted), st.sampled_from(["a", "b", "c"]),
                                 st.sampled_from([0, 2, 8]), st.booleans()), max_size=6)
NOISE_NAMES = st.lists(st.sampled_from(["n1", "n2", "n3", "n4"]), max_size=4, unique=True)


def _noisy(doc: Doc, nodes: List[Any], names: List[str], first: bool) -> Doc:
    out = copy.deepcopy(doc)
    spec = out["spec"]
    extra = [_node(f"noise-{i}", {"zone": zone}, npus) for i, (zone, npus, _) in enumerate(nodes)]
    for node, (_, _, tainted) in zip(extra, nodes):
        if tainted:
            node["taints"] = [{"key": "noise", "effect": "NoExecute"}]
    spec["nodes"] = extra + spec["nodes"] if first else spec["nodes"] + extra
    spec["queues"] += [{"name": f"q-{n}", "state": "Open"} for n in names]
    spec["priorityClasses"] += [f"pc-{n}" for n in names]
    spec["hyperNodes"] += [{"name": f"h-{n}", "tier": 9} for n in names]
    spec["namespaces"] += [{"name": f"ns-{n}", "persistentVolumeClaims": ["data"], "configMaps": ["settings"]}
                           for n in names]
    return out


def _findings(case: Case, doc: Doc) -> List[Any]:
    from ascend_compile.inventory.snapshot import from_document

    found = lint_text(case.job, "job.yaml", inventory=from_document(doc, "truth.yaml"))
    return [(f.path, f.message, f.severity) for f in found if f.rule == case.rule]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.rule}-{i}" for i, c in enumerate(CASES)])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(nodes=NOISE_NODES, names=NOISE_NAMES, first=st.booleans())
def test_a_fact_the_inventory_holds_takes_the_finding_away(case: Case, nodes: List[Any], names: List[str],
                                                           first: bool) -> None:
    base = _base()
    case.base(base)
    before = _findings(case, _noisy(base, nodes, names, first))
    assert before, f"{case.rule}: the base inventory draws no finding"
    case.contradict(base)
    after = _findings(case, _noisy(base, nodes, names, first))
    assert not set(after) & set(before), f"{case.rule}: still {after} with the fact that contradicts it"


#: rules that read an inventory only to say nothing with it (the cluster's nodes answer their question elsewhere)
SILENT_WITH_NODES = {"AC319": "with the nodes known it says nothing; AC903 answers the selector from the nodes",
                     "AC306": "with the nodes known it says nothing of a value that decides only which nodes take the "
                              "pods (AC903 answers from the nodes); a value the plugin refuses the job for it reports "
                              "whatever the nodes, claiming nothing of them"}


def test_every_rule_that_reads_an_inventory_is_contradicted_here() -> None:
    """A rule unit that reads the run's inventory (or shares the cluster rules' helpers) has a case above, or says
    nothing with one: a new inventory rule cannot skip this test."""
    from pathlib import Path

    from ascend_compile import catalogue
    from tests.lint.conftest import ROOT

    rules = Path(ROOT) / "compiler" / "lint" / "rules"
    texts = {entry.id: (rules / f"{entry.unit}.py").read_text(encoding="utf-8")
             for entry in catalogue.entries(catalogue.LINT)}
    reading = {rule for rule, text in texts.items() if "inventory" in text or "from ._cluster import" in text}
    assert {"AC316", "AC906", "AC915"} <= reading  # the scan finds them
    assert reading - {c.rule for c in CASES} - set(SILENT_WITH_NODES) == set()


def test_the_inventories_built_here_are_snapshots_the_schema_takes(tmp_path) -> None:
    """Each base and contradicting inventory, with noise, as a file: read through the schema check like any snapshot."""
    import json

    from ascend_compile.inventory.snapshot import load

    for i, case in enumerate(CASES):
        doc = _base()
        case.base(doc)
        case.contradict(doc)
        path = tmp_path / f"{i}.yaml"
        path.write_text(json.dumps(_noisy(doc, [("a", 2, True)], ["n1"], False)), encoding="utf-8")
        assert load(str(path)).nodes, case.rule
