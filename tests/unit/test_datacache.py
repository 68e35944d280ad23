"""The start-up cache of checked profile data: the same profiles as without it, never stale, safe to lose."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checkout import ROOT, checkout_env
from ascend_compile.hardware import profiles
from ascend_compile.errors import InputError


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("ASCEND_COMPILE_CACHE_DIR", str(root))
    # what these tests check is the start-up cache, which a file this process read before never reaches
    # (profiles._READ: tests/unit/test_profiles_read_once.py): here no file is remembered as read
    monkeypatch.setattr(profiles, "_READ", _Forgetful())
    return root


class _Forgetful(dict):
    def __setitem__(self, key, value):
        pass


def _stores(root: Path):
    return sorted(root.rglob("profiles.marshal"))


def test_the_key_names_every_module_that_reads_a_profile():
    code = ("import sys; before = set(sys.modules)\n"
            "import ascend_compile.hardware.profiles as p\n"
            "p._load_profile_file(p.ProfileRegistry().files()[0])\n"
            "print(' '.join(sorted(m for m in set(sys.modules) - before if m.startswith('ascend_compile.'))))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=checkout_env())
    used = {name[len("ascend_compile."):].replace(".", "/") for name in proc.stdout.split()}
    named = {name[:-3].replace("/__init__", "") for name in profiles.PROFILE_CODE}
    assert used and used <= named, f"add to PROFILE_CODE: {sorted(used - named)}"


def test_the_same_profiles_with_a_cold_and_a_warm_cache_and_without(cache_root):
    cold = profiles.ProfileRegistry().all()
    assert len(_stores(cache_root)) == 1, "the first run keeps the checked profiles"
    warm = profiles.ProfileRegistry().all()
    assert warm == cold
    shutil.rmtree(cache_root)
    os.environ["ASCEND_COMPILE_CACHE_DIR"] = str(cache_root / "elsewhere")
    assert profiles.ProfileRegistry().all() == cold


def test_a_changed_profile_is_read_again(cache_root, tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    text = (Path(ROOT) / "profiles" / "module-910b-8.yaml").read_text()
    (extra / "mine.yaml").write_text(text.replace("name: module-910b-8", "name: mine"))
    assert profiles.ProfileRegistry([str(extra)]).get("mine").npus_per_node == 8
    (extra / "mine.yaml").write_text(text.replace("name: module-910b-8", "name: mine")
                                     .replace("npusPerNode: 8", "npusPerNode: 16"))
    assert profiles.ProfileRegistry([str(extra)]).get("mine").npus_per_node == 16


def test_an_invalid_profile_is_refused_however_warm_the_cache(cache_root, tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    text = (Path(ROOT) / "profiles" / "module-910b-8.yaml").read_text().replace("name: module-910b-8", "name: mine")
    (extra / "mine.yaml").write_text(text)
    profiles.ProfileRegistry([str(extra)]).all()
    (extra / "mine.yaml").write_text(text.replace("npusPerNode: 8", "npusPerNode: eight"))
    for _ in range(2):
        with pytest.raises(InputError, match="invalid hardware profile"):
            profiles.ProfileRegistry([str(extra)]).all()


def test_a_damaged_or_foreign_store_is_ignored(cache_root):
    want = profiles.ProfileRegistry().all()
    store, = _stores(cache_root)
    store.write_bytes(b"\x00not marshal")
    assert profiles.ProfileRegistry().all() == want
    store.parent.chmod(0o777)  # others may write here: nothing in it is read
    assert profiles.ProfileRegistry().all() == want


def _age(path: Path, days: float = 8) -> None:
    """Make ``path`` look unwritten for ``days`` (its modification time)."""
    import time

    then = time.time() - days * 24 * 3600
    os.utime(path, (then, then))


def test_a_new_version_starts_a_new_store_and_removes_the_old_one_once_unused(cache_root, monkeypatch):
    from ascend_compile import _version

    profiles.ProfileRegistry().all()
    old, = _stores(cache_root)
    _age(old.parent)
    monkeypatch.setattr(_version, "__version__", _version.__version__ + ".post1")
    profiles.ProfileRegistry().all()
    new, = _stores(cache_root)
    assert new != old and not old.parent.exists()
    assert new.parent.name.startswith(_version.__version__ + "-")


def test_two_versions_in_use_keep_each_others_store(cache_root, monkeypatch):
    """pre-commit's version and the project's, say: neither removes the other's store, so both stay warm."""
    from ascend_compile import _version

    profiles.ProfileRegistry().all()
    old, = _stores(cache_root)
    _age(old.parent, days=6)  # used this week
    monkeypatch.setattr(_version, "__version__", _version.__version__ + ".post1")
    profiles.ProfileRegistry().all()
    assert old.exists() and len(_stores(cache_root)) == 2


