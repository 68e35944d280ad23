"""An AscendJob whose ascend container gives its NPUs in limits only runs, without the framework's rank env.

Kubernetes copies a pod's limits into its requests, so the pods are valid and scheduled. But ascend-operator
builds them from the AscendJob's templates, where requests are empty: it counts no NPUs and sets neither
the PyTorch rank env (MASTER_ADDR, RANK, WORLD_SIZE, ...) nor ASCEND_VISIBLE_DEVICES. Lint warns (AC701).
The same job with requests gets them.
"""
from __future__ import annotations

from typing import Any, Dict, List

from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for

NAMESPACE = "limits-only"
RANK_ENV = ("MASTER_ADDR", "RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "ASCEND_VISIBLE_DEVICES")


def _job(name: str, limits_only: bool) -> List[Dict[str, Any]]:
    """Two pods of 8 NPUs; the templates leave ASCEND_VISIBLE_DEVICES to the operator (it sets it from requests)."""
    objects = jobs.operator_env_job(name, NAMESPACE)
    for replica in jobs.ascend_job(objects)["spec"]["replicaSpecs"].values():
        for container in replica["template"]["spec"]["containers"]:
            if limits_only:
                resources = container.get("resources", {})
                requests = {k: v for k, v in resources.get("requests", {}).items() if not k.startswith("huawei.com/")}
                if requests:
                    resources["requests"] = requests
                else:
                    resources.pop("requests", None)
    return objects


def test_limits_only_pods_run_without_the_rank_env(sim):
    from ascend_compile.lint.oneshot import lint_objects

    jobs.create_namespace(sim, NAMESPACE)
    try:
        full, bare = _job("with-requests", False), _job("limits-only", True)
        assert not [f for f in lint_objects(full) if f.rule == "AC701"]
        warned = [f for f in lint_objects(bare) if f.rule == "AC701"]
        assert warned and all(f.severity == "warning" for f in warned), warned
        assert not [f for f in lint_objects(bare) if f.severity == "error"]
        sim.apply_objects(full + bare)

        def running(name: str):
            pods = jobs.pods_of(sim, NAMESPACE, "AscendJob", name)
            return pods if len(pods) == 2 and all(p["status"].get("phase") == "Running" for p in pods) else None

        for name, expect_env in (("with-requests", True), ("limits-only", False)):
            pods = wait_for(lambda: running(name), timeout=180, what=f"2 running pods of {name}", sim=sim,
                            last=lambda: jobs.describe_namespace(sim, NAMESPACE))
            for pod in pods:
                env = jobs.ascend_env(pod)
                present = [key for key in RANK_ENV if key in env]
                assert present == (list(RANK_ENV) if expect_env else []), (name, sorted(env))
                limits = next(c for c in pod["spec"]["containers"] if c["name"] == "ascend")["resources"]
                assert limits["requests"]["huawei.com/Ascend910"] == "8", limits  # Kubernetes filled them in
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
