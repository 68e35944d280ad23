"""Command-line entry point: a click group whose subcommands load on demand.

Each subcommand lives in its own module under ``compiler/cli/`` and is only
imported when it runs, so ``ascend-compile lint`` never pays for what
``apply`` or ``compile`` need.  ``--version`` is answered before click loads,
and a plain ``lint``, ``validate`` or ``compile`` runs without it (:mod:`._fast`).
"""
from __future__ import annotations

import sys
from typing import List, Optional

from .commands import version as _version

__all__ = ["EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_TOO_LARGE", "krm_main", "main"]

#: exit code for a bug in ascend-compile itself (0 clean, 1 findings, 2 usage or input error)
EXIT_INTERNAL = 3
#: exit code for input too large to process in the memory there is (an input error)
EXIT_TOO_LARGE = 2
#: exit code when the user interrupts a run (Ctrl-C): 128 + SIGINT, as shells report it
EXIT_INTERRUPTED = 130
#: exit code when the reader of our output goes away (piped into ``head``): 128 + SIGPIPE, as shells report it
EXIT_BROKEN_PIPE = 141
#: set to print the Python traceback of an internal error (for bug reports)
ENV_TRACEBACK = "ASCEND_COMPILE_TRACEBACK"
#: the cyclic collector's thresholds in a process of our own (Python's are 700, 10, 10): a run
#: allocates mostly acyclic data that lives to its end, so frequent collections find nothing to free
_GC_THRESHOLDS = (50_000, 100, 100)


def main(argv: Optional[List[str]] = None) -> None:
    if argv is not None:  # called from Python: the process is the caller's
        _main(argv)
        return
    import gc

    gc.set_threshold(*_GC_THRESHOLDS)
    try:
        _main(sys.argv[1:])
    finally:  # exiting: the interpreter's last collection skips frozen objects, and none are garbage now
        gc.freeze()


def krm_main() -> None:
    """The ``ascend-compile-krm`` console script: ``ascend-compile krm`` with its arguments.  kustomize's
    ``exec.path`` cannot pass arguments, and a path without a slash is looked up on PATH, so a kustomization
    names ``path: ascend-compile-krm`` and needs no wrapper script of its own."""
    main(["krm", *sys.argv[1:]])


def _main(args: List[str]) -> None:
    if args == ["--version"]:
        sys.stdout.write(f"ascend-compile {_version()}\n")
        sys.exit(0)
    from ..errors import InternalError, Interrupted
    from ._fast import run as run_fast

    try:
        code = run_fast(args)  # a plain lint or validate: no click to load
        if code is not None:
            sys.exit(code)
        from ._group import cli

        cli.main(args=args, prog_name="ascend-compile")
    except (KeyboardInterrupt, Interrupted):  # Ctrl-C: neither findings (1) nor our bug (3); exit as shells
        # report a SIGINT (writers leave no partial file)
        sys.stderr.write("ascend-compile: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:  # the reader went away (e.g. piped into head): stop quietly, as a SIGPIPE would
        _silence_stdout()
        sys.exit(EXIT_BROKEN_PIPE)
    except MemoryError:  # the input is too big for the memory this process may use: the user's to split
        sys.stderr.write("ascend-compile: error: out of memory: the input is too large to process in the memory "
                         "available; split it into smaller files, or lower --max-bytes to refuse such files "
                         "early\n")
        sys.exit(EXIT_TOO_LARGE)
    except RecursionError:
        sys.stderr.write("ascend-compile: error: the input nests too deeply to process; flatten it\n")
        sys.exit(EXIT_TOO_LARGE)
    except InternalError as exc:  # our bug, not the user's input: say so plainly, no traceback
        _internal(str(exc))
    except Exception as exc:  # noqa: BLE001 - any other escape is our bug: exit 3, never 1, no traceback
        _internal(f"{type(exc).__name__}: {exc}. This is a bug in ascend-compile; please report it with the "
                  f"command and its input (set {ENV_TRACEBACK}=1 for the traceback)")


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush has nowhere to fail."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind stdout: nothing is left to flush there
        pass


def _internal(message: str) -> None:
    import os

    if os.environ.get(ENV_TRACEBACK):
        import traceback

        traceback.print_exc()
    sys.stderr.write(f"ascend-compile: internal error: {message}\n")
    sys.exit(EXIT_INTERNAL)
