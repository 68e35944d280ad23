"""The start-up cache of checked profile data: the same profiles as without it, never stale, safe to lose."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checkout import ROOT, checkout_env
from ascend_compile import profiles
from ascend_compile.errors import InputError


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("ASCEND_COMPILE_CACHE_DIR", str(root))
    return root


def _stores(root: Path):
    return sorted(root.rglob("profiles.marshal"))


def test_the_key_names_every_module_that_reads_a_profile():
    code = ("import sys; before = set(sys.modules)\n"
            "import ascend_compile.profiles as p\n"
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


def test_a_new_version_starts_a_new_store(cache_root, monkeypatch):
    from ascend_compile import _version

    profiles.ProfileRegistry().all()
    monkeypatch.setattr(_version, "__version__", _version.__version__ + ".post1")
    profiles.ProfileRegistry().all()
    assert len(_stores(cache_root)) == 2


# --------------------------------------------------------------------------- the built-in schemas


def _schema_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "schemas"
    shutil.copytree(Path(ROOT) / "schemas", folder)
    return folder


def test_the_same_schemas_with_a_cold_and_a_warm_cache(cache_root, tmp_path):
    import json

    from ascend_compile.schema_registry import Registry

    folder = _schema_dir(tmp_path)
    want = json.loads((folder / "ascendjob-v1.json").read_text())
    assert Registry(str(folder)).schema("ascendjob-v1.json") == want
    assert sorted(p.name for p in cache_root.rglob("schema-*.marshal")) == ["schema-ascendjob-v1.json.marshal"]
    assert Registry(str(folder)).schema("ascendjob-v1.json") == want
    assert Registry(str(folder)).index == json.loads((folder / "index.json").read_text())["kinds"]


def test_a_changed_schema_is_read_again(cache_root, tmp_path):
    from ascend_compile.schema_registry import Registry

    folder = _schema_dir(tmp_path)
    assert "required" in Registry(str(folder)).schema("namespace-v1.json")
    (folder / "namespace-v1.json").write_text('{"type": "object"}')
    assert Registry(str(folder)).schema("namespace-v1.json") == {"type": "object"}


def test_a_damaged_schema_store_is_ignored(cache_root, tmp_path):
    from ascend_compile.schema_registry import Registry

    folder = _schema_dir(tmp_path)
    want = Registry(str(folder)).schema("namespace-v1.json")
    store, = cache_root.rglob("schema-namespace-v1.json.marshal")
    store.write_bytes(b"\x00not marshal")
    assert Registry(str(folder)).schema("namespace-v1.json") == want


def test_linting_a_clean_file_imports_no_json(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text((Path(ROOT) / "golden" / "pytorch-module-910b-8.yaml").read_text())
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['lint', '--no-cache', sys.argv[1]])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, 'json' in sys.modules)\n")
    env = dict(checkout_env(), ASCEND_COMPILE_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env)
            for _ in range(2)]
    assert runs[1].stdout.strip().endswith("exit 0 False"), runs[1].stdout + runs[1].stderr
