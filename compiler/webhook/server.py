"""The HTTPS server: ``POST /validate``, ``GET /healthz``, ``/readyz`` and ``/metrics``; stdlib only.

:class:`WebhookServer` binds at once (so its port is known), serves from a thread, and becomes ready when it is
given its :class:`~.judge.Judge` (the session built and the inventory synced).  Each connection has its own thread
(``ThreadingHTTPServer``), does its TLS handshake there (never in the accepting loop, where a slow client would
stall every other) with the certificate files read again when they change (cert-manager renews them in place),
and reads one request at a time within the deadline: a body without a length, too large or too slow is refused.
The judging runs in a small pool so that an answer is written by the deadline whatever the judging does; what it
has not finished by then is answered per the failure mode (:func:`~.judge.failed`).

On SIGTERM or SIGINT (:func:`run`): readyz answers 503, requests are still answered for the shutdown delay (the
endpoints drop the pod meanwhile), then the listener closes, the requests in flight finish (within the deadline)
and the process exits 0.
"""
from __future__ import annotations

import concurrent.futures
import os
import signal
import ssl
import threading
import time
from typing import Any, Callable, List, Optional, Tuple

from .handler import HTTPServer, Handler
from .judge import Judge, Verdict, failed
from .logs import Log
from .metrics import OTHER_KIND, Metrics
from .review import BadRequest, Request, answer, read_request
from .settings import ServeSettings

#: judgings at once: lint is CPU-bound and holds the GIL, so more threads only queue, while the deadline bounds
#: the wait of each request
JUDGES = 4


class ListenError(Exception):
    """``--listen`` or the TLS files cannot be used (exit code 2)."""


