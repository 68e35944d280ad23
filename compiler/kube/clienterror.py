"""What the official Python client's failures become: one :class:`ClusterError` (an AscendCompileError with one AC017
finding), whether the API server refused a request or could not be reached."""
from __future__ import annotations

import json
from typing import Any, Dict, Optional

from ..catalogue import CLUSTER_ERROR
from ..errors import AscendCompileError
from ..findings import ERROR, Finding

__all__ = ["ClusterError", "error_from"]


class ClusterError(AscendCompileError):
    """The API server refused a request, or could not be reached: an AscendCompileError whose one finding (AC017)
    says what was being done, the server's message and a hint.  ``message`` is the server's own message (of its
    Status reply); ``status`` the HTTP status (None when the server was not reached); ``reason`` the Status
    reason (``NotFound``, ``AlreadyExists``, ``Invalid``, ``Forbidden``...); ``operation`` what was being done."""

    def __init__(self, message: str, *, status: Optional[int] = None, reason: str = "", operation: str = "",
                 body: Optional[Dict[str, Any]] = None):
        self.message = message
        self.status = status
        self.reason = reason
        self.operation = operation
        self.body: Dict[str, Any] = body or {}
        super().__init__([Finding(CLUSTER_ERROR, ERROR, f"{operation}: {message}" if operation else message,
                                  hint=_cluster_hint(status, reason), file="<cluster>")])

    @property
    def not_found(self) -> bool:
        return self.status == 404

    @property
    def already_exists(self) -> bool:
        return self.status == 409 and self.reason == "AlreadyExists"


def _cluster_hint(status: Optional[int], reason: str) -> str:
    """What to do about a refusal, by the server's status (the message itself names the object)."""
    if status is None:
        return ("check that the kubeconfig (and its context) names an API server that answers, or give a larger "
                "request_timeout")
    if status in (401, 403):
        return "give the kubeconfig's user the rights (RBAC) this request needs"
    if status == 404:
        return "check the name, kind and namespace (ensure_namespace creates a missing namespace)"
    if status == 409 and reason == "AlreadyExists":
        return "delete the existing object first, or give the job another name"
    if status == 422:
        return "correct the field the server's message names (lint_manifests finds most such mistakes first)"
    return ""

def error_from(exc: BaseException, operation: str) -> ClusterError:
    """One ClusterError for whatever the client raised."""
    status = getattr(exc, "status", None)
    body_text = getattr(exc, "body", None)
    if isinstance(status, int) and status > 0:  # an ApiException: the server answered
        body: Dict[str, Any] = {}
        if isinstance(body_text, (bytes, bytearray)):
            body_text = body_text.decode("utf-8", "replace")
        if isinstance(body_text, str) and body_text.strip():
            try:
                parsed = json.loads(body_text)
                body = parsed if isinstance(parsed, dict) else {}
            except ValueError:
                body = {}
        message = str(body.get("message") or (body_text if isinstance(body_text, str) and body_text.strip()
                                              else "") or getattr(exc, "reason", "") or f"HTTP {status}").strip()
        reason = str(body.get("reason") or getattr(exc, "reason", "") or "")
        return ClusterError(message, status=status, reason=reason, operation=operation, body=body)
    # not an answer from the server: connection refused, TLS, timeouts, bad kubeconfig
    detail = getattr(exc, "reason", None) or exc
    return ClusterError(f"cannot reach the API server: {detail}", operation=operation)
