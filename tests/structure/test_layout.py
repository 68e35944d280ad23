"""The shape of compiler/: small modules, short functions, no import cycles, floors that only look down.

These read the source (no import of the package), so they hold for any checkout.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

from tests.structure.floors import FLOORS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "compiler"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
#: data tables, exempt from the module cap as ruff's rule table is: one entry per rule, no seam to cut at
DATA_TABLES = {"catalogue/__init__.py", "catalogue/docs.py"}


def _modules() -> Dict[str, Path]:
    """Dotted module name (relative to the package) -> file."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _package_of(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def _imports(name: str) -> Set[str]:
    """Every module of the package that ``name`` imports, at module level or inside a function."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found: Set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = _package_of(name).split(".") if _package_of(name) else []
        base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
        target = ".".join([*base, *(node.module.split(".") if node.module else [])])
        for alias in node.names:
            child = f"{target}.{alias.name}" if target else alias.name
            found.add(child if child in MODULES else target)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name) for name in MODULES}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_and_function_sizes(name: str) -> None:
    path = MODULES[name]
    text = path.read_text(encoding="utf-8")
    if path.relative_to(PACKAGE).as_posix() not in DATA_TABLES:
        assert text.count("\n") <= MAX_MODULE_LINES, f"{path}: {text.count(chr(10))} lines; split it along its seams"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_FUNCTION_LINES, f"{path}:{node.lineno} {node.name} has {length} lines"


def test_no_import_cycles() -> None:
    state: Dict[str, int] = {}
    cycles: List[List[str]] = []

    def visit(node: str, stack: List[str]) -> None:
        state[node] = 1
        for nxt in sorted(GRAPH[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert cycles == []


FLOOR = {unit: number for number, (_, units) in enumerate(FLOORS) for unit in units}


def _unit(name: str) -> str:
    return name.split(".")[0]


def test_every_module_stands_on_one_floor() -> None:
    units = {_unit(name) for name in MODULES}
    assert sorted(units - set(FLOOR)) == [], "put it on a floor in FLOORS (and in docs/architecture.md)"
    assert sorted(set(FLOOR) - units) == [], "FLOORS names a module that is not there"
    assert sum(len(group) for _, group in FLOORS) == len(FLOOR), "a module stands on two floors"


def test_each_floor_imports_only_from_the_floors_below() -> None:
    """No arrow up and none sideways between top-level units: what a floor imports stands lower."""
    wrong = []
    for name in sorted(GRAPH):
        for target in sorted(GRAPH[name]):
            here, there = FLOOR[_unit(name)], FLOOR[_unit(target)]
            if _unit(target) != _unit(name) and there >= here:
                wrong.append(f"{name or '__init__'} (floor {FLOORS[here][0]!r}) imports {target} "
                             f"(floor {FLOORS[there][0]!r})")
    assert wrong == []


def _reachable(start: str) -> Set[str]:
    seen: Set[str] = set()
    todo = [start]
    while todo:
        for nxt in GRAPH[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_linter_does_not_depend_on_the_compiler_or_the_commands() -> None:
    """The floors allow lint the spec model (it stands lower); lint must not reach it, nor anything of compile's."""
    forbidden = re.compile(r"^(jobspec|emit|compiling|importer|api|cli)(\.|$)")
    for name in (m for m in MODULES if _unit(m) == "lint"):
        bad = sorted(m for m in _reachable(name) if forbidden.match(m))
        assert bad == [], f"{name} reaches {bad}"


def test_the_package_imports_itself_only_relatively() -> None:
    """The graph above reads relative imports; an absolute ``ascend_compile`` import would hide an arrow."""
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            found += [f"{path.relative_to(ROOT)}:{node.lineno}" for m in modules
                      if m.split(".")[0] in ("ascend_compile", "compiler")]
    assert found == []


