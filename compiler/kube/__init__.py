"""Cluster access for ``apply``, ``diff``, ``status`` and ``delete`` (through kubectl) and for Python callers.

:mod:`~ascend_compile.kube.kubectl` finds and runs kubectl; :mod:`~ascend_compile.kube.objects` applies,
diffs, reads and deletes one object with it; :mod:`~ascend_compile.kube.jobs` is the job-kind and
job-state model both kubectl and the Python client (:mod:`~ascend_compile.kube.client`) use;
:mod:`~ascend_compile.kube.planning` decides what a command does to which objects.  See ``docs/cluster.md``.
"""
from __future__ import annotations

from .jobs import ASCEND_JOB_TYPE, JOB_TYPES, VOLCANO_JOB_TYPE, JobState, JobType, find_job_type, job_state
from .kubectl import (
    ENV_KUBECTL,
    EXIT_REJECTED,
    EXIT_USAGE,
    FIELD_MANAGER,
    INSTALL_HELP,
    Kubectl,
    KubectlError,
    KubectlNotFound,
    KubectlUsageError,
    check_context,
    check_name,
    check_namespace,
    find_kubectl,
)
from .objects import ObjectRef, apply_object, delete_object, diff_object, get_object, object_ref, ranktable_ref

ASCEND_JOB_RESOURCE = ASCEND_JOB_TYPE.resource
VOLCANO_JOB_RESOURCE = VOLCANO_JOB_TYPE.resource

__all__ = [
    "ASCEND_JOB_RESOURCE", "ENV_KUBECTL", "EXIT_REJECTED", "EXIT_USAGE", "FIELD_MANAGER", "INSTALL_HELP",
    "VOLCANO_JOB_RESOURCE", "JOB_TYPES", "JobState", "JobType", "Kubectl", "KubectlError", "KubectlNotFound",
    "KubectlUsageError", "ObjectRef", "apply_object", "check_context", "check_name", "check_namespace",
    "delete_object", "diff_object", "find_job_type", "find_kubectl", "get_object", "job_state", "object_ref",
    "ranktable_ref",
]
