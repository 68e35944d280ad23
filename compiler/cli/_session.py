"""The session of one command (:class:`~ascend_compile.lint.session.Session`), made from its options, and reporting:
no click here.

Every command that reads specs or manifests makes its session here, once, with :func:`open_for`: the project config
and profiles (``--config``, ``--no-config``, ``--profile-dir``), the cluster (``--cluster-snapshot`` or the live one,
``--cluster``), the release judged for (``--mindcluster``, ``--[no-]volcano-webhook``, the config's ``cluster``,
the cluster's versions) and the fail-on level (``--fail-on``, the config's ``lint.failOn``), then hands it to what
it runs.  The click commands and the fast path (:mod:`._fast`) both use these, so the fast path never loads click.
"""
from __future__ import annotations

import sys
from typing import Any, Iterable, List, Optional, TextIO, Tuple

from ..findings import Finding
from ..lint.session import Session
from ._settings import Inputs, Judging, KubectlFlags

#: the report formats that are one document: a command writes one on stdout, whatever else it says on stderr
DOCUMENT_FORMATS = ("json", "sarif")
_NO_JUDGING = Judging()
_NO_KUBECTL = KubectlFlags()


class Usage(Exception):
    """A usage problem, worded for click's usage error (the fast path hands such a command line to click)."""


