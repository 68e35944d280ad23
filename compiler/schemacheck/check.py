"""Check manifests against the built-in JSON Schemas: the public API of the schema code.

The schema code has four seams, one module each; each name is imported from the module that defines it:

``messages``
    The rule IDs' summaries (:data:`~.messages.SCHEMA_RULES`; the IDs are the catalogue's),
    :class:`~.messages.SchemaError`, and how a problem reads (messages, hints, "did you mean").
``keywords`` and ``validator``
    Our fast validator for the structural-schema subset the schemas use
    (:class:`~.validator.Validator`): each schema node compiled lazily into a closure.
``registry``
    ``schemas/index.json`` and the schema files, loaded on first use, and one
    validator per schema and strictness (:class:`~.registry.Registry`, :func:`~.registry.registry`).
this module
    Findings: every problem becomes a :class:`~ascend_compile.findings.Finding`
    with one of the rule IDs in :data:`~.messages.SCHEMA_RULES`.
    :func:`validate_document` locates each one at its YAML node;
    :func:`validate_object` (used on the compiler's own output) leaves
    locations empty.  Files in bulk: :mod:`ascend_compile.files.validate`.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ..catalogue import MISSING_REQUIRED, NOT_AN_OBJECT, UNKNOWN_KIND, WRONG_TYPE
from ..findings import ERROR, INFO, WARNING, Finding, Path, describe_document
from ..podtemplates import Table, find
from ..vocabulary import KUBERNETES_KINDS, never_echoed
from .registry import Registry, registry
from .messages import LIST_OF_OBJECTS, NO_API_VERSION_OR_KIND, Err, hide_value, not_a_mapping_message

# --------------------------------------------------------------------------- public API




def _group(api_version: str) -> str:
    """The API group of ``apiVersion`` ("" for the core group's ``v1``)."""
    return api_version.rpartition("/")[0]


def _maybe_a_typo(api_version: str, kind: str, reg: Registry) -> bool:
    """Whether an object without a schema may be one of ours or one of Kubernetes' own mistyped: its API group
    is ours or Kubernetes', or its kind is ours under another group.  Another project's kind in its own group
    (kubeflow.org PyTorchJob, leaderworkerset.x-k8s.io LeaderWorkerSet) is not: the cluster checks it."""
    if (api_version, kind) in KUBERNETES_KINDS:
        return False
    ours = [known.rpartition("/") for known in reg.kinds()]  # "apiVersion/kind"
    groups = {_group(version) for version, _, _ in ours} | {_group(version) for version, _ in KUBERNETES_KINDS}
    return _group(api_version) in groups or kind.lower() in {name.lower() for _, _, name in ours}


def _no_header(missing: List[str], data: Dict[str, Any]) -> str:
    if len(missing) == 1:
        return f"the object has no {missing[0]}"
    if "metadata" in data:  # a manifest that lost its first lines, not another tool's YAML (discovery tells them apart)
        return f"{NO_API_VERSION_OR_KIND}, though it has metadata"
    return NO_API_VERSION_OR_KIND


#: which object a problem is about: (kind/namespace/name as findings name it, its apiVersion)
_Who = Tuple[str, str]


def _check(data: Any, prefix: Path, strict: bool, strict_kinds: bool, volcano_version: Optional[str], reg: Registry,
           pod_kinds: Optional[Table] = None) -> List[Tuple[str, str, Path, str, str, bool, _Who]]:
    """Problems as (rule, severity, path, message, hint, at_key, which object); ``pod_kinds``, lint's pod template
    table (:mod:`ascend_compile.podtemplates`), when the pod rules check the pod templates of the kinds in it."""
    out: List[Tuple[str, str, Path, str, str, bool, _Who]] = []
    if not isinstance(data, dict):
        message = not_a_mapping_message(data)
        out.append((NOT_AN_OBJECT, ERROR, prefix, message, "put each object in a document of its own (separated by "
                    "---), or in the items of an apiVersion: v1, kind: List" if message == LIST_OF_OBJECTS else
                    "a manifest is a mapping with apiVersion, kind and metadata", False, ("", "")))
        return out
    api_version, kind = data.get("apiVersion"), data.get("kind")
    who = (describe_document(data), api_version if isinstance(api_version, str) else "")
    missing = [name for name, value in (("apiVersion", api_version), ("kind", kind))
               if not isinstance(value, str) or not value]
    if missing:
        out.append((NOT_AN_OBJECT, ERROR, prefix,
                    _no_header(missing, data) if all(
                        data.get(m) in (None, "") for m in missing)
                    else f"{' and '.join(missing)} must be non-empty strings",
                    "every manifest needs apiVersion and kind, e.g. apiVersion: mindxdl.gitee.com/v1, "
                    "kind: AscendJob", False, who))
        return out
    api_version, kind = str(api_version), str(kind)  # both strings, as the check above made sure
    if api_version == "v1" and kind == "List" and isinstance(data.get("items"), list):
        for index, item in enumerate(data["items"]):
            out.extend(_check(item, prefix + ("items", index), strict, strict_kinds, volcano_version, reg, pod_kinds))
        return out
    validator = reg.validator_for(api_version, kind, strict, volcano_version)
    if validator is None:
        severity = ERROR if strict_kinds else WARNING if _maybe_a_typo(api_version, kind, reg) else INFO
        known = ", ".join(reg.kinds())
        pods = pod_kinds is not None and find(data, pod_kinds) is not None
        out.append((UNKNOWN_KIND, severity, prefix + ("kind",) if prefix else ("kind",),
                    f"no built-in schema for {api_version} {kind}; its fields were not checked against one"
                    + (", but the rules that hold for any pod checked its pod templates" if pods else ""),
                    f"known kinds: {known}" + ("" if strict_kinds else "; --strict-kinds makes this an error"),
                    False, who))
        return out
    for err in validator.iter_problems(data):
        rule, path, message, hint, at_key = _unechoed(data, err) if err[0] == WRONG_TYPE else err
        out.append((rule, ERROR, prefix + path, message, hint, at_key, who))
    return out


def _unechoed(data: Any, err: Err) -> Err:
    """``err`` without its value when the value is the ``value`` of an entry whose ``name`` looks like a secret
    (``env: [{name: GITHUB_PAT, value: 123}]``): its own key, ``value``, says nothing."""
    path = err[1]
    if not path or path[-1] != "value":
        return err
    entry = data
    for element in path[:-1]:
        try:
            entry = entry[element]
        except (KeyError, IndexError, TypeError):
            return err
    name = entry.get("name") if isinstance(entry, dict) else None
    value = entry.get("value") if isinstance(entry, dict) else None
    if not isinstance(name, str) or not never_echoed(name) or value is None or isinstance(value, (dict, list)):
        return err
    return hide_value(err, value, "the name beside it looks like a secret")


def validate_object(obj: Any, strict: bool = True, volcano_version: Optional[str] = None,
                    strict_kinds: bool = False, source: str = "",
                    reg: Optional[Registry] = None, pod_kinds: Optional[Table] = None) -> List[Finding]:
    """Check one object (a dict from the compiler, say); Findings carry no line/column."""
    problems = _check(obj, (), strict, strict_kinds, volcano_version, reg or registry(), pod_kinds)
    return [Finding(rule=rule, severity=sev, message=message, path=path, hint=hint, file=source, obj=who[0],
                    api_version=who[1])
            for rule, sev, path, message, hint, _at_key, who in problems]


def validate_document(doc: Any, strict: bool = True, volcano_version: Optional[str] = None,
                      strict_kinds: bool = False, reg: Optional[Registry] = None,
                      pod_kinds: Optional[Table] = None) -> List[Finding]:
    """Check one parsed :class:`~ascend_compile.yamlio.locations.Document`; Findings point at YAML nodes (``pod_kinds``
    as for :func:`_check`)."""
    problems = _check(doc.data, (), strict, strict_kinds, volcano_version, reg or registry(), pod_kinds)
    # every problem placed in one walk of the document (one per problem cost problems x keys)
    places = doc.find_all([path[:-1] if rule == MISSING_REQUIRED else path for rule, _, path, *_rest in problems])
    findings = []
    for (rule, sev, path, message, hint, at_key, who), place in zip(problems, places):
        where = place.where(at_key and rule not in (MISSING_REQUIRED, UNKNOWN_KIND))
        if rule == WRONG_TYPE and hint.startswith("quote it:"):
            source = place.text  # as written: ``yes`` rather than ``true``
            match = re.search(r" as (an? \w+|null)\)$", hint)
            if source is not None and match:
                hint = f'quote it: "{source}" (YAML reads unquoted {source} as {match.group(1)})'
        findings.append(Finding(rule=rule, severity=sev, message=message, path=path, hint=hint,
                                file=where.file, line=where.line, column=where.column, obj=who[0],
                                api_version=who[1]))
    return findings

