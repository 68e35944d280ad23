"""An object's name or namespace is not a valid Kubernetes name.

**What.** ``metadata.name`` must be a DNS-1123 subdomain (lower-case letters,
digits, ``-`` and ``.``, at most 253 characters); ``metadata.namespace`` a
DNS-1123 label. AscendJob and Volcano Job names must moreover be DNS-1035
labels (start with a letter, no dots), because they become part of Service
names (``<job>-master-0``; the Volcano ``svc`` plugin's headless Service).

**Why.** The API server rejects invalid names ("a lowercase RFC 1123
subdomain must consist of ..."); a job name that is valid but not a DNS label
is accepted, and then the operator or Volcano fails to create its Services,
so the job never starts. Source: Kubernetes API conventions
(``apimachinery/pkg/util/validation``) (Service ``<job>-<leader>-0``)
and §4.5.

**How to fix.** Use lower-case letters, digits and ``-``, starting with a letter.

Failing::

    metadata:
      name: ResNet50_Job

Passing::

    metadata:
      name: resnet50-job
"""
from ...vocabulary import DNS1035_LABEL, DNS1123_LABEL, DNS1123_SUBDOMAIN, JOBS
from ..rule import Problem


def check(obj, run):
    meta = obj.metadata
    name = meta.get("name")
    if isinstance(name, str) and name:
        if obj.kind in JOBS:
            if not DNS1035_LABEL.match(name) or len(name) > 63:
                yield Problem(("metadata", "name"),
                              f"job name {name!r} is not a DNS-1035 label (lower-case letters, digits and '-', "
                              "starting with a letter, at most 63 characters): its Services cannot be created")
        elif len(name) > 253 or not DNS1123_SUBDOMAIN.match(name):
            yield Problem(("metadata", "name"), f"name {name!r} is not a valid DNS-1123 subdomain")
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and namespace and (len(namespace) > 63 or not DNS1123_LABEL.match(namespace)):
        yield Problem(("metadata", "namespace"), f"namespace {namespace!r} is not a valid DNS-1123 label")
