"""A label or annotation key, a label value or a selector that Kubernetes' API server refuses.

**What.** Every object's ``metadata.labels`` and ``metadata.annotations``, and those of every pod
template (a Volcano Job's tasks, an AscendJob's replica specs, a Deployment's or Job's template),
follow Kubernetes' syntax:

- a key (label or annotation) is a name of at most 63 characters with a letter or digit at each
  end and only letters, digits, ``-``, ``_`` or ``.`` in between, optionally after a prefix and one
  ``/``; the prefix is a DNS subdomain (lower-case letters, digits, ``-`` and ``.``, at most 253
  characters; an annotation key's prefix may also hold capitals);
- a label value is empty or such a name (so no spaces, no ``/``, no ``:``);
- the annotations of one object (one pod template) take at most 256 KiB, keys and values together.

Pod templates' label keys and values are checked the same way where they select: ``nodeSelector``,
the keys of node affinity expressions and of tolerations, pod (anti-)affinity and topology spread
selectors (``matchLabels``, ``matchExpressions`` keys and values, ``topologyKey``,
``matchLabelKeys``), a workload's ``spec.selector`` and a Service's. This is |severity|.
(A value that is not a string, such as ``team: 5``, is the schema check's.)

**Why.** The API server checks every object's metadata, and a built-in kind's pod template (its
labels, annotations and selectors), when the object is applied: it refuses the whole object, naming
the field and the rule broken, and nothing is created. The pod templates of a Volcano Job are
checked by Volcano's admission webhook, which refuses the job; on a cluster without that webhook
(MindCluster's own install has none) the job is created, but the API server refuses every pod of the
task, so the job never runs. The pod templates of an AscendJob are not checked when it is applied:
the API server refuses every pod ascend-operator creates from them, so the job never runs.

**How to fix.** Write keys as ``[prefix/]name`` (``example.com/team``) and label values with
letters, digits, ``-``, ``_`` and ``.`` only (``my-team``); free text belongs in an annotation's value,
large data in a ConfigMap.

Failing::

    metadata:
      labels:
        team: my team
        example.com/owner/name: alice
      annotations:
        description/: training run

Passing::

    metadata:
      labels:
        team: my-team
        example.com/owner: alice
      annotations:
        description: training run of my team
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set

from ...catalogue.citations import Citation, K8S, K8V, Place, VC, VCJ
from ...findings import Path
from ...manifest.values import as_dict, as_list
from ...vocabulary import ASCEND_JOB, MAX_LABEL_LENGTH, VOLCANO_JOB, never_echoed
from ..rule import Problem
from ._labels import ANNOTATIONS_LIMIT, KEY_FORM, key_problem, value_problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("ValidateLabels", "staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", K8S,
                    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
                    "must start and end with an alphanumeric character",
                    also=(Place("IsQualifiedName", "staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go", K8S),
                          Place("IsValidLabelValue", "staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go",
                                K8S),
                          Place("ValidateAnnotations", "staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go",
                                K8S),
                          Place("ValidateLabelSelector",
                                "staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", K8S),
                          Place("ValidatePodTemplateSpec", K8V, K8S),
                          Place("ValidatePodSpec", K8V, K8S),
                          Place("validatePodAffinityTerm", K8V, K8S),
                          Place("ValidateNodeSelectorRequirement", K8V, K8S),
                          Place("ValidateTolerations", K8V, K8S),
                          Place("validateTopologySpreadConstraints", K8V, K8S),
                          Place("validateTaskTemplate", VCJ, VC)))

#: what happens to an object whose own metadata (or a built-in kind's pod template) the API server refuses
REFUSED = "the API server refuses the object, so nothing is created"
#: kinds whose ``spec.selector`` is a label selector the API server checks (a Service's is a plain map)
_SELECTOR_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job")
SERVICE = "Service"
_AFFINITIES = ("podAffinity", "podAntiAffinity")
_REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution"
_PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution"
_NOT_NAME = re.compile(r"[^-_.A-Za-z0-9]+")
_NOT_PREFIX = re.compile(r"[^-.a-z0-9]+")
#: keys and values found valid before, by what they were checked as: runs repeat their labels (bounded)
_VALID: Dict[str, Set[str]] = {"label": set(), "annotation": set(), "value": set()}


def _template_refused(obj: ObjectContext) -> str:
    """What happens to ``obj`` when one of its pod templates breaks the syntax."""
    if obj.kind == VOLCANO_JOB:
        return ("Volcano's admission webhook refuses the job; without the webhook, the API server refuses every "
                "pod of the task, so the job never runs")
    if obj.kind == ASCEND_JOB:
        return "the API server refuses every pod ascend-operator creates from it, so the job never runs"
    return REFUSED


def _suggest(text: str) -> str:
    """``text`` with what a name may not hold replaced by '-', at most 63 characters ('' when nothing is left)."""
    return _NOT_NAME.sub("-", text).strip("-_.")[:MAX_LABEL_LENGTH].rstrip("-_.")


def _suggest_key(key: str, annotation: bool) -> str:
    """A valid key close to ``key`` (a lower-case prefix, the rest of it as the name), '' when none is found."""
    prefix, slash, name = key.partition("/")
    if not slash:
        prefix, name = "", key
    prefix, name = _NOT_PREFIX.sub("-", prefix.lower()).strip("-."), _suggest(name)
    better = f"{prefix}/{name}" if prefix and name else name or _suggest(prefix)
    return better if better != key and key_problem(better, annotation) is None else ""


def _key(key: Any, what: str, path: Path, refused: str, out: List[Problem], at_key: bool = True,
         annotation: bool = False) -> None:
    """A Problem for ``key`` (a string) when it is no valid key; ``at_key``: it is a mapping's key at ``path``."""
    if not isinstance(key, str):
        return
    valid = _VALID["annotation" if annotation else "label"]
    if key in valid:
        return
    why = key_problem(key, annotation)
    if why is None:
        if len(valid) < 8192:
            valid.add(key)
        return
    better = _suggest_key(key, annotation)
    out.append(Problem(path, f"{what} {key!r} {why}: {refused}",
                       f"write it as {better!r}" if better else f"write the key as {KEY_FORM}", key=at_key))


