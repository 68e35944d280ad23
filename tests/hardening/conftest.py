"""Hypothesis profiles for the hardening tests: ``ci`` (default) is derandomized, so CI is deterministic.

Select another with ``HYPOTHESIS_PROFILE=dev`` (random, more examples) when hunting for bugs locally.
"""
from __future__ import annotations

import os

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the hostile-input tests do not need hypothesis
    pass
else:
    _common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                   print_blob=True)
    settings.register_profile("ci", derandomize=True, max_examples=60, database=None, **_common)
    settings.register_profile("dev", max_examples=300, **_common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
