"""Reading a file only when it is a regular file of bounded size: no link followed, no FIFO waited on, no device read.

What a repository or a cache folder holds may be planted: ``out/job.yaml -> /proc/self/environ`` must not print
the environment, a link to ``/dev/zero`` must not fill the memory, and a FIFO must not hang the run.  So the
path is checked with ``lstat``, opened with ``O_NOFOLLOW|O_NONBLOCK``, checked again on the descriptor (it may
have been replaced in between), and read up to the limit.
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


def read_regular_bytes(path: str, max_bytes: int, head: bool = False) -> Tuple[Optional[bytes], str]:
    """(bytes, "") for a regular file of at most ``max_bytes``; else (None, why it was not read).

    ``(None, "")`` means there is nothing at ``path``.  ``head``: read the first ``max_bytes`` of a larger file.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None, ""
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    why = not_regular(info.st_mode)
    if why:
        return None, why
    if info.st_size > max_bytes and not head:
        return None, f"is larger than the {max_bytes} byte limit"
    try:
        fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        return None, "is a symlink, not a regular file" if exc.errno == errno.ELOOP else \
            f"cannot be read ({exc.strerror or exc})"
    try:
        with os.fdopen(fd, "rb") as handle:
            if not_regular(os.fstat(fd).st_mode):  # replaced between the lstat and the open
                return None, "is not a regular file"
            data = handle.read(max_bytes if head else max_bytes + 1)
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    if len(data) > max_bytes:
        return None, f"is larger than the {max_bytes} byte limit"
    return data, ""


def not_regular(mode: int) -> str:
    """"" for a regular file's mode, else what the file is ("is a FIFO, not a regular file")."""
    if stat.S_ISREG(mode):
        return ""
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"is {kind}, not a regular file"
