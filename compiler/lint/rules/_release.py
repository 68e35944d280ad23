"""What a finding says when its truth depends on the MindCluster release or on Volcano's admission webhook (shared by
the rules whose consequence differs between supported releases or installs; no rule lives here).

A rule knows the supported releases on which its finding holds (from :data:`ascend_compile.releases.FACTS`); these
helpers turn that and the run's target into the severity and the words of the finding, as docs/architecture.md
("Releases") says: on the judged release it holds at the rule's severity (naming the releases when no target was
given and it does not hold on all); where it holds only on other releases it is a note when no target was given,
and nothing when one was.
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional, Tuple

from ...findings import ERROR, INFO, WARNING
from ...releases import RELEASES, releases_where, span_text, value
from ...vocabulary import ASCEND310_RESOURCE, ASCEND_910
from ..context import RunContext
from ._util import on_other_releases

#: how a note about other releases tells the user to name theirs
SET_TARGET = "set cluster.mindcluster in .ascend-compile.yaml or --mindcluster to judge for your release"


def on_releases(run: RunContext, holds: Iterable[str]) -> Optional[Tuple[Optional[str], str, str]]:
    """How to report a finding that holds on the releases ``holds``: (severity override, prefix, suffix), or None
    when it is not to be reported (it holds nowhere, or not on the release the user named)."""
    where = tuple(release for release in RELEASES if release in set(holds))
    target = run.target
    if target.release in where:
        named = "" if target.given or len(where) == len(RELEASES) else f" (MindCluster {span_text(where)})"
        return None, "", named
    if target.given or not where:
        return None
    return INFO, f"on MindCluster {span_text(where)}: ", f" ({SET_TARGET})"


def where_fact(name: str, test: Callable[[object], bool] = bool) -> Tuple[str, ...]:
    """The supported releases on which ``test`` holds of fact ``name`` (a shorthand for the rules)."""
    return releases_where(name, test)


def operator_refusal(run: RunContext, where: Iterable[str] = RELEASES) -> str:
    """What ascend-operator's refusal of an AscendJob looks like on the run's target: from v26.0.1 the job is marked
    Failed, before that it only gets a Warning event; with no target given, each on those of the releases ``where``
    (those that refuse it) it holds for."""
    failed = where_fact("refused-ascendjob-failed")
    marked = "the operator refuses the job and marks it Failed (JobValidFailed)"
    silent = "the operator refuses the job with a Warning event only: the job shows no status and never gets pods"
    if run.target.given:
        return marked if run.target.release in failed else silent
    chosen = set(where)
    newer = [release for release in failed if release in chosen]
    older = [release for release in RELEASES if release in chosen and release not in failed]
    if not older or not newer:
        return marked if newer else silent
    return (f"the operator refuses the job (MindCluster {span_text(newer)}: marked Failed, JobValidFailed; "
            f"{span_text(older)}: a Warning event only, the job never gets pods)")


def webhook_refusal(run: RunContext, without: str, severity_without: str = WARNING) -> Tuple[str, str]:
    """(what happens, severity) to a Volcano Job that Volcano's admission webhook refuses, on the run's target:
    refused where the webhook is installed (an error); ``without`` (at ``severity_without``) where it is not, as
    in MindCluster's own install; both when the target does not say (at the severity of MindCluster's install)."""
    webhook = run.target.volcano_webhook
    if webhook:
        return "Volcano's admission webhook refuses the job", ERROR
    if webhook is False:
        return f"without Volcano's admission webhook {without}", severity_without
    return (f"Volcano's admission webhook refuses the job where it is installed; without it (MindCluster's own "
            f"install has none) {without}"), severity_without


#: what the plugin does with a job it finds no handler for, on the releases where it does not refuse it (fact
#: no-handler-refused)
UNCHECKED = "passes it with no NPU checks (no per-pod rules, no node checks, no NPU annotation)"
#: what such a job does beside others where fact no-handler-crashes-scheduler holds
CRASH = (f"beside another {ASCEND_910} job waiting for nodes it crashes vc-scheduler (nil pointer dereference), "
         "again after each restart while both exist")
#: the jobs of which it holds: the resources whose jobs that plugin sets up (it takes no huawei.com/npu job in)
_CRASHING_RESOURCES = (ASCEND_910, ASCEND310_RESOURCE)


def crashes_where(resource: Optional[str], releases: Iterable[str] = RELEASES) -> Tuple[str, ...]:
    """Those of ``releases`` on which a ``resource`` job without a handler crashes the scheduler beside a waiting job."""
    if resource not in _CRASHING_RESOURCES:
        return ()
    return tuple(r for r in releases if value("no-handler-crashes-scheduler", r))


def unhandled(release: str, resource: Optional[str]) -> Tuple[str, Optional[str]]:
    """What MindCluster ``release``'s plugin, which does not refuse a job it has no handler for, does with a
    ``resource`` job it has none for (``passes it ...``), and the finding's severity: it runs unchecked (a warning);
    or, where such a job crashes the scheduler beside a job waiting for nodes, it runs unchecked only alone (None: the
    rule's severity, error: a scheduler that crashes again after each restart schedules nothing, and a cluster runs
    other NPU jobs)."""
    if crashes_where(resource, (release,)):
        return f"{UNCHECKED} when it is alone, but {CRASH}", None
    return UNCHECKED, WARNING


def unhandled_on(where: Iterable[str], resource: Optional[str], lead: str = "the plugin ") -> str:
    """The note on the releases ``where`` (not the judged one) that pass a ``resource`` job without a handler
    unchecked, and on those of them where it crashes the scheduler beside a waiting job, for a run that named no
    release: ``on MindCluster v6.0.0-v26.0.1 the plugin passes it ...; on v6.0.0, beside ...; set ...``."""
    chosen = tuple(where)
    crashing = crashes_where(resource, chosen)
    crash = f"; on {span_text(crashing)}, {CRASH}" if crashing else ""
    return on_other_releases(chosen, f"{lead}{UNCHECKED}{crash}")
