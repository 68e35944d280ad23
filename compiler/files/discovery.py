"""Turn command-line paths into the list of inputs to read.

* A file named on the command line is read, whatever its name, unless it is a kustomization or a file
  a kustomization merges in (see below).
* A directory is walked recursively; files whose name (or path relative to
  that directory) matches one of the ``include`` globs (default ``*.yaml``,
  ``*.yml``) and none of the ``exclude`` globs are read.  Hidden directories
  (``.git``, ``.venv``, ...) and hidden files (``.gitlab-ci.yml``, ``.ascend-compile.yaml``: tools'
  configuration) are skipped, and so is any directory matching an ``exclude`` glob.  A Helm chart (a
  directory with ``Chart.yaml``) is not read: its templates are not YAML until rendered; a note (AC007,
  info) names it; nor is a directory argument in a chart's ``templates/``.  A kustomization file is not
  read, walked or named: it is no object (a note, AC008, info).  Nor are the files a kustomization merges
  into objects (patches, a generator's inputs; :mod:`.kustomize`): each is a file NOT CHECKED, a warning
  (AC014) and a clause of the summary, never silently clean.  The kustomizations looked at are those of the
  folders walked, of a named file's folder, and of the folders above it up to its repository's root (where
  kustomize keeps the kustomization of a patch in ``overlays/prod/patches/``), never above that root (the
  one config discovery finds, :func:`~ascend_compile.safeio.inside.repository_root`; without one, the file's own
  folder only); and a kustomization leaves out only files in or below its own folder, as kustomize reads
  no other (:func:`~ascend_compile.files.kustomize.listed`).  A folder above the repository, or a kustomization in
  ``docs/`` naming ``../manifests/job.yaml``, cannot hide a manifest.
* A walk does not follow a linked folder (a symlink to a directory): what it holds may be outside the
  paths given (``manifests/ext -> ../../outside``), and ``--fix`` must not reach there.  A note (AC015,
  info) names each; name its target (or the folder, when the link stays inside the repository) to read it.
  Nor does it follow a linked file that leads out of the repository the link sits in (``k8s/x.yaml ->
  ~/.kube/config``: its text would reach findings and diffs): the same note names it; a linked file that stays
  inside is read.
* A path named on the command line that reaches through a link, at any component, leading out of the
  repository the link sits in is refused (AC001, exit code 2; :func:`~ascend_compile.safeio.inside.check_inside`),
  naming the link.  The rule is about links: a path outside any repository, named as it is, is read.
* ``-`` means standard input (at most once).
* Missing paths, unreadable directories, broken symlinks and symlink loops
  become input-error Findings (rule AC001, exit code 2); the other inputs are
  still checked.

The order is deterministic: command-line order, and sorted names inside each
directory.  A file reached twice (e.g. through two arguments) is read once.

:func:`read_documents` discovers and reads in one step (what ``compile`` and ``import`` read).
"""
from __future__ import annotations

import fnmatch
import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ..catalogue import (HELM_CHART_SKIPPED, INPUT_ERROR, KUSTOMIZE_PART_NOT_CHECKED, KUSTOMIZE_PART_SKIPPED,
                         NOT_A_MANIFEST)
from ..findings import ERROR, INFO, WARNING, Finding
from .kustomize import KUSTOMIZATION_FILES, Kustomizations
from .links import add_link, link_problem, linked_folder, reaches_out

STDIN = "-"
DEFAULT_INCLUDE: Tuple[str, ...] = ("*.yaml", "*.yml")


class Discovery:
    """The inputs to read, and the problems met finding them."""

    __slots__ = ("paths", "findings", "named")

    def __init__(self) -> None:
        self.paths: List[str] = []
        self.findings: List[Finding] = []
        self.named: Set[str] = set()  # the paths named on the command line (the others were found by a walk)

    def walked(self) -> Set[str]:
        """The display names of the files found by walking a folder (see :func:`no_manifest_in`)."""
        from ..yamlio.reading import display_name

        return {display_name(path) for path in self.paths if path not in self.named}

    def left_out(self) -> List[Finding]:
        """The notes of the files and folders left out on purpose (a Helm chart, kustomize's files): a run of
        nothing else read nothing by mistake, whether or not its settings silence the notes.  (A linked folder
        the walk did not follow is not among them: a run that read nothing else read nothing.)"""
        return [finding for finding in self.findings
                if finding.rule in (HELM_CHART_SKIPPED, KUSTOMIZE_PART_SKIPPED, KUSTOMIZE_PART_NOT_CHECKED)]


