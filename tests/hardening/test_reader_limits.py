"""What the reader must refuse or bound (issue 31, low items).

* A key of more than 1024 characters: PyYAML, libyaml and go-yaml refuse it; the line reader accepted it.
* A 16 MB flat list took 34 s and 2.5 GB: a finding about its root composed a node for each of its 4 million
  items to say the list starts on line 1.  Now under an address-space cap.
* A secret-looking name's value is never echoed: GITHUB_PAT, PAT and HF_HUB_KEY's values were, in AC102; so
  were an env variable's, whose own key is ``value`` and whose ``name`` beside it looks like a secret.
* The comment directives of a linted document whose text the caller did not give were read from its file with
  no size limit (``open().read()``): a 3 GB file named as the source filled the memory.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.checkout import checkout_env
from tests.hardening.helpers import CONFIGMAP_BAD_FIELD, MEMORY_LIMIT, _limit_memory, assert_clean, cli, output, spec_text, write


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


def _with_env(*entries: str) -> str:
    """A Volcano Job whose container sets the env ``entries`` (flow mappings)."""
    env = "".join(f"\n            - {entry}" for entry in entries)
    return ("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: j\nspec:\n  schedulerName: volcano\n"
            "  minAvailable: 1\n  tasks:\n    - name: worker\n      replicas: 1\n      template:\n        spec:\n"
            "          restartPolicy: Never\n          containers:\n          - name: c\n            image: busybox\n"
            f"            env:{env}\n")


@pytest.mark.parametrize("name", ["GITHUB_PAT", "HF_HUB_KEY", "dbPassword"])
def test_an_env_value_beside_a_secret_looking_name_is_never_echoed(tmp_path: Path, name: str) -> None:
    path = write(tmp_path / "job.yaml", _with_env(f"{{name: {name}, value: 31337424242}}", "{name: BATCH, value: 64}"))
    for command in ("lint", "validate"):
        proc = cli(command, "--no-cache" if command == "lint" else "--quiet", str(path))
        assert_clean(proc, (1,), "[AC102]", "env[0].value", "the value is not shown: the name beside it looks like a "
                     "secret", "quote it (YAML reads the unquoted value as an integer)")
        assert "31337424242" not in output(proc), output(proc)
        assert "(64)" in output(proc) and 'quote it: "64"' in output(proc)  # a plain name's value is still shown


def test_an_env_value_beside_a_secret_looking_name_in_job_patch_is_never_echoed(tmp_path: Path) -> None:
    spec = spec_text() + ("  jobPatch:\n    spec:\n      replicaSpecs:\n        Worker:\n          template:\n"
                          "            spec:\n              containers:\n                - name: ascend\n"
                          "                  env: [{name: GITHUB_PAT, value: 31337424242}]\n")
    proc = cli("compile", str(write(tmp_path / "job.yaml", spec)))
    assert_clean(proc, (1,), "the value is not shown")
    assert "31337424242" not in output(proc), output(proc)


def test_comment_directives_are_read_from_a_file_of_bounded_size_only(tmp_path: Path) -> None:
    """Linting parsed documents without their text reads each source for its directives: a small file's are
    honoured, and a 3 GB file (sparse: no disk used) is not read, under a 1 GB address-space cap."""
    text = "# ascend-compile: disable-file=AC101 reason\n" + CONFIGMAP_BAD_FIELD  # AC101 without the directive
    small = write(tmp_path / "small.yaml", text)
    big = write(tmp_path / "big.yaml", text)
    with open(big, "r+b") as handle:
        handle.truncate(3 * 1024 ** 3)
    script = ("import sys\nfrom ascend_compile.lint.oneshot import lint_documents\n"
              "from ascend_compile.yamlio.parsing import load_documents\n"
              "for source in sys.argv[1:]:\n"
              "    found = lint_documents(load_documents(TEXT, source))\n"
              "    print(source, sorted(f.rule for f in found))\n").replace("TEXT", repr(text))
    proc = subprocess.run([sys.executable, "-c", script, str(small), str(big)], capture_output=True, text=True,
                          env=checkout_env(), timeout=120, preexec_fn=_limit_memory(MEMORY_LIMIT))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert lines[0].endswith("small.yaml []"), lines  # the directive read from the file suppressed AC101
    assert lines[1].endswith("big.yaml ['AC101']"), lines  # the file was not read: no directive, no memory
