"""ascend-compile as a KRM function: a ``ResourceList`` in, a ``ResourceList`` out.

The KRM functions spec (kustomize ``cmd/config/docs/api-conventions/functions-spec.md``)
has a function read ``kind: ResourceList`` (``apiVersion: config.kubernetes.io/v1``)
with ``items`` and an optional ``functionConfig``, and write one back, adding
structured ``results``.  This module is that function, as a pure function over
plain Python values; :mod:`ascend_compile.cli.krm` is the stdin/stdout adapter.

Generator mode (the default)
    Every compact spec (``kind: TrainingJob``) among the ``items`` is replaced,
    in place, by the objects it compiles to (the same objects, in the same
    order, as ``ascend-compile compile``).  A spec given as the
    ``functionConfig`` (kustomize's ``generators:`` field) is compiled too and
    its objects are appended after the items.  Every other item passes through
    unchanged.  A spec that does not compile stays as it was and its problems
    become ``results`` with ``severity: error``.

Validator mode (``lint=True``, ``krm --lint``, or a ConfigMap functionConfig
with ``data: {lint: "true"}`` as ``kpt fn eval --exec ... -- lint=true`` makes)
    Items pass through unchanged; every manifest is linted (schemas plus the
    operator's and scheduler's rules) and every spec is compiled as a check;
    findings become ``results``.

Each result carries ``severity``, ``message`` (with the rule ID and fix hint),
``resourceRef``, ``field.path`` and ``file.path``/``file.index`` taken from the
``internal.config.kubernetes.io/path|index`` or legacy
``config.kubernetes.io/path|index`` annotations, and ``tags.rule``.  Results
are in item order and, within an item, in finding order, so the output is
deterministic.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..catalogue import INPUT_ERROR, SPEC_INVALID
from ..errors import InternalError
from ..findings import ERROR, EXIT_INTERNAL, INTERNAL, Finding, format_path, severity_at_least
from ..jobspec.model import is_spec
from ..lint.session import Session, open_session
from ..yamlio.locations import Document

RESOURCE_LIST_API_VERSIONS = ("config.kubernetes.io/v1", "config.kubernetes.io/v1alpha1")
RESOURCE_LIST_KIND = "ResourceList"

#: (path, index) annotation pairs, preferred first: kustomize and kpt set both forms.
LOCATION_ANNOTATIONS = (
    ("internal.config.kubernetes.io/path", "internal.config.kubernetes.io/index"),
    ("config.kubernetes.io/path", "config.kubernetes.io/index"),
)

_TRUE = ("true", "yes", "on", "1")


@dataclass(frozen=True)
class Options:
    """What a run does: generate (compile specs) or validate (lint everything)."""

    lint: bool = False


@dataclass(frozen=True)
class ItemRef:
    """Where an item of the ResourceList came from, for results and messages."""

    label: str  # "items[3]" or "functionConfig"
    api_version: Optional[str] = None
    kind: Optional[str] = None
    name: Optional[str] = None
    namespace: Optional[str] = None
    path: Optional[str] = None
    index: Optional[int] = None

    @property
    def display(self) -> str:
        """A file name for human-readable reports: the source path when known."""
        if self.path:
            return self.path if self.index in (None, 0) else f"{self.path}#{self.index}"
        return self.label


def _str_or_none(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value else None


def _mapping(value: Any) -> Dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def item_ref(item: Any, label: str) -> ItemRef:
    if not isinstance(item, dict):
        return ItemRef(label)
    meta = _mapping(item.get("metadata"))
    annotations = _mapping(meta.get("annotations"))
    path: Optional[str] = None
    index: Optional[int] = None
    for path_key, index_key in LOCATION_ANNOTATIONS:
        if _str_or_none(annotations.get(path_key)):
            path = annotations[path_key]
            raw_index = annotations.get(index_key)
            try:
                index = int(raw_index) if raw_index is not None else None
            except (TypeError, ValueError):
                index = None
            break
    return ItemRef(label, _str_or_none(item.get("apiVersion")), _str_or_none(item.get("kind")),
                   _str_or_none(meta.get("name")), _str_or_none(meta.get("namespace")), path, index)


def to_result(finding: Finding, ref: ItemRef) -> Dict[str, Any]:
    """One KRM ``results`` entry for a finding about the item ``ref``."""
    message = f"{finding.message} [{finding.rule}]"
    if finding.hint:
        message += f" (hint: {finding.hint})"
    result: Dict[str, Any] = {"message": message, "severity": finding.severity}
    resource = {k: v for k, v in (("apiVersion", ref.api_version), ("kind", ref.kind), ("name", ref.name),
                                  ("namespace", ref.namespace)) if v}
    if resource:
        result["resourceRef"] = resource
    if finding.path:
        result["field"] = {"path": format_path(finding.path)}
    if ref.path:
        result["file"] = {"path": ref.path} if ref.index is None else {"path": ref.path, "index": ref.index}
    result["tags"] = {"rule": finding.rule}
    return result


def _options(function_config: Any, lint: Optional[bool]) -> Options:
    """Options from a ConfigMap functionConfig (``data: {lint: "true"}``); ``lint`` overrides."""
    from_config = False
    if isinstance(function_config, dict) and function_config.get("kind") == "ConfigMap":
        data = _mapping(function_config.get("data"))
        from_config = str(data.get("lint", "")).strip().lower() in _TRUE \
            or str(data.get("mode", "")).strip().lower() in ("lint", "validate")
    return Options(lint=from_config if lint is None else lint)


def _input_problem(message: str, hint: str = "") -> Finding:
    return Finding(INPUT_ERROR, ERROR, message, hint=hint, file="<ResourceList>", input_error=True)


@dataclass
class Outcome:
    """What :func:`run` produced: the ResourceList, and the findings behind its results."""

    resource_list: Dict[str, Any]
    findings: List[Finding]
    #: validator mode: the items went through unchanged
    lint: bool = False

    @property
    def has_errors(self) -> bool:
        return any(f.severity == ERROR for f in self.findings)


def process(resource_list: Any, *, lint: Optional[bool] = None, session: Optional[Session] = None) -> Dict[str, Any]:
    """The KRM function: a ResourceList (as a dict) in, a ResourceList out (see the module doc)."""
    return run(resource_list, lint=lint, session=session).resource_list


def run(resource_list: Any, *, lint: Optional[bool] = None, session: Optional[Session] = None) -> Outcome:
    """Like :func:`process`, also returning the findings (located at each item's source path).  The ``session``
    (default: no config, the built-in profiles) is what the specs are compiled and the items linted with: a spec
    with an output finding at or above its fail-on level is refused, as ``compile`` refuses it."""
    if not isinstance(resource_list, dict) or resource_list.get("kind") != RESOURCE_LIST_KIND:
        kind = resource_list.get("kind") if isinstance(resource_list, dict) else type(resource_list).__name__
        problem = _input_problem(f"expected a {RESOURCE_LIST_KIND} on standard input, got {kind!r}",
                                 "run this under kustomize (generators:/transformers:/validators:) or "
                                 "'kpt fn eval --exec'; 'ascend-compile compile' reads plain specs")
        return Outcome(_result_list(RESOURCE_LIST_API_VERSIONS[0], [], None,
                                    [to_result(problem, ItemRef("ResourceList"))]), [problem])
    api_version = resource_list.get("apiVersion")
    if api_version not in RESOURCE_LIST_API_VERSIONS:
        api_version = RESOURCE_LIST_API_VERSIONS[0]
    items = resource_list.get("items")
    function_config = resource_list.get("functionConfig")
    if items is None:
        items = []
    if not isinstance(items, list):
        problem = _input_problem("the ResourceList's items is not a list")
        return Outcome(_result_list(api_version, [], function_config, [to_result(problem, ItemRef("items"))]),
                       [problem])

    session = session or open_session()
    options = _options(function_config, lint)

    entries: List[Tuple[str, Any]] = [(f"items[{i}]", item) for i, item in enumerate(items)]
    if is_spec(function_config) and not any(_same_object(item, function_config) for item in items):
        # kustomize also passes a generator's config among the items (marked local-config): compile it once.
        entries.append(("functionConfig", function_config))

    if options.lint:
        out_items = list(items)
        reports = _validate(entries, session)
    else:
        out_items, reports = _generate(entries, session)
        if any(f.severity == ERROR for _, item_findings in reports for f in item_findings) \
                and any(item_ref(item, "").path for item in items):
            out_items = _placed(out_items, {id(item) for item in items})

    results: List[Dict[str, Any]] = []
    findings: List[Finding] = []
    for ref, item_findings in reports:
        for finding in item_findings:
            results.append(to_result(finding, ref))
            findings.append(replace(finding, file=ref.display))
    return Outcome(_result_list(api_version, out_items, function_config, results), findings, options.lint)


def _identity(obj: Any) -> Tuple[Any, ...]:
    meta = _mapping(obj.get("metadata"))
    return obj.get("apiVersion"), obj.get("kind"), meta.get("namespace"), meta.get("name")


def _same_object(item: Any, other: Any) -> bool:
    return isinstance(item, dict) and isinstance(other, dict) and _identity(item) == _identity(other)


def _result_list(api_version: str, items: List[Any], function_config: Any,
                 results: List[Dict[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {"apiVersion": api_version, "kind": RESOURCE_LIST_KIND, "items": items}
    if function_config is not None:
        out["functionConfig"] = function_config
    if results:
        out["results"] = results
    return out


def _document(label: str, item: Any, index: int) -> Document:
    # Items arrive as plain data: findings carry no line/column, only the field path.
    return Document(label, index, item, None)


def _compile(entries: Sequence[Tuple[str, Any]], session: Session
             ) -> Dict[str, Tuple[Optional[List[Dict[str, Any]]], List[Finding]]]:
    """Each spec among the entries compiled as ``compile`` compiles it (output lint included), by label:
    (its objects, or None where refused; the findings about it)."""
    from .pipeline import compile_each

    specs = [_document(label, item, index) for index, (label, item) in enumerate(entries) if is_spec(item)]
    try:
        outcomes = compile_each(specs, session)
    except InternalError as exc:  # our bug: reported with the other results, and exit code 3
        internal = [Finding(SPEC_INVALID, ERROR, str(exc), extra=(INTERNAL,))]
        return {doc.source: (None, internal if n == 0 else []) for n, doc in enumerate(specs)}
    return {doc.source: (None if job is None else job.objects, findings) for doc, job, findings in outcomes}


def _generate(entries: Sequence[Tuple[str, Any]], session: Session
              ) -> Tuple[List[Any], List[Tuple[ItemRef, List[Finding]]]]:
    out_items: List[Any] = []
    generated: List[Any] = []
    reports: List[Tuple[ItemRef, List[Finding]]] = []
    compiled = _compile(entries, session)
    for label, item in entries:
        from_items = label != "functionConfig"
        if label not in compiled:
            if from_items:
                out_items.append(item)
            continue
        objects, findings = compiled[label]
        if findings:
            reports.append((item_ref(item, label), findings))
        if objects is None:
            if from_items:
                out_items.append(item)  # keep the spec so nothing silently disappears
            continue
        (out_items if from_items else generated).extend(objects)
    return out_items + generated, reports


def _placed(items: List[Any], inputs: Set[int]) -> List[Any]:
    """Items, each generated object (not among ``inputs``) given the file kpt would give it (``<namespace>/<kind>_<name>.yaml``).

    kpt places objects without a location only when the function succeeds; on failure it checks the
    output first, and two unplaced objects collide (``resource at path "." and index "" already
    exists``), hiding the results.  Nothing is written on failure, so the placement is only for kpt's check.
    """
    taken: Dict[str, int] = {}
    placed: List[Any] = []
    for item in items:
        if id(item) in inputs or not isinstance(item, dict) or item_ref(item, "").path:
            placed.append(item)
            continue
        meta = _mapping(item.get("metadata"))
        name = f"{str(item.get('kind', '')).lower()}_{meta.get('name', '')}.yaml"
        path = f"{meta['namespace']}/{name}" if _str_or_none(meta.get("namespace")) else name
        index = taken[path] = taken.get(path, -1) + 1
        annotations = {**_mapping(meta.get("annotations")), LOCATION_ANNOTATIONS[0][0]: path,
                       LOCATION_ANNOTATIONS[0][1]: str(index)}
        placed.append({**item, "metadata": {**meta, "annotations": annotations}})
    return placed


def _validate(entries: Sequence[Tuple[str, Any]], session: Session) -> List[Tuple[ItemRef, List[Finding]]]:
    per_label: Dict[str, List[Finding]] = {label: [] for label, _ in entries}
    for label, (_, findings) in _compile(entries, session).items():
        per_label[label].extend(findings)
    manifests = [_document(label, item, index) for index, (label, item) in enumerate(entries) if not is_spec(item)]
    for finding in _lint_items(manifests, session):
        if finding.file in per_label:
            per_label[finding.file].append(finding)
        else:  # a finding about the run as a whole: attach it to the first item
            per_label[entries[0][0]].append(finding)
    return [(item_ref(item, label), per_label[label]) for label, item in entries if per_label[label]]


def _lint_items(docs: Sequence[Document], session: Session) -> List[Finding]:
    """Lint manifests with the lint engine in the session: schemas plus the operator's and scheduler's rules (and
    the cluster's, with an inventory)."""
    if not docs:
        return []
    # Items have no source text: no comment directives (annotations still suppress).
    return list(session.linter().run(docs=list(docs), texts={doc.source: "" for doc in docs}))


def exit_status(findings: Sequence[Finding], fail_on: str = ERROR) -> int:
    """0 without results at or above ``fail_on`` (``--fail-on``), 2 for an unreadable ResourceList, 1 for other
    such results, 3 for our own bug."""
    if any(f.internal for f in findings):
        return EXIT_INTERNAL
    if any(f.input_error and f.severity == ERROR for f in findings):
        return 2
    return 1 if any(severity_at_least(f.severity, fail_on) for f in findings) else 0


__all__ = ["Options", "Outcome", "ItemRef", "process", "run", "to_result", "item_ref",
           "exit_status",
           "RESOURCE_LIST_KIND", "LOCATION_ANNOTATIONS"]
