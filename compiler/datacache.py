"""Where ascend-compile caches, and its start-up cache: data read on every run, kept in checked form.

The cache root is ``$ASCEND_COMPILE_CACHE_DIR``, else ``${XDG_CACHE_HOME:-~/.cache}/ascend-compile``.
The lint result cache lives under it (:mod:`ascend_compile.lint.cache`), and so does this one: every
run reads the hardware profiles (14 YAML files, each checked against the profile schema: about 3 ms of
a 60 ms lint of one file), so the checked data of each profile file is kept, under the digest of the
file's text, in ``<root>/startup/<version>-<key>/<name>.marshal``.  The key is this version, the content of
every module that reads and checks the files and of the profile schema, and the Python and PyYAML that run
(:func:`environment`): a new version, a change to that code, another interpreter or YAML library build starts
a new cache, and a changed file is read again.  The built-in JSON schemas are kept the same way
(``schema-<file>.marshal``, keyed by the content of every schema file): unmarshalling is cheaper than parsing
JSON, and ``json`` is then never imported on the lint path.  ``lint --no-cache`` bypasses it (:func:`set_choice`).

A cache can be wrong only by being absent.  Every cache file records its full key (its key directory and
its own name) and is used only under that key: a key folder swapped for another's, or a file moved, is
ignored.  Every folder from the cache root down to the file must be a real folder (no link), ours and
writable by no one else (:func:`usable`).  A cache file is read only when it is a regular file under
:data:`MAX_FILE_BYTES` (no link followed, no FIFO waited on: :mod:`.safeio.read`), and anything unexpected in
it makes it step aside: the run is the same, only slower.  (What a process running as the same user writes
there cannot be told from what this tool wrote: keep the cache root where only you write.)  In CI, where other
pipelines may run as the same user (a runner's shared home folder, a CI cache restored on another branch), no cache
is read or written unless the run asks for it (``lint --cache``): see :func:`bypassed` and docs/ci.md.  The digests of
code files are kept by their path and ``lstat`` identity (device, inode, size, modification and change
time: the change time cannot be set back), so that a run hashes only what changed (:func:`content_digests`).

Each key's directory is named ``<version>-<key>`` (:func:`key_directory`).  A run that writes to the
cache removes the key directories beside it that another version wrote and no run has written to for
a week (:func:`prune_other_versions`): no version reads another's, so they would only grow the
folder, but two versions in use on one machine (pre-commit's and the project's, say) keep theirs.
Directories of this version under other keys (another project config, changed code) stay.
"""
from __future__ import annotations

import marshal
import os
import stat
import sys
from typing import Any, Dict, List, Optional, Sequence

FORMAT = 2
#: the largest cache file read (a lint shard of 2,000 results is a few MB)
MAX_FILE_BYTES = 64 << 20
#: ``lint --cache`` (True), ``--no-cache`` (False), or neither (None: the environment decides, :func:`bypassed`)
_CHOICE: Optional[bool] = None
#: the values of ``$CI`` that say this is not CI
_NOT_CI = ("", "0", "false", "no")

try:  # the C module: importing hashlib would load OpenSSL first, a few ms at start-up
    from _blake2 import blake2b  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - every CPython has it
    from hashlib import blake2b


