"""The ``accelerator-type`` node selector names a server type no scheduler handler knows.

**What.** The ``accelerator-type`` value must be a known type (one of the
hardware profiles', a value of the documented node-label list, or any value
containing ``card``, which the generic card handler takes).

**Why.** For ``huawei.com/Ascend910`` jobs without a known schedule_policy and
without ``sp-block``, the Volcano plugin looks up handler
``huawei.com/Ascend910<type>``; with no such handler the job is invalid for want
of a policy handler (reason ``NotSupportPolicy``), and it never runs. Any other
job (``sp-block``, a schedule policy, another NPU resource) gets its handler
elsewhere, but its pods only fit nodes labelled with the value, and
MindCluster's installation guide labels nodes with the documented values only:
the pods stay Pending ("node(s) didn't match Pod's node affinity/selector"; the
simulated cluster shows it for an sp-block job and a 310P job). Pod templates
that select different known types none of which contains ``card`` are refused
the same way: the plugin joins the values with ``|`` into one job selector, and
no handler has that name.

Up to v26.0.1 the plugin does not refuse a job it has no handler for (a value
of the list whose handler the release lacks, pod templates joined as above): it
passes it with no NPU checks and the job runs unchecked (a warning; fact
``no-handler-refused``). On v6.0.0 that holds for the job alone only: the plugin
stops setting up the session's jobs at the one without a handler, and another
``huawei.com/Ascend910`` job it left unset that waits for nodes with free NPUs
crashes vc-scheduler (a nil pointer dereference) within seconds, and again after
each restart, while both exist (an error; fact ``no-handler-crashes-scheduler``,
shown on the simulated v6.0.0 and v7.0.RC1 clusters).

With ``--cluster`` or ``--cluster-snapshot`` (the nodes read), the nodes answer
where the value decides only which nodes take the pods: a value some node
carries is fine there, and a value no node carries is AC903's error, which
names the values the nodes carry. This rule reports such a value with the
nodes known only where the plugin refuses the job for it, or where it has no
handler for it on v6.0.0. A value the API server refuses as a label value (a
space, a ``/``) is AC712's error: the pods are never created.

**How to fix.** Use the value your nodes are labelled with
(``kubectl get nodes -L accelerator-type``), e.g. ``module-910b-8``.

Failing::

    nodeSelector:
      accelerator-type: module-910B-8

Passing::

    nodeSelector:
      accelerator-type: module-910b-8
"""
from __future__ import annotations

from typing import TYPE_CHECKING, FrozenSet, Iterator, List, Optional, Sequence

from ...catalogue.citations import Citation, MC, PL, Place
from ... import releases
from ...findings import INFO
from ...hardware.targeting import handler_absent, policy_picks_handler
from ...releases import PLUGIN_STACKS
from ...vocabulary import ACCELERATOR_TYPE_LABEL, ASCEND_910, CARD_ACCELERATOR_MARK, SELECTOR_JOIN
from ..rule import Problem
from ._labels import value_problem
from ._release import CRASH, UNCHECKED, crashes_where, unhandled, unhandled_on

if TYPE_CHECKING:
    from ...hardware.profiles import Profile
    from ...manifest.pods import PodSet
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("init910CardPolicyHandler", PL + "internal/npu/factory.go", MC,
                    "validNPUJob fail by job<%s> policyHandler is nil",
                    also=(Place("getJobSelectorFromVcJob", PL + "plugin/job.go", MC),
                          Place("validJobFn", PL + "plugin/job.go", MC)))

#: the facts this rule's per-release claim rests on through the files compiler/releases.py cites, not a release
#: cluster, and why (lint/proofs.py)
CITED_FACTS = (
    ('handlers-absent',
     'the simulated cluster cannot show the Ascend 850/950 super-pod servers (huawei.com/npu): it has no '
     "A5 device info; and no job without a handler is judged in v6.0.0's batch of shapes, whose scheduler such "
     'a job crashes beside a waiting one (tests/simcluster/release_shapes.py, unjudged; the crash itself: '
     'tests/simcluster/test_no_handler_crash.py)'),
)

