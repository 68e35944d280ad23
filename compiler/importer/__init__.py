"""``ascend-compile import``: AscendJob / Volcano Job manifests (with the ConfigMaps they use) to job specs.

For each job: the hardware profiles its NPU request, selectors and annotations fit (:mod:`..targeting`,
through the lint view of the object), the base spec that compiles closest to it, then every field the
manifest suggests that brings the compiled job closer (:mod:`.search`). What no field says is carried by
``jobPatch`` (:mod:`.mergediff`, the inverse of the spec's patches), with a comment saying so. The spec
is then compiled once more and must give back the job and every ConfigMap of the input it writes;
anything else raises :class:`ImportRefused` (rule AC026; a job with an error lint finds is refused under
that rule's own ID, where ``lint`` reports it in the manifest): nothing is dropped silently.  An object that is
not a job and that no job's spec writes (a Deployment, a Service, a ConfigMap of another namespace) is
skipped with a note (an ``info`` finding, and a comment on the specs of the jobs of its file): it stays a
manifest beside the specs.
"""
from __future__ import annotations

import copy
import datetime
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..catalogue import IMPORT_REFUSED, SPEC_INVALID
from ..errors import CompileError, InternalError
from ..findings import ERROR, INFO, Finding, describe_document, format_path
from ..lint.session import Session, open_session
from ..manifest.job import Manifest
from ..hardware.targeting import candidate_profiles
from ..vocabulary import (ASCEND_JOB, CONFIG_MAP, DEFAULT_NAMESPACE, NAMESPACE, RANKTABLE_CONFIGMAP_PREFIX,
                          RANKTABLE_SHARED_DIR, RESET_CONFIGMAP_PREFIX, RESET_SHARED_DIR, VOLCANO_JOB)
from ..yamlio.locations import Document
from .fields import named_framework
from .harmless import accept_object
from .mergediff import Uncarried, first_difference
from .owned import uncarried_owned
from .search import comparable

__all__ = ["Imported", "ImportRefused", "import_documents"]


class ImportRefused(CompileError):
    """Manifests import cannot turn into specs without loss; ``findings`` say which and why."""


class Imported:
    """One job's spec (as data), where it came from, and what the reader should know about it."""

    def __init__(self, spec: Dict[str, Any], source: str, notes: List[str], accepted: Sequence[str] = ()):
        self.spec, self.source, self.notes = spec, source, notes
        #: the harmless differences between the manifest and what the spec compiles to (none with --exact)
        self.accepted = list(accepted)

    @property
    def name(self) -> str:
        return str(self.spec["metadata"]["name"])


def _refuse(doc: Document, message: str, hint: str, path: Tuple[Any, ...] = (), rule: str = IMPORT_REFUSED) -> Finding:
    loc = doc.locate(path) if doc.node is not None else None
    return Finding(rule, ERROR, message, path, hint, loc.file if loc else doc.source,
                   loc.line if loc else 0, loc.column if loc else 0)


