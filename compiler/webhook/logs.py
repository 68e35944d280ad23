"""The webhook's log: one line per event on stderr, a JSON object (``--log-format json``) or ``key=value`` text.

A line holds the time, the level, the event and the fields the caller gives: for an admission its uid, kind,
namespace, name, whether it was allowed, the rule IDs and the milliseconds it took.  Never an object's body, an
env value, an annotation's value or a finding's message (a message may quote a value): the callers give none, and
every text field is cut to a name's length and made printable.
"""
from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any, Optional, TextIO

#: the longest text field logged (Kubernetes' names are at most 253 characters)
MAX_FIELD = 253


class Log:
    def __init__(self, fmt: str = "json", stream: Optional[TextIO] = None):
        self.fmt = fmt
        self.stream = stream
        self._lock = threading.Lock()

    def event(self, event: str, level: str = "info", **fields: Any) -> None:
        from ..safeio.text import printable

        now = time.time()
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"
        record = {"time": stamp, "level": level, "event": event}
        for key, value in fields.items():
            if isinstance(value, str):
                value = printable(value[:MAX_FIELD])
            elif isinstance(value, (list, tuple)):
                value = [printable(str(item)[:MAX_FIELD]) for item in value]
            record[key] = value
        if self.fmt == "json":
            line = json.dumps(record, sort_keys=False)
        else:
            line = " ".join(f"{key}={_text(value)}" for key, value in record.items())
        with self._lock:
            stream = self.stream or sys.stderr
            stream.write(line + "\n")
            stream.flush()


def _text(value: Any) -> str:
    if isinstance(value, list):
        value = ",".join(value)
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return json.dumps(text) if (not text or " " in text or '"' in text or "=" in text) else text
