"""Command-line entry point: a click group whose subcommands load on demand.

Each subcommand lives in its own module under ``compiler/cli/`` and is only
imported when it runs, so ``ascend-compile lint`` never pays for what
``apply`` or ``compile`` need.  ``--version`` is answered before click loads.
"""
from __future__ import annotations

import sys
from typing import List, Optional

from .commands import COMMANDS, version as _version

__all__ = ["COMMANDS", "EXIT_INTERNAL", "main"]

#: exit code for a bug in ascend-compile itself (0 clean, 1 findings, 2 usage or input error)
EXIT_INTERNAL = 3


def main(argv: Optional[List[str]] = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        sys.stdout.write(f"ascend-compile {_version()}\n")
        sys.exit(0)
    from ..errors import InternalError
    from ._group import cli

    try:
        cli.main(args=args, prog_name="ascend-compile")
    except InternalError as exc:  # our bug, not the user's input: say so plainly, no traceback
        sys.stderr.write(f"ascend-compile: internal error: {exc}\n")
        sys.exit(EXIT_INTERNAL)
