"""Run the code of this checkout, whatever else is installed.

The source folder is ``compiler/`` but the package imports as ``ascend_compile``
(pyproject.toml maps one to the other).  Tests must exercise the checkout, not a
copy that happens to be installed, so they import it through a private folder
holding a symlink, ``ascend_compile -> <checkout>/compiler`` (and the subprocesses'
``sitecustomize``, :data:`SITECUSTOMIZE`), put first on ``sys.path`` here and on
``PYTHONPATH`` for every subprocess (:func:`checkout_env`).
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


#: Deprecation warnings raised on behalf of our own modules are errors in every Python subprocess the tests start,
#: as pyproject.toml's filterwarnings makes them in the test process: the import root, first on the subprocesses'
#: PYTHONPATH, holds this ``sitecustomize``, which adds pyproject.toml's filters (a module pattern) and then runs the
#: ``sitecustomize`` it hides, if the interpreter has one.  (PYTHONWARNINGS did it before, but it matches module
#: names exactly: one entry per module, 554, compiled at every interpreter's start, 25-30 CPU-ms each time.)
SITECUSTOMIZE = """\
# the sitecustomize of a checkout's import root (tests/checkout.py)
import os
import sys
import warnings

for _category in (DeprecationWarning, PendingDeprecationWarning):
    warnings.filterwarnings("error", category=_category, module="ascend_compile")


def _ours(folder):
    # whether folder is an import root (this one, or another checkout's: never run one of these again)
    try:
        with open(os.path.join(folder or os.curdir, "sitecustomize.py"), encoding="utf-8") as file:
            return file.readline() == MARK
    except OSError:
        return False


def _run_hidden():
    from importlib.machinery import PathFinder
    from importlib.util import module_from_spec

    spec = PathFinder.find_spec("sitecustomize", [folder for folder in sys.path if not _ours(folder)])
    if spec is not None and spec.loader is not None:
        spec.loader.exec_module(module_from_spec(spec))


MARK = "# the sitecustomize of a checkout's import root (tests/checkout.py)\\n"


_run_hidden()
"""


def _make_import_root() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="ascend-compile-checkout-"))
    atexit.register(shutil.rmtree, folder, True)
    (folder / "ascend_compile").symlink_to(ROOT / "compiler", target_is_directory=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    return folder


IMPORT_ROOT = _make_import_root()
if str(IMPORT_ROOT) not in sys.path:
    sys.path.insert(0, str(IMPORT_ROOT))


def checkout_pythonpath(env: Optional[Mapping[str, str]] = None) -> str:
    """A PYTHONPATH value that puts this checkout's ``ascend_compile`` first."""
    rest = (env if env is not None else os.environ).get("PYTHONPATH", "")
    return str(IMPORT_ROOT) + (os.pathsep + rest if rest else "")


def checkout_env(env: Optional[Mapping[str, str]] = None, **extra: str) -> dict:
    """A copy of ``env`` (default: os.environ) whose PYTHONPATH runs this checkout (with :data:`SITECUSTOMIZE`)."""
    full = dict(os.environ if env is None else env)
    full["PYTHONPATH"] = checkout_pythonpath(full)
    full.update(extra)
    return full


def run_cli(*args: str, input: str | bytes | None = None, cwd: str | os.PathLike | None = None,
            env: Mapping[str, str] | None = None, unset: Sequence[str] = (), text: bool = True,
            timeout: float = 120, prefix: Sequence[str] = (),
            preexec_fn: Optional[Callable[[], None]] = None) -> subprocess.CompletedProcess:
    """Run ``python -m ascend_compile ARGS`` from this checkout, the way a user runs the console script.

    The one way tests start the command line: the environment is this process's (so the child runs
    this checkout, with deprecations as errors), less ``NO_COLOR`` and the names in ``unset``, plus
    ``env``.  Output is text unless ``input`` is bytes or ``text`` is False.  ``prefix`` runs the
    command under a wrapper (e.g. ``setpriv``), ``preexec_fn`` in the child before exec (limits).
    """
    full_env = checkout_env()
    full_env.pop("NO_COLOR", None)
    for name in unset:
        full_env.pop(name, None)
    if env:
        full_env.update(env)
    as_text = text and not isinstance(input, bytes)
    return subprocess.run([*prefix, sys.executable, "-m", "ascend_compile", *args], input=input,
                          capture_output=True, text=as_text, cwd=cwd or ROOT, env=full_env, timeout=timeout,
                          preexec_fn=preexec_fn)


def write_tree(root: Path, files: Mapping[str, str]) -> None:
    """Write ``{relative path: text}`` below ``root``, making the folders (a small repository for a test)."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
