"""Project configuration: ``.ascend-compile.yaml``, committed at the repo root.

Found by walking up from the current directory to the repository root (the
first directory that holds ``.git``, a directory or a file as in worktrees and
submodules, or an ``.ascend-compile-root`` marker), never above the user's
home directory; with no repository root, only the current directory is
searched.  Or named with ``--config``.  It carries spec
defaults, extra profile directories and lint settings::

    defaults:                 # used where a spec leaves a field out
      imageRegistry: registry.example.com/ml
      namespace: team-a
      queue: training
      hostArch: huawei-arm
      scheduling: schedulePolicy
    profileDirs: [hw-profiles]   # relative to this file
    lint:
      disable: [AC305]
      severity: {AC303: error}
      failOn: warning
      baseline: .ascend-compile-baseline.json   # lint --baseline by default (relative to this file)
    cluster:                  # what the jobs are judged for (docs/releases.md)
      mindcluster: v7.3.2     # the MindCluster release the cluster runs (default: the newest supported)
      volcanoWebhook: false   # whether Volcano's admission webhook is installed
      deviceStack: hami       # mindcluster (default), hami, volcano-vnpu:hami or volcano-vnpu:mindcluster
      snapshot: cluster/snapshot.json   # lint/compile/apply --cluster-snapshot by default (relative to this file)
    podTemplates:             # kinds whose pod templates the pod rules check, besides the built-in ones
      - apiVersion: example.com/v1
        kind: TrainingRun
        paths: [spec.launcher.template, {template: "spec.workers[*].template", replicas: "spec.workers[*].count"}]

Precedence, lowest first: built-in defaults < the profile < ``defaults`` here
< the spec itself.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

from .errors import InputError
from .catalogue import CONFIG_INVALID
from .records import field, record
from .findings import ERROR, SEVERITIES, Finding
from .safeio.inside import repository_root

CONFIG_NAME = ".ascend-compile.yaml"

#: spec fields a project may default, and the types they take
DEFAULTABLE = {
    "imageRegistry": str, "namespace": str, "queue": str, "hostArch": str, "scheduling": str,
    "target": str, "ranktable": str, "faultScheduling": str, "imagePullPolicy": str,
    "retries": int, "hostNetwork": bool, "createNamespace": bool,
}


@record(frozen=True)
class LintSettings:
    disable: Tuple[str, ...] = ()
    severity: Mapping[str, str] = field(default_factory=dict)
    fail_on: Optional[str] = None
    #: lint.baseline: the baseline file lint reads unless told otherwise (absolute, from this file's folder)
    baseline: Optional[str] = None


@record(frozen=True)
class ClusterSettings:
    """``cluster:``: the target the jobs are judged for (:mod:`ascend_compile.releases`); None where not said."""

    mindcluster: Optional[str] = None
    volcano_webhook: Optional[bool] = None
    device_stack: Optional[str] = None
    #: cluster.snapshot: the snapshot lint, compile and apply check against unless told otherwise (absolute)
    snapshot: Optional[str] = None


@record(frozen=True)
class ProjectConfig:
    path: Optional[str] = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    profile_dirs: Tuple[str, ...] = ()
    lint: LintSettings = field(default_factory=LintSettings)
    cluster: ClusterSettings = field(default_factory=ClusterSettings)
    #: podTemplates: kinds whose pod templates the pod rules check, besides the built-in ones (podtemplates.py)
    pod_templates: Tuple[Any, ...] = ()


@record(frozen=True)
class Search:
    """Where config discovery looked: the config found (or None), and the directories searched, nearest first."""

    path: Optional[str]
    searched: Tuple[str, ...]
    root: Optional[str]


def search_config(start: Optional[str] = None, home: Optional[str] = None) -> Search:
    """Find ``.ascend-compile.yaml``: from ``start`` up to the repository root, never above it.

    Without a repository root (no ``.git`` file or directory, no ``.ascend-compile-root``, below the
    home directory) only ``start`` itself is searched: a config in ``/tmp`` or a parent folder
    someone else controls must not set the registry or the namespace of a job.
    """
    directory = os.path.abspath(start or os.getcwd())
    root = repository_root(directory, home)
    searched: List[str] = []
    while True:
        searched.append(directory)
        candidate = os.path.join(directory, CONFIG_NAME)
        if os.path.isfile(candidate):
            return Search(candidate, tuple(searched), root)
        if root is None or directory == root:
            return Search(None, tuple(searched), root)
        directory = os.path.dirname(directory)


def find_config(start: Optional[str] = None) -> Optional[str]:
    """The project config that applies in ``start`` (default: the working directory), if any."""
    return search_config(start).path


def _bad(path: str, message: str, hint: str, line: int = 0, column: int = 0) -> InputError:
    return InputError([_problem(path, message, hint, line, column)])


def _problem(path: str, message: str, hint: str, line: int = 0, column: int = 0) -> Finding:
    return Finding(CONFIG_INVALID, ERROR, message, hint=hint, file=path, line=line, column=column, input_error=True)


def load_config(path: Optional[str] = None, discover: bool = True) -> ProjectConfig:
    """Load the named config, or the discovered one, or return empty defaults.

    Every check runs here, so the command line and the Python API refuse the same configs (exit code 2,
    :class:`~ascend_compile.errors.InputError` located at the offending key).
    """
    if path is None and discover:
        path = find_config()
    if path is None:
        return ProjectConfig()
    from .yamlio.parsing import load_file

    docs = load_file(path)  # a committed link to /dev/zero or /dev/stdin is refused
    if not docs:
        return ProjectConfig(path=path)
    doc = docs[0]
    data = doc.data
    if not isinstance(data, dict):
        raise _bad(path, "the project config must be a mapping", "see the README for its keys", 1, 1)

    def where(*p: Any, key: bool = True) -> Tuple[int, int]:
        loc = doc.locate(p, key=key)
        return loc.line, loc.column

    for key in data:
        if key not in _TOP_KEYS:
            raise _bad(path, f"unknown key {key!r} in the project config",
                       f"known keys: {', '.join(sorted(_TOP_KEYS))}", *where(key))
    config = ProjectConfig(path=path, defaults=_defaults(data, path, where),
                           profile_dirs=_profile_dirs(data, path, where), lint=_lint_settings(data, path, where),
                           cluster=_cluster_settings(data, path, where), pod_templates=_pod_templates(data, path, where))
    problems = [_problem(path, message, hint, *where(*at, key=at[1] == "severity"))
                for at, message, hint in _unknown_rules(config.lint)]
    if problems:
        raise InputError(problems)
    return config


_TOP_KEYS = ("defaults", "profileDirs", "lint", "cluster", "podTemplates")
_CLUSTER_KEYS = ("mindcluster", "volcanoWebhook", "deviceStack", "snapshot")
_LINT_KEYS = ("disable", "severity", "failOn", "baseline")
_Where = Callable[..., Tuple[int, int]]


def _defaults(data: Dict[str, Any], path: str, where: _Where) -> Dict[str, Any]:
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise _bad(path, "defaults must be a mapping", "e.g. defaults: {namespace: team-a}", *where("defaults"))
    for key, value in defaults.items():
        expected = DEFAULTABLE.get(key)
        if expected is None:
            raise _bad(path, f"unknown default {key!r}", f"defaults may set: {', '.join(sorted(DEFAULTABLE))}",
                       *where("defaults", key))
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise _bad(path, f"defaults.{key} must be a {expected.__name__}", "fix its type",
                       *where("defaults", key))
    return dict(defaults)


def _profile_dirs(data: Dict[str, Any], path: str, where: _Where) -> Tuple[str, ...]:
    dirs = data.get("profileDirs") or []
    if not isinstance(dirs, list) or not all(isinstance(d, str) for d in dirs):
        raise _bad(path, "profileDirs must be a list of directory paths", "e.g. profileDirs: [hw-profiles]",
                   *where("profileDirs"))
    base = os.path.dirname(os.path.abspath(path))
    return tuple(os.path.normpath(os.path.join(base, d)) for d in dirs)


def _lint_settings(data: Dict[str, Any], path: str, where: _Where) -> LintSettings:
    lint = data.get("lint") or {}
    if not isinstance(lint, dict):
        raise _bad(path, "lint must be a mapping", "keys: disable, severity, failOn, baseline", *where("lint"))
    for key in lint:
        if key not in _LINT_KEYS:
            raise _bad(path, f"unknown key {key!r} under lint", "keys: disable, severity, failOn, baseline",
                       *where("lint", key))
    disable = lint.get("disable") or []
    if not isinstance(disable, list) or not all(isinstance(d, str) for d in disable):
        raise _bad(path, "lint.disable must be a list of rule IDs", "e.g. disable: [AC303]", *where("lint", "disable"))
    severity = lint.get("severity") or {}
    if not isinstance(severity, dict) or not all(v in SEVERITIES for v in severity.values()):
        raise _bad(path, "lint.severity maps rule IDs to error, warning or info", "e.g. severity: {AC303: error}",
                   *where("lint", "severity"))
    fail_on = lint.get("failOn")
    if fail_on is not None and fail_on not in SEVERITIES:
        raise _bad(path, "lint.failOn must be error, warning or info", "e.g. failOn: warning", *where("lint", "failOn"))
    baseline = lint.get("baseline")
    if baseline is not None and (not isinstance(baseline, str) or not baseline):
        raise _bad(path, "lint.baseline must be a file path", "e.g. baseline: .ascend-compile-baseline.json",
                   *where("lint", "baseline"))
    if baseline:
        baseline = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), baseline))
    return LintSettings(tuple(disable), dict(severity), fail_on, baseline)


def _cluster_settings(data: Dict[str, Any], path: str, where: _Where) -> ClusterSettings:
    from .releases import DEVICE_STACKS, RELEASES, release_of, stack_of

    cluster = data.get("cluster") or {}
    keys = ", ".join(_CLUSTER_KEYS)
    if not isinstance(cluster, dict):
        raise _bad(path, "cluster must be a mapping", f"keys: {keys}", *where("cluster"))
    for key in cluster:
        if key not in _CLUSTER_KEYS:
            raise _bad(path, f"unknown key {key!r} under cluster", f"keys: {keys}", *where("cluster", key))
    release = cluster.get("mindcluster")
    if release is not None and (not isinstance(release, str) or release_of(release) is None):
        raise _bad(path, f"cluster.mindcluster {release!r} is not a supported MindCluster release",
                   f"one of {', '.join(RELEASES)} (quoted: a YAML number such as 7.3 is not a version)",
                   *where("cluster", "mindcluster", key=False))
    webhook = cluster.get("volcanoWebhook")
    if webhook is not None and not isinstance(webhook, bool):
        raise _bad(path, "cluster.volcanoWebhook must be true or false",
                   "true when Volcano's admission webhook is installed (Volcano's own install), false otherwise "
                   "(MindCluster's install)", *where("cluster", "volcanoWebhook", key=False))
    stack = cluster.get("deviceStack")
    if stack is not None and (not isinstance(stack, str) or stack_of(stack) is None):
        raise _bad(path, f"cluster.deviceStack {stack!r} is not a device stack ascend-compile knows",
                   f"one of {', '.join(DEVICE_STACKS)}", *where("cluster", "deviceStack", key=False))
    return ClusterSettings(release, webhook, stack_of(stack), _relative_file(cluster, path, where))


def _relative_file(cluster: Dict[str, Any], path: str, where: _Where) -> Optional[str]:
    """``cluster.snapshot``: a file path, relative to the config file's folder (made absolute); None if not given."""
    snapshot = cluster.get("snapshot")
    if snapshot is None:
        return None
    if not isinstance(snapshot, str) or not snapshot:
        raise _bad(path, "cluster.snapshot must be a file path", "e.g. snapshot: cluster/snapshot.json (written by "
                   "'ascend-compile cluster snapshot', relative to this file)", *where("cluster", "snapshot", key=False))
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), snapshot))