def _error(path: str, message: str, hint: str = "") -> Finding:
    return Finding(rule=INPUT_ERROR, severity=ERROR, message=message, hint=hint, file=path, input_error=True)


def _matches(name: str, relative: str, globs: Sequence[str]) -> bool:
    for glob in globs:
        for form in _forms(glob):
            if fnmatch.fnmatchcase(name, form) or fnmatch.fnmatchcase(relative, form):
                return True
            # "dir/" or "dir/**" style globs also exclude everything below dir.
            stripped = form.rstrip("/")
            if stripped.endswith("/**"):
                stripped = stripped[:-3]
            if stripped and stripped != form and (fnmatch.fnmatchcase(relative, stripped)
                                                  or relative.startswith(stripped + "/")):
                return True
    return False


def _forms(glob: str) -> Tuple[str, ...]:
    """``glob``, and without its leading ``**/`` (which matches no folder too, as in .gitignore)."""
    return (glob, glob[3:]) if glob.startswith("**/") and len(glob) > 3 else (glob,)


def discover(args: Iterable[str], include: Sequence[str] = (), exclude: Sequence[str] = ()) -> Discovery:
    """Expand ``args`` (files, directories, ``-``) into readable input paths."""
    include = tuple(include) or DEFAULT_INCLUDE
    exclude = tuple(exclude)
    result = Discovery()
    seen: Dict[str, str] = {}  # the real path of each file added -> the path it was added under

    reals: List[str] = []  # the real path of each of result.paths
    kustomizations = Kustomizations()

    def add(path: str, real: str = "") -> str:
        """Add ``path`` unless its file is in already; return the path its file is read under."""
        key = real or (os.path.realpath(path) if path != STDIN else STDIN)
        if key not in seen:
            seen[key] = path
            result.paths.append(path)
            reals.append(key)
        return seen[key]

    for arg in args:
        if arg == STDIN:
            add(STDIN)
            result.named.add(STDIN)
            continue
        if reaches_out(arg, result.findings):
            continue
        if os.path.islink(arg) and not os.path.exists(arg):
            result.findings.append(_error(arg, link_problem(arg), "fix or remove the symlink"))
            continue
        if not os.path.exists(arg):
            result.findings.append(_error(arg, "no such file or directory", "check the path"))
            continue
        if os.path.isdir(arg):
            chart = _templates_of_chart(arg)
            if chart:
                result.findings.append(_skipped(arg, HELM_CHART_SKIPPED, f"is in the templates of the Helm chart "
                                                f"{chart} (it has Chart.yaml): they become manifests only when "
                                                "rendered, so none of its files were read",
                                                "helm template RELEASE", chart))
                continue
            kustomizations.read_upward(arg)
            _walk(arg, _rooted(include, arg), _rooted(exclude, arg), add, result.findings, kustomizations)
        elif os.path.basename(arg) in KUSTOMIZATION_FILES:
            result.findings.append(_build_file(arg))
        else:
            kustomizations.read_upward(os.path.dirname(arg) or ".")
            result.named.add(add(arg))  # a file a walk found first is named all the same
    if kustomizations.parts:
        _leave_out_parts(result, reals, kustomizations.merged_in())
    if not result.paths and not result.left_out():
        # nothing to read but kustomization files: say so, as for a named one (the run read nothing on purpose)
        result.findings.extend(_build_file(path) for path in kustomizations.walked_files)
    return result


def _rooted(globs: Sequence[str], root: str) -> Sequence[str]:
    """``globs`` as the walk of ``root`` matches them (relative to ``root``), with those written from here or as
    absolute paths as well: ``k8s/legacy/**`` for a walk of ``k8s/`` is ``legacy/**`` (``./`` is dropped)."""
    if globs is DEFAULT_INCLUDE:
        return globs
    base = os.path.abspath(root).replace(os.sep, "/").rstrip("/") + "/"
    out: List[str] = []
    for glob in globs:
        out.append(glob[2:] if glob.startswith("./") else glob)
        full = os.path.abspath(glob).replace(os.sep, "/")  # from here, or absolute
        if full.startswith(base) and len(full) > len(base):
            out.append(full[len(base):])
    return tuple(dict.fromkeys(out))


