"""Reading input as text: a path (or ``-`` for stdin) in, UTF-8 text out, every failure a clean InputError."""
from __future__ import annotations

import stat
import sys

from ..catalogue import INPUT_ERROR, INPUT_TOO_LARGE
from ..errors import InputError
from ..safeio.inside import check_inside
from ..safeio.read import PERMISSION_DENIED, not_regular, read_regular_bytes, too_large
from .common import DEFAULT_MAX_BYTES, STDIN, STDIN_NAME, input_error as _input_error


def display_name(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


def read_text(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read a whole file (or stdin for ``-``) as UTF-8 text, with clean errors.

    Every path but ``-`` is read through :func:`~ascend_compile.safeio.read.read_regular_bytes`: a regular file
    once links are followed, never more than ``max_bytes``.  A FIFO, a device or a socket is refused before
    anything is read, whoever named it (a walked ``job.yaml -> /dev/stdin``, a profile linked to ``/dev/zero``, a
    committed ``baseline.json`` linked to a FIFO): only ``-`` reads standard input.  Nor is a path read that reaches
    through a link, at any component, leading outside the repository the link sits in (``k8s/x.yaml ->
    ~/.kube/config``, a ``profileDirs`` folder linked to ``/etc``): the error (AC001) names the link
    (:func:`~ascend_compile.safeio.inside.check_inside`), and nothing there is read.
    """
    name = display_name(path)
    if path == STDIN:
        try:
            data = sys.stdin.buffer.read(max_bytes + 1)
        except OSError as exc:
            raise _input_error(name, f"cannot read: {exc.strerror or exc}") from None
        return decode(data, name, max_bytes)
    check_inside(path, rule=INPUT_ERROR)
    data, why = read_regular_bytes(path, max_bytes, follow=True)
    if data is None:
        raise _not_read(name, why, max_bytes)
    return decode(data, name, max_bytes)


def _not_read(name: str, why: str, max_bytes: int) -> InputError:
    """The located error of a file :func:`read_text` did not read, and how to fix it."""
    if not why:
        return _input_error(name, "no such file", "check the path")
    if why == too_large(max_bytes):
        return _too_large(name, max_bytes)
    if why == PERMISSION_DENIED:
        return _input_error(name, "permission denied", "make the file readable")
    if why == not_regular(stat.S_IFDIR):
        return _input_error(name, "is a directory, not a file",
                            "pass the files inside it, or use a command that walks directories")
    return _input_error(name, why, "name a regular file (to read standard input, give -)")


def _too_large(name: str, max_bytes: int) -> InputError:
    return _input_error(name, f"is larger than the {max_bytes} byte limit",
                        "split it, or raise the limit with --max-bytes", rule=INPUT_TOO_LARGE)


def decode(data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    if len(data) > max_bytes:
        raise _too_large(name, max_bytes)
    if b"\x00" in data:
        raise _input_error(name, "looks like a binary file (it contains NUL bytes), not YAML",
                           "exclude it from the paths you check")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _input_error(name, f"is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                           "save the file as UTF-8", line=line, column=column) from None
    return text
