"""The benchmark's corpus, generated into ``bench/corpus/`` (gitignored) from deterministic random specs.

Everything is compiled by the project's own compiler (fixed seed), so the manifests are what users
get from ``ascend-compile compile``:

``mixed/``
    a repository of jobs: AscendJobs (some with their Namespace in the same file) and Volcano Jobs
    with their ``rings-config-<job>`` ConfigMap, half in the job's file, half in a file of its own
    beside it (``<job>-configmap.yaml``).  Every 20th job carries a schema defect (string replicas, a bad
    enum, ``1500GB``, a container without a name, or a misspelt ``envv``).
``stream.yaml``
    the first documents of ``mixed/`` as one ``---`` stream.
``specs/``
    compact ``TrainingJob`` specs (the compile rows).
``volcano/00`` ... ``volcano/15``
    folders of Volcano Jobs, each file a job and its ConfigMap as ``compile`` writes them (names made
    unique from a few compiled templates): 4, 10 and 16 folders are the scaling rows.
"""
from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CORPUS = BENCH / "corpus"

FULL = {"mixed": 2000, "stream": 2000, "specs": 500, "volcano_dirs": 16, "volcano_per_dir": 1000, "version": 2}
QUICK = {"mixed": 60, "stream": 60, "specs": 20, "volcano_dirs": 16, "volcano_per_dir": 10, "version": 2}

FRAMEWORK_PROFILES = [
    ("pytorch", "module-910b-8"), ("mindspore", "module-910b-8"), ("tensorflow", "module-910b-8"),
    ("pytorch", "module-910b-16"), ("pytorch", "module-a3-16"), ("mindspore", "module-910"),
    ("pytorch", "card-910b-2"), ("tensorflow", "half-910"),
]
PER_NODE = {"module-910b-8": 8, "module-910b-16": 16, "module-a3-16": 16, "module-910": 8, "card-910b-2": 2,
            "half-910": 4}
INVALID_EVERY = 20


def spec(rng: random.Random, index: int, target: str, name: str = "") -> Dict[str, Any]:
    framework, profile = FRAMEWORK_PROFILES[index % len(FRAMEWORK_PROFILES)]
    env = {f"TRAIN_VAR_{i}": f"value-{rng.randint(0, 10 ** 6)}" for i in range(rng.randint(6, 14))}
    volumes = [{"name": "code", "nfs": "10.0.0.5:/data/atlas_dls/public/code", "mountPath": "/job/code"},
               {"name": "data", "nfs": "10.0.0.5:/data/atlas_dls/public/dataset", "mountPath": "/job/data",
                "readOnly": True},
               {"name": "output", "pvc": f"out-{index}", "mountPath": "/job/output"},
               {"name": "cache", "emptyDir": {}, "mountPath": "/job/cache"}]
    return {
        "apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
        "metadata": {"name": name or f"job-{index:05d}", "namespace": rng.choice(["training", "research", "prod"])},
        "spec": {
            "framework": framework, "profile": profile, "target": target,
            "npus": PER_NODE[profile] * rng.choice([1, 2, 4]),
            "image": f"swr.example.com/ml/{framework}-train:{rng.randint(1, 3)}.{rng.randint(0, 9)}",
            "command": ["/bin/bash", "-c"],
            "args": [f"bash /job/code/train_start.sh --epochs={rng.randint(1, 300)} --lr=0.{rng.randint(1, 99)}"],
            "env": env, "volumes": volumes,
            "resources": {"cpu": str(rng.choice([32, 64, 96, 180])), "memory": rng.choice(["256Gi", "512Gi"])},
            "podLabels": {"team": rng.choice(["nlp", "cv", "speech"]), "tier": f"tier-{index % 37}"},
        },
    }


def _break(obj: Dict[str, Any], index: int) -> None:
    """Plant one schema defect (each is a finding of validate and lint)."""
    replica = next(iter(obj["spec"]["replicaSpecs"].values())) if obj["kind"] == "AscendJob" else obj["spec"]["tasks"][0]
    container = replica["template"]["spec"]["containers"][0]
    defect = index // INVALID_EVERY % 5
    if defect == 0:
        replica["replicas"] = "two"
    elif defect == 1:
        container["imagePullPolicy"] = "Sometimes"
    elif defect == 2:
        container["resources"]["requests"]["memory"] = "1500GB"
    elif defect == 3:
        container.pop("name", None)
    else:
        container["envv"] = container.pop("env", [])


def _compile(specs: List[Dict[str, Any]]) -> List[List[Dict[str, Any]]]:
    from ascend_compile.compiling.pipeline import compile_specs
    from ascend_compile.yamlio.locations import Document

    # no session given: the built-in profiles, no project config
    return [list(job.objects) for job in compile_specs([Document("<bench>", 0, s, None) for s in specs])]


