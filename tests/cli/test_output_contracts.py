"""One output contract per format for every command (issue 47 item 3), as a table over command x format.

Each command that offers ``--format`` is run on a spec that cannot be read (an input error: exit 2) and, for
the commands that read the live cluster, against a cluster that refuses the connection (exit 4).  The contract:
the exit code's class; stdout parses as the format asked for (json: exactly one document; sarif: valid against
the SARIF 2.1.0 schema of ../shared/standards when present, else its structure; github: workflow commands
only, which may also go to stderr: the runner reads both); stderr holds nothing but diagnostics (never the report
document).
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

from tests.checkout import ROOT, SHARED, run_cli as cli
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

SARIF_SCHEMA = SHARED / "standards" / "sarif-schema-2.1.0.json"
#: every command that offers --format, and the formats it offers (what --help lists)
OFFERED: Dict[str, List[str]] = {
    "lint": ["text", "json", "sarif", "github"], "validate": ["text", "json", "sarif", "github"],
    "compile": ["text", "json", "sarif", "github"], "import": ["text", "json", "sarif", "github"],
    "apply": ["text", "json", "sarif", "github"], "diff": ["text", "json", "sarif", "github"],
    "delete": ["text", "json", "sarif", "github"], "status": ["text", "json"],
    "why": ["text", "json"], "wait": ["text", "json"], "events": ["text", "json"], "list": ["text", "json"],
    "explain": ["text", "json"],
}
#: the commands that read specs and manifests: each is run on one that cannot be read
READERS = ("lint", "validate", "compile", "import", "apply", "diff", "delete", "status")
TABLE = [(command, fmt) for command in READERS for fmt in OFFERED[command]]
REFUSED = {"match": ["get"], "rc": 1, "stderr": "The connection to the server 127.0.0.1:1 was refused - "
                                                "did you specify the right host or port?\n"}


def _one_json(stdout: str) -> Any:
    """The one JSON document stdout holds (json.loads fails on a second one or on trailing text)."""
    return json.loads(stdout)


def _check_sarif(stdout: str) -> Dict[str, Any]:
    log: Dict[str, Any] = json.loads(stdout)
    if SARIF_SCHEMA.exists():
        import jsonschema

        jsonschema.validate(log, json.loads(SARIF_SCHEMA.read_text(encoding="utf-8")))
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    assert log["runs"][0]["tool"]["driver"]["name"] == "ascend-compile"
    return log


def _check_stdout(fmt: str, stdout: str) -> None:
    if fmt == "json":
        _one_json(stdout)
    elif fmt == "sarif":
        _check_sarif(stdout)
    elif fmt == "github":
        commands = [line for line in stdout.splitlines() if line.startswith("::")]
        assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in commands), stdout


def _check_stderr(fmt: str, stderr: str) -> None:
    """Diagnostics only: for a document format, never the document (or any JSON) on stderr."""
    if fmt in ("json", "sarif"):
        assert '"schemaVersion"' not in stderr and '"$schema"' not in stderr, stderr
    assert "Traceback" not in stderr, stderr


@pytest.fixture
def bad_spec(tmp_path: Path) -> Path:
    spec = tmp_path / "job.yaml"
    spec.write_text("kind: TrainingJob\nname: [\n", encoding="utf-8")
    return spec


def _run(command: str, fmt: str, *args: str, **kwargs: Any) -> subprocess.CompletedProcess:
    return cli(*command.split(), "--format", fmt, *args, **kwargs)


@pytest.mark.parametrize("command,fmt", TABLE)
def test_unreadable_spec(command: str, fmt: str, bad_spec: Path, fake: Fake) -> None:  # noqa: F811
    """An input error exits 2; a document format still writes its one document (the finding) on stdout."""
    proc = _run(command, fmt, str(bad_spec), env=fake.env())
    assert proc.returncode == 2, proc.stderr
    _check_stdout(fmt, proc.stdout)
    _check_stderr(fmt, proc.stderr)
    if fmt == "json":
        findings = _one_json(proc.stdout)["findings"]
        assert findings and findings[0]["inputError"] and findings[0]["file"].endswith("job.yaml")


@pytest.mark.parametrize("command", ["lint", "compile"])
def test_unreachable_cluster_json(command: str, fake: Fake) -> None:  # noqa: F811
    """--cluster against a cluster that refuses the connection: exit 4 and a JSON error object on stdout."""
    fake.rules(REFUSED)
    proc = _run(command, "json", "--cluster", "examples/pytorch-module-910b-8.yaml", env=fake.env())
    assert proc.returncode == 4, proc.stderr
    error = _one_json(proc.stdout)["error"]
    assert error["exitCode"] == 4 and "refused" in error["message"]
    assert proc.stderr.startswith("error: ")


@pytest.mark.parametrize("command", sorted(OFFERED))
def test_help_offers_only_what_the_command_produces(command: str) -> None:
    """--help lists exactly the formats of the table: those the command can produce."""
    proc = cli(*command.split(), "--help")
    listed = re.search(r"--format \[([a-z|]+)\]", proc.stdout)
    assert listed and listed.group(1).split("|") == OFFERED[command], proc.stdout


def test_a_format_not_offered_is_a_usage_error() -> None:
    """status reports jobs, not findings: --format sarif was accepted and wrote a SARIF log to stderr."""
    proc = cli("status", "job1", "--format", "sarif")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "'sarif' is not one of 'text', 'json'" in proc.stderr


def test_docs_use_the_visible_format_option() -> None:
    """The docs spell --format, never the hidden -o json of the cluster commands (kubectl's own -o is fine)."""
    hidden = [f"{page.name}:{number}: {line.strip()}" for page in sorted((ROOT / "docs").glob("*.md"))
              for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"`(\w+ )?-o json`", line) and "kubectl" not in line]
    assert hidden == []


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_paths_are_relative_to_the_repository_root(fmt: str, tmp_path: Path) -> None:
    """Run from a subfolder, every format names the file from the repository root (GitHub resolves annotations
    that way); before, github, json and text named it from the subfolder."""
    repo = tmp_path / "repo"
    (repo / "k8s" / "jobs").mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / "k8s" / "jobs" / "job.yaml").write_text("kind: AscendJob\nfoo: [\n", encoding="utf-8")
    proc = cli("lint", "--format", fmt, "jobs/job.yaml", cwd=repo / "k8s")
    assert proc.returncode == 2, proc.stderr
    _check_stdout(fmt, proc.stdout)
    named = {"text": lambda out: out.split(":", 1)[0],
             "json": lambda out: json.loads(out)["findings"][0]["file"],
             "sarif": lambda out: json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
                                   ["artifactLocation"]["uri"],
             "github": lambda out: re.search(r"file=([^,]+),", out).group(1)}[fmt]  # type: ignore[union-attr]
    assert named(proc.stdout) == "k8s/jobs/job.yaml"


