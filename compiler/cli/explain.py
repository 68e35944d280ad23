"""``ascend-compile explain ID``: a rule's documentation."""
from __future__ import annotations

import difflib
import json
import os
import re
import sys
from typing import Any, Dict, List, Tuple

import click

from ..catalogue import LINT


@click.command(
    "explain",
    epilog="""\b
Examples:
  ascend-compile explain AC301
  ascend-compile explain npu-count
  ascend-compile explain AC103
  ascend-compile explain AC306 --format json | jq .releases""",
)
@click.argument("rule_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: for reading; json: the rule, its documentation, and the MindCluster releases it is "
                   "proven on with the facts it rests on (their value per release).")
def explain_command(rule_id: str, fmt: str) -> None:
    """Show one rule (by ID or name): what it checks, why, how to fix it, and examples; then the MindCluster
    releases it is proven on, and the release-dependent facts it rests on, with their value on each release."""
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
    if fmt == "json":
        sys.stdout.write(json.dumps(_as_json(rule, documentation(rule)), indent=2, ensure_ascii=False) + "\n")
        return
    header = f"{rule.id} {rule.name} ({rule.severity})"
    style = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    body = for_terminal(documentation(rule), rule.hint, bold=style)
    lines = [click.style(header, bold=True) if style else header, "=" * len(header), "", body, ""]
    if rule.kinds and rule.kinds != ("*",):
        lines.append(f"Applies to: {', '.join(rule.kinds)}")
    if not rule.suppressible:
        lines.append(f"Cannot be disabled or suppressed ({rule.why_not_suppressible}).")
    elif rule.origin in SILENCED_BY_SETTINGS:
        lines.append(f"Disable: --disable {rule.id}, or lint: {{disable: [{rule.id}]}} in .ascend-compile.yaml")
    else:
        lines.append(f"Disable: --disable {rule.id}, or '# ascend-compile: disable={rule.id}' on the line")
    lines.append(f"More: {rule.help_uri}")
    if rule.origin == LINT:
        lines += ["", *release_lines(rule.id)]
    sys.stdout.write("\n".join(lines) + "\n")


def release_lines(rule_id: str) -> List[str]:
    """The releases a rule is proven on, then each fact it rests on with its value per span of releases."""
    from ..lint.proofs import facts_of, proven_text, value_text

    lines = [proven_text(rule_id)]
    facts = facts_of(rule_id)
    if facts:
        lines += ["", "Release-dependent facts it rests on (compiler/releases.py):"]
    for fact in facts:
        lines.append(f"  {fact['name']}: {fact['about']}")
        lines += [f"    {span['releases']}: {value_text(span['value'])}" for span in fact["spans"]]
        if fact["shownBy"]:
            lines.append(f"    shown by: {', '.join(fact['shownBy'])}")
        lines.append(f"    cites: {fact['cited']}")
    return lines


def _as_json(rule: Any, doc: str) -> Dict[str, Any]:
    from ..lint.proofs import facts_of, proof

    data: Dict[str, Any] = {"id": rule.id, "name": rule.name, "severity": rule.severity, "origin": rule.origin,
                            "kinds": list(rule.kinds), "hint": rule.hint, "documentation": doc,
                            "helpUri": rule.help_uri}
    if rule.origin == LINT:
        found = proof(rule.id)
        data["releases"] = {"provenOn": list(found.releases()),
                            "shown": {r: list(ids) for r, ids in found.shown.items()},
                            "cited": {r: list(facts) for r, facts in found.cited.items()},
                            "judged": {r: list(severities) for r, severities in found.judged.items()},
                            "facts": facts_of(rule.id)}
    return data


_TITLE = re.compile(r"^\*\*([^*]+)\*\*\s*")
_FIX = "How to fix."


def for_terminal(doc: str, hint: str, bold: bool = False) -> str:
    """A rule's documentation (written for docs/rules.md: ``**What.**`` titles, ``Failing::`` literal blocks,
    double backquotes) as plain text for a terminal, the fix first: the summary, "How to fix." with the fix
    hint, then the rest in its order.  ``bold``: titles in bold (a terminal that shows it)."""
    paragraphs = doc.replace("``", "`").strip().split("\n\n")
    summary = paragraphs[0]
    sections: List[Tuple[str, List[str]]] = []  # (title, its paragraphs)
    for paragraph in paragraphs[1:]:
        match = _TITLE.match(paragraph)
        if match or not sections:
            sections.append((match.group(1) if match else "", [paragraph[match.end():] if match else paragraph]))
        else:
            sections[-1][1].append(paragraph)
    fix = [section for section in sections if section[0] == _FIX]
    rest = [section for section in sections if section[0] != _FIX]
    if hint:
        if fix:
            fix[0][1].insert(1, f"Hint: {hint}")
        else:
            fix = [(_FIX, [hint])]
    out: List[str] = [summary]
    for title, body in fix + rest:
        text = "\n\n".join(re.sub(r"::$", ":", part, flags=re.M) for part in body if part.strip())
        if title:
            text = (click.style(title, bold=True) if bold else title) + " " + text
        out.append(text)
    return "\n\n".join(out)
