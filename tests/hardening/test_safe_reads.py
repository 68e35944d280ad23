"""Every file read from the repository or a setting is a bounded regular file; only ``-`` reads standard input.

Issue 43, S4: ``init`` looked for ``schemas/trainingjob-v1alpha1.json`` in every folder up to ``/`` and read it
with a plain read: a link to ``/dev/zero`` ran out of memory, a FIFO hung it.  M2: a walked file, or a file in
``profileDirs``, linked to ``/dev/stdin`` was read from standard input: lint and compile waited on an open
pipe, or swallowed what a CI runner fed the shell.  Each attack is made here under the memory cap of
:func:`tests.hardening.helpers.cli` (or with standard input an open pipe holding data) and shown harmless: the
file is not read, the run ends at once with a finding naming it, and what stdin held is still there.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Tuple

import pytest

from tests.checkout import checkout_env
from tests.hardening.helpers import (CONFIGMAP, MEMORY_LIMIT, ROOT, assert_clean, cli, held_fifo,  # noqa: F401
                                     output, spec_text, write)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, /dev/zero, /dev/stdin")

QUICK = 20  # seconds: a refusal is immediate; the old reads hung or ran out of memory
SCHEMA = "trainingjob-v1alpha1.json"
FED = b"what the runner feeds the shell\n"


def _schema_line(spec: Path) -> str:
    return spec.read_text().splitlines()[0]


# --------------------------------------------------------------------------- S4: init's schema search


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_init_passes_over_a_schema_copy_that_is_no_regular_file(tmp_path: Path, held_fifo: Path,
                                                                 target: str) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "schemas").mkdir()
    os.symlink(held_fifo if target == "fifo" else target, repo / "schemas" / SCHEMA)
    started = time.monotonic()
    proc = cli("init", "jobs/new.yaml", "--name", "new", cwd=repo, timeout=QUICK)
    assert_clean(proc, {0})
    assert time.monotonic() - started < QUICK
    assert _schema_line(repo / "jobs" / "new.yaml").startswith("# yaml-language-server: $schema=https://")


def test_init_searches_no_folder_above_the_repository_for_the_schema(tmp_path: Path) -> None:
    """Bounded as config discovery is: outside a repository, the spec's own folder only."""
    os.symlink("/dev/zero", write(tmp_path / "schemas" / "placeholder", "").parent / SCHEMA)
    work = tmp_path / "work"
    work.mkdir()
    proc = cli("init", "jobs/new.yaml", "--name", "new", cwd=work, timeout=QUICK)
    assert_clean(proc, {0})
    assert _schema_line(work / "jobs" / "new.yaml").startswith("# yaml-language-server: $schema=https://")


def test_init_still_points_at_a_regular_copy_in_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo / "schemas" / SCHEMA, (ROOT / "schemas" / SCHEMA).read_bytes())
    assert_clean(cli("init", "jobs/team/new.yaml", "--name", "new", cwd=repo), {0})
    assert _schema_line(repo / "jobs" / "team" / "new.yaml") == \
        f"# yaml-language-server: $schema=../../schemas/{SCHEMA}"


# --------------------------------------------------------------------------- M2: /dev/stdin by another name


def _with_stdin_open(*args: str, cwd: Path) -> Tuple[int, str, bytes]:
    """Run the CLI with standard input an open pipe holding :data:`FED` (its write end kept open, as a runner's
    is): (exit code, output, what is left in the pipe afterwards).  A run that reads the pipe waits for ever."""
    read_end, write_end = os.pipe()
    os.write(write_end, FED)
    env = checkout_env()
    env.pop("NO_COLOR", None)
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-m", "ascend_compile", *args], stdin=read_end, stdout=out,
                                stderr=subprocess.STDOUT, cwd=cwd, env=env,
                                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT,) * 2))
        try:
            code = proc.wait(timeout=QUICK)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"ascend-compile {' '.join(args)} waited on standard input")
        finally:
            os.close(write_end)
        os.set_blocking(read_end, False)
        try:
            left = os.read(read_end, 4096)
        except BlockingIOError:
            left = b""
        os.close(read_end)
        out.seek(0)
        return code, out.read().decode("utf-8", "replace"), left


def _checked(code: int, text: str, left: bytes, name: str) -> None:
    assert "Traceback" not in text, text
    assert code == 2, f"exit {code}:\n{text}"
    assert name in text and "not a regular file" in text, text
    assert left == FED, "what standard input held was read"


@pytest.mark.parametrize("command, folder", [("lint", "k8s"), ("validate", "k8s"), ("compile", "specs")])
def test_a_walked_file_linked_to_dev_stdin_is_never_read(tmp_path: Path, command: str, folder: str) -> None:
    write(tmp_path / folder / "own.yaml", spec_text() if command == "compile" else CONFIGMAP)
    os.symlink("/dev/stdin", tmp_path / folder / "piped.yaml")
    code, text, left = _with_stdin_open(command, *(["--no-cache"] if command == "lint" else []), folder,
                                        cwd=tmp_path)
    _checked(code, text, left, "piped.yaml")


def test_a_named_file_linked_to_dev_stdin_is_not_read_either(tmp_path: Path) -> None:
    """pre-commit names the changed files: only ``-`` reads standard input."""
    os.symlink("/dev/stdin", tmp_path / "piped.yaml")
    _checked(*_with_stdin_open("lint", "--no-cache", "piped.yaml", cwd=tmp_path), "piped.yaml")


@pytest.mark.parametrize("command, argument", [("lint", "cm.yaml"), ("compile", "spec.yaml")])
def test_a_profile_dirs_file_linked_to_dev_stdin_is_never_read(tmp_path: Path, command: str, argument: str) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path / ".ascend-compile.yaml", "profileDirs: [hw-profiles]\n")
    write(tmp_path / argument, spec_text() if command == "compile" else CONFIGMAP)
    (tmp_path / "hw-profiles").mkdir()
    os.symlink("/dev/stdin", tmp_path / "hw-profiles" / "piped.yaml")
    code, text, left = _with_stdin_open(command, *(["--no-cache"] if command == "lint" else []), argument,
                                        cwd=tmp_path)
    _checked(code, text, left, "piped.yaml")


def test_dash_still_reads_standard_input(tmp_path: Path) -> None:
    assert_clean(cli("lint", "--no-cache", "-", cwd=tmp_path, input=CONFIGMAP.encode()), {0}, "No problems found")


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_a_walked_file_linked_to_a_device_or_fifo_is_refused_at_once(tmp_path: Path, held_fifo: Path,
                                                                     target: str) -> None:
    write(tmp_path / "k8s" / "own.yaml", CONFIGMAP)
    os.symlink(held_fifo if target == "fifo" else target, tmp_path / "k8s" / "planted.yaml")
    started = time.monotonic()
    proc = cli("lint", "--no-cache", "k8s", cwd=tmp_path, timeout=QUICK)
    assert_clean(proc, {2}, "planted.yaml", "not a regular file")
    assert time.monotonic() - started < QUICK
    assert "No problems found" not in output(proc)
