"""``ascend-compile rules``: every rule ID lint, validate and compile can report."""
from __future__ import annotations

import json
import sys

import click

from ..catalogue import ORIGINS


@click.command(
    "rules",
    epilog="""\b
Examples:
  ascend-compile rules
  ascend-compile rules --origin lint
  ascend-compile rules --format json | jq '.[] | select(.severity == "error") | .id'
  ascend-compile explain AC301""",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="A table, or a JSON list of {id, name, severity, origin, kinds, summary, hint}.")
@click.option("--origin", type=click.Choice(["all", *ORIGINS]), default="all", show_default=True,
              help="Only rules reported by this part of the tool.")
def rules_command(fmt: str, origin: str) -> None:
    """List the rules: ID, name, default severity and a one-line summary.

    Input (AC001-AC006), config (AC010, AC011), spec (AC02x) and schema (AC1xx)
    rules are reported by the reader, the config loader, compile and the schema
    check; AC007-AC009, AC014, AC015 (notes, a warning nothing silences) by file discovery; AC012 by the lint engine,
    AC013 by the file writer; AC2xx-AC9xx are the lint rule units.
    """
    from ..catalogue import entries
    from ..lint.registry import summary

    rules = entries(None if origin == "all" else origin)
    if fmt == "json":
        data = [{"id": r.id, "name": r.name, "severity": r.severity, "origin": r.origin,
                 "kinds": list(r.kinds), "summary": _plain(summary(r)), "hint": r.hint} for r in rules]
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    width = max(len(r.name) for r in rules) if rules else 4
    lines = [f"{'ID':<6} {'NAME':<{width}} {'SEVERITY':<8} SUMMARY"]
    for r in rules:
        lines.append(f"{r.id:<6} {r.name:<{width}} {r.severity:<8} {_plain(summary(r))}")
    sys.stdout.write("\n".join(lines) + "\n")


def _plain(text: str) -> str:
    return text.replace("``", "")
