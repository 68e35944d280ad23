"""``ascend-compile lint``: schema checks plus the operator's and scheduler's rules, in one run.

:func:`run` is the command's body (no click: the fast path, :mod:`._fast`, runs it for a plain command line);
``lint_command``, the click command, is made when the command group asks for it.  Job specs among the files are
checked as ``compile`` checks them, in the same session: against the same cluster, at the same fail-on level.
"""
from __future__ import annotations

import sys
from typing import Any, List, Optional, Sequence, Union

from ..errors import AscendCompileError
from ..lint.session import Session
from ._session import Usage, color_of
from ._settings import LintOptions

EPILOG = """\b
Examples:
  ascend-compile lint manifests/
  ascend-compile lint train.yaml rings-config.yaml --fail-on warning
  ascend-compile lint manifests/ --format sarif > lint.sarif
  ascend-compile lint k8s/ --exclude 'charts/**' --disable AC305
  kustomize build overlays/prod | ascend-compile lint -
  ascend-compile lint k8s/ --write-baseline .ascend-compile-baseline.json   # accept today's findings
  ascend-compile lint k8s/ --baseline .ascend-compile-baseline.json         # CI: fail on new ones only
  ascend-compile lint k8s/ --diff      # what --fix would change (e.g. env values quoted as strings)
  ascend-compile lint k8s/ --cluster-snapshot cluster.yaml   # and against the cluster (cluster snapshot)
  ascend-compile lint manifests/ --cache   # in CI (CI=true) too: keep that cache per branch (docs/ci.md)

\b
Suppress a finding on one line (or on the next line, from a comment line):
  accelerator-type: module   # ascend-compile: disable=AC305 old Atlas 800 pool
For the whole file:   # ascend-compile: disable-file=AC303
For one object (reason required):
  metadata.annotations: {ascend-compile.io/ignore: "AC303: benchmark uses 4 NPUs"}

\b
Exit codes: 0 clean, 1 findings at or above --fail-on, 2 unreadable input or usage error.
List the rules with 'ascend-compile rules'; explain one with 'ascend-compile explain AC301'."""


def __getattr__(name: str) -> Any:
    """``lint_command``: the click command, made on first use (importing this module loads no click)."""
    if name != "lint_command":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ._options import click_command

    command = globals()[name] = click_command(
        "lint", run, "paths", "PATH...", EPILOG,
        """Lint Kubernetes manifests: AscendJob, Volcano Job, their ranktable ConfigMaps, and more.

    PATH is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    All files are checked together, so a Volcano Job and its rings-config
    ConfigMap in different files are matched. Schema checks (AC1xx) run as
    part of lint.
    """)
    return command


def run(paths: Sequence[str], options: LintOptions) -> int:
    """Run ``lint``; return the exit code.  ``--no-cache`` switches every cache off (the results' and the start-up
    cache of profiles and schemas), ``--cache`` on, also in CI, where they are off by default
    (:func:`ascend_compile.datacache.bypassed`); for this run only, so that nothing run later in the same process
    (the Python API, tests) inherits it."""
    from ..datacache import set_choice

    if options.cache and options.no_cache:
        raise Usage("--cache and --no-cache: give one (--cache uses the caches in CI too, --no-cache none anywhere)")
    choice = True if options.cache else False if options.no_cache else None
    set_choice(choice)
    try:
        return _lint(paths, options, choice)
    finally:
        set_choice(None)


def _lint(paths: Sequence[str], options: LintOptions, cache: Optional[bool]) -> int:
    from . import _session
    from ._checking import disabled_rules, nothing_read, refused, volcano

    disabled = disabled_rules(options.checks.disable)
    volcano_version = volcano(options.checks.volcano_version)
    try:
        session = _session.open_for(options.inputs, options.judging, options.kubectl, cache=cache, config_snapshot=True)
        _fix_roots(paths, options)
    except AscendCompileError as exc:  # a snapshot that cannot be read (AC016), a path --fix must not go through
        return refused(exc)
    if volcano_version is None and session.inventory is not None:
        volcano_version = session.inventory.bundled_volcano()
    left_out: List[Any] = []

    def again() -> Any:
        from ..datacache import bypassed, default_root
        from ..lint.paths import lint_paths

        del left_out[:]
        checks = options.checks
        return lint_paths(list(paths), session.registry, session.config, include=checks.include,
                          exclude=checks.exclude, max_bytes=session.max_bytes, strict=checks.strict,
                          strict_kinds=checks.strict_kinds, volcano_version=volcano_version, disable=disabled,
                          left_out=left_out, cache_dir=None if bypassed() else default_root(),
                          specs=spec_check(session), inventory=session.inventory, target=session.target)

    findings, files = again()
    if files == 0 and not findings and not left_out:  # nothing read: an input error, no "No problems found"
        return nothing_read("lint", files, 0, left_out)
    if options.fix or options.show_diff:
        from . import _fixing

        if options.show_diff:
            return _fixing.diff(_fixing.fixes(findings), fix_given=options.fix)
        try:
            fixed = _fixing.fix(findings, again, paths)
        except AscendCompileError as exc:  # a file it must not write (a link, outside the paths, changed since)
            return refused(exc)
        if fixed is not None:
            findings, files = fixed  # what is left
    return _report(paths, options, session, findings, files, left_out)


