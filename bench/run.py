#!/usr/bin/env python3
"""Benchmark ascend-compile against kubeconform, check-jsonschema and the floors, in one run.

    python bench/run.py            # full run (about 10-15 minutes on 2 cores)
    python bench/run.py --quick    # smoke run, about a minute; judges no time

Every figure is a whole-process timing.  Commands of one group run interleaved (A B C ... A B C
...), so each round measures every command under the same machine load; a ratio is computed round
by round against its baseline in the same round, and the median of those is reported with the
median time and its min-max.  Peak RSS is the child's ``ru_maxrss`` (from ``wait4``).

The corpus is generated into ``bench/corpus/`` (gitignored, :mod:`corpus`); the programs are set up
by :mod:`tools`; results go to ``bench/results/<date>.json``.  See ``bench/README.md``.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import corpus as corpus_mod  # noqa: E402
import tools  # noqa: E402
from report import render, targets  # noqa: E402

ROOT = BENCH.parent
CORPUS = corpus_mod.CORPUS
RESULTS = BENCH / "results"

PARSE_ONLY = r"""
import sys, yaml
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
n = 0
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        for doc in yaml.load_all(handle.read(), Loader=loader):
            n += doc is not None
"""


@dataclass
class Run:
    seconds: float
    rss_mib: float
    code: int


def run_once(argv: Sequence[str], env: Optional[Dict[str, str]]) -> Run:
    start = time.perf_counter()
    proc = subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return Run(elapsed, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status))


@dataclass
class Command:
    key: str
    label: str
    argv: List[str]
    env: Optional[Dict[str, str]] = None
    docs: int = 0  # documents processed, for docs/s
    before: Optional[Callable[[], None]] = None  # run untimed before each run (e.g. empty a cache)
    runs: List[Run] = field(default_factory=list)

    def run(self) -> Run:
        if self.before is not None:
            self.before()
        result = run_once(self.argv, self.env)
        self.runs.append(result)
        return result


def interleave(commands: Sequence[Command], rounds: int, warmup: int, log: Callable[[str], None]) -> None:
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
           "exit_codes": sorted({r.code for r in command.runs}), "seconds": times}
    if command.docs:
        rates = [command.docs / t for t in times]
        out.update(docs=command.docs, docs_per_s=statistics.median(rates))
    return out


def machine(python: str) -> Dict[str, Any]:
    cpu = ""
    try:
        cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                    if line.startswith("model name")), "")
    except OSError:
        cpu = platform.processor()
    probe = subprocess.run([python, "-c", "import yaml; print(yaml.__version__, yaml.__with_libyaml__)"],
                           capture_output=True, text=True).stdout.split()
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "pyyaml": probe[0] if probe else "?", "libyaml": probe[1:] == ["True"]}


class Setup:
    """The corpus, the programs and the environment every command of the run shares."""

    def __init__(self, info: Dict[str, Any], log: Callable[[str], None], peers: bool, checkout: Path = ROOT):
        self.info = info
        self.python, self.tool = tools.tool_env(checkout)
        self.commit = _commit(checkout)
        self.cache = Path(tempfile.mkdtemp(prefix="ascend-bench-cache-"))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        self.env["ASCEND_COMPILE_CACHE_DIR"] = str(self.cache)
        self.env.pop("CI", None)  # in CI ascend-compile uses no cache unless asked: the runs measured are a user's
        self.notes: List[str] = []
        self.kubeconform, note = tools.kubeconform(log)
        if note:
            self.notes.append(note)
        self.schemas = tools.kubeconform_schemas(CORPUS / "kubeconform-schemas") if self.kubeconform else ""
        self.check_jsonschema = tools.check_jsonschema() if peers else None
        if self.check_jsonschema is None:
            self.notes.append("check-jsonschema rows skipped: not installed (python -m venv bench/.venv && "
                              "bench/.venv/bin/pip install check-jsonschema)" if peers else
                              "check-jsonschema rows skipped: --no-peers")

    def ac(self, key: str, label: str, *args: str, docs: int = 0, before: Any = None) -> Command:
        return Command(key, label, self.tool + list(args), self.env, docs, before)

    def kc(self, key: str, label: str, *args: str, docs: int = 0) -> List[Command]:
        if not self.kubeconform:
            return []
        return [Command(key, label, [self.kubeconform, "-strict", "-schema-location", self.schemas, *args], docs=docs)]

    def parse(self, key: str, label: str, paths: Sequence[str], docs: int) -> Command:
        return Command(key, label, [self.python, "-c", PARSE_ONLY, *paths], self.env, docs)

    def empty_cache(self) -> None:
        shutil.rmtree(self.cache, ignore_errors=True)
        self.cache.mkdir()

    def empty_result_cache(self) -> None:
        """Remove the lint result cache (``<cache>/lint``) and keep the start-up cache (``<cache>/startup``, filled by
        the first run): what a user's lint of a file it has not seen meets."""
        shutil.rmtree(self.cache / "lint", ignore_errors=True)


