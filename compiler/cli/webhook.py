"""``ascend-compile webhook``: the validating admission webhook, and what to apply to run it in a cluster.

``webhook manifests`` prints the objects (:mod:`ascend_compile.webhook.manifests`); ``docs/admission.md`` is the
guide.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Optional, Tuple

import click

from ..webhook.manifests import (DEFAULT_NAMESPACE, DEFAULT_REPLICAS, DEFAULT_TIMEOUT, FAILURE_POLICIES, MAX_TIMEOUT,
                                 MIN_TIMEOUT, TLS_SOURCES)

if TYPE_CHECKING:
    from ..podtemplates import PodTemplateKind


@click.group("webhook", help="A validating admission webhook that runs lint's checks on every job submitted.")
def webhook() -> None:
    pass


webhook.epilog = """\b
Examples:
  ascend-compile webhook manifests --image registry.example.com/ascend-compile:1.4.0 > webhook.yaml

\b
docs/admission.md: install, upgrade, failure modes, RBAC, what it costs."""
#: the name the command table's loader (``_group.py``) looks the group up by
webhook_command = webhook

#: the largest --ca-bundle or --config file read (a CA bundle is a few KiB; a config a few more)
_MAX_FILE_BYTES = 1 << 20


@webhook.command(  # type: ignore[untyped-decorator, unused-ignore]  # click 8.1 types group.command loosely
    "manifests",
    epilog="""\b
Examples:
  ascend-compile webhook manifests --image registry.example.com/ascend-compile:1.4.0 | kubectl apply -f -
  ascend-compile webhook manifests --image IMAGE --tls self-signed --ca-bundle ca.pem > webhook.yaml
  ascend-compile webhook manifests --image IMAGE --failure-policy Fail --namespace-selector team=research

\b
The objects: Namespace, ServiceAccount, a read-only ClusterRole (what the
live inventory reads; never Secrets) and its binding, the project config as
a ConfigMap, cert-manager's Issuer and Certificate (--tls cert-manager), the
Service, the Deployment, its PodDisruptionBudget and the
ValidatingWebhookConfiguration, last.  With --tls self-signed, make the
serving certificate and its Secret first (docs/admission.md).

\b
Exit codes: 0 printed; 2 usage or input error (nothing is printed).""",
)
@click.option("--image", required=True, metavar="IMAGE",
              help="The image built from the Dockerfile (pin it by tag or digest).")
@click.option("--namespace", default=DEFAULT_NAMESPACE, show_default=True, metavar="NS",
              help="The namespace the webhook runs in (never checked by it, nor kube-system).")
@click.option("--failure-policy", type=click.Choice(FAILURE_POLICIES), default=FAILURE_POLICIES[0],
              show_default=True,
              help="What the API server does when the webhook does not answer: admit (Ignore) or refuse (Fail).")
@click.option("--timeout-seconds", type=int, default=DEFAULT_TIMEOUT, show_default=True, metavar="N",
              help=f"How long the API server waits for an answer ({MIN_TIMEOUT}-{MAX_TIMEOUT}).")
@click.option("--audit", is_flag=True, default=False,
              help="Never refuse: errors are returned as warnings (try it out before enforcing).")
@click.option("--tls", type=click.Choice(TLS_SOURCES), default=TLS_SOURCES[0], show_default=True,
              help="Where the serving certificate comes from: cert-manager, or one you make (with --ca-bundle).")
@click.option("--ca-bundle", "ca_bundle", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="With --tls self-signed: the PEM certificate of the CA that signed the serving certificate.")
@click.option("--namespace-selector", "namespace_selector", multiple=True, metavar="KEY=VALUE",
              help="Check only namespaces with this label (repeatable: all of them).")
@click.option("--replicas", type=int, default=DEFAULT_REPLICAS, show_default=True, metavar="N",
              help="Replicas of the webhook (2 keeps admissions answered while one restarts).")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="A project config (.ascend-compile.yaml) for the webhook's checks, carried in its ConfigMap.")
def manifests(image: str, namespace: str, failure_policy: str, timeout_seconds: int, audit: bool, tls: str,
              ca_bundle: Optional[str], namespace_selector: Tuple[str, ...], replicas: int,
              config_path: Optional[str]) -> None:
    """Print what to apply to run the admission webhook in a cluster (a YAML stream)."""
    from ..webhook.manifests import Options, problems, render

    config_text, config_kinds = _config(config_path)
    options = Options(image=image, namespace=namespace, failure_policy=failure_policy,
                      timeout_seconds=timeout_seconds, audit=audit, tls=tls,
                      ca_bundle=_read("--ca-bundle", ca_bundle) if ca_bundle else b"",
                      namespace_selector=tuple(_label(text) for text in namespace_selector), replicas=replicas,
                      config_text=config_text, config_kinds=config_kinds)
    wrong = problems(options)
    if wrong:
        raise click.UsageError("\n".join(wrong))
    sys.stdout.write(render(options))


def _label(text: str) -> Tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key:
        raise click.UsageError(f"--namespace-selector: {text!r} is not KEY=VALUE, e.g. team=research")
    return key, value


def _read(flag: str, path: str) -> bytes:
    from ..safeio.read import read_regular_bytes

    data, why = read_regular_bytes(path, _MAX_FILE_BYTES, follow=True)
    if data is None:
        raise click.UsageError(f"{flag}: {path} {why or 'does not exist'}")
    return data


def _config(path: Optional[str]) -> Tuple[str, Tuple["PodTemplateKind", ...]]:
    """(the config's text, its podTemplates kinds); a config ``lint --config`` would refuse is refused here too,
    at its line and column (exit code 2), and so is one naming files beside it, which the webhook's pods lack."""
    if path is None:
        return "", ()
    from ..config import load_config
    from ..errors import AscendCompileError
    from ._session import report_and_exit

    try:
        text = _read("--config", path).decode("utf-8")
    except UnicodeDecodeError:
        raise click.UsageError(f"--config: {path} is not UTF-8 text") from None
    try:
        config = load_config(path, discover=False)
    except AscendCompileError as exc:
        report_and_exit(exc.findings, "text", stream=sys.stderr)
    named = [key for key, value in (("profileDirs", config.profile_dirs), ("lint.baseline", config.lint.baseline),
                                    ("cluster.snapshot", config.cluster.snapshot)) if value]
    if named:
        raise click.UsageError(f"--config: {path} names files beside it ({', '.join(named)}), which the webhook's "
                               "ConfigMap does not carry; remove those keys from the config you give the webhook "
                               "(it reads the cluster's inventory live)")
    return text, tuple(config.pod_templates)
