"""The API server's Go module and Volcano's agree on every module both use (tests/integration/apiserver/go.mod).

Go's build cache keys a compiled package by its module's path and version (the replacement too), so a
package that the API server and Volcano's programs both import is compiled once only when both builds
select the same version of its module and of every module below it.  That is what makes a cold build of
the simulated cluster's programs minutes shorter; these tests keep it so when either side changes.
"""
from __future__ import annotations

import re
import tarfile
from pathlib import Path
from typing import Dict, Tuple

import pytest

from tests.integration import controlplane
from tests.simcluster import sources

Requirements = Dict[str, str]
Replacements = Dict[str, str]

_DIRECTIVE = re.compile(r"^(require|replace)\s*(\()?\s*(.*)$")


def parse_go_mod(text: str) -> Tuple[Requirements, Replacements]:
    """A go.mod's require and replace directives (single-line and block forms): module -> version, and
    module -> "replacement version" (the target as written)."""
    required: Requirements = {}
    replaced: Replacements = {}
    block = None
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if block is not None:
            if line == ")":
                block = None
                continue
            entry = line
            kind = block
        else:
            match = _DIRECTIVE.match(line)
            if match is None:
                continue
            kind, opens, entry = match.groups()
            if opens:
                block = kind
                continue
        if kind == "require":
            module, version = entry.split()[:2]
            required[module] = version
        else:
            left, right = (part.split() for part in entry.split("=>"))
            replaced[left[0]] = " ".join(right)
    return required, replaced


def test_parse_go_mod_reads_both_forms():
    required, replaced = parse_go_mod(
        "module m\n\ngo 1.23\n\nrequire a.io/x v1.0.0\nrequire (\n\tb.io/y v0.2.0 // indirect\n)\n"
        "replace c.io/z => c.io/z v0.1.0\nreplace (\n\tb.io/y => b.io/y v0.1.0\n)\n")
    assert required == {"a.io/x": "v1.0.0", "b.io/y": "v0.2.0"}
    assert replaced == {"c.io/z": "c.io/z v0.1.0", "b.io/y": "b.io/y v0.1.0"}


@pytest.fixture(scope="module")
def volcano_go_mod() -> Tuple[Requirements, Replacements]:
    reason = sources.missing_reason()
    if reason:
        pytest.skip(reason)
    archive = sources.ARCHIVES["volcano"]
    with tarfile.open(archive.path, "r:gz") as tar:
        member = tar.extractfile(f"{archive.top}/go.mod")
        assert member is not None, f"{archive.path} has no {archive.top}/go.mod"
        return parse_go_mod(member.read().decode())


def _ours() -> Tuple[Requirements, Replacements]:
    return parse_go_mod((Path(controlplane.SOURCE_DIR) / "go.mod").read_text())


def test_apiserver_requires_volcanos_version_of_each_module_both_require(volcano_go_mod):
    theirs, _ = volcano_go_mod
    ours, _ = _ours()
    shared = sorted(set(ours) & set(theirs))
    assert len(shared) > 100, f"only {len(shared)} modules in common: is this still the API server's go.mod?"
    differ = [f"{m}: ours {ours[m]}, Volcano's {theirs[m]}" for m in shared if ours[m] != theirs[m]]
    assert not differ, "\n".join(differ)


def test_apiserver_replaces_each_shared_module_as_volcano_does(volcano_go_mod):
    theirs_required, theirs = volcano_go_mod
    ours_required, ours = _ours()
    shared = set(ours_required) & set(theirs_required)
    differ = [f"{m}: ours => {ours.get(m, '(none)')}, Volcano's => {theirs.get(m, '(none)')}"
              for m in sorted(shared) if ours.get(m) != theirs.get(m)]
    assert not differ, "\n".join(differ)


def test_version_stamp_names_the_kubernetes_module_the_build_uses():
    ours, _ = _ours()
    assert ours["k8s.io/kubernetes"] == controlplane.KUBERNETES_VERSION
