"""One flag vocabulary (issue 36 item 5, in part): a walk over every command's click options checks that a
flag means one thing everywhere, and the journey "lint's AC106 hint names --strict-kinds" works with lint.

validate reads the project config's lint.disable (and takes --config/--no-config).  --fail-on is on every
command that reports findings (lint, validate, compile's output lint, krm) with lint's choices and meaning;
``--dry-run client`` says on every command that has it that it still reads the cluster, and an apply that
cannot reach one says how to see the objects offline (the real kubectl against a closed port)."""
from __future__ import annotations

import shutil
import socket
from pathlib import Path
from typing import Dict, List

import click
import pytest

from tests.checkout import run_cli
from tests.cli.test_compile_lints_output import SPEC as WHOLE_NODES


def _commands() -> Dict[str, click.Command]:
    from ascend_compile.cli._group import cli

    ctx = click.Context(cli)
    return {name: cli.get_command(ctx, name) for name in cli.list_commands(ctx)}


def _visible(command: click.Command) -> List[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option) and not p.hidden]


def test_every_command_is_walked() -> None:
    names = set(_commands())
    assert {"lint", "validate", "compile", "import", "status", "why", "wait", "apply", "diff", "delete"} <= names


def test_dash_o_is_an_output_folder_wherever_it_is_shown() -> None:
    for name, command in _commands().items():
        for option in _visible(command):
            if "-o" in option.opts:
                assert "--output-dir" in option.opts, (name, option.opts)


def test_the_output_format_is_spelled_format_wherever_it_is_shown() -> None:
    for name, command in _commands().items():
        for option in _visible(command):
            if option.name in ("fmt", "output") and option.type and isinstance(option.type, click.Choice) \
                    and "json" in option.type.choices:
                assert option.opts == ["--format"], (name, option.opts)


def test_schema_strictness_flags_are_the_same_on_lint_and_validate() -> None:
    commands = _commands()
    for name, command in commands.items():
        flags = {flag for option in _visible(command) for flag in option.opts + option.secondary_opts}
        if "--strict" in flags:  # a command that checks schemas takes both strictness flags
            assert "--strict-kinds" in flags, name
    assert {"lint", "validate"} <= {name for name, c in commands.items()
                                     if any("--strict-kinds" in o.opts for o in _visible(c))}


def test_lint_takes_the_flag_its_unknown_kind_hint_names(tmp_path: Path) -> None:
    manifest = tmp_path / "rollout.yaml"
    manifest.write_text("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\n", encoding="utf-8")
    plain = run_cli("lint", "--no-cache", "--fail-on", "info", "--format", "json", str(manifest))
    assert "--strict-kinds makes this an error" in plain.stdout
    strict = run_cli("lint", "--no-cache", "--strict-kinds", str(manifest))
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert "error: no built-in schema for argoproj.io/v1alpha1 Rollout" in strict.stdout
    assert "[AC106]" in strict.stdout
    # through click too (a flag the fast path does not read sends the line to click)
    slow = run_cli("lint", "--no-cache", "--strict-kinds", "-v", str(manifest))
    assert slow.returncode == 1 and "[AC106]" in slow.stdout, slow.stdout + slow.stderr


def test_validate_reads_the_project_configs_lint_disable(tmp_path: Path) -> None:
    (tmp_path / ".ascend-compile-root").write_text("", encoding="utf-8")
    manifest = tmp_path / "rollout.yaml"
    manifest.write_text("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\n", encoding="utf-8")
    assert "[AC106]" in run_cli("validate", "rollout.yaml", cwd=tmp_path).stdout
    (tmp_path / ".ascend-compile.yaml").write_text("lint:\n  disable: [AC106]\n", encoding="utf-8")
    quiet = run_cli("validate", "rollout.yaml", cwd=tmp_path)
    assert quiet.returncode == 0 and "AC106" not in quiet.stdout, quiet.stdout + quiet.stderr
    assert "[AC106]" in run_cli("validate", "--no-config", "rollout.yaml", cwd=tmp_path).stdout
    other = tmp_path / "other.yaml"
    other.write_text("lint:\n  disable: [AC106]\n", encoding="utf-8")
    (tmp_path / ".ascend-compile.yaml").unlink()
    named = run_cli("validate", "--config", str(other), "rollout.yaml", cwd=tmp_path)
    assert named.returncode == 0 and "AC106" not in named.stdout, named.stdout + named.stderr


# --fail-on: one spelling, one choice list, one meaning --------------------------------------------------------

FINDING_COMMANDS = {"lint", "validate", "compile", "krm"}  # they report findings and exit 1 on them


def test_fail_on_is_on_every_command_that_reports_findings_with_one_meaning() -> None:
    helps = {}
    for name, command in _commands().items():
        for option in _visible(command):
            if "--fail-on" in option.opts:
                assert isinstance(option.type, click.Choice), name
                assert list(option.type.choices) == ["error", "warning", "info"], name
                assert option.default is None, name  # the config's lint.failOn, else error
                helps[name] = option.help or ""
    assert set(helps) == FINDING_COMMANDS
    for name, text in helps.items():
        assert text.startswith("Lowest severity of a finding that makes the exit code 1 (default: lint.failOn in "
                               "the config, else error)."), (name, text)


