"""The compile pipeline: spec documents in, checked Kubernetes objects out.

``compile_specs`` resolves every spec (schema, profile rules, defaults),
emits its objects, and validates them against the same schemas ``validate``
uses.  It compiles everything before returning, so a caller can refuse to
write anything when one spec fails.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..catalogue import NOT_A_SPEC, PATCH_CONFLICT, SPEC_INVALID
from ..errors import CompileError, InputError, InternalError
from ..findings import ERROR, INTERNAL, WARNING, Finding, describe_document, severity_at_least
from ..jobspec.model import API_VERSION, KIND, Spec, is_spec
from ..jobspec.resolve import resolve
from ..lint.session import Session, open_session
from ..manifest.values import as_dict
from ..records import record
from ..yamlio.locations import Document



@record(frozen=True)
class CompiledJob:
    spec: Spec
    objects: List[Dict[str, Any]]
    source: str
    #: lint's warnings about the objects (``compile`` prints them on stderr; an error refuses the job)
    warnings: Tuple[Finding, ...] = ()


def self_check(objects: Sequence[Dict[str, Any]], doc: Optional[Document] = None,
               spec: Optional[Spec] = None) -> None:
    """Validate emitted objects against the same schemas ``validate`` uses.

    The spec passes some fields through unchecked (env ``valueFrom``,
    ``podTemplatePatch`` and ``jobPatch`` are free-form Kubernetes); an invalid
    object caused by them is the user's to fix and is reported at that spec field.  Anything
    else means emission is wrong: that is our bug, and it fails loudly.
    """
    from ..schemacheck import check

    for obj in objects:
        problems = [f for f in check.validate_object(obj) if f.severity == ERROR]
        if not problems:
            continue
        blamed = _blame_passthrough(problems, obj, doc, spec, is_job=obj is objects[-1])
        if blamed:
            raise CompileError(blamed)
        detail = "; ".join(f"{f.field_path}: {f.message}" for f in problems[:5])
        raise InternalError(
            f"ascend-compile produced an invalid {obj.get('kind')} {obj.get('metadata', {}).get('name')!r}: "
            f"{detail}. This is a bug in ascend-compile; please report it with the spec.")


def _blame_passthrough(problems: Sequence[Finding], obj: Dict[str, Any], doc: Optional[Document],
                       spec: Optional[Spec], is_job: bool) -> List[Finding]:
    """Findings located at the spec field that passed the invalid content through, if every problem has one
    (``jobPatch`` is merged into the job, ``is_job``: the last object)."""
    if doc is None or spec is None:
        return []
    raw = doc.data.get("spec", {}) if isinstance(doc.data, dict) else {}
    out: List[Finding] = []
    for problem in problems:
        where: Optional[Tuple[Any, ...]] = None
        if is_job and "jobPatch" in raw:
            where = _patch_origin(obj, problem.path, raw["jobPatch"], ("spec", "jobPatch"))
        how = "merged into the compiled job as is"
        if where is None and "podTemplatePatch" in raw:
            where, how = ("spec", "podTemplatePatch"), "copied into the pod template as is"
        elif where is None and "env" in problem.path and "env" in raw:
            where, how = ("spec", "env"), "copied into the pod template as is"
        if where is None:
            return []
        loc = doc.locate(where)
        out.append(Finding(
            SPEC_INVALID, ERROR,
            f"the compiled {obj.get('kind')} is invalid at {problem.field_path}: {problem.message}",
            where, f"{where[1]} is {how}; fix it there"
            + (f" ({problem.hint})" if problem.hint else ""),
            loc.file, loc.line, loc.column, obj=describe_document(doc.data)))
    return out


def _patch_origin(obj: Any, path: Sequence[Any], patch: Any, where: Tuple[Any, ...]) -> Optional[Tuple[Any, ...]]:
    """The spec path of the part of ``patch`` (merged into ``obj`` as :mod:`.emit.patch` merges) that put the
    value at ``path`` into ``obj``; None where the value there is not (wholly) the patch's."""
    from ..emit.patch import PATCH_KEY, REPLACE

    node = obj
    for depth, element in enumerate(path):
        if isinstance(patch, dict) and isinstance(element, str) and element in patch:
            patch, where = patch[element], where + (element,)
        elif isinstance(patch, list) and isinstance(element, int) and isinstance(node, list) \
                and 0 <= element < len(node):
            item = node[element]
            replaced = bool(patch) and isinstance(patch[0], dict) and patch[0].get(PATCH_KEY) == REPLACE
            if isinstance(item, dict) and isinstance(item.get("name"), str) and not replaced:
                index = next((i for i, p in enumerate(patch) if isinstance(p, dict) and p.get("name") == item["name"]),
                             None)
            else:
                index = element + 1 if replaced else element
            if index is None or index >= len(patch):
                return None
            patch, where = patch[index], where + (index,)
        elif depth == len(path) - 1 and isinstance(patch, dict) and isinstance(node, dict) and element not in node \
                and set(node) <= set(patch):
            return where  # a field missing from what the patch wrote wholly
        else:
            return None
        try:
            node = node[element]
        except (KeyError, IndexError, TypeError):
            return None
    return where


