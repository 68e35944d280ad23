"""``compile -o DIR --check``: reads only regular files of bounded size, finds orphans, speaks JSON.

Issue 16, item 4: a committed ``out/job.yaml -> /proc/self/environ`` printed CI secrets in the
diff, a FIFO hung, a link to ``/dev/zero`` ended in MemoryError.  Issue 17: a deleted spec's
manifest left in DIR passed the check, and ``--format json`` still printed a text diff.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.hardening.helpers import assert_clean, cli, output, spec_text, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symlinks, FIFOs and /proc")

JOB = "resnet50-pytorch.yaml"
SECRET = "ASCEND_COMPILE_TEST_SECRET"


def compiled(tmp_path: Path) -> Path:
    write(tmp_path / "specs" / "job.yaml", spec_text())
    assert_clean(cli("compile", "specs", "-o", "out", cwd=tmp_path), {0})
    return tmp_path / "out"


def check(tmp_path: Path, *extra: str, timeout: float = 60, env=None):
    return cli("compile", "specs", "-o", "out", "--check", *extra, cwd=tmp_path, timeout=timeout, env=env)


def test_up_to_date(tmp_path: Path) -> None:
    compiled(tmp_path)
    assert_clean(check(tmp_path), {0})


def test_a_symlink_is_not_followed_and_its_target_never_printed(tmp_path: Path) -> None:
    out = compiled(tmp_path)
    (out / JOB).unlink()
    os.symlink("/proc/self/environ", out / JOB)
    proc = check(tmp_path, env={SECRET: "hunter2-do-not-print"})
    assert_clean(proc, {1}, JOB, "symlink")
    assert "hunter2" not in output(proc)


def test_a_symlink_to_a_regular_file_is_still_stale(tmp_path: Path) -> None:
    """Even a link to the right content: compile would write a file there, not a link."""
    out = compiled(tmp_path)
    os.rename(out / JOB, tmp_path / "elsewhere.yaml")
    os.symlink(tmp_path / "elsewhere.yaml", out / JOB)
    assert_clean(check(tmp_path), {1}, JOB, "symlink")


def test_a_fifo_does_not_hang(tmp_path: Path) -> None:
    out = compiled(tmp_path)
    (out / JOB).unlink()
    os.mkfifo(out / JOB)
    start = time.monotonic()
    assert_clean(check(tmp_path, timeout=30), {1}, JOB, "not a regular file")
    assert time.monotonic() - start < 30


def test_a_link_to_dev_zero_is_bounded(tmp_path: Path) -> None:
    out = compiled(tmp_path)
    (out / JOB).unlink()
    os.symlink("/dev/zero", out / JOB)
    assert_clean(check(tmp_path), {1}, JOB)


def test_a_huge_regular_file_is_not_read_whole(tmp_path: Path) -> None:
    out = compiled(tmp_path)
    with open(out / JOB, "ab") as handle:
        handle.truncate(2 * 1024 ** 3)  # sparse: 2 GiB that the 1 GiB address-space cap cannot hold
    proc = check(tmp_path)
    assert_clean(proc, {1}, JOB, "larger than")
    assert len(proc.stdout) < 100_000


def test_a_file_that_is_not_utf8_is_stale_without_a_crash(tmp_path: Path) -> None:
    out = compiled(tmp_path)
    (out / JOB).write_bytes(b"\xff\xfe not text")
    assert_clean(check(tmp_path), {1}, JOB)


# --------------------------------------------------------------------------- orphans (issue 17)


def test_an_orphan_is_reported(tmp_path: Path) -> None:
    write(tmp_path / "specs" / "other.yaml", spec_text("old-job"))
    compiled(tmp_path)
    (tmp_path / "specs" / "other.yaml").unlink()  # the spec is gone, its manifest stays
    proc = check(tmp_path)
    assert_clean(proc, {1}, "old-job.yaml", "orphan")


def test_the_closing_advice_fits_what_is_wrong(tmp_path: Path) -> None:
    out = compiled(tmp_path)
    (out / JOB).write_text((out / JOB).read_text() + "# edited by hand\n")
    assert b"without --check to update them\n" in check(tmp_path).stderr  # no orphan: no "others"
    compiled(tmp_path)
    write(tmp_path / "specs" / "other.yaml", spec_text("old-job"))
    compiled(tmp_path)
    (tmp_path / "specs" / "other.yaml").unlink()
    assert b"without --check" not in check(tmp_path).stderr  # an orphan alone: compiling would not remove it


def test_a_renamed_job_leaves_an_orphan(tmp_path: Path) -> None:
    compiled(tmp_path)
    write(tmp_path / "specs" / "job.yaml", spec_text("renamed-job"))
    assert_clean(cli("compile", "specs", "-o", "out", cwd=tmp_path), {0})
    assert_clean(check(tmp_path), {1}, JOB, "orphan")


def test_a_check_of_some_specs_judges_only_those(tmp_path: Path) -> None:
    """pre-commit passes only the changed specs: the outputs of the others are not orphans."""
    write(tmp_path / "specs" / "other.yaml", spec_text("other-job"))
    compiled(tmp_path)
    assert_clean(cli("compile", "specs/job.yaml", "-o", "out", "--check", cwd=tmp_path), {0})


def test_files_we_did_not_generate_are_not_orphans(tmp_path: Path) -> None:
    out = compiled(tmp_path)
    write(out / "kustomization.yaml", "resources: [resnet50-pytorch.yaml]\n")
    write(out / "README.md", "notes\n")
    os.symlink("/proc/self/environ", out / "link.yaml")
    os.mkfifo(out / "pipe.yaml")
    assert_clean(check(tmp_path, timeout=30), {0})


# --------------------------------------------------------------------------- JSON (issue 17)


def test_json_when_up_to_date(tmp_path: Path) -> None:
    compiled(tmp_path)
    proc = check(tmp_path, "--format", "json")
    assert_clean(proc, {0})
    report = json.loads(proc.stdout)
    assert report["upToDate"] is True
    assert report["stale"] == report["missing"] == report["orphans"] == [] and report["diff"] == ""


def test_json_names_stale_missing_and_orphan_files_and_carries_the_diff(tmp_path: Path) -> None:
    write(tmp_path / "specs" / "gone.yaml", spec_text("gone-job"))
    write(tmp_path / "specs" / "new.yaml", spec_text("new-job"))
    out = compiled(tmp_path)
    (tmp_path / "specs" / "gone.yaml").unlink()
    (out / "new-job.yaml").unlink()
    write(tmp_path / "specs" / "job.yaml", spec_text(**{"--epochs=90": "--epochs=91"}))
    proc = check(tmp_path, "--format", "json")
    assert_clean(proc, {1})
    report = json.loads(proc.stdout)  # the whole of stdout is one JSON document: no text diff around it
    assert report["upToDate"] is False
    assert [Path(p).name for p in report["stale"]] == [JOB]
    assert [Path(p).name for p in report["missing"]] == ["new-job.yaml"]
    assert [Path(p).name for p in report["orphans"]] == ["gone-job.yaml"]
    assert "--epochs=91" in report["diff"] and "+++" in report["diff"]
