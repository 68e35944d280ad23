"""Which hardware profiles a job can target: the scheduler's handler choice, worked out from profile data only.

The Volcano Ascend plugin picks a job's handler (``MC: component/ascend-for-volcano/internal/npu/
factory.go``, ``get910CardHandlerName``) from a few things the manifest says, in this order:

1. the ``huawei.com/schedule_policy`` annotation, when it names a policy the plugin knows; the
   ``multilevel`` policy is a handler of no hardware of its own (it places whole nodes, whatever they
   are): its jobs target the profile their ``accelerator-type`` node selector names, or none (the
   handler's own rules are lint's ``multi-level``); soft-share jobs (``chip1-softShareDev``) target
   none: their NPU request is a share of an NPU's AI Cores, which no profile's arithmetic describes;
2. else an ``sp-block`` annotation: the super-pod handler that the ``accelerator-type`` names, or the
   default super-pod handler (profile ``fallback: spBlock``);
3. else the ``accelerator-type`` node selector, for resources whose handlers are named that way: the
   plugin joins the differing values of a job's pod templates with ``|`` into one job selector, so a
   job whose templates select several types gets the generic card handler when one of them contains
   ``card``, and no handler otherwise (each pod is still placed on the nodes its own selector names);
4. else the handler for jobs that name none (profile ``fallback: noAcceleratorType``: the old
   Atlas 800 rules for ``huawei.com/Ascend910``); for a resource without such a handler, the
   profiles that have no accelerator type at all (310P and 310 pick theirs by job labels).

:func:`candidate_profiles` answers with every profile that fits, not one guess: profiles can share a
policy (``chip1-node2`` is both ``card-910`` and ``card-910b-2``), and a check that holds for every
candidate holds whatever the job's servers really are.  An empty answer means the scheduler has no
handler for the job.  The compiler asks the same question about the jobs it writes, so a profile whose
data would send its own jobs to another handler is refused at compile time.

All of this is release-dependent (``release``, a :data:`~ascend_compile.releases.RELEASES` name, the newest by
default): which policies the plugin reads (none up to v7.0.RC1), where a policy sends a job
(``policy-handler-profiles``), which handlers exist (``handlers-absent``), whether the super-pod handler is reached
without sp-block: the facts of :mod:`ascend_compile.releases` ("handlers, policies, NPU counts").
"""
from __future__ import annotations

from typing import FrozenSet, Iterable, List, Optional, Sequence, Tuple

from .. import releases
from .profiles import NO_ACCELERATOR_TYPE, NO_HARDWARE_NAMED, NODE_SELECTOR, SP_BLOCK, Profile
from ..records import NamedTuple
from ..vocabulary import ASCEND_910, CARD_ACCELERATOR_MARK, MULTILEVEL_POLICY, NPU_RESOURCE, SOFT_SHARE_POLICY


class HardwareSignals(NamedTuple):
    """What a job says about the hardware it wants (the inputs of the scheduler's handler choice)."""

    resource: Optional[str]  # the first huawei.com/* resource requested; None when the job requests no NPUs
    accelerator_type: Optional[str] = None  # the accelerator-type node selector
    schedule_policy: Optional[str] = None  # the schedule-policy annotation
    sp_block: bool = False  # whether the sp-block annotation is present
    #: every distinct accelerator-type the pod templates select, when they differ (the plugin joins them)
    accelerator_types: Tuple[str, ...] = ()

    def selected_types(self) -> Tuple[str, ...]:
        """The distinct accelerator-type values the job's pod templates select."""
        return self.accelerator_types or ((self.accelerator_type,) if self.accelerator_type else ())

    @property
    def mixed(self) -> bool:
        """Whether the pod templates select different accelerator-types."""
        return len(self.selected_types()) > 1


#: the resources whose handler the schedule_policy annotation picks (``InitPolicyHandler`` in the plugin's
#: ``internal/npu/factory.go``: the 910 card handlers; the 310 and 310P ones go by their own labels)
POLICY_RESOURCES = (ASCEND_910, NPU_RESOURCE)


def known_policies(profiles: Iterable[Profile], release: str = releases.DEFAULT_RELEASE) -> FrozenSet[str]:
    """The schedule policies the plugin of ``release`` reads: its policy map (``schedule-policies``), and where it
    reads the annotation at all, a project profile's own policy (one no release's map holds)."""
    read = releases.value("schedule-policies", release)
    if not read:
        return frozenset()
    everywhere = {name for _, _, names in releases.fact("schedule-policies").spans for name in names}
    return frozenset(read) | {p.schedule_policy for p in profiles
                              if p.schedule_policy and p.schedule_policy not in everywhere}


