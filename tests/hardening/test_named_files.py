"""Files a setting names (``--baseline FILE``, the project config) are read only as bounded regular files.

Issue 31, M4: ``--baseline`` had no size limit and no FIFO guard: a committed ``baseline.json -> /dev/zero``
read until memory ran out, and a link to a FIFO (or to ``/dev/stdin`` held open by the runner) waited for
ever.  The project config, found by walking up from the working directory, is a file a pull request
commits too.  Both are now read through the one bounded reader (``yamlio.read_text``): opened without
blocking, refused unless a regular file once links are followed, never read past the size limit.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.hardening.helpers import CONFIGMAP, assert_clean, cli, held_fifo, output, write  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, /dev/zero")

QUICK = 20  # seconds: a refusal is immediate; the old reader hung or read until memory ran out


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo / "cm.yaml", CONFIGMAP)
    return repo


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_a_baseline_linked_to_a_device_or_fifo_is_refused_at_once(tmp_path: Path, held_fifo: Path,
                                                                   target: str) -> None:
    repo = _repo(tmp_path)
    os.symlink(held_fifo if target == "fifo" else target, repo / "baseline.json")
    started = time.monotonic()
    proc = cli("lint", "--no-cache", "cm.yaml", "--baseline", "baseline.json", cwd=repo, timeout=QUICK)
    assert_clean(proc, {2}, "baseline.json", "not a regular file")
    assert time.monotonic() - started < QUICK


def test_a_baseline_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo / "baseline.json", '{"ascendCompileBaseline": 1, "findings": []}' + " " * 2000)
    proc = cli("lint", "--no-cache", "cm.yaml", "--baseline", "baseline.json", "--max-bytes", "1000", cwd=repo)
    assert_clean(proc, {2}, "baseline.json", "larger than the 1000 byte limit")
    assert_clean(cli("lint", "--no-cache", "cm.yaml", "--baseline", "baseline.json", cwd=repo), {0})


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_a_project_config_linked_to_a_device_or_fifo_is_refused_at_once(tmp_path: Path, held_fifo: Path,
                                                                         target: str) -> None:
    """``--config ci/ascend.yaml``, committed as a link: refused, never read."""
    repo = _repo(tmp_path)
    (repo / "ci").mkdir()
    os.symlink(held_fifo if target == "fifo" else target, repo / "ci" / "ascend.yaml")
    started = time.monotonic()
    proc = cli("lint", "--no-cache", "--config", "ci/ascend.yaml", "cm.yaml", cwd=repo, timeout=QUICK)
    assert_clean(proc, {2}, "ci/ascend.yaml", "not a regular file")
    assert time.monotonic() - started < QUICK
    assert "No problems found" not in output(proc)


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_a_discovered_config_that_is_no_regular_file_is_never_read(tmp_path: Path, held_fifo: Path,
                                                                   target: str) -> None:
    """Discovery takes only a regular file as the project config (as before): the link is not read."""
    repo = _repo(tmp_path)
    os.symlink(held_fifo if target == "fifo" else target, repo / ".ascend-compile.yaml")
    assert_clean(cli("lint", "--no-cache", "cm.yaml", cwd=repo, timeout=QUICK), {0})
