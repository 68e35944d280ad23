#!/usr/bin/env python3
"""Our JSON Schema validator against jsonschema-rs, fastjsonschema and python-jsonschema.

    python bench/validators.py            # full run on the 2,000-file corpus of bench/run.py (~10 min)
    python bench/validators.py --quick    # 60 files, few rounds: a smoke run (~1 min)

Needs ``pip install jsonschema-rs fastjsonschema jsonschema`` into the Python that
runs it (a backend that is not installed is skipped, with a note).  Four parts,
each printed as a Markdown table; everything also goes to
``bench/results/validators-<date>.json``:

features
    What each backend gives that our findings need, probed on small schemas
    and on the corpus: every error or only the first, the failing instance
    path, the failing keyword, our integer formats checked on numbers, YAML
    values (dates, non-string keys) accepted as they are, all our schema files
    compiled unchanged, and the failing paths of the corpus equal to
    python-jsonschema's.
per document
    In one process, the corpus parsed once; each backend checks every document
    and collects every error it reports (``bench/vbackends.py``: ``raw``).
    Rounds are interleaved; the ratio to ours is paired per round.
start-up
    A cold process that imports the backend, loads and builds the AscendJob
    schema and checks one document, against a process that only imports the
    harness (the difference is the backend's start-up cost).
whole validate
    ``ascend-compile validate`` over the 2,000 files and over one file, with
    the schema check done by each backend through an adapter that maps its
    errors to our findings (``bench/vbackends.py``: ``plug_into_tool``); ours
    runs through the same harness.

Whole-process timings follow bench/run.py: interleaved rounds, medians with
min-max, ratios paired per round against a baseline of the same round.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SCHEMAS = ROOT / "schemas"
sys.path.insert(0, str(BENCH))

import run as harness  # noqa: E402 - bench/run.py: corpus recipe, interleaved whole-process timing
import vbackends  # noqa: E402

PY = sys.executable
FILE_FOR_KIND = {"AscendJob": "ascendjob-v1.json", "Job": "volcano-job-v1.15.0.json"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def import_root() -> Path:
    """A folder holding ``ascend_compile -> <checkout>/compiler``, for PYTHONPATH (as tests/checkout.py does)."""
    folder = Path(tempfile.mkdtemp(prefix="ascend-bench-root-"))
    (folder / "ascend_compile").symlink_to(ROOT / "compiler", target_is_directory=True)
    return folder


def child_env(root: Path) -> Dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root) + os.pathsep + str(BENCH)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its .pyc files: so do we (warm-up run)
    return env


def load_corpus(files: Sequence[str]) -> List[Tuple[str, Any]]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    docs = []
    for path in files:
        with open(path, "rb") as handle:
            for data in yaml.load_all(handle.read(), Loader=loader):
                docs.append((FILE_FOR_KIND[data["kind"]], data))
    return docs


def schema(file: str) -> Dict[str, Any]:
    with open(SCHEMAS / file, encoding="utf-8") as handle:
        return json.load(handle)


# --------------------------------------------------------------------------- features


def _one(key: str, sch: Dict[str, Any], data: Any) -> Any:
    backend = vbackends.BACKENDS[key]
    try:
        return backend.problems(backend.build(sch), data)
    except Exception as exc:  # noqa: BLE001 - a refusal is the finding
        return f"refused: {type(exc).__name__}: {str(exc)[:60]}"


def _native_int_format(key: str) -> bool:
    """Is format int32 checked on an integer by the library's own format hook (no schema rewrite)?"""
    sch = {"type": "integer", "format": "int32"}
    if key == "ours":
        from ascend_compile.schemacheck.validator import Validator

        return not Validator(sch).is_valid(2 ** 40)
    if key == "rs":
        import jsonschema_rs

        return not jsonschema_rs.Draft202012Validator(sch, validate_formats=True,
                                                      formats={"int32": lambda v: False}).is_valid(2 ** 40)
    if key == "fast":
        import fastjsonschema

        try:
            fastjsonschema.compile(sch, formats={"int32": lambda v: False})(2 ** 40)
        except fastjsonschema.JsonSchemaValueException:
            return True
        return False
    import jsonschema

    checker = jsonschema.FormatChecker(formats=())
    checker.checks("int32")(lambda v: False)
    return not jsonschema.Draft202012Validator(sch, format_checker=checker).is_valid(2 ** 40)