def _value(value: Any, what: str, key: Any, path: Path, refused: str, out: List[Problem]) -> None:
    """A Problem for ``value`` (a string) when it is no valid label value."""
    if not isinstance(value, str):
        return  # the schema check reports a value that is not a string
    valid = _VALID["value"]
    if value in valid:
        return
    why = value_problem(value)
    if why is None:
        if len(valid) < 8192:
            valid.add(value)
        return
    secret = isinstance(key, str) and never_echoed(key)
    better = "" if secret else _suggest(value)
    if what == "label value":
        how = (f"write it as {better!r}" if better else "use only letters, digits, '-', '_' and '.'") + \
            "; free text belongs in an annotation"
    else:
        how = "select a value a label can have" + (f" (e.g. {better!r})" if better else "")
    out.append(Problem(path, f"{what}{'' if secret else ' ' + repr(value)} {why}: {refused}", how))


def _labels(labels: Any, path: Path, what: str, refused: str, out: List[Problem]) -> None:
    """The keys and values of a label map (labels, nodeSelector, matchLabels) at ``path``."""
    if not isinstance(labels, dict):
        return
    for key, value in labels.items():
        _key(key, f"{what} key", path + (key,), refused, out)
        _value(value, f"{what} value", key, path + (key,), refused, out)


def _annotations(annotations: Any, path: Path, refused: str, out: List[Problem]) -> None:
    if not isinstance(annotations, dict):
        return
    size = 0
    for key, value in annotations.items():
        _key(key, "annotation key", path + (key,), refused, out, annotation=True)
        if isinstance(key, str) and isinstance(value, str):
            size += len(key.encode("utf-8")) + len(value.encode("utf-8"))
    if size > ANNOTATIONS_LIMIT:
        out.append(Problem(path, f"the annotations take {size} bytes, more than the {ANNOTATIONS_LIMIT} one object "
                                 f"may hold: {refused}",
                           "move large data into a ConfigMap (and mount it), keeping annotations short", key=True))


def _metadata(metadata: Dict[str, Any], path: Path, refused: str, out: List[Problem]) -> None:
    labels, annotations = metadata.get("labels"), metadata.get("annotations")
    if labels:
        _labels(labels, path + ("labels",), "label", refused, out)
    if annotations:
        _annotations(annotations, path + ("annotations",), refused, out)


def _selector(selector: Any, path: Path, refused: str, out: List[Problem]) -> None:
    """A label selector: matchLabels, and each expression's key and values."""
    if not isinstance(selector, dict):
        return
    _labels(selector.get("matchLabels"), path + ("matchLabels",), "selector", refused, out)
    for i, expression in enumerate(as_list(selector.get("matchExpressions"))):
        if isinstance(expression, dict):
            at = path + ("matchExpressions", i)
            key = expression.get("key")
            _key(key, "selector key", at + ("key",), refused, out, at_key=False)
            for j, value in enumerate(as_list(expression.get("values"))):
                _value(value, "selector value", key, at + ("values", j), refused, out)


def _keys(keys: Any, what: str, path: Path, refused: str, out: List[Problem]) -> None:
    """A list of label keys (matchLabelKeys, mismatchLabelKeys)."""
    for i, key in enumerate(as_list(keys)):
        _key(key, what, path + (i,), refused, out, at_key=False)


