"""``python -m tests.fidelity run [--full] [--release R]``: judge the jobs on the simulated cluster of MindCluster
release R (default the newest), lint them with the target set to R, save the oracle's verdicts per release and
rewrite docs/fidelity.md from every release's saved verdicts.  A full run's verdicts and its cluster's snapshot are
committed evidence (tests/fidelity/runs, :mod:`tests.fidelity.runs`); the document is written only while every
supported release has one (else the run prints its release's section).

``report [--all | --release R]`` lints every saved release's jobs again with this checkout (offline, and against
the snapshot that release's run took of its cluster) and takes upstream's verdicts from the saved runs (a job whose
objects changed since is marked not judged); ``report --full --all`` rewrites the document in a minute (use it
after a rule fix or an edit of known.yaml), ``report --full --release R`` prints R's section.  ``run --only ID...``
(fnmatch patterns) judges just those jobs again, each alone on a new cluster of the release, in place of their
verdicts in the saved run, and renders.  ``list`` prints the generated jobs.  A subset run (the default, the CI set)
writes its verdicts into the cache and never touches docs/fidelity.md unless ``--write`` is given.
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
from tests.fidelity import evidence, generator, hints, report, runner, runs
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
    """The oracle's verdicts of the run on ``release``: a full run's committed (tests/fidelity/runs), the CI subset's
    in the cache."""
    return runs.verdicts_file(release) if full else runs.verdicts_file(release, runner.cache_dir(), "ci-")


def _snapshot_path(full: bool, release: str) -> Path:
    """The snapshot ``run`` took of its cluster of ``release``, which ``report`` lints against again (beside the
    verdicts)."""
    return runs.snapshot_file(release) if full else runs.snapshot_file(release, runner.cache_dir(), "ci-")


def _meta(the_run: report.Run, crashes: Sequence[Dict[str, str]]) -> Dict[str, Any]:
    """What a saved run keeps beside its verdicts."""
    return {"release": the_run.release, "full": the_run.full, "seconds": round(the_run.seconds),
            "generator": generator.GENERATOR_VERSION, "seed": generator.SEED, "jobs": len(the_run.results),
            "hints": the_run.hints, "crashes": list(crashes)}


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
        crashes = runner.judge_jobs(sim, jobs, results, fresh=fresh)
    hint_rows = []
    if check_hints:  # on a new cluster, for the reason judge_jobs gives
        hinted = hints.hinted_jobs(jobs, results)
        hinted_results = runner.lint_all(hinted, release=release)
        with fresh() as sim:
            crashes += runner.judge_jobs(sim, hinted, hinted_results, fresh=fresh)
        hint_rows = hints.verdicts(hinted, hinted_results)
    ordered = [results[j.id] for j in jobs]
    the_run = report.Run(ordered, full, len(generated.jobs), len(generator.ci_subset(generated.jobs)),
                         generated.skipped, guard(), hint_rows, time.monotonic() - started, release=release)
    runs.save(_results_path(full, release), ordered, _meta(the_run, crashes))
    print(f"fidelity: {release}: verdicts saved in {_results_path(full, release)}, {len(crashes)} crashes survived",
          file=sys.stderr)
    others = [saved_run(full, other, generated, the_run.guard) for other in saved_releases(full) if other != release]
    return _finish([the_run, *others], [the_run], _may_write(full, write), generated)


def without_run(full: bool) -> List[str]:
    """The supported releases with no saved run (for the full set: none committed in tests/fidelity/runs)."""
    return [release for release in releases.SUPPORTED if not _results_path(full, release).is_file()]


def _refusal(full: bool) -> str:
    """Why the document may not be written now ("" when it may): docs/fidelity.md reports every supported release,
    and a release without a saved full run would silently drop out of it."""
    missing = without_run(full) if full else []
    if not missing:
        return ""
    return (f"fidelity: docs/fidelity.md not written: it reports every supported release and {', '.join(missing)} "
            f"{'has' if len(missing) == 1 else 'have'} no committed run in {runs.RUNS_DIR} (`python -m "
            "tests.fidelity run --full --release R` makes one); `report --full --release R` prints a release's "
            "section")


def _may_write(full: bool, write: bool) -> bool:
    """Whether a command that writes the document by default (``run --full``, ``recheck``) writes it now; when it
    may not, it says why and prints its release's section instead."""
    refusal = _refusal(full) if write else ""
    if refusal:
        print(refusal, file=sys.stderr)
    return write and not refusal


