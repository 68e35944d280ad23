"""What an answer says of the findings, within the sizes Kubernetes passes on: a warning at most 256 characters and
at most a dozen of them, a refusal message at most 4 KiB, and what does not fit counted, never dropped silently."""
from __future__ import annotations

from ascend_compile.findings import ERROR, WARNING, Finding
from ascend_compile.webhook.review import (MAX_MESSAGE_CHARS, MAX_WARNING_CHARS, MAX_WARNINGS, finding_line,
                                           refusal_message, warnings_of)


def _finding(number: int, severity: str = WARNING) -> Finding:
    return Finding("AC703", severity, f"finding {number}: " + "x" * 400, ("spec", "replicaSpecs", "Worker", number),
                   hint="do the thing " * 10)


def test_a_finding_line_names_rule_field_message_and_hint() -> None:
    line = finding_line(Finding("AC301", ERROR, "too many", ("spec", "a.b", 0), hint="ask for fewer"))
    assert line == "AC301 at spec['a.b'][0]: too many (fix: ask for fewer)"
    assert finding_line(Finding("AC100", ERROR, "no spec")) == "AC100 at the object: no spec"


def test_warnings_are_cut_to_the_kubernetes_size_and_counted_past_the_dozen() -> None:
    shown = warnings_of([_finding(n) for n in range(30)])
    assert len(shown) == MAX_WARNINGS and all(len(w) <= MAX_WARNING_CHARS for w in shown)
    assert shown[0].startswith("AC703 at spec.replicaSpecs.Worker[0]: finding 0: ") and shown[0].endswith("...")
    assert shown[-1].startswith(f"... and {30 - MAX_WARNINGS + 1} more findings")


def test_a_refusal_message_stays_within_its_size_and_counts_the_rest() -> None:
    message = refusal_message([_finding(n, ERROR) for n in range(100)])
    lines = message.splitlines()
    assert len(message) <= MAX_MESSAGE_CHARS
    assert lines[-1].startswith(f"... and {100 - (len(lines) - 1)} more")
    assert all(line.startswith("AC703 at ") for line in lines[:-1])
