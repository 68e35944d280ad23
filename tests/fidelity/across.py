"""The jobs whose upstream verdict differs between MindCluster releases, and which of them are of a shape of
``tests/simcluster/release_shapes.py`` (whose tests assert the shape's verdict on each release's cluster and lint's
with the target set to each release)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ascend_compile.releases import FACTS
from tests.fidelity import shapes as job_shapes
from tests.fidelity.verdicts import Result
from tests.simcluster import release_shapes
from tests.simcluster.oracle import JOB_KINDS

POLICY = "huawei.com/schedule_policy"
#: how a job is matched to a shape, as the document says it
COVERAGE = ("A job is of a shape when upstream's verdict (bad or good) is the shape's on every release both were "
            "judged on, and it is what the shape varies: an AscendJob with a queue the cluster lacks "
            "(acjob-missing-queue), with more than one Master (acjob-two-masters); pods that select several "
            "accelerator-types, none of them a card's, which the plugin joins into one selector naming no handler "
            "(accelerator-types-joined, -module-half), with the shape's huawei.com/schedule_policy (or none); "
            "several of them, one a card's, naming the card handler (accelerator-types-joined-card), whatever they "
            "are; otherwise pods on the shape's hardware profile with the shape's accelerator-type selector (or "
            "none), huawei.com/schedule_policy (or none; a value no release's policy map holds counts as none), "
            "sp-block (or none) and npu-310-strategy label (or none; any value but card and chip counts as one: it "
            "names no handler), and, for a shape of the NPUs a pod asks for (AC301), the same NPUs per pod and one "
            "NPU pod or several.")
#: the rule of the NPUs a pod asks for: a shape showing it is of those counts (others are of any count)
NPU_COUNT_RULE = "AC301"
#: the npu-310-strategy values that name a 310 handler (any other names none)
STRATEGIES_310 = ("card", "chip")


@dataclass
class Differing:
    id: str
    results: Dict[str, Result]  # release -> its result
    shapes: List[str] = field(default_factory=list)

    def cell(self, release: str) -> str:
        result = self.results.get(release)
        if result is None:
            return "-"
        upstream = {True: "bad", False: "good", None: "?"}[result.upstream_bad]
        return f"{upstream} ({result.outcome}): {result.verdict}"


def _templates(objects: Iterable[Mapping[str, Any]]) -> List[Tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """(the job object, a pod template) for every pod template of the job's objects."""
    out = []
    for obj in objects:
        spec = obj.get("spec") or {}
        replicas = list((spec.get("replicaSpecs") or {}).values()) + list(spec.get("tasks") or [])
        out += [(obj, r.get("template") or {}) for r in replicas if isinstance(r, dict)]
    return out


def _strategy(pairs: List[Tuple[Mapping[str, Any], Mapping[str, Any]]]) -> Tuple[str, ...]:
    """The npu-310-strategy labels of the job and its pods: each value, or "no handler" for a value naming none."""
    held = [(item.get("metadata") or {}).get("labels") or {} for pair in pairs for item in pair]
    values = {str(labels["npu-310-strategy"]) for labels in held if "npu-310-strategy" in labels}
    return tuple(sorted({v if v in STRATEGIES_310 else "no handler" for v in values}))


def _npu_pods(objects: Sequence[Mapping[str, Any]]) -> Tuple[Tuple[int, ...], bool]:
    """The NPUs a pod asks for, of each replica type or task that asks for any (distinct, sorted), and whether the
    job has more than one such pod."""
    counts, pods = set(), 0
    for obj in objects:
        if (obj.get("apiVersion"), obj.get("kind")) not in JOB_KINDS:
            continue
        for _name, replica in job_shapes.replicas(dict(obj)):
            containers = ((replica.get("template") or {}).get("spec") or {}).get("containers") or []
            try:
                npus = sum(found[1] for found in map(job_shapes.npu_of, containers) if found)
                count = int(replica.get("replicas", 1))
            except (TypeError, ValueError):
                continue
            if npus > 0 and count > 0:
                counts.add(npus)
                pods += count
    return tuple(sorted(counts)), pods > 1


def _policy(value: Any) -> str:
    """A job's schedule_policy as the plugin reads it: a value no release's policy map holds is read as none (the
    handler comes from sp-block or the accelerator-type then)."""
    known = {name for _first, _last, names in FACTS["schedule-policies"].spans for name in names}
    return str(value) if value in known else "None"


