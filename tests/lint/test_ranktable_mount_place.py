"""AC503 points at the ranktable volume's mount entry by its place among all of a container's volumeMounts,
odd entries (not a mapping: the schema check's AC102) counted too."""
from __future__ import annotations

import copy

import yaml

from ascend_compile.lint.oneshot import lint_objects
from tests.checkout import ROOT

GOLDEN = ROOT / "golden" / "matrix" / "pytorch-module-910b-8-vcjob.yaml"


def _mounted_elsewhere(odd_entries: int):
    docs = [d for d in yaml.safe_load_all(GOLDEN.read_text(encoding="utf-8")) if d]
    job = copy.deepcopy(next(d for d in docs if d["kind"] == "Job"))
    container = job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]
    mounts = container["volumeMounts"]
    ranktable = next(i for i, m in enumerate(mounts) if m["mountPath"].rstrip("/") == "/user/serverid/devindex/config")
    mounts[ranktable]["mountPath"] = "/user/config"
    container["volumeMounts"] = ["odd"] * odd_entries + mounts
    return [d for d in docs if d["kind"] != "Job"] + [job], ranktable + odd_entries


def test_the_mount_is_named_by_its_place_among_every_entry():
    for odd in (0, 2):
        objects, place = _mounted_elsewhere(odd)
        [finding] = [f for f in lint_objects(objects) if f.rule == "AC503"]
        assert finding.path[-3:] == ("volumeMounts", place, "mountPath"), (odd, finding.path)
        assert "/user/config" in finding.message