def default_root() -> str:
    """``$ASCEND_COMPILE_CACHE_DIR``, else ``${XDG_CACHE_HOME:-~/.cache}/ascend-compile``."""
    explicit = os.environ.get("ASCEND_COMPILE_CACHE_DIR")
    if explicit:
        return explicit
    xdg = os.environ.get("XDG_CACHE_HOME")
    return os.path.join(xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache"), "ascend-compile")


def set_choice(use: Optional[bool]) -> None:
    """Use the caches in this process from now on (True: ``lint --cache``), use none (False: ``--no-cache``), or let
    the environment decide (None): each lint run sets it and sets it back to None, so a run in the same process
    (the Python API, tests) does not inherit an earlier run's flag."""
    global _CHOICE
    _CHOICE = use


def in_ci() -> bool:
    """Whether this runs in CI: ``$CI`` is set to anything but "", "0", "false" or "no" (GitHub Actions, GitLab CI
    and most others set ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() not in _NOT_CI


def bypassed() -> bool:
    """Whether no cache is read or written now: ``--no-cache``, or in CI (:func:`in_ci`) without ``--cache``.

    In CI other pipelines may run as the same user: one that shares the runner's home folder, or one whose CI cache
    is restored on a protected branch.  What they write in the cache cannot be told from what this tool wrote, and
    a result or schema entry that says "clean" would make a changed file pass; so there no cache is used unless
    the run asks for it (docs/ci.md says how to keep that cache its own: a key per branch)."""
    return not _CHOICE if _CHOICE is not None else in_ci()


def usable(directory: str, create: bool, root: Optional[str] = None) -> bool:
    """The directory exists (or was made) and only we can write it, nor any folder between it and the cache
    ``root`` (default: :func:`default_root`), none of them a link: what is read from it is ours."""
    if bypassed():
        return False
    root = os.path.abspath(root or default_root())
    directory = os.path.abspath(directory)
    if directory != root and not directory.startswith(root.rstrip(os.sep) + os.sep):
        return False
    try:
        if create:
            os.makedirs(directory, mode=0o700, exist_ok=True)
        folders = [root]
        for part in directory[len(root):].split(os.sep):
            if part:
                folders.append(os.path.join(folders[-1], part))
        infos = [os.stat(root)] + [os.lstat(folder) for folder in folders[1:]]  # the root may be a link you made
    except OSError:
        return False
    owner = getattr(os, "getuid", lambda: infos[0].st_uid)()
    return all(stat.S_ISDIR(info.st_mode) and info.st_uid == owner and not info.st_mode & 0o022 for info in infos)


def read_file(path: str, key: str, root: Optional[str] = None) -> Optional[Dict[Any, Any]]:
    """The entries of the cache file ``path`` written under ``key``; None when it is missing or anything in it
    is unexpected (another key, a link, a FIFO, too large, not our format)."""
    if not usable(os.path.dirname(path), create=False, root=root):
        return None
    from .safeio.read import read_regular_bytes

    data, _why = read_regular_bytes(path, MAX_FILE_BYTES)
    if data is None:
        return None
    try:
        loaded = marshal.loads(data)
    except Exception:  # noqa: BLE001 - whatever is in the file, it is not ours: not cached
        return None
    if type(loaded) is tuple and len(loaded) == 3 and loaded[0] == FORMAT and loaded[1] == _full_key(path, key) \
            and type(loaded[2]) is dict:
        return loaded[2]
    return None


def write_file(path: str, key: str, entries: Dict[Any, Any], root: Optional[str] = None) -> None:
    """Write the cache file ``path`` (its folder made, ours) with ``entries`` under ``key``; any error: not written.
    The data goes into a temporary file of a random name created exclusively, never through a link, renamed
    over ``path`` (a rename replaces a link, not what it points to)."""
    if not usable(os.path.dirname(path), create=True, root=root):
        return
    temporary = f"{path}.{os.urandom(8).hex()}.tmp"
    try:
        data = marshal.dumps((FORMAT, _full_key(path, key), entries))
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except (OSError, ValueError):
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _full_key(path: str, key: str) -> str:
    """What a cache file records: its key, its key directory's name and its own name."""
    return f"{key}\n{os.path.basename(os.path.dirname(path))}/{os.path.basename(path)}"


def digest(data: bytes) -> str:
    text: str = blake2b(data, digest_size=20).hexdigest()
    return text


def key_directory(parent: str, key: str) -> str:
    """The directory of one cache key under ``parent``, named after the version that writes it."""
    from ._version import __version__

    return os.path.join(parent, f"{__version__}-{key}")


#: the name of a key directory: ``<version>-<40 hex digits>``, or the bare digest of the earlier layout
_KEY_NAME = r"(?:(.+)-)?[0-9a-f]{40}"


#: another version's key directory is removed once no run has written to it for this long (a cache in use
#: is written at least daily: the lint cache writes a used entry's time again once it is a day old)
UNUSED_SECONDS = 7 * 24 * 3600


def prune_other_versions(parent: str) -> None:
    """Remove the key directories in ``parent`` that another version of the tool wrote and no run has
    written to (their modification time) for :data:`UNUSED_SECONDS`.

    Only ours: ``parent`` and each directory must be ours and writable by no one else (:func:`usable`),
    named as :func:`key_directory` names them (or a bare digest, as earlier versions did), and not a
    symbolic link; nothing else in ``parent`` is touched, and any error leaves the rest as it is.
    """
    import re
    import time

    from ._version import __version__

    if not usable(parent, create=False, root=os.path.dirname(parent)):
        return
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    unused_since = time.time() - UNUSED_SECONDS
    for entry in entries:
        match = re.fullmatch(_KEY_NAME, entry.name)
        if match is None or match.group(1) == __version__:
            continue
        try:
            if entry.is_symlink() or not entry.is_dir(follow_symlinks=False) \
                    or not usable(entry.path, create=False, root=os.path.dirname(parent)) \
                    or entry.stat(follow_symlinks=False).st_mtime > unused_since:
                continue
        except OSError:
            continue
        import shutil  # only here: a run that removes nothing need not import it (nor bz2 and lzma with it)

        shutil.rmtree(entry.path, ignore_errors=True)


class Store:
    """Checked data of files, by the digest of their text: one marshal file, written when it changed."""

    def __init__(self, name: str, code: Sequence[str]):
        self._key = _key(code)
        self._path = os.path.join(key_directory(os.path.join(default_root(), "startup"), self._key), f"{name}.marshal")
        self._entries: Optional[Dict[str, Any]] = None
        self._changed = False

    def get(self, text_digest: str) -> Any:
        if self._entries is None:
            self._entries = read_file(self._path, self._key) or {}
        return self._entries.get(text_digest)

    def put(self, text_digest: str, data: Any) -> None:
        try:
            marshal.dumps(data)
        except ValueError:
            return  # something marshal cannot hold (a date, say): read it every time
        if self._entries is None:
            self._entries = read_file(self._path, self._key) or {}
        self._entries[text_digest] = data
        self._changed = True

    def save(self) -> None:
        if not self._changed or self._entries is None or bypassed():
            return
        folder = os.path.dirname(self._path)
        if usable(folder, create=True):
            prune_other_versions(os.path.dirname(folder))
            write_file(self._path, self._key, self._entries)
        self._changed = False


def _key(code: Sequence[str]) -> str:
    """This version, the content of the files the cached data depends on, and the interpreter and YAML library."""
    from ._version import __version__

    parts = [__version__, environment()]
    parts.extend(f"{path}:{found}" for path, found in zip(code, content_digests(code)))
    return digest("\n".join(parts).encode("utf-8", "surrogatepass"))


def environment() -> str:
    """Python's version and build, and PyYAML's (the content of its package: version, and whether and how its C
    loader is built): results depend on how the YAML library reads and how the interpreter computes."""
    import importlib.util

    parts = [sys.version, sys.implementation.cache_tag or ""]
    try:
        spec = importlib.util.find_spec("yaml")
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    for folder in folders:
        try:
            names = sorted(name for name in os.listdir(folder) if name.endswith((".py", ".so", ".pyd")))
        except OSError:
            names = []
        paths = [os.path.join(folder, name) for name in names]
        parts.extend(f"{name}:{found}" for name, found in zip(names, content_digests(paths)))
    return "\n".join(parts)


#: path -> ((device, inode, size, mtime, ctime), digest of its content): filled by content_digests
_DIGESTS: Dict[str, Any] = {}
_DIGESTS_LOADED = [False]


def content_digests(paths: Sequence[str]) -> List[str]:
    """The digest of each file's content ("missing" when it cannot be read), hashing only the files whose
    ``lstat`` identity changed since a run recorded their digest (kept in ``<root>/startup/digests.marshal``)."""
    path_of_memo = os.path.join(default_root(), "startup", "digests.marshal")
    if not _DIGESTS_LOADED[0]:
        _DIGESTS_LOADED[0] = True
        _DIGESTS.update(read_file(path_of_memo, "digests") or {})
    out: List[str] = []
    changed = False
    for path in paths:
        try:
            info = os.stat(path)
            identity = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        except OSError:
            out.append("missing")
            continue
        known = _DIGESTS.get(path)
        if type(known) is tuple and len(known) == 2 and known[0] == identity and type(known[1]) is str:
            out.append(known[1])
            continue
        try:
            with open(path, "rb") as handle:
                found = digest(handle.read())
        except OSError:
            out.append("missing")
            continue
        _DIGESTS[path] = (identity, found)
        out.append(found)
        changed = True
    if changed and not bypassed() and len(_DIGESTS) < 4096:
        write_file(path_of_memo, "digests", dict(_DIGESTS))
    return out
