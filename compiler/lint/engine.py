"""The lint run: read, schema-check, run every rule unit, locate, suppress, configure.

Public entry points (the compiler, the Python API and the CLI call these):

:func:`lint_documents`
    parsed :class:`~ascend_compile.yamlio.Document` objects in, Findings out; each
    finding is located at the line and column of its YAML node.
:func:`lint_objects`
    plain dicts (e.g. the compiler's own output) in; findings carry field
    paths but no line numbers.
:func:`lint_paths`
    command-line paths in (files, directories, ``-``); input errors become
    findings and the other files are still checked.

Cross-object rules see the whole run: a Volcano Job in one file is matched
with its ``rings-config-<job>`` ConfigMap in another.
"""
from __future__ import annotations

import gc
from dataclasses import replace
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .. import catalogue
from ..catalogue import BAD_SUPPRESSION
from ..findings import ERROR, INTERNAL, Finding, Path
from . import registry as _registry
from . import suppress
from .context import ObjectContext, RunContext
from .rule import Problem, Rule


def _objects_of(data: Any, doc: Any, source: str, index: int) -> List[ObjectContext]:
    if not isinstance(data, dict):
        return []
    if data.get("apiVersion") == "v1" and data.get("kind") == "List" and isinstance(data.get("items"), list):
        return [ObjectContext(item, doc, ("items", i), source, index)
                for i, item in enumerate(data["items"]) if isinstance(item, dict)]
    return [ObjectContext(data, doc, (), source, index)]


def _locate(doc: Any, path: Path, key: bool) -> Tuple[str, int, int]:
    """Line and column of ``path``; a missing field points at the key of its deepest existing parent."""
    if doc is None or getattr(doc, "node", None) is None:
        return (getattr(doc, "source", "") if doc is not None else ""), 0, 0
    data = doc.data
    existing = 0
    for element in path:
        if isinstance(data, dict) and element in data:
            data = data[element]
        elif isinstance(data, list) and isinstance(element, int) and 0 <= element < len(data):
            data = data[element]
        else:
            break
        existing += 1
    if existing == len(path):
        where = doc.locate(path, key=key)
    else:
        where = doc.locate(path[:existing], key=True)
    return where.file, where.line, where.column


