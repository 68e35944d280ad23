"""Volcano v1.15.1's own Ascend device sharing, in HAMi mode and in MindCluster vNPU mode (issue 45 item 1): shapes
of vNPU pods placed or refused on the simulated cluster, and ``lint`` judging for that device stack agrees with each
(an error exactly where the cluster refuses).

One cluster at a time (tests/simcluster/devicestacks.py): Volcano v1.15.1's vc-scheduler with deviceshare in the
mode, 310P nodes as each device plugin registers them, no MindCluster component.  Each shape is a Volcano Job of
one pod; a shape is *placed* when its pod is bound to a node, *refused* when its PodGroup is Unschedulable and
the pod stays unbound.
"""
from __future__ import annotations

import copy
import json
import time
from typing import Any, Dict, Iterator, List, NamedTuple, Optional

import pytest

from tests.simcluster import jobs
from tests.simcluster.conftest import skip_reason
from tests.simcluster.devicestacks import HAMI, LINT_STACK, MINDCLUSTER, DeviceShareCluster

NAMESPACE = "device-stacks"
#: how long the shapes are watched: by then each is bound, Unschedulable, or never enqueued
SETTLE = 90.0


class Shape(NamedTuple):
    name: str
    limits: Dict[str, Any]
    placed: bool
    labels: Dict[str, str] = {}
    annotations: Dict[str, str] = {}


#: Volcano's built-in HAMi config: huawei.com/Ascend310P, 21527 MiB a card (24576 at most), templates of 3072, 6144
#: and 12288 MiB
SHAPES: Dict[str, List[Shape]] = {
    HAMI: [
        Shape("one-slice", {"huawei.com/Ascend310P": 1, "huawei.com/Ascend310P-memory": 3072}, True),
        Shape("whole-cards", {"huawei.com/Ascend310P": 2}, True),
        Shape("two-slices", {"huawei.com/Ascend310P": 2, "huawei.com/Ascend310P-memory": 6144}, False),
        Shape("above-the-card", {"huawei.com/Ascend310P": 1, "huawei.com/Ascend310P-memory": 30000}, True),
        Shape("core-share", {"huawei.com/Ascend310P": 1, "huawei.com/Ascend310P-memory": 3072,
                             "huawei.com/Ascend310P-core": 50}, False),
        Shape("hami-core-mode", {"huawei.com/Ascend310P": 1, "huawei.com/Ascend310P-memory": 4096}, True,
              annotations={"huawei.com/vnpu-mode": "hami-core"}),
    ],
    MINDCLUSTER: [
        Shape("two-cores", {"huawei.com/npu-core": 2}, True, labels={"ring-controller.atlas": "ascend-310P"}),
        Shape("four-cores-dvpp", {"huawei.com/npu-core": 4}, True,
              labels={"ring-controller.atlas": "ascend-310P", "vnpu-dvpp": "yes", "vnpu-level": "high"}),
        Shape("whole-chip", {"huawei.com/npu-core": 8}, True, labels={"ring-controller.atlas": "ascend-310P"}),
        Shape("bad-dvpp", {"huawei.com/npu-core": 4}, False,
              labels={"ring-controller.atlas": "ascend-310P", "vnpu-dvpp": "on"}),
        Shape("three-cores", {"huawei.com/npu-core": 3}, False, labels={"ring-controller.atlas": "ascend-310P"}),
        Shape("unlabelled", {"huawei.com/npu-core": 2}, True),
    ],
}


def job_of(mode: str, shape: Shape) -> Dict[str, Any]:
    metadata: Dict[str, Any] = {"labels": dict(shape.labels)} if shape.labels else {}
    if shape.annotations:
        metadata["annotations"] = dict(shape.annotations)
    template: Dict[str, Any] = {"spec": {"restartPolicy": "Never", "containers": [
        {"name": "infer", "image": "serve:1.0", "resources": {"requests": copy.deepcopy(shape.limits),
                                                               "limits": copy.deepcopy(shape.limits)}}]}}
    if metadata:
        template["metadata"] = metadata
    return {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
            "metadata": {"name": f"{mode}-{shape.name}", "namespace": NAMESPACE},
            "spec": {"schedulerName": "volcano", "minAvailable": 1, "queue": "default",
                     "tasks": [{"name": "serve", "replicas": 1, "template": template}]}}


#: the pod annotation each mode's deviceshare writes when it cuts a vNPU for the pod (HAMi mode: the devices it took;
#: MindCluster vNPU mode: the chip and template)
CUT = {HAMI: "hami.io/Ascend310P-devices-allocated", MINDCLUSTER: "huawei.com/npu-core"}


def _verdict(sim: DeviceShareCluster, name: str) -> Optional[str]:
    pods = jobs.pods_of(sim, NAMESPACE, "Job", name)
    if pods and all(p["spec"].get("nodeName") for p in pods):
        return "placed"
    return "refused" if jobs.podgroup_unschedulable(sim, NAMESPACE, name) else None


