"""Paths named on the command line are never resolved through a link that leads out of their repository.

Issue 43, S1: ``compile specs/ -o manifests --check`` (the ``ascend-compile-check`` hook) followed a committed
``manifests -> ../<somewhere>``, or a link at any folder above the output folder, read the outside
``<job>.yaml`` and printed it whole as the diff (a runner's kubeconfig in the CI log), in text and JSON.
S2: every writer followed a link at the folder it was given: ``lint --fix k8s/`` (``k8s -> ../outside``),
``compile -o manifests/``, ``schema --write schemas/`` and ``--write-baseline ci/baseline.json`` wrote outside.
Each attack is made here, with a repository marked by ``.git`` and without one (then the working directory's
tree is the repository), and shown refused with AC013 naming the link, exit 2, the outside untouched byte for
byte and mtime, and its text never printed.  A link that stays inside, or one above the repository, is followed.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import List

import pytest

from tests.hardening.helpers import ROOT, assert_clean, cli, output, snapshot, spec_text, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symlinks")

#: what a runner keeps outside the repository: the attack printed it into the CI log
SECRET = "client-key-data: QVNDRU5ELVNFQ1JFVC1LRVk="
KUBECONFIG = f"apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    {SECRET}\n"
JOB = "k3s"  # the spec's job name: compile -o writes (and --check reads) k3s.yaml
FIXABLE = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  labels:\n    tier: 1.10\ndata:\n  a: b\n"
OLD_BASELINE = '{"ascendCompileBaseline": 3, "findings": []}\n'


def _repo(tmp_path: Path, git: bool) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir(parents=True)
    if git:
        (repo / ".git").mkdir()
    write(repo / "specs" / f"{JOB}.yaml", spec_text(JOB))
    return repo


def _refused_at_link(proc, link: str) -> None:
    """Exit 2, AC013 located at the link (its path as given), saying it leads outside the repository."""
    assert_clean(proc, {2}, "AC013")
    text = output(proc)
    assert f"{link}: error: is a symbolic link to " in text or f'"file": "{link}"' in text, text
    assert "outside the repository" in text, text


def _secret_kept(proc) -> None:
    assert SECRET not in output(proc) and "client-key-data" not in output(proc), output(proc)


# --------------------------------------------------------------------------- S1: --check reads nothing outside


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_through_a_linked_output_folder_never_prints_the_outside_file(tmp_path: Path, git: bool,
                                                                           fmt: str) -> None:
    repo = _repo(tmp_path, git)
    write(tmp_path / "outside" / f"{JOB}.yaml", KUBECONFIG)
    os.symlink(os.path.join("..", "outside"), repo / "manifests")
    proc = cli("compile", "specs/", "-o", "manifests", "--check", "--format", fmt, cwd=repo)
    _refused_at_link(proc, "manifests")
    _secret_kept(proc)
    if fmt == "json":
        document = json.loads(proc.stdout_text)  # type: ignore[attr-defined]  # no diff: the refusal is the report
        assert [(f["rule"], f["file"]) for f in document["findings"]] == [("AC013", "manifests")]


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_through_a_link_at_a_folder_above_the_output_folder_never_prints_it(tmp_path: Path, git: bool,
                                                                                 fmt: str) -> None:
    """``deploy -> ../outside`` above ``deploy/manifests``: O_NOFOLLOW on the last component does not see it."""
    repo = _repo(tmp_path, git)
    write(tmp_path / "outside" / "manifests" / f"{JOB}.yaml", KUBECONFIG)
    os.symlink(os.path.join("..", "outside"), repo / "deploy")
    proc = cli("compile", "specs/", "-o", "deploy/manifests", "--check", "--format", fmt, cwd=repo)
    _refused_at_link(proc, "deploy")
    _secret_kept(proc)


def test_check_through_a_link_spelled_with_dot_dot_is_refused_too(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    write(tmp_path / "outside" / f"{JOB}.yaml", KUBECONFIG)
    (tmp_path / "outside" / "sub").mkdir()
    os.symlink(os.path.join("..", "outside", "sub"), repo / "up")
    proc = cli("compile", "specs/", "-o", "up/..", "--check", cwd=repo)  # the kernel goes up from the target
    _refused_at_link(proc, "up")
    _secret_kept(proc)


def test_check_through_a_link_that_stays_inside_the_repository_works(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    assert_clean(cli("compile", "specs/", "-o", "generated/manifests", cwd=repo), {0})
    os.symlink(os.path.join("generated", "manifests"), repo / "manifests")
    assert_clean(cli("compile", "specs/", "-o", "manifests", "--check", cwd=repo), {0})
    (repo / "generated" / "manifests" / f"{JOB}.yaml").write_text("stale\n")
    proc = cli("compile", "specs/", "-o", "manifests", "--check", cwd=repo)
    assert_clean(proc, {1}, "stale")


def test_a_link_above_the_repository_is_the_machines_and_is_followed(tmp_path: Path) -> None:
    """``/tmp -> /private/tmp`` on macOS: a link in no repository (and not in the working tree) is followed."""
    real = tmp_path / "real"
    repo = _repo(real, True)
    os.symlink("real", tmp_path / "alias")
    out = tmp_path / "alias" / "repo" / "manifests"
    assert_clean(cli("compile", "specs/", "-o", str(out), cwd=repo), {0})
    assert (repo / "manifests" / f"{JOB}.yaml").is_file()
    assert_clean(cli("compile", "specs/", "-o", str(out), "--check", cwd=repo), {0})


# --------------------------------------------------------------------------- S2: nothing outside is written


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    write(outside / f"{JOB}.yaml", KUBECONFIG)
    write(outside / "cm.yaml", FIXABLE)
    write(outside / "baseline.json", OLD_BASELINE)
    write(outside / "trainingjob-v1alpha1.json", "{}\n")
    write(outside / "jobs" / "keep.txt", "mine\n")
    return outside


#: name: (the link made in the repository, pointing at ../outside, the command run in the repository)
WRITERS = {
    "compile -o": ("manifests", ["compile", "specs/", "-o", "manifests/"]),
    "compile -o below a link": ("deploy", ["compile", "specs/", "-o", "deploy/new/manifests"]),
    "lint --fix": ("k8s", ["lint", "--no-cache", "--fix", "k8s/"]),
    "lint --diff": ("k8s", ["lint", "--no-cache", "--diff", "k8s/"]),
    "schema --write": ("schemas", ["schema", "--write", "schemas/"]),
    "lint --write-baseline": ("ci", ["lint", "--no-cache", "own.yaml", "--write-baseline", "ci/baseline.json"]),
    "lint --baseline": ("ci", ["lint", "--no-cache", "own.yaml", "--baseline", "ci/baseline.json"]),
    "import -o": ("specs-out", ["import", str(ROOT / "golden" / "matrix" / "pytorch-module-910b-8-acjob.yaml"),
                                "-o", "specs-out/new"]),
}


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_no_writer_changes_anything_outside_through_a_linked_folder(tmp_path: Path, writer: str, git: bool) -> None:
    repo = _repo(tmp_path, git)
    write(repo / "own.yaml", FIXABLE)
    outside = _outside(tmp_path)
    link, argv = WRITERS[writer]
    os.symlink(os.path.join("..", "outside"), repo / link)
    before = snapshot(outside)
    proc = cli(*argv, cwd=repo)
    _refused_at_link(proc, link)
    _secret_kept(proc)
    assert "1.10" not in proc.stdout_text, "--diff printed the outside file"  # type: ignore[attr-defined]
    assert snapshot(outside) == before, "a file outside the repository was created, changed or touched"
    assert os.path.islink(repo / link)


def test_init_never_makes_a_folder_through_a_link_out_of_the_repository(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    outside = _outside(tmp_path)
    os.symlink(os.path.join("..", "outside"), repo / "jobs")
    before = snapshot(outside)
    proc = cli("init", "jobs/team/new.yaml", "--name", "new", cwd=repo)
    assert_clean(proc, {2}, "jobs", "outside the repository")
    assert snapshot(outside) == before


def test_fix_of_a_folder_linked_inside_the_repository_still_fixes(tmp_path: Path) -> None:
    """The rule is about where a link leads: ``k8s -> manifests`` inside the repository is followed."""
    repo = _repo(tmp_path, True)
    fixed = write(repo / "manifests" / "cm.yaml", FIXABLE)
    os.symlink("manifests", repo / "k8s")
    assert_clean(cli("lint", "--no-cache", "--fix", "k8s/", cwd=repo), {0, 1})
    assert 'tier: "1.10"' in fixed.read_text()


def test_the_located_error_names_the_link_and_where_it_leads(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    _outside(tmp_path)
    os.symlink(os.path.join("..", "outside"), repo / "manifests")
    proc = cli("compile", "specs/", "-o", "manifests", cwd=repo)
    lines: List[str] = [line for line in output(proc).splitlines() if "AC013" in line]
    assert lines == [f"manifests: error: is a symbolic link to {(tmp_path / 'outside').resolve()}, outside the "
                     f"repository {repo.resolve()}: manifests reaches through it, so nothing there is read or "
                     "written [AC013]"], output(proc)
    assert "hint: replace the link" in output(proc)
