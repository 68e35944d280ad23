"""The job's replica types, and the settings a spec gives each one (``spec.replicaTypes``).

:func:`replica_layout` is the one place that decides which replica types a job has and how many NPUs their
pods request: PyTorch Master + Workers and TensorFlow Chief + Workers (the leader is itself an NPU pod),
MindSpore Scheduler (no NPUs, or NPUs with ``schedulerHoldsNpus``) + Workers; a MindSpore job with a single
NPU runs as one Worker, since the operator only accepts a Scheduler-less MindSpore job of one NPU
(``ascend-operator/pkg/controllers/v1/ascendjob_validate.go``).  A Volcano Job is one task of identical NPU
pods: its settings are ``Worker``'s.

:func:`replica_types` checks ``spec.replicaTypes`` against that layout and resolves each entry; ports and
restart policies are checked here for the shared settings too.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..catalogue import SPEC_INVALID
from ..findings import PathElement
from ..vocabulary import LEADERS, MINDSPORE, VOLCANO_JOB, WORKER
from .model import Port, Replica, Volume
from .steps import Problems, env_list, volume_list

#: frameworks whose leader is itself an NPU pod
LEADER_HOLDS_NPUS = frozenset(framework for framework in LEADERS if framework != MINDSPORE)
EXIT_CODE = "ExitCode"


def replica_layout(framework: str, target: str, pods: int, npus_per_pod: int,
                   scheduler_holds_npus: bool = False) -> List[Tuple[str, int, int]]:
    """(replica type, replicas, NPUs per pod) in emission order."""
    if target == VOLCANO_JOB:
        return [(WORKER, pods, npus_per_pod)]
    leader = LEADERS[framework]
    if framework in LEADER_HOLDS_NPUS or scheduler_holds_npus:
        layout = [(leader, 1, npus_per_pod)]
        if pods > 1:
            layout.append((WORKER, pods - 1, npus_per_pod))
        return layout
    if pods * npus_per_pod <= 1:
        return [(WORKER, pods, npus_per_pod)]
    return [(leader, 1, 0), (WORKER, pods, npus_per_pod)]


def ports(raw: Any, base: Tuple[PathElement, ...], problems: Problems, generated: Mapping[str, int],
          taken: Sequence[Port] = ()) -> Tuple[Port, ...]:
    """Extra ports at ``base``; names and numbers must be unique and not the compiler's own (``generated``)."""
    out: List[Port] = []
    names = {p.name for p in taken}
    numbers = {p.container_port for p in taken}
    for i, item in enumerate(raw or []):
        port = Port(item["name"], item["containerPort"], item.get("protocol"))
        if port.name in generated or port.container_port in generated.values():
            clash = port.name if port.name in generated else port.container_port
            problems.add(SPEC_INVALID, base + (i,), f"port {clash} is the compiler's own",
                         f"the compiler declares {', '.join(f'{k} {v}' for k, v in generated.items())}; "
                         "use another name and number")
        elif port.name in names or port.container_port in numbers:
            problems.add(SPEC_INVALID, base + (i,), f"port {port.name} ({port.container_port}) is declared twice",
                         "give each port its own name and number")
        names.add(port.name)
        numbers.add(port.container_port)
        out.append(port)
    return tuple(out)


def restart_policy(value: Optional[str], path: Tuple[PathElement, ...], target: str, problems: Problems) -> None:
    if value == EXIT_CODE and target == VOLCANO_JOB:
        problems.add(SPEC_INVALID, path, "a Volcano Job's pods cannot use restartPolicy ExitCode (it is "
                     "ascend-operator's, for AscendJob replicas)", "use Never or OnFailure, or target: AscendJob")


def replica_types(spec: Mapping[str, Any], layout: Sequence[Tuple[str, int, int]], target: str,
                  shared: Tuple[Tuple[Volume, ...], Tuple[Port, ...]], generated: Mapping[str, Any],
                  problems: Problems) -> Dict[str, Replica]:
    """``spec.replicaTypes`` resolved, for the replica types the job has.

    ``shared`` are the shared volumes and ports (names a replica type may not reuse); ``generated`` the
    env names (``env``) and ports (``ports``) the compiler adds itself.
    """
    present = [rtype for rtype, _, _ in layout]
    out: Dict[str, Replica] = {}
    for rtype, raw in (spec.get("replicaTypes") or {}).items():
        base: Tuple[PathElement, ...] = ("spec", "replicaTypes", rtype)
        if rtype not in present:
            problems.add(SPEC_INVALID, base, f"this job has no {rtype} pods (its replica types: "
                         f"{', '.join(present)})", _why_absent(target), key=True)
            continue
        raw = raw or {}
        resources = raw.get("resources") or {}
        restart_policy(raw.get("restartPolicy"), base + ("restartPolicy",), target, problems)
        out[rtype] = Replica(
            env=env_list(raw.get("env"), base + ("env",), problems, generated["env"]),
            volumes=volume_list(raw.get("volumes"), base + ("volumes",), problems,
                                {v.name: v for v in shared[0]}),
            ports=ports(raw.get("ports"), base + ("ports",), problems, generated["ports"], shared[1]),
            cpu=resources.get("cpu"), memory=resources.get("memory"), shm_size=resources.get("shm"),
            restart_policy=raw.get("restartPolicy"), patch=raw.get("podTemplatePatch"))
    return out


def _why_absent(target: str) -> str:
    if target == VOLCANO_JOB:
        return "a Volcano Job has one task, Worker"
    return "a single-pod PyTorch or TensorFlow job is its leader only; a one-NPU MindSpore job is one Worker"
