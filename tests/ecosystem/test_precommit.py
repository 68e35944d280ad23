"""The pre-commit hooks of .pre-commit-hooks.yaml, run for real by pre-commit.

pre-commit installs a repository's hooks from a git commit: ``try-repo`` takes the
repository's HEAD plus its staged and modified tracked files, but not files that are
not yet tracked. So the tests first snapshot this working tree (tracked files and
new, not ignored ones) into a throwaway git repository and point pre-commit at that:
the hooks are tested as they will be committed, both here and in a clean CI clone.

The first hook run builds pre-commit's virtualenv and pip-installs the snapshot, with
PyYAML, click and setuptools from a folder of wheels (the ``wheelhouse`` fixture:
downloaded once into the project's cache, so pre-commit itself never reaches an index);
later runs reuse it (one PRE_COMMIT_HOME per test session).
"""
from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional

import pytest
import yaml
from tests.checkout import run_cli
from tests.integration import controlplane

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "examples" / "pytorch-module-910b-8.yaml"
JOB_NAME = "resnet50-pytorch"

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("pre_commit") is None,
                       reason="pre-commit is not installed (pip install pre-commit, or the [test] extra)"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]

GIT_ENV = {"GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "test",
           "GIT_COMMITTER_EMAIL": "test@example.com", "GIT_CONFIG_NOSYSTEM": "1"}


def git(*args: str, cwd: Path) -> str:
    env = dict(os.environ, **GIT_ENV)
    env.pop("GIT_DIR", None)
    env.pop("GIT_INDEX_FILE", None)
    return subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                          cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def compile_to_text(spec: Path) -> str:
    result = run_cli("compile", str(spec))
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="session")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A one-commit git repository holding this working tree as it is now."""
    if not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git checkout: pre-commit installs hooks from a git repository")
    files = [f for f in git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT).split("\0")
             if f and (ROOT / f).is_file()]
    snapshot = tmp_path_factory.mktemp("hooks-repo")
    for name in files:
        target = snapshot / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    git("init", "-q", ".", cwd=snapshot)
    git("add", "-A", cwd=snapshot)
    git("commit", "-q", "-m", "snapshot", cwd=snapshot)
    return str(snapshot)


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


TIMINGS: Dict[str, float] = {}


def hook_requirements() -> List[str]:
    """What pip installs into the hook's virtualenv: the build backend and the runtime dependencies that
    pyproject.toml declares."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found: List[str] = []
    for key in ("requires", "dependencies"):
        block = re.search(rf"^{key} = \[(.*?)\]", text, re.MULTILINE | re.DOTALL)
        assert block, f"pyproject.toml has no {key} list"
        found += re.findall(r'"([^"]+)"', block.group(1))
    return found


@pytest.fixture(scope="session")
def wheelhouse() -> str:
    """A folder of wheels the hook's virtualenv installs from, so pre-commit itself needs no network:
    $ASCEND_COMPILE_WHEELHOUSE when set, else fetched once with `pip download` into the project's cache
    (a provisioning step like the Go builds' module download; skips when the wheels cannot be fetched)."""
    given = os.environ.get("ASCEND_COMPILE_WHEELHOUSE")
    if given:
        if not os.path.isdir(given):
            pytest.fail(f"ASCEND_COMPILE_WHEELHOUSE={given} is not a folder")
        return given
    requirements = hook_requirements()
    key = hashlib.sha256("\0".join([sys.version, sysconfig.get_platform(), *requirements]).encode()).hexdigest()[:16]
    root = controlplane._cache_home() / "wheelhouse"
    folder = root / key
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if folder.is_dir():
            return str(folder)
        staging = root / f"{key}.partial"
        shutil.rmtree(staging, ignore_errors=True)
        sys.stderr.write(f"pip download {' '.join(requirements)} -> {folder}\n")
        result = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "-d", str(staging), *requirements],
                                capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            tail = " | ".join((result.stdout + result.stderr).strip().splitlines()[-3:])
            pytest.skip(f"could not fetch the wheels the hook's virtualenv installs ({', '.join(requirements)}): "
                        f"pip download exited {result.returncode}: {tail}; set ASCEND_COMPILE_WHEELHOUSE to a "
                        "folder holding them")
        os.replace(staging, folder)
    return str(folder)


def pre_commit(args: List[str], cwd: Path, home: Path, wheelhouse: str) -> "subprocess.CompletedProcess[str]":
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", PIP_NO_INDEX="1",
               PIP_FIND_LINKS=wheelhouse, **GIT_ENV)
    env.pop("PYTHONPATH", None)  # the hook must run from its own virtualenv, not this checkout
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=900)
    TIMINGS[" ".join(args[:2])] = time.monotonic() - start
    sys.stderr.write(f"pre-commit {' '.join(args[:2])}: {time.monotonic() - start:.1f}s\n")
    return result


def user_repo(path: Path, files: Dict[str, str]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git("init", "-q", ".", cwd=path)
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text, encoding="utf-8")
    git("add", "-A", cwd=path)
    return path


def bad_manifest() -> str:
    docs = list(yaml.safe_load_all(compile_to_text(SPEC)))
    docs[-1]["spec"]["successPolicyy"] = docs[-1]["spec"].pop("successPolicy")  # a typo: unknown field
    return yaml.safe_dump_all(docs, sort_keys=False)


def output(result: "subprocess.CompletedProcess[str]") -> str:
    return str(result.stdout) + str(result.stderr)


