"""``python -m tests.fidelity run [--full] [--release R]``: judge the jobs on the simulated cluster of MindCluster
release R (default the newest), lint them with the target set to R, save the results per release and rewrite
docs/fidelity.md from every release's saved results.

``report [--all | --release R]`` rewrites the document in a minute: it lints every saved release's jobs again
with this checkout (offline, and against the snapshot that release's run took of its cluster) and takes
upstream's verdicts from the saved runs (a job whose objects changed since is marked not judged); use it after a
rule fix or an edit of known.yaml.  ``run --only ID...`` (fnmatch patterns) judges just those jobs again, each alone on
a new cluster of the release, in place of their verdicts in the saved run, and renders.  ``list`` prints the
generated jobs.  A subset run
(the default, the CI set) writes its results next to the full run's but never touches
docs/fidelity.md unless ``--write`` is given.
"""
from __future__ import annotations

import argparse
import fnmatch
import functools
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tests.checkout import ROOT
from tests.fidelity import evidence, generator, hints, report, runner
from tests.fidelity.parents import golden_files, sample_files, samples_missing_reason
from tests.fidelity.verdicts import LintFinding, Result, digest as verdicts_digest
from tests.simcluster import releases

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


def _results_path(full: bool, release: str) -> Path:
    return runner.cache_dir() / (f"results-full-{release}.json" if full else f"results-ci-{release}.json")


def _snapshot_path(full: bool, release: str) -> Path:
    """The snapshot ``run`` took of its cluster of ``release``, which ``report`` lints against again."""
    return runner.cache_dir() / (f"cluster-{release}.yaml" if full else f"cluster-ci-{release}.yaml")


def run(full: bool, write: bool, check_hints: bool, release: str) -> int:
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
    fresh = functools.partial(runner.fresh_cluster, release)
    print(f"fidelity: on MindCluster {release}, lint's target set to it", file=sys.stderr)
    with SimCluster(nodes_per_profile=runner.NODES_PER_PROFILE, kubectl=kubectl, release=release) as sim:
        runner.prepare(sim, jobs)
        runner.take_snapshot(sim, kubectl, _snapshot_path(full, release))
        results = runner.lint_all(jobs, runner.read_snapshot(_snapshot_path(full, release)), release)
        runner.judge_jobs(sim, jobs, results, fresh=fresh)
    hint_rows = []
    if check_hints:  # on a new cluster, for the reason judge_jobs gives
        hinted = hints.hinted_jobs(jobs, results)
        hinted_results = runner.lint_all(hinted, release=release)
        with fresh() as sim:
            runner.judge_jobs(sim, hinted, hinted_results, fresh=fresh)
        hint_rows = hints.verdicts(hinted, hinted_results)
    ordered = [results[j.id] for j in jobs]
    the_run = report.Run(ordered, full, len(generated.jobs), len(generator.ci_subset(generated.jobs)),
                         generated.skipped, guard(), hint_rows, time.monotonic() - started, release=release)
    runner.save(ordered, _results_path(full, release),
                {"full": full, "hints": hint_rows, "skipped": generated.skipped, "generated": the_run.generated,
                 "ci_jobs": the_run.ci_jobs, "seconds": the_run.seconds, "release": release})
    others = [saved_run(full, other, generated, the_run.guard) for other in saved_releases(full) if other != release]
    return _finish([the_run, *others], [the_run], write, generated)


