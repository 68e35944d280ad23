"""``ascend-compile explain ID``: a rule's documentation."""
from __future__ import annotations

import difflib
import sys

import click


@click.command(
    "explain",
    epilog="""\b
Examples:
  ascend-compile explain AC301
  ascend-compile explain npu-count
  ascend-compile explain AC103""",
)
@click.argument("rule_id", metavar="ID")
def explain_command(rule_id: str) -> None:
    """Show one rule (by ID or name): what it checks, why, how to fix it, and examples."""
    from ..catalogue import SILENCED_BY_SETTINGS, entries, get
    from ..lint.registry import documentation

    rule = get(rule_id)
    if rule is None:
        keys = [r.id for r in entries()] + [r.name for r in entries()]
        close = difflib.get_close_matches(rule_id.upper(), [r.id for r in entries()], n=3, cutoff=0.6) \
            or difflib.get_close_matches(rule_id.lower(), keys, n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        click.echo(f"ascend-compile explain: unknown rule {rule_id!r}.{hint} "
                   "List the rules with 'ascend-compile rules'.", err=True)
        sys.exit(2)
    header = f"{rule.id} {rule.name} ({rule.severity})"
    body = documentation(rule).replace("``", "`").rstrip()
    lines = [header, "=" * len(header), "", body, ""]
    if rule.kinds and rule.kinds != ("*",):
        lines.append(f"Applies to: {', '.join(rule.kinds)}")
    if rule.hint:
        lines.append(f"Fix hint: {rule.hint}")
    if rule.origin in SILENCED_BY_SETTINGS:
        lines.append(f"Disable: --disable {rule.id}, or lint: {{disable: [{rule.id}]}} in .ascend-compile.yaml")
    elif rule.suppressible:
        lines.append(f"Disable: --disable {rule.id}, or '# ascend-compile: disable={rule.id}' on the line")
    else:
        lines.append(f"Cannot be disabled or suppressed ({rule.why_not_suppressible}).")
    lines.append(f"More: {rule.help_uri}")
    sys.stdout.write("\n".join(lines) + "\n")
