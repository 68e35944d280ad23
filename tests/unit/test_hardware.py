"""hardware.py, the scheduler's NPU arithmetic shared by compile and lint, as tables over the built-in profiles."""
from __future__ import annotations

import pytest

from ascend_compile.hardware import arithmetic as hardware
from ascend_compile.hardware.arithmetic import NpuLayout, check_pods, check_super_pod, split_total
from ascend_compile.hardware.profiles import ProfileRegistry

PROFILES = ProfileRegistry()


def profile(name):
    return PROFILES.require(name)


@pytest.mark.parametrize("name,total,expected", [
    ("module-910b-8", 1, (1, 1)),
    ("module-910b-8", 8, (1, 8)),
    ("module-910b-8", 16, (2, 8)),
    ("module-910b-8", 64, (8, 8)),
    ("module-910b-16", 12, (1, 12)),  # 12 fits one Box16
    ("module-910b-16", 32, (2, 16)),
    ("module-910", 4, (1, 4)),
    ("module-a3-16-super-pod", 48, (3, 16)),
    ("card-910b-2", 2, (1, 2)),
    ("card-910b-2", 4, (2, 2)),
    ("310", 3, (1, 3)),
])
def test_split_total_into_pods(name, total, expected):
    assert split_total(profile(name), total) == (expected, [])


@pytest.mark.parametrize("name,total", [
    ("module-910b-8", 0),
    ("module-910b-8", 12),  # more than a node and not whole nodes
    ("module-910", 3),  # 3 is not a count the Atlas 800 accepts on one pod
    ("module-910b-16", 9),
    ("310", 6),  # one card holds at most 4, and 6 is not whole cards
    ("module-910b-8", 8 * (hardware.MAX_PODS + 1)),  # more pods than ascend-operator accepts
])
def test_impossible_totals_are_refused_with_npu_total(name, total):
    split, violations = split_total(profile(name), total)
    assert split is None and [v.rule for v in violations] == ["AC304"]


@pytest.mark.parametrize("name,pods,per_pod,rules", [
    ("module-910b-8", 1, 8, []),
    ("module-910b-8", 2, 8, []),
    ("module-910b-8", 2, 4, ["AC303"]),  # allowed, but distributed jobs take whole nodes
    ("module-910b-8", 1, 9, ["AC301"]),
    ("module-910", 1, 3, ["AC301"]),
    ("module-910", 4, 2, ["AC303"]),
    ("module-910b-16", 1, 10, []),
    ("module-910b-16", 1, 11, ["AC301"]),
    ("module-a3-16", 1, 1, []),  # a single-task job may take one NPU
    ("module-a3-16", 2, 1, ["AC301"]),  # ...a distributed one may not
    ("module-a3-16", 2, 8, ["AC303"]),  # even is allowed; whole nodes are the convention (16 in all: one node)
    ("module-a3-16", 2, 6, []),  # ...which 12 NPUs in all cannot follow: nothing to say
    ("module-a3-16", 2, 16, []),
    ("module-a3-16-super-pod", 2, 8, ["AC301"]),  # distributed super-pod pods take whole nodes
    ("card-910b-2", 2, 2, []),
    ("card-910b-2", 2, 1, ["AC303"]),  # the card handler takes 1 in a distributed job; whole nodes are the convention
    ("card-910b-2", 2, 3, ["AC301"]),  # a node has 2
])
def test_per_pod_counts(name, pods, per_pod, rules):
    violations = check_pods(profile(name), NpuLayout.uniform(pods, per_pod))
    assert [v.rule for v in violations] == rules
    assert all(v.severity == ("warning" if v.rule == "AC303" else "error") for v in violations)


@pytest.mark.parametrize("name,pods,per_pod,sp_block,ra_block,problems", [
    ("module-a3-16-super-pod", 1, 8, None, None, []),  # sp-block defaults to the total
    ("module-a3-16-super-pod", 1, 8, 8, None, []),
    ("module-a3-16-super-pod", 1, 8, 16, None, ["must equal its NPU count 8"]),
    ("module-a3-16-super-pod", 2, 16, 32, None, []),
    ("module-a3-16-super-pod", 2, 16, 16, None, []),
    ("module-a3-16-super-pod", 2, 16, 24, None, ["not a multiple of the 16 NPUs", "not a multiple of sp-block 24"]),
    ("module-a3-16-super-pod", 4, 16, 48, None, ["not a multiple of sp-block 48"]),
    ("module-a3-16-super-pod", 49, 16, 49 * 16, None, ["more than the super-pod size 48"]),
    ("module-a3-16-super-pod", 2, 16, 0, None, ["sp-block(0) is invalid"]),
    ("950-super-pod", 2, 8, 16, 8, []),
    ("950-super-pod", 2, 8, 16, 3, ["ra-block 3 is not allowed"]),
    ("module-910b-8", 2, 8, 24, 3, []),  # not a super-pod: nothing to check
])
def test_super_pod_arithmetic(name, pods, per_pod, sp_block, ra_block, problems):
    violations = check_super_pod(profile(name), NpuLayout.uniform(pods, per_pod), sp_block, ra_block)
    assert len(violations) == len(problems), [v.message for v in violations]
    for violation, expected in zip(violations, problems):
        assert violation.rule == "AC302" and expected in violation.message
    assert [v.subject for v in violations] == ["ra-block" if "ra-block" in p else "" for p in problems]


