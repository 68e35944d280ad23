"""``ascend-compile schema``: the spec schema for editors, and the ``$schema`` that ``init`` writes resolves."""
from __future__ import annotations

from pathlib import Path

from ascend_compile.cli.commands import version
from ascend_compile.cli.schema import REPOSITORY, released_url
from tests.checkout import ROOT, run_cli

SPEC_SCHEMA = ROOT / "schemas" / "trainingjob-v1alpha1.json"
PROFILE_SCHEMA = ROOT / "schemas" / "profile-v1alpha1.json"


def schema_line(spec: Path) -> str:
    first = spec.read_text().splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix), first
    return first[len(prefix):]


def test_schema_prints_the_spec_schema_and_the_profile_schema() -> None:
    assert run_cli("schema", text=False).stdout == SPEC_SCHEMA.read_bytes()
    assert run_cli("schema", "--profile", text=False).stdout == PROFILE_SCHEMA.read_bytes()


def test_write_puts_both_schemas_in_a_folder_and_init_points_at_it(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # the repository root: the search for a local copy stops here
    result = run_cli("schema", "--write", "schemas", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "schemas" / "trainingjob-v1alpha1.json").read_bytes() == SPEC_SCHEMA.read_bytes()
    assert (tmp_path / "schemas" / "profile-v1alpha1.json").read_bytes() == PROFILE_SCHEMA.read_bytes()
    assert run_cli("init", "jobs/team/new.yaml", "--name", "new", cwd=tmp_path).returncode == 0
    ref = schema_line(tmp_path / "jobs" / "team" / "new.yaml")
    assert ref == "../../schemas/trainingjob-v1alpha1.json"
    assert ((tmp_path / "jobs" / "team") / ref).resolve().read_bytes() == SPEC_SCHEMA.read_bytes()


def test_write_names_the_first_line_of_a_spec_beside_the_folder(tmp_path: Path) -> None:
    result = run_cli("schema", "--write", "schemas/", cwd=tmp_path)  # as README.md writes it
    assert result.returncode == 0, result.stderr
    assert ("first line of a spec in schemas/..: # yaml-language-server: "
            "$schema=schemas/trainingjob-v1alpha1.json") in result.stderr, result.stderr


def test_init_without_a_local_copy_points_at_this_release_in_the_repository(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "trainingjob-v1alpha1.json").write_text("{}")  # an old copy is not used
    assert run_cli("init", "job.yaml", cwd=tmp_path).returncode == 0
    ref = schema_line(tmp_path / "job.yaml")
    assert ref == released_url() == (f"https://raw.githubusercontent.com/{REPOSITORY.split('github.com/')[1]}"
                                     f"/v{version()}/schemas/trainingjob-v1alpha1.json")


def test_write_into_a_file_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("x")
    result = run_cli("schema", "--write", str(tmp_path / "taken" / "sub"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{tmp_path / 'taken' / 'sub'}: error: cannot create the folder" in result.stderr, result.stderr
