"""Everyday CLI comforts: profiles, init, shell completion, and an example in every --help."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, Optional

import pytest
import yaml
from click.testing import CliRunner

from ascend_compile.cli.commands import COMMANDS
from tests.checkout import run_cli

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- --help

@pytest.mark.parametrize("command", [[], *([name] for name in sorted(COMMANDS)), ["profiles", "show"]],
                         ids=lambda c: " ".join(c) or "ascend-compile")
def test_every_help_shows_an_example(command: List[str]) -> None:
    result = run_cli(*command, "--help")
    assert result.returncode == 0, result.stderr
    assert "Example" in result.stdout
    assert "ascend-compile " + " ".join(command) in result.stdout


# --------------------------------------------------------------------------- profiles

def test_profiles_lists_every_profile_in_a_table() -> None:
    result = run_cli("profiles")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:4] == ["NAME", "CHIP", "RESOURCE", "NPUS/NODE"]
    rows = {line.split()[0]: line for line in lines[1:lines.index("")]}  # then what differs per release
    names = sorted(p.stem for p in (ROOT / "profiles").glob("*.yaml"))
    assert sorted(rows) == names
    assert rows["module-910b-8"].split()[1:5] == ["Ascend910B", "huawei.com/Ascend910", "8", "1-8"]
    assert "1, 2, 4, 8" in rows["module-910"]


def test_profiles_json() -> None:
    result = run_cli("profiles", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    by_name = {p["name"]: p for p in data}
    assert by_name["card-910b-2"]["npusPerPod"] == {"singlePod": [1, 2], "multiPod": [1, 2], "multiPodRecommended": [2]}
    assert by_name["card-910b-2"]["npusPerNode"] == 2


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_profiles_show(fmt: str) -> None:
    result = run_cli("profiles", "show", "module-910b-16", "--format", fmt)
    assert result.returncode == 0, result.stderr
    data = yaml.safe_load(result.stdout) if fmt == "yaml" else json.loads(result.stdout)
    assert data["name"] == "module-910b-16"
    assert data["npusPerNode"] == 16
    assert 16 in data["npusPerPod"]["singlePod"] and data["npusPerPod"]["multiPod"]
    assert "32, 48, 64" in data["allowedNpus"]
    # the upstream code and docs the profile's numbers come from (the profile file's spec.sources)
    source = yaml.safe_load((ROOT / "profiles" / "module-910b-16.yaml").read_text())["spec"]["sources"]
    assert source and data["sources"] == source


def test_profiles_show_unknown_name_suggests_one() -> None:
    result = run_cli("profiles", "show", "module-910b-9")
    assert result.returncode == 2
    assert "unknown hardware profile 'module-910b-9'" in result.stderr
    assert "Did you mean 'module-910b-8'?" in result.stderr
    assert result.stdout == ""


def test_profiles_see_extra_profile_dirs(tmp_path: Path) -> None:
    text = (ROOT / "profiles" / "card-910b-2.yaml").read_text().replace("name: card-910b-2", "name: lab-cards")
    (tmp_path / "lab.yaml").write_text(text)
    result = run_cli("profiles", "--profile-dir", str(tmp_path), "show", "lab-cards")
    assert result.returncode == 0, result.stderr
    assert yaml.safe_load(result.stdout)["name"] == "lab-cards"


# --------------------------------------------------------------------------- init

def test_init_with_flags_writes_a_spec_that_compiles(tmp_path: Path) -> None:
    result = run_cli("init", "jobs/resnet.yaml", "--name", "resnet", "--framework", "mindspore", "--profile",
                     "module-910b-8", "--npus", "16", "--image", "registry.example.com/ml/ms:2.3", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    spec = tmp_path / "jobs" / "resnet.yaml"
    text = spec.read_text()
    assert text.startswith("# yaml-language-server: $schema=")
    data = yaml.safe_load(text)
    assert data["spec"] == {**data["spec"], "framework": "mindspore", "profile": "module-910b-8", "npus": 16,
                            "image": "registry.example.com/ml/ms:2.3"}
    compiled = run_cli("compile", str(spec), cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stderr
    job = list(yaml.safe_load_all(compiled.stdout))[-1]
    assert job["kind"] == "AscendJob" and job["metadata"]["name"] == "resnet"


def test_init_without_a_terminal_takes_defaults(tmp_path: Path) -> None:
    result = run_cli("init", cwd=tmp_path, input="")
    assert result.returncode == 0, result.stderr
    spec = tmp_path / "my-training-job.yaml"
    assert spec.is_file()
    assert run_cli("compile", str(spec), cwd=tmp_path).returncode == 0


def test_init_to_stdout_pipes_into_compile() -> None:
    spec = run_cli("init", "-", "--name", "vc", "--profile", "card-910b-2", "--npus", "4", "--target", "VolcanoJob")
    assert spec.returncode == 0, spec.stderr
    compiled = run_cli("compile", "-", input=spec.stdout)
    assert compiled.returncode == 0, compiled.stderr
    assert [d["kind"] for d in yaml.safe_load_all(compiled.stdout)] == ["ConfigMap", "Job"]


def test_init_in_the_checkout_points_at_the_schema_file() -> None:
    # build/ is ignored by git and read by nothing else
    target = ROOT / "build" / f"init-test-{os.getpid()}" / "job.yaml"
    try:
        assert run_cli("init", str(target), "--name", "schema-ref").returncode == 0
        first = target.read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schemas/trainingjob-v1alpha1.json"
    finally:
        shutil.rmtree(target.parent, ignore_errors=True)
        with contextlib.suppress(OSError):
            (ROOT / "build").rmdir()  # only if empty


def test_init_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    spec = tmp_path / "job.yaml"
    spec.write_text("keep me\n")
    result = run_cli("init", str(spec), "--name", "x")
    assert result.returncode == 2
    assert "already exists" in result.stderr and "--force" in result.stderr
    assert spec.read_text() == "keep me\n"
    result = run_cli("init", str(spec), "--name", "x", "--force")
    assert result.returncode == 0, result.stderr
    assert yaml.safe_load(spec.read_text())["metadata"]["name"] == "x"


@pytest.mark.parametrize("args, message", [
    (["--npus", "13"], "13 NPUs cannot be placed on module-910b-8"),
    (["--profile", "module-910b-9"], "Did you mean 'module-910b-8'?"),
    (["--name", "Bad_Name"], "invalid --name"),
    (["--framework", "jax"], "Invalid value for '--framework'"),
])
def test_init_rejects_values_that_would_not_compile(args: List[str], message: str, tmp_path: Path) -> None:
    result = run_cli("init", str(tmp_path / "job.yaml"), *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "job.yaml").exists()


def test_init_prompts_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ascend_compile.cli import _group, init

    monkeypatch.setattr(init, "_interactive", lambda: True)
    monkeypatch.chdir(tmp_path)
    answers = "\n".join(["bert", "pytorch", "card-910b-2", "4", "reg.example.com/pt:2.1", "AscendJob"]) + "\n"
    result = CliRunner().invoke(_group.cli, ["init"], input=answers)
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((tmp_path / "bert.yaml").read_text())
    assert data["metadata"]["name"] == "bert"
    assert data["spec"]["profile"] == "card-910b-2" and data["spec"]["npus"] == 4
    assert data["spec"]["image"] == "reg.example.com/pt:2.1"
    assert "Total NPUs" in result.output


# --------------------------------------------------------------------------- shell completion

def completion(shell_var: str, env: Optional[Dict[str, str]] = None) -> str:
    """The completion script or answer, from the installed console script when there is one."""
    full_env = {"_ASCEND_COMPILE_COMPLETE": shell_var, **(env or {})}
    script = shutil.which("ascend-compile")
    if script:
        proc = subprocess.run([script], capture_output=True, text=True, env={**os.environ, **full_env}, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return str(proc.stdout)
    from ascend_compile.cli import _group

    result = CliRunner().invoke(_group.cli, [], prog_name="ascend-compile", env=full_env)
    assert result.exit_code == 0, result.output
    return str(result.output)


@pytest.mark.parametrize("shell, marker", [
    ("bash", "complete -o nosort -F _ascend_compile_completion ascend-compile"),
    ("zsh", "#compdef ascend-compile"),
    ("fish", "complete --no-files --command ascend-compile"),
])
def test_completion_scripts(shell: str, marker: str) -> None:
    script = completion(f"{shell}_source")
    assert marker in script
    assert "_ASCEND_COMPILE_COMPLETE" in script


def test_completion_of_commands_and_profile_names() -> None:
    answer = completion("bash_complete", {"COMP_WORDS": "ascend-compile pro", "COMP_CWORD": "1"})
    assert answer.split() == ["plain,profiles"]
    answer = completion("bash_complete", {"COMP_WORDS": "ascend-compile profiles show card-910b", "COMP_CWORD": "3"})
    assert answer.split() == ["plain,card-910b-2", "plain,card-910b-infer"]
