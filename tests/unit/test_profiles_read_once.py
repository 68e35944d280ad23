"""A profile file is checked once per process (``profiles._READ``): a registry made later in the process (each call of
the Python API makes one) gets the profiles read before when the files' texts are the same, the same profiles as a
read from scratch gives, and a file whose text changed is read again."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascend_compile.errors import InputError
from ascend_compile.hardware import profiles
from tests.checkout import ROOT

TEXT = (Path(ROOT) / "profiles" / "module-910b-8.yaml").read_text().replace("name: module-910b-8", "name: mine")


@pytest.fixture
def read(monkeypatch, tmp_path):
    """An empty record of the files read, and a start-up cache of this test's own (so a hit is the record's)."""
    monkeypatch.setenv("ASCEND_COMPILE_CACHE_DIR", str(tmp_path / "cache"))
    record: dict = {}
    monkeypatch.setattr(profiles, "_READ", record, raising=False)
    return record


@pytest.fixture
def checks(monkeypatch):
    """How many profile documents were parsed and checked (the work a file read before skips)."""
    count = [0]
    checked = profiles._checked

    def counting(docs, path):
        count[0] += 1
        return checked(docs, path)

    monkeypatch.setattr(profiles, "_checked", counting)  # with `read`'s empty start-up cache, each first read
    return count


def test_a_later_registry_gets_the_profiles_read_before_and_checks_nothing(read, checks):
    first = profiles.ProfileRegistry().all()
    assert checks[0] == len(profiles.ProfileRegistry().files()) > 10
    again = profiles.ProfileRegistry().all()
    assert checks[0] == len(first), "a registry made later checked a file again"
    assert all(a is b for a, b in zip(again, first))


def test_the_profiles_read_before_are_those_a_read_from_scratch_gives(read):
    profiles.ProfileRegistry().all()
    remembered = profiles.ProfileRegistry().all()
    read.clear()
    scratch = profiles.ProfileRegistry().all()
    assert remembered == scratch and not any(a is b for a, b in zip(remembered, scratch))


def test_a_file_whose_text_changed_is_read_again(read, checks, tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "mine.yaml").write_text(TEXT)
    assert profiles.ProfileRegistry([str(extra)]).get("mine").npus_per_node == 8
    before = checks[0]
    (extra / "mine.yaml").write_text(TEXT.replace("npusPerNode: 8", "npusPerNode: 16"))
    assert profiles.ProfileRegistry([str(extra)]).get("mine").npus_per_node == 16
    assert checks[0] == before + 1, "only the changed file is checked again"


def test_a_file_made_invalid_after_a_good_read_is_refused(read, tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "mine.yaml").write_text(TEXT)
    profiles.ProfileRegistry([str(extra)]).all()
    (extra / "mine.yaml").write_text(TEXT.replace("npusPerNode: 8", "npusPerNode: many"))
    with pytest.raises(InputError):
        profiles.ProfileRegistry([str(extra)]).all()
    with pytest.raises(InputError):  # a refused file is not remembered as read
        profiles.ProfileRegistry([str(extra)]).all()
