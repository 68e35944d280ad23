"""The command table: each command's module and one-line help, so ``--help`` needs no command module."""
from __future__ import annotations

# name -> (module, one-line help); the help is shown by ``--help`` without importing the module.
COMMANDS = {
    "compile": ("compile", "Compile job specs into AscendJob / Volcano Job / ConfigMap YAML."),
    "validate": ("validate", "Check manifests against the built-in JSON Schemas."),
    "lint": ("lint", "Check manifests against schemas and the operator's and scheduler's rules."),
    "rules": ("rules", "List the lint rules."),
    "explain": ("explain", "Show one lint rule: what it checks, why, and how to fix it."),
    "profiles": ("profiles", "List hardware profiles, or show one."),
    "import": ("importing", "Turn AscendJob / Volcano Job manifests into job specs the cluster treats the same."),
    "init": ("init", "Write a starter job spec that compiles as is."),
    "schema": ("schema", "Print the job spec's JSON Schema, or write it where editors can use it."),
    "apply": ("kubectl_cmds", "Compile and apply to a cluster through kubectl."),
    "diff": ("kubectl_cmds", "Compile and show what applying would change (kubectl diff)."),
    "status": ("status", "Show the state of a job in the cluster."),
    "why": ("why", "Explain why a job in the cluster is Pending, Failed or Restarting."),
    "wait": ("wait", "Wait until a job is running, succeeded or finished."),
    "list": ("joblist", "List the jobs ascend-compile applied, across namespaces."),
    "logs": ("logs", "Show the log of one pod of a job."),
    "events": ("events", "Show the events of a job, its PodGroup and its pods."),
    "cluster": ("cluster", "Read what a cluster has (nodes, queues, claims, versions) into a snapshot file."),
    "delete": ("kubectl_cmds", "Delete a compiled job and its ranktable ConfigMap from the cluster."),
    "krm": ("krm", "Run as a kustomize/kpt KRM function (ResourceList on stdin)."),
    "webhook": ("webhook", "A validating admission webhook that runs lint's checks on every job submitted."),
}


def version() -> str:
    from .._version import __version__

    return __version__
