#!/usr/bin/env python3
"""Write JSON Schemas for kubeconform, converted from the same CRDs ascend-compile's schemas come from.

    python bench/kubeconform_schemas.py OUT_DIR [CRD_DIR]

``CRD_DIR`` defaults to ``../shared/upstream/crds`` beside the checkout (the AscendJob CRD and the
Volcano v1.15.0 CRDs; v1.15 is the release ascend-compile checks by default).  Each CRD version's
``openAPIV3Schema`` becomes ``OUT_DIR/<kind><kind suffix>.json``, the file names kubeconform's
``-schema-location 'OUT_DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json'`` asks for.  The conversion is
what kubeconform's ``-strict`` schema sets do: ``additionalProperties: false`` on every object schema
that lists ``properties`` (the root included) and sets neither ``additionalProperties`` nor
``x-kubernetes-preserve-unknown-fields``.  ConfigMap and Namespace are core kinds without a CRD: their
schemas are the hand-written ones ascend-compile ships (``schemas/configmap-v1.json`` and
``schemas/namespace-v1.json``), copied as they are.

Offline and deterministic: the same inputs give byte-identical files.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, Tuple

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CRDS = ROOT.parent / "shared" / "upstream" / "crds"
CRD_FILES = ("CustomResourceDefinition-ascendjobs.mindxdl.gitee.com.yaml", "volcano-v1.15.0/batch.volcano.sh_jobs.yaml",
             "volcano-v1.15.0/scheduling.volcano.sh_podgroups.yaml", "volcano-v1.15.0/scheduling.volcano.sh_queues.yaml")
CORE = {"configmap-v1.json": "configmap-v1.json", "namespace-v1.json": "namespace-v1.json"}


def strict(node: Any) -> Any:
    """A copy of ``node`` that refuses fields its object schemas do not list."""
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: strict(value) for key, value in node.items()}
    if "properties" in out and "additionalProperties" not in out \
            and not out.get("x-kubernetes-preserve-unknown-fields"):
        out["additionalProperties"] = False
    return out


def file_name(kind: str, group: str, version: str) -> str:
    """kubeconform's ``{{ .ResourceKind }}{{ .KindSuffix }}.json`` for a group's kind and version."""
    return f"{kind.lower()}-{group.split('.')[0].lower()}-{version.lower()}.json"


def schemas(crd_dir: Path) -> Iterator[Tuple[str, Dict[str, Any]]]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for name in CRD_FILES:
        for crd in yaml.load_all((crd_dir / name).read_text(encoding="utf-8"), Loader=loader):
            if not isinstance(crd, dict) or crd.get("kind") != "CustomResourceDefinition":
                continue
            spec = crd["spec"]
            for version in spec["versions"]:
                schema = version.get("schema", {}).get("openAPIV3Schema")
                if schema is not None:
                    yield file_name(spec["names"]["kind"], spec["group"], version["name"]), strict(schema)


def write(out_dir: Path, crd_dir: Path = DEFAULT_CRDS) -> int:
    out_dir.mkdir(parents=True, exist_ok=True)
    count = 0
    for name, schema in schemas(crd_dir):
        (out_dir / name).write_text(json.dumps(schema, sort_keys=True, separators=(",", ":")), encoding="utf-8")
        count += 1
    for name, ours in CORE.items():
        (out_dir / name).write_text((ROOT / "schemas" / ours).read_text(encoding="utf-8"), encoding="utf-8")
        count += 1
    return count


def main(argv: list) -> int:
    if not argv or len(argv) > 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    count = write(Path(argv[0]), Path(argv[1]) if len(argv) > 1 else DEFAULT_CRDS)
    print(f"wrote {count} schemas into {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
