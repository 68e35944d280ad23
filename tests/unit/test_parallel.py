"""How a large run is split over worker processes (ascend_compile.files.parallel.chunks)."""
from __future__ import annotations

import pytest

from ascend_compile.files.parallel import chunks


@pytest.mark.parametrize("count", [0, 1, 7, 64, 2000])
@pytest.mark.parametrize("workers", [2, 3])
def test_every_item_goes_to_exactly_one_share(count, workers):
    shares = chunks(list(range(count)), workers)
    assert sorted(item for share in shares for item in share) == list(range(count))
    assert all(shares), "no worker is sent an empty share"
    assert len(shares) == min(workers, count)


def test_shares_are_even_and_interleaved():
    names = [f"ascendjob-{i:04d}.yaml" for i in range(1000)] + [f"vcjob-{i:04d}.yaml" for i in range(1000)]
    first, second = chunks(names, 2)
    assert len(first) == len(second) == 1000
    assert sum(name.startswith("vcjob") for name in first) == 500, "each share holds some of every kind of file"
