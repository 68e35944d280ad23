"""Hints are safe: doing what a mechanical hint says clears the finding and adds no error.

Each case is a job with one defect; the fix applied is the one the finding's hint spells out (parsed from
the hint, not written here), and the fixed job must lint without that rule's finding and without any new
error.  (The differential run checks the same against the simulated cluster.)
"""
from __future__ import annotations

import re

import pytest
import yaml

from .conftest import lint_text
from .test_false_positive_facts import ACJOB

#: the clean job: the false-positive tests' AscendJob on an 8-NPU module server, with a schedule policy, a
#: scheduler name, minAvailable and a quoted env value for the cases to break
JOB = ACJOB.replace("ring-controller.atlas: ascend-910}", "ring-controller.atlas: ascend-910b}\n"
                    "  annotations: {huawei.com/schedule_policy: chip8-node8}").replace(
    "spec:\n  runPolicy:\n    schedulingPolicy: {queue: default}",
    "spec:\n  schedulerName: volcano\n  runPolicy:\n    schedulingPolicy: {minAvailable: 2, queue: default}").replace(
    "            image: torch:2.1\n", "            image: torch:2.1\n            env: [{name: GLOG_V, value: \"1\"}]\n", 1)


def _errors(text):
    return sorted({f.rule for f in lint_text(text, "hint.yaml") if f.severity == "error"})


def _finding(text, rule):
    found = [f for f in lint_text(text, "hint.yaml") if f.rule == rule]
    assert found, f"{rule} not reported"
    return found[0]


def _npu_count(text, hint):
    count = re.search(r"request one of (\d+)", hint).group(1)
    return text.replace("huawei.com/Ascend910: 9", f"huawei.com/Ascend910: {count}")


def _policy(text, hint):
    return text.replace("chip8-node08", re.search(r"did you mean '([^']+)'", hint).group(1))


def _quote(text, hint):
    return text.replace("value: 1}", "value: " + re.search(r"quote it: (\S+)", hint).group(1) + "}")


def _scheduler(text, hint):
    assert "schedulerName: volcano" in hint
    return text.replace("schedulerName: default-scheduler", "schedulerName: volcano")


def _min_available(text, hint):
    assert "the number of pods" in hint
    return text.replace("minAvailable: 3", "minAvailable: 2")


#: case -> (the defect, as a replacement of the clean job's text; the rule; applying the hint)
CASES = {
    "npu-count": (("huawei.com/Ascend910: 8", "huawei.com/Ascend910: 9"), "AC301", _npu_count),
    "schedule-policy": (("schedule_policy: chip8-node8}", "schedule_policy: chip8-node08}"), "AC307", _policy),
    "integer-env": (('value: "1"}', "value: 1}"), "AC102", _quote),
    "scheduler-name": (("schedulerName: volcano", "schedulerName: default-scheduler"), "AC409", _scheduler),
    "min-available": (("minAvailable: 2", "minAvailable: 3"), "AC216", _min_available),
}


def test_the_clean_job_is_clean():
    assert _errors(JOB) == []


@pytest.mark.parametrize("case", sorted(CASES))
def test_following_the_hint_fixes_the_job(case):
    (old, new), rule, apply = CASES[case]
    broken = JOB.replace(old, new)
    finding = _finding(broken, rule)
    fixed = apply(broken, finding.hint or "")
    assert fixed != broken
    yaml.safe_load(fixed)
    # (a run without a target may note what older releases do: info, not what the hint is about)
    assert [f for f in lint_text(fixed, "hint.yaml") if f.rule == rule and f.severity != "info"] == []
    assert _errors(fixed) == []


def test_a_count_hint_offers_only_counts_every_candidate_accepts(tmp_path):
    """With a policy and nodes two profiles share, the hint's counts are allowed on both."""
    from ascend_compile.hardware.profiles import ProfileRegistry

    from .test_false_positive_facts import POLICY_JOB, _profile_dir

    registry = ProfileRegistry([_profile_dir(tmp_path, [1, 2, 8], accelerator_type="card-910b-2")])
    job = POLICY_JOB.replace(": 9}", ": 3}").replace(
        "        spec:\n", "        spec:\n          nodeSelector: {accelerator-type: card-910b-2}\n")
    finding = next(f for f in lint_text(job, "j.yaml", registry=registry) if f.rule == "AC301")
    assert "request one of 1, 2 NPUs per pod" in finding.hint, finding.hint  # multiPod [1, 2] on card-910*
