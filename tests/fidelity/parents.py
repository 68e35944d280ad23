"""The parents every generated job starts from: goldens, compiled specs and upstream samples.

A parent is a set of objects (a job and what comes with it, e.g. its ranktable
ConfigMap) with the hardware profile it targets, when that can be told.  Only
parents whose profile the simulated cluster models are judged by the oracle;
the others are still linted for the false-positive guard (``guard_files``).
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import yaml

from tests.checkout import ROOT, SHARED
from tests.simcluster import nodes
from tests.simcluster.oracle import JOB_KINDS, cases_from_documents

GOLDEN = ROOT / "golden"
SAMPLES = SHARED / "upstream" / "samples"
FRAMEWORKS = ("pytorch", "mindspore", "tensorflow")
#: the compiled specs: (profile, framework, target, npus, pods); pods None = what the compiler picks.
#: A fixed list, so the job count does not move when profiles are added (docs/fidelity.md records it).
COMPILED: Tuple[Tuple[str, str, str, int, Optional[int]], ...] = (
    ("module-910b-8", "pytorch", "AscendJob", 1, None), ("module-910b-8", "pytorch", "AscendJob", 4, None),
    ("module-910b-8", "mindspore", "VolcanoJob", 8, None), ("module-910b-8", "pytorch", "VolcanoJob", 24, None),
    ("module-910b-8", "tensorflow", "AscendJob", 32, None), ("module-910b-8", "mindspore", "AscendJob", 2, None),
    ("module-910b-16", "pytorch", "AscendJob", 16, None), ("module-910b-16", "mindspore", "VolcanoJob", 4, None),
    ("module-910b-16", "pytorch", "VolcanoJob", 32, None),
    ("module-910", "pytorch", "AscendJob", 2, None), ("module-910", "tensorflow", "VolcanoJob", 4, None),
    ("module-910", "mindspore", "AscendJob", 16, None), ("module-910", "pytorch", "VolcanoJob", 8, None),
    ("half-910", "pytorch", "AscendJob", 4, None), ("half-910", "mindspore", "VolcanoJob", 1, None),
    ("half-910", "tensorflow", "AscendJob", 8, None),
    ("card-910", "pytorch", "AscendJob", 1, None), ("card-910", "mindspore", "VolcanoJob", 4, None),
    ("card-910b-2", "pytorch", "AscendJob", 1, None), ("card-910b-2", "tensorflow", "VolcanoJob", 6, None),
    ("card-910b-infer", "pytorch", "AscendJob", 3, None), ("card-910b-infer", "mindspore", "VolcanoJob", 16, None),
    ("module-a3-16", "pytorch", "AscendJob", 8, None), ("module-a3-16", "mindspore", "VolcanoJob", 32, None),
    ("module-a3-16", "tensorflow", "AscendJob", 2, None),
    ("module-a3-16-super-pod", "pytorch", "AscendJob", 32, None),
    ("module-a3-16-super-pod", "mindspore", "VolcanoJob", 16, None),
    ("module-a3-8-super-pod", "pytorch", "VolcanoJob", 16, None),
    ("module-a3-8-super-pod", "mindspore", "AscendJob", 8, None),
    ("310", "pytorch", "AscendJob", 2, None), ("310", "mindspore", "AscendJob", 4, None),
    ("310p", "pytorch", "AscendJob", 1, None), ("310p", "mindspore", "AscendJob", 8, None),
)


@functools.lru_cache(maxsize=1)
def profiles() -> Dict[str, nodes.HardwareProfile]:
    """The hardware profiles (read once per process)."""
    return nodes.load_profiles()


@dataclass
class Parent:
    id: str  # golden:matrix/x, compiled:<profile>-..., sample:<file>#<job>
    source: str  # golden | compiled | sample
    profile: str  # the profile it targets, "" when it cannot be told
    objects: List[Dict[str, Any]] = field(repr=False)
    _text: Optional[str] = field(default=None, repr=False, compare=False)

    @property
    def job(self) -> Dict[str, Any]:
        return next(o for o in self.objects if (o.get("apiVersion"), o.get("kind")) in JOB_KINDS)

    @property
    def simulated(self) -> bool:
        known = profiles()
        return self.profile in known and known[self.profile].simulated

    def copy_objects(self) -> List[Dict[str, Any]]:
        """A deep copy as JSON would send it; the generator asks for one per parent per mutation (some
        20,000), so the JSON text is made once and each copy only parses it."""
        if self._text is None:
            self._text = json.dumps(self.objects)
        return list(json.loads(self._text))


def _docs(path: Path) -> List[Dict[str, Any]]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: 10x faster
    return [d for d in yaml.load_all(path.read_text(encoding="utf-8"), Loader=loader) if isinstance(d, dict)]


def _golden_profile(path: Path) -> str:
    """The profile of a golden: from the spec it was compiled from (examples/ mirrors golden/)."""
    spec = ROOT / "examples" / path.relative_to(GOLDEN)
    if spec.is_file():
        data = yaml.safe_load(spec.read_text(encoding="utf-8")) or {}
        return str((data.get("spec") or {}).get("profile") or "")
    return ""


def golden_files() -> List[Path]:
    return sorted(p for p in GOLDEN.rglob("*.yaml"))


def sample_files() -> List[Path]:
    return sorted(SAMPLES.glob("*.yaml")) if SAMPLES.is_dir() else []


def samples_missing_reason() -> Optional[str]:
    if SAMPLES.is_dir():
        return None
    return f"the upstream samples are absent ({SAMPLES.relative_to(ROOT.parent)} not found)"


def _from_files(paths: Sequence[Path], source: str, root: Path) -> List[Parent]:
    out: List[Parent] = []
    for path in paths:
        rel = path.relative_to(root).with_suffix("").as_posix()
        for case in cases_from_documents(rel, _docs(path)):
            profile = _golden_profile(path) if source == "golden" else infer_profile(case.jobs()[0])
            out.append(Parent(f"{source}:{case.label}", source, profile, case.objects))
    return out


def _compiled() -> List[Parent]:
    import ascend_compile

    out: List[Parent] = []
    for profile, framework, target, npus, pods in COMPILED:
        name = f"{framework[:2]}-{profile}-{target[0].lower()}{npus}".replace("super-pod", "sp")
        spec = ascend_compile.JobSpec(name=name, namespace="fidelity", framework=framework, profile=profile,
                                      target=target, npus=npus, pods=pods, image="train:latest",
                                      command=["/bin/bash", "-c"], args=["bash /job/train.sh"])
        try:
            objects = ascend_compile.compile_spec(spec)
        except ascend_compile.AscendCompileError:
            continue  # a spec the compiler refuses has no manifest to judge
        objects = [o for o in objects if o.get("kind") != "Namespace"]
        out.append(Parent(f"compiled:{name}", "compiled", profile, objects))
    return out


def load_parents() -> List[Parent]:
    """Every parent, in a fixed order (goldens, compiled specs, samples)."""
    return (_from_files(golden_files(), "golden", GOLDEN) + _compiled()
            + _from_files(sample_files(), "sample", SAMPLES))


def _selectors(job: Dict[str, Any]) -> List[Dict[str, Any]]:
    from tests.fidelity.shapes import pod_templates

    return [((t.get("spec") or {}).get("nodeSelector") or {}) for t in pod_templates(job)]


def infer_profile(job: Dict[str, Any]) -> str:
    """The profile a sample targets: its accelerator-type and NPU resource, else the resource's fallback."""
    from tests.fidelity.shapes import npu_resource

    known = profiles()
    resource = npu_resource(job)
    accel = next((str(s["accelerator-type"]) for s in _selectors(job) if "accelerator-type" in s), None)
    same = [p for p in known.values() if p.resource == resource]
    for profile in same:
        if accel is not None and profile.accelerator_type == accel:
            return profile.name
    if accel is None:
        for profile in same:
            if profile.raw["spec"].get("fallback") == "noAcceleratorType" or len(same) == 1:
                return profile.name
    if same and not any(p.simulated for p in same):
        return same[0].name  # hardware the cluster does not simulate (e.g. huawei.com/npu)
    return ""
