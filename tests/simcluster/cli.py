"""``python -m tests.simcluster``: build the programs, start a cluster by hand, ask the oracle."""
from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence

from tests.simcluster.releases import BUILT, DEFAULT, RELEASES


def _build(args: argparse.Namespace) -> int:
    from tests.integration import controlplane
    from tests.simcluster import build, gotool

    reason = build.unavailable_reason()
    if reason and build.sources.missing_reason():
        print(f"error: {reason}", file=sys.stderr)
        return 2
    started = time.monotonic()
    try:
        print("kube-apiserver + etcd (tests/integration/controlplane.py)", file=sys.stderr, flush=True)
        with gotool.heartbeat("kube-apiserver"):
            apiserver = controlplane.build_binary(verbose=True)
        binaries = build.build_all(force=args.force, only=args.only or (), release_names=args.release or BUILT)
    except (gotool.BuildError, build.sources.SourceError, build.patches.PatchError,
            controlplane.ControlPlaneError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for line in [f"apiserver: {apiserver}", *build.describe(binaries)]:
        print(line)
    print(f"simulated cluster programs ready in {time.monotonic() - started:.0f}s", file=sys.stderr)
    return 0


def _interrupt(*_args: object) -> None:
    raise KeyboardInterrupt


def _start(args: argparse.Namespace) -> int:
    from tests.simcluster.cluster import SimCluster, SimClusterError

    # Ctrl-C, and also SIGINT/SIGTERM when started in the background (where SIGINT is ignored), stop it cleanly
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)

    try:
        with SimCluster(nodes_per_profile=args.nodes, profiles=args.profile or None, keep_dir=True,
                        release=args.release, admission_webhook=args.admission_webhook) as sim:
            print(f"release    MindCluster {sim.release}"
                  + ("" if sim.admission_webhook else ", without Volcano's admission webhooks"))
            print(f"kubeconfig {sim.kubeconfig}")
            print(f"logs       {sim.log_dir}")
            print(f"try:       KUBECONFIG={sim.kubeconfig} kubectl get nodes -L accelerator-type")
            print("Ctrl-C stops every process", flush=True)
            with contextlib.suppress(KeyboardInterrupt):
                while sim.running():
                    time.sleep(1)
            dead = sim.dead_processes()
            if dead:
                print(f"error: stopped because {', '.join(dead)} exited; logs in {sim.log_dir}", file=sys.stderr)
                return 1
    except SimClusterError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _oracle(args: argparse.Namespace) -> int:
    from tests.simcluster.cluster import SimClusterError
    from tests.simcluster.oracle import judge_files

    try:
        verdicts = judge_files([Path(p) for p in args.paths], timeout=args.timeout,
                               nodes_per_profile=args.nodes, release=args.release,
                               admission_webhook=args.admission_webhook)
    except SimClusterError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.output == "json":
        print(json.dumps([v.as_dict() for v in verdicts], indent=2, sort_keys=True))
    else:
        for verdict in verdicts:
            print(verdict.line())
    return 0


def _target_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--release", default=DEFAULT, choices=list(RELEASES),
                        help=f"the MindCluster release the cluster runs (default {DEFAULT})")
    parser.add_argument("--no-admission-webhook", dest="admission_webhook", action="store_false",
                        help="do not register Volcano's admission webhooks (MindCluster's own install has none)")


def main(argv: Optional[Sequence[str]] = None) -> int:
    from tests.simcluster import build

    parser = argparse.ArgumentParser(prog="python -m tests.simcluster",
                                     description="A simulated Ascend cluster built from the real upstream sources.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_build = sub.add_parser("build", help="verify the archives and build every program (cached)")
    p_build.add_argument("--force", action="store_true", help="rebuild even when cached")
    p_build.add_argument("--only", action="append", choices=sorted(build.COMPONENTS),
                         help="build only this component (repeatable)")
    p_build.add_argument("--release", action="append", choices=list(RELEASES),
                         help=f"build for this release (repeatable; default: {', '.join(BUILT)})")
    p_build.set_defaults(func=_build)
    p_start = sub.add_parser("start", help="start a cluster and keep it running until Ctrl-C")
    p_start.add_argument("--nodes", type=int, default=4, help="fake nodes per hardware profile (default 4)")
    p_start.add_argument("--profile", action="append", help="only this profile's nodes (repeatable)")
    _target_options(p_start)
    p_start.set_defaults(func=_start)
    p_oracle = sub.add_parser("oracle", help="start a cluster, submit manifests, print upstream's verdict per job")
    p_oracle.add_argument("paths", nargs="+", help="YAML files or folders of manifests (one job per file or more)")
    p_oracle.add_argument("--timeout", type=float, default=90.0, help="seconds to wait for each batch to settle")
    p_oracle.add_argument("--nodes", type=int, default=4, help="fake nodes per hardware profile")
    p_oracle.add_argument("-o", "--output", choices=["text", "json"], default="text")
    _target_options(p_oracle)
    p_oracle.set_defaults(func=_oracle)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