# --------------------------------------------------------------------------- pruning other versions

HEX = "0123456789abcdef" * 2 + "01234567"  # a key: 40 hex digits


def _folder(path: Path, mode: int = 0o700) -> Path:
    path.mkdir(parents=True)
    (path / "data").write_text("x")
    path.chmod(mode)
    return path


def _cache_folders(parent: Path, outside: Path) -> dict:
    """Key directories of other versions and of this one, and things that are not key directories; all
    unwritten for a week but one other version's."""
    from ascend_compile._version import __version__

    (outside / "keep").mkdir(parents=True)
    folders = {
        "earlier layout": _folder(parent / HEX),
        "other version": _folder(parent / f"0.0.9-{HEX}"),
        "other version, used this week": _folder(parent / f"0.0.6-{HEX}"),
        "this version, other key": _folder(parent / f"{__version__}-{HEX.replace('0', 'f')}"),
        "not a key": _folder(parent / "notes"),
        "others may write": _folder(parent / f"0.0.8-{HEX}", 0o777),
    }
    (parent / f"0.0.7-{HEX}").symlink_to(outside / "keep", target_is_directory=True)
    (parent / "README").write_text("mine")
    for what, path in folders.items():
        if what != "other version, used this week":
            _age(path)
    return folders


def _left(folders: dict) -> list:
    return sorted(what for what, path in folders.items() if path.exists())


KEPT = ["not a key", "other version, used this week", "others may write", "this version, other key"]


def test_a_new_store_removes_the_stores_of_other_versions_and_nothing_else(cache_root, tmp_path):
    folders = _cache_folders(cache_root / "startup", tmp_path / "outside")
    profiles.ProfileRegistry().all()  # a new key directory: the profiles' store
    assert _left(folders) == KEPT
    assert (tmp_path / "outside" / "keep").is_dir() and (cache_root / "startup" / f"0.0.7-{HEX}").is_symlink()
    assert (cache_root / "startup" / "README").read_text() == "mine"
    assert len(_stores(cache_root)) == 1


def test_a_run_that_writes_nothing_removes_nothing(cache_root, tmp_path):
    profiles.ProfileRegistry().all()
    folders = _cache_folders(cache_root / "startup", tmp_path / "outside")
    profiles.ProfileRegistry().all()  # the store holds every profile: nothing to write
    assert _left(folders) == sorted(folders)


def test_a_run_that_writes_to_its_store_removes_unused_stores_of_other_versions(cache_root, tmp_path):
    profiles.ProfileRegistry().all()
    folders = _cache_folders(cache_root / "startup", tmp_path / "outside")
    store, = _stores(cache_root)
    store.unlink()  # written again, into the directory that exists
    profiles.ProfileRegistry().all()
    assert store.exists() and _left(folders) == KEPT


def test_a_lint_run_that_fills_its_cache_removes_unused_lint_caches_of_other_versions(cache_root, tmp_path):
    from ascend_compile.lint.paths import lint_paths

    folders = _cache_folders(cache_root / "lint", tmp_path / "outside")
    job = tmp_path / "job.yaml"
    job.write_text((Path(ROOT) / "golden" / "pytorch-module-910b-8.yaml").read_text())
    lint_paths([str(job)], cache_dir=str(cache_root), jobs=1)
    assert _left(folders) == KEPT
    assert len(list((cache_root / "lint").glob("*/*.cache"))) == 1, "the run should have filled its own cache"


# --------------------------------------------------------------------------- the built-in schemas


def _schema_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "schemas"
    shutil.copytree(Path(ROOT) / "schemas", folder)
    return folder