class Linter:
    """One configured lint run.  Build it once, feed it documents or objects."""

    def __init__(self, profiles: Any = None, config: Any = None, *, strict: bool = True,
                 volcano_version: Optional[str] = None, strict_kinds: bool = False,
                 disable: Iterable[str] = (), schema: bool = True):
        from ..config import ProjectConfig, check_lint_settings

        self.config = config or ProjectConfig()
        check_lint_settings(self.config)
        if profiles is None:
            from ..profiles import ProfileRegistry

            profiles = ProfileRegistry(self.config.profile_dirs)
        if hasattr(profiles, "check"):
            profiles.check()  # a config error is reported once, before any rule runs
        self.profiles = profiles
        self.strict = strict
        self.volcano_version = volcano_version
        self.strict_kinds = strict_kinds
        self.schema = schema
        lint_cfg = self.config.lint
        self.disabled = {(catalogue.resolve(d) or d.upper()) for d in (*lint_cfg.disable, *disable)}
        self.severity = {(catalogue.resolve(k) or k.upper()): v for k, v in lint_cfg.severity.items()}
        self.rules: List[Rule] = [r for r in _registry.lint_rules() if r.id not in self.disabled]

    # ------------------------------------------------------------------ runs
    def run(self, docs: Sequence[Any] = (), objects: Sequence[Tuple[Dict[str, Any], str]] = (),
            texts: Optional[Mapping[str, str]] = None) -> List[Finding]:
        """Lint parsed documents and/or bare objects together, as one run."""
        contexts: List[ObjectContext] = []
        raw: List[Tuple[Finding, Optional[ObjectContext]]] = []
        for doc in docs:
            objs = _objects_of(doc.data, doc, doc.source, doc.index)
            contexts.extend(objs)
            if self.schema:
                raw.extend(self._schema_findings(doc, objs))
        for index, (data, source) in enumerate(objects):
            objs = _objects_of(data, None, source, index)
            contexts.extend(objs)
            if self.schema:
                from ..schemas import validate_object

                for finding in validate_object(data, strict=self.strict, volcano_version=self.volcano_version,
                                               strict_kinds=self.strict_kinds, source=source):
                    raw.append((finding, _owner(finding.path, objs)))
        run = RunContext(contexts, self.profiles, self.config)
        for obj in contexts:
            for rule in self.rules:
                if "*" not in rule.kinds and obj.kind not in rule.kinds:
                    continue
                problems, crashed = self._check(rule, obj, run)
                for problem in problems:
                    finding = self._finding(rule, obj, problem)
                    raw.append((replace(finding, extra=(INTERNAL,)) if crashed else finding, obj))
            raw.extend((f, obj) for f in self._annotation_problems(obj))
        findings = self._dedupe(raw)
        findings = self._suppress(findings, docs, texts)
        return sorted(self._configure(findings), key=Finding.sort_key)

    def _schema_findings(self, doc: Any, objs: List[ObjectContext]) -> List[Tuple[Finding, Optional[ObjectContext]]]:
        from ..schemas import validate_document

        out = []
        for finding in validate_document(doc, strict=self.strict, volcano_version=self.volcano_version,
                                         strict_kinds=self.strict_kinds):
            out.append((finding, _owner(finding.path, objs)))
        return out

    def _check(self, rule: Rule, obj: ObjectContext, run: RunContext) -> Tuple[List[Problem], bool]:
        """(problems, whether the rule crashed): a crash is one problem, our bug (exit code 3)."""
        from ..errors import InputError

        try:
            return list(rule.check(obj, run)), False  # type: ignore[misc]
        except InputError:
            raise  # the input or config cannot be read: not a finding about this object
        except Exception as exc:  # a rule bug must not hide every other finding
            return [Problem((), f"internal error in rule {rule.id} ({type(exc).__name__}: {exc}); "
                                "this is a bug in ascend-compile, please report it with the manifest",
                            hint="disable the rule with --disable until it is fixed", severity=ERROR)], True

    def _finding(self, rule: Rule, obj: ObjectContext, problem: Problem) -> Finding:
        path = obj.prefix + tuple(problem.path)
        file, line, column = _locate(obj.doc, path, problem.key)
        rule_id = problem.rule or rule.id
        severity = problem.severity or (rule.severity if rule_id == rule.id else
                                        catalogue.severity(rule_id, rule.severity))
        return Finding(rule=rule_id, severity=severity, message=problem.message, path=path,
                       hint=rule.hint if problem.hint is None else problem.hint,
                       file=file or obj.source, line=line, column=column, obj=obj.describe())

    # ------------------------------------------------------------------ suppression
    def _annotation_problems(self, obj: ObjectContext) -> List[Finding]:
        value = obj.annotations.get(suppress.IGNORE_ANNOTATION)
        if value is None:
            return []
        path = obj.prefix + ("metadata", "annotations", suppress.IGNORE_ANNOTATION)
        file, line, column = _locate(obj.doc, path, False)
        out = []

        def bad(message: str, hint: str) -> None:
            out.append(Finding(BAD_SUPPRESSION, catalogue.severity(BAD_SUPPRESSION), message, path,
                               hint, file or obj.source, line, column, obj=obj.describe()))

        if not isinstance(value, str):
            bad("the ascend-compile.io/ignore annotation must be a string", 'e.g. "AC303: reason"')
            return out
        for entry in suppress.parse_annotation(value, catalogue.resolve):
            if entry.rule is None:
                bad(f"unknown rule {entry.token!r} in the ascend-compile.io/ignore annotation",
                    "list the rules with 'ascend-compile rules'")
            elif not entry.reason:
                bad(f"the ascend-compile.io/ignore entry for {entry.rule} has no reason, so it is not honoured",
                    f'write it as "{entry.rule}: why this is fine"')
        return out

    def _suppress(self, pairs: List[Tuple[Finding, Optional[ObjectContext]]], docs: Sequence[Any],
                  texts: Optional[Mapping[str, str]]) -> List[Finding]:
        directives: Dict[str, suppress.FileDirectives] = {}
        sources = {doc.source for doc in docs}
        for source in sorted(sources):
            text = texts.get(source) if texts is not None else None
            if text is None:
                text = _read_quietly(source)
            parsed = suppress.parse_comments(text or "", catalogue.resolve)
            directives[source] = parsed
            for bad in parsed.problems:
                pairs.append((Finding(BAD_SUPPRESSION, catalogue.severity(BAD_SUPPRESSION),
                                      bad.message, (), "list the rules with 'ascend-compile rules'",
                                      source, bad.line, bad.column), None))
        annotated: Dict[int, set] = {}
        out: List[Finding] = []
        for finding, obj in pairs:
            if finding.input_error or not catalogue.suppressible(finding.rule):
                out.append(finding)
                continue
            file_directives = directives.get(finding.file)
            if file_directives is not None and file_directives.suppresses(finding.rule, finding.line):
                continue
            if obj is not None and finding.rule != BAD_SUPPRESSION:
                key = id(obj)
                if key not in annotated:
                    value = obj.annotations.get(suppress.IGNORE_ANNOTATION)
                    annotated[key] = suppress.rules_in(suppress.parse_annotation(value, catalogue.resolve)) \
                        if isinstance(value, str) else set()
                if finding.rule in annotated[key] or suppress.ALL in annotated[key]:
                    continue
            out.append(finding)
        return out

    # ------------------------------------------------------------------ config
    def _dedupe(self, pairs: List[Tuple[Finding, Optional[ObjectContext]]]) -> List[Tuple[Finding, Optional[ObjectContext]]]:
        replaced = set()
        for rule in self.rules:
            if rule.replaces:
                for finding, _ in pairs:
                    if finding.rule == rule.id:
                        replaced.update((r, finding.file, finding.obj, finding.path) for r in rule.replaces)
        seen = set()
        out = []
        for finding, obj in pairs:
            if (finding.rule, finding.file, finding.obj, finding.path) in replaced:
                continue
            ident = (finding.rule, finding.file, finding.line, finding.column, finding.path, finding.message)
            if ident in seen:
                continue
            seen.add(ident)
            out.append((finding, obj))
        return out

    def _configure(self, findings: List[Finding]) -> List[Finding]:
        from dataclasses import replace

        out = []
        for finding in findings:
            if finding.input_error:
                out.append(finding)
                continue
            if finding.rule in self.disabled:
                continue
            severity = self.severity.get(finding.rule)
            out.append(replace(finding, severity=severity) if severity else finding)
        return out


