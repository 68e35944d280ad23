"""A folder walk takes a file with no Kubernetes object for another tool's YAML: one note (AC009), not AC107
errors; a named file, a file with an object in it, a manifest that lost its header and a list of manifests keep
the errors."""
from __future__ import annotations

import json

import pytest

from tests.checkout import run_cli, write_tree

FILES = {
    "docker-compose.yml": 'version: "3"\nservices:\n  web: {image: nginx}\n',
    "deploy/site.yml": "- hosts: all\n  tasks: []\n",  # an Ansible playbook: a list
    "k8s/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
    "k8s/stray.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\n- oops\n",
    "k8s/headless.yaml": "metadata: {name: x}\nspec: {}\n",
    "k8s/list.yaml": "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n",  # kubectl refuses a bare list
}


def _findings(*args: str, cwd) -> list:
    result = run_cli(*args, "--format", "json", cwd=cwd, env={"NO_COLOR": "1"})
    assert result.returncode in (0, 1), result.stderr
    return sorted((f["file"], f["rule"], f["severity"]) for f in json.loads(result.stdout)["findings"])


@pytest.mark.parametrize("command", [("lint", "--no-cache"), ("validate",)])
def test_a_walk_notes_other_tools_yaml_and_keeps_errors_in_manifests(tmp_path, command):
    write_tree(tmp_path, FILES)
    assert _findings(*command, ".", cwd=tmp_path) == [
        ("./deploy/site.yml", "AC009", "info"), ("./docker-compose.yml", "AC009", "info"),
        ("./k8s/headless.yaml", "AC107", "error"), ("./k8s/list.yaml", "AC107", "error"),
        ("./k8s/stray.yaml", "AC107", "error")]


@pytest.mark.parametrize("command", [("lint", "--no-cache"), ("validate",)])
def test_a_named_file_is_checked_as_a_manifest(tmp_path, command):
    write_tree(tmp_path, FILES)
    assert _findings(*command, "docker-compose.yml", cwd=tmp_path) == [("docker-compose.yml", "AC107", "error")]


@pytest.mark.parametrize("command", [("lint", "--no-cache"), ("validate",)])
def test_a_file_named_after_a_walk_that_found_it_is_still_named(tmp_path, command):
    write_tree(tmp_path, {"docker-compose.yml": FILES["docker-compose.yml"]})
    for args in ((".", "docker-compose.yml"), ("docker-compose.yml", ".")):
        assert [rule for _, rule, _ in _findings(*command, *args, cwd=tmp_path)] == ["AC107"], args


def test_the_cache_keeps_what_the_file_says_whichever_way_it_was_found(tmp_path):
    write_tree(tmp_path, FILES)
    env = {"ASCEND_COMPILE_CACHE_DIR": str(tmp_path / "cache")}
    walked = run_cli("lint", "--format", "json", ".", cwd=tmp_path, env=env)
    assert any((tmp_path / "cache").rglob("*")), "the result cache was not written"
    named = run_cli("lint", "--format", "json", "docker-compose.yml", cwd=tmp_path, env=env)
    again = run_cli("lint", "--format", "json", ".", cwd=tmp_path, env=env)
    assert [f["rule"] for f in json.loads(named.stdout)["findings"]] == ["AC107"]
    assert json.loads(again.stdout)["findings"] == json.loads(walked.stdout)["findings"]
