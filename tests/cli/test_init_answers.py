"""Interactive ``init`` checks each answer when it is given and asks again with the reason."""
from __future__ import annotations

from pathlib import Path
from typing import List

import pytest
import yaml
from click.testing import CliRunner, Result


def answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answers: List[str], *args: str) -> Result:
    """Run init on a fake terminal that types the answers, one a line."""
    from ascend_compile.cli import _group, init

    monkeypatch.setattr(init, "_interactive", lambda: True)
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(_group.cli, ["init", *args], input="\n".join(answers) + "\n")


def test_a_bad_npu_count_is_asked_again_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = answer(tmp_path, monkeypatch, ["bert", "pytorch", "module-910b-8", "13", "16", "reg.example.com/pt:2.1", "AscendJob"])
    assert result.exit_code == 0, result.output
    assert "13 NPUs cannot be placed on module-910b-8" in result.output
    assert result.output.count("Total NPUs") == 2  # asked again, right after the bad answer
    assert result.output.index("cannot be placed") < result.output.index("Image")
    assert yaml.safe_load((tmp_path / "bert.yaml").read_text())["spec"]["npus"] == 16


def test_a_non_number_of_npus_is_asked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = answer(tmp_path, monkeypatch, ["bert", "pytorch", "module-910b-8", "eight", "8", "img:1", "AscendJob"])
    assert result.exit_code == 0, result.output
    assert "'eight' is not a whole number of NPUs" in result.output
    assert yaml.safe_load((tmp_path / "bert.yaml").read_text())["spec"]["npus"] == 8


def test_an_unknown_profile_is_asked_again_with_the_nearest(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    result = answer(tmp_path, monkeypatch, ["bert", "pytorch", "module-910b-9", "card-910b-2", "2", "img:1", "AscendJob"])
    assert result.exit_code == 0, result.output
    assert "Did you mean 'module-910b-8'?" in result.output
    assert result.output.count("Profile") >= 2
    assert yaml.safe_load((tmp_path / "bert.yaml").read_text())["spec"]["profile"] == "card-910b-2"


def test_a_bad_name_is_asked_again_with_the_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = answer(tmp_path, monkeypatch, ["Bad_Name", "good-name", "pytorch", "module-910b-8", "8", "img:1", "AscendJob"])
    assert result.exit_code == 0, result.output
    assert "use lowercase letters, digits and '-'" in result.output
    assert (tmp_path / "good-name.yaml").is_file()


def test_a_bad_npus_flag_fails_before_the_remaining_questions(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    result = answer(tmp_path, monkeypatch, ["bert", "pytorch", "module-910b-8", "img:1"], "--npus", "13")
    assert result.exit_code == 2
    assert "invalid --npus 13: 13 NPUs cannot be placed on module-910b-8" in result.output
    assert "Image" not in result.output
    assert list(tmp_path.iterdir()) == []