def compile_document(doc: Document, session: Session) -> CompiledJob:
    """One spec document resolved (with the session's profiles, config and target), emitted and self-checked; no
    output lint (:func:`compile_each` and :func:`compile_specs` add it)."""
    from ..emit import emit
    from ..emit.patch import PatchError

    if not is_spec(doc.data):
        loc = doc.locate(("kind",) if isinstance(doc.data, dict) and "kind" in doc.data else ())
        kind = doc.data.get("kind") if isinstance(doc.data, dict) else type(doc.data).__name__
        raise CompileError([Finding(
            NOT_A_SPEC, ERROR, f"document {doc.index + 1} is not a job spec (kind {kind!r})",
            ("kind",), f"compile reads kind: {KIND} with apiVersion: ascend-compile.io/v1alpha1; "
            "check other manifests with 'ascend-compile lint'", loc.file, loc.line, loc.column)])
    if doc.data.get("apiVersion") != API_VERSION:
        loc = doc.locate(("apiVersion",))
        raise CompileError([Finding(
            SPEC_INVALID, ERROR, f"unknown spec version {doc.data.get('apiVersion')!r}: this release of "
            f"ascend-compile reads {API_VERSION}", ("apiVersion",),
            f"write apiVersion: {API_VERSION}, or use the ascend-compile release that reads this version",
            loc.file, loc.line, loc.column)])
    spec = resolve(doc, session.registry, session.config, session.target)
    try:
        objects = emit(spec)
    except PatchError as exc:
        loc = doc.locate(exc.path)
        raise CompileError([Finding(exc.rule or PATCH_CONFLICT, ERROR, exc.message, exc.path, exc.hint, loc.file,
                                    loc.line, loc.column, obj=describe_document(doc.data))]) from None
    self_check(objects, doc, spec)
    forged = _location_annotations(doc, objects)
    if forged:
        raise CompileError(forged)
    return CompiledJob(spec, objects, doc.source)


#: annotations kustomize and kpt set to say which file an object is in (and which object it is): theirs alone.
#: The user-facing ``config.kubernetes.io/`` ones (``depends-on``, ``local-config``, ...) stay a spec's to set.
LOCATION_PREFIX = "internal.config.kubernetes.io/"
LOCATION_KEYS = ("config.kubernetes.io/path", "config.kubernetes.io/index", "config.kubernetes.io/id",
                 "config.k8s.io/id")


def _location_annotations(doc: Document, objects: Sequence[Dict[str, Any]]) -> List[Finding]:
    """A finding for each location annotation of kustomize/kpt the spec put on an object it compiles to.

    kpt writes each object of a function's output to the file its ``path`` annotation names, and kustomize and
    kpt take these annotations on objects they read as their own; so a spec setting one (through
    ``annotations`` or ``jobPatch``) could have a generated object written anywhere: ``compile`` refuses it as
    the KRM function does."""
    findings: List[Finding] = []
    for obj in objects:
        for key in as_dict(as_dict(obj.get("metadata")).get("annotations")):
            if isinstance(key, str) and (key.startswith(LOCATION_PREFIX) or key in LOCATION_KEYS):
                path = _setting_field(doc.data, key)
                loc = doc.locate(path)
                findings.append(Finding(
                    SPEC_INVALID, ERROR,
                    f"the {obj.get('kind')} this spec compiles to would carry the annotation {key!r}: kustomize "
                    "and kpt set it to say which file an object is in (and write the object there), so a spec "
                    "cannot set it", path, "remove the annotation from the spec", loc.file, loc.line, loc.column,
                    obj=describe_document(doc.data)))
    return findings


def _setting_field(spec: Any, key: str) -> Tuple[str, ...]:
    """The spec field that sets the annotation ``key``: ``spec.annotations`` or the ``jobPatch``'s metadata."""
    body = as_dict(as_dict(spec).get("spec"))
    if key in as_dict(body.get("annotations")):
        return ("spec", "annotations", key)
    if key in as_dict(as_dict(as_dict(body.get("jobPatch")).get("metadata")).get("annotations")):
        return ("spec", "jobPatch", "metadata", "annotations", key)
    return ("spec",)


class _Outcome:
    """One spec document's way through the run: its job (None once refused) and the findings about it."""

    __slots__ = ("doc", "job", "findings")

    def __init__(self, doc: Document, job: Optional[CompiledJob], findings: List[Finding]):
        self.doc, self.job, self.findings = doc, job, findings


