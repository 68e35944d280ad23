"""What ``webhook serve`` is told beyond the lint session's options: where it listens, how it answers, its limits.

One record, made by the command line from its parameters (:func:`ascend_compile.cli._settings.options_for`) and
read by the server (:mod:`.server`), the judge (:mod:`.judge`) and the request reader (:mod:`.review`).
"""
from __future__ import annotations

from typing import Optional

from ..records import record

#: the largest request body read: 3 MiB.  An object is at most etcd's 1.5 MiB by default and the AdmissionReview of an
#: UPDATE carries it twice (the object and the stored one); the API server's own limit on what it is sent is larger
#: (3 MB per write by default), so a larger review can come: it is answered 400, and the
#: webhook's failurePolicy decides (raise it with --max-body-bytes where the cluster stores larger objects)
DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024
#: seconds within which every request is answered: under the default timeoutSeconds (10) of the webhook, with
#: room for the network and the TLS handshake
DEFAULT_DEADLINE = 8.0
#: seconds between SIGTERM and closing the listener: readyz answers 503 meanwhile, so the endpoints drop the pod
#: while it still answers the requests already on their way
DEFAULT_SHUTDOWN_DELAY = 3.0
FAILURE_MODES = ("ignore", "fail")
LOG_FORMATS = ("json", "text")


@record(frozen=True)
class ServeSettings:
    """``webhook serve``'s own options (the lint session's come from the shared option table)."""

    listen: str = "0.0.0.0:8443"
    tls_cert: Optional[str] = None
    tls_key: Optional[str] = None
    plain_http: bool = False
    #: never deny: what would refuse becomes a warning
    audit: bool = False
    #: what an internal error (or a judgement past the deadline) answers: ignore admits, fail refuses
    failure_mode: str = "ignore"
    #: judge without a cluster inventory (the cluster-aware rules say nothing)
    no_inventory: bool = False
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    log_format: str = "json"
    deadline: float = DEFAULT_DEADLINE
    shutdown_delay: float = DEFAULT_SHUTDOWN_DELAY
