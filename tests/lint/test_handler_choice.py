"""NPU counts checked against the handler the plugin really picks and the nodes each pod really lands on.

Each case is one the simulated cluster judged (docs/fidelity.md, the mutation named in the test): the
plugin picks the job's handler from the schedule_policy annotation, else sp-block, else the job selector,
which joins the differing accelerator-types of the pod templates with ``|`` (``getJobSelectorFromVcJob`` in
``ascend-for-volcano/plugin/job.go``; one containing ``card`` gets the card handler, ``factory.go``
get910CardHandlerName), while each pod is placed on the nodes its own selector names.
"""
from __future__ import annotations

import pytest

from ascend_compile.hardware.profiles import ProfileRegistry
from ascend_compile.hardware.targeting import HardwareSignals, candidate_profiles

from .conftest import lint_text

A910, A310P = "huawei.com/Ascend910", "huawei.com/Ascend310P"


def _replica(name, npus, selector=None, resource=A910, replicas=1):
    select = f"          nodeSelector: {{accelerator-type: {selector}}}\n" if selector else ""
    amounts = f"{{{resource}: {npus}}}"
    resources = f"            resources:\n              requests: {amounts}\n              limits: {amounts}\n" \
        if npus is not None else ""
    return (f"    {name}:\n      replicas: {replicas}\n      template:\n        spec:\n{select}"
            f"          containers:\n          - name: ascend\n            image: x/y:1\n{resources}")


def _job(*replicas, framework="pytorch", annotations=""):
    notes = f"  annotations: {{{annotations}}}\n" if annotations else ""
    return (f"apiVersion: mindxdl.gitee.com/v1\nkind: AscendJob\nmetadata:\n  name: h\n"
            f"  labels: {{framework: {framework}, ring-controller.atlas: ascend-910b}}\n{notes}"
            "spec:\n  runPolicy:\n    schedulingPolicy: {queue: default}\n  replicaSpecs:\n" + "".join(replicas))


def _errors(text, rule=None):
    return [f"{f.rule} {f.message}" for f in lint_text(text, "h.yaml")
            if f.severity == "error" and (rule is None or f.rule == rule)]


@pytest.mark.parametrize("signals,expected", [
    # one template on card nodes: the joined selector contains card, so the card handler takes the job
    (HardwareSignals(A910, "card", accelerator_types=("card", "module-910b-8")),
     ["card-910", "card-910b-2", "card-910b-infer"]),
    # no card among them: the plugin has no handler named after the joined value
    (HardwareSignals(A910, "module", accelerator_types=("module", "module-910b-8")), []),
    # sp-block: the joined value never names the x8 super pod, so the default (x16) handler
    (HardwareSignals(A910, "card", sp_block=True, accelerator_types=("card", "module-a3-8-super-pod")),
     ["module-a3-16-super-pod"]),
    # a policy with another profile's nodes: both are candidates
    (HardwareSignals(A910, "card-910b-infer", "chip1-node2"), ["card-910", "card-910b-2", "card-910b-infer"]),
])
def test_the_handler_of_a_job_whose_templates_select_different_servers(signals, expected):
    assert [p.name for p in candidate_profiles(ProfileRegistry().all(), signals)] == expected


def test_one_npu_per_pod_in_a_distributed_card_job_is_not_an_error():
    """npu-one-per-pod on card-910 / card-910b-2 ran: the card handler (base ValidNPUJob) takes 1..8 per pod."""
    job = _job(_replica("Master", 1, "card-910b-2"), _replica("Worker", 1, "card-910b-2"))
    assert _errors(job) == []
    assert _errors(job.replace(": 1}", ": 3}"), "AC301")  # a node has 2


def test_a_leader_on_card_nodes_without_npus_leaves_the_workers_on_their_own_nodes():
    """accel-one-replica: the MindSpore Scheduler selecting card, Workers 8 on module-910b-8, ran."""
    job = _job(_replica("Scheduler", None, "card"), _replica("Worker", 8, "module-910b-8", replicas=2),
               framework="mindspore")
    assert _errors(job, "AC301") == []


