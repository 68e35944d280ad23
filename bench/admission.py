#!/usr/bin/env python3
"""What the admission webhook costs (issue 48): latency at a steady request rate, memory over many requests, beside
a plain ``lint`` of the same jobs.

    python bench/admission.py            # full run: 60 s at 100 requests/s per inventory, 100,000 requests for memory
    python bench/admission.py --quick    # smoke run (about a minute): judges nothing

``webhook serve`` runs from ``bench/.toolenv`` (this checkout, as users run it, :mod:`tools`) on 127.0.0.1, once with
no inventory (``--no-inventory``) and once with a 1,000-node cluster snapshot (``--cluster-snapshot``), each time on
its own.  The requests are AdmissionReviews of the benchmark's compiled jobs (valid AscendJobs and Volcano Jobs from
:mod:`corpus`' specs, fixed seed), sent open-loop: request ``i`` is due at ``start + i / rate`` whatever happened to
the ones before, and its latency counts from when it was due, so a slow answer also delays the ones queued behind it
(no coordinated omission).  The client runs on the same machine and takes its share of the cores: the figures are
an upper bound of what the API server would see.  Memory: the server's RSS (``/proc/PID/status``) sampled while
100,000 requests are answered back to back (2,000 with ``--quick``); flat means the last sample is within 10% of the
one after the first tenth.  ``lint`` runs over the same jobs, one file each, as one process, with and without the
snapshot.  Results go to ``bench/results/admission-<date>.json`` (gitignored) and a Markdown table on stdout.

When ``webhook serve`` is not in this checkout, or lacks an option used here, the run says so and stops (exit 2).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import http.client
import json
import os
import queue
import random
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, NoReturn, Optional, Sequence, Tuple

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import corpus as corpus_mod  # noqa: E402
import tools  # noqa: E402

ROOT = BENCH.parent
RESULTS = BENCH / "results"
JOBS = 200
NODES = 1000
RATE = 100.0
WORKERS = 16
#: issue 48's targets: p99 (ms) at 100 requests/s with the 1,000-node inventory; RSS growth after warm-up
P99_LIMIT_MS = 50.0
RSS_GROWTH_LIMIT = 0.10
_RESOURCES = {"AscendJob": ("mindxdl.gitee.com", "v1", "ascendjobs"), "Job": ("batch.volcano.sh", "v1alpha1", "jobs")}


# --------------------------------------------------------------------------------------- inputs (toolenv child)


def prepare(work: Path, jobs: int, nodes: int) -> None:
    """Write ``work/jobs/`` (one job a file), ``work/reviews.json`` (their AdmissionReviews) and
    ``work/snapshot.yaml`` (a cluster of ``nodes`` nodes that has what the jobs name)."""
    import yaml

    rng = random.Random(20261207)
    specs = [corpus_mod.spec(rng, i, "AscendJob" if i % 2 else "VolcanoJob") for i in range(jobs)]
    objects = [obj for objs in corpus_mod._compile(specs) for obj in objs]
    compiled = [obj for obj in objects if obj.get("kind") in _RESOURCES]
    (work / "jobs").mkdir(parents=True)
    reviews = []
    for index, obj in enumerate(compiled):
        (work / "jobs" / f"job-{index:04d}.yaml").write_text(yaml.safe_dump(obj, sort_keys=False), encoding="utf-8")
        group, version, resource = _RESOURCES[obj["kind"]]
        meta = obj["metadata"]
        reviews.append({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
            "uid": f"bench-{index:06d}", "kind": {"group": group, "version": version, "kind": obj["kind"]},
            "resource": {"group": group, "version": version, "resource": resource},
            "name": meta["name"], "namespace": meta.get("namespace", "default"), "operation": "CREATE",
            "userInfo": {"username": "bench"}, "object": obj, "oldObject": None, "dryRun": False,
            "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"}}})
    (work / "reviews.json").write_text(json.dumps(reviews), encoding="utf-8")
    config_maps = [obj for obj in objects if obj.get("kind") == "ConfigMap"]
    (work / "snapshot.yaml").write_text(_snapshot(compiled, config_maps, nodes), encoding="utf-8")


def _snapshot(jobs: List[Dict[str, Any]], config_maps: List[Dict[str, Any]], count: int) -> str:
    """A snapshot of ``count`` nodes of the corpus' profiles, the default queue, the jobs' namespaces, claims and
    ranktable ConfigMaps: a cluster the jobs were written for."""
    from ascend_compile.hardware.profiles import ProfileRegistry
    from ascend_compile.inventory.objects import inventory_from
    from ascend_compile.inventory.snapshot import dump

    registry = ProfileRegistry([])
    profiles = [registry.require(name) for name in sorted(corpus_mod.PER_NODE)]
    nodes = []
    for index in range(count):
        profile = profiles[index % len(profiles)]
        labels = {"kubernetes.io/hostname": f"node-{index:04d}", "host-arch": profile.host_arch or "huawei-arm"}
        if profile.accelerator_type:
            labels["accelerator-type"] = profile.accelerator_type
        nodes.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{index:04d}", "labels": labels},
                      "status": {"allocatable": {profile.resource: str(profile.npus_per_node), "cpu": "192",
                                                 "memory": "1536Gi", "pods": "110"},
                                 "conditions": [{"type": "Ready", "status": "True"}]}})
    spaces = sorted({job["metadata"].get("namespace", "default") for job in jobs})
    claims = [{"metadata": {"name": f"out-{index}", "namespace": space}} for space in spaces for index in range(JOBS)]
    queues = [{"metadata": {"name": "default"}, "spec": {"weight": 1}, "status": {"state": "Open"}}]
    inventory = inventory_from(nodes, [], queues, claims, config_maps, [], spaces, "bench", "default")
    return dump(inventory)


# --------------------------------------------------------------------------------------- the server


class Server:
    """One ``webhook serve`` process on 127.0.0.1."""

    def __init__(self, command: List[str], extra: Sequence[str], tls: Optional[Path], env: Dict[str, str],
                 log: Path):
        self.port = _free_port()
        listen = ["--listen", f"127.0.0.1:{self.port}"]
        secure = ["--tls-cert", str(tls / "tls.crt"), "--tls-key", str(tls / "tls.key")] if tls else ["--plain-http"]
        self.context = ssl.create_default_context(cafile=str(tls / "ca.crt")) if tls else None
        with open(log, "ab") as out:
            self.proc = subprocess.Popen([*command, "webhook", "serve", *listen, *secure, *extra,
                                          "--log-format", "json"], stdout=out, stderr=out, env=env)
        self.log = log

    def connect(self) -> http.client.HTTPConnection:
        if self.context is not None:
            return http.client.HTTPSConnection("127.0.0.1", self.port, context=self.context, timeout=30)
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                _stop(f"webhook serve exited ({self.proc.returncode}):\n{_tail(self.log)}")
            try:
                conn = self.connect()
                conn.request("GET", "/readyz")
                if conn.getresponse().status == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.2)
        _stop(f"webhook serve not ready within {timeout:.0f}s:\n{_tail(self.log)}")

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
        return 0.0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _stop(message: str) -> NoReturn:
    """Say why the run cannot go on, and end it with exit code 2."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _tail(path: Path, lines: int = 20) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else "(no log)"