def test_hooks_file_declares_the_three_hooks() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"ascend-compile-lint", "ascend-compile-validate", "ascend-compile-check"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["entry"].startswith("ascend-compile ")
        assert hook["types"] == ["yaml"]
    assert hooks["ascend-compile-lint"]["files"] == r"\.(ya?ml)$"
    assert hooks["ascend-compile-lint"]["pass_filenames"] is True
    assert hooks["ascend-compile-lint"]["require_serial"] is False
    assert hooks["ascend-compile-check"]["entry"] == "ascend-compile compile --check"
    assert hooks["ascend-compile-check"]["require_serial"] is True
    assert hooks["ascend-compile-lint"]["exclude"] == hooks["ascend-compile-validate"]["exclude"]


@pytest.mark.parametrize("path, skipped", [
    ("manifests/job.yaml", False), ("deploy/prod/train.yml", False), ("specs/chart-job.yaml", False),
    (".pre-commit-config.yaml", True), (".github/workflows/ci.yml", True), (".gitlab-ci.yml", True),
    ("overlays/prod/kustomization.yaml", True), ("charts/job/templates/job.yaml", True),
    ("charts/job/values-prod.yaml", True), ("charts/job/Chart.yaml", True), (".ascend-compile.yaml", True),
])
def test_manifest_hooks_skip_yaml_that_is_not_a_manifest(path: str, skipped: bool) -> None:
    hook = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())[0]
    assert bool(re.search(hook["files"], path)) and bool(re.search(hook["exclude"], path)) == skipped


@pytest.mark.parametrize("hook", ["ascend-compile-validate", "ascend-compile-lint"])
def test_try_repo_manifest_hooks(hook: str, hooks_repo: str, pre_commit_home: Path, wheelhouse: str,
                                 tmp_path: Path) -> None:
    if hook == "ascend-compile-lint" and not (Path(hooks_repo) / "compiler" / "cli" / "lint.py").exists():
        pytest.skip("the lint command is not in this tree yet")
    good = user_repo(tmp_path / "good", {
        "manifests/job.yaml": compile_to_text(SPEC), "README.md": "not yaml\n",
        # YAML that is not a manifest is excluded by the hook
        ".github/workflows/ci.yml": "on: push\njobs: {}\n",
        "overlays/kustomization.yaml": "resources: [../manifests/job.yaml]\n",
    })
    result = pre_commit(["try-repo", hooks_repo, hook, "--all-files"], good, pre_commit_home, wheelhouse)
    assert result.returncode == 0, output(result)
    assert "Passed" in result.stdout

    bad = user_repo(tmp_path / "bad", {"manifests/job.yaml": compile_to_text(SPEC),
                                       "manifests/broken.yml": bad_manifest()})
    result = pre_commit(["try-repo", hooks_repo, hook, "--all-files"], bad, pre_commit_home, wheelhouse)
    assert result.returncode == 1, output(result)
    assert "Failed" in result.stdout
    assert "manifests/broken.yml" in result.stdout
    assert "successPolicyy" in result.stdout
    assert "manifests/job.yaml" not in result.stdout.split("Failed", 1)[1]


def config_for(hooks_repo: str, **hook: object) -> str:
    rev = git("rev-parse", "HEAD", cwd=Path(hooks_repo)).strip()
    return yaml.safe_dump({"repos": [{"repo": hooks_repo, "rev": rev, "hooks": [hook]}]}, sort_keys=False)


def test_check_hook_with_the_documented_config(hooks_repo: str, pre_commit_home: Path, wheelhouse: str,
                                               tmp_path: Path) -> None:
    """try-repo cannot pass args, so this runs the .pre-commit-config.yaml snippet from docs/ci.md."""
    spec_text = SPEC.read_text(encoding="utf-8")
    repo = user_repo(tmp_path / "project", {"specs/job.yaml": spec_text})
    compiled = run_cli("compile", "specs/job.yaml", "-o", "manifests", cwd=repo)
    assert compiled.returncode == 0, compiled.stderr
    (repo / ".pre-commit-config.yaml").write_text(config_for(
        hooks_repo, id="ascend-compile-check", args=["-o", "manifests"], files="^specs/"))
    git("add", "-A", cwd=repo)

    result = pre_commit(["run", "--all-files"], repo, pre_commit_home, wheelhouse)
    assert result.returncode == 0, output(result)
    assert "Passed" in result.stdout

    # the spec changes, the committed manifest does not: the hook fails and shows the diff
    (repo / "specs" / "job.yaml").write_text(spec_text.replace("npus: 16", "npus: 8"), encoding="utf-8")
    git("add", "-A", cwd=repo)
    result = pre_commit(["run", "--all-files"], repo, pre_commit_home, wheelhouse)
    assert result.returncode == 1, output(result)
    assert f"manifests/{JOB_NAME}.yaml" in result.stdout
    assert "stale" in result.stdout
    assert "-      replicas: 1" in result.stdout or "replicas" in result.stdout


def test_lint_hook_in_a_config_runs_only_on_yaml(hooks_repo: str, pre_commit_home: Path, wheelhouse: str,
                                                 tmp_path: Path) -> None:
    if not (Path(hooks_repo) / "compiler" / "cli" / "validate.py").exists():
        pytest.skip("the validate command is not in this tree yet")
    repo = user_repo(tmp_path / "project", {"manifests/job.yaml": compile_to_text(SPEC),
                                            "notes.txt": "successPolicy: Everyone\n"})
    (repo / ".pre-commit-config.yaml").write_text(config_for(hooks_repo, id="ascend-compile-validate",
                                                             exclude=r"^\.pre-commit-config\.yaml$"))
    git("add", "-A", cwd=repo)
    result = pre_commit(["run", "--all-files"], repo, pre_commit_home, wheelhouse)
    assert result.returncode == 0, output(result)
