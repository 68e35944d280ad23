"""A ``host-arch`` node selector names a value MindCluster nodes are not labelled with.

**What.** Where a pod template selects ``host-arch``, the value is
``huawei-arm`` or ``huawei-x86``.

**Why.** No upstream code reads the label (the plugin at the pinned commit has
no host-arch check); it is an ordinary node selector, and MindCluster's
installation guide labels the nodes ``host-arch=huawei-arm`` or
``host-arch=huawei-x86``. A pod selecting any other value matches no such node
and stays Pending ("node(s) didn't match Pod's node affinity/selector", from
Kubernetes' NodeAffinity filter run by Volcano's predicates). Lint cannot see
your nodes: if yours carry another value on purpose, set this rule's severity
in the project config. Source: the node-label table of the MindCluster
documentation and the samples (mindcluster-deploy ``b9331e14``); the predicate
``pkg/scheduler/framework/plugins/nodeaffinity`` (Kubernetes) via
``pkg/scheduler/plugins/predicates`` (Volcano ``v1.12.0``).

**How to fix.** Use ``huawei-arm`` or ``huawei-x86`` (what your nodes carry), or
drop the selector.

Failing::

    nodeSelector: {host-arch: arm64}

Passing::

    nodeSelector: {host-arch: huawei-arm}
"""
from ...vocabulary import HOST_ARCH_LABEL, HOST_ARCH_VALUES
from ..rule import Problem


def check(obj, run):
    for pod_set in obj.pod_sets():
        value = pod_set.node_selector.get(HOST_ARCH_LABEL)
        if isinstance(value, str) and value not in HOST_ARCH_VALUES:
            yield Problem(pod_set.spec_path + ("nodeSelector", HOST_ARCH_LABEL),
                          f"{HOST_ARCH_LABEL} {value!r} is not a value MindCluster nodes are labelled with "
                          f"({', '.join(HOST_ARCH_VALUES)}): no node matches and the pods stay Pending")