def test_a_pod_that_does_not_fit_the_nodes_it_selects_is_an_error():
    """accel-one-replica: Master 8 on card nodes (2 NPUs each), Worker on card-910b-infer: never fits."""
    job = _job(_replica("Master", 8, "card"), _replica("Worker", 8, "card-910b-infer"))
    [error] = _errors(job, "AC301")
    assert "Master" in error and "never fit" in error and "card-910: 2 NPUs per node" in error


def test_the_card_handler_refuses_more_than_8_wherever_the_pod_goes():
    """accel-one-replica: Chief 16 on card nodes, Worker 16 on module-a3-16: "req npu num should small than 8"."""
    job = _job(_replica("Chief", 16, "card"), _replica("Worker", 16, "module-a3-16"), framework="tensorflow")
    errors = _errors(job, "AC301")
    assert len(errors) == 2 and all("handler" in e for e in errors)


def test_a_policy_with_another_profiles_nodes_is_checked_against_the_policy_handler_and_those_nodes():
    """policy-other: chip1-node2 with 3 NPUs on card-910b-infer nodes ran; with 16 on module-a3-16 it was refused."""
    runs = _job(_replica("Master", 3, "card-910b-infer"), annotations="huawei.com/schedule_policy: chip1-node2")
    assert _errors(runs, "AC301") == []
    refused = _job(_replica("Master", 16, "module-a3-16"), _replica("Worker", 16, "module-a3-16"),
                   annotations="huawei.com/schedule_policy: chip1-node2")
    assert len(_errors(refused, "AC301")) == 2


def test_a_task_that_names_an_npu_resource_but_asks_for_none_is_refused():
    """npu-zero: InvalidResourceRequest on every handler; a MindSpore Scheduler may say 0 (the A3 handlers let it)."""
    job = _job(_replica("Master", 0, "module-910b-8"), _replica("Worker", 0, "module-910b-8"))
    assert len(_errors(job, "AC301")) == 2
    scheduler = _job(_replica("Scheduler", 0, "module-a3-16"), _replica("Worker", 16, "module-a3-16", replicas=2),
                     framework="mindspore")
    assert _errors(scheduler, "AC301") == []


def test_an_accelerator_type_no_node_carries_is_an_error_whatever_picks_the_handler():
    """accel-unknown on an sp-block job and on a 310P job: no node matched the selector, both stayed Pending."""
    sp_block = _job(_replica("Master", 16, "module-910b-9"), _replica("Worker", 16, "module-910b-9"),
                    annotations="sp-block: \"32\"")
    assert [e.split()[0] for e in _errors(sp_block, "AC306")] == ["AC306", "AC306"]
    duo = _job(_replica("Master", 2, "module-910b-9", resource=A310P))
    [error] = _errors(duo, "AC306")
    assert "never fit" in error


def test_vnpu_resources_on_a_chips_nodes_are_not_another_chip():
    """npu-resource reports only another profile's main resource: huawei.com/npu-core is served by 910 nodes."""
    job = _job(_replica("Master", 4, "module-910b-8", resource="huawei.com/npu-core"))
    assert _errors(job, "AC316") == []
    assert _errors(_job(_replica("Master", 1, "card", resource=A310P)), "AC316")


def test_templates_selecting_different_servers_without_card_get_no_handler():
    """The joined selector module-910b-8|module-910b-16 names no handler: NotSupportPolicy, never scheduled."""
    job = _job(_replica("Master", 8, "module-910b-8"), _replica("Worker", 8, "module-910b-16"))
    [error] = _errors(job, "AC306")
    assert "module-910b-8|module-910b-16" in error and "refuses" in error
    # a schedule policy picks the handler instead (multilevel too): no such finding
    for policy in ("chip8-node8", "multilevel"):
        with_policy = _job(_replica("Master", 8, "module-910b-8"), _replica("Worker", 8, "module-910b-16"),
                           annotations=f"huawei.com/schedule_policy: {policy}")
        assert _errors(with_policy, "AC306") == []
