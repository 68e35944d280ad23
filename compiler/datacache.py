"""Where ascend-compile caches, and its start-up cache: data read on every run, kept in checked form.

The cache root is ``$ASCEND_COMPILE_CACHE_DIR``, else ``${XDG_CACHE_HOME:-~/.cache}/ascend-compile``.
The lint result cache lives under it (:mod:`ascend_compile.lint.cache`), and so does this one: every
run reads the hardware profiles (14 YAML files, each checked against the profile schema: about 3 ms of
a 60 ms lint of one file), so the checked data of each profile file is kept, under the digest of the
file's text, in ``<root>/startup/<version>-<key>/<name>.marshal``.  The key is this version and the size and
modification time of every module that reads and checks the files, and of the profile schema: a
new version, or a change to that code, starts a new cache, and a changed file is read again.  The
built-in JSON schemas are kept the same way (``schema-<file>.marshal``, keyed by the size and
modification time of every schema file): unmarshalling is cheaper than parsing JSON, and ``json``
is then never imported on the lint path.

Like Python's bytecode cache it is used whatever the command line says; it is safe to delete, it is
never trusted across versions, and anything unexpected in it (or a directory that other users may
write) makes it step aside: the run is the same, only slower.

Each key's directory is named ``<version>-<key>`` (:func:`key_directory`).  A run that writes to the
cache removes the key directories beside it that another version wrote and no run has written to for
a week (:func:`prune_other_versions`): no version reads another's, so they would only grow the
folder, but two versions in use on one machine (pre-commit's and the project's, say) keep theirs.
Directories of this version under other keys (another project config, changed code) stay.
"""
from __future__ import annotations

import marshal
import os
from typing import Any, Dict, Optional, Sequence

FORMAT = 1

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


def usable(directory: str, create: bool) -> bool:
    """The directory exists (or was made) and only we can write it: what is read from it is ours."""
    try:
        if create:
            os.makedirs(directory, mode=0o700, exist_ok=True)
        info = os.stat(directory)
    except OSError:
        return False
    owner = getattr(os, "getuid", lambda: info.st_uid)()
    return info.st_uid == owner and not info.st_mode & 0o022


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
    import shutil
    import time

    from ._version import __version__

    if not usable(parent, create=False):
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
            if entry.is_symlink() or not entry.is_dir(follow_symlinks=False) or not usable(entry.path, create=False) \
                    or entry.stat(follow_symlinks=False).st_mtime > unused_since:
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)


class Store:
    """Checked data of files, by the digest of their text: one marshal file, written when it changed."""

    def __init__(self, name: str, code: Sequence[str]):
        self._path = os.path.join(key_directory(os.path.join(default_root(), "startup"), _key(code)), f"{name}.marshal")
        self._entries: Optional[Dict[str, Any]] = None
        self._changed = False

    def get(self, text_digest: str) -> Any:
        if self._entries is None:
            self._entries = _read(self._path)
        return self._entries.get(text_digest)

    def put(self, text_digest: str, data: Any) -> None:
        try:
            marshal.dumps(data)
        except ValueError:
            return  # something marshal cannot hold (a date, say): read it every time
        if self._entries is None:
            self._entries = _read(self._path)
        self._entries[text_digest] = data
        self._changed = True

    def save(self) -> None:
        if not self._changed or self._entries is None:
            return
        if not usable(os.path.dirname(self._path), create=True):
            return
        prune_other_versions(os.path.dirname(os.path.dirname(self._path)))
        temporary = f"{self._path}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as handle:
                handle.write(marshal.dumps((FORMAT, self._entries)))
            os.replace(temporary, self._path)
        except OSError:
            try:
                os.unlink(temporary)
            except OSError:
                pass
        self._changed = False


def _key(code: Sequence[str]) -> str:
    """This version, and the size and modification time of the files the cached data depends on."""
    from ._version import __version__

    parts = [__version__]
    for path in code:
        try:
            info = os.stat(path)
            parts.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
        except OSError:
            parts.append(f"{path}:missing")
    return digest("\n".join(parts).encode("utf-8", "surrogatepass"))


def _read(path: str) -> Dict[str, Any]:
    if not usable(os.path.dirname(path), create=False):
        return {}
    try:
        with open(path, "rb") as handle:
            loaded = marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if isinstance(loaded, tuple) and len(loaded) == 2 and loaded[0] == FORMAT and isinstance(loaded[1], dict):
        return loaded[1]
    return {}
