"""The compile pipeline: spec documents in, checked Kubernetes objects out.

``compile_specs`` resolves every spec (schema, profile rules, defaults),
emits its objects, and validates them against the same schemas ``validate``
uses.  It compiles everything before returning, so a caller can refuse to
write anything when one spec fails.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..catalogue import NOT_A_SPEC, PATCH_CONFLICT, SPEC_INVALID
from ..config import ProjectConfig
from ..errors import CompileError, InputError, InternalError
from ..findings import ERROR, WARNING, Finding, describe_document
from ..hardware.profiles import ProfileRegistry
from ..jobspec import API_VERSION, KIND, Spec, is_spec, resolve
from ..records import record
from ..yamlio import Document



@record(frozen=True)
class CompiledJob:
    spec: Spec
    objects: List[Dict[str, Any]]
    source: str


def self_check(objects: Sequence[Dict[str, Any]], doc: Optional[Document] = None,
               spec: Optional[Spec] = None) -> None:
    """Validate emitted objects against the same schemas ``validate`` uses.

    The spec passes some fields through unchecked (env ``valueFrom`` and
    ``podTemplatePatch`` are free-form Kubernetes); an invalid object caused by
    them is the user's to fix and is reported at that spec field.  Anything
    else means emission is wrong: that is our bug, and it fails loudly.
    """
    from ..schemacheck import check as schemas

    for obj in objects:
        problems = [f for f in schemas.validate_object(obj) if f.severity == ERROR]
        if not problems:
            continue
        blamed = _blame_passthrough(problems, obj, doc, spec)
        if blamed:
            raise CompileError(blamed)
        detail = "; ".join(f"{f.field_path}: {f.message}" for f in problems[:5])
        raise InternalError(
            f"ascend-compile produced an invalid {obj.get('kind')} {obj.get('metadata', {}).get('name')!r}: "
            f"{detail}. This is a bug in ascend-compile; please report it with the spec.")


def _blame_passthrough(problems: Sequence[Finding], obj: Dict[str, Any], doc: Optional[Document],
                       spec: Optional[Spec]) -> List[Finding]:
    """Findings located at the spec field that passed the invalid content through, if any did."""
    if doc is None or spec is None:
        return []
    raw = doc.data.get("spec", {}) if isinstance(doc.data, dict) else {}
    out: List[Finding] = []
    for problem in problems:
        where: Tuple[Any, ...] = ()
        if "podTemplatePatch" in raw:
            where = ("spec", "podTemplatePatch")
        elif "env" in problem.path and "env" in raw:
            where = ("spec", "env")
        if not where:
            return []
        loc = doc.locate(where)
        out.append(Finding(
            SPEC_INVALID, ERROR,
            f"the compiled {obj.get('kind')} is invalid at {problem.field_path}: {problem.message}",
            where, f"{where[-1]} is copied into the pod template as is; fix it there"
            + (f" ({problem.hint})" if problem.hint else ""),
            loc.file, loc.line, loc.column, obj=describe_document(doc.data)))
    return out


def compile_document(doc: Document, registry: ProfileRegistry, config: ProjectConfig) -> CompiledJob:
    from ..emit import PatchError, emit

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
    spec = resolve(doc, registry, config)
    try:
        objects = emit(spec)
    except PatchError as exc:
        loc = doc.locate(exc.path)
        raise CompileError([Finding(PATCH_CONFLICT, ERROR, exc.message, exc.path, exc.hint, loc.file, loc.line,
                                    loc.column, obj=describe_document(doc.data))]) from None
    self_check(objects, doc, spec)
    return CompiledJob(spec, objects, doc.source)


def compile_specs(docs: Iterable[Document], registry: Optional[ProfileRegistry] = None,
                  config: Optional[ProjectConfig] = None) -> List[CompiledJob]:
    """Compile every document; raise one CompileError carrying all findings if any fails."""
    config = config or ProjectConfig()
    registry = registry or ProfileRegistry(config.profile_dirs)
    jobs: List[CompiledJob] = []
    findings: List[Finding] = []
    seen: Dict[Tuple[Optional[str], str], CompiledJob] = {}
    for doc in docs:
        try:
            job = compile_document(doc, registry, config)
        except CompileError as exc:
            findings.extend(exc.findings)
            continue
        key = (job.spec.namespace, job.spec.name)
        if key in seen:
            loc = doc.locate(("metadata", "name"))
            findings.append(Finding(SPEC_INVALID, ERROR,
                                    f"job {job.spec.name!r} is defined twice (also in {seen[key].source})",
                                    ("metadata", "name"), "give each job its own name",
                                    loc.file, loc.line, loc.column))
            continue
        seen[key] = job
        jobs.append(job)
    if findings:
        raise CompileError(findings)
    return jobs


def lint_output(jobs: Sequence[CompiledJob], registry: Optional[ProfileRegistry] = None,
                config: Optional[ProjectConfig] = None) -> List[Finding]:
    """Lint findings (errors and warnings) about the compiled objects, by the project's lint settings.

    Compiled output is lint-clean unless a spec passes something through (``podTemplatePatch``,
    ``jobPatch``, env values, pod counts off whole nodes): ``compile`` reports these, refusing errors.
    """
    from ..lint.engine import Linter

    linter = Linter(registry, config, schema=False)  # self_check has checked the schemas
    found = linter.run(objects=[(obj, f"{job.source} (compiled)") for job in jobs for obj in job.objects])
    return [f for f in found if f.severity in (ERROR, WARNING)]