def _yaml_values(key: str) -> bool:
    """Are an unquoted YAML date and an integer key taken as strings, as the API server takes them?"""
    sch = {"type": "object", "additionalProperties": False,
           "properties": {"when": {"type": "string"}, "1": {"type": "string"}}}
    data = {"when": _dt.date(2024, 5, 1), 1: "x"}
    try:
        if key == "ours":
            from ascend_compile.schemacheck.validator import Validator

            return Validator(sch).is_valid(data)
        if key == "rs":
            import jsonschema_rs

            return bool(jsonschema_rs.Draft202012Validator(sch).is_valid(data))
        if key == "fast":
            import fastjsonschema

            fastjsonschema.compile(sch)(data)
            return True
        import jsonschema

        return bool(jsonschema.Draft202012Validator(sch).is_valid(data))
    except Exception:  # noqa: BLE001 - refused or failed: not accepted
        return False


def _compiles_all(key: str) -> str:
    backend = vbackends.BACKENDS[key]
    with open(SCHEMAS / "index.json", encoding="utf-8") as handle:
        kinds = json.load(handle)["kinds"]
    files = sorted({f for entry in kinds.values() for f in ([entry["file"]] if "file" in entry
                                                             else entry["volcano"].values())})
    failed = []
    for file in files:
        try:
            backend.build(schema(file))
        except Exception:  # noqa: BLE001
            failed.append(file)
    return "all " + str(len(files)) if not failed else f"{len(files) - len(failed)}/{len(files)}"


def _reference_paths(problems: Sequence[vbackends.Problem]) -> set:
    """Failing paths where python-jsonschema puts them: the object, for unknown and missing fields."""
    return {p[1][:-1] if p[0] in ("AC101", "AC103") else p[1] for p in problems}


def features(keys: Sequence[str], docs: List[Tuple[str, Any]]) -> Dict[str, Dict[str, Any]]:
    flat = {"type": "object", "additionalProperties": False, "required": ["c"],
            "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {}}}
    nested = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "replicas": {"type": "integer"}, "when": {"type": "string", "format": "date-time"}}}}}
    out: Dict[str, Dict[str, Any]] = {}
    reference: Dict[str, Any] = {}
    invalid = [(file, data) for file, data in docs if vbackends.PythonJsonschema.raw(
        reference.setdefault(file, vbackends.PythonJsonschema.build(schema(file))), data)]
    for key in keys:
        backend = vbackends.BACKENDS[key]
        row: Dict[str, Any] = {}
        found = _one(key, flat, {"a": "x", "b": 1, "z": 0})  # 4 problems: a, b, z unknown, c missing
        row["errors reported (of 4)"] = found if isinstance(found, str) else len(found)
        found = _one(key, nested, {"spec": {"replicas": "two"}})
        row["instance path"] = found if isinstance(found, str) else [list(p[1]) for p in found] == [["spec", "replicas"]]
        found = _one(key, nested, {"spec": {"when": "yesterday"}})
        row["custom string format (date-time)"] = found if isinstance(found, str) else len(found) == 1
        row["int32 range checked by the format hook"] = _native_int_format(key)
        row["YAML values as they are (date, int key)"] = _yaml_values(key)
        row["compiles all our schema files (libraries: int formats as bounds)"] = _compiles_all(key)
        compiled = {file: backend.build(schema(file)) for file in FILE_FOR_KIND.values()}
        agree = sum(_reference_paths(backend.problems(compiled[file], data))
                    == _reference_paths(vbackends.PythonJsonschema.problems(reference[file], data))
                    for file, data in invalid)
        row["failing paths = python-jsonschema's (invalid corpus docs)"] = f"{agree}/{len(invalid)}"
        out[key] = row
    return out


# --------------------------------------------------------------------------- per document


