"""``cluster.snapshot`` in the project config (issue 47 item 4): lint, compile and apply read it as they read
``--cluster-snapshot`` (relative to the config file); the flag wins; ``--show-config`` shows it."""
from __future__ import annotations

import shutil
from pathlib import Path

from tests.checkout import run_cli as cli

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "lint" / "clusters" / "small.yaml"
QUEUE_MISSING = ROOT / "tests" / "lint" / "cases" / "AC901-cluster-queue-missing.yaml"
SPEC = ROOT / "examples" / "mindspore-module-910b-16-vcjob.yaml"  # queue 'research': the small cluster has none
EMPTY = "apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: x}\nspec: {}\n"


def _project(tmp_path: Path, snapshot: str = "cluster/small.yaml") -> Path:
    """A project folder whose config names the small cluster's snapshot, relative to the config."""
    (tmp_path / "cluster").mkdir()
    shutil.copy(SNAPSHOT, tmp_path / "cluster" / "small.yaml")
    (tmp_path / "cluster" / "empty.yaml").write_text(EMPTY, encoding="utf-8")
    config = tmp_path / ".ascend-compile.yaml"
    config.write_text(f"cluster:\n  snapshot: {snapshot}\n", encoding="utf-8")
    return config


def test_lint_reads_the_snapshot_the_config_names_relative_to_the_config(tmp_path: Path) -> None:
    config = _project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = cli("lint", "--no-cache", "--config", str(config), str(QUEUE_MISSING), cwd=elsewhere)
    assert proc.returncode == 1, proc.stderr
    assert "[AC901]" in proc.stdout
    without = cli("lint", "--no-cache", "--no-config", str(QUEUE_MISSING), cwd=elsewhere)
    assert "AC901" not in without.stdout


def test_the_flag_wins_over_the_config(tmp_path: Path) -> None:
    config = _project(tmp_path, "cluster/empty.yaml")
    assert "AC901" not in cli("lint", "--no-cache", "--config", str(config), str(QUEUE_MISSING)).stdout
    flagged = cli("lint", "--no-cache", "--config", str(config), str(QUEUE_MISSING),
                  "--cluster-snapshot", str(tmp_path / "cluster" / "small.yaml"))
    assert "[AC901]" in flagged.stdout, flagged.stderr


def test_compile_is_checked_against_the_configs_snapshot(tmp_path: Path) -> None:
    config = _project(tmp_path)
    refused = cli("compile", "--config", str(config), str(SPEC), cwd=tmp_path)
    assert refused.returncode == 1
    assert "queue 'research' does not exist in the cluster" in refused.stdout + refused.stderr
    empty = cli("compile", "--config", str(config), str(SPEC), "--cluster-snapshot", "cluster/empty.yaml",
                cwd=tmp_path)
    assert empty.returncode == 0, empty.stderr


def test_show_config_shows_the_snapshot_and_where_it_comes_from(tmp_path: Path) -> None:
    config = _project(tmp_path)
    shown = cli("lint", "--config", str(config), "--show-config")
    assert shown.returncode == 0, shown.stderr
    path = str(tmp_path / "cluster" / "small.yaml")
    assert f'"snapshot": "{path}"' in shown.stdout
    assert f"cluster snapshot: {path} (cluster.snapshot)" in shown.stdout
    flagged = cli("lint", "--config", str(config), "--show-config", "--cluster-snapshot", str(SNAPSHOT))
    assert f"cluster snapshot: {SNAPSHOT} (--cluster-snapshot)" in flagged.stdout


def test_a_missing_snapshot_is_an_input_error_naming_it(tmp_path: Path) -> None:
    config = _project(tmp_path, "cluster/gone.yaml")
    proc = cli("lint", "--no-cache", "--config", str(config), str(QUEUE_MISSING))
    assert proc.returncode == 2
    assert "AC016" in proc.stdout + proc.stderr and "gone.yaml" in proc.stdout + proc.stderr


def test_a_snapshot_key_that_is_not_a_path_is_refused_with_its_place(tmp_path: Path) -> None:
    config = _project(tmp_path, "[a, b]")
    proc = cli("lint", "--no-cache", "--config", str(config), str(QUEUE_MISSING))
    assert proc.returncode == 2
    out = proc.stdout + proc.stderr
    assert f"{config}:2:13" in out and "cluster.snapshot must be a file path" in out


def test_the_python_api_reads_the_configs_snapshot_as_the_cli_does(tmp_path: Path) -> None:
    import ascend_compile

    config = _project(tmp_path)
    rules = {f.rule for f in ascend_compile.lint_manifests([str(QUEUE_MISSING)], config=str(config))}
    assert "AC901" in rules
    flagged = {f.rule for f in ascend_compile.lint_manifests([str(QUEUE_MISSING)], config=str(config),
                                                             cluster_snapshot=tmp_path / "cluster" / "empty.yaml")}
    assert "AC901" not in flagged


def test_show_config_names_a_missing_snapshot_file(tmp_path: Path) -> None:
    """A config naming a snapshot that is not there: --show-config is a usage error that names the file and says
    what to do, as lint's AC016 does (it said only "cannot read the cluster snapshot: no such file")."""
    config = _project(tmp_path, "cluster/missing.yaml")
    shown = cli("lint", "--config", str(config), "--show-config")
    assert shown.returncode == 2
    assert str(tmp_path / "cluster" / "missing.yaml") in shown.stderr
    assert "check the path" in shown.stderr
