"""The webhook over HTTPS, as the API server calls it: a self-signed certificate made here with openssl, an
AdmissionReview answered over TLS, the certificate files read again when they are renewed, and a client that
never finishes its handshake stalling nobody else."""
from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path
from typing import Iterator, Tuple

import pytest

from tests.webhook.helpers import Running, golden_job, review, serving, with_npus

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None,
                                reason="openssl is not installed: no certificate can be made for the TLS test")


def _certificate(folder: Path, name: str) -> Tuple[Path, Path]:
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", f"/CN={name}", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture()
def tls(tmp_path: Path) -> Iterator[Tuple[Running, Path]]:
    cert, key = _certificate(tmp_path, "first")
    live_cert, live_key = tmp_path / "tls.crt", tmp_path / "tls.key"
    shutil.copy(cert, live_cert)
    shutil.copy(key, live_key)
    settings = Running.plain_settings(plain_http=False, tls_cert=str(live_cert), tls_key=str(live_key), deadline=3.0)
    yield from ((running, tmp_path) for running in serving(settings, context=_trusting(cert)))


def _trusting(cert: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False  # the certificate names the address (subjectAltName), checked by its chain
    return context


def test_an_admission_review_is_answered_over_https(tls: Tuple[Running, Path]) -> None:
    running, _ = tls
    status, answer = running.post(review(with_npus(golden_job(), {"Master": 16, "Worker": 16})))
    assert status == 200 and answer["allowed"] is False and answer["status"]["message"].startswith("AC301 at ")
    assert running.request("GET", "/readyz")[0] == 200


def test_plain_http_is_not_answered_on_the_tls_port(tls: Tuple[Running, Path]) -> None:
    running, _ = tls
    with socket.create_connection(("127.0.0.1", running.server.port), timeout=10) as raw:
        raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            said = raw.recv(1024)
        except ConnectionResetError:
            said = b""
        assert b"200" not in said
    assert "connection-error" in running.log


def test_a_renewed_certificate_is_served_to_the_next_connection(tls: Tuple[Running, Path]) -> None:
    running, folder = tls
    renewed, renewed_key = _certificate(folder, "second")
    shutil.copy(renewed_key, folder / "tls.key")
    shutil.copy(renewed, folder / "tls.crt")
    running.context = _trusting(renewed)
    status, answer = running.post(review(golden_job()))
    assert status == 200 and answer["allowed"] is True


def test_a_client_that_never_finishes_its_handshake_stalls_no_other(tls: Tuple[Running, Path]) -> None:
    running, _ = tls
    with socket.create_connection(("127.0.0.1", running.server.port), timeout=10):
        started = time.monotonic()
        status, answer = running.post(review(golden_job()))  # while the silent connection waits
        assert status == 200 and answer["allowed"] is True
        assert time.monotonic() - started < 1.5  # not after the silent one's handshake timed out (3 s)
