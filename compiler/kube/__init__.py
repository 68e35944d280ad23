"""Cluster access for ``apply``, ``diff``, ``status`` and ``delete``: everything goes through kubectl.

See :mod:`ascend_compile.kube.kubectl` and ``docs/cluster.md``.
"""
from __future__ import annotations

from .kubectl import (
    ASCEND_JOB_RESOURCE,
    ENV_KUBECTL,
    EXIT_REJECTED,
    EXIT_USAGE,
    FIELD_MANAGER,
    INSTALL_HELP,
    VOLCANO_JOB_RESOURCE,
    JobState,
    Kubectl,
    KubectlError,
    KubectlNotFound,
    KubectlUsageError,
    ObjectRef,
    apply_object,
    check_context,
    check_name,
    check_namespace,
    delete_object,
    diff_object,
    find_kubectl,
    get_object,
    job_state,
    object_ref,
    ranktable_ref,
)

__all__ = [
    "ASCEND_JOB_RESOURCE", "ENV_KUBECTL", "EXIT_REJECTED", "EXIT_USAGE", "FIELD_MANAGER", "INSTALL_HELP",
    "VOLCANO_JOB_RESOURCE", "JobState", "Kubectl", "KubectlError", "KubectlNotFound", "KubectlUsageError",
    "ObjectRef", "apply_object", "check_context", "check_name", "check_namespace", "delete_object",
    "diff_object", "find_kubectl", "get_object", "job_state", "object_ref", "ranktable_ref",
]