def spec_check(session: Session) -> Any:
    """lint's check of job specs: compile each in the session (:func:`ascend_compile.compiling.pipeline.check_specs`),
    report what compile would report, write nothing.  The compiler is loaded only for a file that may hold a spec."""

    def check(docs: Sequence[Any]) -> Any:
        # a quick look first, so that linting manifests does not load the compiler; check_specs decides
        if not any(doc is not None and isinstance(doc.data, dict) and doc.data.get("kind") == "TrainingJob"
                   for doc in docs):
            return {}
        from ..compiling.pipeline import check_specs

        return check_specs(docs, session)

    return check


def _report(paths: Sequence[str], options: LintOptions, session: Session, findings: List[Any], files: int,
            left_out: Sequence[Any]) -> int:
    """lint's findings reported (against the baseline, if any, or written to it); the exit code."""
    from ..findings import exit_code
    from ..report import catalogue_rules, render
    from ._checking import nothing_read

    fmt = options.inputs.fmt
    # Only SARIF lists every rule; the other formats describe the rules of the findings (from the catalogue).
    rules = catalogue_rules() if fmt == "sarif" else None
    baseline = options.baseline or (None if options.write_baseline else _configured_baseline(session.config))
    if baseline or options.write_baseline:
        against = _against_baseline(paths, options, baseline, findings, rules, files)
        if isinstance(against, int):  # written, or refused
            return against
        findings = against
    elif fmt == "sarif" and _fixable(findings):  # SARIF says how to fix what can be fixed
        from . import _fixing

        _fixing.sarif(findings, rules, _fixing.fixes(findings))
    else:
        render(findings, fmt, rules=rules, stream=sys.stdout, files_checked=files, quiet=options.checks.quiet,
               color=color_of(options.inputs))
    return nothing_read("lint", files, exit_code(findings, session.fail_on), left_out)


def _fix_roots(paths: Sequence[str], options: LintOptions) -> None:
    """``--fix``/``--diff``: the paths given, refused (AC013) before the lint reads anything when one reaches through
    a link out of the repository."""
    if options.fix or options.show_diff:
        from ._fixing import check_roots

        check_roots(paths)


def _configured_baseline(config: Any) -> Optional[str]:
    """lint.baseline in the config (--baseline by default), if it exists; one that does not exist yet (a first run,
    a fresh clone) is said on stderr with the way to write it, and every finding is reported."""
    import os

    configured = config.lint.baseline
    if not configured or os.path.lexists(configured):
        return configured or None
    from ..safeio.text import printable

    sys.stderr.write(f"ascend-compile lint: note: lint.baseline in {printable(str(config.path))} names "
                     f"{printable(configured)}, which does not exist yet, so every finding is reported; record "
                     f"today's with: ascend-compile lint PATH... --write-baseline {printable(configured)}\n")
    return None


def _fixable(findings: Any) -> bool:
    from ..lint.fixing import fixer

    return any(fixer(f.rule) is not None for f in findings)


def _linted(paths: Sequence[str], options: LintOptions, findings: Any) -> Any:
    """The files this run linted, spelled as the baseline spells them (its entries of other files are kept)."""
    from ..files.discovery import discover
    from ..lint.baseline import linted_files
    from ..yamlio.reading import display_name

    found = discover(paths, include=options.checks.include, exclude=options.checks.exclude)
    return linted_files([display_name(path) for path in found.paths] + [f.file for f in findings])


def _against_baseline(paths: Sequence[str], options: LintOptions, baseline: Optional[str], findings: Any,
                      rules: Any, files: int) -> Union[int, List[Any]]:
    """``--write-baseline`` or a refused baseline: the exit code; ``baseline`` (``--baseline``, else the config's
    lint.baseline): the new findings, reported."""
    from . import _baseline
    from ._checking import refused

    linted = _linted(paths, options, findings)
    if baseline and options.write_baseline:
        raise Usage("give --baseline FILE (report new findings) or --write-baseline FILE (record them), not both")
    max_bytes = options.inputs.max_bytes or 0
    try:
        if options.write_baseline:
            return _baseline.write(options.write_baseline, findings, files, linted, max_bytes)
        return _baseline.report(str(baseline), findings, options.inputs.fmt, rules, files, options.checks.quiet,
                                max_bytes, linted)
    except _baseline.BaselineUsage as exc:
        sys.stderr.write(f"ascend-compile lint: error: {exc}\n")
        return 2
    except AscendCompileError as exc:  # the baseline cannot be written (AC013) or read
        return refused(exc)
