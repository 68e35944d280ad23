"""One connection to the webhook: its TLS handshake, its requests read within the limits, the answers written.

The server (:class:`~.server.WebhookServer`) is ``self.server.webhook``: its settings, its certificates, whether it
is ready, and :meth:`~.server.WebhookServer.admit`, which answers a review.  Nothing here prints a traceback or
echoes a body: a failure is a short reason to the client and an event in the log.
"""
from __future__ import annotations

import socket
import ssl
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional

#: seconds an idle kept-alive connection stays open
IDLE_SECONDS = 60.0
_TEXT = "text/plain; charset=utf-8"


class HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    #: the :class:`~.server.WebhookServer` this serves
    webhook: Any

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed (a reset, a refused handshake) is logged by its kind, never printed whole."""
        import sys

        exc = sys.exc_info()[1]
        self.webhook.log.event("connection-error", "warning", error=type(exc).__name__ if exc else "unknown")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # the API server keeps its connections: no handshake per request
    server_version = "ascend-compile-webhook"
    sys_version = ""
    server: HTTPServer

    def setup(self) -> None:
        hook = self.server.webhook
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # an answer's headers and body go at once
        if hook.certificates is not None:
            self.request.settimeout(hook.settings.deadline)
            wrapped = hook.certificates.context().wrap_socket(self.request, server_side=True,
                                                              do_handshake_on_connect=False)
            wrapped.do_handshake()  # here, in this connection's thread, within the deadline
            self.request = wrapped
        super().setup()

    def handle_one_request(self) -> None:
        self.connection.settimeout(IDLE_SECONDS)  # waiting for the next request of a kept-alive connection
        try:
            super().handle_one_request()
        except (socket.timeout, ssl.SSLError, ConnectionError):
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
        """http.server's own access log is off: the admissions are logged as events."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        hook = self.server.webhook
        if self.path == "/healthz":
            self._reply(200, b"ok\n", _TEXT)
        elif self.path == "/readyz":
            ready = hook.ready
            self._reply(200 if ready else 503, b"ready\n" if ready else b"not ready\n", _TEXT)
        elif self.path == "/metrics":
            self._reply(200, hook.metrics.render().encode(), "text/plain; version=0.0.4; charset=utf-8")
        else:
            self._reply(404, b"not found\n", _TEXT)

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        hook = self.server.webhook
        started = time.monotonic()
        if self.path.partition("?")[0] != "/validate":
            self._reply(404, b"not found\n", _TEXT, close=True)
            return
        hook.enter()  # in flight from the first byte of its body to the last of its answer: a shutdown waits
        try:
            body, problem = self._body(hook.settings.max_body_bytes, started + hook.settings.deadline)
            if body is None:
                hook.log.event("bad-request", "warning", reason=problem)
                self._reply(400, (problem + "\n").encode(), _TEXT, close=True)  # the rest of the body is not read
                return
            status, answer = hook.admit(body, started)
            self._reply(status, answer, "application/json" if status == 200 else _TEXT)
        finally:
            hook.leave()

    def _body(self, limit: int, deadline: float) -> "tuple[Optional[bytes], str]":
        """(the body, "") or (None, why it was not read): a length is required, at most ``limit`` bytes, all of
        it by ``deadline``."""
        if self.headers.get("Transfer-Encoding"):
            return None, "send the body with a Content-Length, not chunked"
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            return None, "a Content-Length is required"
        if int(length) > limit:
            return None, f"the body is larger than the {limit} byte limit (--max-body-bytes)"
        chunks, left = [], int(length)
        while left:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None, "the body did not arrive within the deadline"
            self.connection.settimeout(remaining)
            try:
                chunk = self.rfile.read1(min(left, 65536))
            except (socket.timeout, ssl.SSLError, ConnectionError):
                return None, "the body did not arrive within the deadline"
            if not chunk:
                return None, "the connection closed before the whole body arrived"
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), ""

    def _reply(self, status: int, body: bytes, content_type: str, close: bool = False) -> None:
        if close:
            self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
