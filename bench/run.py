#!/usr/bin/env python3
"""Benchmark ascend-compile against its peers and against floors, in one run.

    python bench/run.py            # full run (about 10-20 minutes on 2 cores)
    python bench/run.py --quick    # smoke run, under a minute; never asserts a time

Every figure is a whole-process timing.  Commands of one group run
interleaved (A B C ... A B C ...), so each round measures every command under
the same machine load; a ratio is computed round by round against a baseline
of the same round, and the median of those is reported with the median time
and its min-max.  Peak RSS is the child's ``ru_maxrss`` (from ``wait4``).

The corpus is generated into ``bench/corpus/`` (gitignored) by compiling
deterministic random specs; results go to ``bench/results/<date>.json``.
See ``bench/README.md`` for what each row means.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CORPUS = BENCH / "corpus"
RESULTS = BENCH / "results"
VENV = BENCH / ".venv"
PY = sys.executable

ASCENDJOB_SCHEMA = ROOT / "schemas" / "ascendjob-v1.json"
VCJOB_SCHEMA = ROOT / "schemas" / "volcano-job-v1.15.0.json"

# --------------------------------------------------------------------------- corpus

FULL = {"files": 2000, "stream": 2000, "specs": 500, "invalid_every": 20}
QUICK = {"files": 60, "stream": 60, "specs": 20, "invalid_every": 20}

FRAMEWORK_PROFILES = [
    ("pytorch", "module-910b-8"), ("mindspore", "module-910b-8"), ("tensorflow", "module-910b-8"),
    ("pytorch", "module-910b-16"), ("pytorch", "module-a3-16"), ("mindspore", "module-910"),
    ("pytorch", "card-910b-2"), ("tensorflow", "half-910"),
]


def _spec(rng: random.Random, index: int, target: str) -> Dict[str, Any]:
    framework, profile = FRAMEWORK_PROFILES[index % len(FRAMEWORK_PROFILES)]
    per_node = {"module-910b-8": 8, "module-910b-16": 16, "module-a3-16": 16, "module-910": 8,
                "card-910b-2": 2, "half-910": 4}[profile]
    env = {f"TRAIN_VAR_{i}": f"value-{rng.randint(0, 10 ** 6)}" for i in range(rng.randint(6, 14))}
    volumes = [{"name": "code", "nfs": "10.0.0.5:/data/atlas_dls/public/code", "mountPath": "/job/code"},
               {"name": "data", "nfs": "10.0.0.5:/data/atlas_dls/public/dataset", "mountPath": "/job/data",
                "readOnly": True},
               {"name": "output", "pvc": f"out-{index}", "mountPath": "/job/output"},
               {"name": "cache", "emptyDir": {}, "mountPath": "/job/cache"}]
    return {
        "apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
        "metadata": {"name": f"job-{index:05d}", "namespace": rng.choice(["training", "research", "prod"])},
        "spec": {
            "framework": framework, "profile": profile, "target": target,
            "npus": per_node * rng.choice([1, 2, 4]),
            "image": f"swr.example.com/ml/{framework}-train:{rng.randint(1, 3)}.{rng.randint(0, 9)}",
            "command": ["/bin/bash", "-c"],
            "args": [f"bash /job/code/train_start.sh --epochs={rng.randint(1, 300)} --lr=0.{rng.randint(1, 99)}"],
            "env": env, "volumes": volumes,
            "resources": {"cpu": str(rng.choice([32, 64, 96, 180])), "memory": rng.choice(["256Gi", "512Gi"])},
            "podLabels": {"team": rng.choice(["nlp", "cv", "speech"]), "app": f"app-{index % 37}"},
        },
    }


# Defects planted in every ``invalid_every``-th manifest (each a schema finding).
def _break(obj: Dict[str, Any], index: int) -> None:
    kind = obj["kind"]
    if kind == "AscendJob":
        replica = next(iter(obj["spec"]["replicaSpecs"].values()))
    else:
        replica = obj["spec"]["tasks"][0]
    container = replica["template"]["spec"]["containers"][0]
    defect = index // 20 % 5
    if defect == 0:
        replica["replicas"] = "two"
    elif defect == 1:
        container["imagePullPolicy"] = "Sometimes"
    elif defect == 2:
        container["resources"]["requests"]["memory"] = "1500GB"
    elif defect == 3:
        container.pop("name", None)
    else:
        container["envv"] = container.pop("env", [])


def generate_corpus(sizes: Dict[str, int], log) -> Dict[str, Any]:
    """(Re)generate ``bench/corpus`` unless it already matches ``sizes``."""
    stamp = CORPUS / "corpus.json"
    if stamp.exists():
        try:
            info = json.loads(stamp.read_text())
            if info.get("sizes") == sizes:
                return info
        except ValueError:
            pass
    sys.path.insert(0, str(ROOT / "scripts"))
    from _checkout import use_checkout

    use_checkout()
    from ascend_compile.pipeline import compile_specs
    from ascend_compile.profiles import ProfileRegistry
    from ascend_compile.yamlio import Document, dump_document, dump_documents

    log(f"generating corpus into {CORPUS} ...")
    shutil.rmtree(CORPUS, ignore_errors=True)
    (CORPUS / "files").mkdir(parents=True)
    (CORPUS / "specs").mkdir()
    registry = ProfileRegistry()
    rng = random.Random(20261129)
    lines = invalid = 0
    manifests: List[Tuple[str, str]] = []
    count = max(sizes["files"], sizes["stream"])
    for index in range(count):
        target = "AscendJob" if index % 2 == 0 else "VolcanoJob"
        job = compile_specs([Document("<bench>", 0, _spec(rng, index, target), None)], registry)[0]
        obj = next(o for o in job.objects if o["kind"] in ("AscendJob", "Job"))
        if index % sizes["invalid_every"] == sizes["invalid_every"] - 1:
            _break(obj, index)
            invalid += 1
        text = dump_document(obj)
        manifests.append(("ascendjob" if obj["kind"] == "AscendJob" else "vcjob", text))
    for index, (kind, text) in enumerate(manifests[: sizes["files"]]):
        (CORPUS / "files" / f"{kind}-{index:05d}.yaml").write_text(text, encoding="utf-8")
        lines += text.count("\n")
    with open(CORPUS / "stream.yaml", "w", encoding="utf-8") as handle:
        for _, text in manifests[: sizes["stream"]]:
            handle.write("---\n" + text)
    for index in range(sizes["specs"]):
        spec = _spec(rng, 100_000 + index, "AscendJob" if index % 2 == 0 else "VolcanoJob")
        (CORPUS / "specs" / f"spec-{index:04d}.yaml").write_text(dump_documents([spec]), encoding="utf-8")
    info = {"sizes": sizes, "files": sizes["files"], "stream_docs": sizes["stream"], "specs": sizes["specs"],
            "avg_lines": round(lines / max(1, sizes["files"]), 1),
            "invalid_files": sum(1 for i in range(sizes["files"])
                                 if i % sizes["invalid_every"] == sizes["invalid_every"] - 1),
            "bytes_files": sum(p.stat().st_size for p in (CORPUS / "files").iterdir()),
            "bytes_stream": (CORPUS / "stream.yaml").stat().st_size}
    stamp.write_text(json.dumps(info, indent=1))
    return info


# --------------------------------------------------------------------------- running commands


@dataclass
class Run:
    seconds: float
    rss_mib: float
    code: int


def run_once(argv: Sequence[str], env: Optional[Dict[str, str]] = None, cwd: Path = ROOT) -> Run:
    start = time.perf_counter()
    proc = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd,
                            env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Run(elapsed, usage.ru_maxrss / 1024.0, proc.returncode)


@dataclass
class Command:
    key: str
    label: str
    argvs: List[List[str]]  # run one after the other; times add up (e.g. one call per schema)
    env: Optional[Dict[str, str]] = None
    docs: int = 0  # documents processed, for docs/s
    runs: List[Run] = field(default_factory=list)

    def run(self) -> Run:
        total, rss, code = 0.0, 0.0, 0
        for argv in self.argvs:
            one = run_once(argv, self.env)
            total += one.seconds
            rss = max(rss, one.rss_mib)
            code = max(code, one.code)
        result = Run(total, rss, code)
        self.runs.append(result)
        return result


def interleave(commands: Sequence[Command], rounds: int, warmup: int, log) -> None:
    for _ in range(warmup):
        for command in commands:
            command.run()
        for command in commands:
            command.runs.clear()
    for index in range(rounds):
        for command in commands:
            command.run()
        log(f"  round {index + 1}/{rounds}: " + ", ".join(f"{c.key} {c.runs[-1].seconds * 1000:.0f} ms"
                                                           for c in commands))


def summary(command: Command) -> Dict[str, Any]:
    times = [r.seconds for r in command.runs]
    out = {"label": command.label, "median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
           "rounds": len(times), "peak_rss_mib": max(r.rss_mib for r in command.runs),
           "exit_codes": sorted({r.code for r in command.runs})}
    if command.docs:
        rates = [command.docs / t for t in times]
        out.update(docs=command.docs, docs_per_s=statistics.median(rates), docs_per_s_min=min(rates),
                   docs_per_s_max=max(rates))
    return out


def paired_ratio(a: Command, b: Command) -> Optional[float]:
    """Median over rounds of time(a) / time(b), the rounds being interleaved."""
    pairs = [x.seconds / y.seconds for x, y in zip(a.runs, b.runs) if y.seconds > 0]
    return statistics.median(pairs) if pairs else None


# --------------------------------------------------------------------------- the benchmark


def tool_argv() -> List[str]:
    script = shutil.which("ascend-compile", path=os.path.dirname(PY))
    return [script] if script else [PY, "-m", "ascend_compile"]


def tool_env() -> Dict[str, str]:
    return dict(os.environ)


def check_jsonschema() -> Optional[str]:
    for candidate in (VENV / "bin" / "check-jsonschema", VENV / "Scripts" / "check-jsonschema.exe"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("check-jsonschema")


PARSE_ONLY = r"""
import sys, yaml
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
n = 0
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        for doc in yaml.load_all(handle.read(), Loader=loader):
            n += doc is not None
