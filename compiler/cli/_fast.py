"""The fast path: a plain ``lint``, ``validate`` or ``compile`` command line runs without loading click.

Importing click costs more than reading and checking a manifest (about 11 ms of a 60 ms run), and
pre-commit starts ``ascend-compile lint FILE...`` (and ``compile --check``) on every commit.  The options
a hook or a CI step commonly passes (those the option table, :mod:`._optiontable`, marks ``fast``) are read
here, into the same parameters click would give the command, and the command's body (the ``run`` of
:mod:`.lint`, :mod:`.validate`, :mod:`.compile`) runs, with the same options record (:mod:`._settings`).
Any other command line (``--help``, ``-v``, ``--config``, an unknown option, a bad
value, no PATH, a usage error found by the body) is left to click, which parses and reports it as it always
did.  ``tests/cli/test_fast_path.py`` checks that both read every option of the table the same.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._optiontable import FLAG, INT, MANY, SWITCH, Option, defaults, options_of

#: the commands this path runs
FAST_COMMANDS = ("lint", "validate", "compile")


def _spellings(command: str) -> Dict[str, Option]:
    """Each spelling of the options of ``command`` this path reads (the table's ``fast`` ones)."""
    return {flag: option for option in options_of(command) if option.fast for flag in option.flags}


def parse(args: Sequence[str]) -> Optional[Tuple[str, List[str], Dict[str, Any]]]:
    """(command, paths, parameters) of a command line this path runs, else None (click reads it)."""
    if not args or args[0] not in FAST_COMMANDS:
        return None
    table = _spellings(args[0])
    params = defaults(args[0])
    paths: List[str] = []
    rest = list(args[1:])
    while rest:
        token = rest.pop(0)
        if token == "-" or not token.startswith("-"):
            paths.append(token)
            continue
        # --name=value; a short option's "=" is part of its value to click ("-o=x" is "=x"): click reads that
        name, equals, attached = token.partition("=") if token.startswith("--") else (token, "", "")
        option = table.get(name)
        if option is None:
            return None
        if option.takes in (FLAG, SWITCH):
            if equals:
                return None
            params[option.param] = option.takes == FLAG or name == option.flags[0]  # a switch's second is its off
            continue
        value = attached if equals else (rest.pop(0) if rest and not rest[0].startswith("-") else None)
        if not value or not _store(params, option.param, option.takes, value):
            return None
    if not paths or (args[0] == "compile" and not _compile_line(paths, params)):  # no PATH: click says what is missing
        return None
    return args[0], paths, params


def _compile_line(specs: List[str], params: Dict[str, Any]) -> bool:
    """Whether this path may run a compile line: click takes it as it is (no file where the output directory
    goes), and a ``--set`` found wrong after standard input was read needs no second reading."""
    import os

    output_dir = params["output_dir"]
    if output_dir is not None and os.path.exists(output_dir) and not os.path.isdir(output_dir):
        return False
    return not ("-" in specs and params["overrides"])


def _store(params: Dict[str, Any], param: str, takes: Any, value: str) -> bool:
    if takes == MANY:
        params[param] = (*params[param], value)
    elif takes == INT:
        try:
            number = int(value)
        except ValueError:
            return False
        if number < 1:
            return False
        params[param] = number
    elif not isinstance(takes, tuple) or value in takes:  # a text, a file or directory name, or one of the choices
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
    from ._session import Usage
    from ._settings import COMMAND_OPTIONS, options_for

    from . import compile as compiling, lint, validate

    body: Callable[[Sequence[str], Any], int] = \
        compiling.run if command == "compile" else lint.run if command == "lint" else validate.run
    try:
        return body(paths, options_for(COMMAND_OPTIONS[command], params))
    except Usage:
        return None  # click says what is wrong, in its words
