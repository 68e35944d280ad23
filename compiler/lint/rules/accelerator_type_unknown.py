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

from ...vocabulary import (ACCELERATOR_TYPE_LABEL, ASCEND_910, CARD_ACCELERATOR_MARK,
                            PLUGIN_SCHEDULE_POLICIES, SELECTOR_JOIN, SP_BLOCK_ANNOTATION)
from ..rule import Problem

if TYPE_CHECKING:
    from ...hardware.profiles import Profile
    from ...manifest.pods import PodSet
    from ..context import ObjectContext, RunContext

#: node label values from the upstream docs that no built-in profile covers yet
EXTRA_KNOWN = ("350-Atlas-8", "350-Atlas-16", "350-Atlas-4p-8", "350-Atlas-4p-16", "850-Atlas-8p-8")


def _close(word: str, options: Sequence[str], n: int = 1) -> List[str]:
    import difflib  # only when there is something to suggest

    return difflib.get_close_matches(word, options, n=n)


def _handler_by_selector(obj: ObjectContext, run: RunContext) -> bool:
    """Whether the plugin picks the job's handler by its accelerator-type (else a value no node carries only
    leaves the pods without nodes)."""
    return obj.npu_resource() == ASCEND_910 and not obj.block(SP_BLOCK_ANNOTATION)[0] \
        and obj.schedule_policy not in PLUGIN_SCHEDULE_POLICIES


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


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.npu_resource() or run.profiles is None:
        return
    known = run.from_profiles(_known)
    joined = _joined(obj, known) if len(obj.accelerator_types()) > 1 and _handler_by_selector(obj, run) else None
    if joined is not None:
        yield Problem(joined.spec_path + ("nodeSelector", ACCELERATOR_TYPE_LABEL),
                      f"the pod templates select {ACCELERATOR_TYPE_LABEL} "
                      f"{SELECTOR_JOIN.join(obj.accelerator_types())}: the scheduler joins them into one job "
                      "selector that names no handler, and refuses the job (policyHandler is nil)",
                      hint="select the same accelerator-type in every pod template")
    known_set = run.from_profiles(_known_set)
    for pod_set in obj.pod_sets():
        value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
        if not isinstance(value, str) or not value or value in known_set or CARD_ACCELERATOR_MARK in value:
            continue
        close = _close(value, known, n=1)
        hint = (f"did you mean {close[0]!r}? " if close else "") + f"known: {', '.join(known)}"
        why = "matches no scheduler handler: the job is refused (policyHandler is nil)" \
            if _handler_by_selector(obj, run) else \
            "is no value MindCluster nodes are labelled with: the pods never fit"
        yield Problem(pod_set.spec_path + ("nodeSelector", ACCELERATOR_TYPE_LABEL),
                      f"{ACCELERATOR_TYPE_LABEL} {value!r} {why}", hint=hint)