#: node label values from the upstream docs that no built-in profile covers yet
EXTRA_KNOWN = ("350-Atlas-8", "350-Atlas-16", "350-Atlas-4p-8", "350-Atlas-4p-16", "850-Atlas-8p-8")


def _close(word: str, options: Sequence[str], n: int = 1) -> List[str]:
    import difflib  # only when there is something to suggest

    return difflib.get_close_matches(word, options, n=n)


def _handler_by_selector(obj: ObjectContext, run: RunContext) -> bool:
    """Whether the plugin picks the job's handler by its accelerator-type (else a value no node carries only
    leaves the pods without nodes)."""
    signals = run.signals(obj)
    return obj.npu_resource() == ASCEND_910 and not signals.sp_block \
        and not policy_picks_handler(run.profiles.all(), signals, run.release)


_REFUSED = "no-handler-refused"


def _joined(obj: ObjectContext, known: Sequence[str]) -> Optional[PodSet]:
    """The first pod set whose accelerator-type differs from an earlier one's, when the job selector the
    plugin joins from them names no handler (no value contains card, every value is a known one)."""
    values = obj.accelerator_types()
    if len(values) < 2 or any(CARD_ACCELERATOR_MARK in v or v not in known for v in values):
        return None
    first = values[0].lower()
    return next((p for p in obj.pod_sets()
                 if str(p.node_selector.get(ACCELERATOR_TYPE_LABEL) or first).lower() != first), None)


def _known(profiles: List[Profile]) -> List[str]:
    """Every accelerator-type value a node may carry, sorted."""
    return sorted({p.accelerator_type for p in profiles if p.accelerator_type} | set(EXTRA_KNOWN))


def _known_set(profiles: List[Profile]) -> FrozenSet[str]:
    """:func:`_known` as a set, for the test each pod set's value takes."""
    return frozenset(_known(profiles))


def refuses_job_for(obj: ObjectContext, run: RunContext, pod_set: PodSet) -> bool:
    """Whether this rule reports the pod set's accelerator-type whatever nodes the cluster has: an unknown value,
    looked up as a handler, on a release that refuses a job without one, or on one whose scheduler such a job crashes
    (v6.0.0); AC903 leaves a selector that only this value keeps off the nodes to this rule."""
    value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
    if not isinstance(value, str) or not value or CARD_ACCELERATOR_MARK in value or value_problem(value) \
            or run.profiles is None:
        return False
    return (run.target is None or run.target.stack in STACKS) and bool(obj.npu_resource()) \
        and value not in run.from_profiles(_known_set) and _handler_by_selector(obj, run) \
        and bool(releases.value(_REFUSED, run.release) or crashes_where(obj.npu_resource(), (run.release,)))


def _joined_problem(obj: ObjectContext, run: RunContext, joined: PodSet) -> Problem:
    said = (f"the pod templates select {ACCELERATOR_TYPE_LABEL} {SELECTOR_JOIN.join(obj.accelerator_types())}: the "
            "scheduler joins them into one job selector that names no handler")
    path, hint = joined.spec_path + ("nodeSelector", ACCELERATOR_TYPE_LABEL), "select the same accelerator-type in every pod template"
    if not releases.value(_REFUSED, run.release):
        what, severity = unhandled(run.release, obj.npu_resource())
        return Problem(path, f"{said}; MindCluster {run.release} {what}", hint=hint, severity=severity)
    older = [r for r in releases.RELEASES if not releases.value(_REFUSED, r)]
    later = "" if run.target is None or run.target.given else f" ({unhandled_on(older, obj.npu_resource(), '')})"
    return Problem(path, f"{said}, and refuses the job (NotSupportPolicy){later}", hint=hint)


