"""Every file ascend-compile writes goes through here: ``compile -o``, ``import -o``, ``schema --write``,
``init``, ``lint --fix`` and ``lint --write-baseline``.

A file is never written in place, nor through a name someone else could have made first: its new content
goes into a temporary file created exclusively (``O_CREAT|O_EXCL|O_NOFOLLOW``, a random name) in the
target's own folder, gets its mode on the descriptor, and is renamed over the target.  A rename replaces
a link rather than following it, and the temporary file is ours, so a link planted at any name (the
target's, a temporary's) never makes the write land elsewhere.  On any error every temporary file is
removed and no target has changed.

A target that is a symbolic link (dangling or not), a directory or anything but a regular file is
refused, as is a target reached through a link that leads outside the repository the link sits in
(:func:`~ascend_compile.safeio.inside.check_inside`, for the folders above it); the error names the file
or the link, what is wrong and how to fix it (AC013, exit code 2).  Several files are written all or
none: all of them are staged before the first is renamed into place.
"""
from __future__ import annotations

import os
import stat
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..catalogue import OUTPUT_ERROR
from ..errors import InputError
from ..findings import ERROR, Finding
from .inside import check_inside, refusal
from .text import printable

Data = Union[str, bytes]


def refuse_same_names(files: Sequence[Tuple[str, str, str]], hint: str) -> None:
    """Each ``(bare file name, the file it comes from, what it is)`` of one run: two of them with one name are
    refused before anything is written (AC013, every such pair named), as one would replace the other."""
    seen: Dict[str, str] = {}
    problems: List[Finding] = []
    for name, source, what in files:
        if name in seen:
            problems.append(Finding(OUTPUT_ERROR, ERROR, f"two jobs would both be written to {printable(name)} "
                                    f"({seen[name]} and {what})", hint=hint, file=source, input_error=True))
        else:
            seen[name] = what
    if problems:
        raise InputError(problems)


def is_bare_name(name: str) -> bool:
    """A file name that stays in the folder it is joined to: no separator, not ``.``/``..``, printable."""
    return bool(name) and name not in (".", "..") and os.path.basename(name) == name and "/" not in name \
        and "\\" not in name and not (os.altsep and os.altsep in name) and name.isprintable()


def write_file(path: str, data: Data, *, overwrite: bool = True) -> None:
    """Replace (or create) the one file ``path`` with ``data``."""
    write_files([(path, data)], overwrite=overwrite)


def write_into(folder: str, files: Sequence[Tuple[str, Data]], *, overwrite: bool = True) -> List[str]:
    """Each ``(bare file name, data)`` into ``folder`` (made when missing), all or none; their paths."""
    for name, _data in files:
        if not is_bare_name(name):
            raise refusal(os.path.join(folder, name), f"{printable(name)!r} is not a bare file name: it would be "
                                                      f"written outside {printable(folder)}",
                          "give it a name without a path separator")
    check_inside(folder)  # before a folder is made: makedirs would make it through a link
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise refusal(folder, f"cannot create the folder: {exc.strerror or exc}",
                      "remove what stands at that path, or write somewhere else") from None
    paths = [os.path.join(folder, name) for name, _data in files]
    write_files(list(zip(paths, (data for _name, data in files))), overwrite=overwrite)
    return paths


def write_files(files: Sequence[Tuple[str, Data]], *, overwrite: bool = True) -> None:
    """Write every ``(path, data)``: each staged beside its target, then all renamed into place."""
    import tempfile  # here: the commands that never write do not pay for importing it

    staged: List[Tuple[str, str]] = []
    default_mode = 0o666 & ~_umask()
    path = ""
    for path, _data in files:
        check_inside(path)  # no folder above a target is a link out of the repository
    try:
        for path, data in files:
            mode = check_target(path, overwrite, default_mode)
            folder = os.path.dirname(path) or os.curdir
            # mkstemp opens O_CREAT|O_EXCL|O_NOFOLLOW under a random name: a planted name is never ours
            fd, temporary = tempfile.mkstemp(prefix=".ascend-compile-", suffix=".tmp", dir=folder)
            staged.append((temporary, path))
            with os.fdopen(fd, "wb") as handle:
                if hasattr(os, "fchmod"):  # on our own descriptor: nothing but the new file gets the mode
                    os.fchmod(handle.fileno(), mode)
                handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        while staged:
            temporary, path = staged[0]
            check_target(path, overwrite, default_mode)  # still no link, no folder (a rename would replace it)
            os.replace(temporary, path)
            del staged[0]
    except OSError as exc:
        raise refusal(getattr(exc, "filename", None) or path, f"cannot write: {exc.strerror or exc}",
                      "check the folder exists and is writable") from None
    finally:
        for temporary, _path in staged:  # not renamed into place: removed
            try:
                os.unlink(temporary)
            except OSError:
                pass


def check_target(path: str, overwrite: bool = True, default: int = 0o644) -> int:
    """The mode of the file written to ``path`` (a regular file keeps its permissions; a new one gets
    ``default``); refuse a link, a directory or anything else, and with ``overwrite`` false any file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return default
    except OSError as exc:
        raise refusal(path, f"cannot be written: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):
        raise refusal(path, f"is a symbolic link (to {printable(_link(path))}): ascend-compile never writes "
                            "through a link", "remove the link, or give the path of the file it points to")
    if stat.S_ISDIR(info.st_mode):
        raise refusal(path, "is a directory", "remove or rename it, or write somewhere else")
    if not stat.S_ISREG(info.st_mode):
        raise refusal(path, "is not a regular file (a FIFO, socket or device)", "remove it, or write somewhere else")
    if not overwrite:
        raise refusal(path, "already exists", "use --force to overwrite it")
    return stat.S_IMODE(info.st_mode) & 0o777  # never setuid/setgid on a file we wrote


def _link(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it; set it straight back
    os.umask(mask)
    return mask


__all__ = ["check_target", "is_bare_name", "refuse_same_names", "write_file", "write_files", "write_into"]