def _post(conn: http.client.HTTPConnection, body: bytes, uid: str) -> bool:
    """Send one review; True when the answer is a well-formed AdmissionReview for it."""
    conn.request("POST", "/validate", body=body, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    if response.status != 200:
        return False
    try:
        return json.loads(data)["response"]["uid"] == uid
    except (ValueError, KeyError, TypeError):
        return False


# --------------------------------------------------------------------------------------- load


def open_loop(server: Server, bodies: List[Tuple[str, bytes]], rate: float, seconds: float) -> Dict[str, Any]:
    """Requests due at ``rate`` a second for ``seconds``; each latency from when the request was due."""
    due: "queue.Queue[Optional[Tuple[float, str, bytes]]]" = queue.Queue()
    latencies: List[float] = []
    failures = [0]
    lock = threading.Lock()

    ready = threading.Barrier(WORKERS + 1)

    def worker() -> None:
        conn = server.connect()
        conn.connect()  # the TCP and TLS handshakes before the clock starts: the API server keeps its connections
        ready.wait()
        while True:
            item = due.get()
            if item is None:
                return
            when, uid, body = item
            try:
                ok = _post(conn, body, uid)
            except (OSError, http.client.HTTPException):
                ok, conn = False, server.connect()
            with lock:
                latencies.append(time.perf_counter() - when)
                failures[0] += not ok

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(WORKERS)]
    for thread in threads:
        thread.start()
    ready.wait()
    total = int(rate * seconds)
    start = time.perf_counter() + 0.1
    for index in range(total):
        when = start + index / rate
        pause = when - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        uid, body = bodies[index % len(bodies)]
        due.put((when, uid, body))
    for _ in threads:
        due.put(None)
    for thread in threads:
        thread.join()
    ms = sorted(x * 1000.0 for x in latencies)
    return {"requests": total, "failures": failures[0], "rate": rate, "seconds": seconds,
            "p50_ms": _pct(ms, 50), "p90_ms": _pct(ms, 90), "p99_ms": _pct(ms, 99), "max_ms": ms[-1] if ms else None}