def _owner(path: Path, objs: List[ObjectContext]) -> Optional[ObjectContext]:
    for obj in objs:
        if tuple(path[:len(obj.prefix)]) == obj.prefix:
            return obj
    return objs[0] if objs else None


def _read_quietly(source: str) -> str:
    import os

    if not source or source.startswith("<") or not os.path.isfile(source):
        return ""
    try:
        with open(source, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


# ---------------------------------------------------------------------- public API


def lint_documents(docs: Iterable[Any], registry: Any = None, config: Any = None, *,
                   texts: Optional[Mapping[str, str]] = None, strict: bool = True,
                   volcano_version: Optional[str] = None, disable: Iterable[str] = (),
                   schema: bool = True) -> List[Finding]:
    """Lint parsed documents (one run); ``registry`` is a :class:`~ascend_compile.profiles.ProfileRegistry`.

    ``texts`` maps each document's source to its text, for comment directives;
    without it the engine reads the source file when it exists.
    """
    linter = Linter(registry, config, strict=strict, volcano_version=volcano_version, disable=disable,
                    schema=schema)
    return linter.run(docs=list(docs), texts=texts)


def lint_objects(objs: Iterable[Dict[str, Any]], registry: Any = None, config: Any = None, *,
                 source: str = "", strict: bool = True, volcano_version: Optional[str] = None,
                 disable: Iterable[str] = (), schema: bool = True) -> List[Finding]:
    """Lint plain objects without source text (line and column stay 0)."""
    linter = Linter(registry, config, strict=strict, volcano_version=volcano_version, disable=disable,
                    schema=schema)
    return linter.run(objects=[(obj, source) for obj in objs])


def lint_paths(paths: Sequence[str], registry: Any = None, config: Any = None, *,
               include: Sequence[str] = (), exclude: Sequence[str] = (), max_bytes: Optional[int] = None,
               strict: bool = True, volcano_version: Optional[str] = None,
               disable: Iterable[str] = ()) -> Tuple[List[Finding], int]:
    """Discover, read and lint ``paths``; returns (findings, number of files read)."""
    from ..discovery import discover
    from ..errors import InputError
    from ..yamlio import DEFAULT_MAX_BYTES, display_name, iter_documents, read_text

    found = discover(paths, include=include, exclude=exclude)
    findings: List[Finding] = list(found.findings)
    docs: List[Any] = []
    texts: Dict[str, str] = {}
    # Cross-object rules need every document of the run, so they are all kept. Freezing what
    # is loaded stops the cyclic GC from rescanning that growing heap after every file
    # (measured: about 1.8x faster on 2,000 manifests); unfreezing at the end hands it back.
    try:
        for path in found.paths:
            name = display_name(path)
            try:
                text = read_text(path, max_bytes or DEFAULT_MAX_BYTES)
                texts[name] = text
                for doc in iter_documents(text, name):
                    docs.append(doc)
                    if len(docs) % 64 == 0:  # a long stream in one file: freeze as it grows
                        gc.freeze()
            except InputError as exc:
                findings.extend(exc.findings)
            gc.freeze()
        linter = Linter(registry, config, strict=strict, volcano_version=volcano_version, disable=disable)
        findings.extend(linter.run(docs=docs, texts=texts))
    finally:
        gc.unfreeze()
    return sorted(findings, key=Finding.sort_key), len(found.paths)
