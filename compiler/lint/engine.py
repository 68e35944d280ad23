"""The lint run: read, schema-check, run every rule unit, locate, suppress (:mod:`.suppress`), configure.

:class:`Linter` is one configured run; its entry points are :func:`~.oneshot.lint_documents` and
:func:`~.oneshot.lint_objects` (documents or plain objects, one run) and :func:`~.paths.lint_paths`
(command-line paths: input errors become findings and the other files are still checked).

A run has two steps.  :meth:`Linter.lint_file` does everything that depends on one
file alone (schemas, the per-object rules, the ``facts`` of cross-object rules) and gives a
:class:`~.results.FileResult`; files are independent, so this step may run in several processes
or come from the result cache.  :meth:`Linter.finish` then indexes every object of the run and lets
the cross-object rules ``judge``: a Volcano Job in one file is matched with its
``rings-config-<job>`` ConfigMap in another.  The findings are the same whichever way the files
were read.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from .. import catalogue
from ..errors import InputError
from ..findings import FIX_VALUE, INTERNAL, Finding, sort_key
from ..podtemplates import Table, table as pod_table
from . import registry as _registry
from . import suppress
from .context import ObjectContext, RunContext
from .index import CrossRun, ObjectRef
from .locate import locate_all, locate_later
from .results import Fact, FileResult, SpecCheck
from .rule import Problem, Rule

#: (the data, its Document or None, its place in the run) of each input of one file
Entry = Tuple[Any, Any, Any]
#: a finding and the object it is about (None: about the file)
Pair = Tuple[Finding, Optional[ObjectContext]]


def _objects_of(data: Any, doc: Any, source: str, index: int, kinds: Table) -> List[ObjectContext]:
    if not isinstance(data, dict):
        return []
    if data.get("apiVersion") == "v1" and data.get("kind") == "List" and isinstance(data.get("items"), list):
        return [ObjectContext(item, doc, ("items", i), source, index, kinds)
                for i, item in enumerate(data["items"]) if isinstance(item, dict)]
    return [ObjectContext(data, doc, (), source, index, kinds)]


class Linter:
    """One configured lint run.  Build it once, feed it documents or objects."""

    def __init__(self, profiles: Any = None, config: Any = None, *, strict: bool = True,
                 volcano_version: Optional[str] = None, strict_kinds: bool = False, inventory: Any = None,
                 disable: Iterable[str] = (), schema: bool = True, specs: Optional[SpecCheck] = None,
                 target: Any = None):
        from ..config import ProjectConfig, check_lint_settings, target_of

        self.config = config or ProjectConfig()
        check_lint_settings(self.config)
        #: where the pods of each kind are: the built-in table and the config's podTemplates
        self.pod_kinds = pod_table(self.config.pod_templates)
        if profiles is None:
            from ..hardware.profiles import ProfileRegistry

            profiles = ProfileRegistry(self.config.profile_dirs)
        if hasattr(profiles, "check"):
            profiles.check()  # a config error is reported once, before any rule runs
        self.profiles = profiles
        self.strict = strict
        self.volcano_version = volcano_version
        self.strict_kinds = strict_kinds
        self.schema = schema  # whether the schema check runs
        self.specs = specs  # the compile's check of the specs among the documents (None: no spec is checked)
        lint_cfg = self.config.lint
        self.disabled = {(catalogue.resolve(d) or d.upper()) for d in (*lint_cfg.disable, *disable)}
        self.severity = {(catalogue.resolve(k) or k.upper()): v for k, v in lint_cfg.severity.items()}
        self._rules: Optional[List[Rule]] = None  # every rule unit, imported when something asks for them all
        self._by_kind: Dict[str, Tuple[List[Tuple[Rule, Any]], List[Tuple[Rule, Any]]]] = {}  # see _units
        self.inventory = inventory  # the cluster the cluster-aware rules check against (None: they say nothing)
        self.target = target or target_of(self.config, cluster_versions=getattr(inventory, "versions", None),
                                          cluster_resources=inventory.offered() if inventory is not None else (),
                                          cluster_device_share=getattr(inventory, "device_share", None) or ())
        self._run = RunContext(self.profiles, self.config, volcano_version, inventory, self.target)
        self._schemas: Any = None  # the schemas module, imported on first use

    # ------------------------------------------------------------------ runs
    def run(self, docs: Sequence[Any] = (), objects: Sequence[Tuple[Dict[str, Any], str]] = (),
            texts: Optional[Mapping[str, str]] = None) -> List[Finding]:
        """Lint parsed documents and/or bare objects together, as one run."""
        files: Dict[Tuple[bool, str], List[Entry]] = {}
        for position, doc in enumerate(docs):
            files.setdefault((True, doc.source), []).append((doc.data, doc, position))
        for index, (data, source) in enumerate(objects):
            files.setdefault((False, source), []).append((data, None, len(docs) + index))
        results = [self.lint_file(source, entries, texts.get(source) if texts is not None else None,
                                  comments=from_docs)
                   for (from_docs, source), entries in files.items()]
        held = {source: [doc for _, doc, _ in entries]
                for (from_docs, source), entries in files.items() if from_docs}
        return self.finish(results, lambda result: held.get(result.source))

    def lint_file(self, source: str, entries: Sequence[Entry], text: Optional[str] = None, *,
                  comments: bool = True, digest: str = "") -> FileResult:
        """Everything that depends on this one file: findings (final), refs and facts (for :meth:`finish`).

        ``text`` is the file's text, for comment directives (read from ``source`` when None and
        ``comments``).
        """
        raw: List[Pair] = []
        refs: List[ObjectRef] = []
        facts: List[Fact] = []
        specs = self.specs([doc for _, doc, _ in entries]) if self.specs is not None else {}
        for entry, (data, doc, order) in enumerate(entries):
            objs = _objects_of(data, doc, source, doc.index if doc is not None else 0, self.pod_kinds)
            if entry in specs:
                raw.extend((finding, None) for finding in specs[entry])  # compile's checks include the schema's
            elif self.schema:
                raw.extend(self._schema_findings(data, doc, source, objs))
            for number, obj in enumerate(objs):
                raw.extend(self._check_object(obj, facts, len(refs)))
                refs.append(_ref(obj, entry, (order, number)))
        directives = suppress.file_directives(source, text, catalogue.resolve) if comments else None
        findings = suppress.drop_suppressed(self._dedupe(raw), directives, source)
        return FileResult(source, self.configure(findings), refs, facts,
                          directives if facts else None, digest)

    def finish(self, results: Sequence[FileResult],
               docs_of: Optional[Callable[[FileResult], Optional[List[Any]]]] = None,
               beside: Any = None, locator: Any = None) -> List[Finding]:
        """The run's findings: every file's, and what cross-object rules judge over the whole run.

        ``docs_of`` gives a result's parsed documents when they are at hand; otherwise
        ``locator`` (a :class:`~.locate.Locator`) reads the file again to place a cross-object finding.
        """
        findings = [finding for result in results for finding in result.findings]
        facts = [(result, fact) for result in results for fact in result.facts]
        if facts:
            refs = [ref for result in results for ref in result.refs]
            run = CrossRun(refs, self.profiles, self.config, beside, self.inventory)
            findings.extend(self._judge(facts, run, docs_of, locator))
        return sorted(findings, key=sort_key)

    # ------------------------------------------------------------------ one object
    @property
    def rules(self) -> List[Rule]:
        """The rule units this run runs (all imported; a run imports only those of the kinds it meets)."""
        if self._rules is None:
            every = _registry.lint_rules(self.inventory is not None)
            self._rules = [rule for rule in every if rule.id not in self.disabled]
        return self._rules

    @rules.setter
    def rules(self, rules: List[Rule]) -> None:
        self._rules = list(rules)
        self._by_kind.clear()

    def rules_for(self, kind: str) -> List[Rule]:
        checks, facts = self._units(kind)
        return sorted([rule for rule, _ in checks] + [rule for rule, _ in facts], key=lambda rule: rule.id)

    def _units(self, kind: str) -> Tuple[List[Tuple[Rule, Any]], List[Tuple[Rule, Any]]]:
        """The rules that look at ``kind``: (rule, check) of the per-object ones, (rule, facts) of the cross-object
        ones."""
        units = self._by_kind.get(kind)
        if units is None:
            if self._rules is not None:
                found = self._rules
            else:
                found = _registry.rules_for(kind, self.inventory is not None)
            stack = self.target.stack
            mine = [r for r in found if r.id not in self.disabled and ("*" in r.kinds or kind in r.kinds)
                    and r.holds_on(stack)]
            units = self._by_kind[kind] = ([(r, r.check) for r in mine if not r.cross],
                                           [(r, r.facts) for r in mine if r.cross])
        return units

    def _check_object(self, obj: ObjectContext, facts: List[Fact], ref_index: int) -> List[Tuple[Finding, Any]]:
        run = self._run
        problems: List[Tuple[Rule, Problem, bool]] = []  # placed together below: one walk of the document
        checks, facts_of = self._units(obj.rule_kind)
        for rule, check in checks:
            before = len(problems)
            try:
                for problem in check(obj, run):
                    problems.append((rule, problem, False))
            except InputError:
                raise  # the input or config cannot be read: not a finding about this object
            except Exception as exc:  # noqa: BLE001 - a rule bug must not hide every other finding
                del problems[before:]  # what it yielded before it broke is not trusted either
                problems.append((rule, rule.crashed(exc), True))
        for rule, facts_from in facts_of:
            try:
                fact = facts_from(obj)
            except InputError:
                raise
            except Exception as exc:  # noqa: BLE001 - see above
                problems.append((rule, rule.crashed(exc), True))
                continue
            if fact is not None:
                facts.append((rule.id, ref_index, fact))
        wanted = [(obj.prefix + tuple(problem.path), problem.key) for _, problem, _ in problems]
        places = locate_all(obj.doc, wanted)
        out: List[Tuple[Finding, Any]] = [(self._finding(rule, obj, problem, where, internal), obj)
                                          for (rule, problem, internal), where in zip(problems, places)]
        out.extend((finding, obj) for finding in suppress.annotation_problems(obj))
        return out

    def _schema_findings(self, data: Any, doc: Any, source: str,
                         objs: List[ObjectContext]) -> List[Pair]:
        check = self._schemas
        if check is None:
            from ..schemacheck import check

            self._schemas = check
        options = dict(strict=self.strict, volcano_version=self.volcano_version, strict_kinds=self.strict_kinds,
                       pod_kinds=self.pod_kinds)
        found = check.validate_document(doc, **options) if doc is not None else \
            check.validate_object(data, source=source, **options)
        return [(finding, _owner(finding.path, objs)) for finding in found]

    def _finding(self, rule: Rule, obj: Any, problem: Problem, where: Tuple[str, int, int],
                 internal: bool = False) -> Finding:
        path = obj.prefix + tuple(problem.path)
        file, line, column = where
        rule_id = problem.rule or rule.id
        if problem.severity:
            severity = problem.severity
        elif rule_id == rule.id:
            severity = rule.severity
        else:
            severity = catalogue.severity(rule_id, rule.severity)
        if internal:
            extra: Tuple[Tuple[str, str], ...] = (INTERNAL,)
        else:
            extra = ((FIX_VALUE, problem.fix),) if problem.fix else ()
        return Finding(rule=rule_id, severity=severity, message=problem.message, path=path,
                       hint=rule.hint if problem.hint is None else problem.hint,
                       file=file or obj.source, line=line, column=column,
                       obj=obj.describe() if isinstance(obj, ObjectContext) else obj.obj,
                       api_version=obj.api_version, extra=extra)

    # ------------------------------------------------------------------ the whole run
    def _judge(self, facts: List[Tuple[FileResult, Fact]], run: CrossRun,
               docs_of: Optional[Callable[[FileResult], Optional[List[Any]]]], locator: Any) -> List[Finding]:
        rules = {rule.id: rule for rule in self._rules} if self._rules is not None else _LazyRules()
        pending = []
        for result, (rule_id, ref_index, fact) in facts:
            rule = rules[rule_id]
            ref = result.refs[ref_index]
            crashed = False
            try:
                problems = list(rule.judge(ref, fact, run))  # type: ignore[misc]
            except InputError:
                raise
            except Exception as exc:  # noqa: BLE001 - see _check_object
                problems = [rule.crashed(exc)]
                crashed = True
            for problem in problems:
                pending.append((result, rule, ref, problem, crashed))
        places = locate_later([(result, ref, ref.prefix + tuple(problem.path), problem.key)
                               for result, _rule, ref, problem, _crashed in pending], docs_of, locator)
        out: List[Finding] = []
        seen = set()
        for (result, rule, ref, problem, crashed), where in zip(pending, places):
            finding = self._finding(rule, ref, problem, where, internal=crashed)
            ident = (finding.rule, finding.file, finding.line, finding.column, finding.path, finding.message)
            if ident in seen or suppress.suppressed(finding, result.directives, ref.ignored):
                continue
            seen.add(ident)
            out.extend(self.configure([finding]))
        return out

    # ------------------------------------------------------------------ config
    def _dedupe(self, pairs: List[Pair]) -> List[Pair]:
        if not pairs:  # most files: nothing to replace, no rule to look at
            return pairs
        replaced: Set[Tuple[Any, ...]] = set()
        for rule in self._rules if self._rules is not None else _registry.entries():
            if rule.replaces and rule.id not in self.disabled:
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

    def configure(self, findings: Sequence[Finding]) -> List[Finding]:
        """``findings`` with the run's settings applied: disabled rules dropped, severities changed (``silenceable``
        ones)."""
        out = []
        for finding in findings:
            if not catalogue.silenceable(finding):
                out.append(finding)
                continue
            if finding.rule in self.disabled:
                continue
            severity = self.severity.get(finding.rule)
            out.append(_with_severity(finding, severity) if severity else finding)
        return out


class _LazyRules(dict):  # type: ignore[type-arg]
    """Rule units by ID, imported when first asked for (a run from the cache may import a single one)."""

    def __missing__(self, rule_id: str) -> Rule:
        rule = _registry.get(rule_id)
        assert rule is not None, rule_id
        self[rule_id] = rule
        return rule


def _with_severity(finding: Finding, severity: str) -> Finding:
    from dataclasses import replace

    return replace(finding, severity=severity)


def _ref(obj: ObjectContext, entry: int, order: Any) -> ObjectRef:
    origin = getattr(obj.doc, "origin", None)
    return ObjectRef(obj.kind, obj.name, obj.namespace, obj.source, obj.labels, obj.describe(), obj.prefix,
                     entry, origin[1:] if origin is not None else None, order, suppress.ignored_by(obj),
                     obj.api_version)


def _owner(path: Any, objs: List[ObjectContext]) -> Optional[ObjectContext]:
    for obj in objs:
        if tuple(path[:len(obj.prefix)]) == obj.prefix:
            return obj
    return objs[0] if objs else None
