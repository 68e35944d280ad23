"""What ``lint`` and ``validate`` do once their command line is read: no click here.

The click commands (:mod:`.lint`, :mod:`.validate`) and the fast path (:mod:`._fast`) both call these,
so a plain ``ascend-compile lint FILE`` does exactly what it did through click, without loading it.
A usage problem raises :class:`Usage` before anything is read or printed: click reports it (the fast
path hands such a command line to click).
"""
from __future__ import annotations

import sys
from typing import Any, List, Mapping, Optional, Sequence, Union

from ..errors import AscendCompileError


class Usage(Exception):
    """A usage problem, worded for click's usage error."""


def lint(paths: Sequence[str], options: Mapping[str, Any], live_inventory: Any = None) -> int:
    """Run ``lint`` with its parsed options (the click parameter names; ``live_inventory``: the cluster ``--cluster``
    read, :func:`ascend_compile.cli._cluster.read_live_inventory`); return the exit code.  ``--no-cache``
    switches every cache off (the results' and the start-up cache of profiles and schemas), ``--cache`` on, also in
    CI, where they are off by default (:func:`ascend_compile.datacache.bypassed`); for this run only, so that nothing
    run later in the same process (the Python API, tests) inherits it."""
    from ..datacache import set_choice

    if options.get("cache") and options.get("no_cache"):
        raise Usage("--cache and --no-cache: give one (--cache uses the caches in CI too, --no-cache none anywhere)")
    set_choice(True if options.get("cache") else False if options.get("no_cache") else None)
    try:
        return _lint(paths, options, live_inventory)
    finally:
        set_choice(None)


def _lint(paths: Sequence[str], options: Mapping[str, Any], live_inventory: Any) -> int:
    from ..lint import paths as lint_run
    from ..datacache import bypassed, default_root
    from ._context import load_context

    ctx = load_context(options)
    disabled = _disabled(options)
    volcano_version = _volcano(options.get("volcano_version"))
    left_out: List[Any] = []
    try:
        inventory = cluster_inventory(options, live_inventory)
        _fix_roots(paths, options)
    except AscendCompileError as exc:  # a snapshot that cannot be read (AC016), a path --fix must not go through
        return _refused(exc)
    if volcano_version is None and inventory is not None:
        volcano_version = inventory.bundled_volcano()
    target = run_target(options, ctx.config, inventory)

    def run() -> Any:
        del left_out[:]
        return lint_run.lint_paths(
            list(paths), ctx.registry, ctx.config, include=options.get("include") or (),
            exclude=options.get("exclude") or (), max_bytes=ctx.max_bytes, strict=options.get("strict", True),
            strict_kinds=bool(options.get("strict_kinds")),
            volcano_version=volcano_version, disable=disabled, left_out=left_out,
            cache_dir=None if bypassed() else default_root(), specs=compiled_specs(ctx),
            inventory=inventory, target=target)

    findings, files = run()
    if files == 0 and not findings and not left_out:  # nothing read: an input error, no "No problems found"
        return _nothing_read("lint", files, 0, left_out)
    if options.get("fix") or options.get("show_diff"):
        from . import _fixing

        if options.get("show_diff"):
            return _fixing.diff(_fixing.fixes(findings), fix_given=bool(options.get("fix")))
        try:
            fixed = _fixing.fix(findings, run, paths)
        except AscendCompileError as exc:  # a file it must not write (a link, outside the paths, changed since)
            return _refused(exc)
        if fixed is not None:
            findings, files = fixed  # what is left
    return _report_lint(paths, options, ctx, findings, files, left_out)