ROLLOUT = "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\n"  # AC106, a note


def test_validate_fail_on(tmp_path: Path) -> None:
    (tmp_path / "rollout.yaml").write_text(ROLLOUT, encoding="utf-8")
    plain = run_cli("validate", "rollout.yaml", cwd=tmp_path)
    assert plain.returncode == 0 and "[AC106]" in plain.stdout, plain.stdout + plain.stderr
    assert run_cli("validate", "--fail-on", "warning", "rollout.yaml", cwd=tmp_path).returncode == 0
    noted = run_cli("validate", "--fail-on", "info", "rollout.yaml", cwd=tmp_path)
    assert noted.returncode == 1 and "[AC106]" in noted.stdout, noted.stdout + noted.stderr
    (tmp_path / ".ascend-compile-root").write_text("", encoding="utf-8")
    (tmp_path / ".ascend-compile.yaml").write_text("lint:\n  failOn: info\n", encoding="utf-8")
    assert run_cli("validate", "rollout.yaml", cwd=tmp_path).returncode == 1  # the config's lint.failOn
    assert run_cli("validate", "--fail-on", "error", "rollout.yaml", cwd=tmp_path).returncode == 0  # the flag wins


# its output has an AC801 warning (a literal credential)
SPEC = WHOLE_NODES.replace("npusPerPod: 4", "npusPerPod: 8") + "  env: {DB_PASSWORD: hunter2}\n"


def test_compile_fail_on_refuses_the_output_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "job.yaml").write_text(SPEC, encoding="utf-8")
    refused = run_cli("compile", "--fail-on", "warning", "job.yaml", "-o", "out", cwd=tmp_path)
    assert refused.returncode == 1, refused.stderr
    assert "warning:" in refused.stderr and "[AC801]" in refused.stderr
    assert not (tmp_path / "out").exists()
    # through click too (-v sends the line to click)
    assert run_cli("compile", "-v", "--fail-on", "warning", "job.yaml", cwd=tmp_path).returncode == 1
    written = run_cli("compile", "job.yaml", "-o", "out", cwd=tmp_path)
    assert written.returncode == 0 and "[AC801]" in written.stderr and (tmp_path / "out" / "job.yaml").exists()
    (tmp_path / ".ascend-compile-root").write_text("", encoding="utf-8")
    (tmp_path / ".ascend-compile.yaml").write_text("lint:\n  failOn: warning\n", encoding="utf-8")
    assert run_cli("compile", "job.yaml", cwd=tmp_path).returncode == 1  # the config's lint.failOn
    assert run_cli("compile", "--fail-on", "error", "job.yaml", cwd=tmp_path).returncode == 0


def test_krm_lint_fail_on(tmp_path: Path) -> None:
    items = "".join("  " + line + "\n" if i else "- " + line + "\n" for i, line in enumerate(ROLLOUT.splitlines()))
    resource_list = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items
    plain = run_cli("krm", "--lint", input=resource_list)
    assert plain.returncode == 0 and "rule: AC106" in plain.stdout, plain.stdout + plain.stderr
    failed = run_cli("krm", "--lint", "--fail-on", "info", input=resource_list)
    assert failed.returncode == 1 and "[AC106]" in failed.stderr, failed.stdout + failed.stderr
    assert "rule: AC106" in failed.stdout  # the ResourceList is still written


# --dry-run client: what it is, said everywhere --------------------------------------------------------------

def test_every_dry_run_client_says_it_reads_the_cluster() -> None:
    found = []
    for name, command in _commands().items():
        for option in _visible(command):
            if "--dry-run" in option.opts:
                found.append(name)
                text = " ".join((option.help or "").split())
                client = text.split("client:")[1]
                assert "still reads" in client and "only print" not in client, (name, text)
    assert {"apply", "delete"} <= set(found)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cluster.md").read_text(encoding="utf-8")
    assert "sends nothing" not in docs and "it is not offline" in docs


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="needs kubectl on PATH (it is in this project's CI image)")
def test_apply_dry_run_client_without_a_cluster_says_how_to_see_the_objects(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "kubeconfig"
    config.write_text(f"""apiVersion: v1
kind: Config
clusters: [{{name: lab, cluster: {{server: "https://127.0.0.1:{port}", insecure-skip-tls-verify: true}}}}]
contexts: [{{name: lab, context: {{cluster: lab, user: u, namespace: training}}}}]
users: [{{name: u, user: {{token: not-a-real-token}}}}]
current-context: lab
""", encoding="utf-8")
    (tmp_path / "job.yaml").write_text(SPEC.replace("  env: {DB_PASSWORD: hunter2}\n", ""), encoding="utf-8")
    result = run_cli("apply", "--dry-run", "client", "--kubeconfig", str(config), "job.yaml", cwd=tmp_path)
    assert result.returncode == 4, result.stderr  # unreachable: kubectl's client dry run needs the cluster
    assert "a client dry run changes nothing but still reads the cluster" in result.stderr
    assert "ascend-compile compile SPEC" in result.stderr
    offline = run_cli("compile", "job.yaml", cwd=tmp_path)
    assert offline.returncode == 0 and "kind: AscendJob" in offline.stdout
