"""The job label the scheduler plugin reads: the job's (its PodGroup's) first, then the pods' not already in it,
compared ignoring case, joined with "|" (getJobLabelFromVcJob, plugin/job.go)."""
from __future__ import annotations

import pytest

from ascend_compile.manifest.job import joined_label


def _values(*values):
    return [(("at", str(i)), v) for i, v in enumerate(values)]


@pytest.mark.parametrize("values,joined", [
    ((), None),
    (("card",), "card"),
    (("card", "card"), "card"),
    (("card", "Card"), "card"),  # the first spelling stays
    (("Card", "card"), "Card"),
    (("card", "chip"), "card|chip"),
    (("card", "chip", "CHIP", "card"), "card|chip"),
    (("true", "false"), "true|false"),
])
def test_joined_label(values, joined):
    assert joined_label(_values(*values)) == joined
