"""What the reader must refuse or bound (issue 31, low items).

* A key of more than 1024 characters: PyYAML, libyaml and go-yaml refuse it; the line reader accepted it.
* A 16 MB flat list took 34 s and 2.5 GB: a finding about its root composed a node for each of its 4 million
  items to say the list starts on line 1.  Now under an address-space cap.
* A secret-looking name's value is never echoed: GITHUB_PAT, PAT and HF_HUB_KEY's values were, in AC102.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.hardening.helpers import assert_clean, cli, output, write


@pytest.mark.parametrize("length", [1025, 1100, 5000])
def test_a_key_over_1024_characters_is_a_syntax_error_as_in_every_yaml_library(tmp_path: Path, length: int) -> None:
    import yaml

    key = "k" * length
    text = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  {key}: v\n"
    with pytest.raises(yaml.YAMLError):
        yaml.load(text, Loader=yaml.CSafeLoader)
    path = write(tmp_path / "cm.yaml", text)
    for command in ("lint", "validate"):
        assert_clean(cli(command, str(path)), (2,), "cm.yaml:6", "[AC003]")


def test_a_key_of_1000_characters_is_still_read(tmp_path: Path) -> None:
    path = write(tmp_path / "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  "
                 + "k" * 1000 + ": v\n")
    assert_clean(cli("validate", str(path)), (0,))


def test_a_16_mb_flat_list_is_answered_in_bounded_memory(tmp_path: Path) -> None:
    path = write(tmp_path / "flat.yaml", "- a\n" * 4_000_000)
    start = time.monotonic()
    proc = cli("lint", "--no-cache", str(path), memory=1024 ** 3, timeout=120)
    assert_clean(proc, (1,), "flat.yaml:1:1", "the document is a list, not a Kubernetes object")
    assert time.monotonic() - start < 120


@pytest.mark.parametrize("name", ["GITHUB_PAT", "PAT", "HF_HUB_KEY", "gitlab-pat", "DB_PASSWORD"])
def test_a_secret_looking_key_never_has_its_value_echoed(tmp_path: Path, name: str) -> None:
    path = write(tmp_path / "cm.yaml", f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  {name}: 31337424242\n")
    for command in ("lint", "validate"):
        proc = cli(command, "--no-cache" if command == "lint" else "--quiet", str(path))
        assert_clean(proc, (1,), "[AC102]", "the value is not shown")
        assert "31337424242" not in output(proc), output(proc)
