#!/usr/bin/env python3
"""Do what a newcomer does with README.md's quick start, and say whether it worked.

    python3 scripts/quickstart.py                 # cold: empty caches, as on a fresh machine
    python3 scripts/quickstart.py --cache DIR     # warm: DIR is XDG_CACHE_HOME (CI: ~/.cache)

Steps, each timed:

1. clone: ``git clone`` of this checkout's HEAD (committed work only) into a temporary folder that also
   holds ``shared``, a symlink to the ``../shared`` beside this checkout (upstream samples, CRDs and
   source archives: beside the repository in development and CI); the clone's README.md must have the
   block (3);
2. venv: ``python3 -m venv`` outside the clone;
3. each line of README.md's "Quick start" ```sh block, verbatim, run by bash in the clone with the
   venv activated (``source venv/bin/activate``), one line after the other; the first that fails ends
   the run.

Nothing is installed or set beforehand that the README does not say. The environment is the caller's
less what belongs to a developer rather than a newcomer (an active venv, ``PYTHONPATH``,
``PYTEST_ADDOPTS``, this project's ``ASCEND_COMPILE_*`` and ``KUSTOMIZE`` variables, this sandbox's
``PYTHONDONTWRITEBYTECODE``), plus ``XDG_CACHE_HOME`` (a new empty folder, or ``--cache DIR``) and, cold,
``PIP_NO_CACHE_DIR=1``.

The verdict: exit 0 only when every line succeeded and pytest's summary says no test failed, errored or
was skipped. The one skip allowed is kpt's, whose tests say "kpt is not installed" (no package
registry serves kpt). Exit 1 otherwise, 2 for a usage error (no Quick start block, no ../shared).
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
HEADING = "## Quick start"
#: the one skip a newcomer's run may have: kpt, which no package registry serves (tests/ecosystem/test_krm.py,
#: tests/cli/test_examples_run.py)
ALLOWED_SKIP = re.compile(r"^kpt is not installed\b")
#: what a developer's shell has and a newcomer's does not
DEVELOPER_VARIABLES = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTEST_ADDOPTS", "PYTHONDONTWRITEBYTECODE",
                       "KUSTOMIZE", "PIP_NO_CACHE_DIR", "XDG_CACHE_HOME")


class QuickstartError(Exception):
    """The README or the machine does not allow the run (exit 2)."""


def quickstart_lines(readme: str) -> List[str]:
    """The commands of the first ```sh block under README.md's "## Quick start" heading, as written.

    Blank lines and comment lines are left out; a line ending in a backslash is joined with the next one
    (as a shell would read it). Raises QuickstartError when the heading, the block or a command is missing.
    """
    lines = readme.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == HEADING)
    except StopIteration:
        raise QuickstartError(f"README.md has no '{HEADING}' heading: nothing says what a newcomer runs") from None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    section = lines[start + 1:end]
    try:
        opening = next(i for i, line in enumerate(section) if line.strip() == "```sh")
        closing = next(i for i in range(opening + 1, len(section)) if section[i].strip() == "```")
    except StopIteration:
        raise QuickstartError(f"README.md's '{HEADING}' section has no complete ```sh block "
                              "(the commands a newcomer runs, one per line)") from None
    commands: List[str] = []
    pending = ""
    for line in section[opening + 1:closing]:
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        line, pending = pending + line, ""
        if line.strip() and not line.lstrip().startswith("#"):
            commands.append(line)
    if pending.strip():
        commands.append(pending)
    if not commands:
        raise QuickstartError(f"README.md's '{HEADING}' ```sh block holds no command")
    return commands


class Summary(NamedTuple):
    counts: Dict[str, int]  # "passed", "failed", "errors", "skipped", ... as pytest's last line says
    skips: List[Tuple[int, str, str]]  # (count, where, reason) of each "SKIPPED [n] where: reason" line


_SUMMARY = re.compile(r"^=*\s*((?:\d+ [a-z]+(?:, )?)+) in [\d.]+s\b")
_SKIPPED = re.compile(r"^SKIPPED \[(\d+)\] ([^:]+:\d+): (.*)$")


