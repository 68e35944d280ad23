"""``python -m tests.fidelity run [--full]``: run the differential test and rewrite docs/fidelity.md.

``report`` rewrites the document in seconds: it lints every job again with this checkout (offline, and
against the snapshot the last run took of its cluster) and takes upstream's verdicts from the last saved
run (a job whose objects changed since is marked not judged); use it after a rule fix or an edit of
known.yaml.  ``list`` prints the generated jobs.  A subset run
(the default, the CI set) writes its results next to the full run's but never touches
docs/fidelity.md unless ``--write`` is given.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tests.checkout import ROOT
from tests.fidelity import generator, hints, report, runner
from tests.fidelity.parents import golden_files, sample_files, samples_missing_reason
from tests.fidelity.verdicts import LintFinding, Result

DOC = ROOT / "docs" / "fidelity.md"


def guard() -> Dict[str, List[Tuple[str, List[LintFinding]]]]:
    """Lint every golden and upstream sample file as it is (the false-positive guard)."""
    import ascend_compile

    out: Dict[str, List[Tuple[str, List[LintFinding]]]] = {}
    for name, files, root in (("goldens", golden_files(), ROOT / "golden"),
                              ("upstream samples", sample_files(), None)):
        items = []
        for path in files:
            found = ascend_compile.lint_manifests(str(path))
            items.append((path.relative_to(root).as_posix() if root else path.name,
                          [LintFinding(f.rule, f.severity, f.message, f.field_path, f.hint) for f in found]))
        out[name] = items
    return out


def _results_path(full: bool) -> Path:
    return runner.cache_dir() / ("results-full.json" if full else "results-ci.json")


def _snapshot_path(full: bool) -> Path:
    """The snapshot ``run`` took of its cluster, which ``report`` lints against again."""
    return runner.cache_dir() / ("cluster-full.yaml" if full else "cluster-ci.yaml")


def run(full: bool, write: bool, check_hints: bool) -> int:
    reason = samples_missing_reason()
    if reason:
        print(f"fidelity: {reason}; the samples are left out of the run", file=sys.stderr)
    started = time.monotonic()
    generated = generator.generate()
    jobs = generated.jobs if full else generator.ci_subset(generated.jobs)
    print(f"fidelity: {len(jobs)} jobs ({'full' if full else 'CI subset'})", file=sys.stderr)
    from tests.integration.controlplane import find_kubectl
    from tests.simcluster.cluster import SimCluster

    kubectl = find_kubectl()
    if kubectl is None:
        raise SystemExit("fidelity: kubectl not found on PATH (the oracle's cluster and its snapshot need it)")
    with SimCluster(nodes_per_profile=runner.NODES_PER_PROFILE, kubectl=kubectl) as sim:
        runner.prepare(sim, jobs)
        runner.take_snapshot(sim, kubectl, _snapshot_path(full))
        results = runner.lint_all(jobs, runner.read_snapshot(_snapshot_path(full)))
        runner.judge_jobs(sim, jobs, results, fresh=runner.fresh_cluster)
    hint_rows = []
    if check_hints:  # on a new cluster, for the reason judge_jobs gives
        hinted = hints.hinted_jobs(jobs, results)
        hinted_results = runner.lint_all(hinted)
        with runner.fresh_cluster() as sim:
            runner.judge_jobs(sim, hinted, hinted_results, fresh=runner.fresh_cluster)
        hint_rows = hints.verdicts(hinted, hinted_results)
    ordered = [results[j.id] for j in jobs]
    the_run = report.Run(ordered, full, len(generated.jobs), len(generator.ci_subset(generated.jobs)),
                         generated.skipped, guard(), hint_rows, time.monotonic() - started)
    runner.save(ordered, _results_path(full), {"full": full, "hints": hint_rows, "skipped": generated.skipped,
                                               "generated": the_run.generated, "ci_jobs": the_run.ci_jobs,
                                               "seconds": the_run.seconds})
    return _finish(the_run, write)


def _finish(the_run: report.Run, write: bool) -> int:
    text = report.render(the_run)
    if write:
        DOC.write_text(text, encoding="utf-8")
        print(f"fidelity: wrote {DOC.relative_to(ROOT)}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    entries = report.known_mod.load()
    left = report.unexplained(the_run.results, entries)
    short = report.inventory_problems(the_run.results, entries)
    print(f"fidelity: {len(the_run.results)} jobs, {len(left)} unexplained disagreements, {len(short)} where the "
          f"cluster snapshot falls short, {the_run.seconds:.0f}s", file=sys.stderr)
    return 1 if left or short else 0


def relint(saved: Sequence[Result], jobs: Sequence[generator.Job], inventory: Any = None) -> List[Result]:
    """The jobs linted by this checkout (and against ``inventory``, the saved snapshot of the run's cluster), with the
    oracle's saved verdicts where the job's objects are the ones it judged; a new or changed job is marked not
    judged (an inconclusive verdict)."""
    by_id = {r.id: r for r in saved}
    fresh = runner.lint_all(jobs, inventory)
    out = []
    for job in jobs:
        result, old = fresh[job.id], by_id.get(job.id)
        if old is not None and old.digest == result.digest:
            result.outcome, result.room, result.reason, result.message = old.outcome, old.room, old.reason, old.message
        else:
            result.outcome, result.message = "not-judged", "new or changed since the saved oracle run"
        out.append(result)
    return out


def rerender(full: bool, write: bool) -> int:
    """Re-lint the jobs with this checkout against the last run's oracle verdicts, and render."""
    data = runner.load(_results_path(full))
    generated = generator.generate()
    jobs = generated.jobs if full else generator.ci_subset(generated.jobs)
    inventory = None
    if _snapshot_path(full).is_file():
        inventory = runner.read_snapshot(_snapshot_path(full))
    else:
        print(f"fidelity: no {_snapshot_path(full)} (a run before the snapshot was taken): jobs are not linted "
              "against the cluster", file=sys.stderr)
    the_run = report.Run(relint(data["results"], jobs, inventory), full, len(generated.jobs),
                         len(generator.ci_subset(generated.jobs)), generated.skipped, guard(), data["hints"],
                         float(data.get("seconds", 0.0)), relinted=True)
    return _finish(the_run, write)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fidelity", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "report"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--full", action="store_true", help="the full generated set (default: the CI subset)")
        cmd.add_argument("--write", action="store_true", help="write docs/fidelity.md (default with --full)")
    sub.choices["run"].add_argument("--no-hints", action="store_true", help="skip the hint-safety check")
    sub.add_parser("list")
    args = parser.parse_args(argv)
    if args.command == "list":
        generated = generator.generate()
        for job in generated.jobs:
            print(job.id)
        return 0
    write = args.write or args.full
    if args.command == "report":
        return rerender(args.full, write)
    return run(args.full, write, not args.no_hints)
