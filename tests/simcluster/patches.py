"""The source edits made to the unpacked Volcano tree before building it.

Upstream builds the Ascend NPU plugin inside the Volcano tree
(``component/ascend-for-volcano/build/build.sh`` of MindCluster).  That script
copies the plugin to ``pkg/scheduler/plugins/ascend-volcano-plugin/`` and makes
two edits with ``sed``; this module makes the same two edits with the same
match rules, in Python, and reports whether each one matched:

1. ``pkg/controllers/job/state/running.go``: when the file has no ``Ignore``
   yet, ``switch action {`` becomes ``switch action { case "Ignore" : return nil``
   (a job action ``Ignore`` that does nothing while the job runs).  In Volcano
   v1.12.0 the statement reads ``switch action.Action {``, so upstream's pattern
   matches nothing and the file stays as it is; this module behaves the same.
2. ``pkg/scheduler/actions/allocate/allocate.go``: the line with
   ``case len(nodes) == 1:`` and the two lines after it become ``default:``, so a
   task with a single feasible node is scored by the plugins like any other
   (without it the plugin's node-order function, which picks the NPUs, is not
   called when only one node fits).

A third edit is ours, for the static registration (see docs/testing.md): the
plugin's root package is ``package main`` (a Go plugin must be); it becomes an
importable package, and one small file of ours in ``cmd/scheduler`` registers
its ``New`` with the scheduler framework under the name the ``.so`` file would
have had.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import List

PLUGIN_DIR = "pkg/scheduler/plugins/ascend-volcano-plugin"
PLUGIN_IMPORT = "volcano.sh/volcano/" + PLUGIN_DIR
PLUGIN_PACKAGE = "ascendvolcanoplugin"
#: build.sh: ``volcano-npu_${REL_VERSION}`` with REL_VERSION defaulting to v26.1.0
PLUGIN_NAME = "volcano-npu_v26.1.0"

REGISTRATION_FILE = "cmd/scheduler/zz_ascend_npu_plugin.go"
REGISTRATION_SOURCE = f"""// Code written by ascend-compile's tests/simcluster (not upstream): registers the
// Ascend NPU plugin statically, under the name its .so file would have had.
package main

import (
\t"volcano.sh/volcano/pkg/scheduler/framework"

\tnpu "{PLUGIN_IMPORT}"
)

func init() {{
\tframework.RegisterPluginBuilder(npu.PluginName, npu.New)
}}
"""


class PatchError(RuntimeError):
    """The tree does not look the way the edits expect."""


@dataclass(frozen=True)
class EditResult:
    name: str
    applied: bool
    note: str


def copy_plugin(mind_cluster: Path, volcano: Path) -> Path:
    """Copy ``component/ascend-for-volcano`` into the Volcano tree, as build.sh does."""
    source = mind_cluster / "component" / "ascend-for-volcano"
    if not (source / "npu.go").is_file():
        raise PatchError(f"{source} has no npu.go: not the Ascend NPU plugin")
    target = volcano / PLUGIN_DIR
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("output", "build", "doc", "testdata"))
    return target


def ignore_action(volcano: Path) -> EditResult:
    path = volcano / "pkg/controllers/job/state/running.go"
    text = path.read_text()
    if "Ignore" in text:
        return EditResult("running.go Ignore action", False, "already has Ignore")
    if "switch action {" not in text:
        return EditResult("running.go Ignore action", False,
                          "no `switch action {` here (upstream's sed matches nothing on this Volcano version)")
    path.write_text(text.replace("switch action {", 'switch action { case "Ignore" : return nil'))
    return EditResult("running.go Ignore action", True, "applied")


def single_node_scoring(volcano: Path) -> EditResult:
    path = volcano / "pkg/scheduler/actions/allocate/allocate.go"
    lines = path.read_text().split("\n")
    out: List[str] = []
    count = 0
    i = 0
    while i < len(lines):
        if "case len(nodes) == 1:" in lines[i] and i + 2 < len(lines):
            out.append("            default:")
            i += 3
            count += 1
            continue
        out.append(lines[i])
        i += 1
    if not count:
        raise PatchError(f"{path}: no `case len(nodes) == 1:`; this Volcano version needs another recipe")
    path.write_text("\n".join(out))
    return EditResult("allocate.go single-node shortcut", True, f"replaced {count} block(s)")


def static_registration(volcano: Path) -> EditResult:
    plugin = volcano / PLUGIN_DIR
    renamed = 0
    for path in sorted(plugin.glob("*.go")):  # tests too: Go refuses two package names in one folder
        text = path.read_text()
        new, n = re.subn(r"^package main$", f"package {PLUGIN_PACKAGE}", text, count=1, flags=re.MULTILINE)
        if n:
            path.write_text(new)
            renamed += 1
    if not renamed:
        raise PatchError(f"{plugin}: no `package main` file to make importable")
    (volcano / REGISTRATION_FILE).write_text(REGISTRATION_SOURCE)
    return EditResult("static registration", True, f"{renamed} file(s) renamed to package {PLUGIN_PACKAGE}")


#: where the operator writes ``<namespace>.<job>/hccl.json`` for jobs with a ``ranktable`` volume
OPERATOR_RANKTABLE_ROOT = "/user/mindx-dl/ranktable"
SIM_RANKTABLE_ROOT = "/tmp/ascend-compile-simcluster/ranktable"


def operator_ranktable_root(mind_cluster: Path) -> EditResult:
    """Point the operator's ranktable folder (a host path on a real node) into /tmp.

    The operator writes the ranktable of a job with a ``ranktable`` hostPath
    volume under ``/user/mindx-dl/ranktable`` of the machine it runs on; in the
    simulation that machine is the developer's or CI's, so the constant is
    moved to ``/tmp/ascend-compile-simcluster/ranktable``.  Nothing else changes.
    """
    path = mind_cluster / "component/ascend-operator/pkg/ranktable/utils/util.go"
    text = path.read_text()
    literal = f'"{OPERATOR_RANKTABLE_ROOT}"'
    if text.count(literal) != 1:
        raise PatchError(f"{path}: expected the ranktable root {literal} once")
    path.write_text(text.replace(literal, f'"{SIM_RANKTABLE_ROOT}"'))
    return EditResult("operator ranktable root", True, f"{OPERATOR_RANKTABLE_ROOT} -> {SIM_RANKTABLE_ROOT}")


def prepare_volcano_tree(mind_cluster: Path, volcano: Path) -> List[EditResult]:
    """Copy the plugin in and make all edits; returns what each edit did."""
    copy_plugin(mind_cluster, volcano)
    return [ignore_action(volcano), single_node_scoring(volcano), static_registration(volcano)]
