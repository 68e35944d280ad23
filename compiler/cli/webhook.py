"""``ascend-compile webhook``: the validating admission webhook (``serve``), judged as ``lint`` judges, and what to
apply to run it in a cluster (``manifests``).

``serve`` makes the session's parts once (config, profiles, release: :mod:`._session`) and hands the rest to
:mod:`ascend_compile.webhook` (the server, the watches, the judge); ``manifests`` prints the objects
(:mod:`ascend_compile.webhook.manifests`); ``docs/admission.md`` is the guide.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

import click

from ._options import table_options
from ..webhook.settings import (DEFAULT_DEADLINE, DEFAULT_MAX_BODY_BYTES, DEFAULT_SHUTDOWN_DELAY, FAILURE_MODES,
                                LOG_FORMATS, ServeSettings)
from ..webhook.manifests import (DEFAULT_NAMESPACE, DEFAULT_REPLICAS, DEFAULT_TIMEOUT, FAILURE_POLICIES, MAX_TIMEOUT,
                                 MIN_TIMEOUT, TLS_SOURCES)
from ._settings import Inputs, Judging, KubectlFlags, options_for

if TYPE_CHECKING:
    from ..podtemplates import PodTemplateKind

#: the largest --ca-bundle or --config file ``manifests`` reads (a CA bundle is a few KiB; a config a few more)
_MAX_FILE_BYTES = 1 << 20


@click.group(
    "webhook",
    epilog="""\b
Examples:
  ascend-compile webhook manifests --image registry.example.com/ascend-compile:1.4.0 > webhook.yaml
  ascend-compile webhook serve --tls-cert /tls/tls.crt --tls-key /tls/tls.key --config /etc/ascend-compile/config.yaml

\b
docs/admission.md: install, upgrade, failure modes, RBAC, what it costs.""",
)
def webhook_command() -> None:
    """A validating admission webhook that runs lint's checks on every job submitted.

    'webhook serve' answers the API server's AdmissionReviews for AscendJobs,
    Volcano Jobs, Pods and the kinds whose pod templates lint reads: an error
    refuses the object with each finding's field path and hint, a warning is
    an admission warning (kubectl prints it).
    """


@webhook_command.command(  # type: ignore[untyped-decorator, unused-ignore]  # click 8.1 types group.command loosely
    "serve",
    epilog="""\b
Examples:
  ascend-compile webhook serve --tls-cert /tls/tls.crt --tls-key /tls/tls.key
  ascend-compile webhook serve --tls-cert /tls/tls.crt --tls-key /tls/tls.key --audit --failure-mode fail
  ascend-compile webhook serve --plain-http --listen 127.0.0.1:8080 --cluster-snapshot cluster.yaml

\b
Endpoints: POST /validate (admission.k8s.io/v1 AdmissionReview), GET /healthz,
GET /readyz (503 until the session is built and the inventory synced, and
while shutting down), GET /metrics (Prometheus text).

\b
The inventory the cluster-aware rules (AC901-AC915) read is the cluster's,
listed once at start and kept current by watches (through the service
account's RBAC: nodes, pods, queues, Deployments, PriorityClasses,
HyperNodes, namespaces, PVCs and ConfigMaps; never Secrets), a snapshot
(--cluster-snapshot), or none (--no-inventory).

\b
Logs: one JSON object per line on stderr, naming rules and field paths only:
never an object's body, an env value or a finding's message.  SIGTERM or
SIGINT: readyz answers 503, then the server stops after the requests in
flight, and exits 0.