#: (--color, environment, coloured?): no-color.org and force-color.org for auto; the flag wins over both
COLOR_TABLE = [("auto", {}, False), ("auto", {"FORCE_COLOR": "1"}, True), ("auto", {"NO_COLOR": "1"}, False),
               ("auto", {"FORCE_COLOR": ""}, False), ("always", {}, True), ("always", {"NO_COLOR": "1"}, True),
               ("never", {"FORCE_COLOR": "1"}, False), ("never", {}, False)]


@pytest.mark.parametrize("command", ["lint", "validate"])
@pytest.mark.parametrize("flag,env,coloured", COLOR_TABLE)
def test_color(command: str, flag: str, env: Dict[str, str], coloured: bool, bad_spec: Path) -> None:
    """The text report is coloured as --color, FORCE_COLOR and NO_COLOR say (stdout is a pipe here: auto is off)."""
    proc = cli(command, "--color", flag, str(bad_spec), env=env, unset=("FORCE_COLOR", "NO_COLOR"))
    assert proc.returncode == 2, proc.stderr
    assert ("\033[" in proc.stdout) is coloured, proc.stdout


@pytest.mark.parametrize("command,fmt", [(c, f) for c in ("lint", "validate") for f in OFFERED[c]])
def test_clean_input(command: str, fmt: str) -> None:
    """A clean manifest: exit 0, stdout is the format (json: one document with no findings), stderr empty."""
    proc = cli(command, "--format", fmt, "examples/pytorch-module-910b-8.yaml")
    assert proc.returncode == 0, proc.stderr
    _check_stdout(fmt, proc.stdout)
    assert proc.stderr == ""
    if fmt == "json":
        assert _one_json(proc.stdout)["findings"] == []


@pytest.mark.parametrize("command", ["status", "why", "events", "list", "wait", "delete"])
def test_cluster_command_unreachable(command: str, fake: Fake) -> None:  # noqa: F811
    """Every cluster command offering json: a refused connection is exit 4 and one JSON error object on stdout."""
    fake.rules(REFUSED, {"match": ["delete"], **{k: v for k, v in REFUSED.items() if k != "match"}})
    target = ["--all"] if command == "list" else ["job1"]
    proc = cli(command, *target, "--format", "json", env=fake.env())
    assert proc.returncode == 4, proc.stderr
    assert _one_json(proc.stdout)["error"]["exitCode"] == 4
    assert proc.stderr.startswith("error: ") or "\nerror: " in proc.stderr, proc.stderr


def test_explain_json() -> None:
    proc = cli("explain", "AC101", "--format", "json")
    assert proc.returncode == 0 and proc.stderr == ""
    assert _one_json(proc.stdout)["id"] == "AC101"