class BadParameter(Usage):
    """One parameter's value is wrong (a ``--set``): ``hint`` names it as click's message would."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def open_for(inputs: Inputs, judging: Judging = _NO_JUDGING, kubectl: KubectlFlags = _NO_KUBECTL, *,
             cache: Optional[bool] = None, output_lint: bool = True, config_snapshot: bool = False) -> Session:
    """The command's session.  ``--cluster`` with ``--cluster-snapshot``, or an unsupported ``--mindcluster``, is a
    :class:`Usage` error, before anything is read; a config or profile directory that cannot be used is reported
    and exits 2; a snapshot that cannot be read (AC016) is raised (an InputError) for the command to report.
    ``config_snapshot``: the command takes ``--cluster-snapshot``, and the config's ``cluster.snapshot`` stands in
    for it (:func:`with_config_snapshot`)."""
    from ..lint.session import open_session

    if judging.cluster_snapshot and judging.cluster:
        raise Usage("--cluster and --cluster-snapshot: give one (the live cluster, or a snapshot of it)")
    _check_release(judging)
    config, registry = load_profiles(inputs)
    if config_snapshot:
        judging = with_config_snapshot(judging, config)
    inventory = cluster_inventory(judging, kubectl, inputs.fmt)
    return open_session(config, registry, fail_on=judging.fail_on, inventory=inventory,
                        target=run_target(judging, config, inventory), cache=cache, output_lint=output_lint,
                        max_bytes=inputs.max_bytes)


def load_profiles(inputs: Inputs) -> Tuple[Any, Any]:
    """The project config and the profile registry the inputs name; input errors are reported and exit with 2."""
    from ..config import ProjectConfig, load_config
    from ..errors import AscendCompileError
    from ..hardware.profiles import ProfileRegistry

    try:
        config = ProjectConfig() if inputs.no_config else load_config(inputs.config_path)
        registry = ProfileRegistry([*config.profile_dirs, *inputs.profile_dirs])
        if inputs.verbose:
            for line in describe(config, inputs):
                sys.stderr.write(f"ascend-compile: {line}\n")
        registry.check()  # a bad profile directory is one error now, not one per use later
    except AscendCompileError as exc:
        report_and_exit(exc.findings, inputs.fmt, stream=sys.stderr, color=color_of(inputs))
        raise  # unreachable
    return config, registry


def _check_release(judging: Judging) -> None:
    from ..releases import DEVICE_STACKS, RELEASES, release_of, stack_of

    flag, stack = judging.mindcluster, judging.device_stack
    if flag is not None and release_of(flag) is None:
        raise Usage(f"--mindcluster: {flag!r} is not a supported MindCluster release (one of {', '.join(RELEASES)})")
    if stack is not None and stack_of(stack) is None:
        raise Usage(f"--device-stack: {stack!r} is not a device stack ascend-compile knows (one of "
                    f"{', '.join(DEVICE_STACKS)})")


def with_config_snapshot(judging: Judging, config: Any) -> Judging:
    """The project config's ``cluster.snapshot`` as ``--cluster-snapshot`` where neither that flag nor ``--cluster``
    is given (a flag wins)."""
    if judging.cluster_snapshot or judging.cluster or not config.cluster.snapshot:
        return judging
    from dataclasses import replace  # here: a lint of one file imports no dataclasses (compiler/records.py)

    return replace(judging, cluster_snapshot=config.cluster.snapshot)


def cluster_inventory(judging: Judging, kubectl: KubectlFlags = _NO_KUBECTL, fmt: str = "text") -> Any:
    """The cluster the cluster-aware rules check against: ``--cluster-snapshot FILE`` (read and checked against its
    schema: AC016, an InputError) or, for ``--cluster``, the live cluster read through kubectl
    (:func:`ascend_compile.cli._cluster.read_live_inventory`; with ``--format json`` a cluster that cannot be read
    is a JSON error object on stdout); None without either (those rules then say nothing)."""
    if judging.cluster_snapshot:
        from ..inventory.snapshot import load

        return load(judging.cluster_snapshot)
    if judging.cluster:
        from ._cluster import read_live_inventory

        return read_live_inventory(kubectl, fmt == "json")
    return None


def run_target(judging: Judging, config: Any, inventory: Any = None) -> Any:
    """The :class:`~ascend_compile.releases.Target` a session with these options judges for (``--show-config``
    says it without making the session)."""
    from ..config import target_of

    _check_release(judging)
    snapshot = judging.cluster_snapshot
    source = "the live cluster (--cluster)" if not snapshot else \
        f"cluster.snapshot {snapshot} (in {config.path})" if snapshot == config.cluster.snapshot else \
        f"--cluster-snapshot {snapshot}"
    return target_of(config, judging.mindcluster, judging.volcano_webhook, getattr(inventory, "versions", None),
                     source, judging.device_stack, inventory.offered() if inventory is not None else (),
                     getattr(inventory, "device_share", None) or ())


def describe(config: Any, inputs: Inputs) -> List[str]:
    """Which project config is used and why, and the profile directories in the order they apply."""
    from ..config import search_config
    from ..resources import profiles_dir
    from ..safeio.text import printable

    if inputs.no_config:
        where = "no project config (--no-config)"
    elif inputs.config_path:
        where = f"project config {config.path} (--config)"
    else:
        found = search_config()
        stop = f"the repository root {found.root}" if found.root else "this directory (no repository root found)"
        where = (f"project config {found.path}" if found.path else "no project config") + \
            f" (searched from {found.searched[0]} up to {stop})"
    dirs = [f"{profiles_dir()} (built-in)", *(f"{d} (profileDirs)" for d in config.profile_dirs),
            *(f"{d} (--profile-dir)" for d in inputs.profile_dirs)]
    return [printable(where), "profile directories: " + printable(", ".join(dirs))]


def color_of(inputs: Inputs) -> Optional[bool]:
    """``--color`` as the text reporter takes it: None (auto: the terminal and the environment decide), True, False."""
    return {"always": True, "never": False}.get(inputs.color)


def report(findings: Iterable[Finding], fmt: str, stream: Optional[TextIO] = None,
           files_checked: Optional[int] = None, color: Optional[bool] = None) -> None:
    from ..report import catalogue_rules, render

    rules = catalogue_rules() if fmt == "sarif" else None
    render(sorted(findings, key=Finding.sort_key), fmt, rules=rules, stream=stream or sys.stdout,
           files_checked=files_checked, color=color)


def report_and_exit(findings: Iterable[Finding], fmt: str, stream: Optional[TextIO] = None,
                    files_checked: Optional[int] = None, color: Optional[bool] = None) -> None:
    """Report the findings that end the command and exit (1, or 2 for an input error).  ``stream`` is for the text
    formats (stderr where stdout holds the command's output); a document format (json, sarif) always goes to stdout:
    the command writes nothing else there now, and a program reading stdout gets its one document."""
    from ..findings import exit_code

    findings = list(findings)
    report(findings, fmt, sys.stdout if fmt in DOCUMENT_FORMATS else stream, files_checked, color)
    sys.exit(exit_code(findings) or 1)


def nothing_found(command: str, what: str, left_out: Iterable[Finding]) -> int:
    """Say on stderr that the paths held no ``what``, and name what discovery left out on purpose (a Helm chart,
    kustomize's files: their notes' text); the exit code of an input error."""
    from ..findings import EXIT_INPUT
    from ..safeio.text import printable

    notes = [f"  {printable(note.file)}: {printable(note.message)} [{note.rule}]\n" for note in left_out]
    said = "; left out on purpose:" if notes else ""
    sys.stderr.write(f"ascend-compile {command}: no {what} in the given paths{said}\n" + "".join(notes))
    return EXIT_INPUT
