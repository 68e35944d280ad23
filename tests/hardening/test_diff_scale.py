"""Diffs of fixed text and of compiled output are linear in the file (issue 43, S3: "--fix, --diff, SARIF slower
still").

``difflib.unified_diff`` searches the whole file for its longest matching block again for every block it finds,
so a file with many small changes cost changes x lines: ``lint --diff`` of a stream of 5,000 small ConfigMaps,
one fixable integer each (250 KB), took 37 s of CPU where plain lint takes under 2 s, and ``compile --check`` of
a job whose 10,000 env values changed (a 20,000-line output) 15-18 s where compile takes 0.5 s.  Both now build
their hunks without that search (``ascend_compile.textdiff``).

Bounds are CPU seconds of the CLI process (the machine is shared: a loaded one stretches the wall clock, not the
work).  ``--diff`` and ``--fix`` of the stream measure 3.6-3.7 s: lint (about 1.7 s) and, for the fixes, PyYAML's
pure-Python composer (about 2 s; the edits need its character offsets) and two reads of the data; all linear.
They are held to 8 s, over twice that, and a fifth of what the old ``--diff`` took.  ``--fix`` never diffed: its
bound guards the same path (plan, apply, write) against a quadratic step; the old code took 4.3 s, under it.
``compile --check`` measures 0.5 s and is held to 4 s (the old code: 15 s).
"""
from __future__ import annotations

import re
from pathlib import Path

from tests.hardening.helpers import assert_clean, cli, cpu_timed, spec_text, write

DOCUMENTS = 5_000
FIXING_CPU = 8.0  # seconds, for --diff and --fix (see above)
CHECK_CPU = 4.0  # seconds
ENV = 5_000  # env variables of the spec: the job's two pod templates carry each
SLOW_TIMEOUT = 300  # wall seconds: generous for a loaded machine; the bound that matters is the CPU time


def _stream(value: str) -> str:
    """5,000 ConfigMaps, each of 7 lines, the 7th ``  key: VALUE`` (``{n}``: the document's number)."""
    return "".join(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm{n}\ndata:\n  key: {value.format(n=n)}\n"
                   for n in range(DOCUMENTS))


def _expected_diff(name: str) -> str:
    """What ``lint --diff`` prints for the stream, written out here: the fixes are 6 lines apart, so they
    make one hunk, from 3 lines above the first fix to the end (the last fix is the file's last line)."""
    lines = _stream("{n}").splitlines(keepends=True)
    body = []
    for number, line in enumerate(lines[3:], start=4):
        if number % 7:
            body.append(" " + line)
        else:
            body += ["-" + line, "+" + line.replace(": ", ': "', 1).replace("\n", '"\n')]
    count = len(lines) - 3
    return f"--- a/{name}\n+++ b/{name}\n@@ -4,{count} +4,{count} @@\n" + "".join(body)


def test_diff_and_fix_of_a_stream_of_5000_fixable_configmaps_are_linear(tmp_path: Path) -> None:
    path = write(tmp_path / "stream.yaml", _stream("{n}"))
    before = path.read_bytes()
    proc, cpu = cpu_timed("lint", "--no-cache", "--diff", "stream.yaml", cwd=tmp_path, timeout=SLOW_TIMEOUT)
    assert_clean(proc, (1,), f"{DOCUMENTS} finding(s) in 1 file(s) can be fixed")
    assert proc.stdout_text == _expected_diff("stream.yaml")  # type: ignore[attr-defined]
    assert path.read_bytes() == before
    assert cpu < FIXING_CPU, f"--diff: {cpu:.1f} s of CPU for {DOCUMENTS} fixes"

    proc, cpu = cpu_timed("lint", "--no-cache", "--fix", "stream.yaml", cwd=tmp_path, timeout=SLOW_TIMEOUT)
    assert_clean(proc, (0,), f"fixed {DOCUMENTS} finding(s) in 1 file(s)")
    assert path.read_text(encoding="utf-8") == _stream('"{n}"')
    assert cpu < FIXING_CPU, f"--fix: {cpu:.1f} s of CPU for {DOCUMENTS} fixes"


def _spec(value: str) -> str:
    return spec_text() + "  env:\n" + "".join(f'    VAR_{n}: "{value}{n}"\n' for n in range(ENV))


def test_check_of_a_large_output_with_10000_changed_lines_is_linear(tmp_path: Path) -> None:
    spec = write(tmp_path / "specs" / "job.yaml", _spec("old"))
    assert_clean(cli("compile", "specs", "-o", "out", cwd=tmp_path, timeout=SLOW_TIMEOUT), (0,))
    on_disk = (tmp_path / "out" / "resnet50-pytorch.yaml").read_text(encoding="utf-8")
    write(spec, _spec("new"))
    proc, cpu = cpu_timed("compile", "specs", "-o", "out", "--check", cwd=tmp_path, timeout=SLOW_TIMEOUT)
    assert_clean(proc, (1,), "1 stale file(s)")
    diff = proc.stdout_text.splitlines()  # type: ignore[attr-defined]
    assert diff[:2] == ["--- out/resnet50-pytorch.yaml (on disk)", "+++ out/resnet50-pytorch.yaml (compiled)"]
    removed = [line for line in diff[2:] if line.startswith("-")]
    added = [line for line in diff[2:] if line.startswith("+")]
    # each template's every value, and nothing else, shown changed
    assert len(removed) == len(added) == 2 * ENV == on_disk.count("value: old")
    assert all(re.fullmatch(r"- +value: old[0-9]+", line) for line in removed), removed[:3]
    assert [line.replace("new", "old", 1)[1:] for line in added] == [line[1:] for line in removed]
    assert cpu < CHECK_CPU, f"{cpu:.1f} s of CPU for a {on_disk.count(chr(10))}-line output"