def per_document(keys: Sequence[str], docs: List[Tuple[str, Any]], rounds: int) -> Dict[str, Dict[str, Any]]:
    compiled: Dict[str, Dict[str, Any]] = {}
    out: Dict[str, Dict[str, Any]] = {}
    for key in keys:
        backend = vbackends.BACKENDS[key]
        start = time.perf_counter()
        compiled[key] = {file: backend.build(schema(file)) for file in FILE_FOR_KIND.values()}
        build = time.perf_counter() - start
        start = time.perf_counter()
        invalid = sum(bool(backend.raw(compiled[key][file], data)) for file, data in docs)
        first = time.perf_counter() - start
        out[key] = {"build_ms": build * 1000, "first_pass_us": first / len(docs) * 1e6, "invalid_docs": invalid,
                    "rounds_us": []}
    for index in range(rounds):
        for key in keys:
            raw, table = vbackends.BACKENDS[key].raw, compiled[key]
            start = time.perf_counter()
            for file, data in docs:
                raw(table[file], data)
            out[key]["rounds_us"].append((time.perf_counter() - start) / len(docs) * 1e6)
        log(f"  per document, round {index + 1}/{rounds}: "
            + ", ".join(f"{k} {out[k]['rounds_us'][-1]:.1f} us" for k in keys))
    for key in keys:
        row = out[key]
        row["median_us"] = statistics.median(row["rounds_us"])
        row["x_ours"] = statistics.median(a / b for a, b in zip(row["rounds_us"], out["ours"]["rounds_us"]))
    return out


# --------------------------------------------------------------------------- whole processes


def cold_start(keys: Sequence[str], env: Dict[str, str], one_json: str, rounds: int) -> Dict[str, Any]:
    asc = str(SCHEMAS / "ascendjob-v1.json")
    base = harness.Command("base", "python + import of the harness only",
                           [[PY, "-c", "import vbackends"]], env)
    commands = [base] + [harness.Command(key, vbackends.BACKENDS[key].name, [[
        PY, "-c", f"import vbackends; vbackends.cold({key!r}, {asc!r}, {one_json!r})"]], env) for key in keys]
    harness.interleave(commands, rounds, warmup=1, log=log)
    out = {}
    for command in commands:
        row = harness.summary(command)
        times = [r.seconds for r in command.runs]
        row["above_base_ms"] = statistics.median(
            (a.seconds - b.seconds) * 1000 for a, b in zip(command.runs, base.runs))
        row["median_ms"] = statistics.median(times) * 1000
        out[command.key] = row
    return out


def whole_validate(keys: Sequence[str], env: Dict[str, str], target: str, rounds: int, label: str) -> Dict[str, Any]:
    entry = str(BENCH / "vbackends.py")
    commands = [harness.Command(key, f"validate {label}, {vbackends.BACKENDS[key].name}",
                                [[PY, entry, key, "validate", "-q", target]], env) for key in keys]
    harness.interleave(commands, rounds, warmup=1, log=log)
    out = {}
    for command in commands:
        row = harness.summary(command)
        row["median_ms"] = row["median_s"] * 1000
        row["x_ours"] = harness.paired_ratio(command, commands[0])
        out[command.key] = row
    return out


# --------------------------------------------------------------------------- report


