"""Command-line entry point: a click group whose subcommands load on demand.

Each subcommand lives in its own module under ``compiler/cli/`` and is only
imported when it runs, so ``ascend-compile lint`` never pays for what
``apply`` or ``compile`` need.  ``--version`` is answered before click loads.
"""
from __future__ import annotations

import sys
from typing import List, Optional

# name -> (module, one-line help); the help is shown by ``--help`` without importing the module.
COMMANDS = {
    "compile": ("compile", "Compile job specs into AscendJob / Volcano Job / ConfigMap YAML."),
    "validate": ("validate", "Check manifests against the built-in JSON Schemas."),
    "lint": ("lint", "Check manifests against schemas and the operator's and scheduler's rules."),
    "rules": ("rules", "List the lint rules."),
    "explain": ("explain", "Show one lint rule: what it checks, why, and how to fix it."),
    "profiles": ("profiles", "List hardware profiles, or show one."),
    "init": ("init", "Write a starter job spec that compiles as is."),
    "apply": ("kubectl_cmds", "Compile and apply to a cluster through kubectl."),
    "diff": ("kubectl_cmds", "Compile and show what applying would change (kubectl diff)."),
    "status": ("kubectl_cmds", "Show the state of a job in the cluster."),
    "delete": ("kubectl_cmds", "Delete a compiled job and its ranktable ConfigMap from the cluster."),
    "krm": ("krm", "Run as a kustomize/kpt KRM function (ResourceList on stdin)."),
}


#: exit code for a bug in ascend-compile itself (0 clean, 1 findings, 2 usage or input error)
EXIT_INTERNAL = 3


def _version() -> str:
    from .._version import __version__

    return __version__


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
