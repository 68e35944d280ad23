"""Budgets in bytes as well as nodes, at every entry point; out of memory is never read as findings.

Issue 16, items 5 and 8: a small spec that aliases one long string many times expanded into
output a thousand times its size, and a MemoryError ended ``lint`` with a traceback and exit 1
(which CI reads as "findings").
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hardening.helpers import ROOT, assert_clean, cli, spec_text, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="uses RLIMIT_AS")


def alias_spec(size: int = 100_000, copies: int = 1000) -> str:
    """A ~106 KB spec: one 100 KB argument, aliased ``copies`` times (about 100 MB once expanded)."""
    refs = ", ".join(["*big"] * copies)
    return spec_text(**{'args: ["bash /job/code/train_start.sh --epochs=90"]':
                        f'args: [&big "{"x" * size}", {refs}]'})


def resource_list(items_yaml: str) -> str:
    return f"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{items_yaml}"


@pytest.mark.parametrize("command", ["compile", "lint", "validate", "apply", "diff"])
def test_aliases_that_expand_past_the_byte_budget_are_refused(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "spec.yaml", alias_spec())
    assert os.path.getsize(path) < 110_000
    # apply/diff never reach kubectl: the spec is refused while it is read
    extra = ["--kubectl", "/bin/false"] if command in ("apply", "diff") else []
    proc = cli(command, *extra, path.name, cwd=tmp_path)
    assert_clean(proc, {2}, "spec.yaml:", "AC005", "bytes")
    assert len(proc.stdout) < 100_000, "the expansion reached the output"


def test_krm_refuses_the_same_expansion(tmp_path: Path) -> None:
    spec = alias_spec()
    items = "".join("  " + line + "\n" if i else "- " + line + "\n" for i, line in enumerate(
        line for line in spec.splitlines() if line and not line.startswith("#")))
    proc = cli("krm", input=resource_list(items).encode(), cwd=tmp_path)
    assert_clean(proc, {2}, "AC005", "bytes")
    assert len(proc.stdout) < 100_000


def test_aliases_within_the_budget_still_work(tmp_path: Path) -> None:
    """Anchors and aliases are ordinary YAML: a few short repeats are fine."""
    path = write(tmp_path / "spec.yaml", alias_spec(size=100, copies=20))
    assert_clean(cli("compile", path.name, cwd=tmp_path), {0}, "x" * 100)


# --------------------------------------------------------------------------- out of memory


def test_memory_error_is_input_too_large_not_findings(tmp_path: Path) -> None:
    """A flat list under the size limit that does not fit the memory it is given: exit 2, no traceback."""
    items = "[" + ",".join(["1"] * 3_000_000) + "]"
    path = write(tmp_path / "big.yaml", f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\nlist: {items}\n")
    for command in ("lint", "validate", "compile"):
        proc = cli(command, path.name, cwd=tmp_path, memory=300 * 1024 ** 2)
        assert_clean(proc, {2}, "memory")


def test_memory_error_in_json_format_is_still_json(tmp_path: Path) -> None:
    items = "[" + ",".join(["1"] * 3_000_000) + "]"
    path = write(tmp_path / "big.yaml", f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\nlist: {items}\n")
    proc = cli("lint", "--format", "json", path.name, cwd=tmp_path, memory=300 * 1024 ** 2)
    assert_clean(proc, {2})
    assert "memory" in proc.stderr_text  # type: ignore[attr-defined]
    if proc.stdout.strip():
        json.loads(proc.stdout)


# --------------------------------------------------------------------------- our own bugs: exit 3, never 1


def _main_exit(argv, capsys) -> tuple:
    from ascend_compile.cli import main

    with pytest.raises(SystemExit) as caught:
        main(argv)
    captured = capsys.readouterr()
    return caught.value.code, captured.out + captured.err


@pytest.mark.parametrize("error", [KeyError("x"), AttributeError("y"), ZeroDivisionError()])
def test_an_escaped_exception_is_exit_3_without_a_traceback(tmp_path: Path, monkeypatch, capsys, error) -> None:
    import ascend_compile.lint.paths as paths

    def broken(*_args, **_kwargs):
        raise error

    monkeypatch.setattr(paths, "lint_paths", broken)
    path = write(tmp_path / "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    code, text = _main_exit(["lint", str(path)], capsys)
    assert code == 3 and "internal error" in text and "Traceback" not in text, text


def test_memory_error_anywhere_is_exit_2(tmp_path: Path, monkeypatch, capsys) -> None:
    import ascend_compile.files.discovery as discovery

    def exhausted(*_args, **_kwargs):
        raise MemoryError()

    monkeypatch.setattr(discovery, "read_documents", exhausted)  # the first step of compile
    code, text = _main_exit(["compile", str(tmp_path / "x.yaml")], capsys)
    assert code == 2 and "out of memory" in text and "Traceback" not in text, text


def test_a_crashing_lint_rule_is_exit_3_not_findings(tmp_path: Path, monkeypatch, capsys) -> None:
    from ascend_compile.lint import registry

    rules = registry.lint_rules()
    crashing = next(r for r in rules if r.id == "AC204")

    def boom(obj, run):
        raise KeyError("x")
        yield  # pragma: no cover

    monkeypatch.setattr(registry, "lint_rules", lambda cluster=True: [crashing._replace(check=boom)])
    monkeypatch.setattr(registry, "rules_for", lambda kind, cluster=True: [crashing._replace(check=boom)])  # what a run imports
    job = ROOT / "golden" / "pytorch-module-910b-8.yaml"
    code, text = _main_exit(["lint", str(job)], capsys)
    assert code == 3 and "internal error in rule" in text, text


# --------------------------------------------------------------------------- issue 31, M1: one budget per run

#: a 7 KB string aliased 2,390 times: each document stays under the per-document budget (16 MiB of text)
BIG, COPIES = 7000, 2390
ARGS = 'args: ["bash /job/code/train_start.sh --epochs=90"]'
JOB_ARGS = "            args:\n            - bash /job/code/train_start.sh\n"


def aliasing_specs(count: int, first: int = 0) -> str:
    refs = ", ".join(["*big"] * COPIES)
    return "---\n".join(spec_text(f"job-{i}", **{ARGS: f'args: [&big "{"x" * BIG}", {refs}]'})
                        for i in range(first, first + count))


def aliasing_jobs(count: int) -> str:
    text = (ROOT / "golden" / "matrix" / "pytorch-module-910b-8-acjob.yaml").read_text()
    assert text.count(JOB_ARGS) == 2
    refs = ", ".join(["*big"] * COPIES)
    docs = []
    for i in range(count):
        doc = text.replace("name: pytorch-module-910b-8-acjob", f"name: job-{i}")
        doc = doc.replace(JOB_ARGS, f'            args: [&big "{"x" * BIG}", {refs}]\n', 1)
        docs.append(doc.replace(JOB_ARGS, "            args: [*big]\n", 1))
    return "".join(docs)


ACROSS = "aliases in the documents read so far expand to more than 16777216 bytes of text in all"


@pytest.mark.parametrize("argv", [["compile", "specs.yaml", "-o", "out"], ["compile", "specs.yaml"],
                                  ["import", "jobs.yaml"], ["import", "jobs.yaml", "-o", "out"],
                                  ["lint", "--no-cache", "specs.yaml"], ["validate", "specs.yaml"]],
                         ids=" ".join)
def test_aliases_across_64_documents_share_one_budget(tmp_path: Path, argv) -> None:
    """Issue 31, M1: a 1.4 MB stream of 64 documents, each just under the per-document budget, made
    ``compile -o`` write 1.1 GB (and ``import`` dump the same way)."""
    write(tmp_path / "specs.yaml", aliasing_specs(64))
    write(tmp_path / "jobs.yaml", aliasing_jobs(64))
    assert os.path.getsize(tmp_path / "specs.yaml") < 1_500_000
    proc = cli(*argv, cwd=tmp_path)
    assert_clean(proc, {2}, ACROSS, "AC005", "hint:")
    assert len(proc.stdout) < 100_000, "the expansion reached the output"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_aliases_across_files_of_one_run_share_one_budget(tmp_path: Path) -> None:
    write(tmp_path / "specs" / "a.yaml", aliasing_specs(1))
    write(tmp_path / "specs" / "b.yaml", aliasing_specs(1, first=1))
    for name in ("a.yaml", "b.yaml"):  # each alone is within the budget
        assert_clean(cli("compile", f"specs/{name}", "-o", f"alone-{name}", cwd=tmp_path), {0})
    proc = cli("compile", "specs", "-o", "out", cwd=tmp_path)
    assert_clean(proc, {2}, ACROSS, "b.yaml:")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_the_python_api_reads_a_call_with_one_budget(tmp_path: Path) -> None:
    from ascend_compile import InputError, compile_files

    write(tmp_path / "a.yaml", aliasing_specs(1))
    write(tmp_path / "b.yaml", aliasing_specs(1, first=1))
    assert len(compile_files(str(tmp_path / "a.yaml"))) == 1
    with pytest.raises(InputError, match=ACROSS):
        compile_files([str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")])
    assert len(compile_files(str(tmp_path / "b.yaml"))) == 1  # a new call, a new budget
