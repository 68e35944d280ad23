"""The AdmissionReview a request carries, read within the reader's limits, and the AdmissionReview answered.

A body is read as a file is (:func:`ascend_compile.yamlio.reading.decode`: the size cap, no NUL, UTF-8; then
:func:`ascend_compile.yamlio.parsing.iter_documents`: the depth and alias guards, no duplicate key): JSON is YAML,
so the API server's JSON takes the same hardened path as a manifest on disk.  What cannot be read, or is not an
``admission.k8s.io/v1`` AdmissionReview with a request, is :class:`BadRequest` (HTTP 400, a short reason that
never quotes the body).

An answer names each finding by rule and field path, with its message and the rule's hint
(:func:`finding_line`); a refusal's message and each warning are cut to the sizes Kubernetes passes on.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence

from ..errors import InputError
from ..findings import Finding
from ..records import record

API_VERSION = "admission.k8s.io/v1"
KIND = "AdmissionReview"
#: the longest warning Kubernetes passes on whole (longer ones it cuts; we cut first, saying so)
MAX_WARNING_CHARS = 256
#: at most this many warnings in one answer (the API server cuts the warnings header at 4 KiB in all)
MAX_WARNINGS = 12
#: the longest refusal message: kubectl prints it whole, and it stays one screen
MAX_MESSAGE_CHARS = 4096
#: the longest uid, namespace or name read from a request (Kubernetes' names are at most 253)
_MAX_NAME = 253
_CUT = "..."


class BadRequest(Exception):
    """A body that is not an AdmissionReview this webhook can answer: HTTP 400 with ``str(self)``."""


@record(frozen=True)
class Request:
    """What one AdmissionReview asks: the object (None for a DELETE), the stored one (UPDATE) and who it is."""

    uid: str
    kind: str = ""
    group: str = ""
    operation: str = ""
    namespace: str = ""
    name: str = ""
    dry_run: bool = False
    obj: Optional[Dict[str, Any]] = None
    old: Optional[Dict[str, Any]] = None


def read_request(body: bytes, max_bytes: int) -> Request:
    """The request of an AdmissionReview body; :class:`BadRequest` for anything else."""
    from ..yamlio.parsing import iter_documents
    from ..yamlio.reading import decode

    try:
        docs = list(iter_documents(decode(body, "request body", max_bytes), "request body"))
    except InputError as exc:
        said = exc.findings[0].message if exc.findings else "cannot be read"
        raise BadRequest("the body " + said.replace("not valid YAML", "not valid JSON")) from None
    except RecursionError:
        raise BadRequest("the body nests too deeply to read") from None
    if len(docs) != 1 or not isinstance(docs[0].data, dict):
        raise BadRequest("the body is not one JSON object")
    review = docs[0].data
    if review.get("apiVersion") != API_VERSION or review.get("kind") != KIND:
        raise BadRequest(f"the body is not an {API_VERSION} {KIND}")
    request = review.get("request")
    if not isinstance(request, dict):
        raise BadRequest(f"the {KIND} has no request")
    uid = request.get("uid")
    if not isinstance(uid, str) or not uid or len(uid) > _MAX_NAME:
        raise BadRequest("request.uid is not a string of 1 to 253 characters")
    obj, old = _object(request, "object"), _object(request, "oldObject")
    kind = request.get("kind")
    kind = kind if isinstance(kind, dict) else {}
    namespace = _text(request.get("namespace"))
    if obj is not None and namespace:
        meta = obj.setdefault("metadata", {})
        if isinstance(meta, dict) and not meta.get("namespace"):
            meta["namespace"] = namespace  # the API server puts it there on create; the rules read it from the object
    return Request(uid, _text(kind.get("kind")), _text(kind.get("group")), _text(request.get("operation")),
                   namespace, _text(request.get("name")) or _name_of(obj), request.get("dryRun") is True, obj, old)


def _object(request: Dict[str, Any], key: str) -> Optional[Dict[str, Any]]:
    value = request.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRequest(f"request.{key} is not an object")
    return value


def _text(value: Any) -> str:
    return value[:_MAX_NAME] if isinstance(value, str) else ""


def _name_of(obj: Optional[Dict[str, Any]]) -> str:
    meta = obj.get("metadata") if obj is not None else None
    return _text(meta.get("name") or meta.get("generateName")) if isinstance(meta, dict) else ""


def finding_line(finding: Finding) -> str:
    """``RULE at <field path>: <message> (fix: <hint>)``, the field path ``the object`` when the finding has none."""
    where = finding.field_path or "the object"
    fix = f" (fix: {finding.hint})" if finding.hint else ""
    return f"{finding.rule} at {where}: {finding.message}{fix}"


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, ending in ``...`` when it was cut."""
    return text if len(text) <= limit else text[:limit - len(_CUT)] + _CUT


def refusal_message(findings: Sequence[Finding]) -> str:
    """One line per finding, within :data:`MAX_MESSAGE_CHARS`; the lines that do not fit are counted."""
    lines: List[str] = []
    size = 0
    for number, finding in enumerate(findings):
        line = cut(finding_line(finding), MAX_MESSAGE_CHARS // 2)
        if size + len(line) + 1 > MAX_MESSAGE_CHARS - 64:
            lines.append(f"... and {len(findings) - number} more (run ascend-compile lint on the manifest)")
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def warnings_of(findings: Sequence[Finding]) -> List[str]:
    """Each finding as one warning of at most :data:`MAX_WARNING_CHARS`, at most :data:`MAX_WARNINGS` of them."""
    shown = [cut(finding_line(finding), MAX_WARNING_CHARS) for finding in findings[:MAX_WARNINGS]]
    if len(findings) > MAX_WARNINGS:
        shown[-1] = f"... and {len(findings) - MAX_WARNINGS + 1} more findings (run ascend-compile lint on the manifest)"
    return shown


def answer(uid: str, allowed: bool, message: str = "", warnings: Sequence[str] = ()) -> bytes:
    """The AdmissionReview answering request ``uid``: allowed, or refused with ``message`` (403)."""
    response: Dict[str, Any] = {"uid": uid, "allowed": allowed}
    if not allowed:
        response["status"] = {"code": 403, "reason": "Forbidden", "message": message}
    if warnings:
        response["warnings"] = list(warnings)
    return json.dumps({"apiVersion": API_VERSION, "kind": KIND, "response": response}, sort_keys=True).encode()
