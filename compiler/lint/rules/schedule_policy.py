"""A ``huawei.com/npu`` job has no known ``huawei.com/schedule_policy``, or the policy is unknown.

**What.** Jobs requesting ``huawei.com/npu`` (Ascend 950/850/350) must carry the job
annotation ``huawei.com/schedule_policy`` with a policy the scheduler knows (e.g.
``chip8-node8-ra64-sp``). For other resources an unknown policy is ignored and the
scheduler falls back to the node selectors (warning). A pod template's annotation
counts too: the plugin reads a pod's when the PodGroup has none. A Deployment's (or
StatefulSet's, ...) own annotation does not: Volcano's PodGroup for its pods takes
only the owner's ``volcano.sh/`` annotations, so the policy must be in its pod
template (an error for ``huawei.com/npu``, a warning otherwise).

The known policies are the 17 keys of the plugin's ``policy910HandlerMap``
(``chip1-node2`` ... ``chip8-node8-ra64-sp``, ``module-a3-16``,
``chip1-softShareDev``, ``multilevel``), and those of any project profile.

**Why.** For ``huawei.com/npu`` the policy annotation is the only way to pick a
handler (without it the plugin finds none); from v26.1.0 the job is invalid for want
of a policy handler (reason ``NotSupportPolicy``) and never schedules (an error); up
to v26.0.1 the plugin passes a job it has no handler for with no NPU checks at all,
and it runs unchecked (a warning; fact ``no-handler-refused``). For other resources
an unknown policy is skipped and the node selectors decide.

Atlas 300 (``huawei.com/Ascend310``) jobs pick their handler by the label
``npu-310-strategy`` instead: ``chip`` (the default when the label is absent) or
``card``. The plugin reads the PodGroup's labels (the job's) and the pods', and
where they differ it joins the values with ``|`` (the job's first; values equal but
for case count once, the first met kept): a job labelled ``card`` whose pod template
says ``chip`` asks for the handler ``card|chip``, which does not exist. A joined
value other than ``chip`` or ``card`` names no handler: from v26.1.0 the job never
schedules, with the same ``NotSupportPolicy`` reason (the simulated cluster refuses
both a misspelt value and two differing ones); up to v26.0.1 it runs with no NPU
checks (a warning; the v26.0.1 cluster ran such jobs), but on v6.0.0 only while it
is alone: the plugin stops setting up the session's jobs at it, and a
``huawei.com/Ascend910`` job it left unset that waits for nodes with free NPUs
crashes vc-scheduler (a nil pointer dereference), again after each restart, while
both exist (an error; fact ``no-handler-crashes-scheduler``; v6.0.0's plugin takes
no ``huawei.com/npu`` job in at all, so such a job only runs unchecked there). For ``huawei.com/Ascend310P`` jobs labelled
``duo: "true"`` (Atlas 300I Duo) the label picks the Duo handler the same way, but
an unknown or joined value falls back to the generic 310P handler, which schedules
without the Duo's per-pod NPU counts (a warning); so does a ``duo`` label whose
joined value is not exactly ``true``.

**How to fix.** Add the annotation with the policy of your servers
(``ascend-compile profiles``; a key spelt otherwise, ``huawei.com/scheduler-policy``
or ``huawei.com/schedulePolicy``, is not read: the finding points at it); for Atlas 300 use ``npu-310-strategy: chip`` or
``card`` (the same on the job and its pod templates), or leave the label out.

Failing::

    metadata:
      name: llm
    ... requests: {huawei.com/npu: 8}

Passing::

    metadata:
      name: llm
      annotations:
        huawei.com/schedule_policy: chip8-node8-ra64-sp
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence, Tuple

from ...catalogue.citations import Citation, MC, PL, Place, VC
from ... import releases
from ...findings import INFO, WARNING, Path
from ...hardware.targeting import candidate_profiles, known_policies
from ...manifest.job import joined_label
from ...releases import PLUGIN_STACKS
from ...vocabulary import (ASCEND310_RESOURCE, ASCEND_910, ASCEND310P_RESOURCE, DUO_LABEL, NPU_RESOURCE,
                            SCHEDULE_POLICY_ANNOTATION, STRATEGIES_310, STRATEGY_310)
from ..rule import Problem
from ._release import unhandled, unhandled_on
from ._util import on_other_releases

if TYPE_CHECKING:
    from ...hardware.profiles import Profile
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("get910CardHandlerName", PL + "internal/npu/factory.go", MC,
                    "validNPUJob fail by job<%s> policyHandler is nil",
                    also=(Place("", PL + "internal/npu/factory.go (policy910HandlerMap)", MC),
                          Place("getJobAnnotationFromJobInfo", PL + "plugin/job.go", MC),
                          Place("inheritUpperAnnotations", "pkg/controllers/podgroup/pg_controller_handler.go", VC),
                          Place("getJobLabelFromVcJob", PL + "plugin/job.go", MC),
                          Place("init310CardPolicyHandler", PL + "internal/npu/factory.go", MC),
                          Place("get310PCardHandlerName", PL + "internal/npu/factory.go", MC),
                          Place("init310PCardPolicyHandler", PL + "internal/npu/factory.go", MC)))

#: the facts this rule's per-release claim rests on through the files compiler/releases.py cites, not a release
#: cluster, and why (lint/proofs.py)
CITED_FACTS = (
    ('no-handler-refused',
     'the simulated cluster has no huawei.com/npu nodes, so v26.1.0 refuses a huawei.com/npu job at '
     'enqueue ("require npu num is 8, but cluster npu num is 0", seen on 2026-12-07) before its plugin '
     'looks for a handler; the fact itself is shown for AC306 by shape accelerator-types-joined'),
)


def _close(word: str, options: Sequence[str], n: int = 1) -> List[str]:
    import difflib  # only when there is something to suggest

    return difflib.get_close_matches(word, options, n=n)


def _misspelt_key(obj: ObjectContext) -> Optional[Tuple[str, Path]]:
    """The first annotation key of the job or a pod template that is ``huawei.com/schedule_policy`` misspelt
    (``huawei.com/scheduler-policy``, ``huawei.com/schedulePolicy``), with where it is; None if none."""
    places: List[Tuple[Path, Any]] = [(("metadata", "annotations"), obj.annotations)] + [
        (pod_set.spec_path[:-1] + ("metadata", "annotations"), pod_set.metadata.get("annotations"))
        for pod_set in obj.pod_sets()]
    for base, annotations in places:
        if isinstance(annotations, dict):
            keys = [k for k in annotations if isinstance(k, str) and k != SCHEDULE_POLICY_ANNOTATION]
            close = _close(SCHEDULE_POLICY_ANNOTATION, [k.lower() for k in keys], n=1) if keys else []
            if close:
                key = next(k for k in keys if k.lower() == close[0])
                return key, base + (key,)
    return None


def _no_handler(run: RunContext, resource: str) -> Tuple[str, Optional[str]]:
    """(what the target's plugin does with a ``resource`` job it has no handler for, the severity: None for the
    rule's)."""
    if not releases.value("no-handler-refused", run.release):
        what, severity = unhandled(run.release, resource)
        return f"MindCluster {run.release} {what}", severity
    older = [r for r in releases.RELEASES if not releases.value("no-handler-refused", r)]
    later = "" if run.target is None or run.target.given else f" ({unhandled_on(older, resource)})"
    return f"it is refused (NotSupportPolicy){later}", None


def _ignored(obj: ObjectContext, run: RunContext, policy: str, where: Path) -> Iterator[Problem]:
    """A policy the default release reads that the target's plugin ignores (not read up to v7.0.RC1, not in v7.3.2's
    map): a warning when judged for such a release; without a target, a note for a job without a node selector
    where ignoring it changes the handler (the older plugins give it their default Atlas 800 handler)."""
    every, signals = run.profiles.all(), obj.signals()
    ignoring = [r for r in releases.RELEASES if policy not in known_policies(every, r)]
    if run.release in ignoring:
        said = f"does not read {SCHEDULE_POLICY_ANNOTATION}" if not releases.value("schedule-policies", run.release) \
            else f"has no {policy!r} in its policy map"
        yield Problem(where, f"MindCluster {run.release} {said}: the scheduler ignores {policy!r} and picks the handler "
                             "by sp-block, the accelerator-type node selector, or its default (Atlas 800) handler",
                      hint="select the servers with the accelerator-type node selector too", severity=WARNING)
        return
    if run.target is None or run.target.given or signals.selected_types():
        return  # with a node selector the older plugins' handler is the one the selector names: noted only without
    mine = candidate_profiles(every, signals, run.release)
    changed = [r for r in ignoring if candidate_profiles(every, signals, r) != mine]
    if changed:
        yield Problem(where, f"schedule_policy {policy!r}: " + on_other_releases(
            changed, "the plugin ignores it and picks another handler (by sp-block, the accelerator-type node "
                     "selector, or the default Atlas 800 one)"), severity=INFO)


def _known(profiles: List[Profile]) -> List[str]:
    """Every policy some supported release's plugin reads, and any a (project) profile adds, sorted."""
    return sorted({p.schedule_policy for p in profiles if p.schedule_policy}
                  | {name for _, _, names in releases.fact("schedule-policies").spans for name in names})


def _strategy_310(obj: ObjectContext, run: RunContext, resource: str) -> Iterator[Problem]:
    """The npu-310-strategy (and duo) labels the plugin reads (the job's, which its PodGroup gets, and the pods',
    joined with ``|`` where they differ) when the joined value names no handler: none at all for Ascend310 (refused
    where the target's plugin refuses such a job, else passed unchecked: a warning), the generic one for an Atlas
    300I Duo job."""
    duos = obj.label_values(DUO_LABEL)
    if resource == ASCEND310P_RESOURCE:
        if not any(value == "true" for _, value in duos):
            return  # without duo: "true" no label value names a handler; the generic one schedules it
        duo = joined_label(duos)
        if duo != "true":
            at = next((path for path, value in duos if value != "true"), duos[-1][0])
            yield Problem(at, f"the job's duo labels join into {duo!r}, not \"true\": the scheduler gives this "
                              "Atlas 300I Duo job its generic 310P handler, not the Duo's",
                          hint='label the job and its pod templates duo: "true" alike', severity=WARNING)
            return
    values = obj.label_values(STRATEGY_310)
    joined = joined_label(values)
    if joined is None or joined in STRATEGIES_310:
        return
    on_job = values[0][0][0] == "metadata"
    if not on_job and "|" not in joined and any(value in STRATEGIES_310 for _, value in values):
        return  # the pods' spellings differ in case only: the one the plugin meets first decides, a known one too
    if resource == ASCEND310_RESOURCE:
        outcome, severity = _no_handler(run, resource)
        said = f"the scheduler has no handler for this {ASCEND310_RESOURCE} job; {outcome}"
    else:
        said, severity = "the scheduler gives this Atlas 300I Duo job its generic 310P handler, not the Duo's", WARNING
    for path, value in values:
        if value not in STRATEGIES_310:
            yield Problem(path, f"{STRATEGY_310} {value!r} is not chip or card: {said}", hint="use chip or card",
                          severity=severity)
    known = [(path, value) for path, value in values if value in STRATEGIES_310]
    for path, value in known[1:]:
        if value != known[0][1]:
            where = "on the job" if known[0][0][0] == "metadata" else "on another pod template"
            yield Problem(path, f"{STRATEGY_310} {value!r} here and {known[0][1]!r} {where} join into {joined!r}, "
                                f"which names no handler: {said}",
                          hint=f"give every label set the same {STRATEGY_310}, or only the job", severity=severity)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    resource = obj.npu_resource()
    if resource == ASCEND310_RESOURCE or resource == ASCEND310P_RESOURCE:
        yield from _strategy_310(obj, run, resource)
    if resource is None or run.profiles is None:
        return
    found = obj.job_annotation(SCHEDULE_POLICY_ANNOTATION)
    known = run.from_profiles(_known)
    if found is None or found[0] is None:
        unread = obj.unread_annotation(SCHEDULE_POLICY_ANNOTATION)
        if unread is not None:
            said = (f"{SCHEDULE_POLICY_ANNOTATION} is on the {obj.kind}'s own metadata, which Volcano does not pass "
                    "to the pods' PodGroup (it passes volcano.sh/ annotations only)")
            hint = "move it to spec.template.metadata.annotations"
            if resource == NPU_RESOURCE:
                yield Problem(unread, f"{said}: the scheduler has no handler for this {NPU_RESOURCE} job", hint=hint,
                              key=True)
            else:
                yield Problem(unread, f"{said}: the scheduler never sees it, the node selectors decide", hint=hint,
                              key=True, severity=WARNING)
        elif resource == NPU_RESOURCE:
            path: Path = ("metadata", "annotations") if "annotations" in obj.metadata else ("metadata",)
            misspelt = _misspelt_key(obj)
            hint = None
            if misspelt is not None:
                path = misspelt[1]
                hint = f"rename {misspelt[0]!r} to {SCHEDULE_POLICY_ANNOTATION!r}: the scheduler reads that key only"
            said, severity = _no_handler(run, resource)
            yield Problem(path, f"the job requests {NPU_RESOURCE} but has no {SCHEDULE_POLICY_ANNOTATION} "
                                f"annotation: the scheduler has no handler for it; {said}", key=True, hint=hint,
                          severity=severity)
        return
    policy, where = found
    if policy not in known:
        close = _close(str(policy), known, n=1)
        hint = (f"did you mean {close[0]!r}? " if close else "") + f"known: {', '.join(known)}"
        if resource == NPU_RESOURCE:
            said, severity = _no_handler(run, resource)
            yield Problem(where, f"schedule_policy {policy!r} is unknown: the scheduler has no handler for this "
                                 f"{NPU_RESOURCE} job; {said}", hint=hint, severity=severity)
        else:
            yield Problem(where, f"schedule_policy {policy!r} is unknown; the scheduler ignores it and falls back "
                          "to the node selectors", hint=hint, severity=WARNING)
        return
    if resource == NPU_RESOURCE and policy not in known_policies(run.profiles.all(), run.release):
        said, severity = _no_handler(run, resource)
        yield Problem(where, f"MindCluster {run.release} has no handler for {NPU_RESOURCE} with schedule_policy "
                             f"{policy!r}; {said}", severity=severity)
    elif isinstance(policy, str) and resource == ASCEND_910:
        yield from _ignored(obj, run, policy, where)
