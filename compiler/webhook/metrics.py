"""The webhook's metrics, in Prometheus' text format (``GET /metrics``): counters and one latency histogram.

``ascend_compile_admissions_total{kind,result}``: requests answered, by the object's kind (a kind the linter does
not read is ``other``, so a hostile request cannot grow the label set) and result (allowed, denied, warned, error);
``ascend_compile_denials_total{rule}``: refusals by rule ID (a bounded set: the catalogue's);
``ascend_compile_admission_seconds``: the time from a request's first byte read to its answer written.
"""
from __future__ import annotations

import threading
from typing import Dict, Iterable, List, Tuple

#: the histogram's upper bounds, in seconds (the webhook's timeout is 10 s at most 30)
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
OTHER_KIND = "other"


class Metrics:
    """Thread-safe counters; :meth:`render` is the ``/metrics`` page."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.admissions: Dict[Tuple[str, str], int] = {}
        self.denials: Dict[str, int] = {}
        self.bucket_counts = [0] * len(BUCKETS)
        self.count = 0
        self.total_seconds = 0.0

    def record(self, kind: str, result: str, refused: Iterable[str], seconds: float) -> None:
        with self._lock:
            self.admissions[(kind, result)] = self.admissions.get((kind, result), 0) + 1
            for rule in refused:
                self.denials[rule] = self.denials.get(rule, 0) + 1
            for number, bound in enumerate(BUCKETS):
                if seconds <= bound:
                    self.bucket_counts[number] += 1
            self.count += 1
            self.total_seconds += seconds

    def render(self) -> str:
        with self._lock:
            lines: List[str] = [
                "# HELP ascend_compile_admissions_total Admission requests answered, by object kind and result.",
                "# TYPE ascend_compile_admissions_total counter"]
            lines += [f'ascend_compile_admissions_total{{kind="{kind}",result="{result}"}} {count}'
                      for (kind, result), count in sorted(self.admissions.items())]
            lines += ["# HELP ascend_compile_denials_total Admissions refused, counted once for each rule that refused them.",
                      "# TYPE ascend_compile_denials_total counter"]
            lines += [f'ascend_compile_denials_total{{rule="{rule}"}} {count}'
                      for rule, count in sorted(self.denials.items())]
            lines += ["# HELP ascend_compile_admission_seconds Time to answer an admission request.",
                      "# TYPE ascend_compile_admission_seconds histogram"]
            lines += [f'ascend_compile_admission_seconds_bucket{{le="{bound}"}} {count}'
                      for bound, count in zip(BUCKETS, self.bucket_counts)]
            lines += [f'ascend_compile_admission_seconds_bucket{{le="+Inf"}} {self.count}',
                      f"ascend_compile_admission_seconds_sum {self.total_seconds:.6f}",
                      f"ascend_compile_admission_seconds_count {self.count}"]
        return "\n".join(lines) + "\n"
