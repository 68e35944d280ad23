"""ascend-compile: compact training-job specs in, validated Ascend/Volcano manifests out.

The public Python API is exactly the names in ``__all__``; see ``docs/api.md``::

    import ascend_compile

    spec = ascend_compile.JobSpec(name="demo", framework="pytorch", profile="module-910b-8",
                            npus=16, image="swr.example.com/ml/pytorch-train:2.1.0")
    objects = ascend_compile.compile_spec(spec)          # list of dicts, in apply order
    findings = ascend_compile.lint_manifests(objects)              # list of ascend_compile.Finding

Names load on first use (PEP 562 ``__getattr__``), so ``import ascend_compile``
stays cheap for the command line: it imports neither PyYAML nor click.
Anything not in ``__all__`` (including every submodule) is internal and may
change in any release.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, List

from ._version import __version__

__all__ = [
    "__version__",
    # specs and compiling
    "JobSpec",
    "compile_spec",
    "compile_to_yaml",
    "compile_job",
    "to_yaml",
    "compile_files",
    "CompiledJob",
    "ProjectConfig",
    # checking manifests
    "validate_manifests",
    "lint_manifests",
    "Finding",
    # hardware profiles
    "list_profiles",
    "load_profile",
    "Profile",
    # errors
    "AscendCompileError",
    "CompileError",
    "InputError",
    "InternalError",
    "ProfileNotFoundError",
    # clusters (the optional extra ascend-compile[k8s])
    "Cluster",
    "ClusterError",
    "JobState",
]

#: public name -> the module that defines it (imported on first access)
_WHERE: Dict[str, str] = {
    "JobSpec": ".api",
    "compile_spec": ".api",
    "compile_to_yaml": ".api",
    "compile_job": ".api",
    "to_yaml": ".api",
    "compile_files": ".api",
    "CompiledJob": ".compiling.pipeline",
    "ProjectConfig": ".config",
    "validate_manifests": ".api",
    "lint_manifests": ".api",
    "Finding": ".findings",
    "list_profiles": ".api",
    "load_profile": ".api",
    "Profile": ".hardware.profiles",
    "AscendCompileError": ".errors",
    "CompileError": ".errors",
    "InputError": ".errors",
    "InternalError": ".errors",
    "ProfileNotFoundError": ".hardware.profiles",
    "Cluster": ".kube.client",
    "ClusterError": ".kube.clienterror",
    "JobState": ".kube.jobs",
}

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ loads these
    from .api import (JobSpec, compile_files, compile_job, compile_spec, compile_to_yaml,
                      lint_manifests, list_profiles, load_profile, to_yaml,
                      validate_manifests)
    from .config import ProjectConfig
    from .errors import AscendCompileError, CompileError, InputError, InternalError
    from .findings import Finding
    from .kube.client import Cluster
    from .kube.clienterror import ClusterError
    from .kube.jobs import JobState
    from .compiling.pipeline import CompiledJob
    from .hardware.profiles import Profile, ProfileNotFoundError


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'ascend_compile' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