def compile_each(docs: Iterable[Document], session: Session
                 ) -> List[Tuple[Document, Optional[CompiledJob], List[Finding]]]:
    """Every document through every step, each on its own: (document, its job or None if refused, findings).

    For callers that report per document and keep what compiled (the KRM function, lint of specs); a job's
    warnings are also in its ``warnings``.  :func:`compile_specs` is the all-or-nothing form of the same steps.
    """
    outcomes = _compile_documents(docs, session)
    if session.output_lint:
        _lint_jobs([o for o in outcomes if o.job is not None], session)
    return [(o.doc, o.job, o.findings) for o in outcomes]


def check_specs(docs: Sequence[Optional[Document]], session: Session) -> Dict[int, List[Finding]]:
    """``lint`` of the job specs among one file's documents: what ``compile`` in the same session reports about each
    (its errors, its output's findings against the session's cluster and fail-on level), by position among
    ``docs``; the output is discarded.  Not a spec: not a key."""
    specs = {position: doc for position, doc in enumerate(docs) if doc is not None and is_spec(doc.data)}
    if not specs:
        return {}
    try:
        outcomes = compile_each(list(specs.values()), session)
    except InternalError as exc:  # our bug: one finding (exit code 3), and lint goes on with the other files
        first = next(iter(specs))
        bug = Finding(SPEC_INVALID, ERROR, str(exc), file=specs[first].source, extra=(INTERNAL,))
        return {position: [bug] if position == first else [] for position in specs}
    return {position: findings for position, (_, _, findings) in zip(specs, outcomes)}


def compile_specs(docs: Iterable[Document], session: Optional[Session] = None) -> List[CompiledJob]:
    """The compile use case, all or nothing: what ``compile``, ``apply``, ``diff``, the Python API run.

    Each document is resolved (schema, profile rules, defaults), emitted and self-checked, a job defined
    twice is refused, and then (unless the session's ``output_lint`` is off, ``--no-lint``) the output is linted
    against the session's cluster, for its target.  Any error, or output finding at or above the session's
    fail-on level, raises one CompileError carrying every finding; otherwise each job carries its output's
    warnings (``CompiledJob.warnings``).  No session: the built-in profiles, no config.
    """
    session = session or open_session()
    outcomes = _compile_documents(docs, session)
    refused = [f for o in outcomes for f in o.findings]
    if refused:
        raise CompileError(refused)
    if session.output_lint:
        findings = _lint_jobs(outcomes, session)
        if any(session.refuses(f) for f in findings):
            raise CompileError(findings)
    return [o.job for o in outcomes if o.job is not None]


def _compile_documents(docs: Iterable[Document], session: Session) -> List[_Outcome]:
    """Resolve, emit and self-check each document; a second job of the same namespace and name is refused."""
    outcomes: List[_Outcome] = []
    seen: Dict[Tuple[Optional[str], str], CompiledJob] = {}
    for doc in docs:
        try:
            job = compile_document(doc, session)
        except CompileError as exc:
            outcomes.append(_Outcome(doc, None, list(exc.findings)))
            continue
        key = (job.spec.namespace, job.spec.name)
        if key in seen:
            loc = doc.locate(("metadata", "name"))
            outcomes.append(_Outcome(doc, None, [Finding(
                SPEC_INVALID, ERROR, f"job {job.spec.name!r} is defined twice (also in {seen[key].source})",
                ("metadata", "name"), "give each job its own name", loc.file, loc.line, loc.column)]))
            continue
        seen[key] = job
        outcomes.append(_Outcome(doc, job, []))
    return outcomes


def lint_output(objects: Sequence[Tuple[Dict[str, Any], str]], session: Session) -> List[Finding]:
    """The output lint: compiled ``objects`` (each with its source) linted as one run with the session's profiles,
    config, cluster and target (no schemas: :func:`self_check` did that); its warnings and errors, and its notes
    too when the session fails on them.  What ``compile`` and every command that compiles (``import`` too) run."""
    if not objects:
        return []
    found = session.linter(schema=False).run(objects=list(objects))
    return [f for f in found if severity_at_least(f.severity, WARNING) or session.refuses(f)]


def _lint_jobs(outcomes: Sequence[_Outcome], session: Session) -> List[Finding]:
    """Lint the compiled objects as one run (:func:`lint_output`).

    Compiled output is lint-clean unless a spec passes something through (``podTemplatePatch``,
    ``jobPatch``, env values, pod counts off whole nodes).  Each finding goes to the outcome of the job
    whose object it is about; a job with a finding the session refuses is refused, the others carry
    their findings.
    """
    found = lint_output([(obj, f"{o.doc.source} (compiled)") for o in outcomes if o.job is not None
                         for obj in o.job.objects], session)
    if not found:
        return []
    owners = {describe_document(obj): o for o in reversed(outcomes) if o.job is not None for obj in o.job.objects}
    for finding in found:
        owner = owners.get(finding.obj) or outcomes[0]
        owner.findings.append(finding)
    for o in outcomes:
        if o.job is None:
            continue
        if any(session.refuses(f) for f in o.findings):
            o.job = None
        elif o.findings:
            o.job = CompiledJob(o.job.spec, o.job.objects, o.job.source, tuple(o.findings))
    return found
