"""mypy --strict passes on the whole package (mypy.ini), no module of it exempted.

mypy keeps its cache in .mypy_cache (git-ignored), so reruns take seconds.
"""
from __future__ import annotations

import configparser
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.checkout import checkout_pythonpath

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (pip install -e '.[test]' installs it)")
def test_mypy_strict_on_the_package():
    env = dict(os.environ)
    env["PYTHONPATH"] = checkout_pythonpath(env)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-error-summary"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert proc.returncode == 0, f"mypy --strict failed:\n{proc.stdout}{proc.stderr}"


def test_no_module_of_the_package_is_exempted():
    """"The whole package" is true only while mypy.ini silences none of our own modules."""
    config = configparser.ConfigParser()
    config.read(ROOT / "mypy.ini")
    exempt = [section for section in config.sections() if section.startswith("mypy-") and any(
        name.strip().startswith("compiler") for name in section[len("mypy-"):].split(","))
        and config[section].getboolean("ignore_errors", fallback=False)]
    assert not exempt, f"mypy.ini switches error reporting off for {exempt}"


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_public_api_is_typed_for_callers(tmp_path):
    """A caller's code type-checks against the public names (py.typed, the TYPE_CHECKING imports)."""
    caller = tmp_path / "caller.py"
    caller.write_text(
        "from typing import Any, Dict, List\n"
        "import ascend_compile\n"
        "from ascend_compile import Finding, JobSpec, lint_manifests\n\n"
        "spec = JobSpec(name='a', framework='pytorch', profile='module-910b-8', npus=8, image='i')\n"
        "objects: List[Dict[str, Any]] = ascend_compile.compile_spec(spec)\n"
        "findings: List[Finding] = lint_manifests(objects) + ascend_compile.validate_manifests(objects)\n"
        "text: str = ascend_compile.compile_to_yaml(spec)\n"
        "lines: List[int] = [f.line for f in findings]\n"
        "chips: List[str] = [p.chip for p in ascend_compile.list_profiles()]\n"
        "bad: int = ascend_compile.compile_to_yaml(spec)  # E: a str is not an int\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = checkout_pythonpath(env)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary", str(caller)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "caller.py:11:" in errors[0] and "incompatible types" in errors[0].lower(), \
        proc.stdout + proc.stderr
