"""kwok stages: how fake pods live and end.

kwok (``--config``) plays the kubelet of every fake node.  Its node stages are
kwok's defaults (nodes turn Ready and keep a heartbeat); the pod stages are ours:

- ``sim-pod-running``: a pod bound to a fake node becomes Running, its
  containers ready, with a host IP and a pod IP.
- ``sim-pod-succeed`` / ``sim-pod-fail``: a Running pod that carries the label
  ``ascend-compile.io/sim-exit: "<code>"`` ends about a second later, as a
  kubelet would end it when its containers exit with that code: ``Succeeded``
  for 0 (restart policy Never or OnFailure), ``Failed`` with the code in every
  container's terminated state for any other code (restart policy Never only:
  under OnFailure or Always a kubelet restarts the container and the pod stays
  Running).  Set the label on a pod template to make a whole job finish, or on
  one running pod (``kubectl label pod``) to inject a failure.
- ``sim-pod-restart-in-place``: the same label with a non-zero code on a Running
  pod whose restart policy is OnFailure or Always: the kubelet restarts the
  container in place, so the pod stays Running and every container's status
  records the exit: ``lastState.terminated.exitCode`` is the code and
  ``restartCount`` 1 (once: the restarted container keeps running).
- ``sim-pod-image-pull``: a bound pod that carries the label
  ``ascend-compile.io/sim-image-pull: fail`` never runs: its containers wait with
  ``ImagePullBackOff``, as a kubelet shows an image it cannot pull.
- ``sim-pod-delete``: a pod being deleted is removed at once (its finalizers
  dropped), as a kubelet does once the containers stopped.

Pods without the label keep running, so a job's Running state can be observed
for as long as a test needs.
"""
from __future__ import annotations

from typing import Any, Dict, List

import yaml

EXIT_LABEL = "ascend-compile.io/sim-exit"
#: a pod with this label (value "fail") cannot pull its image: it stays Pending, ImagePullBackOff
IMAGE_PULL_LABEL = "ascend-compile.io/sim-image-pull"
#: delay before a labelled pod ends, so that Running is observed first
EXIT_DELAY_MS = 1500

_RUNNING_STATUS = """\
{{ $now := Now }}
conditions:
- {lastTransitionTime: {{ $now | Quote }}, status: "True", type: Initialized}
- {lastTransitionTime: {{ $now | Quote }}, status: "True", type: Ready}
- {lastTransitionTime: {{ $now | Quote }}, status: "True", type: ContainersReady}
- {lastTransitionTime: {{ $now | Quote }}, status: "True", type: PodScheduled}
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: true
  restartCount: 0
  started: true
  state: {running: {startedAt: {{ $now | Quote }}}}
{{ end }}
hostIP: {{ NodeIPWith .spec.nodeName | Quote }}
podIP: {{ PodIPWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) | Quote }}
phase: Running
startTime: {{ $now | Quote }}
"""

#: a pod whose containers are not running: the conditions, and each container's status up to its state
_NOT_READY = """\
conditions:
- {lastTransitionTime: {{ $now | Quote }}, status: "True", type: Initialized}
- {lastTransitionTime: {{ $now | Quote }}, status: "False", type: Ready}
- {lastTransitionTime: {{ $now | Quote }}, status: "False", type: ContainersReady}
- {lastTransitionTime: {{ $now | Quote }}, status: "True", type: PodScheduled}
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: false
  restartCount: 0
  started: false
  state:
"""

_EXIT_STATUS = """\
{{ $now := Now }}
{{ $code := index .metadata.labels "%(label)s" }}
""" % {"label": EXIT_LABEL} + _NOT_READY + """\
    terminated:
      exitCode: {{ $code }}
      finishedAt: {{ $now | Quote }}
      reason: {{ if eq $code "0" }}Completed{{ else }}Error{{ end }}
      startedAt: {{ $now | Quote }}
{{ end }}
phase: {{ if eq $code "0" }}Succeeded{{ else }}Failed{{ end }}
"""