def _finish(runs_: Sequence[report.Run], judged: Sequence[report.Run], write: bool,
            generated: generator.Generated) -> int:
    """Render ``runs_`` (one per release) into the document, or print the sections of ``judged`` when not writing; the
    exit status and the summary line judge ``judged``."""
    if write:
        DOC.write_text(report.render(runs_, {job.id: job.objects for job in generated.jobs}), encoding="utf-8")
        print(f"fidelity: wrote {DOC.relative_to(ROOT)} ({', '.join(sorted(r.release for r in runs_))})",
              file=sys.stderr)
    else:
        sys.stdout.write(report.sections(judged))
    if write and all(run.full for run in runs_):  # a subset's counts are no evidence of a rule
        evidence.write({run.release: run.results for run in runs_},
                       {"version": generator.GENERATOR_VERSION, "seed": generator.SEED})
        print(f"fidelity: wrote {evidence.EVIDENCE_FILE.relative_to(ROOT)}", file=sys.stderr)
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
    saved, meta = runs.load(_results_path(full, release))
    jobs = generated.jobs if full else generator.ci_subset(generated.jobs)
    inventory = _saved_snapshot(full, release)
    return report.Run(relint(saved, jobs, inventory, release), full, len(generated.jobs),
                      len(generator.ci_subset(generated.jobs)), generated.skipped, guard_rows, meta.get("hints") or [],
                      float(meta.get("seconds", 0.0)), relinted=True, release=release)


def rerender(full: bool, write: bool, release: Optional[str]) -> int:
    """Re-lint every saved release's jobs with this checkout against its saved oracle verdicts, and render them all;
    the exit status judges ``release`` (every saved one when None)."""
    saved = saved_releases(full)
    if release is not None and release not in saved:
        print(f"fidelity: no saved run on {release} ({_results_path(full, release)}); run "
              f"`python -m tests.fidelity run{' --full' if full else ''} --release {release}` first", file=sys.stderr)
        return 2
    if not saved:
        print(f"fidelity: no saved run of any release in {_results_path(full, releases.DEFAULT).parent}",
              file=sys.stderr)
        return 2
    refusal = _refusal(full) if write else ""
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    generated, guard_rows = generator.generate(), guard()
    saved_runs = [saved_run(full, name, generated, guard_rows) for name in saved]
    return _finish(saved_runs, [r for r in saved_runs if release is None or r.release == release], write, generated)


def recheck(full: bool, write: bool, release: str) -> int:
    """Judge the saved run's jobs that never got a pod again on a new cluster of ``release`` (as ``run`` does after its
    batches), with the pending ones ``known.yaml`` lists as ``investigate`` there, save the verdicts and render: for a
    run whose recheck missed them (before the never-enqueued test read Volcano v1.9.0's message)."""
    path = _results_path(full, release)
    if not path.is_file():
        print(f"fidelity: no saved run on {release} ({path})", file=sys.stderr)
        return 2
    saved, meta = runs.load(path)
    generated = generator.generate()
    jobs = {job.id: job for job in (generated.jobs if full else generator.ci_subset(generated.jobs))}
    results = {r.id: r for r in saved}
    entries = report.known_mod.load()

    def looked_into(result: Result) -> bool:  # a pending verdict known.yaml lists as not understood yet
        entry = report.known_mod.explain(entries, result.id, result.verdict, release, result.errors)
        return result.outcome == "pending" and entry is not None and entry.kind == "investigate"
    again = [jobs[r.id] for r in saved if (runner.never_enqueued(r) or looked_into(r)) and r.id in jobs
             and r.digest == verdicts_digest(jobs[r.id].objects)]
    started = time.monotonic()
    fresh = functools.partial(runner.fresh_cluster, release)
    with fresh() as sim:
        runner.prepare(sim, again)
        runner.judge_each(sim, again, results, fresh)
    seconds = time.monotonic() - started
    print(f"fidelity: {release}: {len(again)} jobs that never got a pod judged again one by one, {seconds:.0f}s",
          file=sys.stderr)
    meta["seconds"] = round(float(meta.get("seconds", 0.0)) + seconds)
    meta["rechecked"] = len(again)
    runs.save(path, list(results.values()), meta)
    return rerender(full, _may_write(full, write), release)


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
    saved, meta = runs.load(path)
    results = runner.lint_all(chosen, _saved_snapshot(full, release), release)
    started = time.monotonic()
    fresh = functools.partial(runner.fresh_cluster, release)
    with fresh() as sim:
        runner.prepare(sim, chosen)
        runner.judge_each(sim, chosen, results, fresh)
    for job in chosen:
        result = results[job.id]
        print(f"fidelity: {release}: {job.id}: {result.outcome}"
              + (f" ({result.room}): {result.reason}: {result.message}" if result.outcome != "running" else ""),
              file=sys.stderr)
    by_id = {r.id: r for r in saved}
    by_id.update(results)
    meta["seconds"] = round(float(meta.get("seconds", 0.0)) + time.monotonic() - started)
    runs.save(path, [by_id[job.id] for job in pool if job.id in by_id], meta)
    return rerender(full, _may_write(full, write), release)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fidelity", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "report", "recheck"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--full", action="store_true", help="the full generated set (default: the CI subset)")
        cmd.add_argument("--write", action="store_true",
                         help="write docs/fidelity.md (default with --full; for report, with --full --all): refused "
                              "while a supported release has no committed full run")
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
    if args.command == "report":  # --full --release R prints R's section
        return rerender(args.full, args.write or (args.full and args.all),
                        None if args.all else (args.release or releases.DEFAULT))
    if args.only:
        return run_only(args.full, write, args.release or releases.DEFAULT, args.only)
    return run(args.full, write, not args.no_hints, args.release or releases.DEFAULT)
