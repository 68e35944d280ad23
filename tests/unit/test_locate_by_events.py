"""A document of the fast path is located from its parse events, not a composed node tree (issue 31, low: a
finding about a 16 MB list's root composed 4 million nodes: 34 s, 2.5 GB).  The answer must be the node tree's
for every path, existing or not."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator, Tuple

from tests.checkout import ROOT, checkout_env
from ascend_compile.yamlio.parsing import load_documents
from ascend_compile.yamlio.locations import _walk


def _paths(data: Any, prefix: Tuple[Any, ...] = ()) -> Iterator[Tuple[Any, ...]]:
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
        yield prefix + ("no-such-key",)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, prefix + (index,))
        yield prefix + (len(data),)


def test_events_and_nodes_agree_on_every_path_of_every_sample() -> None:
    files = sorted((Path(ROOT) / "golden").glob("*.yaml")) + sorted((Path(ROOT) / "examples").rglob("*.yaml"))
    checked = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            docs = load_documents(text, str(path))
        except Exception:  # noqa: BLE001 - a sample that is not YAML on purpose
            continue
        for doc in docs:
            if doc.origin is None:
                continue  # the careful path keeps its nodes
            node = doc.origin.compose()
            paths = list(_paths(doc.data))
            all_at_once = doc.origin.find_all(paths)  # every path placed in one reading of the events
            for number, where in enumerate(paths):
                found, key, depth = _walk(node, where)
                expected = ((found.start_mark.line, found.start_mark.column),
                            None if key is None else (key.start_mark.line, key.start_mark.column), depth)
                assert all_at_once[number][:3] == expected, (path, doc.index, where)
                if number % 7 == 0:  # every seventh path alone too: each reads the document again
                    assert doc.origin.find_all([where])[0][:3] == expected, (path, doc.index, where)
                checked += 1
    assert checked > 2000


def test_a_long_stream_far_down_is_located_on_the_right_line() -> None:
    text = "".join(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{n}\n" for n in range(20_000))
    docs = load_documents(text, "s.yaml")
    last = docs[-1]
    assert last.locate(("metadata", "name")).line == 5 * 19_999 + 5
    assert last.locate(("metadata", "name"), key=True).column == 3
    assert last.existing(("metadata", "nope")) == 1


_PEAK_OF_LOCATING = """
import tracemalloc
from ascend_compile.yamlio.parsing import load_documents
[doc] = load_documents("- a\\n" * 400_000, "flat.yaml")
tracemalloc.start()
assert (doc.locate(()).line, doc.locate(()).column) == (1, 1)
assert doc.locate((399_999,)).line == 400_000
print(tracemalloc.get_traced_memory()[1])
"""


def test_the_root_of_a_long_list_is_located_without_building_its_nodes() -> None:
    # in a process of its own: tracemalloc counts every thread's allocations, and the test run's background
    # thread (the session's simulated cluster, tests/simcluster/session.py) allocates while this runs
    out = subprocess.run([sys.executable, "-c", _PEAK_OF_LOCATING], env=checkout_env(), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    peak = int(out.stdout)
    assert peak < 5 * 1024 * 1024  # a node tree of 400,000 items takes over 100 MB
