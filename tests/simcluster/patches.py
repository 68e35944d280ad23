"""The source edits made to the unpacked Volcano tree before building a release's scheduler.

Upstream builds the Ascend NPU plugin inside the Volcano tree
(``component/ascend-for-volcano/build/build.sh`` of each MindCluster tag).  That script
copies the plugin to ``pkg/scheduler/plugins/ascend-volcano-plugin/`` and makes a few
edits with ``sed``, which differ by tag and by Volcano version; this module makes the
same edits with the same match rules, in Python, and reports whether each one matched.
:data:`EDITS` names them; each release lists the ones its build.sh makes
(:mod:`tests.simcluster.releases`):

- ``klog-v2`` (Volcano >= v1.9.0, every tag but master, whose sources have it): in the
  copied plugin, ``"k8s.io/klog"`` becomes ``"k8s.io/klog/v2"``;
- ``predicate-v1.9-<file>`` (Volcano v1.9.0, whose ``PredicateFn`` returns
  ``([]*api.Status, error)``): in ``huawei_npu.go`` (v6.0.0, v7.0.RC1) or ``npu.go``
  (v7.3.2, v26.0.1), ``api.NodeInfo) error {`` gets that result type and
  ``return predicateErr`` becomes ``return []*api.Status{}, predicateErr``;
- ``pending-best-effort`` (v26.1.0 on Volcano >= v1.9.0): ``npu.go`` counts pending
  best-effort tasks (``ji.PendingBestEffortTaskNum()``) towards ``job.MinAvailable``;
- ``single-node-scoring`` (v7.3.2 and later; not in v6.0.0's or v7.0.RC1's build.sh):
  ``pkg/scheduler/actions/allocate/allocate.go``: the line with ``case len(nodes) == 1:``
  and the two lines after it become ``default:``, so a task with a single feasible node
  is scored by the plugins like any other (without it the plugin's node-order function,
  which picks the NPUs, is not called when only one node fits).

The controller manager's edit, the same in every tag: ``pkg/controllers/job/state/running.go``:
when the file has no ``Ignore`` yet, ``switch action {`` becomes
``switch action { case "Ignore" : return nil``.  The simulated cluster's controller manager
is Volcano v1.12.0's for every release, where the statement reads ``switch action.Action {``,
so upstream's pattern matches nothing and the file stays as it is; this module behaves the same.

A last edit is ours, for the static registration (see docs/testing.md): the
plugin's root package is ``package main`` (a Go plugin must be); it becomes an
importable package, and one small file of ours in ``cmd/scheduler`` registers
its ``New`` with the scheduler framework under ``PluginName``, which the build sets
with ``-X`` to the name the release's build.sh gives the ``.so``.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Sequence

PLUGIN_DIR = "pkg/scheduler/plugins/ascend-volcano-plugin"
PLUGIN_IMPORT = "volcano.sh/volcano/" + PLUGIN_DIR
PLUGIN_PACKAGE = "ascendvolcanoplugin"

REGISTRATION_FILE = "cmd/scheduler/zz_ascend_npu_plugin.go"
REGISTRATION_SOURCE = f"""// Code written by ascend-compile's tests/simcluster (not upstream): registers the
// Ascend NPU plugin statically, under the name its .so file would have had (set with -X).
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
    if not (source / "type.go").is_file():  # PluginName's file in every tag
        raise PatchError(f"{source} has no type.go: not the Ascend NPU plugin")
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


def _replace_in(path: Path, old: str, new: str) -> int:
    """sed's ``s/old/new/g`` on one file; how many times it matched."""
    text = path.read_text()
    count = text.count(old)
    if count:
        path.write_text(text.replace(old, new))
    return count


def klog_v2(volcano: Path) -> EditResult:
    plugin = volcano / PLUGIN_DIR
    files = sum(1 for path in sorted(plugin.rglob("*")) if path.is_file()
                and _replace_in(path, '"k8s.io/klog"', '"k8s.io/klog/v2"'))
    if not files:
        raise PatchError(f"{plugin}: no import of \"k8s.io/klog\"; this tag needs another recipe")
    return EditResult("klog v2", True, f"{files} file(s)")


def _predicate_v19(file: str) -> Callable[[Path], EditResult]:
    def edit(volcano: Path) -> EditResult:
        path = volcano / PLUGIN_DIR / file
        signature = _replace_in(path, "api.NodeInfo) error {", "api.NodeInfo) ([]*api.Status, error) {")
        returns = _replace_in(path, "return predicateErr", "return []*api.Status{}, predicateErr")
        if not signature or not returns:
            raise PatchError(f"{path}: the Volcano v1.9.0 predicate edit matched {signature} signature(s) and "
                             f"{returns} return(s); this tag needs another recipe")
        return EditResult(f"predicate result type ({file})", True, f"{signature} signature(s), {returns} return(s)")
    return edit


def pending_best_effort(volcano: Path) -> EditResult:
    path = volcano / PLUGIN_DIR / "npu.go"
    old = "ji.WaitingTaskNum()+ji.ReadyTaskNum() < job.MinAvailable"
    count = _replace_in(path, old, "ji.WaitingTaskNum()+ji.ReadyTaskNum()+ji.PendingBestEffortTaskNum() < "
                                   "job.MinAvailable")
    if not count:
        raise PatchError(f"{path}: no `{old}`; this tag needs another recipe")
    return EditResult("pending best-effort tasks", True, f"{count} place(s)")


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


#: the edits a release's build.sh makes to the plugin and the scheduler, by the names releases.py lists
EDITS: Dict[str, Callable[[Path], EditResult]] = {
    "klog-v2": klog_v2,
    "predicate-v1.9-huawei_npu.go": _predicate_v19("huawei_npu.go"),
    "predicate-v1.9-npu.go": _predicate_v19("npu.go"),
    "pending-best-effort": pending_best_effort,
    "single-node-scoring": single_node_scoring,
}


def prepare_scheduler_tree(mind_cluster: Path, volcano: Path, edits: Sequence[str]) -> List[EditResult]:
    """Copy the plugin in, make the release's edits in its build.sh's order, then ours; what each did."""
    copy_plugin(mind_cluster, volcano)
    return [EDITS[name](volcano) for name in edits] + [static_registration(volcano)]