def cold_group(s: Setup) -> List[Command]:
    one = str(CORPUS / "mixed" / "ascendjob-job-00002.yaml")  # a valid AscendJob, alone in its file
    job = CORPUS / "mixed" / "vcjob-job-00003.yaml"  # its ConfigMap is in vcjob-job-00003-configmap.yaml
    alone = CORPUS / "alone" / job.name
    alone.parent.mkdir(exist_ok=True)
    shutil.copy(job, alone)
    files = s.info["mixed_files"]
    commands = [
        Command("pass", "python -c pass", [s.python, "-c", "pass"], s.env),
        s.ac("version", "ascend-compile --version", "--version"),
        s.ac("lint1", "ascend-compile lint (1 manifest)", "lint", one, docs=1, before=s.empty_result_cache),
        s.ac("validate1", "ascend-compile validate (1 manifest)", "validate", one, docs=1),
        s.ac("compile1", "ascend-compile compile (1 spec)", "compile", str(CORPUS / "specs" / "spec-0000.yaml"), docs=1),
        s.parse("parse1", "parse-only, CSafeLoader (1 manifest)", [one], 1),
        *s.kc("kc1", "kubeconform (1 manifest)", one, docs=1),
        s.ac("precommit_alone", "ascend-compile lint (1 job, alone in its folder)", "lint", str(alone),
             before=s.empty_result_cache),
        s.ac("precommit", f"ascend-compile lint (1 job in a folder of {files}; its ConfigMap beside it)",
             "lint", str(job), before=s.empty_result_cache),
    ]
    if s.check_jsonschema:
        commands.append(Command("cj1", "check-jsonschema (1 manifest)", [s.check_jsonschema, "--schemafile",
                                str(ROOT / "schemas" / "ascendjob-v1.json"), one], docs=1))
    return commands


def bulk_group(s: Setup) -> List[Command]:
    info = s.info
    mixed, files, docs, stream = str(CORPUS / "mixed"), info["mixed_files"], info["mixed_docs"], info["stream_docs"]
    paths = sorted(str(p) for p in (CORPUS / "mixed").iterdir())
    out = tempfile.mkdtemp(prefix="ascend-bench-out-")
    commands = [
        s.parse("parse_mixed", f"parse-only, CSafeLoader ({files} files, {docs} docs)", paths, docs),
        *s.kc("kc_mixed", f"kubeconform ({files} files)", mixed, docs=docs),
        *s.kc("kc_mixed_n2", f"kubeconform -n 2 ({files} files)", "-n", "2", mixed, docs=docs),
        s.ac("validate_mixed", f"ascend-compile validate ({files} files)", "validate", "-q", mixed, docs=docs),
        s.ac("lint_mixed", f"ascend-compile lint ({files} files)", "lint", "-q", "--no-cache", mixed, docs=docs),
        s.ac("lint_cold", f"ascend-compile lint ({files} files, filling an empty cache)", "lint", "-q", mixed,
             docs=docs, before=s.empty_cache),
        s.ac("lint_warm", f"ascend-compile lint ({files} unchanged files, cache warm)", "lint", "-q", mixed, docs=docs),
        s.parse("parse_stream", f"parse-only, CSafeLoader ({stream}-doc stream)", [str(CORPUS / "stream.yaml")], stream),
        *s.kc("kc_stream", f"kubeconform ({stream}-doc stream)", str(CORPUS / "stream.yaml"), docs=stream),
        s.ac("validate_stream", f"ascend-compile validate ({stream}-doc stream)", "validate", "-q",
             str(CORPUS / "stream.yaml"), docs=stream),
        s.ac("lint_stream", f"ascend-compile lint ({stream}-doc stream)", "lint", "-q", "--no-cache",
             str(CORPUS / "stream.yaml"), docs=stream),
        s.ac("compile_specs", f"ascend-compile compile ({info['specs']} specs -> files)", "compile",
             str(CORPUS / "specs"), "-o", out, docs=info["specs"], before=lambda: _empty(out)),
    ]
    if s.check_jsonschema:
        asc = [p for p in paths if os.path.basename(p).startswith("ascendjob-")]
        commands.insert(1, Command("cj_ascendjobs", f"check-jsonschema ({len(asc)} AscendJob files)",
                                   [s.check_jsonschema, "--schemafile", str(ROOT / "schemas" / "ascendjob-v1.json"),
                                    *asc], docs=len(asc)))
    return commands


