"""No input makes a regular expression of the package slow (issue 31, S4).

Python's ``re`` backtracks: a pattern in which one piece of text can be matched two ways (an item's spaces that
either end the item or follow it) takes exponential time on a line that then fails, and a pattern searched over a
long run of characters it half-matches takes quadratic time.  A 191-byte ConfigMap line hung lint, validate and
compile through the line reader's flow-sequence pattern.

So every pattern in the package is found (compiled ones in module globals, literal ones passed to ``re``
functions, the ``pattern`` keywords of the built-in schemas: the source is scanned, and a call whose pattern this
test cannot see fails it until it is taught where the patterns come from) and run over pathological texts: short
units repeated enough times that two ways per unit would take minutes, and 20 KB of one character.
"""
from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
import signal
import time
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

from tests.hardening.helpers import CONFIGMAP, assert_clean, cli, write

import ascend_compile

PACKAGE = Path(ascend_compile.__file__).resolve().parent
_MATCHERS = {"compile", "match", "search", "fullmatch", "sub", "subn", "split", "findall", "finditer"}
#: calls whose pattern is a variable that is not a module global, and where their patterns are collected from
_INDIRECT = {
    ("schemacheck.keywords", "pattern"): "the pattern keywords of the built-in schemas",
    ("lint.rules.plaintext_credential", "pattern"): "_VALUE_PATTERNS (compiled into _VALUE, a module global)",
}
#: characters the pathological texts are made of
_ALPHABET = " a0,-.:[]'\"#=/_\\x"
_UNITS = ([c for c in _ALPHABET] + [a + b for a in _ALPHABET for b in _ALPHABET]
          + ["a ,", "a, ", " , ", "a: ", "- a", "''a", "0.0", "a ,", "0:0", "a -", "1-a", "a.a", "\\\\a"])
#: what may come before them (so that an anchored pattern gets as far as its repeated part)
_PREFIXES = ("", "z: [", "'", '"', "# ascend-compile: disable=", "http://", "1")
#: what ends them (a character the repeated part does not take, so that a match fails at the very end)
_ENDINGS = ("\x00", "]x")
_REPEATS = 30
_LONG = 20_000
#: the slowest single call accepted (seconds): a linear pattern takes microseconds here, a blow-up minutes
_SLOWEST = 0.5
#: a call still running after this long is stopped (and the pattern reported)
_GIVE_UP = 5.0


def _modules() -> Iterator[Tuple[str, object]]:
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="ascend_compile."):
        if info.name.startswith("ascend_compile.__main__"):
            continue
        yield info.name, importlib.import_module(info.name)


def _force_lazy_patterns() -> None:
    """Compile the patterns modules compile on first use."""
    from ascend_compile.lint.rules import plaintext_credential
    from ascend_compile.yamlio import scalars

    plaintext_credential._looks_secret("x", "AKIA")
    scalars.resolve("1.5")


def _collect(value: object, into: List[re.Pattern], depth: int = 0) -> None:
    if isinstance(value, re.Pattern):
        into.append(value)
    elif depth < 2 and isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, into, depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for item in value.values():
            _collect(item, into, depth + 1)


def _literal(node: ast.AST, module: object) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return getattr(module, node.id, None)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return getattr(re, node.attr, None)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _literal(node.left, module), _literal(node.right, module)
        return left | right if isinstance(left, int) and isinstance(right, int) else None
    return None


#: how a pattern is applied -> the method that costs as much: search, findall, sub and split try every start
_COSTS_AS = {"match": "match", "fullmatch": "fullmatch", "search": "search", "findall": "search",
             "finditer": "search", "sub": "search", "subn": "search", "split": "search"}


