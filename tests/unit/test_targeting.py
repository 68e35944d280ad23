"""Which profiles a job can target: one table over the built-in profiles, shared by lint and compile."""
from __future__ import annotations

import textwrap

import pytest

import ascend_compile
from ascend_compile.errors import CompileError
from ascend_compile.lint.oneshot import lint_objects
from ascend_compile.hardware.profiles import ProfileRegistry
from ascend_compile.hardware.targeting import (HardwareSignals, candidate_profiles, hardware_unnamed, per_pod_rules,
                                                signals_of_profile)

REGISTRY = ProfileRegistry()
A910, NPU, A310P, A310 = "huawei.com/Ascend910", "huawei.com/npu", "huawei.com/Ascend310P", "huawei.com/Ascend310"


@pytest.mark.parametrize("signals,expected", [
    # a known policy names its profiles; profiles that share one are all candidates, unless the node selector narrows
    (HardwareSignals(A910, schedule_policy="chip8-node8"), ["module-910b-8"]),
    (HardwareSignals(A910, schedule_policy="chip1-node2"), ["card-910", "card-910b-2"]),
    (HardwareSignals(A910, "card-910b-2", "chip1-node2"), ["card-910b-2"]),
    (HardwareSignals(NPU, schedule_policy="chip8-node8-ra64-sp"), ["950-super-pod"]),
    # an unknown policy is ignored: the node selectors decide
    (HardwareSignals(A910, "module-910b-16", "chip9-node9"), ["module-910b-16"]),
    # sp-block: the super-pod profile the accelerator-type names, else the default one
    (HardwareSignals(A910, "module-a3-8-super-pod", sp_block=True), ["module-a3-8-super-pod"]),
    (HardwareSignals(A910, "module-910b-8", sp_block=True), ["module-a3-16-super-pod"]),
    (HardwareSignals(A910, sp_block=True), ["module-a3-16-super-pod"]),
    # the accelerator-type node selector; an unknown one has no handler
    (HardwareSignals(A910, "module-910b-16"), ["module-910b-16"]),
    (HardwareSignals(A910, "module-910B-16"), []),
    # nothing said: the old Atlas 800 (910) rules
    (HardwareSignals(A910), ["module-910"]),
    # huawei.com/npu has no handler without a schedule policy, even with a node selector
    (HardwareSignals(NPU), []),
    (HardwareSignals(NPU, "950-SuperPod-Atlas-8"), []),
    # 310P and 310 select their handler by job labels: accelerator-type plays no part
    (HardwareSignals(A310P), ["310p"]),
    (HardwareSignals(A310P, "module-910b-8"), ["310p"]),
    (HardwareSignals(A310), ["310"]),
    # no NPUs, no profile
    (HardwareSignals(None, "module-910b-8"), []),
])
def test_candidates(signals, expected):
    assert [p.name for p in candidate_profiles(REGISTRY.all(), signals)] == expected


@pytest.mark.parametrize("profile", [p.name for p in REGISTRY.all()])
def test_every_profile_reaches_its_own_handler_in_every_dialect(profile):
    found = REGISTRY.require(profile)
    for dialect in found.dialects:
        for sp_block in ((False, True) if found.super_pod else (False,)):
            names = [p.name for p in candidate_profiles(REGISTRY.all(), signals_of_profile(found, dialect, sp_block))]
            assert profile in names, (dialect, sp_block, names)


def test_compile_refuses_a_profile_whose_jobs_the_scheduler_would_give_another_handler(tmp_path):
    (tmp_path / "lab.yaml").write_text(textwrap.dedent("""\
        apiVersion: ascend-compile.io/v1alpha1
        kind: HardwareProfile
        metadata: {name: lab-910b}
        spec:
          chip: Ascend910B
          resource: huawei.com/Ascend910
          ringController: ascend-910b
          dialects: [nodeSelector]
          npusPerNode: 8
          npusPerPod: {singlePod: [1, 2, 4, 8], multiPod: [8]}
        """))
    spec = ascend_compile.JobSpec(name="lab", framework="pytorch", profile="lab-910b", npus=8, image="x/y:1")
    with pytest.raises(CompileError) as caught:
        ascend_compile.compile_spec(spec, profile_dirs=[tmp_path])
    [finding] = caught.value.findings
    assert finding.rule == "AC022" and "would be scheduled by the rules of module-910" in finding.message


def test_a_shared_policy_narrowed_by_its_node_selector_gets_that_profiles_ring_controller():
    # before, the first profile with the policy (card-910, ascend-910) was taken, and AC215 flagged a correct label
    job = ascend_compile.compile_spec(ascend_compile.JobSpec(
        name="cards", framework="pytorch", profile="card-910b-2", npus=2, image="x/y:1", scheduling="schedulePolicy"))
    manifest = job[-1]
    for replica in manifest["spec"]["replicaSpecs"].values():
        replica["template"]["spec"].setdefault("nodeSelector", {})["accelerator-type"] = "card-910b-2"
    assert manifest["metadata"]["annotations"]["huawei.com/schedule_policy"] == "chip1-node2"
    assert [f.rule for f in lint_objects([manifest], REGISTRY) if f.rule == "AC215"] == []


@pytest.mark.parametrize("signals,profiles,own_nodes", [
    # the node selector names the policy's own profile: its rules on its own nodes
    (HardwareSignals(A910, "module-910b-8", "chip8-node8"), ["module-910b-8"], False),
    # a policy and no accelerator-type: any node the card handler takes, so the widest rules of all it serves
    (HardwareSignals(A910, schedule_policy="chip1-node2"), ["card-910", "card-910b-2", "card-910b-infer"], True),
    # no policy, one accelerator-type: that profile's rules
    (HardwareSignals(A910, "module-910b-16"), ["module-910b-16"], False),
    # no handler: no rules
    (HardwareSignals(NPU), [], False),
])
def test_per_pod_rules_are_the_handlers(signals, profiles, own_nodes):
    every = REGISTRY.all()
    rules, own = per_pod_rules(every, candidate_profiles(every, signals), signals)
    assert [p.name for p in rules] == profiles and own is own_nodes


def test_only_the_default_handler_names_no_hardware():
    every = REGISTRY.all()
    unnamed = HardwareSignals(A910)
    named = HardwareSignals(A910, "module-910b-8")
    assert hardware_unnamed(candidate_profiles(every, unnamed), unnamed)
    assert not hardware_unnamed(candidate_profiles(every, named), named)
    assert not hardware_unnamed((), HardwareSignals(NPU))