def _finish(runs: Sequence[report.Run], judged: Sequence[report.Run], write: bool,
            generated: generator.Generated) -> int:
    """Render ``runs`` (one per release) into the document; the exit status and the summary line judge ``judged``."""
    text = report.render(runs, {job.id: job.objects for job in generated.jobs})
    if write:
        DOC.write_text(text, encoding="utf-8")
        print(f"fidelity: wrote {DOC.relative_to(ROOT)} ({', '.join(sorted(r.release for r in runs))})",
              file=sys.stderr)
    if write and all(run.full for run in runs):  # a subset's counts are no evidence of a rule
        evidence.write({run.release: run.results for run in runs},
                       {"version": generator.GENERATOR_VERSION, "seed": generator.SEED})
        print(f"fidelity: wrote {evidence.EVIDENCE_FILE.relative_to(ROOT)}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    entries = report.known_mod.load()
    failed = False
    for the_run in judged:
        left = report.unexplained(the_run.results, entries, the_run.release)
        short = report.inventory_problems(the_run.results, entries, the_run.release)
        print(f"fidelity: {the_run.release}: {len(the_run.results)} jobs, {len(left)} unexplained disagreements, "
              f"{len(short)} where the cluster snapshot falls short, oracle run {the_run.seconds:.0f}s",
              file=sys.stderr)
        failed = failed or bool(left or short)
    return 1 if failed else 0


def relint(saved: Sequence[Result], jobs: Sequence[generator.Job], inventory: Any = None,
           release: str = "") -> List[Result]:
    """The jobs linted by this checkout (and against ``inventory``, the saved snapshot of the run's cluster), with the
    oracle's saved verdicts where the job's objects are the ones it judged; a new or changed job is marked not
    judged (an inconclusive verdict)."""
    by_id = {r.id: r for r in saved}
    fresh = runner.lint_all(jobs, inventory, release)
    out = []
    for job in jobs:
        result, old = fresh[job.id], by_id.get(job.id)
        if old is not None and old.digest == result.digest:
            result.outcome, result.room, result.reason, result.message = old.outcome, old.room, old.reason, old.message
        else:
            result.outcome, result.message = "not-judged", "new or changed since the saved oracle run"
        out.append(result)
    return out


def saved_releases(full: bool) -> List[str]:
    """The supported releases with a saved run (of the full set or of the CI subset), oldest first."""
    return [release for release in releases.SUPPORTED if _results_path(full, release).is_file()]


def _saved_snapshot(full: bool, release: str) -> Any:
    """The inventory of the snapshot the saved run on ``release`` took of its cluster; None (said) when it took none."""
    if _snapshot_path(full, release).is_file():
        return runner.read_snapshot(_snapshot_path(full, release))
    print(f"fidelity: no {_snapshot_path(full, release)} (a run before the snapshot was taken): jobs are not "
          "linted against the cluster", file=sys.stderr)
    return None


def saved_run(full: bool, release: str, generated: generator.Generated,
              guard_rows: Dict[str, List[Tuple[str, List[LintFinding]]]]) -> report.Run:
    """The saved run on ``release``, its jobs linted again by this checkout against its saved verdicts."""
    data = runner.load(_results_path(full, release))
    jobs = generated.jobs if full else generator.ci_subset(generated.jobs)
    inventory = _saved_snapshot(full, release)
    return report.Run(relint(data["results"], jobs, inventory, release), full, len(generated.jobs),
                      len(generator.ci_subset(generated.jobs)), generated.skipped, guard_rows, data["hints"],
                      float(data.get("seconds", 0.0)), relinted=True, release=release)


def rerender(full: bool, write: bool, release: Optional[str]) -> int:
    """Re-lint every saved release's jobs with this checkout against its saved oracle verdicts, and render them all;
    the exit status judges ``release`` (every saved one when None)."""
    saved = saved_releases(full)
    if release is not None and release not in saved:
        print(f"fidelity: no saved run on {release} ({_results_path(full, release)}); run "
              f"`python -m tests.fidelity run{' --full' if full else ''} --release {release}` first", file=sys.stderr)
        return 2
    if not saved:
        print(f"fidelity: no saved run of any release in {runner.cache_dir()}", file=sys.stderr)
        return 2
    generated, guard_rows = generator.generate(), guard()
    runs = [saved_run(full, name, generated, guard_rows) for name in saved]
    return _finish(runs, [r for r in runs if release is None or r.release == release], write, generated)


def recheck(full: bool, write: bool, release: str) -> int:
    """Judge the saved run's jobs that never got a pod again on a new cluster of ``release`` (as ``run`` does after its
    batches), with the pending ones ``known.yaml`` lists as ``investigate`` there, save the verdicts and render: for a
    run whose recheck missed them (before the never-enqueued test read Volcano v1.9.0's message)."""
    path = _results_path(full, release)
    if not path.is_file():
        print(f"fidelity: no saved run on {release} ({path})", file=sys.stderr)
        return 2
    data = runner.load(path)
    generated = generator.generate()
    jobs = {job.id: job for job in (generated.jobs if full else generator.ci_subset(generated.jobs))}
    results = {r.id: r for r in data["results"]}
    entries = report.known_mod.load()

    def looked_into(result: Result) -> bool:  # a pending verdict known.yaml lists as not understood yet
        entry = report.known_mod.explain(entries, result.id, result.verdict, release)
        return result.outcome == "pending" and entry is not None and entry.kind == "investigate"
    again = [jobs[r.id] for r in data["results"] if (runner.never_enqueued(r) or looked_into(r)) and r.id in jobs
             and r.digest == verdicts_digest(jobs[r.id].objects)]
    started = time.monotonic()
    with runner.fresh_cluster(release) as sim:
        runner.prepare(sim, again)
        alone = runner.recheck(sim, again, results)
    seconds = time.monotonic() - started
    print(f"fidelity: {release}: {len(again)} jobs that never got a pod judged again ({alone} one by one), "
          f"{seconds:.0f}s", file=sys.stderr)
    data["seconds"] = float(data.get("seconds", 0.0)) + seconds
    data["rechecked"] = len(again)
    runner.save(data.pop("results"), path, data)
    return rerender(full, write, release)


def run_only(full: bool, write: bool, release: str, patterns: Sequence[str]) -> int:
    """Judge the jobs whose ids match ``patterns`` (fnmatch, as known.yaml's) again, each alone on a new cluster of
    ``release``, in place of their verdicts in the saved run, and render: to settle a few jobs without a full run
    (after a harness or oracle fix, or to see what a job does where nothing else runs)."""
    path = _results_path(full, release)
    if not path.is_file():
        print(f"fidelity: no saved run on {release} ({path}); `--only` judges jobs of a saved run again",
              file=sys.stderr)
        return 2
    generated = generator.generate()
    pool = generated.jobs if full else generator.ci_subset(generated.jobs)
    chosen = [job for job in pool if any(fnmatch.fnmatchcase(job.id, p) for p in patterns)]
    unmatched = [p for p in patterns if not any(fnmatch.fnmatchcase(job.id, p) for job in pool)]
    if unmatched:
        print(f"fidelity: no job of the {'full set' if full else 'CI subset'} matches {', '.join(unmatched)} "
              "(`python -m tests.fidelity list` prints them)", file=sys.stderr)
        return 2
    data = runner.load(path)
    results = runner.lint_all(chosen, _saved_snapshot(full, release), release)
    started = time.monotonic()
    with runner.fresh_cluster(release) as sim:
        runner.prepare(sim, chosen)
        runner.judge_each(sim, chosen, results)
    for job in chosen:
        result = results[job.id]
        print(f"fidelity: {release}: {job.id}: {result.outcome}"
              + (f" ({result.room}): {result.reason}: {result.message}" if result.outcome != "running" else ""),
              file=sys.stderr)
    by_id = {r.id: r for r in data.pop("results")}
    by_id.update(results)
    data["seconds"] = float(data.get("seconds", 0.0)) + time.monotonic() - started
    runner.save([by_id[job.id] for job in pool if job.id in by_id], path, data)
    return rerender(full, write, release)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fidelity", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "report", "recheck"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--full", action="store_true", help="the full generated set (default: the CI subset)")
        cmd.add_argument("--write", action="store_true", help="write docs/fidelity.md (default with --full)")
        cmd.add_argument("--release", choices=releases.SUPPORTED,
                         help="the MindCluster release the oracle's cluster runs and lint targets (default "
                              f"{releases.DEFAULT}); for report, the one whose disagreements set the exit status")
    sub.choices["run"].add_argument("--no-hints", action="store_true", help="skip the hint-safety check")
    sub.choices["run"].add_argument("--only", nargs="+", metavar="ID",
                                    help="judge only the jobs whose ids match these fnmatch patterns, each alone on a "
                                         "new cluster, in place of their verdicts in the saved run")
    sub.choices["report"].add_argument("--all", action="store_true",
                                       help="judge every saved release (the document always shows every one)")
    sub.add_parser("list")
    args = parser.parse_args(argv)
    if args.command == "list":
        generated = generator.generate()
        for job in generated.jobs:
            print(job.id)
        return 0
    write = args.write or args.full
    if args.command == "recheck":
        return recheck(args.full, write, args.release or releases.DEFAULT)
    if args.command == "report":
        return rerender(args.full, write, None if args.all else (args.release or releases.DEFAULT))
    if args.only:
        return run_only(args.full, write, args.release or releases.DEFAULT, args.only)
    return run(args.full, write, not args.no_hints, args.release or releases.DEFAULT)