def _pct(values: List[float], pct: float) -> Optional[float]:
    if not values:
        return None
    return values[min(len(values) - 1, int(round(pct / 100.0 * (len(values) - 1))))]


def memory(server: Server, bodies: List[Tuple[str, bytes]], requests: int) -> Dict[str, Any]:
    """RSS while ``requests`` reviews are answered back to back (one connection), sampled 20 times."""
    conn = server.connect()
    samples: List[Tuple[int, float]] = []
    failures = 0
    every = max(1, requests // 20)
    started = time.perf_counter()
    for index in range(requests):
        uid, body = bodies[index % len(bodies)]
        try:
            failures += not _post(conn, body, uid)
        except (OSError, http.client.HTTPException):
            failures, conn = failures + 1, server.connect()
        if (index + 1) % every == 0:
            samples.append((index + 1, server.rss_mib()))
    elapsed = time.perf_counter() - started
    after_warmup = samples[1][1] if len(samples) > 1 else samples[0][1]
    growth = (samples[-1][1] - after_warmup) / after_warmup if after_warmup else None
    return {"requests": requests, "failures": failures, "seconds": elapsed, "rss_mib": samples,
            "rss_after_first_tenth_mib": after_warmup, "rss_last_mib": samples[-1][1], "growth": growth}


# --------------------------------------------------------------------------------------- lint beside it


def lint_rows(command: List[str], work: Path, env: Dict[str, str]) -> Dict[str, Any]:
    """Whole-process time of ``lint`` over the jobs (one process), without and with the snapshot; per job too."""
    count = len(list((work / "jobs").iterdir()))
    out: Dict[str, Any] = {"jobs": count}
    for key, extra in (("lint", []), ("lint_snapshot", ["--cluster-snapshot", str(work / "snapshot.yaml")])):
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            proc = subprocess.run([*command, "lint", "--no-config", "--no-cache", "-q", *extra, str(work / "jobs")],
                                  capture_output=True, env=env, cwd=work)
            runs.append(time.perf_counter() - started)
            if proc.returncode not in (0, 1):
                _stop(f"lint failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-2000:]}")
        seconds = statistics.median(runs)
        out[key] = {"seconds": seconds, "ms_per_job": seconds * 1000.0 / count}
    return out


# --------------------------------------------------------------------------------------- the run


def _certificates(folder: Path) -> Path:
    """A CA and a serving certificate for 127.0.0.1, made with openssl (as docs/admission.md shows)."""
    if shutil.which("openssl") is None:
        _stop("openssl is not on PATH: it makes the serving certificate (or give webhook serve --plain-http)")
    folder.mkdir()
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    steps = [["req", "-x509", *ec, "-days", "2", "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=bench-ca"],
             ["req", *ec, "-keyout", "tls.key", "-out", "tls.csr", "-subj", "/CN=127.0.0.1"]]
    for step in steps:
        subprocess.run(["openssl", *step], cwd=folder, check=True, capture_output=True)
    (folder / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    subprocess.run(["openssl", "x509", "-req", "-in", "tls.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                    "-CAcreateserial", "-days", "2", "-out", "tls.crt", "-extfile", "ext.cnf"], cwd=folder, check=True,
                   capture_output=True)
    return folder


def _offered(command: List[str], env: Dict[str, str]) -> str:
    proc = subprocess.run([*command, "webhook", "serve", "--help"], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        _stop("webhook serve is not in this checkout (the server is issue 48's other half); nothing to "
                         f"measure yet:\n{proc.stderr.strip()[-500:]}")
    return proc.stdout


def render(results: Dict[str, Any]) -> str:
    rows = ["| run | requests | failures | p50 | p90 | p99 | max |", "|---|---|---|---|---|---|---|"]
    for name, row in results["latency"].items():
        rows.append(f"| {name} at {row['rate']:.0f}/s for {row['seconds']:.0f} s | {row['requests']} | "
                    f"{row['failures']} | {row['p50_ms']:.1f} ms | {row['p90_ms']:.1f} ms | {row['p99_ms']:.1f} ms | "
                    f"{row['max_ms']:.1f} ms |")
    mem = results["memory"]
    rows += ["", "| memory | requests | failures | RSS after 1/10 | RSS at the end | growth |",
             "|---|---|---|---|---|---|",
             f"| {mem['inventory']} | {mem['requests']} | {mem['failures']} | "
             f"{mem['rss_after_first_tenth_mib']:.1f} MiB | {mem['rss_last_mib']:.1f} MiB | "
             f"{100.0 * (mem['growth'] or 0.0):+.1f}% |"]
    lint = results["lint"]
    rows += ["", f"| plain lint of the same {lint['jobs']} jobs (one process, median of 3) | total | per job |",
             "|---|---|---|"]
    for key, label in (("lint", "lint"), ("lint_snapshot", "lint --cluster-snapshot (1,000 nodes)")):
        rows.append(f"| {label} | {lint[key]['seconds'] * 1000:.0f} ms | {lint[key]['ms_per_job']:.2f} ms |")
    rows += ["", "| target (issue 48) | measured | limit | result |", "|---|---|---|---|"]
    for target in results["targets"]:
        rows.append(f"| {target['what']} | {target['measured']} | {target['limit']} | {target['result']} |")
    return "\n".join(rows) + "\n"


def _targets(results: Dict[str, Any], judged: bool) -> List[Dict[str, Any]]:
    latency = results["latency"].get("1,000-node inventory") or {}
    mem = results["memory"]
    out = []
    for what, measured, limit, ok in (
            ("p99 at 100/s, 1,000-node inventory (ms)", latency.get("p99_ms"), f"< {P99_LIMIT_MS:.0f}",
             latency.get("p99_ms") is not None and latency["p99_ms"] < P99_LIMIT_MS and not latency["failures"]),
            ("RSS growth over the requests", mem.get("growth"), f"<= {RSS_GROWTH_LIMIT:.0%}",
             mem.get("growth") is not None and mem["growth"] <= RSS_GROWTH_LIMIT and not mem["failures"])):
        shown = "n/a" if measured is None else f"{measured:.3f}" if isinstance(measured, float) else str(measured)
        out.append({"what": what, "measured": shown, "limit": limit,
                    "result": "not judged" if not judged else "pass" if ok else "FAIL"})
    return out


def run(args: argparse.Namespace) -> Dict[str, Any]:
    python, command = tools.tool_env()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    work = Path(tempfile.mkdtemp(prefix="ascend-bench-admission-"))
    env["ASCEND_COMPILE_CACHE_DIR"] = str(work / "cache")
    try:
        return _measure(args, python, command, env, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measure(args: argparse.Namespace, python: str, command: List[str], env: Dict[str, str],
             work: Path) -> Dict[str, Any]:
    subprocess.run([python, __file__, "--prepare", str(work), "--jobs", str(args.jobs), "--nodes", str(args.nodes)],
                   check=True, cwd=ROOT, env=env)
    offered = _offered(command, env)
    tls = None if "--plain-http" in offered else _certificates(work / "tls")
    if "--cluster-snapshot" not in offered:
        _stop("webhook serve takes no --cluster-snapshot: the 1,000-node inventory cannot be given to it")
    reviews = json.loads((work / "reviews.json").read_text())
    bodies = [(r["request"]["uid"], json.dumps(r).encode()) for r in reviews]
    inventories = {"no inventory": ["--no-inventory"],
                   "1,000-node inventory": ["--cluster-snapshot", str(work / "snapshot.yaml")]}
    results: Dict[str, Any] = {"latency": {}, "tls": tls is not None}
    for name, extra in inventories.items():
        server = Server(command, extra, tls, env, work / f"serve-{len(results['latency'])}.log")
        try:
            server.wait_ready()
            open_loop(server, bodies, args.rate, min(5.0, args.seconds))  # warm-up, not reported
            results["latency"][name] = open_loop(server, bodies, args.rate, args.seconds)
            if name == "1,000-node inventory":
                results["memory"] = {"inventory": name, **memory(server, bodies, args.requests)}
        finally:
            server.stop()
    results["lint"] = lint_rows(command, work, env)
    results["targets"] = _targets(results, not args.quick)
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: 5 s of load, 2,000 requests; judges nothing")
    parser.add_argument("--rate", type=float, default=RATE, help="requests a second (default 100)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds of load per inventory (default 60)")
    parser.add_argument("--requests", type=int, default=None, help="requests for the memory run (default 100,000)")
    parser.add_argument("--jobs", type=int, default=JOBS, help=argparse.SUPPRESS)
    parser.add_argument("--nodes", type=int, default=NODES, help=argparse.SUPPRESS)
    parser.add_argument("--output", type=Path, default=None, help="the results file (default bench/results/...)")
    parser.add_argument("--prepare", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.prepare:
        prepare(args.prepare, args.jobs, args.nodes)
        return 0
    args.seconds = args.seconds or (5.0 if args.quick else 60.0)
    args.requests = args.requests or (2000 if args.quick else 100_000)
    results = run(args)
    results["when"] = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results["cpus"] = os.cpu_count()
    RESULTS.mkdir(exist_ok=True)
    stamp = _dt.date.today().isoformat() + ("-quick" if args.quick else "")
    output = args.output or RESULTS / f"admission-{stamp}.json"
    output.write_text(json.dumps(results, indent=2) + "\n")
    sys.stdout.write(render(results))
    print(f"results: {output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
