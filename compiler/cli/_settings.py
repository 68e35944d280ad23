"""Each command's options as one typed record, made once from the parameters click (or the fast path) read.

A command's body reads its options as attributes of its record (``options.judging.fail_on``), never by a string
key.  The groups several commands share are records of their own: :class:`Inputs` (the config, the profiles,
the size limit, the report format), :class:`Judging` (what the jobs are judged against: the fail-on level, the
cluster, the release), :class:`KubectlFlags` (how kubectl is run) and :class:`Checks` (what ``lint`` and
``validate`` read and check).  :func:`options_for` makes a command's record
from click's parameters; ``tests/cli/test_command_options.py`` checks that each record has every option the
option table (:mod:`._optiontable`) gives its command.  No click here: the fast path uses these too.
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple, Type, TypeVar

from ..records import record
from ..yamlio.common import DEFAULT_MAX_BYTES

R = TypeVar("R")


@record(frozen=True)
class Inputs:
    """Where the config and profiles come from, the size limit and the report format (``--config``, ...)."""

    config_path: Optional[str] = None
    no_config: bool = False
    profile_dirs: Tuple[str, ...] = ()
    max_bytes: int = DEFAULT_MAX_BYTES
    fmt: str = "text"
    color: str = "auto"
    verbose: bool = False
    show_config: bool = False


@record(frozen=True)
class Judging:
    """What the jobs are judged against: ``--fail-on``, ``--cluster-snapshot``/``--cluster``, ``--mindcluster``,
    ``--[no-]volcano-webhook``, ``--device-stack``."""

    fail_on: Optional[str] = None
    cluster_snapshot: Optional[str] = None
    cluster: bool = False
    mindcluster: Optional[str] = None
    volcano_webhook: Optional[bool] = None
    device_stack: Optional[str] = None


@record(frozen=True)
class KubectlFlags:
    """How kubectl runs: ``--kubectl``, ``--kubeconfig``, ``--context``, ``-n``, and its time limits."""

    kubectl_path: Optional[str] = None
    kubeconfig: Optional[str] = None
    context: Optional[str] = None
    namespace: Optional[str] = None
    request_timeout: Optional[str] = None
    kubectl_timeout: Optional[str] = "5m"


@record(frozen=True)
class Checks:
    """Which files are read and what is checked in them (``lint`` and ``validate``): ``--disable``, ``--[no-]strict``,
    ``--strict-kinds``, ``--volcano-version``, ``--include``, ``--exclude``, and ``-q``."""

    disable: Tuple[str, ...] = ()
    strict: bool = True
    strict_kinds: bool = False
    volcano_version: Optional[str] = None
    include: Tuple[str, ...] = ()
    exclude: Tuple[str, ...] = ()
    quiet: bool = False


@record(frozen=True)
class LintOptions:
    inputs: Inputs = Inputs()
    judging: Judging = Judging()
    kubectl: KubectlFlags = KubectlFlags()
    checks: Checks = Checks()
    no_cache: bool = False
    cache: bool = False
    write_baseline: Optional[str] = None
    baseline: Optional[str] = None
    fix: bool = False
    show_diff: bool = False


@record(frozen=True)
class ValidateOptions:
    inputs: Inputs = Inputs()
    judging: Judging = Judging()
    checks: Checks = Checks()
    fmt_alias: Optional[str] = None


@record(frozen=True)
class CompileOptions:
    inputs: Inputs = Inputs()
    judging: Judging = Judging()
    kubectl: KubectlFlags = KubectlFlags()
    output_dir: Optional[str] = None
    check: bool = False
    overrides: Tuple[str, ...] = ()
    no_lint: bool = False


@record(frozen=True)
class KrmOptions:
    inputs: Inputs = Inputs()
    judging: Judging = Judging()
    input_path: str = "-"
    lint: Optional[bool] = None
    quiet: bool = False


@record(frozen=True)
class ImportOptions:
    inputs: Inputs = Inputs()
    profile: Optional[str] = None
    output_dir: Optional[str] = None
    force: bool = False
    exact: bool = False


@record(frozen=True)
class ApplyOptions:
    inputs: Inputs = Inputs()
    judging: Judging = Judging()
    kubectl: KubectlFlags = KubectlFlags()
    dry_run: str = "none"
    force_conflicts: bool = False


@record(frozen=True)
class DiffOptions:
    inputs: Inputs = Inputs()
    judging: Judging = Judging()  # diff takes none of these flags: the config's settings
    kubectl: KubectlFlags = KubectlFlags()


@record(frozen=True)
class DeleteOptions:
    inputs: Inputs = Inputs()
    kubectl: KubectlFlags = KubectlFlags()
    kind: str = "auto"
    wait: bool = False
    timeout: Optional[str] = None
    ignore_not_found: bool = False
    dry_run: str = "none"


@record(frozen=True)
class StatusOptions:
    inputs: Inputs = Inputs()
    kubectl: KubectlFlags = KubectlFlags()
    kind: str = "auto"
    watch: bool = False
    timeout: str = "1h"
    interval: str = "2s"
    output: Optional[str] = None


@record(frozen=True)
class WhyOptions:
    inputs: Inputs = Inputs()
    kubectl: KubectlFlags = KubectlFlags()
    kind: str = "auto"
    log_lines: int = 10
    no_lint: bool = False
    output: str = "text"


#: the records of the option groups, by the field name a command's record gives each
GROUPS: Dict[str, Type[Any]] = {"inputs": Inputs, "judging": Judging, "kubectl": KubectlFlags, "checks": Checks}
#: each command's record
COMMAND_OPTIONS: Dict[str, Type[Any]] = {
    "lint": LintOptions, "validate": ValidateOptions, "compile": CompileOptions, "krm": KrmOptions,
    "import": ImportOptions, "apply": ApplyOptions, "diff": DiffOptions, "delete": DeleteOptions,
    "status": StatusOptions, "why": WhyOptions}


def fields_of(cls: Type[Any]) -> Tuple[str, ...]:
    """The field names of an options record, in order."""
    names: Tuple[str, ...] = cls.__match_args__
    return names


def options_for(cls: Type[R], params: Mapping[str, Any]) -> R:
    """``cls`` (a command's record, or a group's) made from the parameters click or the fast path read; a parameter
    the command does not take keeps its record's default (a group of options it does not take: all defaults).
    click gives a repeatable option as a tuple, a list from Python is taken as one."""
    values: Dict[str, Any] = {}
    for name in fields_of(cls):
        group = GROUPS.get(name)
        if group is not None:
            values[name] = options_for(group, params)
        elif name in params and params[name] is not None:
            value = params[name]
            values[name] = tuple(value) if isinstance(value, list) else value
    return cls(**values)