def scale_group(s: Setup) -> List[Command]:
    per_dir = s.info["volcano_per_dir"]
    folders = sorted(str(p) for p in (CORPUS / "volcano").iterdir())
    return [s.ac(f"lint_vc{n}", f"ascend-compile lint ({n * per_dir} Volcano Jobs, {n * per_dir} files)", "lint", "-q",
                 "--no-cache", *folders[:n], docs=2 * n * per_dir) for n in (4, 10, 16)]


def _commit(checkout: Path) -> str:
    return subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()


def _empty(folder: str) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny corpus and few rounds: a smoke test; judges no time")
    parser.add_argument("--rounds", type=int, default=None, help="cold-start rounds (default 15, quick 3)")
    parser.add_argument("--bulk-rounds", type=int, default=None, help="bulk rounds (default 3, quick 1)")
    parser.add_argument("--scale-rounds", type=int, default=None, help="scaling rounds (default 2, quick 1)")
    parser.add_argument("--no-peers", action="store_true", help="skip check-jsonschema even if installed")
    parser.add_argument("--output", type=Path, default=None, help="results file (default bench/results/<date>.json)")
    parser.add_argument("--checkout", type=Path, default=ROOT,
                        help="time the ascend-compile of another checkout (its compiler/, with its own bench/.toolenv) "
                             "on this benchmark's corpus and commands: a before/after pair measured the same way")
    parser.add_argument("--generate", metavar="SIZES", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.generate:
        corpus_mod.generate(json.loads(args.generate), log)
        return 0
    sizes = corpus_mod.QUICK if args.quick else corpus_mod.FULL
    started = time.time()
    # Generated in a child: a child's peak RSS counts what it shared with this process when forked.
    subprocess.run([sys.executable, __file__, "--generate", json.dumps(sizes)], check=True, cwd=ROOT)
    info = json.loads((CORPUS / "corpus.json").read_text())
    setup = Setup(info, log, not args.no_peers, args.checkout.resolve())
    groups = [("cold start", cold_group(setup), args.rounds or (3 if args.quick else 15), 1),
              ("bulk", bulk_group(setup), args.bulk_rounds or (1 if args.quick else 3), 0),
              ("scaling", scale_group(setup), args.scale_rounds or (1 if args.quick else 2), 0)]
    by: Dict[str, Command] = {}
    for name, commands, rounds, warmup in groups:
        log(f"{name}: {rounds} interleaved rounds")
        interleave(commands, rounds, warmup, log)
        by.update((c.key, c) for c in commands)
    results: Dict[str, Any] = {
        "date": _dt.datetime.now().isoformat(timespec="seconds"), "quick": args.quick, "machine": machine(setup.python),
        "corpus": info, "tool": "ascend-compile (console script in bench/.toolenv)",
        "commit": setup.commit,
        "kubeconform": tools.KUBECONFORM_VERSION if setup.kubeconform else None,
        "check_jsonschema": setup.check_jsonschema and subprocess.run(
            [setup.check_jsonschema, "--version"], capture_output=True, text=True).stdout.strip(),
        "rows": {key: summary(command) for key, command in by.items()}, "notes": setup.notes}
    results["targets"] = targets(by, results["rows"], judged=not args.quick)
    results["elapsed_s"] = round(time.time() - started, 1)
    shutil.rmtree(setup.cache, ignore_errors=True)
    print(render(results))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = args.output or RESULTS / f"{_dt.date.today().isoformat()}{'-quick' if args.quick else ''}.json"
    out.write_text(json.dumps(results, indent=1) + "\n")
    log(f"wrote {out} ({results['elapsed_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
