"""AC801 names the kind of credential a value looks like, in words a reader knows."""
from __future__ import annotations

import pytest

from ascend_compile.lint.oneshot import lint_objects

VALUES = {
    "a private key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn...\n",
    "an AWS access key ID": "AKIAEXAMPLEEXAMPLE12",
    "a GitHub token": "ghp_" + "a1" * 18,
    "a Hugging Face token": "hf_" + "abc123" * 6,
    "a URL with a password": "https://user:pa55word@registry.example.com/v2",
}


@pytest.mark.parametrize("what", sorted(VALUES))
def test_a_config_map_value_in_a_known_secret_format_is_named_by_its_format(what: str) -> None:
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"},
          "data": {"endpoint": VALUES[what]}}
    messages = [f.message for f in lint_objects([cm]) if f.rule == "AC801"]
    assert messages == [f"ConfigMap entry 'endpoint' looks like a credential ({what}); ConfigMaps are not secret"]
