"""Every Python subprocess the tests start turns a deprecation warning raised on behalf of one of our modules into an
error, and only those, as pyproject.toml's filterwarnings does in the test process (tests/checkout.py's
``sitecustomize``, which replaced one PYTHONWARNINGS entry per module), and still runs the interpreter's own
``sitecustomize`` if it hid one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.checkout import SITECUSTOMIZE, checkout_env

WARN = "import warnings; warnings.warn_explicit('old', {category}, 'x.py', 1, module={module!r}); print('went on')"


def _python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=checkout_env(**env))


@pytest.mark.parametrize("category", ["DeprecationWarning", "PendingDeprecationWarning"])
@pytest.mark.parametrize("module", ["ascend_compile", "ascend_compile.cli._fast", "ascend_compile.lint.rules.x"])
def test_a_deprecation_of_ours_is_an_error(category: str, module: str) -> None:
    proc = _python(WARN.format(category=category, module=module))
    assert proc.returncode == 1 and f"{category}: old" in proc.stderr and "went on" not in proc.stdout


@pytest.mark.parametrize("module", ["yaml.constructor", "click.core", "compiler.api"])
def test_a_deprecation_of_another_module_is_only_a_warning(module: str) -> None:
    proc = _python(WARN.format(category="DeprecationWarning", module=module) + "; import ascend_compile")
    assert proc.returncode == 0 and "went on" in proc.stdout, proc.stderr


def test_the_interpreters_own_sitecustomize_still_runs(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "sitecustomize.py").write_text("import builtins\nbuiltins.THEIRS_RAN = True\n", encoding="utf-8")
    env = checkout_env()
    env["PYTHONPATH"] += f":{theirs}"
    proc = subprocess.run([sys.executable, "-c", "import builtins; print(getattr(builtins, 'THEIRS_RAN', False))"],
                          capture_output=True, text=True, env=env)
    assert proc.stdout.strip() == "True", proc.stderr
    ours = _python(WARN.format(category="DeprecationWarning", module="ascend_compile.api"), PYTHONPATH=env["PYTHONPATH"])
    assert ours.returncode == 1, "with theirs on the path too, our filter still applies"


def test_two_import_roots_on_the_path_run_one_filter_and_theirs_once(tmp_path: Path) -> None:
    """A checkout's tests run from another's (a collection in a copy): each import root has its sitecustomize; the
    first runs, never the other again (each would find the other's: no end), and the interpreter's own runs once."""
    other, theirs = tmp_path / "other-root", tmp_path / "theirs"
    other.mkdir()
    theirs.mkdir()
    (other / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    (theirs / "sitecustomize.py").write_text("import builtins\nbuiltins.THEIRS_RAN = getattr(builtins, 'THEIRS_RAN', 0) + 1\n",
                                             encoding="utf-8")
    env = checkout_env()
    env["PYTHONPATH"] = f"{other}:{env['PYTHONPATH']}:{theirs}"
    proc = subprocess.run([sys.executable, "-c", "import builtins; print(builtins.THEIRS_RAN)"], capture_output=True,
                          text=True, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "1", proc.stderr
