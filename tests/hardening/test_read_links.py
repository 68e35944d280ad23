"""A file read from a repository is never read through a link that leads out of it.

Issue 43's round left one gap: a walk, a named file, a kustomization's folder, a ``profileDirs`` entry or the
project config still read a committed link such as ``k8s/x.yaml -> ../../outside/kubeconfig`` when it led to a
regular file, and findings, diffs and compiled output printed what it held (a runner's token and client key in
the CI log).  Each case is made here, with a repository marked by ``.git`` and without one (then the working
directory's tree is the repository).  The outside files are written so that the unchanged code prints their
secrets: the token is the object's namespace (AC704 quotes it, every ``at:`` line names the object), the
labels need a fix (``--diff`` prints the lines around it) and the spec's arguments carry it (``compile``
prints the manifest).  Now a walked link out is left out with a note (AC015, as a linked folder is) and a
named one, or a profile or config reached through one, is an input error naming the link (AC001, exit 2);
nothing of the file reaches any output format.  Links that stay inside, absolute paths named as they are and
``-`` are read as before.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import List

import pytest

from tests.hardening.helpers import CONFIGMAP, assert_clean, cli, output, spec_text, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symlinks")

TOKEN = "FAKE-TOKEN-0A1B2C3D4E5F"
CLIENT_KEY = "QVNDRU5ELVNFQ1JFVC1LRVk="
#: what a runner keeps outside the repository, as a manifest the checks would quote
KUBECONFIG = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ci-kubeconfig\n"
              f"  namespace: {TOKEN}\n  labels:\n    tier: 1.10\ndata:\n  client-key-data: {CLIENT_KEY}\n")
#: a spec kept outside: compile prints its arguments in the manifest
SPEC = spec_text("private", **{"--epochs=90": f"--token={TOKEN} --key={CLIENT_KEY}"})
LINK = os.path.join("..", "..", "outside", "kubeconfig")
FORMATS = ["text", "json", "sarif", "github"]


def _repo(tmp_path: Path, git: bool) -> Path:
    repo = tmp_path / "repo"
    if git:
        (repo / ".git").mkdir(parents=True)
    write(repo / "k8s" / "own.yaml", CONFIGMAP)
    write(tmp_path / "outside" / "kubeconfig", KUBECONFIG)
    write(tmp_path / "outside" / "job.yaml", SPEC)
    os.symlink(LINK, repo / "k8s" / "x.yaml")
    return repo


def _kept(proc) -> None:
    """Nothing of the outside files in any output, and no finding placed at a line of them."""
    text = output(proc)
    for secret in (TOKEN, CLIENT_KEY, "client-key-data", "ci-kubeconfig", "1.10"):
        assert secret not in text, f"{secret!r} printed:\n{text}"
    assert not re.search(r"(x|p|private)\.yaml:\d", text), text  # no finding at a line of an outside file


def _findings(proc, fmt: str) -> List[tuple]:
    """(rule, file) of each finding, read from the report in ``fmt`` (text: the ``[ACnnn]`` lines)."""
    if fmt == "json":
        return [(f["rule"], f["file"]) for f in json.loads(proc.stdout_text)["findings"]]
    if fmt == "sarif":
        results = json.loads(proc.stdout_text)["runs"][0]["results"]
        return [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results]
    if fmt == "github":
        return [(line.split("title=")[1].split(" ")[0], line.split("file=")[1].split(",")[0])
                for line in output(proc).splitlines() if line.startswith("::")]
    return [(line.rsplit("[", 1)[1].rstrip("]"), line.split(":")[0])
            for line in output(proc).splitlines() if line.endswith("]") and not line.startswith(" ")]


# --------------------------------------------------------------------------- walked: a note, nothing read


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["lint", "validate"])
def test_a_walked_link_out_of_the_repository_is_a_note_and_never_read(tmp_path: Path, command: str, fmt: str,
                                                                     git: bool) -> None:
    repo = _repo(tmp_path, git)
    proc = cli(command, *(["--no-cache"] if command == "lint" else []), "--format", fmt, "k8s/", cwd=repo)
    _kept(proc)
    assert_clean(proc, {0}, "k8s/x.yaml")
    assert ("AC015", "k8s/x.yaml") in _findings(proc, fmt), output(proc)
    if fmt == "text":
        assert f"is a symbolic link to {(tmp_path / 'outside' / 'kubeconfig').resolve()}, outside the repository " \
               in output(proc) and "so it was not read [AC015]" in output(proc), output(proc)
        assert "(1 file checked)" in output(proc), output(proc)  # own.yaml only


def test_a_walk_with_only_a_link_out_reads_nothing_and_says_so(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    (repo / "k8s" / "own.yaml").unlink()
    proc = cli("lint", "--no-cache", "k8s/", cwd=repo)
    _kept(proc)
    assert_clean(proc, {2}, "k8s/x.yaml", "[AC015]", "no YAML files found")
    assert "No problems found" not in output(proc)


def test_diff_and_fix_of_a_walk_never_show_or_touch_a_link_out(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    before = (tmp_path / "outside" / "kubeconfig").read_bytes()
    for mode in ("--diff", "--fix"):
        proc = cli("lint", "--no-cache", mode, "k8s/", cwd=repo)
        _kept(proc)
        assert_clean(proc, {0})
    assert (tmp_path / "outside" / "kubeconfig").read_bytes() == before


@pytest.mark.parametrize("field", ["resources", "patches"])
def test_a_kustomization_listing_a_link_out_reads_nothing_through_it(tmp_path: Path, field: str) -> None:
    repo = _repo(tmp_path, True)
    entries = "- own.yaml\n- x.yaml\n" if field == "resources" else "- path: x.yaml\n"
    write(repo / "k8s" / "kustomization.yaml", f"{field}:\n{entries}")
    walked = cli("lint", "--no-cache", "--format", "json", "k8s/", cwd=repo)
    _kept(walked)
    assert_clean(walked, {0})
    assert ("AC015", "k8s/x.yaml") in _findings(walked, "json")
    named = cli("lint", "--no-cache", "k8s/x.yaml", cwd=repo)
    _kept(named)
    assert_clean(named, {2}, "k8s/x.yaml: error: is a symbolic link to ", "[AC001]")


@pytest.mark.parametrize("git", [True, False])
def test_compile_of_a_folder_never_prints_a_spec_linked_from_outside(tmp_path: Path, git: bool) -> None:
    repo = _repo(tmp_path, git)
    write(repo / "specs" / "own.yaml", spec_text("own"))
    os.symlink(os.path.join("..", "..", "outside", "job.yaml"), repo / "specs" / "private.yaml")
    proc = cli("compile", "specs/", cwd=repo)
    _kept(proc)
    assert_clean(proc, {0}, "name: own")
    assert "private" not in proc.stdout_text  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- named: an input error at the link


@pytest.mark.parametrize("git", [True, False])
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["lint", "validate"])
def test_a_named_file_through_a_link_out_is_an_input_error_naming_the_link(tmp_path: Path, command: str,
                                                                           fmt: str, git: bool) -> None:
    repo = _repo(tmp_path, git)
    proc = cli(command, *(["--no-cache"] if command == "lint" else []), "--format", fmt, "k8s/own.yaml",
               "k8s/x.yaml", cwd=repo)
    _kept(proc)
    assert_clean(proc, {2})
    assert _findings(proc, fmt) == [("AC001", "k8s/x.yaml")], output(proc)


@pytest.mark.parametrize("spelled", ["k8s/x.yaml", "./k8s/../k8s/x.yaml", "ABSOLUTE"])
def test_a_named_link_out_is_refused_however_its_path_is_spelled(tmp_path: Path, spelled: str) -> None:
    repo = _repo(tmp_path, True)
    path = str(repo / "k8s" / "x.yaml") if spelled == "ABSOLUTE" else spelled
    proc = cli("lint", "--no-cache", path, cwd=repo)
    _kept(proc)
    assert_clean(proc, {2}, "outside the repository", "[AC001]")


def test_a_named_file_below_a_linked_folder_out_is_refused_at_the_folder(tmp_path: Path) -> None:
    """``deploy -> ../outside`` above ``deploy/kubeconfig``: the link is a folder, not the last component."""
    repo = _repo(tmp_path, True)
    os.symlink(os.path.join("..", "outside"), repo / "deploy")
    for args in (["lint", "--no-cache", "deploy/kubeconfig"], ["lint", "--no-cache", "deploy"],
                 ["validate", "deploy/"]):
        proc = cli(*args, cwd=repo)
        _kept(proc)
        assert_clean(proc, {2}, "deploy: error: is a symbolic link to ", "[AC001]")


@pytest.mark.parametrize("git", [True, False])
def test_compile_of_a_named_spec_linked_from_outside_prints_nothing_of_it(tmp_path: Path, git: bool) -> None:
    repo = _repo(tmp_path, git)
    os.symlink(os.path.join("..", "..", "outside", "job.yaml"), repo / "k8s" / "private.yaml")
    proc = cli("compile", "k8s/private.yaml", cwd=repo)
    _kept(proc)
    assert_clean(proc, {2}, "k8s/private.yaml: error: is a symbolic link to ", "[AC001]")
    assert proc.stdout_text == ""  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- settings: profiles and the config


def test_a_profile_dirs_file_linked_out_is_not_read(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    write(repo / ".ascend-compile.yaml", "profileDirs: [hw]\n")
    (repo / "hw").mkdir()
    os.symlink(os.path.join("..", "..", "outside", "kubeconfig"), repo / "hw" / "p.yaml")
    proc = cli("lint", "--no-cache", "k8s/own.yaml", cwd=repo)
    _kept(proc)
    assert_clean(proc, {2}, "hw/p.yaml: error: is a symbolic link to ", "[AC001]")


def test_a_project_config_linked_out_is_not_read(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    os.symlink(os.path.join("..", "outside", "kubeconfig"), repo / ".ascend-compile.yaml")
    proc = cli("lint", "--no-cache", "k8s/own.yaml", cwd=repo)
    _kept(proc)
    assert_clean(proc, {2}, ".ascend-compile.yaml: error: is a symbolic link to ", "[AC001]")
    assert "apiVersion" not in output(proc)  # the old code named the outside file's keys


# --------------------------------------------------------------------------- what is still read


def test_links_that_stay_inside_the_repository_are_followed_walked_and_named(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    write(repo / "base" / "cm.yaml", KUBECONFIG)  # now inside: its findings are the repository's own
    os.symlink(os.path.join("..", "base", "cm.yaml"), repo / "k8s" / "in.yaml")
    for path in ("k8s/", "k8s/in.yaml"):
        proc = cli("lint", "--no-cache", path, cwd=repo)
        assert_clean(proc, {1}, "k8s/in.yaml:5:14", TOKEN)


def test_an_absolute_path_outside_any_repository_is_read_as_named(tmp_path: Path) -> None:
    """The rule is about links, not paths: ``lint /etc/k8s/job.yaml`` from elsewhere still works."""
    repo = _repo(tmp_path, True)
    outside = write(tmp_path / "outside" / "cm.yaml", KUBECONFIG)
    for cwd in (repo, tmp_path / "outside"):
        for args in (["lint", "--no-cache", str(outside)], ["validate", str(outside.parent)]):
            proc = cli(*args, cwd=cwd)
            assert_clean(proc, {1}, TOKEN)


def test_standard_input_is_read_as_before(tmp_path: Path) -> None:
    repo = _repo(tmp_path, True)
    proc = cli("lint", "--no-cache", "-", cwd=repo, input=KUBECONFIG.encode())
    assert_clean(proc, {1}, TOKEN)