def _mixed(sizes: Dict[str, int], dump: Callable[[Any], str], folder: Path = CORPUS / "mixed") -> Tuple[List[str], int]:
    """Write ``mixed/`` (or ``folder``: the tests lint a small one); return the documents in order (for the
    stream) and the number of invalid jobs."""
    rng = random.Random(20261129)
    folder.mkdir(parents=True)
    docs: List[str] = []
    files = invalid = index = 0
    while files < sizes["mixed"]:
        target = "AscendJob" if index % 2 == 0 else "VolcanoJob"
        objects = _compile([spec(rng, index, target)])[0]
        job = next(o for o in objects if o["kind"] in ("AscendJob", "Job"))
        if index % INVALID_EVERY == INVALID_EVERY - 1:
            _break(job, index)
            invalid += 1
        texts = [dump(o) for o in objects]
        docs.extend(texts)
        name = job["metadata"]["name"]
        if target == "AscendJob" and index % 10 == 0:
            namespace = dump({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": job["metadata"]["namespace"]}})
            docs.append(namespace)
            _write(folder / f"ascendjob-{name}.yaml", [namespace] + texts)
        elif target == "VolcanoJob" and index % 4 == 3 and files + 2 <= sizes["mixed"]:
            _write(folder / f"vcjob-{name}-configmap.yaml", texts[:-1])
            _write(folder / f"vcjob-{name}.yaml", texts[-1:])
            files += 1
        else:
            _write(folder / f"{'ascendjob' if target == 'AscendJob' else 'vcjob'}-{name}.yaml", texts)
        files += 1
        index += 1
    return docs, invalid


def _volcano(sizes: Dict[str, int], dump: Callable[[Any], str]) -> None:
    """``volcano/NN/``: Volcano Jobs with their ConfigMaps, one job a file, names unique."""
    rng = random.Random(7)
    placeholder = "vc-template-job"
    templates = ["---\n" + "---\n".join(dump(o) for o in _compile([spec(rng, i, "VolcanoJob", placeholder)])[0])
                 for i in range(8)]
    for number in range(sizes["volcano_dirs"]):
        folder = CORPUS / "volcano" / f"{number:02d}"
        folder.mkdir(parents=True)
        for i in range(sizes["volcano_per_dir"]):
            name = f"vc-{number:02d}-{i:05d}"
            (folder / f"{name}.yaml").write_text(templates[i % len(templates)].replace(placeholder, name),
                                                 encoding="utf-8")


def _write(path: Path, texts: List[str]) -> None:
    path.write_text("".join("---\n" + text for text in texts), encoding="utf-8")


def generate(sizes: Dict[str, int], log: Callable[[str], None]) -> Dict[str, Any]:
    """(Re)generate ``bench/corpus`` unless it already matches ``sizes``; return its description."""
    stamp = CORPUS / "corpus.json"
    if stamp.exists():
        try:
            info = json.loads(stamp.read_text())
            if info.get("sizes") == sizes:
                return info
        except ValueError:
            pass
    sys.path.insert(0, str(ROOT / "scripts"))
    from _checkout import use_checkout

    use_checkout()
    from ascend_compile.yamlio.dump import dump_document, dump_documents

    log(f"generating corpus into {CORPUS} ...")
    shutil.rmtree(CORPUS, ignore_errors=True)
    docs, invalid = _mixed(sizes, dump_document)
    with open(CORPUS / "stream.yaml", "w", encoding="utf-8") as handle:
        handle.write("".join("---\n" + text for text in docs[: sizes["stream"]]))
    (CORPUS / "specs").mkdir()
    rng = random.Random(5)
    for index in range(sizes["specs"]):
        one = spec(rng, 100_000 + index, "AscendJob" if index % 2 == 0 else "VolcanoJob")
        (CORPUS / "specs" / f"spec-{index:04d}.yaml").write_text(dump_documents([one]), encoding="utf-8")
    _volcano(sizes, dump_document)
    mixed = sorted((CORPUS / "mixed").iterdir())
    info = {"sizes": sizes, "mixed_files": len(mixed), "mixed_docs": sum(p.read_text().count("\n---\n") + 1 for p in mixed),
            "mixed_invalid_jobs": invalid, "mixed_bytes": sum(p.stat().st_size for p in mixed),
            "stream_docs": min(sizes["stream"], len(docs)), "specs": sizes["specs"],
            "volcano_per_dir": sizes["volcano_per_dir"], "volcano_dirs": sizes["volcano_dirs"]}
    stamp.write_text(json.dumps(info, indent=1))
    return info
