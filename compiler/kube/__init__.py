"""Cluster access for ``apply``, ``diff``, ``status`` and ``delete`` (through kubectl) and for Python callers.

:mod:`~ascend_compile.kube.kubectl` finds and runs kubectl; :mod:`~ascend_compile.kube.objects` applies,
diffs, reads and deletes one object with it; :mod:`~ascend_compile.kube.jobs` is the job-kind and
job-state model both kubectl and the Python client (:mod:`~ascend_compile.kube.client`) use;
:mod:`~ascend_compile.kube.planning` decides what a command does to which objects.  See ``docs/cluster.md``.
Import each name from the module that defines it: this package hands none on.
"""
