"""Whether a path is really inside the repository it sits in: the one answer every reader and writer of a named
path asks (``compile -o``/``--check``, ``lint --fix``/``--diff``, ``schema --write``, ``import -o``, ``init``,
``--baseline``/``--write-baseline``), and every reader of a file from a repository or a setting (a named or walked
manifest or spec, a profile, the project config, a kustomization, a snapshot, a file beside a linted one).

A pull request may commit a link at any folder of a path the runner names (``manifests -> ../../.kube``,
``deploy -> /etc`` above ``deploy/manifests``).  Opening the last component without following a link is not
enough: the kernel follows every folder above it.  So the path is resolved here one component at a time, as the
kernel would, and each link met is judged where it sits: its target (every link of it followed) must be inside
the repository holding the link (:func:`repository_root` of the folder it is in; with none, the working
directory's repository, or the working directory, when the link is in that tree).  A link that stays inside may
be followed; one that leads out is refused (AC013; AC001 for an input the reader refuses), naming the link,
before anything through it is read or written (a directory walk that meets one, ``k8s/x.yaml ->
~/.kube/config``, leaves the file out with a note, AC015, as it leaves out a linked folder: :func:`leading_out`).
A link in no repository (``/tmp -> /private/tmp`` above everything) is the machine's, not the project's, and is
followed.
"""
from __future__ import annotations

import os
import stat
from typing import Optional, Sequence, Tuple

from ..catalogue import OUTPUT_ERROR
from ..errors import InputError
from ..findings import ERROR, Finding
from .read import not_regular
from .text import printable

#: a file that marks a repository root where there is no ``.git``
ROOT_MARKER = ".ascend-compile-root"
#: what marks a repository root: a ``.git`` directory, or a ``.git`` file (worktrees, submodules), or the marker
_ROOT_ENTRIES = (".git", ROOT_MARKER)


def refusal(path: str, message: str, hint: str = "", rule: str = OUTPUT_ERROR) -> InputError:
    """The error of a file that is not read or written as asked: AC013 (or ``rule``), exit code 2."""
    return InputError([Finding(rule, ERROR, message, hint=hint, file=path, input_error=True)])


def repository_root(start: str, home: Optional[str] = None) -> Optional[str]:
    """The nearest directory at or above ``start`` holding ``.git`` (file or directory) or the root marker.

    The search never goes above the user's home directory (when ``start`` is inside it).
    """
    home = os.path.abspath(home or os.path.expanduser("~"))
    directory = os.path.abspath(start)
    while True:
        if any(os.path.lexists(os.path.join(directory, entry)) for entry in _ROOT_ENTRIES):
            return directory
        parent = os.path.dirname(directory)
        if directory == home or parent == directory:
            return None
        directory = parent


def check_inside(path: str, roots: Sequence[str] = (), hint: str = "", rule: str = OUTPUT_ERROR) -> None:
    """Refuse (AC013, :class:`~ascend_compile.errors.InputError`) a ``path`` that reaches through a link leading
    outside the repository the link sits in, naming the link; with ``roots`` (the paths a command was given,
    each checked the same way), also a ``path`` whose real path is not one of them or below one.  ``hint``: how
    to name a path that is inside, for the second refusal.  ``rule``: the ID of the first refusal, AC013 for a
    path to write or compare with (an output folder, a baseline), AC001 for an input the reader refuses."""
    for named in (*roots, path):
        _check_links(named, rule)
    if not roots:
        return
    real = os.path.realpath(path)
    if not any(_below(real, os.path.realpath(root)) for root in roots):
        raise refusal(path, f"is outside the paths given on the command line (its real path is {printable(real)}), "
                            "so it is not changed", hint)


def _check_links(path: str, rule: str) -> None:
    found = leading_out(path)
    if found is None:
        return
    link, what = found
    raise refusal(link, f"{what}: {printable(path)} reaches through it, so nothing there is read or written",
                  "replace the link with the folder or file itself, or name a path inside the repository", rule)


def leading_out(path: str) -> Optional[Tuple[str, str]]:
    """The first link on ``path`` that leads outside the repository it sits in (see :func:`outside_link`) and what
    it is, for a message (``is a symbolic link to TARGET, outside the repository ROOT``); None when there is none."""
    found = outside_link(path)
    if found is None:
        return None
    link, target, root = found
    return link, f"is a symbolic link to {printable(target)}{_kind(link)}, outside the repository {printable(root)}"


def _kind(link: str) -> str:
    """`` (a FIFO, not a regular file)`` for a link to what is no file and no folder (a stat through the link,
    nothing opened: ``/dev/stdin``'s real path, ``/proc/self/fd/pipe:[...]``, is no path to stat)."""
    try:
        mode = os.stat(link).st_mode
    except OSError:
        return ""
    why = "" if stat.S_ISDIR(mode) else not_regular(mode)  # "is a FIFO, not a regular file"
    return f" ({why[len('is '):]})" if why else ""


def outside_link(path: str) -> Optional[Tuple[str, str, str]]:
    """The first link on ``path`` that leads outside the repository it sits in, as (the link spelled as in
    ``path``, its target's real path, that repository's root); None when every link on it stays inside.

    The path is resolved component by component (``..`` after a link goes up from the link's target, as the
    kernel does); where a component does not exist yet, nothing below it can be a link.
    """
    parts = path.split(os.sep) if not os.altsep else path.replace(os.altsep, os.sep).split(os.sep)
    if os.path.isabs(path):
        real, spelled = os.path.abspath(os.sep), [os.sep]
    else:
        real, spelled = os.getcwd(), []
    trees: Optional[_Trees] = None  # made at the first link: most paths (every file a walk reads) have none
    for part in parts:
        if part in ("", os.curdir):
            continue
        spelled.append(part)
        if part == os.pardir:
            real = os.path.dirname(real)
            continue
        here = (real if real.endswith(os.sep) else real + os.sep) + part  # os.path.join, at a fraction of the cost
        try:
            info = os.lstat(here)
        except OSError:  # missing (made later as a folder below ``real``), or no folder: nothing to follow
            return None
        if not stat.S_ISLNK(info.st_mode):
            real = here
            continue
        target = os.path.realpath(here)
        trees = trees or _Trees()
        root = trees.holding(real)
        if root is not None and not _below(target, root):
            return os.path.join(*spelled), target, root
        real = target
    return None


class _Trees:
    """The repository holding a folder (a real path): its own, else the working directory's tree when the
    folder is in it, else None; the working directory's tree worked out once."""

    def __init__(self) -> None:
        self._cwd: Optional[str] = None

    def holding(self, folder: str) -> Optional[str]:
        root = repository_root(folder)
        if root is not None:
            return os.path.realpath(root)
        if self._cwd is None:
            cwd = os.getcwd()
            self._cwd = os.path.realpath(repository_root(cwd) or cwd)
        return self._cwd if _below(folder, self._cwd) else None


def _below(real: str, base: str) -> bool:
    """Whether the real path ``real`` is ``base`` or below it."""
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


__all__ = ["ROOT_MARKER", "check_inside", "leading_out", "outside_link", "refusal", "repository_root"]
