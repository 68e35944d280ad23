"""What a repository can do to file discovery (issue 31, S2 and S3).

S2: a walk followed a committed link to a folder, so ``lint --fix manifests/`` rewrote ``outside/cm.yaml``
through ``manifests/ext -> ../../outside``.  A walk now leaves a linked folder out with a note (AC015).

S3: discovery asked every kustomization from a named file's folder up to ``/`` which files are patches,
resolved ``../`` and absolute paths, and left those files out with an info note and exit 0: a kustomization
in a parent folder, or in ``docs/`` listing ``../manifests/evil.yaml``, made a file with two errors pass.  Now
only kustomizations inside the repository are asked, a kustomization leaves out only files in or below its
own folder (as kustomize reads no other), and a file left out is NOT CHECKED: a warning (AC014) that fails
under ``--fail-on warning`` and a clause of the summary.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.hardening.helpers import assert_clean, cli, output, write

#: two errors: an unknown field, and a number where Kubernetes wants a string
EVIL = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: evil\n  bogus: 1\ndata:\n  a: 1\n"
PATCH = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  b: '2'\n"


def _repo(root: Path) -> Path:
    write(root / ".git" / "HEAD", "ref: refs/heads/main\n")
    write(root / "manifests" / "evil.yaml", EVIL)
    return root


def _rules(proc) -> list:
    return sorted((os.path.basename(f["file"]), f["rule"]) for f in json.loads(proc.stdout_text)["findings"])


def test_a_walk_does_not_follow_a_linked_folder_and_fix_leaves_the_outside_alone(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside" / "cm.yaml", EVIL)
    repo = _repo(tmp_path / "work" / "repo")
    (repo / "manifests" / "evil.yaml").unlink()
    write(repo / "manifests" / "ok.yaml", PATCH)
    os.symlink(os.path.join("..", "..", "..", "outside"), repo / "manifests" / "ext")
    assert (repo / "manifests" / "ext" / "cm.yaml").read_text() == EVIL  # the link leads there
    before = outside.read_bytes()
    proc = cli("lint", "--no-cache", "--fix", "manifests", cwd=repo)
    assert_clean(proc, (0,), "manifests/ext", "[AC015]", "symlink to a folder")
    assert outside.read_bytes() == before
    checked = cli("lint", "--no-cache", "--format", "json", "manifests", cwd=repo)
    assert_clean(checked, (0,))
    assert _rules(checked) == [("ext", "AC015")]
    # named through the link, it is not read either: the link leads out of the repository (issue 43: CI names
    # manifests/, the pull request makes it a link); named as it is, the outside folder is read
    through = cli("lint", "--no-cache", "manifests/ext", cwd=repo)
    assert_clean(through, (2,), "manifests/ext", "outside the repository", "[AC001]")
    assert "bogus" not in output(through)
    named = cli("lint", "--no-cache", str(tmp_path / "outside"), cwd=repo)
    assert_clean(named, (1,), "bogus")


def test_a_kustomization_above_the_repository_hides_nothing(tmp_path: Path) -> None:
    write(tmp_path / "kustomization.yaml", "patches:\n- path: repo/manifests/evil.yaml\n")
    repo = _repo(tmp_path / "repo")
    for command in ("lint", "validate"):
        for args in (["manifests/evil.yaml"], ["manifests"], ["."]):
            proc = cli(command, *(["--no-cache"] if command == "lint" else []), *args, cwd=repo)
            assert_clean(proc, (1,), "evil.yaml", "bogus")
            assert "AC014" not in output(proc), (command, args)


def test_a_kustomization_in_docs_naming_a_file_outside_its_folder_hides_nothing(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo / "docs" / "kustomization.yaml",
          "patches:\n- path: ../manifests/evil.yaml\n- path: %s\n" % (repo / "manifests" / "evil.yaml"))
    for command in ("lint", "validate"):
        for args in (["manifests/evil.yaml"], ["manifests"], ["."], ["docs", "manifests"]):
            proc = cli(command, *(["--no-cache"] if command == "lint" else []), *args, cwd=repo)
            assert_clean(proc, (1,), "evil.yaml", "bogus")
            assert "AC014" not in output(proc) and "AC008" not in output(proc), (command, args)


def test_a_file_left_out_by_a_kustomization_is_reported_not_checked(tmp_path: Path) -> None:
    """The part is left out still (a patch is no whole object), but the run says so: a warning, a summary clause,
    and --fail-on warning fails."""
    repo = _repo(tmp_path)
    write(repo / "manifests" / "kustomization.yaml", "resources: [ok.yaml]\npatches:\n- path: evil.yaml\n")
    write(repo / "manifests" / "ok.yaml", PATCH)
    for args in (["manifests/evil.yaml"], ["manifests"]):
        proc = cli("lint", "--no-cache", *args, cwd=repo, env={"NO_COLOR": "1"})
        assert_clean(proc, (0,), "manifests/evil.yaml: warning: was NOT CHECKED", "[AC014]",
                     "1 file NOT CHECKED: a kustomization merges it into objects (AC014).")
        strict = cli("lint", "--no-cache", "--fail-on", "warning", *args, cwd=repo)
        assert_clean(strict, (1,), "AC014")
        as_json = cli("validate", "--format", "json", *args, cwd=repo)
        assert_clean(as_json, (0,))
        assert json.loads(as_json.stdout_text)["summary"]["filesNotChecked"] == 1
