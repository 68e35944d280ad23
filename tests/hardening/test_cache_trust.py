"""The caches can be wrong only by being absent (issue 31, M2).

With the cache root in a shared place a second user swapped two key folders and a dirty file was reported
clean; with write access (the same user, a restored CI cache) malformed entries gave exit 3, a FIFO shard hung
lint, and a shard linked to /dev/zero read until memory ran out.  Each shard now records its full key, folders
are checked up to the cache root with lstat, shards are read as bounded regular files, and an entry of the
wrong shape is not cached.  ``--no-cache`` bypasses every cache, the start-up cache too.
"""
from __future__ import annotations

import marshal
import os
from pathlib import Path

import pytest

from tests.hardening.helpers import CONFIGMAP_BAD_FIELD, assert_clean, cli, lint_cache_shards as _shards, output, \
    poison_clean as _poison_clean, write


def _lint(path: Path, cache: Path, *args: str, **kwargs):
    return cli("lint", *args, str(path), env={"ASCEND_COMPILE_CACHE_DIR": str(cache), "NO_COLOR": "1"}, **kwargs)


def _key_dirs(cache: Path) -> list:
    return sorted(p for p in (cache / "lint").iterdir() if p.is_dir())


@pytest.fixture
def dirty(tmp_path: Path) -> Path:
    return write(tmp_path / "work" / "cm.yaml", CONFIGMAP_BAD_FIELD)


def _warm(dirty: Path, cache: Path) -> None:
    assert_clean(_lint(dirty, cache), (1,), "bogus", "[AC101]")
    assert _shards(cache), "the result cache was not written"


def test_swapped_key_folders_are_not_trusted(dirty: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _warm(dirty, cache)
    assert_clean(_lint(dirty, cache, "--disable", "AC101"), (0,))  # a second key: the same file is clean there
    first, second = _key_dirs(cache)
    os.rename(first, tmp_path / "swap")
    os.rename(second, first)
    os.rename(tmp_path / "swap", second)
    assert_clean(_lint(dirty, cache), (1,), "bogus", "[AC101]")
    assert_clean(_lint(dirty, cache, "--disable", "AC101"), (0,))


def test_a_linked_key_folder_is_not_trusted(dirty: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _warm(dirty, cache)
    assert_clean(_lint(dirty, cache, "--disable", "AC101"), (0,))
    first, second = _key_dirs(cache)
    # whichever folder is the dirty file's key, a link to the other one (the clean answer) in its place
    for victim, other in ((first, second), (second, first)):
        saved = tmp_path / "saved"
        os.rename(victim, saved)
        os.symlink(other, victim)
        assert_clean(_lint(dirty, cache), (1,), "bogus", "[AC101]")
        os.unlink(victim)
        os.rename(saved, victim)


@pytest.mark.parametrize("damage", ["truncated", "not marshal", "wrong shape", "wrong types", "poisoned finding"])
def test_a_malformed_shard_or_entry_is_not_cached_never_exit_3(dirty: Path, tmp_path: Path, damage: str) -> None:
    cache = tmp_path / "cache"
    _warm(dirty, cache)
    for shard in _shards(cache):
        data = shard.read_bytes()
        loaded = marshal.loads(data)
        entries = loaded[-1]
        if damage == "truncated":
            new = data[: len(data) // 2]
        elif damage == "not marshal":
            new = b"\xff" * 64
        elif damage == "wrong shape":
            new = marshal.dumps(loaded[:-1] + ({digest: (1, ("x",)) for digest in entries},))
        elif damage == "wrong types":
            bad = {digest: (when, ((("AC101", "error", "m", ("a",), "", "7", 0, "", False, ()),),) + entry[1:])
                   for digest, (when, entry) in entries.items()}
            new = marshal.dumps(loaded[:-1] + (bad,))
        else:  # an entry that crashes whatever reads it: a severity and a rule that do not exist
            bad = {digest: (when, ((("AC999", "fatal", "m", (), "", 1, 1, "", False, ()),),) + entry[1:])
                   for digest, (when, entry) in entries.items()}
            new = marshal.dumps(loaded[:-1] + (bad,))
        shard.write_bytes(new)
    proc = _lint(dirty, cache)
    assert_clean(proc, (1,), "bogus", "[AC101]")
    assert "AC999" not in output(proc)


def test_a_fifo_shard_does_not_hang_lint(dirty: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _warm(dirty, cache)
    for shard in _shards(cache):
        shard.unlink()
        os.mkfifo(shard)
    assert_clean(_lint(dirty, cache, timeout=30), (1,), "bogus", "[AC101]")


def test_a_shard_linked_to_dev_zero_is_not_read(dirty: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _warm(dirty, cache)
    for shard in _shards(cache):
        shard.unlink()
        os.symlink("/dev/zero", shard)
    assert_clean(_lint(dirty, cache, timeout=60, memory=512 * 1024 ** 2), (1,), "bogus", "[AC101]")


def test_a_folder_others_may_write_between_the_root_and_the_shard_is_not_trusted(dirty: Path, tmp_path: Path) -> None:
    """Only the key folder's own mode was checked: a shard under a world-writable lint/ was trusted."""
    cache = tmp_path / "cache"
    _warm(dirty, cache)
    _poison_clean(cache)  # what anyone who may write lint/ could do: a clean answer for the dirty file
    # (while every folder is ours the entry is ours too: the cache cannot tell our own writes from a forgery)
    assert "AC101" not in output(_lint(dirty, cache)), "the poisoned entry is read while the folders are ours"
    os.chmod(cache / "lint", 0o777)
    assert_clean(_lint(dirty, cache), (1,), "bogus", "[AC101]")


def test_no_cache_bypasses_every_cache_the_start_up_cache_too(dirty: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert_clean(_lint(dirty, cache, "--no-cache"), (1,), "bogus")
    assert not cache.exists() or not any(cache.rglob("*")), sorted(cache.rglob("*"))