@pytest.mark.parametrize("pod_sets,counts,pods,total", [
    ([(1, 8), (3, 8)], (8,), 4, 32),  # PyTorch Master + Workers
    ([(1, 0), (2, 16)], (16,), 2, 32),  # a MindSpore Scheduler holds no NPUs and is no NPU pod
    ([(1, 4), (1, 8)], (4, 8), 2, 12),  # different counts are all kept for the checks
    ([(0, 8)], (), 0, 0),  # no replicas, no pods
])
def test_layout_from_pod_sets(pod_sets, counts, pods, total):
    assert NpuLayout.from_pod_sets(pod_sets) == NpuLayout(counts, pods, total)


@pytest.mark.parametrize("name,labels,handler,most", [
    ("310p", {"duo": "true", "npu-310-strategy": "card"}, "310p", 2),  # card310px2: the profile's own
    ("310p", {"duo": "true", "npu-310-strategy": "chip"}, "310p chip handler", 16),  # chip310px2
    ("310p", {"duo": None, "npu-310-strategy": "card"}, "310p generic handler", 64),  # base handler
    ("310p", {"duo": "true", "npu-310-strategy": "card|chip"}, "310p generic handler", 64),
    ("310", {"npu-310-strategy": "card"}, "310", 4),  # card310x4
    ("310", {"npu-310-strategy": "chip"}, "310 chip handler", 64),  # chip310x4
    ("310", {"npu-310-strategy": "cards"}, None, None),  # no handler (AC307)
])
def test_the_handler_a_310_job_gets_by_its_labels(name, labels, handler, most):
    """The 310 and 310P factories pick the handler by the duo and npu-310-strategy labels (profile data)."""
    found = profile(name).handler_for(labels)
    assert (found.name if found else None) == handler
    if found is not None:
        assert max(found.single_pod) == max(found.multi_pod) == most
        assert check_pods(found, NpuLayout((most,), 2, 2 * most)) == []
        assert [v.rule for v in check_pods(found, NpuLayout((most + 1,), 1, most + 1))] == ["AC301"]


@pytest.mark.parametrize("labels,pods,refused", [
    ({"duo": "true", "npu-310-strategy": "card", "distributed": "true"}, 2, True),  # card310px2
    ({"duo": "true", "npu-310-strategy": "chip", "distributed": "true"}, 2, True),  # chip310px2
    ({"duo": "true", "npu-310-strategy": "chip", "distributed": "true"}, 1, False),  # one NPU pod
    ({"duo": "true", "npu-310-strategy": "card", "distributed": "false"}, 2, False),
    ({"duo": None, "npu-310-strategy": "card", "distributed": "true"}, 2, False),  # the generic handler
])
def test_the_duo_handlers_take_one_npu_pod_when_distributed(labels, pods, refused):
    """card310px2 and chip310px2 ValidNPUJob: distributed=true and more than one NPU pod is refused."""
    assert "distributed" in profile("310p").label_keys()
    assert profile("310p").handler_for(labels).refuses_pods(labels, pods) is refused


def test_a_handler_of_1_to_64_is_written_as_a_range():
    (refused,) = check_pods(profile("310p").handler_for({}), NpuLayout((65,), 1, 65))
    assert refused.message.endswith("allowed: 1-64")
    assert profile("310p").to_dict()["labelHandlers"][-1] == {"handler": "generic handler", "jobLabels": {},
                                                             "maxNpusPerPod": 64}
    assert profile("module-910b-8").label_keys() == ()


@pytest.mark.parametrize("values,text", [
    ((1, 2), "1, 2"),
    ((1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16), "1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16"),  # short runs stay
    (tuple(range(1, 12)) + (16,), "1-11, 16"),
    ((), ""),
])
def test_long_runs_of_counts_are_written_by_their_ends(values, text):
    assert hardware._fmt(values) == text