def _report_lint(paths: Sequence[str], options: Mapping[str, Any], ctx: Any, findings: List[Any], files: int,
                 left_out: Sequence[Any]) -> int:
    """lint's findings reported (against the baseline, if any, or written to it); the exit code."""
    from ..findings import exit_code
    from ..report import catalogue_rules, render

    threshold = options.get("fail_on") or ctx.config.lint.fail_on or "error"
    # Only SARIF lists every rule; the other formats describe the rules of the findings (from the catalogue).
    rules = catalogue_rules() if ctx.fmt == "sarif" else None
    baseline = options.get("baseline") or (None if options.get("write_baseline") else _configured_baseline(ctx.config))
    if baseline or options.get("write_baseline"):
        against = _against_baseline(paths, options, baseline, findings, ctx.fmt, rules, files)
        if isinstance(against, int):  # written, or refused
            return against
        findings = against
    elif ctx.fmt == "sarif" and _fixable(findings):  # SARIF says how to fix what can be fixed
        from . import _fixing

        _fixing.sarif(findings, rules, _fixing.fixes(findings))
    else:
        render(findings, ctx.fmt, rules=rules, stream=sys.stdout, files_checked=files,
               quiet=bool(options.get("quiet")))
    return _nothing_read("lint", files, exit_code(findings, threshold), left_out)


def _fix_roots(paths: Sequence[str], options: Mapping[str, Any]) -> None:
    """``--fix``/``--diff``: the paths given, refused (AC013) before the lint reads anything when one reaches through
    a link out of the repository."""
    if options.get("fix") or options.get("show_diff"):
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


def cluster_inventory(options: Mapping[str, Any], live_inventory: Any = None) -> Any:
    """The cluster the cluster-aware rules check against: ``--cluster-snapshot FILE`` (read and checked against its
    schema: AC016, an InputError) or, for ``--cluster``, what the click command read live beforehand
    (``live_inventory``: :func:`ascend_compile.cli._cluster.read_live_inventory`); None without either (those rules
    then say nothing)."""
    snapshot, live = options.get("cluster_snapshot"), options.get("cluster")
    if snapshot and live:
        raise Usage("--cluster and --cluster-snapshot: give one (the live cluster, or a snapshot of it)")
    if snapshot:
        from ..inventory.snapshot import load

        return load(snapshot)
    return live_inventory if live else None


def run_target(options: Mapping[str, Any], config: Any, inventory: Any = None) -> Any:
    """The :class:`~ascend_compile.releases.Target` this run judges for: ``--mindcluster`` and
    ``--[no-]volcano-webhook``, else the config's ``cluster``, else the versions the cluster inventory records, else
    the default.  A release that is not supported is a usage error."""
    from ..config import target_of
    from ..releases import RELEASES, release_of

    flag = options.get("mindcluster")
    if flag is not None and release_of(flag) is None:
        raise Usage(f"--mindcluster: {flag!r} is not a supported MindCluster release (one of {', '.join(RELEASES)})")
    snapshot = options.get("cluster_snapshot")
    source = f"--cluster-snapshot {snapshot}" if snapshot else "the live cluster (--cluster)"
    return target_of(config, flag, options.get("volcano_webhook"), getattr(inventory, "versions", None), source)


def compiled_specs(ctx: Any) -> Any:
    """lint's check of job specs: compile each (:func:`ascend_compile.compiling.pipeline.check_specs`), report what compile
    would report, write nothing.  The compiler is loaded only for a file that may hold a spec."""

    def check(docs: Sequence[Any]) -> Any:
        # a quick look first, so that linting manifests does not load the compiler; check_specs decides
        if not any(doc is not None and isinstance(doc.data, dict) and doc.data.get("kind") == "TrainingJob"
                   for doc in docs):
            return {}
        from ..compiling.pipeline import check_specs

        return check_specs(docs, ctx.registry, ctx.config)

    return check


def _disabled(options: Mapping[str, Any]) -> List[str]:
    """The rules ``--disable`` names (repeated, or comma-separated); an unknown one, or one that cannot be
    disabled (an input error), is a usage error: it would silently disable nothing."""
    from ..catalogue import get
    from ..config import cannot_disable

    disabled = [part.strip() for item in options.get("disable") or () for part in item.split(",") if part.strip()]
    unknown = [d for d in disabled if get(d) is None]
    if unknown:
        raise Usage(f"--disable: unknown rule {', '.join(unknown)} (see 'ascend-compile rules')")
    refused = [cannot_disable(d) for d in disabled if cannot_disable(d)]
    if refused:
        raise Usage(f"--disable: {'; '.join(refused)}")
    return disabled


