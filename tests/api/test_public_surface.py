"""The public Python API is a promise: every name here keeps working within a spec apiVersion.

Removing or renaming a name in FROZEN is a breaking change (see docs/api.md,
"Versioning"). Adding a name: add it to ``compiler.__all__`` and here.
"""
from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import compiler

ROOT = Path(__file__).resolve().parents[2]

#: the public names as released; a name may be added, never removed
FROZEN = frozenset({
    "__version__",
    "JobSpec", "compile_spec", "compile_to_yaml", "compile_job", "compile_files", "to_yaml",
    "CompiledJob", "ProjectConfig",
    "validate_manifests", "lint_manifests", "Finding",
    "list_profiles", "load_profile", "Profile",
    "AscendCompileError", "CompileError", "InputError", "InternalError", "ProfileNotFoundError",
    "Cluster", "ClusterError", "JobState",
})

#: keyword parameters callers rely on
FROZEN_PARAMETERS = {
    "compile_spec": {"spec", "config", "profile_dirs"},
    "compile_to_yaml": {"spec", "config", "profile_dirs"},
    "compile_job": {"spec", "config", "profile_dirs"},
    "compile_files": {"paths", "config", "profile_dirs", "max_bytes"},
    "validate_manifests": {"objects_or_paths", "strict", "strict_kinds", "volcano_version"},
    "lint_manifests": {"objects_or_paths", "config", "profile_dirs", "strict", "volcano_version", "disable"},
    "list_profiles": {"extra_dirs"},
    "load_profile": {"name", "extra_dirs"},
    "to_yaml": {"objects"},
}

FROZEN_FINDING_FIELDS = {"rule", "severity", "message", "path", "hint", "file", "line", "column", "obj",
                         "input_error"}


def test_all_is_a_list_of_unique_strings():
    assert isinstance(compiler.__all__, list)
    assert all(isinstance(name, str) for name in compiler.__all__)
    assert len(set(compiler.__all__)) == len(compiler.__all__)


@pytest.mark.parametrize("name", sorted(compiler.__all__))
def test_every_public_name_imports(name):
    assert getattr(compiler, name) is not None
    namespace: dict = {}
    exec(f"from compiler import {name}", namespace)  # noqa: S102 - the import form users write
    assert namespace[name] is getattr(compiler, name)


def test_no_frozen_name_disappears():
    missing = sorted(FROZEN - set(compiler.__all__))
    assert not missing, f"public names removed from compiler.__all__: {missing} (a breaking change)"


def test_new_names_are_added_to_the_frozen_list():
    added = sorted(set(compiler.__all__) - FROZEN)
    assert not added, f"add the new public names to FROZEN in {__file__}: {added}"


@pytest.mark.parametrize("func,params", sorted(FROZEN_PARAMETERS.items()))
def test_frozen_parameters_remain(func, params):
    signature = inspect.signature(getattr(compiler, func))
    missing = params - set(signature.parameters)
    assert not missing, f"{func} lost parameters {sorted(missing)}"


def test_finding_fields_remain():
    import dataclasses

    fields = {f.name for f in dataclasses.fields(compiler.Finding)}
    assert FROZEN_FINDING_FIELDS <= fields
    assert hasattr(compiler.Finding, "field_path")


def test_error_hierarchy():
    assert issubclass(compiler.CompileError, compiler.AscendCompileError)
    assert issubclass(compiler.InputError, compiler.AscendCompileError)
    assert issubclass(compiler.ProfileNotFoundError, compiler.CompileError)
    assert issubclass(compiler.ProfileNotFoundError, LookupError)
    assert issubclass(compiler.ClusterError, Exception)


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        compiler.nope  # noqa: B018
    assert not hasattr(compiler, "nope")


def test_dir_lists_the_public_names():
    assert set(compiler.__all__) <= set(dir(compiler))


def test_py_typed_marker_ships():
    assert (ROOT / "compiler" / "py.typed").is_file()


def _fresh_python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60,
                          cwd=ROOT)


HEAVY = ("yaml", "click", "jsonschema", "kubernetes")


def test_import_compiler_stays_cheap():
    proc = _fresh_python(
        "import json, sys\n"
        "import compiler\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('compiler'))))\n")
    assert proc.returncode == 0, proc.stderr
    heavy_line, ours_line = proc.stdout.splitlines()[-2:]
    assert json.loads(heavy_line) == [], f"import compiler imported {heavy_line}"
    assert set(json.loads(ours_line)) <= {"compiler", "compiler._version"}


def test_lint_manifests_is_unaffected_by_the_linter_subpackage():
    """``compiler/lint/`` is a subpackage; the public function has its own name, so importing it hides nothing."""
    proc = _fresh_python(
        "import compiler.lint.engine\n"
        "import compiler, inspect\n"
        "from compiler import lint_manifests\n"
        "assert 'objects_or_paths' in inspect.signature(lint_manifests).parameters\n"
        "print(len(lint_manifests([{'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'x'}}])))\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0"


def test_light_names_load_without_yaml():
    """Finding and the error classes are plain data: using them loads no YAML or CLI code."""
    proc = _fresh_python(
        "import json, sys\n"
        "from compiler import Finding, CompileError, InputError, AscendCompileError\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) == []


def test_cluster_names_load_without_kubernetes():
    """compiler.Cluster imports the kubernetes client only when a Cluster is made."""
    proc = _fresh_python(
        "import json, sys\n"
        "from compiler import Cluster, ClusterError, JobState\n"
        "print(json.dumps('kubernetes' in sys.modules))\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) is False


def test_missing_kubernetes_client_is_a_clear_import_error():
    # Block the package in a fresh interpreter, as if the [k8s] extra were not installed.
    proc = _fresh_python(
        "import sys\n"
        "sys.modules['kubernetes'] = None\n"
        "import compiler\n"
        "try:\n"
        "    compiler.Cluster.from_kubeconfig('/nonexistent')\n"
        "except ImportError as exc:\n"
        "    print('IMPORT-ERROR', exc)\n")
    assert proc.returncode == 0, proc.stderr
    assert "IMPORT-ERROR" in proc.stdout
    assert "pip install 'ascend-compile[k8s]'" in proc.stdout