\b
Exit codes: 0 stopped by a signal; 2 usage or input error (a config, a
profile, a snapshot, the TLS files, the address); 4 the cluster could not be
read at start.""",
)
@click.option("--listen", metavar="HOST:PORT", default="0.0.0.0:8443", show_default=True,
              help="Where to listen.")
@click.option("--tls-cert", type=click.Path(dir_okay=False), metavar="FILE", default=None,
              help="The server's TLS certificate (PEM; read again when it changes).")
@click.option("--tls-key", type=click.Path(dir_okay=False), metavar="FILE", default=None,
              help="The certificate's private key (PEM).")
@click.option("--plain-http", is_flag=True, default=False,
              help="Serve plain HTTP, without TLS: for tests only (the API server calls webhooks over HTTPS).")
@click.option("--audit", is_flag=True, default=False,
              help="Never refuse: what would refuse is answered as a warning.")
@click.option("--failure-mode", type=click.Choice(FAILURE_MODES), default=FAILURE_MODES[0], show_default=True,
              help="What an object that cannot be checked in time (or our own error) gets: ignore admits it (as "
                   "failurePolicy Ignore does when the webhook is down), fail refuses it.")
@click.option("--no-inventory", is_flag=True, default=False,
              help="Judge without the cluster's inventory (the cluster-aware rules say nothing).")
@click.option("--max-body-bytes", type=click.IntRange(min=1024), default=DEFAULT_MAX_BODY_BYTES, show_default=True,
              help="Refuse (HTTP 400) a request body larger than this.")
@click.option("--deadline", type=click.FloatRange(min=0.1, max=29.0), default=DEFAULT_DEADLINE, show_default=True,
              metavar="SECONDS", help="Answer every request within this time (keep it under the webhook's "
                                      "timeoutSeconds); what is not judged by then gets --failure-mode's answer.")
@click.option("--shutdown-delay", type=click.FloatRange(min=0.0, max=60.0), default=DEFAULT_SHUTDOWN_DELAY, show_default=True,
              metavar="SECONDS", help="After SIGTERM, answer 503 on /readyz but keep serving this long, so the "
                                      "endpoints drop the pod first.")
@click.option("--log-format", type=click.Choice(LOG_FORMATS), default=LOG_FORMATS[0], show_default=True,
              help="One JSON object per line, or key=value text.")
@table_options("webhook serve")
def serve(**params: Any) -> None:
    """Serve the validating admission webhook (HTTPS)."""
    from ..errors import AscendCompileError
    from ..findings import EXIT_INPUT, exit_code
    from ..inventory.replies import ClusterDataError
    from ..kube.clienterror import ClusterError
    from ..kube.kubectl import EXIT_UNREACHABLE
    from ..webhook.logs import Log
    from ..webhook.server import ListenError, run
    from ..webhook.startup import preparer
    from ._cluster import fail
    from ._session import Usage, load_profiles, run_target

    settings = options_for(ServeSettings, params)
    inputs, judging, kube = options_for(Inputs, params), options_for(Judging, params), options_for(KubectlFlags, params)
    if not settings.plain_http and not (settings.tls_cert and settings.tls_key):
        raise click.UsageError("give --tls-cert and --tls-key (the API server calls webhooks over HTTPS), or "
                               "--plain-http in tests")
    if settings.no_inventory and judging.cluster_snapshot:
        raise click.UsageError("--no-inventory and --cluster-snapshot: give one")
    config, registry = load_profiles(inputs)
    try:
        run_target(judging, config)  # a release or device stack we do not know: a usage error before listening
    except Usage as exc:
        raise click.UsageError(str(exc)) from None

    def session_for(inventory: Any) -> Any:
        from ..lint.session import open_session

        return open_session(config, registry, inventory=inventory, target=run_target(judging, config, inventory))

    log = Log(settings.log_format)
    prepare = preparer(settings, session_for, log, snapshot=judging.cluster_snapshot, kubeconfig=kube.kubeconfig,
                       context=kube.context)
    try:
        sys.exit(run(settings, prepare, log))
    except ListenError as exc:
        fail(str(exc), EXIT_INPUT)
    except ImportError as exc:  # the kubernetes client (the k8s extra), to watch the cluster
        fail(str(exc), EXIT_INPUT)
    except AscendCompileError as exc:
        finding = exc.findings[0]
        cluster = isinstance(exc, (ClusterError, ClusterDataError))
        fail(f"{finding.file + ': ' if finding.file else ''}{finding.message}",
             EXIT_UNREACHABLE if cluster else exit_code(exc.findings) or EXIT_INPUT)


@webhook_command.command(  # type: ignore[untyped-decorator, unused-ignore]  # click 8.1 types group.command loosely
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
@click.option("--profile-dir", "profile_dirs", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Your hardware profiles (repeatable), checked here and carried in a ConfigMap the webhook reads.")
def manifests(image: str, namespace: str, failure_policy: str, timeout_seconds: int, audit: bool, tls: str,
              ca_bundle: Optional[str], namespace_selector: Tuple[str, ...], replicas: int,
              config_path: Optional[str], profile_dirs: Tuple[str, ...]) -> None:
    """Print what to apply to run the admission webhook in a cluster (a YAML stream)."""
    from ..webhook.manifests import Options, problems, render

    config_text, config_kinds = _config(config_path)
    options = Options(image=image, namespace=namespace, failure_policy=failure_policy,
                      timeout_seconds=timeout_seconds, audit=audit, tls=tls,
                      ca_bundle=_read("--ca-bundle", ca_bundle) if ca_bundle else b"",
                      namespace_selector=tuple(_label(text) for text in namespace_selector), replicas=replicas,
                      config_text=config_text, config_kinds=config_kinds, profiles=_profiles(profile_dirs))
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
                               "(it reads the cluster's inventory live; give profile folders with --profile-dir)")
    return text, tuple(config.pod_templates)


def _profiles(folders: Tuple[str, ...]) -> Tuple[Tuple[str, str], ...]:
    """(file name, text) of each profile in ``folders``, checked as ``lint --profile-dir`` checks them (a bad
    profile is reported at its line, exit code 2); one file name twice is a usage error (one ConfigMap holds them)."""
    if not folders:
        return ()
    from ..errors import AscendCompileError
    from ..hardware.profiles import ProfileRegistry
    from ._session import report_and_exit

    registry = ProfileRegistry(list(folders))
    try:
        registry.check()
    except AscendCompileError as exc:
        report_and_exit(exc.findings, "text", stream=sys.stderr)
    builtin = len(ProfileRegistry().files())
    seen: Dict[str, str] = {}
    for path in registry.files()[builtin:]:
        name = os.path.basename(path)
        if name in seen:
            raise click.UsageError(f"--profile-dir: {name} is in {seen[name]} and beside {path}; the webhook's "
                                   "ConfigMap holds one file of each name: rename one")
        seen[name] = path
    return tuple((name, _read("--profile-dir", path).decode("utf-8", "replace")) for name, path in sorted(seen.items()))