def pytest_summary(output: str) -> Optional[Summary]:
    """The counts of pytest's final summary line in ``output`` and its -ra skip lines; None without one."""
    counts: Optional[Dict[str, int]] = None
    skips: List[Tuple[int, str, str]] = []
    for line in output.splitlines():
        line = line.strip()
        match = _SUMMARY.match(line)
        if match:
            counts = {}
            for part in match.group(1).split(", "):
                number, word = part.split(" ", 1)
                counts[{"error": "errors", "warning": "warnings"}.get(word, word)] = int(number)
        skipped = _SKIPPED.match(line)
        if skipped:
            skips.append((int(skipped.group(1)), skipped.group(2), skipped.group(3)))
    return None if counts is None else Summary(counts, skips)


def judge(summary: Optional[Summary]) -> List[str]:
    """What is wrong with a newcomer's test run (nothing: an empty list)."""
    if summary is None:
        return ["no pytest summary line in the quick start's output: its commands must run the test suite"]
    problems = []
    counts = summary.counts
    for word in ("failed", "errors", "xpassed"):
        if counts.get(word):
            problems.append(f"{counts[word]} {word}")
    if not counts.get("passed"):
        problems.append("no test passed")
    allowed = sum(n for n, _, reason in summary.skips if ALLOWED_SKIP.match(reason))
    if counts.get("skipped", 0) > allowed:
        problems.append(f"{counts['skipped'] - allowed} skipped (only kpt's skip is allowed): "
                        + "; ".join(f"[{n}] {where}: {reason}" for n, where, reason in summary.skips
                                    if not ALLOWED_SKIP.match(reason)))
    return problems


def newcomer_env(cache: Path, cold: bool, pytest_addopts: str) -> Dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if name not in DEVELOPER_VARIABLES and not name.startswith("ASCEND_COMPILE_")}
    # no venv's bin folder on PATH (activation puts the new one first)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and not (Path(p).parent / "pyvenv.cfg").is_file())
    env["XDG_CACHE_HOME"] = str(cache)
    if cold:
        env["PIP_NO_CACHE_DIR"] = "1"
    if pytest_addopts:
        env["PYTEST_ADDOPTS"] = pytest_addopts
    return env


def run_phase(title: str, command: Sequence[str], *, cwd: Path, env: Dict[str, str],
              timings: List[Tuple[str, float, int]]) -> Tuple[int, str]:
    """Run ``command`` with its output on our stdout; returns its exit code and its output."""
    print(f"\n== {title}", flush=True)
    started = time.monotonic()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace")
    assert proc.stdout is not None
    captured = []
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        captured.append(line)
    code = proc.wait()
    elapsed = time.monotonic() - started
    timings.append((title, elapsed, code))
    print(f"== {elapsed:.0f}s, exit {code}: {title}", flush=True)
    return code, "".join(captured)


