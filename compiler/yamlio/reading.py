"""Reading input as text: a path (or ``-`` for stdin) in, UTF-8 text out, every failure a clean InputError."""
from __future__ import annotations

import os
import stat
import sys

from ..catalogue import INPUT_TOO_LARGE
from ..errors import InputError
from ..safeio.read import not_regular
from .common import DEFAULT_MAX_BYTES, STDIN, STDIN_NAME, input_error as _input_error


def display_name(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


def read_text(path: str, max_bytes: int = DEFAULT_MAX_BYTES, *, regular_only: bool = False) -> str:
    """Read a whole file (or stdin for ``-``) as UTF-8 text, with clean errors.

    Never blocks on a named pipe that nobody writes to (it reads as empty) and
    never reads more than ``max_bytes + 1`` bytes of anything.  ``regular_only``: a
    file a setting names (the project config, a baseline) must be a regular file
    once links are followed: a committed ``baseline.json -> /dev/zero`` or
    ``-> /dev/stdin`` is refused before anything is read.
    """
    name = display_name(path)
    try:
        if path == STDIN:
            data = sys.stdin.buffer.read(max_bytes + 1)
        else:
            if _OPENS_DIRECTORIES is False and os.path.isdir(path):  # elsewhere fstat below says so
                raise _input_error(name, "is a directory, not a file",
                                   "pass the files inside it, or use a command that walks directories")
            # O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever.
            fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(fd)
                if stat.S_ISDIR(info.st_mode):
                    raise _input_error(name, "is a directory, not a file",
                                       "pass the files inside it, or use a command that walks directories")
                if regular_only and not_regular(info.st_mode):  # after the links: a FIFO, a device, a socket
                    raise _input_error(name, not_regular(info.st_mode), "name a regular file")
                if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                    raise _too_large(name, max_bytes)
                if stat.S_ISREG(info.st_mode):  # its size: asking for max_bytes + 1 allocated that much every time
                    data = handle.read(info.st_size + 1)
                    if len(data) > info.st_size:  # it grew since: read on, up to the limit
                        data += handle.read(max_bytes + 1 - len(data))
                else:
                    if _O_NONBLOCK:
                        os.set_blocking(fd, True)  # a pipe with a writer: wait for its data as usual
                    data = handle.read(max_bytes + 1)
    except InputError:
        raise
    except FileNotFoundError:
        raise _input_error(name, "no such file", "check the path") from None
    except PermissionError:
        raise _input_error(name, "permission denied", "make the file readable") from None
    except IsADirectoryError:
        raise _input_error(name, "is a directory, not a file",
                           "pass the files inside it, or use a command that walks directories") from None
    except OSError as exc:
        raise _input_error(name, f"cannot read: {exc.strerror or exc}") from None
    return decode(data, name, max_bytes)


_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
#: POSIX opens a directory for reading (and fstat tells it apart); Windows refuses, with a less clear error
_OPENS_DIRECTORIES = os.name == "posix"


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
