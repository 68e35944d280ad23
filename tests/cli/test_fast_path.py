"""The fast path reads a plain lint or validate command line exactly as click does, and leaves the rest to click."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.checkout import ROOT, checkout_env
from ascend_compile.cli import _fast
from ascend_compile.cli.compile import compile_command
from ascend_compile.cli.lint import lint_command
from ascend_compile.cli.validate import validate_command

EXAMPLES = ROOT / "examples"
COMMANDS = {"lint": lint_command, "validate": validate_command, "compile": compile_command}
#: the name of each command's paths argument
PATHS = {"lint": "paths", "validate": "paths", "compile": "specs"}

READ_HERE = [
    ["lint", "job.yaml"],
    ["lint", "a.yaml", "b.yaml", "-"],
    ["lint", "-q", "--no-cache", "manifests/"],
    ["lint", "--format", "json", "x.yaml"],
    ["lint", "--format=sarif", "x.yaml", "--fail-on", "warning"],
    ["lint", "x.yaml", "--disable", "AC305", "--disable=AC303,AC501", "--quiet"],
    ["lint", "--no-strict", "--strict", "x.yaml", "--no-strict"],
    ["lint", "--include", "*.yml", "--exclude", "charts/**", "--exclude=tmp", "k8s/"],
    ["lint", "--max-bytes", "1000", "--no-config", "--volcano-version", "1.9", "x.yaml"],
    ["validate", "x.yaml"],
    ["validate", "-q", "-f", "github", "dir/", "--strict-kinds", "--no-strict"],
    ["validate", "--format=json", "--max-bytes=20", "--include", "*.yaml", "-", "b.yaml"],
    ["validate", "dir/", "--disable", "AC009", "--disable=AC106,not-a-manifest"],
    ["compile", "x.yaml"],
    ["compile", "specs/", "-o", "manifests", "--check"],
    ["compile", "--check", "--output-dir=out", "a.yaml", "b.yaml", "--format", "json", "--no-lint"],
    ["compile", "s.yaml", "--set", "spec.image=repo/train:2.1", "--set=spec.queue=q", "--no-config", "--max-bytes", "99"],
    ["compile", "a.yaml", "--set", "spec.image=x"],
]

LEFT_TO_CLICK = [
    [], ["--help"], ["lint", "--help"], ["lint", "-h"], ["lint", "-v", "x.yaml"],
    ["lint", "--show-config"], ["lint", "--config", "c.yaml", "x.yaml"], ["lint", "--profile-dir", "p", "x.yaml"],
    ["lint", "--format", "xml", "x.yaml"], ["lint", "--format"], ["lint", "--fail-on", "-q", "x.yaml"],
    ["lint", "--max-bytes", "0", "x.yaml"], ["lint", "--max-bytes", "ten", "x.yaml"], ["lint", "-qv", "x.yaml"],
    ["lint", "--quiet=yes", "x.yaml"], ["lint", "--", "x.yaml"], ["lint", "--unknown", "x.yaml"],
    ["validate", "--volcano-version", "1.9", "x.yaml"], ["validate", "-v", "x.yaml"], ["lint", "--format=", "x"],
    ["compile"], ["compile", "-o", "out"], ["compile", "x.yaml", "-o"], ["compile", "x.yaml", "--check=yes"],
    ["compile", "x.yaml", "--profile-dir", "p"], ["compile", "x.yaml", "--show-config"], ["compile", "--help"],
    ["compile", "x.yaml", "--format", "xml"], ["compile", "-", "--set", "spec.image=x"],
    ["compile", "x.yaml", "-ox"],
]


@pytest.mark.parametrize("args", READ_HERE, ids=" ".join)
def test_the_fast_path_reads_a_command_line_as_click_does(args):
    command, paths, params = _fast.parse(args)
    context = COMMANDS[args[0]].make_context(args[0], list(args[1:]))
    clicks = dict(context.params)
    assert list(clicks.pop(PATHS[args[0]])) == paths
    assert {k: tuple(v) if isinstance(v, tuple) else v for k, v in clicks.items()} == params


@pytest.mark.parametrize("args", LEFT_TO_CLICK, ids=" ".join)
def test_anything_else_is_left_to_click(args):
    assert _fast.parse(args) is None


def test_a_usage_problem_found_after_parsing_is_reported_by_click(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "lint", "--disable", "NOPE", str(path)],
                          capture_output=True, text=True, env=checkout_env())
    assert proc.returncode == 2 and "Usage: ascend-compile lint" in proc.stderr and "unknown rule NOPE" in proc.stderr


def test_a_plain_lint_does_not_load_click(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['lint', '--no-cache', sys.argv[1]])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, 'click' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=checkout_env())
    assert proc.stdout.strip().endswith("exit 0 False"), proc.stdout + proc.stderr


@pytest.mark.parametrize("extra, said", [
    (["--check"], "--check compares against files on disk"),
    (["--set", "spec.nope"], "Invalid value for"),
    (["-o", "{file}"], "is a file"),
])
def test_a_compile_usage_problem_is_reported_by_click(tmp_path, extra, said):
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "pytorch-module-910b-8.yaml").read_text())
    args = [a.format(file=spec) for a in extra]
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "compile", str(spec), *args],
                          capture_output=True, text=True, env=checkout_env())
    assert proc.returncode == 2 and "Usage: ascend-compile compile" in proc.stderr and said in proc.stderr, proc.stderr
    assert proc.stdout == ""


def test_compile_check_does_not_load_click(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "pytorch-module-910b-8.yaml").read_text())
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['compile', sys.argv[1], '-o', sys.argv[2], '--check'])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, 'click' in sys.modules)\n")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "compile", str(spec), "-o", str(out)],
                          capture_output=True, text=True, env=checkout_env())
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-c", code, str(spec), str(out)], capture_output=True, text=True,
                          env=checkout_env())
    assert proc.stdout.strip().endswith("exit 0 False"), proc.stdout + proc.stderr