def policy_picks_handler(profiles: Iterable[Profile], signals: HardwareSignals,
                         release: str = releases.DEFAULT_RELEASE) -> bool:
    """Whether the job's schedule policy picks its handler on ``release`` (else sp-block, the accelerator-type or
    the default handler do)."""
    return bool(signals.schedule_policy) and signals.resource in POLICY_RESOURCES \
        and signals.schedule_policy in known_policies(profiles, release)


def candidate_profiles(profiles: Iterable[Profile], signals: HardwareSignals,
                       release: str = releases.DEFAULT_RELEASE) -> Tuple[Profile, ...]:
    """Every profile whose handler the scheduler of ``release`` could give a job that says ``signals`` (in
    ``profiles`` order)."""
    if signals.resource is None:
        return ()
    absent = releases.value("handlers-absent", release)
    every = tuple(p for p in profiles if p.name not in absent)
    policy = signals.schedule_policy if signals.schedule_policy in known_policies(every, release) else None
    if policy == SOFT_SHARE_POLICY:
        return ()
    if policy == MULTILEVEL_POLICY:  # the hardware is what the node selectors name, if anything
        return tuple(selected_profiles(every, signals))
    if policy and signals.resource in POLICY_RESOURCES:
        rerouted = releases.value("policy-handler-profiles", release).get(policy)
        if rerouted is not None and not rerouted:
            return ()  # a handler no profile describes
        by_policy = [p for p in every if (p.name in rerouted if rerouted is not None else p.schedule_policy == policy)]
        if by_policy:  # the policy map is shared by the 910 and npu resources
            named = [p for p in by_policy if p.accelerator_type == signals.accelerator_type and not signals.mixed]
            # the policy picks the handler, the node selectors the nodes: when they name another profile's
            # nodes, that profile is a candidate too (a check must hold on both)
            return tuple(named or by_policy + [p for p in selected_profiles(every, signals) if p not in by_policy])
    # Without a known policy only handlers reachable through node selectors remain.
    mine = [p for p in every if p.resource == signals.resource and NODE_SELECTOR in p.dialects]
    if signals.sp_block:
        super_pods = [p for p in mine if p.super_pod is not None]
        if super_pods:  # a joined selector never equals a profile's accelerator-type
            named = [p for p in super_pods if p.accelerator_type == signals.accelerator_type and not signals.mixed]
            return tuple(named or [p for p in super_pods if p.fallback == SP_BLOCK])
    by_sp_block_only = releases.value("super-pod-by-sp-block-only", release)
    typed = [p for p in mine if p.accelerator_type and not (by_sp_block_only and p.super_pod is not None)]
    if signals.mixed and typed:
        if any(CARD_ACCELERATOR_MARK in value for value in signals.selected_types()):
            return tuple(p for p in typed if handler_key(p) == CARD_ACCELERATOR_MARK)
        return ()  # the plugin has no handler named after the joined value
    if signals.accelerator_type and typed:
        return tuple(p for p in typed if p.accelerator_type == signals.accelerator_type)
    fallback = [p for p in mine if p.fallback == NO_ACCELERATOR_TYPE]
    return tuple(fallback or [p for p in mine if not p.accelerator_type])


def handler_absent(profiles: Iterable[Profile], value: Optional[str], resource: Optional[str],
                   release: str = releases.DEFAULT_RELEASE, sp_block: bool = False) -> Optional[Profile]:
    """The profile whose nodes accelerator-type ``value`` names when the plugin of ``release`` has no handler for
    it reached that way (``handlers-absent``; a super-pod profile without sp-block where only sp-block reaches the
    super-pod handler); None when it has one, or the value names no profile."""
    found = node_profile(profiles, resource, value)
    if found is None or sp_block and found.super_pod is not None:
        return None
    if found.name in releases.value("handlers-absent", release):
        return found
    by_sp_block_only = releases.value("super-pod-by-sp-block-only", release)
    return found if by_sp_block_only and found.super_pod is not None else None


def hardware_unnamed(candidates: Sequence[Profile], signals: HardwareSignals) -> bool:
    """Whether the job names no hardware: its only candidates are the default handler's profiles (no
    accelerator-type, no policy, no sp-block), whose pods land on any node offering the resource, so the job's
    ring-controller label, not the handler, says which chip it is for."""
    return bool(candidates) and not signals.selected_types() and all(
        p.fallback == NO_ACCELERATOR_TYPE for p in candidates)