def import_documents(docs: Sequence[Document], session: Optional[Session] = None, profile: Optional[str] = None,
                     skipped: Optional[List[Finding]] = None,
                     refused: Optional[List[Finding]] = None, exact: bool = False) -> List[Imported]:
    """A spec per job among ``docs``; raise ImportRefused with every problem if any document cannot be carried,
    or, given ``refused``, add the problems there and return the specs of the others (if there are any).

    The objects skipped (not jobs, not written by a spec) are added to ``skipped`` as info findings. With
    ``exact`` the specs compile to the manifests byte for byte; without, to manifests the cluster treats the
    same (:mod:`.harmless`), each spec listing the differences it accepted.  The specs are compiled and their output
    linted in ``session`` (default: no config, the built-in profiles): a job whose spec ``compile`` would refuse
    there is refused.
    """
    session = session or open_session()
    jobs = [d for d in docs if isinstance(d.data, dict) and Manifest(d.data).kind in (ASCEND_JOB, VOLCANO_JOB)]
    others = [d for d in docs if d not in jobs]
    problems: List[Finding] = []
    out: List[Imported] = []
    claimed: Set[int] = set()
    for doc in jobs:
        try:
            imported, used = _import_job(doc, others, session, profile, exact)
        except ImportRefused as exc:
            problems.extend(exc.findings)
            continue
        out.append(imported)
        claimed.update(used)
    left = [(doc, _described(doc)) for doc in others if id(doc) not in claimed]
    notes = [_skip(doc, what) for doc, what in left]
    if skipped is not None:
        skipped.extend(notes)
    for one in out:
        one.notes += [f"skipped the {what} of the same file, not an AscendJob or Volcano Job: keep it as a manifest"
                      for doc, what in left if doc.source == one.source]
    if not jobs and not problems:
        raise ImportRefused([Finding(IMPORT_REFUSED, ERROR, "no AscendJob or Volcano Job to import", (),
                                     "import reads AscendJob and Volcano Job manifests; keep the others as manifests "
                                     "('ascend-compile lint' checks them)", docs[0].source if docs else "")] + notes)
    if problems and (refused is None or not out):
        raise ImportRefused(problems + notes)
    if refused is not None:
        refused.extend(problems)
    return out


def _described(doc: Document) -> str:
    """``ConfigMap reset-config-x (namespace default)``: an object as a note names it."""
    data = doc.data if isinstance(doc.data, dict) else {}
    meta = data["metadata"] if isinstance(data.get("metadata"), dict) else {}
    kind = data.get("kind") or type(doc.data).__name__
    name = f" {meta['name']}" if meta.get("name") else ""
    return f"{kind}{name}" + (f" (namespace {meta['namespace']})" if meta.get("namespace") else "")


def _skip(doc: Document, what: str) -> Finding:
    """The note for an object no spec writes: import leaves it as a manifest."""
    from dataclasses import replace

    finding = _refuse(doc, f"skipped {what}: not an AscendJob or Volcano Job, and no imported job's spec writes it",
                      "keep it as a manifest beside the specs (the spec of a job writes its ConfigMaps "
                      "in the job's own namespace)")
    return replace(finding, severity=INFO)


def _related(job: Manifest, namespace: Optional[str], others: Sequence[Document]) -> Dict[Tuple[str, str], Document]:
    """The ConfigMaps and Namespace of the input that a job's spec may write, by (kind, name): a ConfigMap in
    ``namespace`` (the job's, or the one it implies), or one naming none beside a job that names none."""
    out = {}
    for doc in others:
        data = doc.data
        if not isinstance(data, dict) or data.get("kind") not in (CONFIG_MAP, NAMESPACE):
            continue
        meta: Dict[str, Any] = data["metadata"] if isinstance(data.get("metadata"), dict) else {}
        if data["kind"] == CONFIG_MAP and (meta.get("namespace") or None) not in {namespace, job.namespace or None}:
            continue
        out[(str(data["kind"]), str(meta.get("name")))] = doc
    return out


def implied_namespace(job: Manifest, others: Sequence[Document]) -> Optional[str]:
    """The namespace a job runs in: its own, or for a job that names none, ``default`` when what comes with it
    says so (a ConfigMap of its own in ``default``, a shared ranktable or reset directory ``default.<...>``)."""
    if job.namespace:
        return job.namespace
    mine = {f"{prefix}{job.name}" for prefix in (RANKTABLE_CONFIGMAP_PREFIX, RESET_CONFIGMAP_PREFIX)}
    for doc in others:
        data: Dict[str, Any] = doc.data if isinstance(doc.data, dict) else {}
        meta: Dict[str, Any] = data["metadata"] if isinstance(data.get("metadata"), dict) else {}
        if data.get("kind") == CONFIG_MAP and meta.get("name") in mine and meta.get("namespace") == DEFAULT_NAMESPACE:
            return DEFAULT_NAMESPACE
    shared = (f"{RANKTABLE_SHARED_DIR}/{DEFAULT_NAMESPACE}.", f"{RESET_SHARED_DIR}/{DEFAULT_NAMESPACE}.")
    for pods in job.pod_sets():
        for _, volume in pods.volumes():
            path = (volume.get("hostPath") or {}).get("path") if isinstance(volume.get("hostPath"), dict) else None
            if isinstance(path, str) and path.startswith(shared):
                return DEFAULT_NAMESPACE
    return None


