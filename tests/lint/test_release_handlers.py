"""The scheduler plugin's handler choice and NPU arithmetic per MindCluster release (releases.py FACTS "handlers,
policies, NPU counts"): for each fact, a job whose verdict differs between the spans, linted with each release as
the target, and without a target (the newest release, with a note on the others where the finding says so)."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import pytest

from ascend_compile import releases

from .conftest import lint_text

#: each supported release, oldest first
R6, R70, R73, R260, R261 = releases.RELEASES


def vcjob(tasks: Sequence[Tuple[int, int]], selector: Optional[str] = None, annotations: str = "",
          ring: Optional[str] = "ascend-910b", resource: str = "huawei.com/Ascend910", pod_annotations: str = "",
          selectors: Sequence[Optional[str]] = ()) -> str:
    """A Volcano Job of ``tasks`` (replicas, NPUs per pod), every pod selecting ``selector`` (or, per task,
    ``selectors``), with job ``annotations`` and pod-template ``pod_annotations`` (YAML flow-mapping content)."""
    labels = f"  labels: {{ring-controller.atlas: {ring}}}\n" if ring else ""
    notes = f"  annotations: {{{annotations}}}\n" if annotations else ""
    out = ("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: j\n" + labels + notes +
           f"spec:\n  schedulerName: volcano\n  minAvailable: {sum(r for r, _ in tasks)}\n  tasks:\n")
    for i, (replicas, npus) in enumerate(tasks):
        chosen = selectors[i] if selectors else selector
        meta = f"      metadata:\n        annotations: {{{pod_annotations}}}\n" if pod_annotations else ""
        select = f"        nodeSelector: {{accelerator-type: {chosen}}}\n" if chosen else ""
        out += (f"  - name: t{i}\n    replicas: {replicas}\n    template:\n" + meta + "      spec:\n" + select +
                "        containers:\n        - name: train\n          image: x/y:1\n"
                f"          resources:\n            requests: {{{resource}: {npus}}}\n"
                f"            limits: {{{resource}: {npus}}}\n")
    return out


def judged(text: str, release: Optional[str]) -> Dict[str, List[Tuple[str, str]]]:
    """rule -> [(severity, message)] of a lint for ``release`` (None: no target given)."""
    target = releases.Target(release, True, f"--mindcluster {release}") if release else None
    out: Dict[str, List[Tuple[str, str]]] = {}
    for finding in lint_text(text, "j.yaml", **({"target": target} if target else {})):
        out.setdefault(finding.rule, []).append((finding.severity, finding.message))
    return out


def severities(text: str, release: Optional[str], rule: str) -> List[str]:
    return sorted(severity for severity, _ in judged(text, release).get(rule, []))


INCIDENT = vcjob([(1, 8)], annotations="")  # no accelerator-type, labelled ascend-910b (a 910B job)
ATLAS_800 = vcjob([(1, 8)], ring="ascend-910")


@pytest.mark.parametrize("release, expected", [(R6, ["error"]), (R70, ["error"]), (R73, ["error"]),
                                               (R260, ["error"]), (R261, ["warning"])])
def test_module_handler_refuses_typed_nodes_up_to_26_0_1(release, expected):
    """The incident: a 910B job naming no accelerator-type gets the Atlas 800 handler, which refuses every node whose
    accelerator-type is not module up to v26.0.1 (error: it never lands on the 910B nodes); v26.1.0 places it
    anywhere (warning: maybe not on the servers it is for)."""
    assert severities(INCIDENT, release, "AC305") == expected
    if release != R261:
        assert "label [accelerator-type] Failed" in judged(INCIDENT, release)["AC305"][0][1]


def test_the_incident_without_a_target_says_which_releases_refuse():
    [(severity, message)] = judged(INCIDENT, None)["AC305"]
    assert severity == "warning" and "on MindCluster v6.0.0-v26.0.1 " in message and "--mindcluster" in message
    [(severity, message)] = judged(ATLAS_800, None)["AC305"]
    assert severity == "info" and "on MindCluster v6.0.0-v26.0.1 " in message


@pytest.mark.parametrize("release, expected", [(R6, ["info"]), (R260, ["info"]), (R261, [])])
def test_an_atlas_800_job_is_noted_only_where_its_handler_takes_module_nodes_only(release, expected):
    assert severities(ATLAS_800, release, "AC305") == expected
    assert severities(vcjob([(1, 8)], "module-910b-8"), release, "AC305") == []  # naming the nodes passes


@pytest.mark.parametrize("release, count_errors, ignored", [(R6, 1, True), (R70, 1, True), (R73, 0, False),
                                                            (R260, 0, False), (R261, 0, False)])
def test_schedule_policy_is_read_from_7_3_2(release, count_errors, ignored):
    """chip8-node8 without a selector: ignored up to v7.0.RC1 (the Atlas 800 rules refuse 6 per pod), the 910B
    handler from v7.3.2 (1-8 per pod)."""
    job = vcjob([(2, 6)], annotations="huawei.com/schedule_policy: chip8-node8")
    found = judged(job, release)
    assert len([s for s, _ in found.get("AC301", []) if s == "error"]) == count_errors
    assert ("warning" in [s for s, _ in found.get("AC307", [])]) == ignored
    assert "AC301" not in judged(job.replace(": 6}", ": 8}"), release)  # 8 per pod fits both handlers


def test_an_ignored_policy_is_noted_without_a_target():
    job = vcjob([(2, 6)], annotations="huawei.com/schedule_policy: chip8-node8")
    [(severity, message)] = judged(job, None)["AC307"]
    assert severity == "info" and "on MindCluster v6.0.0-v7.0.RC1 " in message


@pytest.mark.parametrize("policy, release, refused", [
    ("chip4-node8", R73, True),  # v7.3.2: the Atlas 800 module handler, 1/2/4/8
    ("chip2-node8", R73, True),  # not in v7.3.2's map: ignored, the default Atlas 800 handler
    ("chip2-node8", R260, False),  # from v26.0.1: the A3 handler, even counts
    ("chip2-node8", R261, False)])
def test_the_policy_map_per_release(policy, release, refused):
    job = vcjob([(2, 6)], annotations=f"huawei.com/schedule_policy: {policy}")
    assert ("AC301" in judged(job, release)) == refused


@pytest.mark.parametrize("release, unchecked", [(R70, True), (R73, False), (R261, False)])
def test_a_pod_templates_sp_block_is_read_from_7_3_2(release, unchecked):
    """sp-block on the pod template only: up to v7.0.RC1 the plugin reads the PodGroup's annotations only, and the
    super-pod accelerator-type alone names no handler there."""
    job = vcjob([(2, 16)], "module-a3-16-super-pod", pod_annotations='sp-block: "32"')
    assert ("warning" in severities(job, release, "AC306")) == unchecked
    on_job = vcjob([(2, 16)], "module-a3-16-super-pod", annotations='sp-block: "32"')
    assert severities(on_job, release, "AC306") == []


@pytest.mark.parametrize("release, absent, count_refused", [(R6, ["error"], False), (R70, [], True),
                                                            (R73, [], False), (R261, [], False)])
def test_a3_server_handler_per_release(release, absent, count_refused):
    """module-a3-16, 2 pods x 8: no handler on v6.0.0 (an error: beside a job waiting for nodes it crashes the
    scheduler), exactly 16 per pod on v7.0.RC1, even <= 16 after."""
    job = vcjob([(2, 8)], "module-a3-16")
    found = judged(job, release)
    assert sorted(s for s, _ in found.get("AC306", [])) == absent
    assert ("AC301" in found) == count_refused
    assert "AC301" not in judged(vcjob([(2, 16)], "module-a3-16"), release)


@pytest.mark.parametrize("release, refused", [(R73, True), (R260, False), (R261, False)])
def test_the_x8_super_pod_handler_exists_from_26_0_1(release, refused):
    """module-a3-8-super-pod with sp-block: before v26.0.1 the only super-pod handler is the x16 one (16 per pod)."""
    job = vcjob([(2, 8)], "module-a3-8-super-pod", annotations='sp-block: "16"')
    assert ("AC301" in judged(job, release)) == refused


@pytest.mark.parametrize("release, expected", [(R6, ["error"]), (R70, ["warning"]), (R73, []), (R261, [])])
def test_super_pod_without_sp_block_from_7_3_2(release, expected):
    """No handler up to v7.0.RC1: unchecked on v7.0.RC1 (a warning), a scheduler crash beside a waiting job on
    v6.0.0 (an error)."""
    job = vcjob([(2, 16)], "module-a3-16-super-pod")
    assert severities(job, release, "AC306") == expected


def test_super_pod_without_sp_block_is_noted_without_a_target():
    [(severity, message)] = judged(vcjob([(2, 16)], "module-a3-16-super-pod"), None)["AC306"]
    assert severity == "info" and "on MindCluster v6.0.0-v7.0.RC1 " in message


@pytest.mark.parametrize("release, refused", [(R6, True), (R70, True), (R73, False), (R261, False)])
def test_card_handler_takes_2_up_to_7_0_rc1_then_8(release, refused):
    job = vcjob([(1, 4)], "card-910b-infer")
    found = judged(job, release)
    assert ("AC301" in found) == refused
    assert ("AC317" in found) == refused  # and refuses the 8-NPU nodes themselves
    assert "AC301" not in judged(vcjob([(1, 2)], "card-910b-infer"), release)


@pytest.mark.parametrize("release, uneven_refused, odd_refused", [(R6, True, False), (R70, True, False),
                                                                  (R73, False, True), (R261, False, True)])
def test_average_per_pod_up_to_7_0_rc1(release, uneven_refused, odd_refused):
    """Up to v7.0.RC1 the handler checks total / pods: half with pods of 2 and 4 averages 3 (refused); Atlas 800
    pods of 1 and 3 average 2 (taken), where v7.3.2 checks each pod (3 is refused)."""
    assert ("AC301" in judged(vcjob([(1, 2), (1, 4)], "half"), release)) == uneven_refused
    assert ("AC301" in judged(vcjob([(1, 1), (1, 3)], "module", ring="ascend-910"), release)) == odd_refused


@pytest.mark.parametrize("ring, release, refused", [(None, R6, True), ("ascend-910", R6, True),
                                                    ("ascend-910b", R6, False), (None, R70, False)])
def test_910b_handlers_need_ring_controller_910b_on_6_0_0(ring, release, refused):
    job = vcjob([(1, 8)], "module-910b-8", ring=ring)
    assert ("error" in severities(job, release, "AC215")) == refused


@pytest.mark.parametrize("release, severity", [(R260, "warning"), (R261, "error")])
def test_a_job_without_a_handler_is_refused_from_26_1_0(release, severity):
    npu = vcjob([(1, 8)], resource="huawei.com/npu", ring=None)
    assert severities(npu, release, "AC307") == [severity]
    joined = vcjob([(1, 8), (1, 8)], selectors=["module-910b-8", "module-910b-16"])
    assert severities(joined, release, "AC306") == [severity]
    fine = vcjob([(1, 8)], resource="huawei.com/npu", ring=None,
                 annotations="huawei.com/schedule_policy: chip8-node8-ra64-sp")
    assert "AC307" not in judged(fine, release)


def test_no_handler_without_a_target_says_which_releases_pass_it_unchecked():
    [(severity, message)] = judged(vcjob([(1, 8)], resource="huawei.com/npu", ring=None), None)["AC307"]
    assert severity == "error" and "on MindCluster v6.0.0-v26.0.1 " in message


JOINED = vcjob([(1, 8), (1, 8)], selectors=["module-910b-8", "module-910b-16"])
#: what AC306 said of a job without a handler on every release that passes it, before v6.0.0's crash was known
UNCHECKED = "passes it with no NPU checks (no per-pod rules, no node checks, no NPU annotation)"


@pytest.mark.parametrize("release", releases.RELEASES)
def test_a_job_without_a_handler_errs_on_v6_0_0_where_it_crashes_the_scheduler(release):
    """Fact no-handler-crashes-scheduler (tests/simcluster/test_no_handler_crash.py): on v6.0.0 the joined selector is
    an error saying the job runs alone unchecked but crashes vc-scheduler beside a job waiting for nodes; v7.0.RC1 to
    v26.0.1 warn as before (unchecked, nothing about a crash), v26.1.0 refuses it."""
    [(severity, message)] = judged(JOINED, release)["AC306"]
    crashes = releases.value("no-handler-crashes-scheduler", release)
    assert crashes is (release == R6)
    if crashes:
        assert severity == "error"
        assert f"MindCluster {release} {UNCHECKED} when it is alone, but beside another huawei.com/Ascend910 job " \
               "waiting for nodes it crashes vc-scheduler" in message
    elif releases.value("no-handler-refused", release):
        assert (severity, message.endswith("and refuses the job (NotSupportPolicy)")) == ("error", True)
    else:
        assert (severity, message.endswith(f"; MindCluster {release} {UNCHECKED}")) == ("warning", True)


def test_without_a_target_the_note_on_older_releases_names_v6_0_0s_crash_for_ascend910_jobs_only():
    [(severity, message)] = judged(JOINED, None)["AC306"]
    assert severity == "error" and f"on MindCluster v6.0.0-v26.0.1 {UNCHECKED}; on v6.0.0, beside another " \
                                   "huawei.com/Ascend910 job waiting for nodes it crashes vc-scheduler" in message
    # v6.0.0's plugin takes no huawei.com/npu job in: such a job only runs unchecked there
    [(severity, message)] = judged(vcjob([(1, 8)], resource="huawei.com/npu", ring=None), None)["AC307"]
    assert severity == "error" and "crashes" not in message
    assert severities(vcjob([(1, 8)], resource="huawei.com/npu", ring=None), R6, "AC307") == ["warning"]
