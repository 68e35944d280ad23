"""What discovery does with symbolic links (see :mod:`.discovery`): a path named on the command line that reaches
through a link out of its repository is refused (AC001, an input not read); a walk leaves out a linked folder,
and a linked file that leads out of its repository, with a note (AC015); a broken link or a loop is named as such."""
from __future__ import annotations

import errno
import os
from typing import Callable, List

from ..catalogue import INPUT_ERROR, LINKED_FOLDER_SKIPPED
from ..findings import INFO, Finding


def linked_folder(path: str) -> Finding:
    """The note of a symlinked folder a walk did not follow."""
    try:
        target = f" ({os.readlink(path)})"
    except OSError:
        target = ""
    return Finding(rule=LINKED_FOLDER_SKIPPED, severity=INFO, file=path,
                   message=f"is a symlink to a folder{target}, which a walk does not follow (it may lead outside the "
                           "paths given), so nothing in it was read",
                   hint="to check what it holds, name the folder it points to; to drop this note, --exclude it (or "
                        "--disable AC015: every such note)")


def reaches_out(arg: str, findings: List[Finding]) -> bool:
    """Whether ``arg``, named on the command line, reaches through a link leading out of the repository the link
    sits in (``k8s -> ../../outside``, ``k8s/x.yaml -> ~/.kube/config``): the error (AC001, exit code 2) names the
    link, and nothing through it is read, walked or listed."""
    from ..errors import InputError
    from ..safeio.inside import check_inside

    try:
        check_inside(arg, rule=INPUT_ERROR)
    except InputError as exc:
        findings.extend(exc.findings)
        return True
    return False


def add_link(path: str, add: Callable[..., str], findings: List[Finding]) -> None:
    """Add a file a walk found that is a symlink, unless it leads to a regular file out of its repository: a note
    (AC015) names it, as a linked folder's does, and it is not read (a committed ``x.yaml -> ~/.kube/config`` must
    not reach a finding or a diff).  A link to a FIFO or a device (``x.yaml -> /dev/stdin``) is added: the reader
    refuses it, an error (AC001), as it is wherever it leads."""
    from ..safeio.inside import leading_out

    found = leading_out(path)
    if found is None or not os.path.isfile(path):
        add(path)
        return
    findings.append(Finding(rule=LINKED_FOLDER_SKIPPED, severity=INFO, file=found[0],
                            message=f"{found[1]}, which a walk does not follow, so it was not read",
                            hint="to check it, put the file itself in the repository; to drop this note, --exclude "
                                 "it (or --disable AC015: every such note)"))


def link_problem(path: str) -> str:
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a symlink loop"
    return "is a broken symlink (its target does not exist)"
