"""What a run judges jobs for (issue 44): ``--mindcluster``, ``--[no-]volcano-webhook``, the config's ``cluster:`` and a
snapshot's recorded versions choose the target, ``--show-config`` says which and why, and a bad one is refused with
its place."""
from __future__ import annotations

from pathlib import Path

import yaml

from tests.checkout import run_cli as cli

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "lint" / "clusters" / "small.yaml"


def _target_line(*args: str, cwd: Path) -> str:
    proc = cli("lint", "--show-config", *args, cwd=str(cwd))
    assert proc.returncode == 0, proc.stderr
    return next(line for line in proc.stdout.splitlines() if line.startswith("target: "))


def _repo(tmp_path: Path, config: str = "") -> Path:
    (tmp_path / ".git").mkdir()
    if config:
        (tmp_path / ".ascend-compile.yaml").write_text(config)
    return tmp_path


def test_without_anything_the_newest_release_is_the_default(tmp_path: Path) -> None:
    line = _target_line(cwd=_repo(tmp_path))
    assert "MindCluster v26.1.0" in line and "the default" in line


def test_the_config_names_the_release_and_the_webhook(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "cluster:\n  mindcluster: v7.3.2\n  volcanoWebhook: true\n")
    line = _target_line(cwd=repo)
    assert "MindCluster v7.3.2" in line and "Volcano v1.9.0" in line and "with Volcano's admission webhook" in line
    assert "cluster.mindcluster in" in line
    flag = _target_line("--mindcluster", "v26.0.1", "--no-volcano-webhook", cwd=repo)
    assert "MindCluster v26.0.1" in flag and "without Volcano's admission webhook" in flag and "--mindcluster" in flag


def test_a_snapshot_that_records_the_plugin_version_selects_the_target(tmp_path: Path) -> None:
    data = yaml.safe_load(SNAPSHOT.read_text())
    data["spec"]["versions"] = {"ascend-plugin": "v7.0.RC1"}
    snapshot = tmp_path / "snap.yaml"
    snapshot.write_text(yaml.safe_dump(data))
    line = _target_line("--cluster-snapshot", str(snapshot), cwd=_repo(tmp_path))
    assert "MindCluster v7.0.RC1" in line and "snap.yaml" in line
    assert "MindCluster v26.1.0" in _target_line("--cluster-snapshot", str(snapshot), "--mindcluster", "v26.1.0",
                                                 cwd=tmp_path)


def test_an_unsupported_release_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    flag = cli("lint", "--mindcluster", "v7.2.RC1", str(ROOT / "examples"), cwd=str(repo))
    assert flag.returncode == 2 and "not a supported MindCluster release" in flag.stderr and "v7.3.2" in flag.stderr
    (repo / ".ascend-compile.yaml").write_text("cluster:\n  mindcluster: 7.3\n")
    config = cli("lint", str(ROOT / "examples"), cwd=str(repo))
    assert config.returncode == 2, config.stderr
    assert ".ascend-compile.yaml:2:16" in config.stderr and "not a supported MindCluster release" in config.stderr
