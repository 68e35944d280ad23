"""A job whose pod group starts with fewer than all its pods (minAvailable, issue 35): ``why``'s node fit, like the
cluster-aware lint (tests/lint/cases/AC906-/AC907-cluster-gang-min-available.yaml), asks the nodes for what the
scheduler needs to start the gang, not for every pod."""
from __future__ import annotations

from typing import Any, Optional

from ascend_compile.inventory.model import Node
from ascend_compile.kube.fit import FITS, TOO_FEW, node_fit
from ascend_compile.kube.jobs import JobState
from ascend_compile.kube.jobview import JobView, replicas_of
from ascend_compile.manifest.job import Manifest

NODES = [Node(f"n{i}", {"accelerator-type": "module-910b-8"}, {"huawei.com/Ascend910": 8}, {}, True, False)
         for i in range(3)]


def _view(min_available: Optional[int]) -> JobView:
    template = {"spec": {"nodeSelector": {"accelerator-type": "module-910b-8"}, "containers": [
        {"name": "c", "resources": {"requests": {"huawei.com/Ascend910": 8}, "limits": {"huawei.com/Ascend910": 8}}}]}}
    policy: Any = {"queue": "default", **({"minAvailable": min_available} if min_available is not None else {})}
    job = Manifest({"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob", "metadata": {"name": "j"},
                    "spec": {"runPolicy": {"schedulingPolicy": policy},
                             "replicaSpecs": {"Master": {"replicas": 1, "template": template},
                                              "Worker": {"replicas": 4, "template": template}}}})
    return JobView(JobState("AscendJob", "j", None, "Pending"), job.data, job, replicas_of(job), job.min_available(),
                   "default", nodes=NODES)


def test_every_pod_together_never_fits_three_nodes() -> None:
    [fit] = node_fit(_view(None))
    assert fit.verdict == TOO_FEW and "the job runs 5 together" in fit.line()


def test_a_smaller_gang_that_the_nodes_hold_is_not_too_few() -> None:
    [fit] = node_fit(_view(3))
    assert fit.verdict == FITS  # 3 of the 5 pods start the job; the others wait for room


def test_a_smaller_gang_still_too_large_says_what_the_pod_group_needs() -> None:
    [fit] = node_fit(_view(4))
    assert fit.verdict == TOO_FEW
    assert "the job's pod group needs 4 of its 5 pods together: it can never be placed" in fit.line()
