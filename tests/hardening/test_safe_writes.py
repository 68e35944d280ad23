"""Every file ascend-compile writes: never through a link, never outside what it was asked to change.

Issue 31, S1: ``lint --fix`` wrote ``<file>.ascend-compile-fix<pid>``, ``lint --write-baseline F`` wrote
``F.tmp<pid>`` and ``schema --write DIR`` wrote ``DIR/<name>.json.tmp`` with a plain ``open``; a pull request
committing symlinks under those names had any file the runner can write overwritten (and, for ``--fix``, made
executable when the manifest was).  S2: ``lint --fix DIR`` rewrote a file outside the repository through a
committed directory link, and ``--fix`` on a linked file replaced the link with a regular file.  M3:
``import -o DIR`` wrote through a dangling link in DIR, and ``--force`` overwrote link targets.  Low: ``--fix``
spliced offsets planned on one text into a file re-read later (a concurrent edit gave a broken file), and left
its temporary file behind on error.  Here each attack is made and shown refused or harmless.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import List

import pytest

from tests.hardening.helpers import ROOT, assert_clean, cli, output, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symlinks and file modes")

#: a ConfigMap with one finding --fix fixes (a label value that reads as a number: quoted), starting like a
#: shell script, executable: what the S1 attack copied onto the planted target
FIXABLE = "#!/bin/sh\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  labels:\n    tier: 1.10\ndata:\n  a: b\n"
FIXED = FIXABLE.replace("tier: 1.10", 'tier: "1.10"')
VICTIM = "# the runner's own file\n"
JOB_MANIFEST = ROOT / "golden" / "matrix" / "pytorch-module-910b-8-acjob.yaml"
IMPORTED = "pytorch-module-910b-8-acjob.yaml"  # the spec import -o writes for it


def victim(tmp_path: Path) -> Path:
    path = write(tmp_path / "outside" / "victim", VICTIM)
    path.chmod(0o644)
    return path


def untouched(path: Path) -> bool:
    return path.read_text() == VICTIM and stat.S_IMODE(path.stat().st_mode) == 0o644


def leftovers(folder: Path) -> List[str]:
    return [name for name in os.listdir(folder) if name.startswith(".ascend-compile-")]


def main_exit(argv: List[str], capsys) -> tuple:
    """The CLI in this process: its pid is ours, so the old predictable temporary names are known."""
    from ascend_compile.cli import main

    with pytest.raises(SystemExit) as caught:
        main(argv)
    captured = capsys.readouterr()
    return caught.value.code, captured.out + captured.err


# --------------------------------------------------------------------------- S1: links at the temporary names


def test_fix_never_writes_through_a_link_planted_at_its_old_temporary_name(tmp_path: Path, capsys) -> None:
    target = victim(tmp_path)
    repo = tmp_path / "repo"
    manifest = write(repo / "cm.yaml", FIXABLE)
    manifest.chmod(0o755)
    os.symlink(target, repo / f"cm.yaml.ascend-compile-fix{os.getpid()}")
    code, text = main_exit(["lint", "--no-cache", "--fix", str(manifest)], capsys)
    assert code == 0, text
    assert untouched(target), "the planted link's target was written (or made executable)"
    assert manifest.read_text() == FIXED and stat.S_IMODE(manifest.stat().st_mode) == 0o755
    assert leftovers(repo) == []


def test_write_baseline_never_writes_through_a_link_planted_at_its_old_temporary_name(tmp_path: Path,
                                                                                      capsys) -> None:
    target = victim(tmp_path)
    repo = tmp_path / "repo"
    manifest = write(repo / "cm.yaml", FIXABLE)
    os.symlink(target, repo / f"baseline.json.tmp{os.getpid()}")
    code, text = main_exit(["lint", "--no-cache", str(manifest), "--write-baseline", str(repo / "baseline.json")],
                           capsys)
    assert code == 0, text
    assert untouched(target)
    assert '"ascendCompileBaseline"' in (repo / "baseline.json").read_text()
    assert leftovers(repo) == []


def test_schema_write_never_writes_through_a_link_planted_at_its_old_temporary_name(tmp_path: Path) -> None:
    target = victim(tmp_path)
    schemas = tmp_path / "repo" / "schemas"
    schemas.mkdir(parents=True)
    os.symlink(target, schemas / "trainingjob-v1alpha1.json.tmp")
    os.symlink(target, schemas / "profile-v1alpha1.json.tmp")
    assert_clean(cli("schema", "--write", "schemas", cwd=tmp_path / "repo"), {0})
    assert untouched(target)
    assert (schemas / "trainingjob-v1alpha1.json").read_bytes() == (ROOT / "schemas" / "trainingjob-v1alpha1.json").read_bytes()
    assert leftovers(schemas) == []


# --------------------------------------------------------------------------- a link where the file goes


def _planted(tmp_path: Path, link: Path, dangling: bool) -> Path:
    target = victim(tmp_path)
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(tmp_path / "outside" / "made-by-the-run" if dangling else target, link)
    return target


WRITERS = {
    # name: (the link's path in the repo, the command line, run in the repo)
    "lint --fix": ("cm.yaml", ["lint", "--no-cache", "--fix", "cm.yaml"]),
    "lint --write-baseline": ("baseline.json", ["lint", "--no-cache", "real.yaml", "--write-baseline", "baseline.json"]),
    "schema --write": ("schemas/trainingjob-v1alpha1.json", ["schema", "--write", "schemas"]),
    "import -o": (f"specs/{IMPORTED}", ["import", str(JOB_MANIFEST), "-o", "specs"]),
    "import -o --force": (f"specs/{IMPORTED}", ["import", str(JOB_MANIFEST), "-o", "specs", "--force"]),
    "init --force": ("jobs/new.yaml", ["init", "jobs/new.yaml", "--force"]),
    "compile -o": ("out/resnet50-pytorch.yaml", ["compile", "spec.yaml", "-o", "out"]),
}


@pytest.mark.parametrize("writer, dangling", [(writer, dangling) for writer in sorted(WRITERS) for dangling in (False, True)
                                              if not (dangling and writer == "lint --fix")])  # lint needs a file
def test_every_writer_refuses_a_link_where_its_file_goes(tmp_path: Path, writer: str, dangling: bool) -> None:
    link_name, argv = WRITERS[writer]
    repo = tmp_path / "repo"
    write(repo / "real.yaml", FIXABLE)
    write(repo / "spec.yaml", (ROOT / "examples" / "pytorch-module-910b-8.yaml").read_text())
    if writer == "lint --fix":
        target = victim(tmp_path)
        target.write_text(FIXABLE)  # the link's target is a manifest with a fix to make
        os.symlink(target, repo / link_name)
    else:
        target = _planted(tmp_path, repo / link_name, dangling)
    proc = cli(*argv, cwd=repo)
    text = output(proc)
    assert proc.returncode in ((1, 2) if writer == "import -o" else (2,)), text  # import -o: "exists"
    assert "Traceback" not in text
    if writer != "import -o" or "already exist" not in text:
        assert "symbolic link" in text and link_name.rsplit("/", 1)[-1] in text, text
    assert os.path.islink(repo / link_name), "the link was replaced"
    assert not (tmp_path / "outside" / "made-by-the-run").exists(), "the dangling link's target was created"
    if writer == "lint --fix":
        assert target.read_text() == FIXABLE, "the link's target was fixed"
    else:
        assert untouched(target)
    assert leftovers((repo / link_name).parent) == []


# --------------------------------------------------------------------------- S2: --fix stays inside its paths


def test_fix_of_a_folder_never_writes_through_a_committed_directory_link(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside" / "cm.yaml", FIXABLE)
    manifests = tmp_path / "repo" / "manifests"
    write(manifests / "own.yaml", FIXABLE)
    os.symlink(os.path.join("..", "..", "outside"), manifests / "ext")
    proc = cli("lint", "--no-cache", "--fix", "manifests", cwd=tmp_path / "repo")
    assert "Traceback" not in output(proc)
    assert outside.read_text() == FIXABLE, "a file outside the paths given was rewritten"
    assert (manifests / "ext").is_symlink()


def test_fix_refuses_a_planned_file_outside_the_paths_it_was_given(tmp_path: Path) -> None:
    """The write's own guard, whatever the walk gave it (a link it followed, a path it resolved)."""
    from ascend_compile import lint_manifests
    from ascend_compile.cli import _fixing
    from ascend_compile.errors import InputError

    outside = write(tmp_path / "outside" / "cm.yaml", FIXABLE)
    manifests = tmp_path / "repo" / "manifests"
    own = write(manifests / "own.yaml", FIXABLE)
    os.symlink(os.path.join("..", "..", "outside"), manifests / "ext")
    through = str(manifests / "ext" / "cm.yaml")
    plan = _fixing.fixes(lint_manifests([str(own), through]))
    assert sorted(plan) == sorted([str(own), through])
    with pytest.raises(InputError) as caught:
        _fixing.write(plan, [str(manifests)])
    finding = caught.value.findings[0]
    assert finding.file == through and "outside the paths given" in finding.message and finding.hint
    assert outside.read_text() == FIXABLE and own.read_text() == FIXABLE, "all or none: nothing was written"


