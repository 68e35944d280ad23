"""One admission judged: the object linted with the session every request shares, the findings made an answer.

The session (:class:`ascend_compile.lint.session.Session`: config, profiles, target, fail-on level) is made once
when the server starts; the inventory is read from ``inventory()`` on every request (the watches swap it whole,
:mod:`.watch`), so a request sees the cluster as of its own start and never lists anything.

A finding at or above the fail-on level refuses the object; the warnings are answered as admission warnings
(info findings are not).  In audit mode nothing is refused: what would refuse is a warning.  An UPDATE is refused
only for what it adds: a finding the stored object already had (same rule, same field path) is a warning, so a
controller can still change (or finalize) an object admitted before the webhook or its rules were.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, List, Optional, Set, Tuple

from ..findings import WARNING, Finding, severity_at_least
from ..manifest.job import kind_of
from ..podtemplates import find, table
from ..records import record
from ..vocabulary import JOBS, POD
from .review import Request, refusal_message, warnings_of
from .settings import ServeSettings

ALLOWED, DENIED, WARNED, ERROR = "allowed", "denied", "warned", "error"
RESULTS = (ALLOWED, DENIED, WARNED, ERROR)


@record(frozen=True)
class Verdict:
    """The answer to one request, and what the log and the metrics say of it (rule IDs only, never a message)."""

    allowed: bool
    result: str
    message: str = ""
    warnings: Tuple[str, ...] = ()
    #: the rules of every finding answered
    rules: Tuple[str, ...] = ()
    #: the rules of the findings that refused the object
    refused: Tuple[str, ...] = ()
    #: what went wrong, for the log (internal errors only: never an object's content)
    error: str = ""


class Judge:
    """Judges requests with one session; ``inventory()`` gives the cluster inventory now (None: no cluster)."""

    def __init__(self, session: Any, settings: ServeSettings,
                 inventory: Optional[Callable[[], Any]] = None):
        self.session = session
        self.settings = settings
        self.inventory = inventory or (lambda: session.inventory)
        self.pod_kinds = table(session.config.pod_templates)

    def reads(self, obj: Any) -> bool:
        """Whether ``obj`` is of a kind the linter reads: an AscendJob, a Volcano Job, a Pod, or a kind whose pod
        templates it knows (the built-in table and the config's ``podTemplates``)."""
        if not isinstance(obj, dict):
            return False
        if kind_of(obj) in JOBS or (obj.get("kind") == POD and obj.get("apiVersion") == "v1"):
            return True
        return find(obj, self.pod_kinds) is not None

    def judge(self, request: Request) -> Verdict:
        """The verdict on ``request``; an exception here is the caller's to answer (:func:`failed`)."""
        obj = request.obj
        if obj is None or not self.reads(obj) or _being_deleted(obj):
            return Verdict(True, ALLOWED)
        linter = replace(self.session, inventory=self.inventory()).linter()
        findings = _shown(linter.run(objects=[(_without_managed_fields(obj), "")]))
        internal = sorted({finding.rule for finding in findings if finding.internal})
        if internal and self.settings.failure_mode == "fail":
            return failed(self.settings, f"rules failed: {', '.join(internal)}")
        findings = [finding for finding in findings if not finding.internal]
        stored = self._stored_findings(request, linter) if request.operation == "UPDATE" else set()
        refusing = [f for f in findings if self.session.refuses(f) and (f.rule, f.path) not in stored]
        rest = [f for f in findings if f not in refusing and severity_at_least(f.severity, WARNING)]
        rules = tuple(sorted({f.rule for f in refusing + rest}))
        error = f"rules failed: {', '.join(internal)}" if internal else ""
        if refusing and not self.settings.audit:
            return Verdict(False, DENIED, refusal_message(refusing), tuple(warnings_of(rest)), rules,
                           tuple(sorted({f.rule for f in refusing})), error)
        answered = refusing + rest
        return Verdict(True, WARNED if answered else ALLOWED, "", tuple(warnings_of(answered)), rules, (), error)

    def _stored_findings(self, request: Request, linter: Any) -> Set[Tuple[str, Any]]:
        if request.old is None or not self.reads(request.old):
            return set()
        return {(f.rule, f.path) for f in linter.run(objects=[(_without_managed_fields(request.old), "")])}


def failed(settings: ServeSettings, reason: str) -> Verdict:
    """The answer when an object could not be judged (our error, not ready, or no answer before the deadline):
    admitted in failure mode ignore (and in audit mode), refused in fail; ``reason`` goes to the log, and, refused,
    to the submitter (it never holds the object's content)."""
    if settings.failure_mode == "fail" and not settings.audit:
        return Verdict(False, ERROR, f"ascend-compile could not check this object ({reason}); the webhook refuses "
                       "what it cannot check (--failure-mode fail): try again, or ask the cluster's operators",
                       error=reason)
    return Verdict(True, ERROR, error=reason)


def _shown(findings: List[Finding]) -> List[Finding]:
    return sorted(findings, key=lambda f: (f.path != (), f.rule, f.field_path, f.message))


def _being_deleted(obj: Any) -> bool:
    meta = obj.get("metadata")
    return isinstance(meta, dict) and bool(meta.get("deletionTimestamp"))


def _without_managed_fields(obj: Any) -> Any:
    """The object without ``metadata.managedFields``: the API server's bookkeeping, not what was submitted."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict) or "managedFields" not in meta:
        return obj
    return {**obj, "metadata": {key: value for key, value in meta.items() if key != "managedFields"}}
