"""Exceptions that carry Findings up to the command layer.

Library code raises :class:`CompileError` (bad spec, impossible request) or
:class:`InputError` (unreadable file, YAML that cannot be parsed); the CLI turns
both into reports and exit codes.  Neither ever reaches the user as a traceback.
The Python client's :class:`~ascend_compile.kube.clienterror.ClusterError` (the API server
refused a request or was not reached, rule AC017) is one too: catching
:class:`AscendCompileError` catches every error ascend-compile raises on purpose
(:class:`InternalError`, a bug, is not one).
"""
from __future__ import annotations

from typing import List, Sequence

from .findings import Finding


class AscendCompileError(Exception):
    """Base class: an error made of one or more Findings."""

    def __init__(self, findings: Sequence[Finding]):
        self.findings: List[Finding] = list(findings)
        super().__init__("; ".join(f.message for f in self.findings))


class InputError(AscendCompileError):
    """The input could not be read or parsed (exit code 2)."""


class ArgumentError(InputError, TypeError):
    """A Python caller passed a value of the wrong kind (also a TypeError, as Python's own checks are)."""

    def __init__(self, message: str, hint: str = ""):
        from .catalogue import INPUT_ERROR
        from .findings import ERROR

        super().__init__([Finding(INPUT_ERROR, ERROR, message, hint=hint, file="<python>", input_error=True)])


class CompileError(AscendCompileError):
    """The spec was read but cannot be compiled as written (exit code 1)."""


class InternalError(Exception):
    """The tool produced something it should not have (a bug: please report it)."""


class Interrupted(BaseException):
    """The user pressed Ctrl-C inside a click command: carried past click's own handler (which would
    print "Aborted!" and exit 1) to the entry point, which exits 130."""