_IMAGE_PULL_STATUS = """\
{{ $now := Now }}
""" + _NOT_READY + """\
    waiting:
      reason: ImagePullBackOff
      message: {{ printf "Back-off pulling image %q" .image | Quote }}
{{ end }}
hostIP: {{ NodeIPWith .spec.nodeName | Quote }}
phase: Pending
startTime: {{ $now | Quote }}
"""

#: a Running pod whose containers the kubelet restarted in place once, the last run having exited with the label's code
_RESTARTED_STATUS = """\
{{ $now := Now }}
{{ $code := index .metadata.labels "%(label)s" }}
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: true
  restartCount: 1
  started: true
  lastState:
    terminated:
      exitCode: {{ $code }}
      finishedAt: {{ $now | Quote }}
      reason: Error
      startedAt: {{ $now | Quote }}
  state: {running: {startedAt: {{ $now | Quote }}}}
{{ end }}
phase: Running
""" % {"label": EXIT_LABEL}

_POD = {"apiGroup": "v1", "kind": "Pod"}
_ALIVE = {"key": ".metadata.deletionTimestamp", "operator": "DoesNotExist"}


def _exit_stage(name: str, conditions: List[Dict[str, Any]], status: str = _EXIT_STATUS) -> Dict[str, Any]:
    running = {"key": ".status.phase", "operator": "In", "values": ["Running"]}
    return {"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "Stage", "metadata": {"name": name},
            "spec": {"resourceRef": _POD,
                     "selector": {"matchExpressions": [_ALIVE, running, *conditions]},
                     "delay": {"durationMilliseconds": EXIT_DELAY_MS},
                     "next": {"statusTemplate": status}}}


def pod_stages() -> List[Dict[str, Any]]:
    pod, alive = _POD, _ALIVE
    label = f'.metadata.labels["{EXIT_LABEL}"]'
    pull = f'.metadata.labels["{IMAGE_PULL_LABEL}"]'
    return [
        {"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "Stage", "metadata": {"name": "sim-pod-running"},
         "spec": {"resourceRef": pod,
                  "selector": {"matchExpressions": [alive, {"key": ".status.podIP", "operator": "DoesNotExist"},
                                                    {"key": pull, "operator": "DoesNotExist"}]},
                  "next": {"statusTemplate": _RUNNING_STATUS}}},
        {"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "Stage", "metadata": {"name": "sim-pod-image-pull"},
         "spec": {"resourceRef": pod,
                  "selector": {"matchExpressions": [alive, {"key": pull, "operator": "In", "values": ["fail"]},
                                                    {"key": ".status.hostIP", "operator": "DoesNotExist"}]},
                  "next": {"statusTemplate": _IMAGE_PULL_STATUS}}},
        _exit_stage("sim-pod-succeed", [{"key": label, "operator": "In", "values": ["0"]},
                                        {"key": ".spec.restartPolicy", "operator": "In",
                                         "values": ["Never", "OnFailure"]}]),
        _exit_stage("sim-pod-fail", [{"key": label, "operator": "Exists"},
                                     {"key": label, "operator": "NotIn", "values": ["0"]},
                                     {"key": ".spec.restartPolicy", "operator": "In", "values": ["Never"]}]),
        _exit_stage("sim-pod-restart-in-place",
                    [{"key": label, "operator": "Exists"}, {"key": label, "operator": "NotIn", "values": ["0"]},
                     {"key": ".spec.restartPolicy", "operator": "NotIn", "values": ["Never"]},
                     {"key": ".status.containerStatuses.[].lastState.terminated.exitCode",
                      "operator": "DoesNotExist"}], _RESTARTED_STATUS),
        {"apiVersion": "kwok.x-k8s.io/v1alpha1", "kind": "Stage", "metadata": {"name": "sim-pod-delete"},
         "spec": {"resourceRef": pod,
                  "selector": {"matchExpressions": [{"key": ".metadata.deletionTimestamp", "operator": "Exists"}]},
                  "next": {"finalizers": {"empty": True}, "delete": True}}},
    ]


def config_yaml() -> str:
    """The ``--config`` file for kwok: our pod stages (node stages stay kwok's defaults)."""
    return yaml.safe_dump_all(pod_stages(), sort_keys=False)
