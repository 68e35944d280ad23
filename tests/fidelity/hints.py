"""Hint safety: apply a finding's fix hint mechanically to a job upstream ran, and judge it again.

Only hints that say exactly what to write have an applier here (the rest need a
person's choice).  A hint that turns a running job into a rejected, failed or
never-scheduled one is a bug (docs/fidelity.md lists it as BUG).
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional

from tests.fidelity import shapes as s
from tests.fidelity.generator import Job
from tests.fidelity.parents import profiles
from tests.fidelity.verdicts import Result

Objects = List[Dict[str, Any]]
Applier = Callable[[Objects, Job], Optional[str]]
#: hints applied per rule at most (the first jobs, in job order)
PER_RULE = 6
CANONICAL_FRAMEWORK = {"pytorch": "PyTorch", "mindspore": "MindSpore", "tensorflow": "Tensorflow"}


def _port(objs: Objects, job: Job) -> Optional[str]:
    changed = 0
    for container in s.npu_containers(s.job_of(objs)) or list(s.containers(s.job_of(objs))):
        ports = container.setdefault("ports", [])
        if not any(p.get("name") == "ascendjob-port" for p in ports):
            ports.append({"name": "ascendjob-port", "containerPort": 2222})
            changed += 1
    return "added port ascendjob-port 2222" if changed else None


def _env(name: str, field_path: Optional[str] = None, value: Optional[str] = None) -> Dict[str, Any]:
    if field_path:
        return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": field_path}}}
    return {"name": name, "value": value}


def _add_env(objs: Objects, wanted: List[Dict[str, Any]]) -> Optional[str]:
    added = set()
    for container in s.npu_containers(s.job_of(objs)):
        env = container.setdefault("env", [])
        for item in wanted:
            if not any(e.get("name") == item["name"] for e in env):
                env.append(json.loads(json.dumps(item)))
                added.add(item["name"])
    return f"added env {', '.join(sorted(added))}" if added else None


def _ranktable_env(objs: Objects, job: Job) -> Optional[str]:
    return _add_env(objs, [_env("XDL_IP", "status.hostIP"), _env("POD_UID", "metadata.uid")])


def _hccl_if_ip(objs: Objects, job: Job) -> Optional[str]:
    return _add_env(objs, [_env("HCCL_IF_IP", "status.hostIP")])


def _framework_env(objs: Objects, job: Job) -> Optional[str]:
    framework = str(s.labels(s.job_of(objs)).get("framework", "")).lower()
    value = CANONICAL_FRAMEWORK.get(framework)
    if not value:
        return None
    for container in s.npu_containers(s.job_of(objs)):
        container["env"] = [e for e in container.get("env") or [] if e.get("name") != "framework"]
        container["env"].append(_env("framework", value=value))
    return f"set env framework={value}"


def _min_available(objs: Objects, job: Job) -> Optional[str]:
    target = s.job_of(objs)
    holder, key = s.min_available(target)
    holder[key] = s.total_pods(target)
    return f"set minAvailable {holder[key]}"


def _restart_never(objs: Objects, job: Job) -> Optional[str]:
    return "set restartPolicy Never" if s.set_restart_policy(s.job_of(objs), "Never") else None


def _ring_value(objs: Objects, job: Job) -> Optional[str]:
    profile = profiles().get(job.profile)
    if not profile:
        return None
    value = str(profile.raw["spec"]["ringController"])
    target = s.job_of(objs)
    for held in [s.labels(target)] + [s.labels(t) for t in s.pod_templates(target)]:
        held[s.RING_LABEL] = value
    return f"set ring-controller.atlas={value} on the job and its pods"


def _accelerator_type(objs: Objects, job: Job) -> Optional[str]:
    profile = profiles().get(job.profile)
    if not profile or not profile.accelerator_type:
        return None
    for template in s.pod_templates(s.job_of(objs)):
        spec = template.setdefault("spec", {})
        spec["nodeSelector"] = {**(spec.get("nodeSelector") or {}), s.ACCEL_LABEL: profile.accelerator_type}
    return f"added nodeSelector accelerator-type={profile.accelerator_type}"


def _whole_nodes(objs: Objects, job: Job) -> Optional[str]:
    profile = profiles().get(job.profile)
    if not profile:
        return None
    for container in s.npu_containers(s.job_of(objs)):
        s.set_npus(container, profile.npus_per_node)
    return f"set {profile.npus_per_node} NPUs per pod (a whole node)"


APPLIERS: Dict[str, Applier] = {
    "AC213": _port, "AC602": _ranktable_env, "AC603": _hccl_if_ip, "AC604": _framework_env,
    "AC401": _min_available, "AC214": _restart_never, "AC312": _restart_never, "AC215": _ring_value,
    "AC305": _accelerator_type, "AC303": _whole_nodes,
}


def hinted_jobs(jobs: List[Job], results: Dict[str, Result]) -> List[Job]:
    """One job per (running job, rule with an applier it was reported for), at most PER_RULE per rule."""
    out: List[Job] = []
    per_rule: Dict[str, int] = {}
    for job in jobs:
        result = results[job.id]
        if result.outcome != "running":
            continue
        for rule in sorted({f.rule for f in result.findings if f.rule in APPLIERS}):
            if per_rule.get(rule, 0) >= PER_RULE:
                continue
            objects = json.loads(json.dumps(job.objects))
            applied = APPLIERS[rule](objects, job)
            if applied:
                per_rule[rule] = per_rule.get(rule, 0) + 1
                out.append(Job(f"{job.id}+hint:{rule}", job.parent, job.source, job.profile,
                               f"{job.mutation}|{applied}", objects))
    return out


def _verdict(result: Result) -> str:
    if result.upstream_bad is None:
        return "inconclusive"
    if not result.upstream_bad:
        return "ok"
    if "0/0 tasks" in result.message:  # no pod ever created: the not-understood case of known.yaml
        return "BUG? (no pod was created, also when judged again on a new cluster)"
    return "BUG"


def verdicts(hinted: List[Job], results: Dict[str, Result]) -> List[Dict[str, str]]:
    rows = []
    for job in hinted:
        result = results[job.id]
        bad = result.upstream_bad
        rows.append({"job": job.id.split("+hint:")[0], "rule": job.id.split("+hint:")[1],
                     "applied": job.mutation.split("|", 1)[1], "outcome": result.upstream_text()[:160],
                     "verdict": _verdict(result)})
    return rows

