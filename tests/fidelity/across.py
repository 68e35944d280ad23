"""The jobs whose upstream verdict differs between MindCluster releases, and which of them are of a shape of
``tests/simcluster/release_shapes.py`` (whose tests assert the shape's verdict on each release's cluster and lint's
with the target set to each release)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from tests.fidelity.verdicts import Result
from tests.simcluster import release_shapes

POLICY = "huawei.com/schedule_policy"
#: how a job is matched to a shape, as the document says it
COVERAGE = ("A job is of a shape when upstream's verdict (bad or good) is the shape's on every release judged, and "
            "it is what the shape varies: an AscendJob with a queue the cluster lacks (acjob-missing-queue), with "
            "more than one Master (acjob-two-masters); otherwise pods on the shape's hardware profile with the "
            "shape's accelerator-type selector (or none) and huawei.com/schedule_policy (or none).")


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


def features(objects: Iterable[Mapping[str, Any]], profile: str) -> Dict[str, Any]:
    """What the shapes vary, of a job's objects on ``profile``'s nodes."""
    from tests.fidelity.mutations_job import UNKNOWN_QUEUE  # here: mutations_job is imported through mutations
    objects = list(objects)
    pairs = _templates(objects)
    selectors = {str(((t.get("spec") or {}).get("nodeSelector") or {}).get("accelerator-type")) for _o, t in pairs}
    policies = {str({**((o.get("metadata") or {}).get("annotations") or {}),
                     **((t.get("metadata") or {}).get("annotations") or {})}.get(POLICY)) for o, t in pairs}
    queues = set()
    masters = 0
    for obj in objects:
        spec = obj.get("spec") or {}
        queues |= {spec.get("queue"), ((spec.get("runPolicy") or {}).get("schedulingPolicy") or {}).get("queue")}
        if obj.get("kind") == "AscendJob":
            masters = max(masters, int(((spec.get("replicaSpecs") or {}).get("Master") or {}).get("replicas") or 0))
    return {"profile": profile, "accelerator-type": tuple(sorted(selectors)), "policy": tuple(sorted(policies)),
            "missing-queue": UNKNOWN_QUEUE in queues, "two-masters": masters > 1}


def _shape_features(shape: release_shapes.Shape) -> Dict[str, Any]:
    objects = shape.manifests()
    selector = [(t.get("spec") or {}).get("nodeSelector") or {} for _o, t in _templates(objects)]
    return features(objects, str(selector[0].get(release_shapes.PROFILE_LABEL)))


def _pattern(results: Mapping[str, Optional[bool]]) -> Dict[str, bool]:
    return {release: bad for release, bad in results.items() if bad is not None}


def shapes_of(objects: Sequence[Mapping[str, Any]], profile: str, upstream_bad: Mapping[str, Optional[bool]]) -> List[str]:
    """The shapes the job is of (:data:`COVERAGE`)."""
    mine, out = features(objects, profile), []
    for shape in release_shapes.differing():
        theirs = _shape_features(shape)
        expected = {r: shape.verdicts[r] != "placed" for r in _pattern(upstream_bad)}
        if expected != _pattern(upstream_bad):
            continue
        if theirs["missing-queue"] or theirs["two-masters"]:
            keys: Tuple[str, ...] = ("missing-queue",) if theirs["missing-queue"] else ("two-masters",)
        else:
            keys = ("profile", "accelerator-type", "policy", "missing-queue", "two-masters")
        if all(mine[k] == theirs[k] for k in keys):
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
