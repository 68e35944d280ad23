"""Compiling is deterministic: the same specs give the same bytes whatever the working directory,
hash seed or locale, and ``compile -o DIR`` writes the same files every time.

Each run is a fresh ``python -m ascend_compile compile`` subprocess that imports this checkout (tests/checkout.py).
"""
from __future__ import annotations

import filecmp
import os
import subprocess
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest
import yaml
from tests.checkout import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: example folders with golden outputs (the same set as test_golden.py)
FOLDERS = ("", "matrix", "samples")


def _locales() -> List[str]:
    try:
        listed = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        listed = []
    norm = {name.lower().replace("-", ""): name for name in listed}
    found = ["C"]
    for want in ("C.UTF-8", "en_US.UTF-8"):
        name = norm.get(want.lower().replace("-", ""))
        if name:
            found.append(name)
    return found


def _specs() -> List[Path]:
    return [p for folder in FOLDERS for p in sorted((EXAMPLES / folder).glob("*.yaml"))]


def _batches(specs: Sequence[Path]) -> List[List[Path]]:
    """Groups of specs with distinct (namespace, name): one compile run rejects a job defined twice,
    and the upstream-sample specs reuse the samples' job names."""
    batches: List[Tuple[set, List[Path]]] = []
    for spec in specs:
        meta = yaml.safe_load(spec.read_text(encoding="utf-8"))["metadata"]
        key = (meta.get("namespace"), meta["name"])
        for names, members in batches:
            if key not in names:
                names.add(key)
                members.append(spec)
                break
        else:
            batches.append(({key}, [spec]))
    return [members for _, members in batches]


def _run(args: Sequence[str], cwd: Path, seed: str, locale: str) -> bytes:
    locale_vars = [k for k in os.environ if k.startswith("LC_")]
    proc = run_cli("compile", "--no-config", *args, cwd=cwd, unset=locale_vars, text=False, timeout=300,
                   env={"PYTHONHASHSEED": seed, "LC_ALL": locale, "LANG": locale})
    assert proc.returncode == 0, f"compile failed (cwd={cwd}, LC_ALL={locale}):\n{proc.stderr.decode(errors='replace')}"
    return proc.stdout


def _compile_all(cwd: Path, seed: str, locale: str, relative: bool) -> bytes:
    out = b""
    for batch in _batches(_specs()):
        paths = [str(p.relative_to(ROOT)) if relative else str(p) for p in batch]
        out += _run(paths, cwd, seed, locale)
    return out


def test_same_bytes_across_cwd_hash_seed_and_locale(tmp_path: Path) -> None:
    locales = _locales()
    first = _compile_all(ROOT, "0", locales[0], relative=True)
    assert first.count(b"\nkind: ") + first.startswith(b"kind: ") >= len(_specs())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for i, locale in enumerate(locales[1:] or locales):
        again = _compile_all(elsewhere, str(12345 + i), locale, relative=False)
        assert again == first, f"output differs with cwd={elsewhere}, PYTHONHASHSEED={12345 + i}, LC_ALL={locale}"


def test_output_dir_is_reproducible(tmp_path: Path) -> None:
    specs = [str(p) for p in _specs() if p.parent.name != "samples"]  # job names are unique here
    locales = _locales()
    one, two = tmp_path / "one", tmp_path / "two"
    _run([*specs, "-o", str(one)], ROOT, "1", locales[0])
    _run([*specs, "-o", str(two)], tmp_path, "98765", locales[-1])
    names = sorted(p.name for p in one.iterdir())
    assert names and names == sorted(p.name for p in two.iterdir())
    match, mismatch, errors = filecmp.cmpfiles(one, two, names, shallow=False)
    assert not mismatch and not errors, f"compile -o wrote different files: {mismatch + errors}"