def parse_listen(text: str) -> Tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8443`` for IPv6) as (host, port)."""
    host, colon, port = text.rpartition(":")
    if not colon or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ListenError(f"--listen {text!r}: give HOST:PORT, e.g. 0.0.0.0:8443")
    return host.strip("[]") or "0.0.0.0", int(port)


class Certificates:
    """The TLS context of the certificate and key files, made again when either file changes."""

    def __init__(self, cert: str, key: str):
        self.cert, self.key = cert, key
        self._lock = threading.Lock()
        self._stamp: Tuple[float, float] = (-1.0, -1.0)
        self._context: Optional[ssl.SSLContext] = None
        self.context()  # a file that cannot be used is an error at start, not at the first request

    def context(self) -> ssl.SSLContext:
        try:
            stamp = (os.stat(self.cert).st_mtime, os.stat(self.key).st_mtime)
        except OSError as exc:
            if self._context is not None:
                return self._context  # renewed in a moment: keep serving with what was loaded
            raise ListenError(f"cannot read the TLS files: {exc.strerror or exc} ({exc.filename})") from None
        with self._lock:
            if self._context is None or stamp != self._stamp:
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.minimum_version = ssl.TLSVersion.TLSv1_2
                try:
                    context.load_cert_chain(self.cert, self.key)
                except (ssl.SSLError, OSError) as exc:
                    if self._context is not None:
                        return self._context  # half-written: the next connection tries again
                    raise ListenError(f"cannot use --tls-cert {self.cert} with --tls-key {self.key}: {exc}") from None
                self._context, self._stamp = context, stamp
            return self._context


class WebhookServer:
    """The server and what its request threads share (see the module doc)."""

    def __init__(self, settings: ServeSettings, log: Optional[Log] = None, metrics: Optional[Metrics] = None):
        self.settings = settings
        self.log = log or Log(settings.log_format)
        self.metrics = metrics or Metrics()
        self.judge: Optional[Judge] = None
        self.draining = False
        self.certificates = None if settings.plain_http else Certificates(settings.tls_cert or "", settings.tls_key or "")
        self.pool = concurrent.futures.ThreadPoolExecutor(JUDGES, thread_name_prefix="judge")
        self._inflight = 0
        self._idle = threading.Condition()
        host, port = parse_listen(settings.listen)
        try:
            self.httpd = HTTPServer((host, port), Handler)
        except OSError as exc:
            raise ListenError(f"cannot listen on {settings.listen}: {exc.strerror or exc}") from None
        self.httpd.webhook = self
        self.port: int = self.httpd.server_address[1]
        self._thread: Optional[threading.Thread] = None

    @property
    def ready(self) -> bool:
        return self.judge is not None and not self.draining

    def start(self) -> None:
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="webhook-accept", daemon=True)
        self._thread.start()
        self.log.event("listening", port=self.port, tls=self.certificates is not None)

    def stop(self) -> None:
        """Close the listener, wait (within the deadline) for the requests in flight, stop the pool."""
        self.draining = True
        self.httpd.shutdown()
        self.httpd.server_close()
        end = time.monotonic() + self.settings.deadline
        with self._idle:
            while self._inflight and time.monotonic() < end:
                self._idle.wait(end - time.monotonic())
        self.pool.shutdown(wait=False, cancel_futures=True)

    def admit(self, body: bytes, started: float) -> Tuple[int, bytes]:
        """The status and body answering one ``POST /validate``."""
        try:
            request = read_request(body, self.settings.max_body_bytes)
        except BadRequest as exc:
            self.log.event("bad-request", "warning", reason=str(exc))
            return 400, (str(exc) + "\n").encode()
        verdict = self._verdict(request, started)
        judge = self.judge
        kind = request.kind if judge is not None and judge.reads(request.obj) and request.kind else OTHER_KIND
        seconds = time.monotonic() - started
        self.metrics.record(kind, verdict.result, verdict.refused, seconds)
        if not request.dry_run:  # a dry run records nothing but the metrics
            self._log(request, verdict, seconds)
        return 200, answer(request.uid, verdict.allowed, verdict.message, verdict.warnings)

    def _verdict(self, request: Request, started: float) -> Verdict:
        judge = self.judge
        if judge is None:
            return failed(self.settings, "not ready: the session or the inventory is not built yet")
        future = self.pool.submit(judge.judge, request)
        try:
            return future.result(timeout=max(0.0, self.settings.deadline - (time.monotonic() - started)))
        except concurrent.futures.TimeoutError:
            future.cancel()
            return failed(self.settings, f"no answer within {self.settings.deadline:g} s")
        except Exception as exc:  # noqa: BLE001 - our bug: answered per the failure mode, logged without values
            self.log.event("internal-error", "error", uid=request.uid, error=type(exc).__name__,
                           where=_where(exc))
            return failed(self.settings, f"internal error {type(exc).__name__}")

    def _log(self, request: Request, verdict: Verdict, seconds: float) -> None:
        fields = dict(uid=request.uid, kind=request.kind, namespace=request.namespace, name=request.name,
                      operation=request.operation, allowed=verdict.allowed, result=verdict.result,
                      rules=list(verdict.rules), ms=round(seconds * 1000, 1))
        if verdict.error:
            fields["error"] = verdict.error
        self.log.event("admission", "info" if verdict.result != "error" else "warning", **fields)

    def enter(self) -> None:
        with self._idle:
            self._inflight += 1

    def leave(self) -> None:
        with self._idle:
            self._inflight -= 1
            self._idle.notify_all()


def _where(exc: BaseException) -> str:
    """Where an exception was raised, as module:line frames (never its message, which may quote a value)."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)[-4:]
    return " < ".join(f"{os.path.basename(frame.filename)}:{frame.lineno}" for frame in reversed(frames))


def run(settings: ServeSettings, prepare: Callable[[WebhookServer], Judge], log: Log) -> int:
    """Serve until SIGTERM or SIGINT (see the module doc): listen, then ``prepare(server)`` (in a thread: build the
    session, sync the inventory; what it raises ends the run and is raised here once the server stopped), ready.
    A second signal skips what is left of the shutdown delay.  0 when stopped by a signal."""
    server = WebhookServer(settings, log)
    stopping, hurry = threading.Event(), threading.Event()

    def on_signal(number: int, _frame: Any) -> None:
        (hurry if stopping.is_set() else stopping).set()

    previous = {number: signal.signal(number, on_signal) for number in (signal.SIGTERM, signal.SIGINT)}
    failure: List[BaseException] = []

    def start_up() -> None:
        try:
            server.judge = prepare(server)
            log.event("ready")
        except BaseException as exc:  # noqa: BLE001 - raised again in the main thread
            failure.append(exc)
            stopping.set()

    try:
        server.start()
        threading.Thread(target=start_up, name="webhook-start", daemon=True).start()
        while not stopping.wait(0.5):
            pass
        server.draining = True
        if not failure:
            log.event("shutting-down", delay=settings.shutdown_delay)
            hurry.wait(settings.shutdown_delay)
        server.stop()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if failure:
        raise failure[0]
    log.event("stopped")
    return 0