def _import_job(doc: Document, others: Sequence[Document], session: Session, profile: Optional[str],
                exact: bool) -> Tuple[Imported, List[int]]:
    from . import search

    _check_values(doc)
    job = Manifest(doc.data)
    namespace = (job.namespace or None) if exact else implied_namespace(job, others)
    related = _related(job, namespace, others)
    datas = {key: d.data for key, d in related.items()}
    names = _profiles(doc, job, session.registry, profile)
    compile_one = _Compiler(session)
    why: List[Uncarried] = []
    best, tied = search.base(job, namespace, names, doc.data, datas, compile_one, exact, why)
    if best is None and why:
        raise ImportRefused([_refuse(doc, f"{format_path(why[0].path)}: {why[0].why}", "no spec can carry this value; "
                                     "change it, or keep this job as a manifest", why[0].path)])
    if best is None:
        reason = search.first_reason(job, names, compile_one)
        raise ImportRefused([_refuse(doc, f"job {job.name!r} does not compile on {_listed(names)} with any "
                                     "framework and NPU layout its manifest suggests" + (f" ({reason})" if reason
                                                                                          else ""),
                                     "the job cannot run as written on this hardware: change its NPU request "
                                     "('ascend-compile lint' says what the hardware takes), or keep it as a manifest")])
    if len(tied) > 1 and profile is None:
        raise ImportRefused([_refuse(doc, f"job {job.name!r} fits the profiles {_listed(tied)} equally well",
                                     "say which with --profile NAME")])
    best = search.refine(best, job, doc.data, datas, compile_one, exact)
    owned = uncarried_owned(best.spec, best.accepted, session.registry, session.config) if best.patch else None
    if owned is not None:
        mistakes = compile_one.lint([best.accepted])  # the manifest's own error comes first: compile refuses it too
        if mistakes:
            raise ImportRefused([_lint_error(doc, f, [best.accepted]) for f in mistakes])
        hint = owned[2] + (", or import it without --exact (the differences the cluster does not act on are then "
                           "accepted, and listed in the spec)" if exact and _loose(doc, others, session, profile)
                           else "")
        raise ImportRefused([_refuse(doc, f"job {job.name!r}: {owned[1]}", hint, owned[0])])
    spec = copy.deepcopy(best.spec)
    if best.patch:
        spec["spec"]["jobPatch"] = best.patch
    imported, used = _verify(doc, spec, best.accepted, related, compile_one, exact)
    imported.accepted = best.notes
    if named_framework(job) is None:
        imported.notes.insert(0, f"the manifest names no framework (no framework label, leader replica type or "
                                 f"framework env): spec.framework {spec['spec']['framework']} is the one whose job "
                                 "comes closest; check it")
    return imported, used


def _loose(doc: Document, others: Sequence[Document], session: Session, profile: Optional[str]) -> bool:
    """Whether the job imports without ``--exact`` (a refusal with ``--exact`` may say so only then)."""
    try:
        _import_job(doc, others, session, profile, False)
    except ImportRefused:
        return False
    return True


_LINT_IT = "fix what 'ascend-compile lint' reports ('lint --fix' makes the mechanical fixes), then import it"


