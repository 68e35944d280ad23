"""Where the built-in data lives: ``schemas/`` and ``profiles/``.

In a source checkout (or an editable install) they are the top-level folders
beside ``compiler/``; in an installed wheel they ship inside the package as
``ascend_compile/_schemas`` and ``ascend_compile/_profiles`` (see ``[tool.setuptools]`` in pyproject.toml).  This is
the one place that knows both layouts.
"""
from __future__ import annotations

import os

_PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))


def _data_dir(installed_name: str, source_name: str) -> str:
    installed = os.path.join(_PACKAGE_DIR, installed_name)
    if os.path.isdir(installed):
        return installed
    return os.path.join(os.path.dirname(_PACKAGE_DIR), source_name)


def schemas_dir() -> str:
    return _data_dir("_schemas", "schemas")


def profiles_dir() -> str:
    return _data_dir("_profiles", "profiles")
