"""``lint --fix`` fixes only into jobs upstream accepts: each defect lint can fix mechanically is written into
the module-910b-8 goldens (as a legacy repository would have it), ``lint --fix`` fixes the files, and every
fixed job runs on the simulated cluster; the Volcano Job that had no ``ring-controller.atlas`` label gets its
ranktable written by ascend-operator once --fix labelled it.  All cases share one oracle run."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.simcluster import jobs
from tests.simcluster.oracle import Verdict, judge_manifests

GOLDEN = ROOT / "golden" / "matrix"
VC, AC = "pytorch-module-910b-8-vcjob", "pytorch-module-910b-8-acjob"
FIXED_RULES = {"AC701", "AC213", "AC601", "AC215"}
AC_LIMITS = "              limits:\n                huawei.com/Ascend910: 8\n"
AC_PORT = "            - containerPort: 2222\n              name: ascendjob-port\n"
VC_RESOURCES = ("          resources:\n            limits:\n              huawei.com/Ascend910: 8\n"
                "            requests:\n              huawei.com/Ascend910: 8\n")
RING = "ring-controller.atlas: ascend-910b\n"


def _drop_limits(text: str) -> str:
    return text.replace(AC_LIMITS, "")  # Master and Worker: requests only


def _flow_requests(text: str) -> str:
    return text.replace(VC_RESOURCES, "          resources: {requests: {huawei.com/Ascend910: 8}}\n")


def _rename_port(text: str) -> str:
    return text.replace(AC_PORT, "            - containerPort: 29500\n              name: master\n", 1)  # Master


def _other_annotation(text: str) -> str:
    return text.replace("metadata.annotations['huawei.com/Ascend910']", "metadata.annotations['huawei.com/npu']")


def _no_ring_label(text: str) -> str:
    return text.replace(f"force\n    {RING}", "force\n", 1).replace(f"          {RING}", "")  # the job's and the pods'


def _all_of(*changes: Callable[[str], str]) -> Callable[[str], str]:
    def change(text: str) -> str:
        for one in changes:
            text = one(text)
        return text
    return change


#: case -> (golden, the defects written into it, the rules lint reports for them before --fix)
CASES: Dict[str, Tuple[str, Callable[[str], str], set]] = {
    "ac-npu-limits-missing": (AC, _drop_limits, {"AC701"}),
    "vc-npu-limit-missing-flow": (VC, _flow_requests, {"AC701"}),
    "ac-leader-port-renamed": (AC, _rename_port, {"AC213"}),
    "vc-visible-devices-other-resource": (VC, _other_annotation, {"AC601"}),
    "vc-no-ring-controller-label": (VC, _no_ring_label, {"AC215"}),
    "ac-all-at-once": (AC, _all_of(_drop_limits, _rename_port, _other_annotation), {"AC701", "AC213", "AC601"}),
}


def _lint(folder: Path, *args: str) -> List[Dict[str, str]]:
    result = run_cli("lint", str(folder), "--no-cache", "--format", "json", *args)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)["findings"]


@pytest.fixture(scope="module")
def fixed(tmp_path_factory) -> Path:
    """One folder per case, its file fixed by ``lint --fix`` (each defect checked to be there first)."""
    root = tmp_path_factory.mktemp("autofix")
    for case, (golden, change, rules) in CASES.items():
        folder = root / case
        folder.mkdir()
        text = (GOLDEN / f"{golden}.yaml").read_text(encoding="utf-8")
        broken = change(text)
        assert broken != text, case
        (folder / "job.yaml").write_text(broken, encoding="utf-8")
        assert {f["rule"] for f in _lint(folder)} & FIXED_RULES == rules, case
        _lint(folder, "--fix")
    return root


def test_after_fix_lint_finds_nothing_fixable(fixed: Path) -> None:
    for case in CASES:
        assert [f for f in _lint(fixed / case) if f["severity"] in ("error", "warning")] == [], case


@pytest.fixture(scope="module")
def verdicts(fixed: Path, sim) -> Dict[str, Verdict]:
    manifests = {case: [d for d in yaml.safe_load_all((fixed / case / "job.yaml").read_text()) if d]
                 for case in CASES}
    return {v.case: v for v in judge_manifests(manifests, sim=sim, round_timeout=60)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_upstream_runs_the_fixed_job(verdicts: Dict[str, Verdict], case: str) -> None:
    assert verdicts[case].outcome == "running", verdicts[case].line()


def test_the_labelled_volcano_job_gets_its_ranktable(verdicts: Dict[str, Verdict], sim) -> None:
    verdict = verdicts["vc-no-ring-controller-label"]

    def completed():
        config_map = jobs.get_json(sim, "configmap", f"rings-config-{verdict.name}", "-n", verdict.sim_namespace)
        table = json.loads(config_map["data"]["hccl.json"])
        return table if table.get("status") == "completed" else None

    table = jobs.wait_for(completed, timeout=60, what="the ranktable of the job --fix labelled", sim=sim)
    assert int(table["server_count"]) == 2
