"""The cluster inventory: what a cluster has that a job needs, read live or from a snapshot file.

The second input beside the manifest model (:mod:`ascend_compile.manifest`): :mod:`.model` is the
inventory (nodes with their labels, NPUs and taints, and the NPUs in use with when they were read; Volcano queues
with their capability and deserved share; PriorityClass and HyperNode names; PVC and ConfigMap names per namespace;
the versions of Volcano, the Ascend plugin and ascend-operator),
:mod:`.objects` builds one from plain Kubernetes objects (however they were read), and :mod:`.snapshot`
writes and reads the snapshot file (``ascend-compile cluster snapshot``, ``--cluster-snapshot``), checked
against ``schemas/clustersnapshot-v1alpha1.json``.  ``why`` and the node fit (:mod:`ascend_compile.kube.fit`)
and the cluster-aware lint rules (AC901-AC915) all read this one model.  See ``docs/cluster-snapshot.md``.
"""