def _uses(tree: ast.Module, into: Dict[str, Set[str]]) -> None:
    """For each name ``X`` in ``X.match(...)`` and the like (a compiled pattern's name), how it is applied."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _COSTS_AS:
            owner = node.func.value
            name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
            if name and name != "re":
                into.setdefault(name, set()).add(_COSTS_AS[node.func.attr])


def _from_source(name: str, module: object, unknown: List[str]) -> List[Tuple[str, int, str]]:
    """(pattern, flags, how it is applied) of every ``re.<matcher>(...)`` call in the module's source."""
    path = Path(getattr(module, "__file__", "") or "")
    if path.suffix != ".py":
        return []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    short = name[len("ascend_compile."):]
    found: List[Tuple[str, int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _MATCHERS and node.args):
            continue
        pattern = _literal(node.args[0], module)
        if isinstance(pattern, re.Pattern):
            continue  # a compiled global: collected from the module
        flags = 0
        rest = list(node.args[2 if node.func.attr == "compile" else 2:])
        flag_nodes = [k.value for k in node.keywords if k.arg == "flags"]
        if node.func.attr == "compile" and len(node.args) > 1:
            flag_nodes.append(node.args[1])
        elif node.func.attr in ("match", "search", "fullmatch", "findall", "finditer", "split") and rest:
            flag_nodes.append(rest[-1])
        for flag in flag_nodes:
            value = _literal(flag, module)
            flags |= value if isinstance(value, int) else 0
        if isinstance(pattern, str):
            found.append((pattern, flags, _COSTS_AS.get(node.func.attr, "")))  # compile: as its name is used
            continue
        target = node.args[0]
        variable = target.id if isinstance(target, ast.Name) else ast.unparse(target)
        if (short, variable) not in _INDIRECT and not _module_global_compile(tree, node):
            unknown.append(f"{short}:{node.lineno}: re.{node.func.attr}({variable}, ...)")
    return found


def _module_global_compile(tree: ast.Module, call: ast.Call) -> bool:
    """Whether ``call`` is the value of a module-level assignment (its compiled pattern is a module global)."""
    return any(isinstance(statement, ast.Assign) and statement.value is call for statement in tree.body)


def _schema_patterns() -> List[Tuple[str, int]]:
    found: List[Tuple[str, int]] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "pattern" and isinstance(item, str):
                    found.append((item, 0))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted((PACKAGE.parent / "schemas").rglob("*.json")) + sorted(PACKAGE.rglob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return found


Found = Dict[Tuple[str, int], Tuple[str, Set[str]]]
#: every module (and "schemas") a pattern was found in by the last every_pattern()
places: Set[str] = set()


def every_pattern() -> Tuple[Found, List[str]]:
    """(pattern, flags) -> (where it was found, how it is applied: the methods of :data:`_COSTS_AS`, all when not
    known); and the calls whose patterns could not be seen."""
    _force_lazy_patterns()
    patterns: Found = {}
    unknown: List[str] = []
    places.clear()
    uses: Dict[str, Set[str]] = {}
    modules = list(_modules())
    for _, module in modules:
        path = Path(getattr(module, "__file__", "") or "")
        if path.suffix == ".py":
            _uses(ast.parse(path.read_text(encoding="utf-8")), uses)
    every = {"match", "fullmatch", "search"}

    def add(key: Tuple[str, int], where: str, how: Set[str]) -> None:
        patterns.setdefault(key, (where, set()))[1].update(how or every)
        places.add(where)

    for name, module in modules:
        for variable, value in vars(module).items():
            compiled: List[re.Pattern] = []
            _collect(value, compiled)
            for pattern in compiled:
                if isinstance(pattern.pattern, str):
                    add((pattern.pattern, pattern.flags & ~re.UNICODE), name, uses.get(variable, set()))
        for pattern, flags, how in _from_source(name, module, unknown):
            add((pattern, flags), name, {how} if how else set())
    for pattern, flags in _schema_patterns():
        add((pattern, flags), "schemas", {"search"})  # JSON Schema's pattern is a search
    return patterns, unknown


def test_every_pattern_is_seen() -> None:
    patterns, unknown = every_pattern()
    assert not unknown, ("calls whose pattern this test cannot see (add where their patterns come from to "
                         "_INDIRECT, and collect them):\n" + "\n".join(unknown))
    where = set(places)
    # the ones that read input and broke or nearly broke before: the scan must find them
    assert "ascend_compile.yamlio.blockload" in where and "ascend_compile.lint.suppress" in where
    assert "schemas" in where and len(patterns) > 40


def _texts() -> Iterator[str]:
    for prefix in _PREFIXES:
        for ending in _ENDINGS:
            for unit in _UNITS:
                yield prefix + unit * _REPEATS + ending
            for char in _ALPHABET:
                yield prefix + char * _LONG + ending


class _TimedOut(Exception):
    pass


def _interrupt(*_: object) -> None:
    raise _TimedOut  # the regex engine checks for signals as it goes: a blow-up fails the test, not hangs it


def _slowest(compiled: re.Pattern, how: Set[str]) -> Tuple[float, str]:
    worst, worst_text = 0.0, ""
    previous = signal.signal(signal.SIGALRM, _interrupt)
    try:
        for text in _texts():
            for method in [getattr(compiled, name) for name in sorted(how)]:
                start = time.perf_counter()
                signal.setitimer(signal.ITIMER_REAL, _GIVE_UP)
                try:
                    method(text)
                except _TimedOut:
                    return float("inf"), text
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                spent = time.perf_counter() - start
                if spent > worst:
                    worst, worst_text = spent, text
    finally:
        signal.signal(signal.SIGALRM, previous)
    return worst, worst_text


@pytest.mark.parametrize("index", range(0, 8))
def test_no_pattern_backtracks_badly(index: int) -> None:
    """Every pattern answers each pathological text fast (split in 8 parts: each a few seconds)."""
    patterns, _ = every_pattern()
    slow = []
    for number, ((pattern, flags), (where, how)) in enumerate(sorted(patterns.items())):
        if number % 8 != index:
            continue
        compiled = re.compile(pattern, flags)
        worst, text = _slowest(compiled, how)
        if _SLOWEST < worst < float("inf"):  # a loaded machine: measure that one again
            start = time.perf_counter()
            for name in how:
                getattr(compiled, name)(text)
            worst = min(worst, time.perf_counter() - start)
        if worst > _SLOWEST:
            slow.append(f"{where}: {pattern!r} took {worst:.2f} s on {text[:60]!r}... ({len(text)} characters)")
    assert not slow, "\n".join(slow)


FLOW_LINE = "z: [" + ", ".join(["a         "] * 10) + "]x"


def test_the_191_byte_configmap_is_answered_fast(tmp_path) -> None:
    """The attack of the issue: a ten-item flow sequence with spaces after each item, then a character after ``]``.
    libyaml reads the line (``]x`` is a syntax error); lint, validate and compile answer at once."""
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  " + FLOW_LINE + "\n"
    assert 180 <= len(text.encode()) <= 200
    path = write(tmp_path / "cm.yaml", text)
    for command in ("lint", "validate", "compile"):
        start = time.monotonic()
        proc = cli(command, str(path), timeout=30)
        assert_clean(proc, (1, 2), "cm.yaml")
        assert time.monotonic() - start < 5  # the process; the parse itself is timed below


def test_line_reader_fails_fast_on_the_attack_lines() -> None:
    from ascend_compile.yamlio import blockload

    for text in ("apiVersion: v1\n" + FLOW_LINE + "\n",
                 "apiVersion: v1\nz: [a" + " " * _LONG + "\n",
                 "apiVersion: v1\nz: [a" + " " * _LONG + "]x\n",
                 "apiVersion: v1\nz: [a ," + " " * _LONG + "a]x\n"):
        start = time.perf_counter()
        assert blockload.build(text) is None
        assert time.perf_counter() - start < 1


def test_the_attack_line_in_the_project_config(tmp_path) -> None:
    """The same line in .ascend-compile.yaml does not hang a lint of a clean file."""
    write(tmp_path / ".git" / "HEAD", "ref: refs/heads/main\n")
    write(tmp_path / ".ascend-compile.yaml", "lint:\n  " + FLOW_LINE + "\n")
    path = write(tmp_path / "cm.yaml", CONFIGMAP)
    start = time.monotonic()
    proc = cli("lint", str(path), cwd=tmp_path, timeout=30)
    assert_clean(proc, (0, 1, 2))
    assert time.monotonic() - start < 5
