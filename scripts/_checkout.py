"""Import this checkout's package as ``ascend_compile``, whatever else is installed.

The source folder is ``compiler/``; pyproject.toml installs it as ``ascend_compile``.
Developer scripts call :func:`use_checkout` before importing the package so they
always work on the files beside them.
"""
from __future__ import annotations

import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def use_checkout() -> None:
    if "ascend_compile" in sys.modules:
        return
    source = os.path.join(ROOT, "compiler")
    spec = importlib.util.spec_from_file_location(
        "ascend_compile", os.path.join(source, "__init__.py"), submodule_search_locations=[source])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ascend_compile"] = module
    spec.loader.exec_module(module)