def test_fix_of_a_linked_file_refuses_and_keeps_the_link(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    real = write(repo / "real.yaml", FIXABLE)
    os.symlink("real.yaml", repo / "link.yaml")
    proc = cli("lint", "--no-cache", "--fix", "link.yaml", cwd=repo)
    assert_clean(proc, {2}, "link.yaml", "symbolic link", "AC013", "hint:")
    assert (repo / "link.yaml").is_symlink() and os.readlink(repo / "link.yaml") == "real.yaml"
    assert real.read_text() == FIXABLE


# --------------------------------------------------------------------------- low: a file edited since planning


def test_fix_refuses_a_file_changed_since_its_fixes_were_planned(tmp_path: Path) -> None:
    from ascend_compile import lint_manifests
    from ascend_compile.cli import _fixing
    from ascend_compile.errors import InputError

    path = write(tmp_path / "cm.yaml", FIXABLE)
    plan = _fixing.fixes(lint_manifests([str(path)]))
    assert plan, "nothing to fix: the test's manifest is wrong"
    edited = "# a comment someone added meanwhile\n" + FIXABLE
    path.write_text(edited)  # the planned offsets now point one line off
    with pytest.raises(InputError) as caught:
        _fixing.write(plan, [str(tmp_path)])
    assert "changed since it was linted" in caught.value.findings[0].message
    assert path.read_text() == edited and leftovers(tmp_path) == []


def test_no_temporary_file_is_left_behind_when_a_write_fails(tmp_path: Path, monkeypatch) -> None:
    from ascend_compile.errors import InputError
    from ascend_compile.safeio import write

    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text("old a\n")
    second.write_text("old b\n")
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        raise OSError(28, "No space left on device", str(dst))

    monkeypatch.setattr(write.os, "replace", failing_replace)
    with pytest.raises(InputError) as caught:
        write.write_files([(str(first), "new a\n"), (str(second), "new b\n")])
    assert calls and "No space left on device" in caught.value.findings[0].message
    assert first.read_text() == "old a\n" and second.read_text() == "old b\n"
    assert leftovers(tmp_path) == []
    monkeypatch.undo()
    (tmp_path / "c.yaml").mkdir()  # the second target cannot be written: the first one's staging goes too
    with pytest.raises(InputError, match="is a directory"):
        write.write_files([(str(first), "new a\n"), (str(tmp_path / "c.yaml"), "x\n")])
    assert first.read_text() == "old a\n" and leftovers(tmp_path) == []
