"""Reading a file only when it is a regular file of bounded size: no FIFO waited on, no device read, never
standard input by another name.

What a repository, a setting or a cache folder holds may be planted: ``out/job.yaml -> /proc/self/environ`` must
not print the environment, a link to ``/dev/zero`` must not fill the memory, a FIFO must not hang the run, and a
walked ``job.yaml -> /dev/stdin`` must not wait on (or swallow) what a CI runner feeds the shell: only ``-``
reads standard input.  So the path is opened with ``O_NONBLOCK`` (and ``O_NOFOLLOW`` when no link may be followed:
cache files, ``--check``'s outputs, after an ``lstat``), checked on the descriptor (a regular file: standard input by
another name is a pipe, a terminal or the very file a redirection opens), and read up to the limit.
"""
from __future__ import annotations

import errno
import os
import stat
from typing import Optional, Tuple

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_KINDS = ((stat.S_ISLNK, "a symlink"), (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
#: why a file was not read, for the callers that answer some of them in their own words
PERMISSION_DENIED = "cannot be read (permission denied)"


def read_regular_bytes(path: str, max_bytes: int, head: bool = False, *,
                       follow: bool = False) -> Tuple[Optional[bytes], str]:
    """(bytes, "") for a regular file of at most ``max_bytes``; else (None, why it was not read).

    ``(None, "")`` means there is nothing at ``path``.  ``head``: read the first ``max_bytes`` of a larger file.
    ``follow``: links are followed and what they lead to must be a regular file (a file a repository or a setting
    names); else a link is refused.
    """
    if not follow:
        why = _lstat_problem(path)
        if why is not None:
            return None, why
    try:
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | (0 if follow else _O_NOFOLLOW) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        return None, _open_problem(path, exc, follow)
    try:
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(fd)
            why = not_regular(info.st_mode)
            if why:  # after the links (or replaced since the lstat): a FIFO, a device, a folder
                return None, why
            if info.st_size > max_bytes and not head:
                return None, too_large(max_bytes)
            want = max_bytes if head else max_bytes + 1
            data = handle.read(min(want, info.st_size + 1))  # its size: asking for ``want`` allocates that much
            if len(data) > info.st_size and len(data) < want:  # it grew since (or /proc says 0): read on
                data += handle.read(want - len(data))
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    if len(data) > max_bytes:
        return None, too_large(max_bytes)
    return data, ""


def too_large(max_bytes: int) -> str:
    """Why a file over the limit was not read."""
    return f"is larger than the {max_bytes} byte limit"


def not_regular(mode: int) -> str:
    """"" for a regular file's mode, else what the file is ("is a FIFO, not a regular file")."""
    if stat.S_ISREG(mode):
        return ""
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"is {kind}, not a regular file"


def _lstat_problem(path: str) -> Optional[str]:
    """Why ``path`` itself (a link not followed) is not read: "" for nothing there, None for a regular file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return _open_problem(path, exc, False)
    return not_regular(info.st_mode) or None


def _open_problem(path: str, exc: OSError, follow: bool) -> str:
    if isinstance(exc, FileNotFoundError):
        return ""
    if exc.errno == errno.ELOOP:
        return "is a symlink loop" if follow else "is a symlink, not a regular file"
    if isinstance(exc, PermissionError) and not os.path.isdir(path):  # Windows refuses to open a folder so
        return PERMISSION_DENIED
    if os.path.isdir(path):
        return not_regular(stat.S_IFDIR)
    return f"cannot be read ({exc.strerror or exc})"
