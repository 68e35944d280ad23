"""Output piped into a reader that stops early (``| head``): a quiet stop, never "internal error".

The reader going away is no bug of ours (exit 3 would say it is).  Python ignores SIGPIPE, so a write
fails with EPIPE instead: the command stops with 141 (128 + SIGPIPE, as a shell reports a command a
SIGPIPE stopped), or with its findings code when its last write had already been taken, and says
nothing on stderr.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.checkout import ROOT, checkout_env

#: far more than a pipe buffer (64 KiB) of findings: the writer is still writing when the reader goes
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm{0}, colour: blue}}\n"  # AC101 each


def _first_bytes_then_close(args, count=100):
    proc = subprocess.Popen([sys.executable, "-m", "ascend_compile", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=checkout_env())
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.read(count)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    return first, proc.wait(timeout=120), err


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_lint_stops_quietly_when_the_reader_goes(tmp_path, fmt):
    manifest = tmp_path / "many.yaml"
    manifest.write_text("---\n".join(CONFIGMAP.format(i) for i in range(3000)), encoding="utf-8")
    first, code, err = _first_bytes_then_close(["lint", str(manifest), "--format", fmt, "--no-cache"])
    assert first  # it did write before the reader went
    assert code in (1, 141), err  # the findings code, or stopped by the broken pipe
    assert err == ""