def _check_values(doc: Document) -> None:
    """Refuse, at the field, a job whose manifest has a value of the wrong type (what ``lint`` reports in it:
    ``replicas: 2001-12-14`` or ``true``; compile would refuse a spec that wrote it) or a value a spec cannot
    carry as written (a date in a string field, a key that is not a string: Kubernetes reads each as the text
    it spells, the spec would write it back as something else). An explicit null is left to the patch step,
    which says why no spec carries it."""
    from dataclasses import replace

    from ..schemacheck.check import validate_document

    wrong = [f for f in validate_document(doc) if f.severity == ERROR and _value_at(doc.data, f.path) is not None]
    if wrong:
        raise ImportRefused([replace(f, message=f"import refuses the job: as written it is not valid: {f.message}",
                                     hint=f"{f.hint}, then import it ('lint --fix' makes the mechanical fixes)" if f.hint
                                     else _LINT_IT) for f in wrong])
    odd = _unspelled(doc.data, ())
    if odd is not None:
        path, what = odd
        raise ImportRefused([_refuse(doc, f"{format_path(path) or 'the job'}: {what}, which a spec cannot carry as "
                                          "written", "quote it: Kubernetes reads it as the string it spells", path)])


def _value_at(data: Any, path: Sequence[Any]) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return ()  # not there (a missing field): not a null
    return data


def _unspelled(value: Any, path: Tuple[Any, ...]) -> Optional[Tuple[Tuple[Any, ...], str]]:
    """The first value YAML reads as something JSON has not (a date or time), or a mapping with a key that is
    not a string, and what it is."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):  # said at the mapping: a path names keys by their text
                return path, f"its key {key!r} is not a string"
            found = _unspelled(item, path + (key,))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _unspelled(item, path + (index,))
            if found is not None:
                return found
    elif isinstance(value, (datetime.date, datetime.time)):
        return path, f"YAML reads {value.isoformat()} as a date or time"
    return None


def _does_not_compile(doc: Document, finding: Finding) -> Finding:
    """Why the imported spec does not compile: the manifest's own mistake, which its jobPatch carries, or ours."""
    if finding.rule == SPEC_INVALID and finding.path[:2] == ("spec", "jobPatch"):
        return _refuse(doc, "the job is not valid as written, so no spec compiles to it: "
                            f"{finding.message.split(' is invalid at ', 1)[-1]}",
                       _LINT_IT)
    if finding.path[:2] == ("spec", "jobPatch"):  # the patch import wrote, not the user: no hint about editing it
        return _refuse(doc, "no spec compiles to this job: the jobPatch that would carry what its fields do not say "
                            f"is refused: {finding.message}", "keep this job as a manifest ('ascend-compile lint' "
                                                              "checks it)")
    return _refuse(doc, f"the imported spec does not compile: {finding.message}", finding.hint)


def _verify(doc: Document, spec: Dict[str, Any], accepted: Dict[str, Any], related: Dict[Tuple[str, str], Document],
            compile_one: Any, exact: bool) -> Tuple[Imported, List[int]]:
    """Compile the spec once more: it must give back ``accepted`` (the job, its harmless differences taken over)
    and every ConfigMap of the input it writes."""
    try:
        objects = compile_one(Document(doc.source, doc.index, spec, None))
    except CompileError as exc:
        raise ImportRefused([_does_not_compile(doc, f) for f in exc.findings]) from None
    except InternalError as exc:  # the patch (the manifest's own content) reproduced what our schemas refuse
        raise ImportRefused([_refuse(doc, "the job is not valid as written, so no spec compiles to it: "
                                     f"{str(exc).split(': ', 1)[-1].split('. This is a bug')[0]}", _LINT_IT)]) from None
    job, notes, used = objects[-1], [], []
    errors = compile_one.lint(objects)
    if errors:
        raise ImportRefused([_lint_error(doc, f, objects) for f in errors])
    where = first_difference(job, accepted)
    if where is not None:
        raise ImportRefused([_refuse(doc, f"{format_path(where) or 'the job'} cannot be carried by a spec",
                                     "keep this job as a manifest", where)])
    for obj in objects[:-1]:
        meta = obj.get("metadata") or {}
        key = (str(obj.get("kind")), str(meta.get("name")))
        mine = related.get(key)
        if mine is None:
            notes.append(f"compile also writes {key[0]} {key[1]}, which the manifests did not have")
            continue
        theirs = mine.data if exact else accept_object(obj, mine.data)
        found = first_difference(comparable(obj), comparable(theirs))
        if found is not None:
            raise ImportRefused([_refuse(mine, f"{key[0]} {key[1]!r} differs from what the spec writes at "
                                         f"{format_path(found)}; a spec carries no patch for it",
                                         "keep this object as a manifest beside the spec", found)])
        used.append(id(mine))
    return Imported(spec, doc.source, notes), used