def _affinity_term(term: Any, path: Path, refused: str, out: List[Problem]) -> None:
    """A pod (anti-)affinity term: its selectors, label key lists and topologyKey."""
    if not isinstance(term, dict):
        return
    for name in ("labelSelector", "namespaceSelector"):
        _selector(term.get(name), path + (name,), refused, out)
    for name in ("matchLabelKeys", "mismatchLabelKeys"):
        _keys(term.get(name), f"{name} entry", path + (name,), refused, out)
    topology = term.get("topologyKey")
    if topology == "":
        out.append(Problem(path + ("topologyKey",), f"topologyKey is empty: {refused}",
                           "name the node label that groups nodes, e.g. kubernetes.io/hostname"))
    elif topology is not None:
        _key(topology, "topologyKey", path + ("topologyKey",), refused, out, at_key=False)


def _node_affinity(affinity: Dict[str, Any], path: Path, refused: str, out: List[Problem]) -> None:
    """The keys of node affinity expressions (their values may be any text)."""
    terms = [(path + (_REQUIRED, "nodeSelectorTerms", i), term) for i, term in
             enumerate(as_list(as_dict(affinity.get(_REQUIRED)).get("nodeSelectorTerms")))]
    terms += [(path + (_PREFERRED, i, "preference"), as_dict(item).get("preference"))
              for i, item in enumerate(as_list(affinity.get(_PREFERRED)))]
    for at, term in terms:
        for i, expression in enumerate(as_list(as_dict(term).get("matchExpressions"))):
            if isinstance(expression, dict):
                _key(expression.get("key"), "node affinity key", at + ("matchExpressions", i, "key"), refused, out,
                     at_key=False)


def _affinity(affinity: Dict[str, Any], path: Path, refused: str, out: List[Problem]) -> None:
    if "nodeAffinity" in affinity:
        _node_affinity(as_dict(affinity["nodeAffinity"]), path + ("nodeAffinity",), refused, out)
    for kind in _AFFINITIES:
        if kind not in affinity:
            continue
        terms = as_dict(affinity[kind])
        at = path + (kind,)
        for i, term in enumerate(as_list(terms.get(_REQUIRED))):
            _affinity_term(term, at + (_REQUIRED, i), refused, out)
        for i, item in enumerate(as_list(terms.get(_PREFERRED))):
            _affinity_term(as_dict(item).get("podAffinityTerm"), at + (_PREFERRED, i, "podAffinityTerm"), refused,
                           out)


def _pod_spec(spec: Dict[str, Any], path: Path, refused: str, out: List[Problem]) -> None:
    """What a pod spec selects by label: nodeSelector, tolerations, affinity, topology spread."""
    if "nodeSelector" in spec:
        _labels(spec["nodeSelector"], path + ("nodeSelector",), "nodeSelector", refused, out)
    if "tolerations" in spec:
        for i, toleration in enumerate(as_list(spec["tolerations"])):
            key = as_dict(toleration).get("key")
            if key:  # an empty key (with Exists) matches every taint
                _key(key, "toleration key", path + ("tolerations", i, "key"), refused, out, at_key=False)
    if "affinity" in spec:
        _affinity(as_dict(spec["affinity"]), path + ("affinity",), refused, out)
    if "topologySpreadConstraints" in spec:
        for i, constraint in enumerate(as_list(spec["topologySpreadConstraints"])):
            at = path + ("topologySpreadConstraints", i)
            _selector(as_dict(constraint).get("labelSelector"), at + ("labelSelector",), refused, out)
            _keys(as_dict(constraint).get("matchLabelKeys"), "matchLabelKeys entry", at + ("matchLabelKeys",),
                  refused, out)


def check(obj: ObjectContext, run: RunContext) -> List[Problem]:
    out: List[Problem] = []
    _metadata(obj.metadata, ("metadata",), REFUSED, out)
    if obj.kind in _SELECTOR_KINDS:
        _selector(obj.spec.get("selector"), ("spec", "selector"), REFUSED, out)
    elif obj.kind == SERVICE:
        _labels(obj.spec.get("selector"), ("spec", "selector"), "selector", REFUSED, out)
    refused: Optional[str] = None
    for pod_set in obj.pod_sets():
        refused = refused or _template_refused(obj)
        meta_path = pod_set.spec_path[:-1] + ("metadata",)
        if meta_path != ("metadata",):  # a Pod is its own template: its metadata is read above
            _metadata(pod_set.metadata, meta_path, refused, out)
        _pod_spec(pod_set.spec, pod_set.spec_path, refused, out)
    return out