def test_the_same_schemas_with_a_cold_and_a_warm_cache(cache_root, tmp_path):
    import json

    from ascend_compile.schemacheck.registry import Registry

    folder = _schema_dir(tmp_path)
    want = json.loads((folder / "ascendjob-v1.json").read_text())
    assert Registry(str(folder)).schema("ascendjob-v1.json") == want
    assert sorted(p.name for p in cache_root.rglob("schema-*.marshal")) == ["schema-ascendjob-v1.json.marshal"]
    assert Registry(str(folder)).schema("ascendjob-v1.json") == want
    assert Registry(str(folder)).index == json.loads((folder / "index.json").read_text())["kinds"]


def test_a_changed_schema_is_read_again(cache_root, tmp_path):
    from ascend_compile.schemacheck.registry import Registry

    folder = _schema_dir(tmp_path)
    assert "required" in Registry(str(folder)).schema("namespace-v1.json")
    (folder / "namespace-v1.json").write_text('{"type": "object"}')
    assert Registry(str(folder)).schema("namespace-v1.json") == {"type": "object"}


def test_a_damaged_schema_store_is_ignored(cache_root, tmp_path):
    from ascend_compile.schemacheck.registry import Registry

    folder = _schema_dir(tmp_path)
    want = Registry(str(folder)).schema("namespace-v1.json")
    store, = cache_root.rglob("schema-namespace-v1.json.marshal")
    store.write_bytes(b"\x00not marshal")
    assert Registry(str(folder)).schema("namespace-v1.json") == want


#: what the lint of one clean file has no use for: ``json`` (the schemas come from the start-up cache), ``shutil``
#: (with bz2 and lzma: only to remove another version's cache folder), ``unicodedata`` (only to name a non-ASCII
#: character of an image reference), the cluster inventory and the cluster-aware rules (AC9xx: only with one)
NOT_ON_THE_LINT_PATH = ("json", "shutil", "unicodedata", "ascend_compile.inventory",
                        "ascend_compile.lint.rules._cluster", "ascend_compile.lint.rules.cluster_queue_missing")


def test_linting_a_clean_file_imports_only_what_it_uses(tmp_path):
    """A user's cold lint of a file: the start-up cache warm (--no-cache bypasses it, as every cache: issue 31, M2),
    the result cache without this file's text (it is written, and the folders beside it pruned)."""
    text = (Path(ROOT) / "golden" / "pytorch-module-910b-8.yaml").read_text()
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    first.write_text(text)
    second.write_text(text + "# another text: not in the result cache\n")
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['lint', sys.argv[1]])\nexcept SystemExit as exc:\n"
            f"    print('exit', exc.code, [m for m in {NOT_ON_THE_LINT_PATH!r} if m in sys.modules])\n")
    env = dict(checkout_env(), ASCEND_COMPILE_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env)
            for path in (first, second)]
    assert runs[1].stdout.strip().endswith("exit 0 []"), runs[1].stdout + runs[1].stderr


def test_a_no_cache_run_does_not_switch_the_caches_off_for_later_runs_in_the_process(cache_root, tmp_path):
    """``lint --no-cache`` run in-process (the Python API, click's runner) bypasses the caches for that run
    only: the next run in the same process without it keeps the checked profiles again."""
    from ascend_compile.cli import lint
    from ascend_compile.cli._settings import Checks, Inputs, LintOptions

    path = tmp_path / "job.yaml"
    path.write_text((Path(ROOT) / "golden" / "pytorch-module-910b-8.yaml").read_text())
    assert lint.run([str(path)], LintOptions(Inputs(), checks=Checks(quiet=True), no_cache=True)) == 0
    assert _stores(cache_root) == [], "--no-cache keeps nothing"
    profiles.ProfileRegistry().all()
    assert len(_stores(cache_root)) == 1, "what runs after the --no-cache run (not a lint) keeps its profiles"
    shutil.rmtree(cache_root)
    assert lint.run([str(path)], LintOptions(Inputs(), checks=Checks(quiet=True))) == 0
    assert len(_stores(cache_root)) == 1, "the caches are in use again after the --no-cache run"