def _pod_templates(data: Dict[str, Any], path: str, where: _Where) -> Tuple[Any, ...]:
    from .podtemplates import from_config

    kinds, problems = from_config(data.get("podTemplates"))
    if problems:
        raise InputError([_problem(path, message, hint, *where("podTemplates", *at, key=key))
                          for at, message, hint, key in problems])
    return kinds


def target_of(config: ProjectConfig, flag: Optional[str] = None, webhook_flag: Optional[bool] = None,
              cluster_versions: Optional[Mapping[str, str]] = None, cluster_source: str = "",
              stack_flag: Optional[str] = None, cluster_resources: Iterable[str] = (),
              cluster_device_share: Iterable[str] = ()) -> Any:
    """The :class:`~ascend_compile.releases.Target` a run with this config judges for: ``--mindcluster`` (``flag``)
    over ``cluster.mindcluster`` over the versions a cluster inventory records over the default; likewise
    ``--[no-]volcano-webhook`` over ``cluster.volcanoWebhook``, and ``--device-stack`` (``stack_flag``, checked by its
    reader) over ``cluster.deviceStack`` over the one Ascend mode the cluster's Volcano deviceshare plugin turns on
    (``cluster_device_share``: ``hami`` or ``mindcluster``) over the NPU resources the cluster's nodes offer
    (``cluster_resources``: HAMi's device plugin names them by chip model)."""
    from .releases import HAMI_STACK, choose, stack_of
    from .vocabulary import HAMI_ONLY_RESOURCES

    webhook = webhook_flag if webhook_flag is not None else config.cluster.volcano_webhook
    target = choose(flag, config.cluster.mindcluster, config.path, cluster_versions, cluster_source, webhook)
    if stack_flag:
        return target.with_stack(stack_of(stack_flag), f"--device-stack {stack_flag}")
    if config.cluster.device_stack:
        return target.with_stack(config.cluster.device_stack,
                                 f"cluster.deviceStack in {config.path or 'the project config'}")
    modes = sorted(set(cluster_device_share))
    if len(modes) == 1:
        return target.with_stack(stack_of(f"volcano-vnpu:{modes[0]}"), f"the Volcano scheduler configuration of "
                                 f"{cluster_source or 'the cluster'} turns on deviceshare's {modes[0]} mode")
    hami = sorted(set(cluster_resources) & set(HAMI_ONLY_RESOURCES))
    return target.with_stack(HAMI_STACK if hami else None, f"the nodes of {cluster_source or 'the cluster'} offer "
                             f"{hami[0] if hami else ''} (HAMi's Ascend device plugin names NPUs by chip model)")