def handler_key(profile: Profile) -> str:
    """Which of the plugin's handlers takes the profile's jobs: every accelerator-type containing ``card``
    shares the generic card handler (``get910CardHandlerName``); other profiles have one of their own."""
    value = profile.accelerator_type
    if value and CARD_ACCELERATOR_MARK in value:
        return CARD_ACCELERATOR_MARK
    return value or profile.schedule_policy or profile.name


def handler_family(profiles: Iterable[Profile], chosen: Sequence[Profile]) -> Tuple[Profile, ...]:
    """``chosen`` and every profile of the same resource whose jobs the same handler takes: the servers
    a handler serves differ in size, so its own per-pod limits are the widest of theirs."""
    keys = {(handler_key(p), p.resource) for p in chosen}
    return tuple(p for p in profiles if p in chosen or (handler_key(p), p.resource) in keys)


def per_pod_rules(every: Sequence[Profile], candidates: Sequence[Profile], signals: HardwareSignals,
                  labels: Sequence[Tuple[str, Optional[str]]] = ()) -> Tuple[Tuple[Profile, ...], bool]:
    """Which profiles' per-pod NPU rules the scheduler holds a job's pods to, and whether each pod set must also
    fit the nodes its own selector names: (profiles, own nodes).

    ``candidates`` are :func:`candidate_profiles` of ``signals``.  For a resource whose handlers go by job labels
    (310, 310P: ``labels`` are those of the job's labels the candidates read), each candidate's
    :meth:`~ascend_compile.hardware.profiles.Profile.handler_for` them.  Otherwise usually the candidates: their per-pod
    lists are the handler's rules on their own nodes.  When the pods may land on another profile's nodes (a
    schedule policy with another profile's accelerator-type, or pod templates selecting different types), the
    handler's rules are the widest of every server it serves (:func:`handler_family`), and each pod must also
    fit the nodes its own selector names.  A schedule policy without any accelerator-type selector keeps the
    pods off no node the handler takes: its widest rules apply alone.
    """
    if labels:
        found = (p.handler_for(dict(labels)) for p in candidates)
        return tuple(p for p in found if p is not None), False
    policy = signals.schedule_policy
    by_policy = [p for p in candidates if policy and p.schedule_policy == policy]
    if by_policy and not signals.selected_types():
        return handler_family(every, by_policy), True  # no selector: any node the handler takes may hold the pods
    if by_policy and len(by_policy) < len(candidates):
        return handler_family(every, by_policy), True
    if candidates and (signals.mixed or any(p not in candidates for p in selected_profiles(every, signals))):
        return handler_family(every, candidates), True
    return tuple(candidates), False


def handler_node_limit(family: Sequence[Profile], release: str = releases.DEFAULT_RELEASE) -> int:
    """The most NPUs a node may have for the handler that serves ``family`` (:func:`handler_family`) on ``release``:
    the largest server it serves, or for the card handler its ``MaxNodeNPUNum`` (``card-handler-max``: 2 up to
    v7.0.RC1); each handler refuses a node with more free NPUs than that (``GetUsableTopFromNode``)."""
    largest = max(p.npus_per_node for p in family)
    most: int = releases.value("card-handler-max", release)
    if most < releases.value("card-handler-max", releases.DEFAULT_RELEASE) \
            and all(handler_key(p) == CARD_ACCELERATOR_MARK and p.resource == ASCEND_910 for p in family):
        return min(largest, most)
    return largest


def selected_profiles(profiles: Iterable[Profile], signals: HardwareSignals) -> List[Profile]:
    """The profiles whose nodes carry an accelerator-type the job selects (and offer its resource)."""
    values = signals.selected_types()
    return [p for p in profiles if p.accelerator_type in values and p.resource == signals.resource]


def node_profile(profiles: Iterable[Profile], resource: Optional[str], value: object) -> Optional[Profile]:
    """The profile whose nodes a pod selecting accelerator-type ``value`` lands on (None: not a known type)."""
    if not isinstance(value, str) or not value:
        return None
    return next((p for p in profiles if p.accelerator_type == value and p.resource == resource), None)


def signals_of_profile(profile: Profile, dialect: str, sp_block: bool = False) -> HardwareSignals:
    """What a job compiled for ``profile`` in ``dialect`` says (see ``emit/common.py``)."""
    if dialect == NODE_SELECTOR:
        return HardwareSignals(profile.resource, accelerator_type=profile.accelerator_type, sp_block=sp_block)
    if dialect == NO_HARDWARE_NAMED:
        return HardwareSignals(profile.resource, sp_block=sp_block)
    return HardwareSignals(profile.resource, schedule_policy=profile.schedule_policy, sp_block=sp_block)