def _templates_of_chart(folder: str) -> str:
    """The Helm chart whose ``templates/`` holds ``folder`` (the nearest folder above with Chart.yaml, written as
    ``folder`` is), or "": a walk from a chart's root does not read it, nor does one from inside it."""
    for path in dict.fromkeys((os.path.abspath(folder), os.path.realpath(folder))):  # a symlinked folder has both
        below, above = "", path
        while os.path.dirname(above) != above:
            below, above = os.path.join(os.path.basename(above), below), os.path.dirname(above)
            if os.path.isfile(os.path.join(above, HELM_CHART_FILE)):
                if below.split(os.sep, 1)[0] != "templates":
                    break  # in a chart, but not in its templates (crds/, ci/): plain YAML
                return above if os.path.isabs(folder) else os.path.relpath(above)
    return ""


def _build_file(path: str) -> Finding:
    return _skipped(path, KUSTOMIZE_PART_SKIPPED, "is kustomize's build file, not an object to apply, so it was "
                    "not linted", "kubectl kustomize", path)


def _leave_out_parts(result: Discovery, reals: List[str], parts_of: Dict[str, str]) -> None:
    kept = []
    for path, real in zip(result.paths, reals):
        kustomization = parts_of.get(real)
        if kustomization is None:
            kept.append(path)
        else:
            result.findings.append(_skipped(path, KUSTOMIZE_PART_NOT_CHECKED, f"was NOT CHECKED: {kustomization} "
                                            "merges it into objects or reads it (a patch, a generator's input, "
                                            "a transformer configuration), so it was not linted as a whole "
                                            "object", "kubectl kustomize", kustomization))
    result.paths = kept


HELM_CHART_FILE = "Chart.yaml"


def no_manifest_in(findings: Sequence[Finding], objects_seen: bool) -> bool:
    """Whether a file a walk found holds no manifest: no document has apiVersion or kind (``objects_seen``
    says whether one had), and its only findings say so (AC107).  Such a file is a tool's configuration
    (docker-compose.yml, mkdocs.yml, an Ansible playbook); its findings become one note (AC009)."""
    from ..schemacheck.messages import says_no_object

    return not objects_seen and bool(findings) and all(says_no_object(f.rule, f.message) for f in findings)


def not_a_manifest(path: str) -> Finding:
    """The note that replaces the findings of a walked file that holds no manifest (see :func:`no_manifest_in`)."""
    return Finding(rule=NOT_A_MANIFEST, severity=INFO, file=path,
                   message="holds no Kubernetes object (no document has apiVersion or kind), so it was not "
                           "linted: found by walking a folder, it is taken for another tool's YAML",
                   hint="to check it as a manifest, name it on the command line; to drop this note, --exclude it "
                        "(or --disable AC009: every such note)")


def _skipped(path: str, rule: str, message: str, renderer: str, source: str) -> Finding:
    """A note that discovery left ``path`` out; the hint lints what ``renderer`` makes of ``source``'s folder."""
    folder = source if rule == HELM_CHART_SKIPPED else os.path.dirname(source) or "."
    return Finding(rule=rule, severity=WARNING if rule == KUSTOMIZE_PART_NOT_CHECKED else INFO, file=path,
                   message=message,
                   hint=f"lint what it {'renders' if rule == HELM_CHART_SKIPPED else 'builds'}: {renderer} {folder} "
                        f"{_LINT_PIPE}")


_LINT_PIPE = "| ascend-compile lint -"


def for_command(note: Finding, command: str) -> Finding:
    """A note of what was left out, with a hint that pipes what the chart renders or the kustomization builds into
    ``command`` (import), not into lint."""
    from dataclasses import replace

    if not (note.hint.startswith("lint ") and note.hint.endswith(_LINT_PIPE)):
        return note
    return replace(note, hint=f"{command}{note.hint[4:-len(_LINT_PIPE)]}| ascend-compile {command} -")


def _relative(path: str, root: str, prefix: str) -> str:
    """``os.path.relpath(path, root)`` with ``/``: for a path the walk made (``prefix`` and names), the rest of it."""
    if path.startswith(prefix):
        return path[len(prefix):].replace(os.sep, "/")
    return os.path.relpath(path, root).replace(os.sep, "/")


def _included(name: str, relative: str, include: Sequence[str]) -> bool:
    if include is DEFAULT_INCLUDE:  # "*.yaml", "*.yml": the name's suffix (the relative path ends with the name)
        return name.endswith((".yaml", ".yml"))
    return _matches(name, relative, include)


