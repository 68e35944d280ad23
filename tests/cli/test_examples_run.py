"""Every example shown in ``--help`` and in the docs' shell blocks runs as shown.

The examples are read from the real help text and the real Markdown, and run with bash in a scratch
workspace holding the files they name (``specs/``, ``manifests/``, ``job.yaml``, ...). Examples that
need a cluster (``apply``, ``diff``, ``status``, ``delete``, ``kubectl apply``) or a terminal (a bare
``init``) are left out, and the test says how many ran, so a parser that finds nothing fails.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest
import yaml

from ascend_compile.cli.commands import COMMANDS
from tests.checkout import ROOT, checkout_pythonpath, run_cli

#: What a runnable example starts with (after a ``$ `` prompt, in the docs).
_PROGRAMS = ("ascend-compile ", "cat ", "kustomize ", "kpt ", "kubectl ")
#: Examples left out, and why: they need a cluster (kubectl, or a command with --kubeconfig, found below), a
#: terminal, or process substitution; and the webhook's server, which serves until it is stopped.
_OFFLINE_ONLY = re.compile(r"kubectl apply|^kubectl (?!kustomize)|^ascend-compile init\s*(#|$)|<\(|"
                           r"^ascend-compile webhook serve\b")


def _join_continued(lines: List[str]) -> Iterator[str]:
    buffer = ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            buffer += line.rstrip()[:-1] + " "
            continue
        yield (buffer + line).strip()
        buffer = ""


def _commands(lines: List[str]) -> List[str]:
    found = []
    for line in _join_continued(lines):
        line = line[2:] if line.startswith("$ ") else line
        if line.startswith(_PROGRAMS) and "ascend-compile" in line:
            found.append(line)
    return found


CLUSTER: List[str] = []  # the commands that talk to a cluster
#: commands that take the cluster flags but read a cluster only with --cluster (their other examples run offline)
READS_A_CLUSTER_ONLY_WITH_CLUSTER_FLAG = {"lint"}


def help_examples() -> List[Tuple[str, str]]:
    out = []
    for command in ["", *sorted(COMMANDS)]:
        text = run_cli(*([command] if command else []), "--help").stdout
        if "--kubeconfig" in text and command not in READS_A_CLUSTER_ONLY_WITH_CLUSTER_FLAG:
            CLUSTER.append(command)
        block = text.split("Examples:", 1)[1] if "Examples:" in text else ""
        lines = []
        for line in block.splitlines():
            if line and not line.startswith(" "):
                break
            lines.append(line)
        out += [(f"{command or 'ascend-compile'} --help", example) for example in _commands(lines)]
    return out


def doc_examples() -> List[Tuple[str, str]]:
    out = []
    for doc in [ROOT / "README.md", ROOT / "examples" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        blocks = re.findall(r"^```(?:sh|bash|console|shell)\n(.*?)^```", doc.read_text(encoding="utf-8"),
                            re.MULTILINE | re.DOTALL)
        for block in blocks:
            out += [(doc.name, example) for example in _commands(block.splitlines())]
    return out


ALL = help_examples() + doc_examples()
_CLUSTER = re.compile(rf"ascend-compile ({'|'.join(CLUSTER)})\b|--cluster(\s|$)")
RUNNABLE = [(where, example) for where, example in ALL
            if not _OFFLINE_ONLY.search(example) and not _CLUSTER.search(example)]


def test_examples_are_found() -> None:
    assert len(ALL) >= 40 and len(RUNNABLE) >= 30, (len(ALL), len(RUNNABLE))
    assert {"apply", "diff", "status", "delete"} <= set(CLUSTER)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Dict[str, str]]:
    """A folder with every file the examples name, and a PATH whose ascend-compile runs this checkout."""
    work = tmp_path_factory.mktemp("examples")
    shutil.copytree(ROOT / "examples", work / "examples")
    (work / "specs").mkdir()
    for name in ("pytorch-module-910b-8.yaml", "tensorflow-card-910b-2.yaml"):
        shutil.copy(ROOT / "examples" / name, work / "specs" / name)
    for name in ("spec.yaml", "job-spec.yaml"):
        shutil.copy(ROOT / "examples" / "pytorch-module-910b-8.yaml", work / name)
    assert run_cli("compile", "specs/", "-o", "manifests/", cwd=work).returncode == 0
    shutil.copytree(work / "manifests", work / "k8s")
    shutil.copytree(work / "manifests", work / "legacy")
    assert run_cli("lint", "k8s/", "--write-baseline", ".ascend-compile-baseline.json", cwd=work).returncode == 0
    shutil.copytree(work / "manifests", work / "overlays" / "prod")
    (work / "overlays" / "prod" / "kustomization.yaml").write_text(
        "resources: [" + ", ".join(sorted(p.name for p in (work / "manifests").iterdir())) + "]\n")
    vcjob = run_cli("compile", "examples/mindspore-module-910b-16-vcjob.yaml", cwd=work)
    docs = list(yaml.safe_load_all(vcjob.stdout))
    # a hand-written Volcano Job and its ranktable ConfigMap; job.yaml is a spec (as 'init job.yaml' writes)
    (work / "train.yaml").write_text(yaml.safe_dump(docs[-1], sort_keys=False))
    (work / "rings-config.yaml").write_text(yaml.safe_dump_all(docs[:-1], sort_keys=False))
    shutil.copy(work / "train.yaml", work / "hand-written.yaml")
    shutil.copy(ROOT / "examples" / "pytorch-module-910b-8.yaml", work / "job.yaml")
    (work / "cluster.yaml").write_text(  # a cluster snapshot that knows only its queue (lint --cluster-snapshot)
        "apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: lab}\n"
        "spec:\n  queues:\n  - {name: default, state: Open}\n")
    (work / "ca.pem").write_text(  # a CA certificate (webhook manifests --tls self-signed --ca-bundle ca.pem)
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIBATAKBggqhkjOPQQDAjAA\n-----END CERTIFICATE-----\n")
    profile = yaml.safe_load((ROOT / "profiles" / "module-910b-8.yaml").read_text())
    profile["metadata"]["name"] = "my-cluster-a2"
    (work / "hw-profiles").mkdir()
    (work / "hw-profiles" / "my-cluster-a2.yaml").write_text(yaml.safe_dump(profile, sort_keys=False))
    spec = yaml.safe_load((work / "spec.yaml").read_text())
    (work / "resource-list.yaml").write_text(yaml.safe_dump(
        {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [spec]}, sort_keys=False))
    bin_dir = work / ".bin"
    bin_dir.mkdir()
    script = bin_dir / "ascend-compile"
    script.write_text(f"#!/bin/sh\nPYTHONPATH={checkout_pythonpath({})} exec {sys.executable} -m ascend_compile \"$@\"\n")
    script.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return work, env


@pytest.mark.parametrize("where,example", RUNNABLE, ids=[f"{w}: {e[:60]}" for w, e in RUNNABLE])
def test_example_runs(where: str, example: str, workspace: Tuple[Path, Dict[str, str]], tmp_path: Path,
                      request: pytest.FixtureRequest) -> None:
    work, env = workspace
    tools = [word for word in ("kustomize", "kpt", "jq", "yq") if re.search(rf"(^|\| ){word} ", example)]
    if "kustomize" in tools and not (work / ".bin" / "kustomize").exists():
        # the suite's own kustomize (built on first use; tests/conftest.py), not whichever is on PATH
        (work / ".bin" / "kustomize").symlink_to(request.getfixturevalue("kustomize"))
    missing = [tool for tool in tools if not shutil.which(tool, path=env["PATH"])]
    if missing:
        pytest.skip(f"{', '.join(missing)} is not installed")
    # each example in its own copy, so one that writes (init, -o DIR) cannot change what the next one reads
    here = tmp_path / "work"
    shutil.copytree(work, here, symlinks=True)
    if example.startswith("kpt ") and "-o manifests/" in example:
        shutil.rmtree(here / "manifests")  # kpt writes only into a new directory
    result = subprocess.run(["bash", "-o", "pipefail", "-c", example], cwd=here, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, f"{where}: {example}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
