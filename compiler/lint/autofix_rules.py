"""What ``lint --fix`` does for each rule it can fix; each fix is an edit at one node of the finding's object.

* AC102 (wrong-type) on a plain scalar where the schema wants a string (``value: 600``, a label
  ``version: 1.10``): the text as written, double-quoted, so the string is exactly what the user typed
  (``"1.10"``, not the float's ``1.1``).
* AC701 (npu-requests-limits), an NPU requested with no limit: the limit, the request's value as written
  (Kubernetes requires both, equal).  Differing values are left alone: which of the two was meant is not
  mechanical.
* AC213 (ascendjob-port), a leader's ``ascend`` container declaring ports, none ``ascendjob-port``: that
  port with 2222 added, which is what the operator's defaulting adds anyway, so the job runs as before and
  the file says so.  Left alone when a declared port already uses 2222 (AC217 reports that leader instead:
  renaming that port is the fix).
* AC601 (visible-devices), ``ASCEND_VISIBLE_DEVICES`` reading another resource's annotation: the annotation
  of the resource the container requests (the rule names it).
* AC215 (ring-controller-label), a Volcano Job mounting a ranktable ConfigMap without the label: the label
  on the job, with the value every hardware profile the job could land on uses (the rule names it; with
  no single value there is no fix).
"""
from __future__ import annotations

import bisect
import json
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import yaml

from . import yamledit
from ..findings import FIX_VALUE, Finding, Path
from ..records import NamedTuple
from ..vocabulary import DEFAULT_PORT, PORT_NAME, RING_LABEL
from ..yamlio.locations import child


class Change(NamedTuple):
    """What a fix does to the data: in document ``doc``, the field at ``path`` becomes ``value`` (a missing
    mapping on the way is created; a list index one past the end appends)."""

    doc: int
    path: Path
    value: Any


class Fix:
    """Replace ``text[start:end]`` by ``text`` (an insertion when start == end), for ``finding``."""

    def __init__(self, finding: Finding, start: int, end: int, text: str, description: str, change: Change):
        self.finding, self.start, self.end, self.text = finding, start, end, text
        self.description, self.change = description, change


_SCALAR_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                "tag:yaml.org,2002:null")
_WANTS_STRING = "expected a string"


def _locate(finding: Finding, docs: Sequence[Any]) -> Optional[Tuple[int, Any]]:
    """The document and the node of the finding: the one at the finding's line and column (value or key)."""
    where = (finding.line, finding.column)
    for index in _around(docs, finding.line - 1):
        if finding.path:
            node, key = child(yamledit.walk(docs[index], finding.path[:-1]), finding.path[-1])
        else:
            node, key = docs[index], None
        if any(n is not None and (n.start_mark.line + 1, n.start_mark.column + 1) == where for n in (node, key)):
            return index, node
    return None


def _around(docs: Sequence[Any], line: int) -> List[int]:
    """The indices of the documents whose text spans ``line`` (0-based), in order: found by halving, as a
    stream of thousands of documents with a finding each cost documents x findings."""
    last = bisect.bisect_right(docs, line, key=lambda doc: int(doc.start_mark.line)) - 1
    first = last
    while first > 0 and docs[first - 1].end_mark.line >= line:  # documents end in order, as they start
        first -= 1
    return list(range(first, last + 1)) if last >= 0 else []


def _value(finding: Finding) -> Optional[str]:
    return dict(finding.extra).get(FIX_VALUE)


def _wrong_type(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    found = _locate(finding, docs) if _WANTS_STRING in finding.message and finding.path else None
    if found is None:
        return None
    doc, node = found
    as_written = yamledit.written(text, node)
    if as_written is None or node.style not in (None, "") or node.tag not in _SCALAR_TAGS:
        return None
    quoted = json.dumps(as_written)
    return Fix(finding, node.start_mark.index, node.end_mark.index, quoted,
               f"quote the value as a string: {quoted}", Change(doc, finding.path, as_written))


def _npu_limit(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    found = _locate(finding, docs) if finding.path[-2:-1] == ("requests",) else None
    if found is None:
        return None
    doc, node = found
    name, resources_path = finding.path[-1], finding.path[:-2]
    resources = yamledit.walk(docs[doc], resources_path)
    requests = child(resources, "requests")[0]
    amount, key = yamledit.written(text, node), yamledit.written(text, child(requests, name)[1])
    if amount is None or key is None:
        return None
    limits, limits_key = child(resources, "limits")
    if limits is None and limits_key is None:
        edit = yamledit.insert_entry(text, resources, "limits", [(key, amount)], flow_value=requests.flow_style)
    else:
        edit = yamledit.insert_entry(text, limits, key, amount)
    if edit is None:
        return None
    return Fix(finding, edit.start, edit.end, edit.text, f"add the limit {key}: {amount}, equal to the request",
               Change(doc, resources_path + ("limits", name), yaml.safe_load(amount)))


def _port(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    found = _locate(finding, docs)
    if found is None or not isinstance(found[1], yaml.SequenceNode):
        return None
    doc, ports = found
    if any(isinstance(port, yaml.MappingNode) and getattr(child(port, "containerPort")[0], "value", None)
           == str(DEFAULT_PORT) for port in ports.value):
        return None  # a port already uses it: renaming that one is the fix, not mechanical
    edit = yamledit.append_item(text, ports, [("name", PORT_NAME), ("containerPort", str(DEFAULT_PORT))])
    if edit is None:
        return None
    return Fix(finding, edit.start, edit.end, edit.text,
               f"declare the port the operator adds anyway: {PORT_NAME} {DEFAULT_PORT}",
               Change(doc, finding.path + (len(ports.value),), {"name": PORT_NAME, "containerPort": DEFAULT_PORT}))


def _visible_devices(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    wanted, found = _value(finding), _locate(finding, docs)
    if wanted is None or found is None:
        return None
    doc, node = found
    if yamledit.written(text, node) is None:
        return None
    # in the quoting it was written in (the new value differs only in a resource name)
    new = {'"': json.dumps(wanted), "'": "'" + wanted.replace("'", "''") + "'"}.get(node.style or "", wanted)
    return Fix(finding, node.start_mark.index, node.end_mark.index, new,
               f"read the annotation of the requested resource: {wanted}", Change(doc, finding.path, wanted))


def _ring_label(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    wanted, found = _value(finding), _locate(finding, docs)
    if wanted is None or found is None or "spec" not in finding.path:
        return None
    doc = found[0]
    job_path = finding.path[:finding.path.index("spec")]
    metadata = yamledit.walk(docs[doc], job_path + ("metadata",))
    labels, labels_key = child(metadata, "labels")
    if labels is None and labels_key is None:
        edit = yamledit.insert_entry(text, metadata, "labels", [(RING_LABEL, wanted)])
    else:
        edit = yamledit.insert_entry(text, labels, RING_LABEL, wanted)
    if edit is None:
        return None
    return Fix(finding, edit.start, edit.end, edit.text, f"label the job {RING_LABEL}: {wanted}",
               Change(doc, job_path + ("metadata", "labels", RING_LABEL), wanted))


#: rule ID -> its fixer: (finding, the file's text, its composed documents) -> the fix, or None
FIXERS: Dict[str, Callable[[Finding, str, Sequence[Any]], Optional[Fix]]] = {
    "AC102": _wrong_type, "AC701": _npu_limit, "AC213": _port, "AC601": _visible_devices, "AC215": _ring_label,
}
