"""Issue 36 item 7: the docs and recipes run as written, after a plain install.

The GitHub workflow and the GitLab job of docs/ci.md are read from the document itself and their shell steps
run, in order and with the runners' shell options, in an equivalent fresh environment: a new virtualenv
(``python -m venv``, as actions/setup-python or the python:3.12 image give) with nothing on PYTHONPATH, in a git
repository holding specs/ and the manifests compiled from them.  One step differs, and only in where the package
comes from: offline, the recipe's ``pip install "ascend-compile @ git+https://..."`` becomes ``pip install
--no-index --find-links WHEELHOUSE <a snapshot of this checkout>`` (the same pip, the same build; the
wheelhouse fixture of test_precommit.py holds the build backend and the runtime dependencies).  The
``uses:`` steps (checkout, setup-python, upload-sarif) are the runner's and are not run; their inputs are
checked (the SARIF file the upload reads is SARIF 2.1.0).

Then every example of the offline commands' ``--help`` is run in that installed environment, from a folder
holding what a wheel user has: the starter spec ``ascend-compile init job.yaml`` writes, and files made from it
with the installed commands (the wheel ships no examples/ folder).  Examples that need a cluster, kubectl,
kustomize, kpt or jq are not run (listed in NOT_RUN, by command)."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.ecosystem.test_precommit import wheelhouse  # noqa: F401 - the offline wheels fixture

DOC = ROOT / "docs" / "ci.md"
GIT_INSTALL = re.compile(r'python -m pip install "ascend-compile @ git\+https://[^"]+"')
BROKEN = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\nbogus: 1\n"  # AC101, an error


def _yaml_blocks() -> List[Any]:
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)]


def github_steps() -> List[Dict[str, Any]]:
    workflow = next(b for b in _yaml_blocks() if isinstance(b, dict) and "jobs" in b)
    (job,) = workflow["jobs"].values()
    return list(job["steps"])


def gitlab_script() -> List[str]:
    job = next(b for b in _yaml_blocks() if isinstance(b, dict) and "ascend-compile" in b)["ascend-compile"]
    assert not job["image"].endswith("-slim"), "the slim image has no git: pip cannot install from a git URL"
    return list(job["script"])


def _snapshot(dest: Path) -> Path:
    """This checkout's tracked and new files (what a clone of it would hold), outside the checkout."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = ROOT / rel
        if source.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    return dest


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _snapshot(tmp_path_factory.mktemp("checkout"))


def _fresh_env(tmp_path: Path, wheels: str, snapshot: Path) -> Tuple[Dict[str, str], str]:
    """A new virtualenv first on PATH, and the offline install command that replaces the recipe's."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path / "home"),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": wheels, "LANG": "C.UTF-8"}
    (tmp_path / "home").mkdir()
    return env, f"python -m pip install -q --no-index --find-links {shlex.quote(wheels)} {shlex.quote(str(snapshot))}"


def _repository(tmp_path: Path, broken: bool) -> Path:
    """A repository as the recipes expect it: specs/, and manifests/ compiled from them and committed."""
    repo = tmp_path / "repo"
    (repo / "specs").mkdir(parents=True)
    for name in ("pytorch-module-910b-8.yaml", "mindspore-module-910b-16-vcjob.yaml"):
        shutil.copy2(ROOT / "examples" / name, repo / "specs" / name)
    compiled = run_cli("compile", "specs", "-o", "manifests", cwd=repo)
    assert compiled.returncode == 0, compiled.stderr
    if broken:
        (repo / "manifests" / "extra.yaml").write_text(BROKEN, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    return repo


def _bash(script: str, cwd: Path, env: Dict[str, str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def _offline(script: str, install: str) -> str:
    replaced, count = GIT_INSTALL.subn(install, script)
    return replaced if count else script


def run_github(tmp_path: Path, wheels: str, snapshot: Path, broken: bool) -> Tuple[Path, Dict[str, int]]:
    """Each ``run:`` step as the runner does (bash -eo pipefail); ``if: !cancelled()`` steps run after a failure,
    the others are skipped after one.  Returns the repository and each step's exit code by name."""
    env, install = _fresh_env(tmp_path, wheels, snapshot)
    repo = _repository(tmp_path, broken)
    codes: Dict[str, int] = {}
    failed = False
    for step in github_steps():
        if "run" not in step:
            continue
        if failed and "!cancelled()" not in str(step.get("if", "")):
            continue
        result = _bash(_offline(step["run"], install), repo, env)
        codes[step["name"]] = result.returncode
        failed = failed or result.returncode != 0
        if step["name"].startswith("Install"):
            assert result.returncode == 0, result.stdout + result.stderr
    return repo, codes


