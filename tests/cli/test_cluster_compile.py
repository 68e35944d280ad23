"""``compile --cluster-snapshot`` and ``apply --cluster-snapshot``/``--cluster`` (issue 35): the compiled output is
checked against the cluster too, so a job the cluster would refuse or never schedule is refused before anything
is written or sent; without an inventory compile's output is unchanged."""
from __future__ import annotations

from pathlib import Path

from tests.checkout import run_cli as cli
from tests.cli.test_cluster_lint import SNAPSHOT, _serve_snapshot
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

SPEC = """apiVersion: ascend-compile.io/v1alpha1
kind: TrainingJob
metadata: {name: train, namespace: team}
spec:
  framework: pytorch
  profile: module-910b-8
  npus: 16
  image: x/y:1
  queue: QUEUE
  volumes:
    - {name: output, pvc: data, mountPath: /job/output}
"""


def _spec(tmp_path: Path, queue: str) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC.replace("QUEUE", queue), encoding="utf-8")
    return path


def test_compile_refuses_a_job_the_cluster_refuses(tmp_path: Path) -> None:
    good, bad = _spec(tmp_path, "default"), None
    plain = cli("compile", str(good))
    checked = cli("compile", str(good), "--cluster-snapshot", str(SNAPSHOT))
    assert plain.returncode == checked.returncode == 0, checked.stderr
    assert plain.stdout == checked.stdout
    bad = _spec(tmp_path, "research")
    assert cli("compile", str(bad)).returncode == 0  # offline nothing can tell
    refused = cli("compile", str(bad), "--cluster-snapshot", str(SNAPSHOT))
    assert refused.returncode == 1 and "AC901" in refused.stderr and refused.stdout == ""


def test_apply_sends_nothing_the_cluster_would_refuse(fake: Fake, tmp_path: Path) -> None:
    _serve_snapshot(fake)
    bad = _spec(tmp_path, "research")
    for flags in (["--cluster-snapshot", str(SNAPSHOT)], ["--cluster"]):
        proc = cli("apply", str(bad), *flags, env=fake.env())
        assert proc.returncode == 1 and "AC901" in proc.stderr, (flags, proc.stderr)
    assert not [c for c in fake.calls() if "apply" in c["argv"]]


def test_compile_checks_against_the_live_cluster_too(fake: Fake, tmp_path: Path) -> None:
    _serve_snapshot(fake)
    good = _spec(tmp_path, "default")
    plain = cli("compile", str(good))
    live = cli("compile", str(good), "--cluster", env=fake.env())
    assert live.returncode == 0 and live.stdout == plain.stdout, live.stderr
    refused = cli("compile", str(_spec(tmp_path, "research")), "--cluster", "--context", "lab", env=fake.env())
    assert refused.returncode == 1 and "AC901" in refused.stderr and refused.stdout == ""
    reads = [c["argv"] for c in fake.calls() if "get" in c["argv"]]
    assert reads and all("--context=lab" in argv for argv in reads[-7:])  # the last run's reads: its context
    both = cli("compile", str(good), "--cluster", "--cluster-snapshot", str(SNAPSHOT), env=fake.env())
    assert both.returncode == 2 and "give one" in both.stderr


def test_compile_cluster_reports_an_unreachable_cluster(fake: Fake, tmp_path: Path) -> None:
    fake.rules({"match": ["get"], "rc": 1, "stderr": "The connection to the server 127.0.0.1:1 was refused - "
                                                      "did you specify the right host or port?\n"})
    proc = cli("compile", str(_spec(tmp_path, "default")), "--cluster", env=fake.env())
    assert proc.returncode == 4 and "was refused" in proc.stderr and proc.stdout == ""
