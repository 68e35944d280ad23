"""What a hardware profile allows: the scheduler's NPU arithmetic as pure functions.

Both the compiler (refusing an impossible spec) and the linter (flagging a
hand-written manifest) ask these functions, so the rules exist once.  Every
number comes from a :class:`~ascend_compile.hardware.profiles.Profile`.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .. import releases
from ..catalogue import MULTI_LEVEL, NOT_FULL_NODE, NPU_COUNT, NPU_TOTAL, SUPER_POD_BLOCK
from .profiles import Profile
from .targeting import handler_key
from ..records import NamedTuple
from ..vocabulary import ASCEND_910, CARD_ACCELERATOR_MARK, LEVEL_PREFIX, RA_BLOCK_ANNOTATION

#: ascend-operator refuses more replicas than this (maxReplicas); the scheduler never sees such a job
MAX_PODS = 20000


class NpuLayout(NamedTuple):
    """How a job's pods request NPUs: enough for every rule, without one entry per pod.

    Pods without NPUs (a MindSpore Scheduler) are not NPU pods: the scheduler's
    NPU rules skip them.
    """

    counts: Tuple[int, ...]  # distinct per-pod requests of the NPU pods
    pods: int  # number of NPU pods
    total: int  # NPUs requested by the whole job

    @classmethod
    def uniform(cls, pods: int, npus_per_pod: int) -> "NpuLayout":
        return cls((npus_per_pod,), pods, pods * npus_per_pod)

    @classmethod
    def from_pod_sets(cls, pod_sets: Sequence[Tuple[int, int]]) -> "NpuLayout":
        """From (replicas, NPUs per pod) pairs; sets without NPUs are left out."""
        npu_sets = [(replicas, npus) for replicas, npus in pod_sets if npus > 0 and replicas > 0]
        return cls(tuple(sorted({npus for _, npus in npu_sets})), sum(r for r, _ in npu_sets),
                   sum(r * n for r, n in npu_sets))


class Violation(NamedTuple):
    rule: str
    message: str
    hint: str
    severity: str = "error"
    #: what the violation is about, when a rule needs to point at it: "ra-block" (else the sp-block or the NPUs)
    subject: str = ""


#: a run of at least this many consecutive counts is written by its ends ("1-64"): the generic handlers' lists
_LONG_RUN = 10


def _fmt(values: Sequence[int]) -> str:
    parts: List[str] = []
    start = 0
    for end in range(1, len(values) + 1):
        if end < len(values) and values[end] == values[end - 1] + 1:
            continue
        run = values[start:end]
        parts += [f"{run[0]}-{run[-1]}"] if len(run) >= _LONG_RUN else [str(v) for v in run]
        start = end
    return ", ".join(parts)


#: the profile whose distributed pods ``module-a3-16-distributed-per-pod`` is about
_A3_SERVER = "module-a3-16"


def allowed_per_pod(profile: Profile, pods: int, release: str = releases.DEFAULT_RELEASE) -> Tuple[int, ...]:
    """The per-pod NPU counts the handler of ``profile`` takes in a job of ``pods`` NPU pods on ``release``: the
    profile's lists (the newest release's rules), narrowed where an older plugin took fewer (the card handler's
    ``card-handler-max``, the A3 server's ``module-a3-16-distributed-per-pod``)."""
    allowed = profile.allowed_per_pod(pods)
    most = releases.value("card-handler-max", release)
    if most < releases.value("card-handler-max", releases.DEFAULT_RELEASE) \
            and handler_key(profile) == CARD_ACCELERATOR_MARK and profile.resource == ASCEND_910:
        allowed = tuple(n for n in allowed if n <= most)
    if profile.name == _A3_SERVER and pods > 1:
        allowed = releases.value("module-a3-16-distributed-per-pod", release) or allowed
    return allowed


def check_pods(profile: Profile, layout: NpuLayout, release: str = releases.DEFAULT_RELEASE) -> List[Violation]:
    """Check the per-pod NPU counts of one job against what its profile allows on ``release``."""
    allowed = allowed_per_pod(profile, layout.pods, release)
    out: List[Violation] = []
    for count in layout.counts:
        if count not in allowed:
            kind = "a single-pod job" if layout.pods <= 1 else "a job with several pods"
            out.append(Violation(
                NPU_COUNT,
                f"{count} NPUs per pod is not allowed on {profile.name} for {kind}; allowed: {_fmt(allowed)}",
                f"request one of {_fmt(allowed)} NPUs per pod (profile {profile.name}, "
                f"{profile.npus_per_node} NPUs per node)"))
    whole = profile.multi_pod_recommended
    # the convention speaks only where the job's total can be split into whole nodes (4 NPUs in two pods of 2
    # cannot: fewer pods of a whole node each is no choice there)
    if layout.pods > 1 and whole and any(layout.total % n == 0 for n in whole):
        odd = [n for n in layout.counts if n in allowed and n not in whole]
        if odd:
            out.append(Violation(
                NOT_FULL_NODE,
                f"distributed pods request {_fmt(odd)} NPUs; on {profile.name} distributed jobs "
                f"conventionally take whole nodes ({_fmt(profile.multi_pod_recommended)} per pod)",
                "use whole nodes per pod; graceful fault tolerance requires it", severity="warning"))
    return out


def check_super_pod(profile: Profile, layout: NpuLayout, sp_block: Optional[int],
                    ra_block: Optional[int] = None) -> List[Violation]:
    """sp-block and ra-block arithmetic of the super-pod handlers."""
    sp = profile.super_pod
    if sp is None:
        return []
    out: List[Violation] = []
    total = layout.total
    block = sp_block if sp_block is not None else total  # the scheduler's default
    if block <= 0:
        return [Violation(SUPER_POD_BLOCK, f"sp-block({block}) is invalid", "set sp-block to a positive integer")]
    if layout.pods <= 1:
        if sp.single_pod_block_is_total and sp_block is not None and sp_block != total:
            out.append(Violation(SUPER_POD_BLOCK,
                                 f"sp-block {sp_block} of a single-pod super-pod job must equal its NPU count {total}",
                                 f"set sp-block to {total}, or leave it out"))
    else:
        if block % sp.block_multiple and block >= sp.block_multiple:
            out.append(Violation(SUPER_POD_BLOCK,
                                 f"sp-block {block} is not a multiple of the {sp.block_multiple} NPUs of a node",
                                 f"use a multiple of {sp.block_multiple}"))
        elif block < sp.block_multiple and block != total:
            out.append(Violation(SUPER_POD_BLOCK,
                                 f"sp-block {block} is not a multiple of the {sp.block_multiple} NPUs of a node",
                                 f"use a multiple of {sp.block_multiple}"))
        if total % block:
            out.append(Violation(SUPER_POD_BLOCK,
                                 f"the job's {total} NPUs are not a multiple of sp-block {block}",
                                 f"make the total a multiple of {block}, or change sp-block"))
        if sp.max_blocks and block // sp.block_multiple > sp.max_blocks:
            out.append(Violation(SUPER_POD_BLOCK,
                                 f"sp-block {block} spans {block // sp.block_multiple} nodes, more than the "
                                 f"super-pod size {sp.max_blocks}",
                                 f"use at most {sp.max_blocks * sp.block_multiple}"))
    if ra_block is not None and sp.rack_blocks and ra_block not in sp.rack_blocks:
        out.append(Violation(SUPER_POD_BLOCK, f"ra-block {ra_block} is not allowed on {profile.name}",
                             f"use one of {_fmt(sp.rack_blocks)}", subject=RA_BLOCK_ANNOTATION))
    return out


def split_total(profile: Profile, total: int) -> Tuple[Optional[Tuple[int, int]], List[Violation]]:
    """Turn a total NPU count into (pods, NPUs per pod) the profile accepts.

    A total that fits one node runs as one pod; a larger one takes whole
    nodes.  Returns ``(None, violations)`` when neither works.
    """
    if total <= 0:
        return None, [Violation(NPU_TOTAL, f"the job must request at least 1 NPU, not {total}", "set npus to 1 or more")]
    if total in profile.single_pod:
        return (1, total), []
    per_node = profile.npus_per_node
    if total > per_node and total % per_node == 0 and per_node in profile.multi_pod:
        if total // per_node > MAX_PODS:
            return None, [Violation(NPU_TOTAL, f"{total} NPUs would need {total // per_node} pods of {per_node}; "
                                               f"ascend-operator accepts at most {MAX_PODS} pods",
                                    f"request at most {MAX_PODS * per_node} NPUs")]
        return (total // per_node, per_node), []
    if per_node not in profile.multi_pod:  # no pod takes a whole node: only explicit pods can be larger
        return None, [Violation(
            NPU_TOTAL, f"{total} NPUs cannot be placed on {profile.name}: a single pod takes "
                       f"{_fmt(profile.single_pod)}, and pods of several take {_fmt(profile.multi_pod)}",
            f"request one of {_fmt(profile.single_pod)}, or give pods and npusPerPod explicitly")]
    options = sorted(set(profile.single_pod) | {per_node * k for k in (2, 3, 4)})
    return None, [Violation(
        NPU_TOTAL,
        f"{total} NPUs cannot be placed on {profile.name}: a single pod takes {_fmt(profile.single_pod)}, "
        f"and larger jobs take whole nodes of {per_node}",
        f"request one of {_fmt(options)}, ... (a multiple of {per_node}), or give pods and npusPerPod explicitly")]


def multi_level_config(levels: Sequence[int]) -> str:
    """The ``huawei.com/affinity-config`` value of pods-per-block ``levels`` (level1 first)."""
    return ",".join(f"{LEVEL_PREFIX}{i}={n}" for i, n in enumerate(levels, start=1))


def parse_multi_level(value: str) -> Tuple[Optional[List[int]], str]:
    """The levels of an affinity config, level1 first, or (None, what is wrong), as the plugin parses it
    (``ascend-for-volcano/plugin/job.go`` GetAffinityBlocks, ``common/util/type_multilevel.go`` GetTaskTreeLevels)."""
    blocks = {}
    for pair in value.split(","):
        key, sep, number = pair.partition("=")
        if not sep or "=" in number:
            return None, f"{pair!r} is not a level=number pair"
        try:
            blocks[key] = int(number)
        except ValueError:
            return None, f"the value of {key!r} is not an integer"
    levels = []
    for i in range(1, len(blocks) + 1):
        if f"{LEVEL_PREFIX}{i}" not in blocks:
            return None, f"{LEVEL_PREFIX}{i} is missing: levels must be consecutive from {LEVEL_PREFIX}1"
        levels.append(blocks[f"{LEVEL_PREFIX}{i}"])
    return levels, ""


def check_multi_level(levels: Sequence[int], npu_pods: int) -> List[Violation]:
    """The multilevel handler's task tree: the highest level divides the NPU pods, each level the next one up."""
    upper, name = npu_pods, "the job's NPU pods"
    for i in range(len(levels), 0, -1):
        size = levels[i - 1]
        if size <= 0 or upper % size:
            return [Violation(MULTI_LEVEL, f"{LEVEL_PREFIX}{i}={size} does not divide {name} ({upper}): the "
                                           "scheduler refuses the job's levels",
                              f"make each level divide the next one up, and the last divide {npu_pods}")]
        upper, name = size, f"{LEVEL_PREFIX}{i}"
    return []
