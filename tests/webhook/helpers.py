"""What the webhook tests share: a server in a thread (plain HTTP unless told), AdmissionReviews of the golden
jobs, and a POST that returns the status and the parsed answer."""
from __future__ import annotations

import copy
import http.client
import io
import json
import ssl
from pathlib import Path
from typing import Any, Dict, Iterator, Optional, Tuple

import yaml

import tests.checkout  # noqa: F401  (imports this checkout's ascend_compile)
from ascend_compile.lint.session import open_session
from ascend_compile.webhook.judge import Judge
from ascend_compile.webhook.logs import Log
from ascend_compile.webhook.server import WebhookServer
from ascend_compile.webhook.settings import ServeSettings

ROOT = Path(__file__).resolve().parents[2]
NPU = "huawei.com/Ascend910"


def golden_job() -> Dict[str, Any]:
    """The AscendJob ``compile`` makes of examples/pytorch-module-910b-8.yaml: clean (2 pods x 8 NPUs)."""
    docs = list(yaml.safe_load_all((ROOT / "golden" / "pytorch-module-910b-8.yaml").read_text(encoding="utf-8")))
    return next(doc for doc in docs if doc["kind"] == "AscendJob")


def with_npus(job: Dict[str, Any], counts: Dict[str, int]) -> Dict[str, Any]:
    """``job`` with each named replica type's first container asking for that many NPUs."""
    out = copy.deepcopy(job)
    for replica, count in counts.items():
        resources = out["spec"]["replicaSpecs"][replica]["template"]["spec"]["containers"][0]["resources"]
        resources["requests"][NPU] = resources["limits"][NPU] = count
    return out


def review(obj: Optional[Dict[str, Any]], uid: str = "uid-1", **request: Any) -> Dict[str, Any]:
    kind = (obj or {}).get("kind", "AscendJob")
    body: Dict[str, Any] = {"uid": uid, "kind": {"group": "mindxdl.gitee.com", "version": "v1", "kind": kind},
                            "operation": "CREATE", "namespace": "training", "object": obj}
    body.update(request)
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": body}


class Running:
    """A :class:`WebhookServer` serving from a thread on 127.0.0.1 (a port of its own), its log kept."""

    def __init__(self, settings: ServeSettings, session: Any = None, inventory: Any = None, ready: bool = True,
                 context: Optional[ssl.SSLContext] = None):
        self.log_text = io.StringIO()
        self.server = WebhookServer(settings, Log(settings.log_format, self.log_text))
        self.server.start()
        self.context = context
        if ready:
            self.server.judge = Judge(session or open_session(), settings, inventory)

    @staticmethod
    def plain_settings(**settings: Any) -> ServeSettings:
        """Settings of a server on 127.0.0.1 over plain HTTP, stopped at once."""
        return ServeSettings(**{"listen": "127.0.0.1:0", "plain_http": True, "shutdown_delay": 0, **settings})

    @property
    def log(self) -> str:
        return self.log_text.getvalue()

    def connection(self) -> http.client.HTTPConnection:
        if self.context is not None:
            return http.client.HTTPSConnection("127.0.0.1", self.server.port, timeout=30, context=self.context)
        return http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)

    def request(self, method: str, path: str, body: Optional[bytes] = None,
                headers: Optional[Dict[str, str]] = None) -> Tuple[int, bytes]:
        conn = self.connection()
        try:
            conn.request(method, path, body=body, headers=headers or {})
            reply = conn.getresponse()
            return reply.status, reply.read()
        finally:
            conn.close()

    def post(self, data: Any) -> Tuple[int, Any]:
        body = data if isinstance(data, bytes) else json.dumps(data).encode()
        status, raw = self.request("POST", "/validate", body, {"Content-Type": "application/json"})
        return status, (json.loads(raw)["response"] if status == 200 else raw.decode())

    def stop(self) -> None:
        self.server.stop()


def serving(settings: Optional[ServeSettings] = None, **kwargs: Any) -> Iterator[Running]:
    """A pytest fixture body: a running server, stopped after the test."""
    running = Running(settings or Running.plain_settings(), **kwargs)
    try:
        yield running
    finally:
        running.stop()
