"""Every core for large inputs: files are independent, so a large run is split over forked worker processes.

``validate`` and ``lint`` share this.  Workers are forked (they start with everything the parent has
loaded, and nothing is pickled but the work and the results); where there is no fork, the caller
runs the work itself.  Below :data:`PARALLEL_MIN_FILES` a second process costs more than it saves.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterator, List, Optional, Sequence, TypeVar

#: below this many files a second process costs more than it saves
PARALLEL_MIN_FILES = 64

T = TypeVar("T")

_STATE: Any = None  # what the parent set up for its workers (inherited through fork)


def workers_for(files: int, jobs: Optional[int] = None) -> int:
    """How many processes to use for ``files`` files (``jobs`` when given)."""
    if jobs is not None:
        return max(1, jobs)
    if files < PARALLEL_MIN_FILES:
        return 1
    return max(1, min(os.cpu_count() or 1, files // (PARALLEL_MIN_FILES // 2)))


def chunks(items: Sequence[T], workers: int) -> List[List[T]]:
    """One share of ``items`` for each worker: every ``workers``-th item, so each share holds some of every kind of file.

    One message each way per worker: shares sent as many shorter runs cost the parent more (each run's
    task and results pass through the pool's threads while the workers use both cores: about 15 ms of
    the parent's CPU in a 2,000-file lint with runs of 128), and a 2,000-file lint took about 3% longer.
    Interleaving keeps the shares even (a directory lists its files by name, and names group kinds).
    """
    return [list(items[i::workers]) for i in range(workers) if items[i::workers]]


def fork_map(function: Callable[[Any, List[T]], Any], parts: Sequence[List[T]], workers: int,
             state: Any) -> Optional[Iterator[Any]]:
    """``function(state, part)`` for every part in ``workers`` forked processes, results in order.

    None when this platform cannot fork (the caller then does the work itself).
    """
    import multiprocessing

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # spawn would import everything again in every worker: not worth it
        return None
    return _run(context, function, parts, workers, state)


def _run(context: Any, function: Callable[[Any, List[T]], Any], parts: Sequence[List[T]], workers: int,
         state: Any) -> Iterator[Any]:
    global _STATE
    _STATE = (function, state)
    try:
        with context.Pool(workers) as pool:
            yield from pool.imap(_call, parts)
    finally:
        _STATE = None


def _call(part: List[Any]) -> Any:
    function, state = _STATE
    return function(state, part)