def render(results: Dict[str, Any]) -> str:
    names = {key: vbackends.BACKENDS[key].name + f" {results['versions'][key]}" for key in results["keys"]}
    lines = [f"validators benchmark, {results['date']}{' (quick)' if results['quick'] else ''}: "
             f"{results['machine']['nproc']} CPUs, Python {results['machine']['python']}, "
             f"{results.get('docs', '?')} documents ({results['corpus_files']} files)", ""]
    if "features" in results:
        rows = list(next(iter(results["features"].values())))
        lines += ["| what findings need | " + " | ".join(names[k] for k in results["keys"]) + " |",
                  "|---" * (len(results["keys"]) + 1) + "|"]
        for row in rows:
            cells = [results["features"][k][row] for k in results["keys"]]
            lines.append(f"| {row} | " + " | ".join("yes" if c is True else "no" if c is False else str(c)
                                                   for c in cells) + " |")
        lines.append("")
    table: List[Tuple[str, Callable[[str], str]]] = []
    if "per_document" in results:
        pd = results["per_document"]
        table += [("build both schemas, in process", lambda k: f"{pd[k]['build_ms']:.1f} ms"),
                  ("first pass, per document", lambda k: f"{pd[k]['first_pass_us']:.0f} us"),
                  ("per document (median)", lambda k: f"{pd[k]['median_us']:.0f} us"),
                  ("per document, x ours", lambda k: f"{pd[k]['x_ours']:.2f}"),
                  ("documents with errors", lambda k: str(pd[k]["invalid_docs"]))]
    if "cold_start" in results:
        cs = results["cold_start"]
        table += [("start-up: import + build + 1 doc, above base", lambda k: f"{cs[k]['above_base_ms']:.1f} ms")]
    for part, label in (("validate_files", "files"), ("validate_one", "1 file")):
        if part in results:
            wv = results[part]
            table += [(f"whole `validate`, {label} (median)",
                       lambda k, wv=wv: f"{wv[k]['median_ms']:.0f} ms ({wv[k]['min_s'] * 1000:.0f}-"
                                        f"{wv[k]['max_s'] * 1000:.0f})" if k in wv else "n/a"),
                      (f"whole `validate`, {label}, x ours",
                       lambda k, wv=wv: f"{wv[k]['x_ours']:.2f}" if k in wv else "n/a"),
                      (f"whole `validate`, {label}, peak RSS",
                       lambda k, wv=wv: f"{wv[k]['peak_rss_mib']:.0f} MiB" if k in wv else "n/a")]
    if table:
        lines += ["| measure | " + " | ".join(names[k] for k in results["keys"]) + " |",
                  "|---" * (len(results["keys"]) + 1) + "|"]
        lines += [f"| {label} | " + " | ".join(fn(k) for k in results["keys"]) + " |" for label, fn in table]
    if "cold_start" in results:
        base = results["cold_start"]["base"]
        lines.append(f"\nbase process (python + harness import): {base['median_ms']:.0f} ms median")
    for note in results["notes"]:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="60 files and few rounds: a smoke run")
    parser.add_argument("--parts", default="features,perdoc,startup,files,one",
                        help="comma-separated: features, perdoc, startup, files, one (default: all)")
    parser.add_argument("--backends", default="ours,rs,fast,py", help="comma-separated: ours, rs, fast, py")
    parser.add_argument("--rounds", type=int, default=None, help="cold-start and per-document rounds (default 15)")
    parser.add_argument("--bulk-rounds", type=int, default=None, help="2,000-file rounds (default 5)")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    rounds = args.rounds or (3 if args.quick else 15)
    bulk_rounds = args.bulk_rounds or (1 if args.quick else 5)
    sizes = harness.QUICK if args.quick else harness.FULL
    subprocess.run([PY, str(BENCH / "run.py"), "--generate", json.dumps(sizes)], check=True, cwd=ROOT)
    files = sorted(str(p) for p in (harness.CORPUS / "files").glob("*.yaml"))
    root = import_root()
    sys.path.insert(0, str(root))
    notes: List[str] = []
    keys = [k for k in args.backends.split(",") if k == "ours" or vbackends.available(k)]
    for missing in sorted(set(args.backends.split(",")) - set(keys)):
        notes.append(f"{vbackends.BACKENDS[missing].name} is not installed: skipped")
    keys = ["ours"] + [k for k in keys if k != "ours"]
    results: Dict[str, Any] = {"date": _dt.datetime.now().isoformat(timespec="seconds"), "quick": args.quick,
                               "machine": harness.machine(), "keys": keys, "corpus_files": len(files),
                               "notes": notes, "versions": {k: vbackends.BACKENDS[k].version() for k in keys}}
    env = child_env(root)
    one_file = [f for f in files if os.path.basename(f).startswith("ascendjob")][0]
    try:
        # Whole processes first: a child's peak RSS counts what this process held when it forked,
        # so the corpus is loaded into this process only afterwards.
        if "startup" in parts:
            one_json = str(root / "one.json")
            subprocess.run([PY, "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), "
                                      "open(sys.argv[2], 'w'))", one_file, one_json], check=True)
            log(f"start-up: {rounds} interleaved rounds")
            results["cold_start"] = cold_start(keys, env, one_json, rounds)
        if "files" in parts:
            log(f"whole validate over {len(files)} files: {bulk_rounds} interleaved rounds")
            results["validate_files"] = whole_validate(keys, env, str(harness.CORPUS / "files"), bulk_rounds,
                                                       f"{len(files)} files")
        if "one" in parts:
            log(f"whole validate of 1 file: {rounds} interleaved rounds")
            results["validate_one"] = whole_validate(keys, env, one_file, rounds, "1 file")
        docs = load_corpus(files)
        results["docs"] = len(docs)
        if "features" in parts:
            log("features ...")
            results["features"] = features(keys, docs)
        if "perdoc" in parts:
            log(f"per document: {rounds} interleaved rounds")
            results["per_document"] = per_document(keys, docs, rounds)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(render(results))
    harness.RESULTS.mkdir(parents=True, exist_ok=True)
    out = args.output or harness.RESULTS / (f"validators-{_dt.date.today().isoformat()}"
                                            f"{'-quick' if args.quick else ''}.json")
    out.write_text(json.dumps(results, indent=1, default=str) + "\n")
    log(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