def _lint_error(doc: Document, finding: Finding, objects: List[Dict[str, Any]]) -> Finding:
    """A finding of the output lint in what the spec compiles to that the session refuses, located in the manifest:
    compile would refuse the spec for it, so import refuses the job (its manifest has the same mistake).  One
    problem, one ID: the refusal is reported under the lint rule's own ID, as ``lint`` reports the manifest, not as
    AC026 as well."""
    compiled = next((o for o in objects if describe_document(o) == finding.obj), objects[-1])
    path = _in_manifest(finding.path, compiled, doc.data) if compiled is objects[-1] else ()
    what = "an error" if finding.severity == ERROR else f"a {finding.severity} (the fail-on level refuses it)"
    return _refuse(doc, f"import refuses the job: as written it has {what}, so compile would refuse its spec: "
                        f"{finding.message}", finding.hint or _LINT_IT, path, finding.rule)


def _in_manifest(path: Sequence[Any], compiled: Any, original: Any) -> Tuple[Any, ...]:
    """``path`` of the compiled job as a path of the manifest: list items found by name (the compiler orders
    them its own way), as far as the manifest has them."""
    out: List[Any] = []
    for part in path:
        if isinstance(part, int) and isinstance(compiled, list) and isinstance(original, list):
            item = compiled[part] if part < len(compiled) else None
            name = item.get("name") if isinstance(item, dict) else None
            index = next((i for i, o in enumerate(original) if isinstance(o, dict) and o.get("name") == name), None)
            if index is None and len(original) == len(compiled) and part < len(original):
                index = part  # a task the manifest names otherwise: the same place
            if index is None:
                break
            compiled, original = item, original[index]
            out.append(index)
        elif isinstance(compiled, dict) and isinstance(original, dict) and part in original:
            compiled, original = compiled.get(part), original[part]
            out.append(part)
        else:
            break
    return tuple(out)


def _profiles(doc: Document, job: Manifest, registry: Any, profile: Optional[str]) -> List[str]:
    found = [p.name for p in candidate_profiles(registry.all(), job.signals())]
    if profile is not None:
        if found and profile not in found:
            raise ImportRefused([_refuse(doc, f"job {job.name!r} asks for the hardware of {_listed(found)}, not "
                                         f"{profile!r}", f"give --profile {found[0]}, or leave --profile out")])
        return [profile]
    if not found:
        raise ImportRefused([_refuse(doc, f"job {job.name!r}: no hardware profile fits its NPU request, node "
                                     "selectors and annotations", "give --profile NAME ('ascend-compile profiles')")])
    return found


class _Compiler:
    """Compile one spec document to its objects (no lint: import tries many), and the findings of compile's output
    lint that refuse the spec it keeps (:func:`ascend_compile.compiling.pipeline.lint_output`, in the session)."""

    def __init__(self, session: Session):
        self.session = session

    def __call__(self, doc: Document) -> List[Dict[str, Any]]:
        from ..compiling.pipeline import compile_document

        return compile_document(doc, self.session).objects

    def lint(self, objects: List[Dict[str, Any]]) -> List[Finding]:
        from ..compiling.pipeline import lint_output

        return [f for f in lint_output([(o, "<import>") for o in objects], self.session) if self.session.refuses(f)]


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else "no profile"

