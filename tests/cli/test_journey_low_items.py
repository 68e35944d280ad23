"""Issue 36 item 8, the low items, each as the journey that found it (commands and expected output)."""
from __future__ import annotations

import re

from tests.checkout import run_cli


# explain: rendered for a terminal, the fix first; the severity said once ---------------------------------------

def test_explain_prints_plain_text_with_the_fix_first() -> None:
    result = run_cli("explain", "AC303")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert not re.search(r"\*\*[A-Z][^*]*\.\*\*", out) and not re.search(r"::$", out, re.M), out  # no docs markup
    assert "``" not in out
    lines = out.splitlines()
    fix = next(i for i, line in enumerate(lines) if line.startswith("How to fix."))
    assert fix < 8, out  # the fix right after the summary, not after ~50 lines
    assert lines[fix + 2].startswith("Hint: "), out  # the catalogue's fix hint goes with it
    assert fix < next(i for i, line in enumerate(lines) if line.startswith("What.")), out
    assert "Failing:" in lines and "Passing:" in lines


def test_explain_header_and_text_give_one_severity() -> None:
    out = run_cli("explain", "AC303").stdout
    header = re.match(r"AC303 not-full-node \((\w+)\)", out)
    assert header, out
    said = {"error": "an error", "warning": "a warning", "info": "a note (info)"}[header.group(1)]
    assert f"A convention, so {said}." in " ".join(out.split()), out


def test_every_rule_says_its_own_severity_as_the_catalogue_does() -> None:
    from ascend_compile.catalogue import entries
    from ascend_compile.lint.registry import documentation

    said = {"an error": "error", "a warning": "warning", "a note (info)": "info", "a note": "info"}
    wrong = []
    for entry in entries():
        text = " ".join(documentation(entry).split())
        assert "|severity|" not in text, entry.id
        for claim in re.findall(r"\bso (?:this is )?(an error|a warning|a note \(info\)|a note)\b", text):
            if said[claim] != entry.severity:
                wrong.append((entry.id, entry.severity, claim))
    assert not wrong, wrong
