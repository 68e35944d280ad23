"""The public Python API is a promise: every name here keeps working within a spec apiVersion.

Removing or renaming a name in FROZEN is a breaking change (see docs/api.md,
"Versioning"). Adding a name: add it to ``ascend_compile.__all__`` and here.
"""
from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ascend_compile
from tests.checkout import checkout_pythonpath

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
    assert isinstance(ascend_compile.__all__, list)
    assert all(isinstance(name, str) for name in ascend_compile.__all__)
    assert len(set(ascend_compile.__all__)) == len(ascend_compile.__all__)


@pytest.mark.parametrize("name", sorted(ascend_compile.__all__))
def test_every_public_name_imports(name):
    assert getattr(ascend_compile, name) is not None
    namespace: dict = {}
    exec(f"from ascend_compile import {name}", namespace)  # noqa: S102 - the import form users write
    assert namespace[name] is getattr(ascend_compile, name)


def test_no_frozen_name_disappears():
    missing = sorted(FROZEN - set(ascend_compile.__all__))
    assert not missing, f"public names removed from ascend_compile.__all__: {missing} (a breaking change)"


def test_new_names_are_added_to_the_frozen_list():
    added = sorted(set(ascend_compile.__all__) - FROZEN)
    assert not added, f"add the new public names to FROZEN in {__file__}: {added}"


@pytest.mark.parametrize("func,params", sorted(FROZEN_PARAMETERS.items()))
def test_frozen_parameters_remain(func, params):
    signature = inspect.signature(getattr(ascend_compile, func))
    missing = params - set(signature.parameters)
    assert not missing, f"{func} lost parameters {sorted(missing)}"


def test_finding_fields_remain():
    import dataclasses

    fields = {f.name for f in dataclasses.fields(ascend_compile.Finding)}
    assert FROZEN_FINDING_FIELDS <= fields
    assert hasattr(ascend_compile.Finding, "field_path")


def test_error_hierarchy():
    assert issubclass(ascend_compile.CompileError, ascend_compile.AscendCompileError)
    assert issubclass(ascend_compile.InputError, ascend_compile.AscendCompileError)
    assert issubclass(ascend_compile.ProfileNotFoundError, ascend_compile.CompileError)
    assert issubclass(ascend_compile.ProfileNotFoundError, LookupError)
    assert issubclass(ascend_compile.ClusterError, ascend_compile.AscendCompileError)


def test_a_cluster_error_is_caught_as_an_ascend_compile_error_with_one_finding():
    """docs/api.md: catching AscendCompileError catches the client's refusals too, as one AC017 finding."""
    try:
        raise ascend_compile.ClusterError('ascendjobs "resnet50" already exists', status=409, reason="AlreadyExists",
                                          operation="create AscendJob training/resnet50")
    except ascend_compile.AscendCompileError as exc:
        [finding] = exc.findings
        assert (finding.rule, finding.severity, finding.file) == ("AC017", "error", "<cluster>")
        assert finding.message == str(exc) == 'create AscendJob training/resnet50: ascendjobs "resnet50" already exists'
        assert finding.hint == "delete the existing object first, or give the job another name"
        assert isinstance(exc, ascend_compile.ClusterError) and exc.already_exists and exc.status == 409


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        ascend_compile.nope  # noqa: B018
    assert not hasattr(ascend_compile, "nope")


def test_dir_lists_the_public_names():
    assert set(ascend_compile.__all__) <= set(dir(ascend_compile))


def test_py_typed_marker_ships():
    assert (ROOT / "compiler" / "py.typed").is_file()


def _fresh_python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = checkout_pythonpath(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60,
                          cwd=ROOT)


HEAVY = ("yaml", "click", "jsonschema", "kubernetes")


def test_import_compiler_stays_cheap():
    proc = _fresh_python(
        "import json, sys\n"
        "import ascend_compile\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('ascend_compile'))))\n")
    assert proc.returncode == 0, proc.stderr
    heavy_line, ours_line = proc.stdout.splitlines()[-2:]
    assert json.loads(heavy_line) == [], f"import ascend_compile imported {heavy_line}"
    assert set(json.loads(ours_line)) <= {"ascend_compile", "ascend_compile._version"}


def test_lint_manifests_is_unaffected_by_the_linter_subpackage():
    """``compiler/lint/`` is a subpackage; the public function has its own name, so importing it hides nothing."""
    proc = _fresh_python(
        "import ascend_compile.lint.engine\n"
        "import ascend_compile, inspect\n"
        "from ascend_compile import lint_manifests\n"
        "assert 'objects_or_paths' in inspect.signature(lint_manifests).parameters\n"
        "print(len(lint_manifests([{'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'x'}}])))\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0"


def test_light_names_load_without_yaml():
    """Finding and the error classes are plain data: using them loads no YAML or CLI code."""
    proc = _fresh_python(
        "import json, sys\n"
        "from ascend_compile import Finding, CompileError, InputError, AscendCompileError\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) == []


def test_cluster_names_load_without_kubernetes():
    """ascend_compile.Cluster imports the kubernetes client only when a Cluster is made."""
    proc = _fresh_python(
        "import json, sys\n"
        "from ascend_compile import Cluster, ClusterError, JobState\n"
        "print(json.dumps('kubernetes' in sys.modules))\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) is False


def test_missing_kubernetes_client_is_a_clear_import_error():
    # Block the package in a fresh interpreter, as if the [k8s] extra were not installed.
    proc = _fresh_python(
        "import sys\n"
        "sys.modules['kubernetes'] = None\n"
        "import ascend_compile\n"
        "try:\n"
        "    ascend_compile.Cluster.from_kubeconfig('/nonexistent')\n"
        "except ImportError as exc:\n"
        "    print('IMPORT-ERROR', exc)\n")
    assert proc.returncode == 0, proc.stderr
    assert "IMPORT-ERROR" in proc.stdout
    assert "pip install '.[k8s]'" in proc.stdout and "pip install kubernetes" in proc.stdout
    assert "ascend-compile[k8s]" not in proc.stdout  # no package index serves that name
