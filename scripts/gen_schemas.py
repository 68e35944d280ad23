#!/usr/bin/env python3
"""Regenerate the strict, offline JSON Schemas in ``schemas/`` from CRD files.

Usage (from the repository root)::

    python scripts/gen_schemas.py \\
        path/to/CustomResourceDefinition-ascendjobs.mindxdl.gitee.com.yaml \\
        path/to/volcano-v1.9.0/batch.volcano.sh_jobs.yaml \\
        path/to/volcano-v1.9.0/scheduling.volcano.sh_podgroups.yaml ... \\
        [--out schemas]

Each argument is a YAML file holding one or more documents; every
``CustomResourceDefinition`` in it is converted, other documents are skipped.
Volcano CRDs carry no release number, so it is read from the file's path
(a directory or file name containing ``v1.9.0`` / ``1.15.0``).  The
hand-written ConfigMap and Namespace schemas below are always written too.

What the conversion does (see ``schemas/README.md``):

* drops every ``description`` (and ``example``) keyword: structure only;
* int-or-string ``anyOf: [{type: integer}, {type: string}]`` becomes
  ``type: [integer, string]`` (``x-kubernetes-int-or-string`` is kept);
* ``nullable: true`` adds ``"null"`` to ``type`` (and is kept);
* strict by construction: ``additionalProperties: false`` on every object
  that has ``properties`` and neither ``additionalProperties`` nor
  ``x-kubernetes-preserve-unknown-fields``;
* the free-form top-level ``metadata`` and the AscendJob pod-template
  ``metadata`` (``x-kubernetes-preserve-unknown-fields``) become a strict
  ObjectMeta schema; top-level ``apiVersion``/``kind`` become ``const``s and
  ``apiVersion``, ``kind``, ``metadata`` (and ``spec`` for jobs) are required.

Output is compact JSON with sorted keys, so regenerating from the same
inputs gives byte-identical files.  ``schemas/index.json`` maps
``apiVersion`` + ``kind`` to schema files; entries this script does not
generate (for example the lead's ``trainingjob-*.json``) are listed in
``EXTRA_INDEX`` below and any other hand-added entry already in the index is
kept as is.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Tuple

import yaml

try:
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Keywords dropped from the CRD schemas: prose only, never structure.
DROP_KEYWORDS = {"description", "example"}

# --------------------------------------------------------------------------- ObjectMeta (our words)

_STRING = {"type": "string"}
_STRING_MAP = {"type": "object", "additionalProperties": {"type": "string"}}
_TIMESTAMP = {"type": ["string", "null"], "format": "date-time", "nullable": True}

OWNER_REFERENCE = {
    "type": "object",
    "required": ["apiVersion", "kind", "name", "uid"],
    "properties": {
        "apiVersion": _STRING,
        "kind": _STRING,
        "name": _STRING,
        "uid": _STRING,
        "controller": {"type": "boolean"},
        "blockOwnerDeletion": {"type": "boolean"},
    },
}

MANAGED_FIELDS_ENTRY = {
    "type": "object",
    "properties": {
        "apiVersion": _STRING,
        "fieldsType": _STRING,
        "fieldsV1": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        "manager": _STRING,
        "operation": _STRING,
        "subresource": _STRING,
        "time": _TIMESTAMP,
    },
}

#: Standard object metadata, as the API server accepts it on create/apply.
OBJECT_META = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 253},
        "generateName": _STRING,
        "namespace": {"type": "string", "maxLength": 63},
        "labels": _STRING_MAP,
        "annotations": _STRING_MAP,
        "uid": _STRING,
        "resourceVersion": _STRING,
        "generation": {"type": "integer", "format": "int64"},
        "creationTimestamp": _TIMESTAMP,
        "deletionTimestamp": _TIMESTAMP,
        "deletionGracePeriodSeconds": {"type": "integer", "format": "int64"},
        "finalizers": {"type": "array", "items": _STRING},
        "ownerReferences": {"type": "array", "items": OWNER_REFERENCE},
        "managedFields": {"type": "array", "items": MANAGED_FIELDS_ENTRY},
        "selfLink": _STRING,
    },
}

# --------------------------------------------------------------------------- hand-written core kinds


def _top(api_version: str, kind: str, props: Dict[str, Any], required: List[str]) -> Dict[str, Any]:
    properties = {"apiVersion": {"type": "string", "const": api_version},
                  "kind": {"type": "string", "const": kind},
                  "metadata": OBJECT_META}
    properties.update(props)
    return {"type": "object", "required": required, "properties": properties}


CONFIGMAP = _top("v1", "ConfigMap", {
    "data": _STRING_MAP,
    "binaryData": {"type": "object", "additionalProperties": {"type": "string", "format": "byte"}},
    "immutable": {"type": "boolean"},
}, ["apiVersion", "kind", "metadata"])

NAMESPACE = _top("v1", "Namespace", {
    "spec": {"type": "object", "properties": {"finalizers": {"type": "array", "items": _STRING}}},
    "status": {"type": "object", "properties": {
        "phase": {"type": "string", "enum": ["Active", "Terminating"]},
        "conditions": {"type": "array", "items": {
            "type": "object", "required": ["type", "status"],
            "properties": {"type": _STRING, "status": _STRING, "reason": _STRING,
                           "message": _STRING, "lastTransitionTime": _TIMESTAMP}}},
    }},
}, ["apiVersion", "kind", "metadata"])

BUILTIN = {
    "configmap-v1.json": CONFIGMAP,
    "namespace-v1.json": NAMESPACE,
}

# --------------------------------------------------------------------------- index table

#: (group, kind) -> file-name stem; ``{version}`` is the CRD version, ``{release}`` the Volcano release.
CRD_NAMES = {
    ("mindxdl.gitee.com", "AscendJob"): "ascendjob-{version}",
    ("batch.volcano.sh", "Job"): "volcano-job-v{release}",
    ("scheduling.volcano.sh", "PodGroup"): "volcano-podgroup-v{release}",
    ("scheduling.volcano.sh", "Queue"): "volcano-queue-v{release}",
}
#: Groups whose schemas come in one variant per Volcano release (selected with --volcano-version).
VOLCANO_GROUPS = {"batch.volcano.sh", "scheduling.volcano.sh"}
#: Volcano release used when --volcano-version is not given.
DEFAULT_VOLCANO = "1.15"
#: Kinds whose top-level ``spec`` is required.
SPEC_REQUIRED = {"AscendJob", "Job", "PodGroup"}

#: Index entries for schemas written by hand (not by this script); the lead extends this.
EXTRA_INDEX: Dict[str, Dict[str, Any]] = {
    "v1/ConfigMap": {"file": "configmap-v1.json"},
    "v1/Namespace": {"file": "namespace-v1.json"},
    "ascend-compile.io/v1alpha1/TrainingJob": {"file": "trainingjob-v1alpha1.json"},
    "ascend-compile.io/v1alpha1/HardwareProfile": {"file": "profile-v1alpha1.json"},
    "ascend-compile.io/v1alpha1/ClusterSnapshot": {"file": "clustersnapshot-v1alpha1.json"},
}

# --------------------------------------------------------------------------- conversion


def _is_int_or_string_anyof(node: Dict[str, Any]) -> bool:
    any_of = node.get("anyOf")
    if not isinstance(any_of, list) or len(any_of) != 2:
        return False
    types = sorted(branch.get("type", "") for branch in any_of if isinstance(branch, dict) and len(branch) == 1)
    return types == ["integer", "string"]


def convert(node: Any, strict: bool = True) -> Any:
    """Return a cleaned, strict copy of one OpenAPI v3 schema node."""
    if isinstance(node, list):
        return [convert(item, strict) for item in node]
    if not isinstance(node, dict):
        return node
    out: Dict[str, Any] = {}
    for key, value in node.items():
        if key in DROP_KEYWORDS:
            continue
        if key == "properties":
            out[key] = {name: convert(sub, strict) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = convert(value, strict) if isinstance(value, (dict, list)) else value
        elif key in ("anyOf", "oneOf", "allOf"):
            out[key] = [convert(sub, strict) for sub in value]
        elif key in ("default", "enum", "const"):
            out[key] = copy.deepcopy(value)
        else:
            out[key] = copy.deepcopy(value)
    if _is_int_or_string_anyof(out):
        del out["anyOf"]
        out["type"] = ["integer", "string"]
        out.setdefault("x-kubernetes-int-or-string", True)
    if out.get("nullable") is True and "type" in out:
        types = out["type"] if isinstance(out["type"], list) else [out["type"]]
        if "null" not in types:
            out["type"] = types + ["null"]
    if (strict and "properties" in out and "additionalProperties" not in out
            and not out.get("x-kubernetes-preserve-unknown-fields")):
        out["additionalProperties"] = False
    return out


def strict_object_meta() -> Dict[str, Any]:
    return convert(OBJECT_META)


def _replace_template_metadata(schema: Dict[str, Any], meta: Dict[str, Any]) -> int:
    """Swap every pod ``template.metadata`` that preserves unknown fields for ObjectMeta."""
    count = 0

    def walk(node: Any) -> None:
        nonlocal count
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                template = props.get("template")
                if isinstance(template, dict):
                    tprops = template.get("properties", {})
                    tmeta = tprops.get("metadata")
                    if isinstance(tmeta, dict) and tmeta.get("x-kubernetes-preserve-unknown-fields") \
                            and "spec" in tprops:
                        tprops["metadata"] = copy.deepcopy(meta)
                        count += 1
                for sub in props.values():
                    walk(sub)
            for key in ("items", "additionalProperties"):
                if isinstance(node.get(key), dict):
                    walk(node[key])
            for key in ("anyOf", "oneOf", "allOf"):
                for sub in node.get(key, []) or []:
                    walk(sub)

    walk(schema)
    return count


def convert_crd(crd: Dict[str, Any], version: Dict[str, Any]) -> Dict[str, Any]:
    group = crd["spec"]["group"]
    kind = crd["spec"]["names"]["kind"]
    api_version = f"{group}/{version['name']}"
    schema = convert(version["schema"]["openAPIV3Schema"])
    meta = strict_object_meta()
    _replace_template_metadata(schema, meta)
    props = schema.setdefault("properties", {})
    props["apiVersion"] = {"type": "string", "const": api_version}
    props["kind"] = {"type": "string", "const": kind}
    props["metadata"] = meta
    required = ["apiVersion", "kind", "metadata"]
    if kind in SPEC_REQUIRED and "spec" in props:
        required.append("spec")
    schema["required"] = required + [r for r in schema.get("required", []) if r not in required]
    schema["type"] = "object"
    schema["additionalProperties"] = False
    return schema


_RELEASE = re.compile(r"v?(\d+\.\d+\.\d+)")


def _release_from_path(path: str) -> Optional[str]:
    found = _RELEASE.findall(path)
    return found[-1] if found else None


def dumps(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def _minor(release: str) -> str:
    return ".".join(release.split(".")[:2])


def generate(crd_files: List[str], out_dir: str) -> Tuple[Dict[str, str], Dict[str, Dict[str, Any]]]:
    """Convert the CRDs; return {file name: text} and the index entries for them."""
    outputs: Dict[str, str] = {}
    index: Dict[str, Dict[str, Any]] = {}
    for path in crd_files:
        with open(path, encoding="utf-8") as handle:
            docs = [d for d in yaml.load_all(handle, Loader=_Loader) if isinstance(d, dict)]
        for crd in docs:
            if crd.get("kind") != "CustomResourceDefinition":
                continue
            group = crd["spec"]["group"]
            kind = crd["spec"]["names"]["kind"]
            stem = CRD_NAMES.get((group, kind))
            if stem is None:
                print(f"skipping {group}/{kind} from {path}: not in CRD_NAMES", file=sys.stderr)
                continue
            release = _release_from_path(path) if group in VOLCANO_GROUPS else None
            if group in VOLCANO_GROUPS and release is None:
                raise SystemExit(f"{path}: cannot tell the Volcano release from the path (want e.g. volcano-v1.9.0/)")
            for version in crd["spec"]["versions"]:
                if not version.get("served", True):
                    continue
                name = stem.format(version=version["name"], release=release) + ".json"
                outputs[name] = dumps(convert_crd(crd, version))
                key = f"{group}/{version['name']}/{kind}"
                if release:
                    entry = index.setdefault(key, {"default": DEFAULT_VOLCANO, "volcano": {}})
                    entry["volcano"][_minor(release)] = name
                else:
                    index[key] = {"file": name}
    for name, schema in BUILTIN.items():
        outputs[name] = dumps(convert(schema))
    return outputs, index


def build_index(generated: Dict[str, Dict[str, Any]], existing: Dict[str, Any]) -> Dict[str, Any]:
    kinds: Dict[str, Any] = {}
    for key, entry in (existing.get("kinds") or {}).items():
        kinds[key] = entry  # hand-added entries survive regeneration
    kinds.update(EXTRA_INDEX)
    for key, entry in generated.items():
        if "volcano" in entry and "volcano" in kinds.get(key, {}):
            merged = dict(kinds[key]["volcano"])
            merged.update(entry["volcano"])
            entry = {"default": entry["default"], "volcano": merged}
        kinds[key] = entry
    return {
        "comment": "apiVersion/kind -> schema file(s). Regenerate with scripts/gen_schemas.py; see README.md.",
        "kinds": kinds,
    }


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("crds", nargs="*", help="CRD YAML files")
    parser.add_argument("--out", default=os.path.join(REPO, "schemas"), help="output folder (default: schemas/)")
    args = parser.parse_args(argv)
    outputs, generated = generate(args.crds, args.out)
    os.makedirs(args.out, exist_ok=True)
    index_path = os.path.join(args.out, "index.json")
    existing: Dict[str, Any] = {}
    if os.path.exists(index_path):
        with open(index_path, encoding="utf-8") as handle:
            existing = json.load(handle)
    for name, text in sorted(outputs.items()):
        with open(os.path.join(args.out, name), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        print(f"wrote {name} ({len(text)} bytes)")
    index = build_index(generated, existing)
    with open(index_path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(json.dumps(index, sort_keys=True, indent=2) + "\n")
    print("wrote index.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
