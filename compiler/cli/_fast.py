"""The fast path: a plain ``lint``, ``validate`` or ``compile`` command line runs without loading click.

Importing click costs more than reading and checking a manifest (about 11 ms of a 60 ms run), and
pre-commit starts ``ascend-compile lint FILE...`` (and ``compile --check``) on every commit.  The options
a hook or a CI step commonly passes are read here, into the same parameters click would give the
command, and the command's body (:mod:`._plain`, :mod:`._compiling`) runs.  Any other command line (``--help``, ``-v``, ``--config``,
an unknown option, a bad value, a usage error found by the body) is left to click, which parses
and reports it as it always did.  ``tests/cli/test_fast_path.py`` checks that both read every
command line the same.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

_FLAG, _ON, _OFF, _MANY, _INT, _TEXT = "flag", "on", "off", "many", "int", "text"
_FORMATS = ("text", "json", "sarif", "github")
_SEVERITIES = ("error", "warning", "info")  # --fail-on

#: option -> (parameter, what it takes: a kind above or the tuple of allowed values)
_LINT: Dict[str, Tuple[str, Any]] = {
    "-q": ("quiet", _FLAG), "--quiet": ("quiet", _FLAG), "--no-cache": ("no_cache", _FLAG),
    "--no-config": ("no_config", _FLAG), "--strict": ("strict", _ON), "--no-strict": ("strict", _OFF),
    "--strict-kinds": ("strict_kinds", _FLAG), "--format": ("fmt", _FORMATS), "--fail-on": ("fail_on", _SEVERITIES),
    "--disable": ("disable", _MANY), "--include": ("include", _MANY), "--exclude": ("exclude", _MANY),
    "--max-bytes": ("max_bytes", _INT), "--volcano-version": ("volcano_version", _TEXT),
    "--cluster-snapshot": ("cluster_snapshot", _TEXT),
}
_VALIDATE: Dict[str, Tuple[str, Any]] = {
    "-q": ("quiet", _FLAG), "--quiet": ("quiet", _FLAG), "--strict": ("strict", _ON),
    "--no-strict": ("strict", _OFF), "--strict-kinds": ("strict_kinds", _FLAG), "-f": ("fmt_alias", _FORMATS),
    "--format": ("fmt", _FORMATS), "--include": ("include", _MANY), "--exclude": ("exclude", _MANY),
    "--max-bytes": ("max_bytes", _INT), "--disable": ("disable", _MANY), "--no-config": ("no_config", _FLAG),
    "--fail-on": ("fail_on", _SEVERITIES),
}
_COMPILE: Dict[str, Tuple[str, Any]] = {
    "-o": ("output_dir", _TEXT), "--output-dir": ("output_dir", _TEXT), "--check": ("check", _FLAG),
    "--no-lint": ("no_lint", _FLAG), "--set": ("overrides", _MANY), "--no-config": ("no_config", _FLAG),
    "--format": ("fmt", _FORMATS), "--max-bytes": ("max_bytes", _INT),
    "--fail-on": ("fail_on", _SEVERITIES), "--cluster-snapshot": ("cluster_snapshot", _TEXT),
}


def _lint_defaults() -> Dict[str, Any]:
    from ..yamlio.common import DEFAULT_MAX_BYTES

    return {"fail_on": None, "disable": (), "strict": True, "strict_kinds": False, "volcano_version": None, "include": (), "exclude": (),
            "quiet": False, "no_cache": False, "write_baseline": None, "baseline": None, "fix": False,
            "show_diff": False, "config_path": None, "cluster_snapshot": None, "cluster": False,
            "kubectl_path": None, "kubeconfig": None, "context": None, "namespace": None, "request_timeout": None,
            "kubectl_timeout": "5m",
            "no_config": False, "profile_dirs": (),
            "max_bytes": DEFAULT_MAX_BYTES, "fmt": "text", "verbose": False, "show_config": False}


def _validate_defaults() -> Dict[str, Any]:
    return {"fmt": "text", "fmt_alias": None, "strict": True, "strict_kinds": False, "include": (), "exclude": (),
            "volcano_version": None, "max_bytes": None, "quiet": False, "disable": (), "config_path": None,
            "no_config": False, "fail_on": None}


def _compile_defaults() -> Dict[str, Any]:
    from ..yamlio.common import DEFAULT_MAX_BYTES

    return {"output_dir": None, "check": False, "overrides": (), "fail_on": None, "no_lint": False, "config_path": None,
            "no_config": False, "profile_dirs": (), "max_bytes": DEFAULT_MAX_BYTES, "fmt": "text",
            "verbose": False, "show_config": False, "cluster_snapshot": None}


#: command -> (its options, its default parameters)
_COMMANDS = {"lint": (_LINT, _lint_defaults), "validate": (_VALIDATE, _validate_defaults),
             "compile": (_COMPILE, _compile_defaults)}


def parse(args: Sequence[str]) -> Optional[Tuple[str, List[str], Dict[str, Any]]]:
    """(command, paths, parameters) of a command line this path runs, else None (click reads it)."""
    if not args or args[0] not in _COMMANDS:
        return None
    table, defaults = _COMMANDS[args[0]]
    params = defaults()
    paths: List[str] = []
    rest = list(args[1:])
    while rest:
        token = rest.pop(0)
        if token == "-" or not token.startswith("-"):
            paths.append(token)
            continue
        name, equals, attached = token.partition("=")
        if name not in table:
            return None
        param, takes = table[name]
        if takes in (_FLAG, _ON, _OFF):
            if equals:
                return None
            params[param] = takes != _OFF
            continue
        value = attached if equals else (rest.pop(0) if rest and not rest[0].startswith("-") else None)
        if not value or not _store(params, param, takes, value):
            return None
    if args[0] == "compile" and not _compile_line(paths, params):
        return None
    return args[0], paths, params


def _compile_line(specs: List[str], params: Dict[str, Any]) -> bool:
    """Whether this path may run a compile line: click takes it as it is (a SPEC given, no file where the output
    directory goes), and a ``--set`` found wrong after standard input was read needs no second reading."""
    import os

    output_dir = params["output_dir"]
    if output_dir is not None and os.path.exists(output_dir) and not os.path.isdir(output_dir):
        return False
    return bool(specs) and not ("-" in specs and params["overrides"])


def _store(params: Dict[str, Any], param: str, takes: Any, value: str) -> bool:
    if takes == _MANY:
        params[param] = (*params[param], value)
    elif takes == _INT:
        try:
            number = int(value)
        except ValueError:
            return False
        if number < 1:
            return False
        params[param] = number
    elif takes == _TEXT:
        params[param] = value
    elif value in takes:
        params[param] = value
    else:
        return False
    return True


def run(args: Sequence[str]) -> Optional[int]:
    """The exit code of a command line this path runs, or None: click must read it."""
    parsed = parse(args)
    if parsed is None:
        return None
    command, paths, params = parsed
    from . import _plain

    try:
        if command == "compile":
            from ._compiling import compile_specs

            return compile_specs(paths, params)
        return _plain.lint(paths, params) if command == "lint" else _plain.validate(paths, params)
    except _plain.Usage:
        return None  # click says what is wrong, in its words