def _nothing_read(command: str, files: int, code: int, left_out: Sequence[Any]) -> int:
    """Exit 2 when the paths held no YAML file at all: a renamed folder must not pass as clean (kubeconform
    passes an empty folder; a linter in CI must not, so this is an input error, said on stderr alone).

    Files that discovery left out on purpose (``left_out``: a Helm chart, whose note may be disabled, a kustomize
    patch, whose warning may not) count as found: pre-commit may pass only a patch.
    """
    from ..findings import EXIT_INPUT

    if files == 0 and code != EXIT_INPUT and not left_out:
        sys.stderr.write(f"ascend-compile {command}: no YAML files found in the given paths\n")
        return EXIT_INPUT
    return code


def _fixable(findings: Any) -> bool:
    from ..lint.fixing import fixer

    return any(fixer(f.rule) is not None for f in findings)


def _linted(paths: Sequence[str], options: Mapping[str, Any], findings: Any) -> Any:
    """The files this run linted, spelled as the baseline spells them (its entries of other files are kept)."""
    from ..files.discovery import discover
    from ..lint.baseline import linted_files
    from ..yamlio.reading import display_name

    found = discover(paths, include=options.get("include") or (), exclude=options.get("exclude") or ())
    return linted_files([display_name(path) for path in found.paths] + [f.file for f in findings])


def _against_baseline(paths: Sequence[str], options: Mapping[str, Any], baseline: Optional[str], findings: Any,
                      fmt: str, rules: Any, files: int) -> Union[int, List[Any]]:
    """``--write-baseline`` or a refused baseline: the exit code; ``baseline`` (``--baseline``, else the config's
    lint.baseline): the new findings, reported."""
    from . import _baseline

    linted = _linted(paths, options, findings)
    write_baseline = options.get("write_baseline")
    if baseline and write_baseline:
        raise Usage("give --baseline FILE (report new findings) or --write-baseline FILE (record them), not both")
    max_bytes = options.get("max_bytes") or 0
    try:
        if write_baseline:
            return _baseline.write(write_baseline, findings, files, linted, max_bytes)
        return _baseline.report(str(baseline), findings, fmt, rules, files, bool(options.get("quiet")), max_bytes,
                                linted)
    except _baseline.BaselineUsage as exc:
        sys.stderr.write(f"ascend-compile lint: error: {exc}\n")
        return 2
    except AscendCompileError as exc:  # the baseline cannot be written (AC013) or read
        return _refused(exc)


def _refused(exc: Any) -> int:
    """A file lint was asked to write or read and did not: its findings on stderr, exit code 2."""
    from ..findings import EXIT_INPUT
    from ..report import render

    render(exc.findings, "text", stream=sys.stderr)
    return EXIT_INPUT


def validate(paths: Sequence[str], options: Mapping[str, Any]) -> int:
    """Run ``validate`` with its parsed options (the click parameter names); return the exit code."""
    if not paths:
        raise Usage("give at least one PATH (a file or directory), or - to read standard input")
    from ..findings import exit_code
    from ..report import render
    from ..files.validate import validate_paths

    from ._context import load_context

    disabled = _disabled(options)
    volcano_version = _volcano(options.get("volcano_version"))
    # the project config's lint.disable and lint.failOn hold for validate too (its rules are lint's schema rules)
    config = load_context(options).config
    disabled += list(config.lint.disable)
    threshold = options.get("fail_on") or config.lint.fail_on or "error"
    left_out: List[Any] = []
    findings, files = validate_paths(paths, strict=options.get("strict", True),
                                     strict_kinds=bool(options.get("strict_kinds")),
                                     include=options.get("include") or (), exclude=options.get("exclude") or (),
                                     volcano_version=volcano_version,
                                     max_bytes=options.get("max_bytes"), disable=disabled, left_out=left_out)
    if files == 0 and not findings and not left_out:  # nothing read: an input error, no "No problems found"
        return _nothing_read("validate", files, 0, left_out)
    try:
        render(findings, options.get("fmt_alias") or options.get("fmt") or "text", stream=sys.stdout,
               files_checked=files,
               quiet=bool(options.get("quiet")))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return _nothing_read("validate", files, exit_code(findings, threshold), left_out)


def _volcano(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    from ..schemacheck.registry import normalize_volcano_version

    try:
        return normalize_volcano_version(value)
    except ValueError as exc:  # it names the releases there are schemas for
        raise Usage(f"--volcano-version: {exc}") from None