def _target(name: str, node: ast.ImportFrom) -> str:
    """The package module ``from ... import`` in module ``name`` reads from ("" for ``ascend_compile`` itself)."""
    if node.level == 0:
        return (node.module or "").partition(".")[2]
    base = _package_of(name).split(".") if _package_of(name) else []
    base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
    return ".".join([*base, *(node.module.split(".") if node.module else [])])


def _top_level_nodes(body: List[ast.stmt]) -> List[ast.stmt]:
    """The statements at a module's top level, those under a top-level ``if`` (``if TYPE_CHECKING:``) included."""
    out: List[ast.stmt] = []
    for node in body:
        out += _top_level_nodes(node.body + node.orelse) if isinstance(node, ast.If) else [node]
    return out


def _top_level_names(tree: ast.Module) -> Tuple[Set[str], Set[str]]:
    """(names a module defines, names it imports from the package) at its top level."""
    defined: Set[str] = set()
    imported: Set[str] = set()
    for node in _top_level_nodes(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("ascend_compile")):
            imported.update(a.asname or a.name for a in node.names)
    return defined, imported - defined


def test_no_module_passes_on_a_name_it_imports() -> None:
    """One place to import a name from: the module that defines it. A module that others import a name from which it
    only imported itself is a re-export, and so is a name it imported listed in its ``__all__``. A package's
    ``__init__`` is held to it too (its submodules are its own); only ``ascend_compile`` itself, the public API of
    docs/api.md, hands on names defined below it. The tests and the benchmarks are held to it too."""
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}
    passed_on = {name: {n for n in _top_level_names(tree)[1] if f"{name}.{n}".lstrip(".") not in MODULES}
                 for name, tree in trees.items() if name}
    found = [f"{MODULES[name].relative_to(ROOT)}: __all__ lists {value.value}, which it imports"
             for name, names in passed_on.items() for node in trees[name].body
             if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets)
             for value in ast.walk(node.value) if isinstance(value, ast.Constant) and value.value in names]
    readers = [(name, path, trees[name]) for name, path in MODULES.items()] + [
        (None, path, ast.parse(path.read_text(encoding="utf-8")))
        for folder in ("tests", "bench", "scripts") for path in sorted((ROOT / folder).rglob("*.py"))]
    for name, path, tree in readers:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or (name is None and node.level):
                continue
            if not node.level and not (node.module or "").startswith("ascend_compile"):
                continue
            target = _target(name or "", node)
            found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {a.name} from {target}, which only imports it"
                      for a in node.names if a.name in passed_on.get(target, ())]
    assert not found, "\n".join(found)


def test_only_the_commands_import_click() -> None:
    for name, path in MODULES.items():
        if not (name == "cli" or name.startswith("cli.")):
            assert not re.search(r"^\s*(import click|from click)", path.read_text(encoding="utf-8"), re.M), name


SHARED_LITERALS = re.compile(r"ring-controller\.atlas|rings-config-|ascendjob-port|huawei\.com/schedule_policy|"
                             r"ascend-910-config|/user/serverid/devindex/config|mindxdl\.gitee\.com/v1|"
                             r"batch\.volcano\.sh/v1alpha1")
#: the one home of these names; schemacheck/check.py quotes one as an example in a hint (the validator engineer's
#: file); catalogue/docs.py is documentation (the rule texts explain, which quote them as the lint units' docstrings do)
LITERAL_HOMES = {"vocabulary.py", "schemacheck/check.py", "catalogue/docs.py"}


def _docstring_lines(tree: ast.AST) -> Set[int]:
    lines: Set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return lines


def test_shared_names_are_spelled_only_in_the_vocabulary() -> None:
    """Code and messages take Ascend/Volcano names from vocabulary.py; documentation may quote them."""
    found = []
    for path in MODULES.values():
        if path.relative_to(PACKAGE).as_posix() in LITERAL_HOMES:
            continue
        text = path.read_text(encoding="utf-8")
        docs = _docstring_lines(ast.parse(text))
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.start[0] not in docs and SHARED_LITERALS.search(token.string):
                found.append(f"{path.relative_to(ROOT)}:{token.start[0]}: {token.string[:60]}")
    assert found == []
