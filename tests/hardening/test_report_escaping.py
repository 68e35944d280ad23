"""Reports never pass a line break or a control character of the input through raw.

Issue 43 (low): a text report kept the line breaks of a YAML key (a quoted key can hold ``\\n``), so a file
could print a line of its own such as a forged "No problems found"; ``--format github`` passed ESC bytes to
the CI log as they were; JSON and SARIF left C1 controls, line separators and bidirectional overrides raw.
Each format now writes them as escapes: text and GitHub annotations as Python escapes (``\\n``, ``\\x1b``),
JSON and SARIF as JSON's ``\\uXXXX`` (the same strings once parsed).
"""
from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from ascend_compile.findings import ERROR, Finding
from ascend_compile.report import FORMATS, render
from tests.hardening.helpers import CONFIGMAP_BAD_FIELD, assert_clean, cli, write

FORGED = "No problems found (1 file checked)."
#: what must never reach a report raw: ESC (a CSI that clears the screen, an OSC that sets the title), a
#: one-character C1 CSI, DEL, CR, the line and paragraph separators, NEL, a right-to-left override
RAW = ("\x1b", "\x07", "\x9b", "\x7f", "\r", "\u2028", "\u2029", "\x85", "\u202e")
HOSTILE = f"x\x1b[2J\x1b]0;pwned\x07\n{FORGED}\r\x9b31m\x7f\u2028\u2029\x85\u202eevil"

# YAML double-quoted escapes: the file itself is plain printable text, the values it gives are not
HOSTILE_YAML = r'"x\e[2J\e]0;pwned\a\n' + FORGED + r'\r\x9b31m\x7f\L\P\N\u202eevil"'
#: a key (an unknown field: AC101 quotes it), a metadata name (AC704 quotes it, every finding names the
#: object) and a value (a boolean field given a string: AC102 quotes it)
MANIFEST = f"""\
apiVersion: v1
kind: ConfigMap
metadata:
  name: {HOSTILE_YAML}
  {HOSTILE_YAML}: 1
immutable: {HOSTILE_YAML}
data:
  a: b
"""


def _lines_are_the_reports_own(fmt: str, text: str) -> None:
    """No line of the output is one the input wrote: each is a finding's, its detail's, or the summary."""
    lines = text.splitlines()
    if fmt == "text":
        starts = ("bad", "    at: ", "    in: ", "    hint: ")
        assert all(line == "" or line.startswith(starts) for line in lines[:-1]), lines
    else:  # github: one workflow command per finding, then the summary
        assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines[:-1]), lines
    assert lines[-1].endswith("(1 file checked).") and not lines[-1].startswith("No problems"), lines[-1]
    assert all(f"\\n{FORGED}" in line for line in lines if FORGED in line)  # only ever after an escape


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_hostile_key_name_and_value_are_escaped_in_every_format(tmp_path: Path, fmt: str) -> None:
    write(tmp_path / "bad.yaml", MANIFEST)
    proc = cli("lint", "--format", fmt, "bad.yaml", cwd=tmp_path)
    assert_clean(proc, {1})
    out = proc.stdout_text + proc.stderr_text
    assert [char for char in RAW if char in out] == []
    assert "\n" + FORGED not in out
    if fmt in ("json", "sarif"):  # escaped, not lost: the parsed report has the input's own text
        document = json.loads(proc.stdout_text)
        if fmt == "json":
            findings = document["findings"]
            assert ["metadata", HOSTILE] in [f["pathElements"] for f in findings]
            assert any(HOSTILE in f["message"] for f in findings)
            assert {f["object"] for f in findings} == {f"ConfigMap/{HOSTILE}"}
        else:
            assert HOSTILE in {r["properties"]["object"].split("/", 1)[1] for r in document["runs"][0]["results"]}
    else:
        _lines_are_the_reports_own(fmt, proc.stdout_text)
        assert "x\\x1b[2J\\x1b]0;pwned\\x07\\nNo problems found" in proc.stdout_text  # readable, on its line


@pytest.mark.skipif(os.name != "posix", reason="a line break in a file name")
@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_hostile_file_name_is_escaped(tmp_path: Path, fmt: str) -> None:
    name = f"bad\x1b[31m\n{FORGED}.yaml"
    write(tmp_path / name, CONFIGMAP_BAD_FIELD)
    proc = cli("lint", "--format", fmt, ".", cwd=tmp_path)
    assert_clean(proc, {1})
    assert [char for char in RAW if char in proc.stdout_text] == []
    assert "\n" + FORGED not in proc.stdout_text
    assert "bad\\x1b[31m\\nNo problems found" in proc.stdout_text


def test_every_text_field_of_a_finding_is_escaped_in_every_format() -> None:
    """Whatever produced it (a manifest, a spec, a cluster's reply): file, message, field path, object and
    hint of a finding reach no report raw."""
    finding = Finding("AC101", ERROR, f"message {HOSTILE}", ("spec", HOSTILE, 0), f"hint {HOSTILE}",
                      f"file {HOSTILE}.yaml", 3, 4, f"ConfigMap/{HOSTILE}")
    for fmt in FORMATS:
        stream = io.StringIO()
        render([finding], fmt, stream=stream, files_checked=1, color=False)
        text = stream.getvalue()
        assert [char for char in RAW if char in text] == [], fmt
        assert "\n" + FORGED not in text, fmt
        if fmt == "json":  # the same strings once parsed
            assert json.loads(text)["findings"][0]["message"] == finding.message
        elif fmt == "sarif":
            assert json.loads(text)["runs"][0]["results"][0]["message"]["text"].startswith(finding.message)