def _placed_annotations(sim: DeviceShareCluster, mode: str) -> Dict[str, Dict[str, str]]:
    """The annotations of each placed shape's pod."""
    out = {}
    for shape in SHAPES[mode]:
        pods = jobs.pods_of(sim, NAMESPACE, "Job", f"{mode}-{shape.name}")
        if pods and pods[0]["spec"].get("nodeName"):
            out[shape.name] = dict(pods[0]["metadata"].get("annotations") or {})
    return out


def _never_enqueued(sim: DeviceShareCluster, name: str) -> Optional[str]:
    """"refused" when the job's PodGroup is still Pending: the scheduler never admitted it to be placed (its request
    names a resource no node has, so no queue or node capacity can hold it); None otherwise."""
    for group in jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n", NAMESPACE)["items"]:
        if any(o.get("name") == name for o in group["metadata"].get("ownerReferences", [])):
            return "refused" if (group.get("status") or {}).get("phase") == "Pending" else None
    return None


def _verdicts(sim: DeviceShareCluster, mode: str) -> Dict[str, Optional[str]]:
    """Each shape's verdict once every shape has one, or after :data:`SETTLE` seconds (a job whose PodGroup is still
    Pending then was never enqueued: refused)."""
    names = [shape.name for shape in SHAPES[mode]]
    started = time.monotonic()
    while True:
        found = {name: _verdict(sim, f"{mode}-{name}") for name in names}
        if all(found.values()):
            return found
        if time.monotonic() - started > SETTLE or sim.dead_processes():
            return {name: found[name] or _never_enqueued(sim, f"{mode}-{name}") for name in names}
        time.sleep(2)


@pytest.fixture(scope="module", params=[HAMI, MINDCLUSTER])
def verdicts(request: pytest.FixtureRequest) -> Iterator[Dict[str, Any]]:
    """One mode's cluster (started, judged, stopped before the next): each shape's verdict."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    mode = request.param
    with DeviceShareCluster(mode) as sim:
        jobs.create_namespace(sim, NAMESPACE)
        sim.apply_objects([job_of(mode, shape) for shape in SHAPES[mode]])
        found = _verdicts(sim, mode)
        yield {"mode": mode, "verdicts": found, "placed": _placed_annotations(sim, mode), "detail": jobs.describe_namespace(sim, NAMESPACE) +
               "\n" + sim.logs_for_failure(grep=("Predicates failed", "fit failed"))}


def _lint_errors(mode: str, shape: Shape) -> List[str]:
    from ascend_compile.lint.oneshot import lint_objects
    from ascend_compile.releases import Target

    target = Target().with_stack(LINT_STACK[mode], "the simulated cluster")
    return [f"{f.rule}: {f.message}" for f in lint_objects([job_of(mode, shape)], source=f"{shape.name}.yaml",
                                                           target=target) if f.severity == "error"]


def test_each_shape_is_placed_or_refused_as_the_stack_does(verdicts: Dict[str, Any]) -> None:
    mode = verdicts["mode"]
    want = {s.name: "placed" if s.placed else "refused" for s in SHAPES[mode]}
    assert verdicts["verdicts"] == want, verdicts["detail"]
    assert len(want) >= 5 and {"placed", "refused"} <= set(want.values())


def test_a_placed_vnpu_pod_got_its_vnpu_unless_the_mode_ignores_it(verdicts: Dict[str, Any]) -> None:
    """deviceshare annotated every placed pod with the vNPU it cut, but MindCluster vNPU mode's pod without the
    ring-controller.atlas label: it was placed by its core count alone (AC331's warning)."""
    mode = verdicts["mode"]
    want = {s.name: s.name != "unlabelled" for s in SHAPES[mode] if s.placed}
    assert {name: CUT[mode] in found for name, found in verdicts["placed"].items()} == want, verdicts["detail"]


@pytest.mark.parametrize("verdicts", [HAMI], indirect=True)  # HAMi mode's cluster only (no skip on the other)
def test_hami_mode_rounds_memory_up_to_a_template_and_reads_no_mode(verdicts: Dict[str, Any]) -> None:
    """What AC330's notes and warnings say: 4096 MiB gets the 6144 MiB template whatever huawei.com/vnpu-mode says,
    and a request above the card's memory is read as none: the smallest template."""
    assert verdicts["mode"] == HAMI
    temps = {name: [d.get("temp") for d in json.loads(found["huawei.com/Ascend310P"])]
             for name, found in verdicts["placed"].items() if "huawei.com/Ascend310P" in found}
    assert temps["one-slice"] == ["vir01"] and temps["hami-core-mode"] == ["vir02"], verdicts["detail"]
    assert temps["above-the-card"] == ["vir01"], verdicts["detail"]


def test_lint_for_that_stack_agrees_with_each_verdict(verdicts: Dict[str, Any]) -> None:
    """An error exactly for the shapes the cluster refused; the placed ones draw none."""
    mode = verdicts["mode"]
    disagree = {s.name: (verdicts["verdicts"][s.name], _lint_errors(mode, s)) for s in SHAPES[mode]
                if (verdicts["verdicts"][s.name] == "refused") != bool(_lint_errors(mode, s))}
    assert disagree == {}