def _joined(selectors: Set[str]) -> str:
    """The handler a job's several accelerator-types, joined into one selector, name: the card handler when one contains
    card, none otherwise ("" for one accelerator-type or none)."""
    if len(selectors) < 2:
        return ""
    return "card" if any("card" in value for value in selectors) else "no handler"


def features(objects: Iterable[Mapping[str, Any]], profile: str) -> Dict[str, Any]:
    """What the shapes vary, of a job's objects on ``profile``'s nodes."""
    from tests.fidelity.mutations_job import UNKNOWN_QUEUE  # here: mutations_job is imported through mutations
    objects = list(objects)
    pairs = _templates(objects)
    selectors = {str(((t.get("spec") or {}).get("nodeSelector") or {}).get("accelerator-type")) for _o, t in pairs}
    notes = [{**((o.get("metadata") or {}).get("annotations") or {}), **((t.get("metadata") or {}).get("annotations")
                                                                          or {})} for o, t in pairs]
    queues = set()
    masters = 0
    for obj in objects:
        spec = obj.get("spec") or {}
        queues |= {spec.get("queue"), ((spec.get("runPolicy") or {}).get("schedulingPolicy") or {}).get("queue")}
        if obj.get("kind") == "AscendJob":
            masters = max(masters, int(((spec.get("replicaSpecs") or {}).get("Master") or {}).get("replicas") or 0))
    chosen = selectors - {"None"}
    npus, distributed = _npu_pods(objects)
    return {"profile": profile, "accelerator-type": tuple(sorted(selectors)),
            "policy": tuple(sorted({_policy(n.get(POLICY)) for n in notes})),
            "sp-block": any("sp-block" in n for n in notes), "npu-310-strategy": _strategy(pairs),
            "missing-queue": UNKNOWN_QUEUE in queues, "two-masters": masters > 1,
            "joined": _joined(chosen), "npus": npus,
            "distributed": distributed}


def _shape_features(shape: release_shapes.Shape) -> Dict[str, Any]:
    objects = shape.manifests()
    selector = [(t.get("spec") or {}).get("nodeSelector") or {} for _o, t in _templates(objects)]
    return features(objects, str(selector[0].get(release_shapes.PROFILE_LABEL)))


def _pattern(results: Mapping[str, Optional[bool]]) -> Dict[str, bool]:
    return {release: bad for release, bad in results.items() if bad is not None}


def _keys(shape: release_shapes.Shape, theirs: Mapping[str, Any]) -> Tuple[str, ...]:
    """What a job must share with ``shape`` (of features ``theirs``) to be of it (:data:`COVERAGE`)."""
    if theirs["missing-queue"]:
        return ("missing-queue",)
    if theirs["two-masters"]:
        return ("two-masters",)
    if theirs["joined"] == "no handler":
        return ("joined", "policy", "missing-queue", "two-masters")
    keys = ("policy", "sp-block", "npu-310-strategy", "missing-queue", "two-masters", "joined")
    if not theirs["joined"]:  # a joined selector naming the card handler is of any profiles and accelerator-types
        keys += ("profile", "accelerator-type")
    return keys + (("npus", "distributed") if NPU_COUNT_RULE in shape.rules else ())


def shapes_of(objects: Sequence[Mapping[str, Any]], profile: str, upstream_bad: Mapping[str, Optional[bool]]) -> List[str]:
    """The shapes the job is of (:data:`COVERAGE`)."""
    mine, out = features(objects, profile), []
    for shape in release_shapes.differing():
        theirs = _shape_features(shape)
        seen = {r: bad for r, bad in _pattern(upstream_bad).items() if r in shape.verdicts}
        if len(set(seen.values())) < 2 or seen != {r: shape.verdicts[r] != "placed" for r in seen}:
            continue
        if all(mine[k] == theirs[k] for k in _keys(shape, theirs)):
            out.append(shape.id)
    return out


def differing(by_release: Mapping[str, Sequence[Result]],
              objects: Mapping[str, Sequence[Mapping[str, Any]]]) -> List[Differing]:
    """The jobs judged conclusively on two releases at least whose upstream verdicts differ, with their shapes;
    ``objects``: every job's objects by id."""
    ids: Dict[str, Dict[str, Result]] = {}
    for release, results in by_release.items():
        for result in results:
            ids.setdefault(result.id, {})[release] = result
    out = []
    for job_id, results in ids.items():
        upstream = {release: r.upstream_bad for release, r in results.items()}
        if len(set(_pattern(upstream).values())) < 2:
            continue
        profile = next(iter(results.values())).profile
        out.append(Differing(job_id, results, shapes_of(objects.get(job_id, ()), profile, upstream)))
    return out
