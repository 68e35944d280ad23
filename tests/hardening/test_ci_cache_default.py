"""In CI no cache is used unless the run asks for it (issue 43, M3).

A cache entry written by the same user cannot be told from one the tool wrote: another pipeline on a runner whose
home folder is shared, or a CI cache restored on another branch, could write a lint result (or a checked schema of
the start-up cache) saying "clean" for a dirty file's text, and the protected branch's run would pass it.  Under
``CI`` (set to anything but false, as CI services set it) lint, validate and compile read and write no cache;
``lint --cache`` is the explicit opt-in (docs/ci.md: with a cache key per branch), and it still uses the cache.
"""
from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from tests.hardening.helpers import (CONFIGMAP_BAD_FIELD, EXAMPLE_SPEC, assert_clean, cli, lint_cache_shards,
                                     output, poison_clean, write)

DIRTY = ("bogus", "[AC101]")


def _run(command: str, path: Path, cache: Path, *args: str, ci: str = ""):
    env = {"ASCEND_COMPILE_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    if ci:
        env["CI"] = ci
    return cli(command, *args, str(path), env=env)


@pytest.fixture
def dirty(tmp_path: Path) -> Path:
    return write(tmp_path / "work" / "cm.yaml", CONFIGMAP_BAD_FIELD)


def _poison_schemas(cache: Path) -> None:
    """Make each checked schema of the start-up cache accept anything (the index of kinds kept), as it is written."""
    stores = [path for path in sorted((cache / "startup").rglob("schema-*.marshal")) if "index" not in path.name]
    assert stores, "the start-up cache holds no schema"
    for store in stores:
        form, key, entries = marshal.loads(store.read_bytes())
        store.write_bytes(marshal.dumps((form, key, {name: {} for name in entries})))


def test_a_poisoned_result_is_not_used_in_ci_unless_asked(dirty: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert_clean(_run("lint", dirty, cache), (1,), *DIRTY)
    poison_clean(cache)  # a clean answer for the dirty file's text, under its key
    assert "AC101" not in output(_run("lint", dirty, cache)), "outside CI the poisoned entry is read (the attack)"
    for ci in ("true", "TRUE", "1", "yes"):
        assert_clean(_run("lint", dirty, cache, ci=ci), (1,), *DIRTY)
    opted_in = _run("lint", dirty, cache, "--cache", ci="true")
    assert_clean(opted_in, (0,), "No problems found (1 file checked).")  # the documented opt-in reads the cache
    for ci in ("false", "0", ""):
        assert "AC101" not in output(_run("lint", dirty, cache, ci=ci)), ci


def test_a_poisoned_start_up_schema_is_not_used_in_ci(dirty: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert_clean(_run("validate", dirty, cache), (1,), *DIRTY)
    _poison_schemas(cache)
    assert_clean(_run("validate", dirty, cache), (0,), "No problems found")  # outside CI: the attack
    assert_clean(_run("validate", dirty, cache, ci="true"), (1,), *DIRTY)
    assert_clean(_run("lint", dirty, cache, ci="true"), (1,), *DIRTY)
    assert_clean(_run("lint", dirty, cache, "--cache", ci="true"), (0,), "No problems found")


@pytest.mark.parametrize("command", [("lint",), ("validate",), ("compile", "--no-lint")])
def test_a_run_in_ci_writes_no_cache(tmp_path: Path, dirty: Path, command) -> None:
    path = EXAMPLE_SPEC if command[0] == "compile" else dirty
    cache = tmp_path / "cache"
    proc = _run(command[0], path, cache, *command[1:], ci="true")
    assert_clean(proc, (0, 1))
    assert not cache.exists() or not any(cache.rglob("*")), sorted(cache.rglob("*"))


def test_lint_cache_in_ci_writes_and_reads_the_cache(tmp_path: Path, dirty: Path) -> None:
    cache = tmp_path / "cache"
    assert_clean(_run("lint", dirty, cache, "--cache", ci="true"), (1,), *DIRTY)
    assert lint_cache_shards(cache) and any((cache / "startup").rglob("*.marshal"))


def test_cache_and_no_cache_together_are_a_usage_error(tmp_path: Path, dirty: Path) -> None:
    proc = _run("lint", dirty, tmp_path / "cache", "--cache", "--no-cache", ci="true")
    assert_clean(proc, (2,), "--cache and --no-cache: give one")
    assert not (tmp_path / "cache").exists()