def test_the_github_workflow_passes_on_an_up_to_date_repository(tmp_path: Path, wheelhouse: str,  # noqa: F811
                                                                snapshot: Path) -> None:
    steps = github_steps()
    assert any(GIT_INSTALL.search(str(s.get("run", ""))) for s in steps), "the recipe installs from git (replaced)"
    repo, codes = run_github(tmp_path, wheelhouse, snapshot, broken=False)
    assert set(codes.values()) == {0}, codes
    assert len(codes) == 4, codes  # install, compile --check, two lints
    sarif = json.loads((repo / "ascend-compile.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"] == []


def test_the_github_workflow_fails_on_a_finding_and_still_uploads_it(tmp_path: Path, wheelhouse: str,  # noqa: F811
                                                                     snapshot: Path) -> None:
    repo, codes = run_github(tmp_path, wheelhouse, snapshot, broken=True)
    assert codes["Manifests are up to date with the specs"] == 0  # a hand-written file is not an orphan
    assert codes["Lint (annotations on the pull request)"] == 1  # the job fails, with annotations
    assert codes["Lint (SARIF for code scanning)"] == 0  # "findings" is not a failed step: the upload runs
    (result,) = json.loads((repo / "ascend-compile.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
    assert result["ruleId"] == "AC101"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "manifests/extra.yaml", "uriBaseId": "%SRCROOT%"}


def run_gitlab(tmp_path: Path, wheels: str, snapshot: Path, broken: bool) -> Tuple[Path, Any]:
    """The job's script as the runner runs it: one shell, each line in turn, the first failing line ends it."""
    env, install = _fresh_env(tmp_path, wheels, snapshot)
    repo = _repository(tmp_path, broken)
    script = "\n".join(_offline(line, install) for line in gitlab_script())
    return repo, _bash(script, repo, env)


def test_the_gitlab_job_passes_on_an_up_to_date_repository(tmp_path: Path, wheelhouse: str,  # noqa: F811
                                                           snapshot: Path) -> None:
    assert any(GIT_INSTALL.search(line) for line in gitlab_script())
    repo, result = run_gitlab(tmp_path, wheelhouse, snapshot, broken=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads((repo / "gl-code-quality-report.json").read_text(encoding="utf-8")) == []


def test_the_gitlab_job_fails_on_a_finding_with_its_code_quality_report(tmp_path: Path, wheelhouse: str,  # noqa: F811
                                                                        snapshot: Path) -> None:
    repo, result = run_gitlab(tmp_path, wheelhouse, snapshot, broken=True)
    assert result.returncode == 1, result.stdout + result.stderr  # the last line: lint's readable output
    assert "manifests/extra.yaml" in result.stdout and "[AC101]" in result.stdout
    (issue,) = json.loads((repo / "gl-code-quality-report.json").read_text(encoding="utf-8"))
    assert issue["check_name"] == "AC101" and issue["severity"] == "major"
    assert issue["location"] == {"path": "manifests/extra.yaml", "lines": {"begin": 5}}


# the cached lint of "Caches in CI": a key per branch, and --cache, which CI needs to use the cache --------------


def _cached_recipes() -> Tuple[List[Dict[str, Any]], Dict[str, Any]]:
    """The GitHub steps (a list with actions/cache) and the GitLab job (one with ``cache:``) of "Caches in CI"."""
    blocks = _yaml_blocks()
    steps = next(b for b in blocks if isinstance(b, list) and any("actions/cache" in str(s.get("uses")) for s in b))
    job = next(v for b in blocks if isinstance(b, dict) for v in b.values() if isinstance(v, dict) and "cache" in v)
    return steps, job


def _cached_lint(line: str, folder: str, repo: Path) -> "subprocess.CompletedProcess[str]":
    """The recipe's lint line run by this checkout in CI (``CI=true``, as the runners set it)."""
    words = shlex.split(line)
    assert words[:2] == ["ascend-compile", "lint"], line
    return run_cli(*words[1:], cwd=repo, env={"ASCEND_COMPILE_CACHE_DIR": folder, "CI": "true"})


def test_the_cached_recipes_key_the_cache_by_branch_and_use_it_in_ci(tmp_path: Path) -> None:
    steps, job = _cached_recipes()
    cache, lint = steps
    assert "github.ref" in cache["with"]["key"] and cache["with"]["restore-keys"].startswith(
        "ascend-compile-${{ github.ref }}-")
    assert "$CI_COMMIT_REF_SLUG" in job["cache"]["key"]
    folder = cache["with"]["path"]
    assert lint["env"]["ASCEND_COMPILE_CACHE_DIR"] == folder == job["variables"]["ASCEND_COMPILE_CACHE_DIR"]
    assert [path.rstrip("/") for path in job["cache"]["paths"]] == [folder]
    lines = [lint["run"], next(line for line in job["script"] if line.startswith("ascend-compile lint"))]
    for number, line in enumerate(lines):
        repo = _repository(tmp_path / str(number), broken=False)
        without = _cached_lint(line.replace(" --cache", ""), folder, repo)
        assert without.returncode == 0 and not (repo / folder).exists(), without.stderr  # CI: no cache unless asked
        result = _cached_lint(line, folder, repo)
        assert result.returncode == 0, result.stdout + result.stderr
        assert list((repo / folder / "lint").rglob("*.cache")), f"{line}: the cache the CI saves was not written"


# every --help example of the offline commands, after a plain install ----------------------------------------

#: commands whose examples need what a plain install does not give: a cluster (and kubectl)
CLUSTER = {"apply", "diff", "delete", "status", "why", "wait", "list", "logs", "events", "cluster"}
#: example lines not run, and why (the tool they pipe into is not part of a plain install)
NOT_RUN = {"kubectl": "kubectl", "kustomize ": "kustomize", "kpt ": "kpt", "jq ": "jq"}
#: example lines that start a server, which runs until it is stopped (tests/webhook/test_process.py starts it)
SERVERS = re.compile(r"^ascend-compile webhook serve\b")


def _examples(env: Dict[str, str]) -> Iterator[Tuple[str, str]]:
    """(command, example line) from each command's --help, as the installed program prints them."""
    listed = subprocess.run(["ascend-compile", "--help"], env=env, capture_output=True, text=True, check=True)
    names = re.findall(r"(?m)^  ([a-z][\w-]*)(?:\s{2,}|$)", listed.stdout.split("Commands:")[1])
    for name in ["", *names]:
        text = subprocess.run(["ascend-compile", *([name] if name else []), "--help"], env=env, capture_output=True,
                              text=True, check=True).stdout
        lines = text.split("Examples:")[1].split("\n\n")[0].splitlines() if "Examples:" in text else []
        joined: List[str] = []
        for line in lines:
            line = line.strip()
            if joined and joined[-1].endswith("\\"):
                joined[-1] = joined[-1][:-1] + " " + line
            elif line and not line.startswith("#"):
                joined.append(line)
        for line in joined:
            yield name, line


def _workspace(folder: Path, env: Dict[str, str]) -> None:
    """What a wheel user has after the first steps: init's starter spec, and files made from it."""
    def ac(*args: str, stdout: Any = None) -> None:
        subprocess.run(["ascend-compile", *args], cwd=folder, env=env, check=True, stdout=stdout, timeout=120)

    ac("init", "job.yaml")
    for name in ("specs", "legacy", "k8s", "hw-profiles", "jobs", "schemas"):
        (folder / name).mkdir()
    shutil.copy2(folder / "job.yaml", folder / "specs" / "job.yaml")
    shutil.copy2(folder / "job.yaml", folder / "spec.yaml")
    ac("compile", "specs", "-o", "manifests")
    for name in os.listdir(folder / "manifests"):
        shutil.copy2(folder / "manifests" / name, folder / "k8s" / name)
        shutil.copy2(folder / "manifests" / name, folder / "legacy" / name)
        shutil.copy2(folder / "manifests" / name, folder / "hand-written.yaml")
    spec = yaml.safe_load((folder / "job.yaml").read_text(encoding="utf-8"))
    (folder / "resource-list.yaml").write_text(yaml.safe_dump(
        {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [spec]}), encoding="utf-8")
    # a Volcano Job and its ranktable ConfigMap, hand-written as far as import and lint can tell
    made = subprocess.run("ascend-compile init - --name train --framework mindspore --target VolcanoJob "
                          "--profile module-910b-16 --npus 32 | ascend-compile compile -", shell=True, cwd=folder,
                          env=env, capture_output=True, text=True, check=True).stdout
    for doc in yaml.safe_load_all(made):
        name = "rings-config.yaml" if doc["kind"] == "ConfigMap" else "train.yaml"
        (folder / name).write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    (folder / "cluster.yaml").write_text(  # a cluster snapshot that knows only its queue (lint --cluster-snapshot)
        "apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: lab}\n"
        "spec:\n  queues:\n  - {name: default, state: Open}\n", encoding="utf-8")
    # a profile directory of one's own: a copy of a built-in profile under another name
    where = subprocess.run(["python", "-c", "from ascend_compile.resources import profiles_dir; print(profiles_dir())"],
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    text = (Path(where) / "module-910b-8.yaml").read_text(encoding="utf-8")
    (folder / "hw-profiles" / "a2.yaml").write_text(text.replace("name: module-910b-8", "name: my-cluster-a2", 1),
                                                    encoding="utf-8")


def test_every_help_example_of_the_offline_commands_works_after_a_plain_install(  # noqa: D103
        tmp_path: Path, wheelhouse: str, snapshot: Path) -> None:  # noqa: F811
    env, install = _fresh_env(tmp_path, wheelhouse, snapshot)
    installed = _bash(install, tmp_path, env)
    assert installed.returncode == 0, installed.stderr
    folder = tmp_path / "work"
    folder.mkdir()
    _workspace(folder, env)
    ran, failed = [], []
    for command, line in _examples(env):
        if command in CLUSTER or any(tool in line + " " for tool in NOT_RUN) or SERVERS.match(line):
            continue
        if re.match(r"ascend-compile init \S+\.yaml", line):  # writes a new file: not over the workspace's spec
            line = line.replace(".yaml", "-new.yaml", 1)
        assert "examples/" not in line, (command, line)  # a wheel user has no examples/ folder
        result = _bash(line, folder, env)
        ran.append(line)
        # 1 is findings (lint of the compiled output notes, a stale --check): the example ran as meant
        if result.returncode not in (0, 1) or "Traceback" in result.stderr:
            failed.append((command, line, result.returncode, result.stderr[-300:]))
    assert not failed, "\n".join(map(str, failed))
    assert len(ran) >= 25, ran  # compile, lint, validate, import, init, explain, rules, profiles, schema, krm


def test_the_wheel_lists_every_package_of_the_source_tree() -> None:
    """A package missing from pyproject's list is missing from the wheel: every compile of a plain install then
    exits 3 (found by the test above: ascend_compile.inventory, after the cluster snapshot landed)."""
    listed = set(re.findall(r'"(ascend_compile[\w.]*)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8")))
    tree = {".".join(("ascend_compile",) + path.parent.relative_to(ROOT / "compiler").parts)
            for path in (ROOT / "compiler").rglob("__init__.py")}
    assert tree - listed == set(), "add them to [tool.setuptools] packages in pyproject.toml"