def _absent(obj: ObjectContext, run: RunContext, pod_set: PodSet) -> Optional[Problem]:
    """The pod set's accelerator-type names a profile whose handler the target's plugin lacks (a warning: the job
    runs unchecked), or, judged for the default, lacks on older releases (a note)."""
    value, resource, sp_block = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL), obj.npu_resource(), \
        run.signals(obj).sp_block
    if not _handler_by_selector(obj, run) and not (resource == ASCEND_910 and not sp_block):
        return None
    every = run.profiles.all()
    path = pod_set.spec_path + ("nodeSelector", ACCELERATOR_TYPE_LABEL)
    found = handler_absent(every, value, resource, run.release, sp_block)
    if found is not None:
        what, severity = unhandled(run.release, resource)
        return Problem(path, f"{ACCELERATOR_TYPE_LABEL} {value!r} ({found.name}) names no handler of MindCluster "
                             f"{run.release}: it {what}", severity=severity,
                       hint="name the target release your cluster runs, or use a handler it has (sp-block for a "
                            "super-pod)")
    if run.target is None or run.target.given:
        return None
    # judged for the default: a note where a release has the servers' handler but not reached this way (a
    # super-pod without sp-block); a release without any handler for the servers predates them
    older = [r for r in releases.RELEASES if handler_absent(every, value, resource, r, sp_block) is not None
             and value not in [p.accelerator_type for p in every if p.name in releases.value("handlers-absent", r)]]
    if not older:
        return None
    return Problem(path, f"{ACCELERATOR_TYPE_LABEL} {value!r} without sp-block: " + unhandled_on(
        older, resource, "the plugin has no handler for it and "), severity=INFO)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.npu_resource() or run.profiles is None:
        return
    known = run.from_profiles(_known)
    joined = _joined(obj, known) if len(obj.accelerator_types()) > 1 and _handler_by_selector(obj, run) else None
    if joined is not None:
        yield _joined_problem(obj, run, joined)
    known_set = run.from_profiles(_known_set)
    for pod_set in obj.pod_sets():
        value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
        if not isinstance(value, str) or not value or CARD_ACCELERATOR_MARK in value or value_problem(value):
            continue  # no value to judge; a value the API server refuses (a space...) is AC712's error
        if value in known_set:
            absent = _absent(obj, run, pod_set)
            if absent is not None:
                yield absent
            continue
        by_selector = _handler_by_selector(obj, run)
        refused = by_selector and releases.value(_REFUSED, run.release)
        crashing = by_selector and not refused and bool(crashes_where(obj.npu_resource(), (run.release,)))
        carried = run.inventory.carries(ACCELERATOR_TYPE_LABEL, value) if run.inventory is not None else None
        if not refused and not crashing and (carried or (carried is False and pod_set.replicas > 0)):
            continue  # the cluster's nodes answer (they beat the profiles): one carries it, so the pods fit there;
            # or none does, which AC903 reports from them, naming the values they carry
        close = _close(value, known, n=1)
        hint = (f"did you mean {close[0]!r}? " if close else "") + f"known: {', '.join(known)}"
        unfit = "is no value MindCluster nodes are labelled with: the pods never fit"
        if not by_selector:
            why = unfit
        elif refused:
            why = "matches no scheduler handler: the job is refused (NotSupportPolicy)"
        elif crashing and carried:  # its pods fit a node of the cluster, but it still has no handler
            why = f"matches no scheduler handler: MindCluster {run.release} {unhandled(run.release, ASCEND_910)[0]}"
        elif crashing:
            why = f"matches no scheduler handler and {unfit}, and on MindCluster {run.release}, {CRASH}"
        else:
            why = f"matches no scheduler handler (MindCluster {run.release} {UNCHECKED}) and {unfit}"
        yield Problem(pod_set.spec_path + ("nodeSelector", ACCELERATOR_TYPE_LABEL),
                      f"{ACCELERATOR_TYPE_LABEL} {value!r} {why}", hint=hint)