"""


def machine() -> Dict[str, Any]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor()
    probe = subprocess.run([PY, "-c", "import yaml; print(yaml.__version__, yaml.__with_libyaml__)"],
                           capture_output=True, text=True).stdout.split()
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "implementation": platform.python_implementation(), "platform": platform.platform(),
            "pyyaml": probe[0] if probe else "?", "libyaml": probe[1:] == ["True"]}


def fmt_ms(s: float) -> str:
    return f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny corpus and few rounds: a smoke test (< 60 s)")
    parser.add_argument("--rounds", type=int, default=None, help="cold-start rounds (default 15, quick 3)")
    parser.add_argument("--bulk-rounds", type=int, default=None, help="bulk rounds (default 3, quick 1)")
    parser.add_argument("--no-peers", action="store_true", help="skip check-jsonschema even if installed")
    parser.add_argument("--output", type=Path, default=None, help="results file (default bench/results/<date>.json)")
    parser.add_argument("--generate", metavar="SIZES", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.generate:
        generate_corpus(json.loads(args.generate), lambda message: print(message, file=sys.stderr))
        return 0

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    sizes = QUICK if args.quick else FULL
    rounds = args.rounds or (3 if args.quick else 15)
    bulk_rounds = args.bulk_rounds or (1 if args.quick else 3)
    started = time.time()
    # The corpus is generated (and yaml imported) in a child process: a child's peak RSS counts the
    # memory it shared with this process when forked, so this process stays small (~10 MiB floor).
    subprocess.run([PY, __file__, "--generate", json.dumps(sizes)], check=True, cwd=ROOT)
    info = json.loads((CORPUS / "corpus.json").read_text())
    files = sorted(str(p) for p in (CORPUS / "files").glob("*.yaml"))
    asc_files = [f for f in files if os.path.basename(f).startswith("ascendjob")]
    vc_files = [f for f in files if os.path.basename(f).startswith("vcjob")]
    stream = str(CORPUS / "stream.yaml")
    one_file = asc_files[0]  # a valid ~200-line AscendJob
    one_spec = str(sorted((CORPUS / "specs").glob("*.yaml"))[0])
    tool, env = tool_argv(), tool_env()
    cj = None if args.no_peers else check_jsonschema()
    notes: List[str] = []
    if cj is None:
        notes.append("check-jsonschema not found (pip install check-jsonschema into bench/.venv): its rows are skipped")

    # ---- cold start: one process per command, all interleaved
    log(f"cold start: {rounds} interleaved rounds")
    cold = [
        Command("pass", "python -c pass", [[PY, "-c", "pass"]]),
        Command("version", "ascend-compile --version", [tool + ["--version"]], env),
        Command("lint1", "ascend-compile lint (1 manifest)", [tool + ["lint", one_file]], env, docs=1),
        Command("validate1", "ascend-compile validate (1 manifest)", [tool + ["validate", one_file]], env, docs=1),
        Command("compile1", "ascend-compile compile (1 spec)", [tool + ["compile", one_spec]], env, docs=1),
        Command("parse1", "parse-only, CSafeLoader (1 manifest)", [[PY, "-c", PARSE_ONLY, one_file]], docs=1),
    ]
    if cj:
        cold.append(Command("cj1", "check-jsonschema (1 manifest)",
                            [[cj, "--schemafile", str(ASCENDJOB_SCHEMA), one_file]], docs=1))
    interleave(cold, rounds, warmup=1, log=log)

    # ---- bulk
    log(f"bulk: {bulk_rounds} interleaved rounds")
    outdir = Path(tempfile.mkdtemp(prefix="ascend-bench-"))
    n_files, n_stream, n_specs = len(files), info["stream_docs"], info["specs"]
    bulk = [
        Command("parse_files", f"parse-only, CSafeLoader ({n_files} files)", [[PY, "-c", PARSE_ONLY, *files]],
                docs=n_files),
        Command("validate_files", f"ascend-compile validate ({n_files} files)",
                [tool + ["validate", "-q", str(CORPUS / "files")]], env, docs=n_files),
        Command("lint_files", f"ascend-compile lint ({n_files} files)", [tool + ["lint", "-q", str(CORPUS / "files")]],
                env, docs=n_files),
        Command("parse_stream", f"parse-only, CSafeLoader ({n_stream}-doc stream)", [[PY, "-c", PARSE_ONLY, stream]],
                docs=n_stream),
        Command("validate_stream", f"ascend-compile validate ({n_stream}-doc stream)",
                [tool + ["validate", "-q", stream]], env, docs=n_stream),
        Command("lint_stream", f"ascend-compile lint ({n_stream}-doc stream)", [tool + ["lint", "-q", stream]], env,
                docs=n_stream),
        Command("compile_specs", f"ascend-compile compile ({n_specs} specs -> files)",
                [tool + ["compile", str(CORPUS / "specs"), "-o", str(outdir)]], env, docs=n_specs),
    ]
    if cj:
        bulk.insert(1, Command("cj_files", f"check-jsonschema ({n_files} files, 2 calls: 1 per schema)",
                               [[cj, "--schemafile", str(ASCENDJOB_SCHEMA), *asc_files],
                                [cj, "--schemafile", str(VCJOB_SCHEMA), *vc_files]], docs=n_files))
    notes.append("check-jsonschema reads one document per file, so it has no stream row")
    try:
        interleave(bulk, bulk_rounds, warmup=0, log=log)
    finally:
        shutil.rmtree(outdir, ignore_errors=True)

    by = {c.key: c for c in cold + bulk}
    results: Dict[str, Any] = {"date": _dt.datetime.now().isoformat(timespec="seconds"), "quick": args.quick,
                               "machine": machine(), "corpus": info, "rounds": rounds, "bulk_rounds": bulk_rounds,
                               "tool": " ".join(os.path.basename(a) for a in tool),
                               "check_jsonschema": cj and subprocess.run([cj, "--version"], capture_output=True,
                                                                         text=True).stdout.strip(),
                               "rows": {}, "targets": [], "notes": notes}
    for command in cold + bulk:
        row = summary(command)
        base = by["pass"] if command in cold else None
        if base is not None and command is not base:
            row["x_python_pass"] = paired_ratio(command, base)
        results["rows"][command.key] = row
    comparisons = [("lint1", "cj1"), ("validate1", "cj1"), ("lint1", "parse1"), ("validate1", "parse1"),
                   ("validate_files", "parse_files"), ("lint_files", "parse_files"),
                   ("validate_files", "cj_files"), ("lint_files", "cj_files"),
                   ("validate_stream", "parse_stream"), ("lint_stream", "parse_stream")]
    for a, b in comparisons:
        if a in by and b in by:
            results["rows"][a][f"x_{b}"] = paired_ratio(by[a], by[b])

    def target(name: str, value: Optional[float], limit: float, better: str) -> None:
        if value is None:
            results["targets"].append({"target": name, "value": None, "pass": None})
            return
        ok = value <= limit if better == "<=" else value >= limit
        results["targets"].append({"target": name, "value": value, "limit": f"{better} {limit}", "pass": ok})

    rows = results["rows"]
    target("lint 1 manifest: time x check-jsonschema", rows["lint1"].get("x_cj1"), 0.25, "<=")
    target("lint 1 manifest: time x python -c pass", rows["lint1"].get("x_python_pass"), 6.0, "<=")
    speedup = 1 / rows["validate_files"]["x_cj_files"] if rows["validate_files"].get("x_cj_files") else None
    target(f"validate {n_files} files: throughput x check-jsonschema", speedup, 10.0, ">=")
    target(f"validate {n_files} files: time x parse-only", rows["validate_files"].get("x_parse_files"), 1.3, "<=")
    target(f"lint {n_files} files: time x parse-only", rows["lint_files"].get("x_parse_files"), 1.6, "<=")
    results["elapsed_s"] = round(time.time() - started, 1)

    print(render(results))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = args.output or RESULTS / f"{_dt.date.today().isoformat()}{'-quick' if args.quick else ''}.json"
    out.write_text(json.dumps(results, indent=1) + "\n")
    log(f"wrote {out} ({results['elapsed_s']} s)")
    return 0


def render(results: Dict[str, Any]) -> str:
    m = results["machine"]
    lines = [f"ascend-compile benchmark, {results['date']}{' (quick)' if results['quick'] else ''}",
             f"machine: {m['nproc']} CPUs, {m['cpu']}, Python {m['python']}, PyYAML {m['pyyaml']} "
             f"(libyaml {'yes' if m['libyaml'] else 'no'}); tool: {results['tool']}; "
             f"{results['check_jsonschema'] or 'check-jsonschema: not installed'}",
             f"corpus: {results['corpus']['files']} files (~{results['corpus']['avg_lines']} lines, "
             f"{results['corpus']['invalid_files']} invalid), {results['corpus']['stream_docs']}-doc stream, "
             f"{results['corpus']['specs']} specs; cold start {results['rounds']} rounds, bulk "
             f"{results['bulk_rounds']} rounds (interleaved; median (min-max); ratios paired per round)", ""]
    header = "| command | median (min-max) | docs/s | x python -c pass | x check-jsonschema | x parse-only | peak RSS |"
    lines += [header, "|---|---|---|---|---|---|---|"]
    rows = results["rows"]

    def ratio(row: Dict[str, Any], *keys: str) -> str:
        for key in keys:
            if row.get(key) is not None:
                return f"{row[key]:.2f}"
        return ""

    for key, row in rows.items():
        rate = f"{row['docs_per_s']:,.0f} ({row['docs_per_s_min']:,.0f}-{row['docs_per_s_max']:,.0f})" \
            if "docs_per_s" in row and row["docs"] > 1 else ""
        lines.append(f"| {row['label']} | {fmt_ms(row['median_s'])} ({fmt_ms(row['min_s'])}-{fmt_ms(row['max_s'])}) "
                     f"| {rate} | {ratio(row, 'x_python_pass')} | {ratio(row, 'x_cj1', 'x_cj_files')} "
                     f"| {ratio(row, 'x_parse1', 'x_parse_files', 'x_parse_stream')} | {row['peak_rss_mib']:.0f} MiB |")
    lines += ["", "| target | measured | limit | result |", "|---|---|---|---|"]
    for t in results["targets"]:
        value = "n/a" if t["value"] is None else f"{t['value']:.2f}"
        verdict = "n/a" if t["pass"] is None else ("pass" if t["pass"] else "FAIL")
        lines.append(f"| {t['target']} | {value} | {t.get('limit', '')} | {verdict} |")
    for note in results["notes"]:
        lines.append(f"\nnote: {note}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