def _wanted(name: str, relative: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    """Whether a walk reads a file of this name: included, not excluded, no dotfile (``.gitlab-ci.yml``
    configures a tool)."""
    return not name.startswith(".") and _included(name, relative, include) and not (
        exclude and _matches(name, relative, exclude))


def _helm_chart_or_kustomization(directory: str, entries: List[Any], findings: List[Finding],
                                 kustomizations: Kustomizations) -> bool:
    """Whether ``directory`` is a Helm chart (not to be walked: a note says so); a kustomization's parts are noted."""
    if any(entry.name == HELM_CHART_FILE and entry.is_file() for entry in entries):
        findings.append(_skipped(directory, HELM_CHART_SKIPPED, "is a Helm chart (it has Chart.yaml): its templates "
                                 "become manifests only when rendered, so none of its files were read",
                                 "helm template RELEASE", directory))
        return True
    if any(entry.name in KUSTOMIZATION_FILES for entry in entries):
        kustomizations.read_folder(directory, [entry.name for entry in entries if entry.is_file()])
    return False


def _walk(root: str, include: Sequence[str], exclude: Sequence[str], add: Callable[..., str], findings: List[Finding],
          kustomizations: Kustomizations) -> None:
    visited: Set[str] = set()
    real_root = os.path.realpath(root)
    visited.add(real_root)
    prefix = root if root.endswith(os.sep) else root + os.sep  # what scandir puts before the names below root
    # Iterative depth-first walk in sorted order; a symlinked directory is not followed (a note says so): it may
    # lead out of the paths given, or back into them.
    stack: List[str] = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except PermissionError:
            findings.append(_error(directory, "permission denied: cannot list this directory",
                                   "make it readable or exclude it"))
            continue
        except OSError as exc:
            findings.append(_error(directory, f"cannot list this directory: {exc.strerror or exc}"))
            continue
        if _helm_chart_or_kustomization(directory, entries, findings, kustomizations):
            continue
        subdirs: List[str] = []
        here = ""  # the directory's real path, when first needed
        for entry in entries:
            path = entry.path
            relative = _relative(path, root, prefix)
            try:
                is_dir = entry.is_dir()  # follows symlinks
            except OSError:
                is_dir = False
            if entry.is_symlink() and not os.path.exists(path):  # broken: an error if the walk would read its file
                if _wanted(entry.name, relative, include, exclude):
                    findings.append(_error(path, link_problem(path), "fix or remove the symlink, or exclude it"))
                continue
            if is_dir:
                if entry.name.startswith(".") or _matches(entry.name, relative, exclude):
                    continue
                if entry.is_symlink():
                    findings.append(linked_folder(path))
                    continue
                here = here or os.path.realpath(directory)
                real = os.path.join(here, entry.name)
                if real in visited:
                    continue  # the same directory reached twice (through two arguments): read it once
                visited.add(real)
                subdirs.append(path)
                continue
            if entry.name in KUSTOMIZATION_FILES:  # kustomize's build file: no object to apply
                if not (exclude and _matches(entry.name, relative, exclude)):
                    kustomizations.walked_files.append(path)
            elif _wanted(entry.name, relative, include, exclude):
                if entry.is_symlink():
                    add_link(path, add, findings)
                else:  # the real path of a file that is no link: its directory's, and its name
                    here = here or os.path.realpath(directory)
                    add(path, os.path.join(here, entry.name))
        stack.extend(reversed(subdirs))


def read_documents(paths: Sequence[str], max_bytes: int = 0, left_out: Optional[List[Finding]] = None) -> List[Any]:
    """The YAML documents of ``paths`` (files, directories searched for YAML, ``-``); every input error is
    collected before one :class:`~ascend_compile.errors.InputError` is raised.  ``max_bytes``: the size
    limit (0: the default); ``left_out``, when given, receives the notes of what was left out on purpose
    (:meth:`Discovery.left_out`): a caller that finds nothing to do says why."""
    from ..errors import InputError
    from ..yamlio.common import AliasBudget, DEFAULT_MAX_BYTES
    from ..yamlio.parsing import load_documents
    from ..yamlio.reading import display_name, read_text

    found = discover(paths)
    budget = AliasBudget()  # one for the run: aliases in many files cannot add up past it
    if left_out is not None:
        left_out.extend(found.left_out())
    docs: List[Any] = []
    problems: List[Finding] = [finding for finding in found.findings if finding.input_error]
    for path in found.paths:
        try:
            docs.extend(load_documents(read_text(path, max_bytes or DEFAULT_MAX_BYTES), display_name(path), budget))
        except InputError as exc:
            problems.extend(exc.findings)
    if problems:
        raise InputError(problems)
    return docs