def print_timings(timings: List[Tuple[str, float, int]]) -> None:
    print("\n== wall time per phase")
    for title, elapsed, code in timings:
        print(f"{elapsed:8.1f}s  {elapsed / 60:5.1f} min  exit {code}  {title}")
    total = sum(elapsed for _, elapsed, _ in timings)
    print(f"{total:8.1f}s  {total / 60:5.1f} min  in all", flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 scripts/quickstart.py",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cache", metavar="DIR", type=Path,
                        help="warm run: use DIR as XDG_CACHE_HOME (kept; pip's cache allowed); "
                             "default: a new empty folder and PIP_NO_CACHE_DIR=1")
    parser.add_argument("--python", default="python3", help="the interpreter that makes the venv (default: python3)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (clone, venv, cold cache)")
    parser.add_argument("--pytest-addopts", default="", metavar="ARGS",
                        help="set PYTEST_ADDOPTS, e.g. a test selection for a dry check (not a newcomer's run)")
    parser.add_argument("--list", action="store_true",
                        help="print the quick start's commands (from --readme, default this checkout's) and exit")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md", help=argparse.SUPPRESS)
    parser.add_argument("--judge", type=Path, metavar="FILE",
                        help="only judge the pytest output saved in FILE by the same rule, and exit (.ci/run's "
                             "later stages)")
    args = parser.parse_args(argv)

    if args.judge:
        try:
            problems = judge(pytest_summary(args.judge.read_text(encoding="utf-8", errors="replace")))
        except OSError as exc:
            print(f"quickstart: error: {exc}", file=sys.stderr)
            return 2
        print(f"quickstart: {args.judge}: " + ("FAILED: " + "; ".join(problems) if problems else "passed"))
        return 1 if problems else 0
    try:
        if args.list:
            print("\n".join(quickstart_lines(args.readme.read_text(encoding="utf-8"))))
            return 0
        shared = ROOT.parent / "shared"
        if not shared.is_dir():
            raise QuickstartError(f"{shared} is absent: a newcomer's clone has ../shared beside it (development, CI)")
        if shutil.which("git") is None:
            raise QuickstartError("git is not installed: the run starts from a clone")
    except (QuickstartError, OSError) as exc:
        print(f"quickstart: error: {exc}", file=sys.stderr)
        return 2

    top = Path(tempfile.mkdtemp(prefix="ascend-compile-newcomer-"))
    cold = args.cache is None
    cache = top / "cache" if cold else args.cache.expanduser().resolve()
    cache.mkdir(parents=True, exist_ok=True)
    env = newcomer_env(cache, cold, args.pytest_addopts)
    timings: List[Tuple[str, float, int]] = []
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    print(f"quickstart: {'cold' if cold else 'warm'} run of {head[:12]} in {top}; XDG_CACHE_HOME={cache}"
          + ("; PIP_NO_CACHE_DIR=1" if cold else ""), flush=True)
    if args.pytest_addopts:
        print(f"quickstart: PYTEST_ADDOPTS={args.pytest_addopts!r}: a dry check, not a newcomer's run", flush=True)
    try:
        (top / "shared").symlink_to(shared.resolve(), target_is_directory=True)
        clone = top / "ascend-compile"
        venv = top / "venv"
        code, _ = run_phase("clone", ["git", "clone", "--quiet", str(ROOT), str(clone)],
                            cwd=top, env=env, timings=timings)
        if code == 0:
            cloned = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True)
            if cloned.stdout.strip() != head:
                print(f"quickstart: the clone is at {cloned.stdout.strip()}, not HEAD {head}", file=sys.stderr)
                code = 1
        if code != 0:
            return 1
        try:
            lines = quickstart_lines((clone / "README.md").read_text(encoding="utf-8"))
        except (QuickstartError, OSError) as exc:
            print(f"quickstart: error: {exc}", file=sys.stderr)
            return 2
        code, _ = run_phase("venv", [args.python, "-m", "venv", str(venv)], cwd=top, env=env, timings=timings)
        if code != 0:
            print_timings(timings)
            return 1
        output = ""
        for number, line in enumerate(lines, 1):
            shell = f"source {shlex.quote(str(venv / 'bin' / 'activate'))}\n{line}\n"
            code, text = run_phase(f"README line {number}: {line}", ["bash", "-c", shell],
                                   cwd=clone, env=env, timings=timings)
            output += text
            if code != 0:
                print_timings(timings)
                print(f"\nquickstart: FAILED: README line {number} exited {code}: {line}", flush=True)
                return 1
        print_timings(timings)
        summary = pytest_summary(output)
        problems = judge(summary)
        if problems:
            print("\nquickstart: FAILED: " + "; ".join(problems), flush=True)
            return 1
        assert summary is not None
        print("\nquickstart: passed: every README line succeeded; no test failed or errored; "
              + (f"{summary.counts['skipped']} skipped for kpt only" if summary.counts.get("skipped") else "none skipped"),
              flush=True)
        return 0
    finally:
        if args.keep:
            print(f"quickstart: kept {top}", flush=True)
        else:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
