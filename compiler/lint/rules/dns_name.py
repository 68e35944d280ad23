"""An object's name or namespace is not a valid Kubernetes name.

**What.** ``metadata.name`` must be a DNS-1123 subdomain (lower-case letters,
digits, ``-`` and ``.``, at most 253 characters); ``metadata.namespace`` a
DNS-1123 label. The name of a job that gets a Service must moreover be a
DNS-1035 label (start with a letter, no dots): every AscendJob (the operator's
``<job>-master-0``), and a Volcano Job with the ``svc`` plugin (its headless
Service is the job's name, and its pods' subdomain), which the ``tensorflow``,
``mpi`` and ``pytorch`` plugins add. A Volcano Job with the ``ssh`` plugin
(and no ``svc``) needs a DNS-1123 label (no dots): the plugin adds a volume
named ``<job>-ssh`` to every pod.

**Why.** The API server rejects invalid names ("a lowercase RFC 1123 subdomain
must consist of ..."); a job name that is valid but not a DNS label is accepted,
and then the operator or Volcano fails to create its Services, so the job never
starts. A Volcano Job without the ``svc`` plugin creates no Service: Volcano's
admission checks its name and pod names only as qualified names, so ``7b-sft``
is fine there, and ``qwen2.5-sft`` too without the ``ssh`` plugin (with it the
API server refuses every pod: "spec.volumes[6].name: Invalid value:
"qwen2.5-sft-ssh": must not contain dots", on the simulated cluster).

**How to fix.** Use lower-case letters, digits and ``-``, starting with a letter.

Failing::

    metadata:
      name: ResNet50_Job

Passing::

    metadata:
      name: resnet50-job
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, K8S, Place, VC, VCJ
from ...manifest.values import as_dict
from ...vocabulary import DNS1035_LABEL, DNS1123_LABEL, DNS1123_SUBDOMAIN, JOBS, VOLCANO_JOB
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("IsDNS1123Subdomain", "staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go", K8S,
                    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'",
                    also=(Place("validateJobName", VCJ, VC),
                          Place("validateK8sPodNameLength", VCJ, VC),
                          Place("", "pkg/controllers/job/plugins/svc/svc.go", VC),
                          Place("", "pkg/controllers/job/plugins/ssh/ssh.go", VC),
                          Place("", "pkg/webhooks/admission/jobs/mutate/mutate_job.go", VC)))


#: Volcano job plugins that give the job a Service named after it (svc, and those Volcano adds svc for)
SERVICE_PLUGINS = ("svc", "tensorflow", "mpi", "pytorch")
#: the Volcano job plugin that adds a volume named <job>-ssh to every pod
SSH_PLUGIN = "ssh"


def _gets_a_service(obj: ObjectContext) -> bool:
    if obj.kind == VOLCANO_JOB:
        return any(name in SERVICE_PLUGINS for name in as_dict(obj.spec.get("plugins")))
    return obj.kind in JOBS


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    meta = obj.metadata
    name = meta.get("name")
    if isinstance(name, str) and name:
        if _gets_a_service(obj):
            if not DNS1035_LABEL.match(name) or len(name) > 63:
                yield Problem(("metadata", "name"),
                              f"job name {name!r} is not a DNS-1035 label (lower-case letters, digits and '-', "
                              "starting with a letter, at most 63 characters): its Services cannot be created")
        elif obj.kind == VOLCANO_JOB and SSH_PLUGIN in as_dict(obj.spec.get("plugins")) \
                and not DNS1123_LABEL.match(name):
            yield Problem(("metadata", "name"),
                          f"job name {name!r} is not a DNS-1123 label (lower-case letters, digits and '-'): the ssh "
                          f"plugin's volume {name}-ssh is refused, so no pod is created")
        elif len(name) > 253 or not DNS1123_SUBDOMAIN.match(name):
            yield Problem(("metadata", "name"), f"name {name!r} is not a valid DNS-1123 subdomain")
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and namespace and (len(namespace) > 63 or not DNS1123_LABEL.match(namespace)):
        yield Problem(("metadata", "namespace"), f"namespace {namespace!r} is not a valid DNS-1123 label")
