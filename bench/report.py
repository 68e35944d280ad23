"""The benchmark's verdicts (issue 18's acceptance ratios, paired round by round) and its Markdown report."""
from __future__ import annotations

import statistics
from typing import Any, Dict, List, Optional

#: (key, what, numerator, denominator, "<=" or ">=", limit); "best_kc" is the faster kubeconform of the round,
#: "rss:" a peak RSS in MiB rather than a ratio
TARGETS = [
    ("lint1_vs_kc", "cold lint of 1 manifest: time x kubeconform", "lint1", "kc1", "<=", 1.5),
    ("lint1_vs_parse", "cold lint of 1 manifest: time x parse-only floor", "lint1", "parse1", "<=", 2.0),
    ("validate_vs_kc", "validate of the mixed files: throughput x kubeconform's best", "best_kc", "validate_mixed",
     ">=", 1.3),
    ("lint_vs_validate", "lint of the mixed files: time x validate", "lint_mixed", "validate_mixed", "<=", 1.3),
    ("stream_vs_parse", "lint of the stream: time x parse-only floor", "lint_stream", "parse_stream", "<=", 2.0),
    ("scale", "lint of 4x the Volcano Jobs: time x (16 folders / 4 folders)", "lint_vc16", "lint_vc4", "<=", 4.5),
    ("rss", "lint of 10 folders of Volcano Jobs: peak RSS (MiB)", "rss:lint_vc10", "", "<", 600.0),
    ("precommit", "lint of 1 job in the mixed folder: time x the same file alone", "precommit", "precommit_alone",
     "<=", 1.5),
    ("warm_cache", "lint re-run over the unchanged mixed files, cache warm: time x the cold run", "lint_warm",
     "lint_cold", "<=", 0.2),
]


def _seconds(by: Dict[str, Any], key: str) -> Optional[List[float]]:
    if key == "best_kc":
        runs = [by[k].runs for k in ("kc_mixed", "kc_mixed_n2") if k in by]
        return [min(r.seconds for r in pair) for pair in zip(*runs)] if runs else None
    return [r.seconds for r in by[key].runs] if key in by else None


def paired(by: Dict[str, Any], a: str, b: str) -> Optional[float]:
    """Median over rounds of time(a) / time(b), the rounds being interleaved."""
    first, second = _seconds(by, a), _seconds(by, b)
    if not first or not second:
        return None
    return statistics.median(x / y for x, y in zip(first, second) if y > 0)


def targets(by: Dict[str, Any], rows: Dict[str, Any], judged: bool) -> List[Dict[str, Any]]:
    out = []
    for key, what, a, b, better, limit in TARGETS:
        if a.startswith("rss:"):
            value = rows[a[4:]]["peak_rss_mib"] if a[4:] in rows else None
        else:
            value = paired(by, a, b)
        verdict = None
        if value is not None and judged:
            verdict = value <= limit if better == "<=" else (value >= limit if better == ">=" else value < limit)
        out.append({"key": key, "target": what, "value": value, "limit": f"{better} {limit:g}", "pass": verdict})
    return out


def _time(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def render(results: Dict[str, Any]) -> str:
    m, c = results["machine"], results["corpus"]
    commit = f" (commit {results['commit']})" if results.get("commit") else ""
    lines = [f"ascend-compile benchmark, {results['date']}{commit}"
             f"{' (quick: no time is judged)' if results['quick'] else ''}",
             f"machine: {m['nproc']} CPUs, {m['cpu']}, Python {m['python']}, PyYAML {m['pyyaml']} "
             f"(libyaml {'yes' if m['libyaml'] else 'no'}); kubeconform {results['kubeconform'] or 'not run'}; "
             f"{results['check_jsonschema'] or 'check-jsonschema not run'}",
             f"corpus: {c['mixed_files']} mixed files ({c['mixed_docs']} documents, {c['mixed_invalid_jobs']} jobs "
             f"with a schema defect), a {c['stream_docs']}-document stream, {c['specs']} specs, "
             f"{c['volcano_dirs']} folders of {c['volcano_per_dir']} Volcano Jobs", "",
             "| command | median (min-max) | docs/s | rounds | peak RSS |", "|---|---|---|---|---|"]
    for row in results["rows"].values():
        rate = f"{row['docs_per_s']:,.0f}" if row.get("docs", 0) > 1 else ""
        lines.append(f"| {row['label']} | {_time(row['median_s'])} ({_time(row['min_s'])}-{_time(row['max_s'])}) "
                     f"| {rate} | {row['rounds']} | {row['peak_rss_mib']:.0f} MiB |")
    lines += ["", "| target (issue 18) | measured | limit | result |", "|---|---|---|---|"]
    for t in results["targets"]:
        value = "n/a" if t["value"] is None else f"{t['value']:.2f}"
        verdict = "n/a" if t["value"] is None else ("not judged" if t["pass"] is None else
                                                    ("pass" if t["pass"] else "FAIL"))
        lines.append(f"| {t['target']} | {value} | {t['limit']} | {verdict} |")
    lines += [f"\nnote: {note}" for note in results["notes"]]
    return "\n".join(lines)