def _unknown_rules(lint: LintSettings) -> List[Tuple[Tuple[Any, ...], str, str]]:
    """(path in the config, message, hint) for each rule the lint section names that does not exist, or that no
    setting changes (an input error: see ``catalogue.cannot_disable``).

    Such a setting would silently do nothing, so it is refused.
    """
    from .catalogue import resolve

    hint = "see 'ascend-compile rules' for the IDs"
    out: List[Tuple[Tuple[Any, ...], str, str]] = []
    for key, rules in (("disable", lint.disable), ("severity", list(lint.severity))):
        for index, rule in enumerate(rules):
            at = ("lint", key, rule if key == "severity" else index)
            if resolve(rule) is None:
                out.append((at, f"lint.{key} names an unknown rule {rule!r}", hint))
            elif cannot_disable(rule):
                done = "disabled" if key == "disable" else "given another severity"
                out.append((at, f"lint.{key}: {cannot_disable(rule, done)}", f"remove {rule} from lint.{key}"))
    return out


def cannot_disable(rule_id: str, done: str = "disabled") -> str:
    """``AC001 (unreadable-input) cannot be disabled (an input error: ...)``; "" when it can be, or is unknown."""
    from .catalogue import get

    found = get(rule_id)
    why = found.why_not_suppressible if found else ""
    return f"{found.id} ({found.name}) cannot be {done} ({why})" if found and why else ""


def check_lint_settings(config: ProjectConfig) -> None:
    """Refuse lint settings that name unknown rules (a config made in Python, not loaded from a file)."""
    problems = [_problem(config.path or "", message, hint) for _at, message, hint in _unknown_rules(config.lint)]
    if problems:
        raise InputError(problems)
