"""Hostile and odd input through the real CLI: clean errors, bounded time and memory, safe output.

Every case runs ``python -m ascend_compile <command> ...`` in a subprocess whose
address space is capped (``RLIMIT_AS``, 1 GiB) and whose run time is bounded
(the subprocess timeout), and checks:

* the exit code (2 for input that cannot be read, 1 for a finding),
* a message that names the file (and ``line:column`` where there is one),
* no Python traceback on stdout or stderr.

Output safety of ``compile -o DIR`` (atomic, no symlink following, other files
untouched) is tested at the end.
"""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Sequence

import pytest

from tests.hardening.helpers import (CONFIGMAP, CONFIGMAP_BAD_FIELD, IS_ROOT, OBEY_FILE_MODES, assert_clean, cli,
                                     snapshot, spec_text, write)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="uses RLIMIT_AS, FIFOs, symlinks and chmod")
needs_file_modes = pytest.mark.skipif(IS_ROOT and not OBEY_FILE_MODES,
                                      reason="running as root without setpriv: file modes do not apply")
COMMANDS = ("validate", "lint", "compile")


def run_all(path: Path, cwd: Path, commands: Sequence[str] = COMMANDS, extra: Sequence[str] = ()):
    for command in commands:
        start = time.monotonic()
        proc = cli(command, *extra, path.name, cwd=cwd)
        yield command, proc, time.monotonic() - start


# --------------------------------------------------------------------------- YAML bombs and limits


BILLION_LAUGHS = "\n".join(
    [f'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]) + "\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_alias_bomb_is_refused_fast(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "bomb.yaml", BILLION_LAUGHS)
    start = time.monotonic()
    proc = cli(command, path.name, cwd=tmp_path)
    assert_clean(proc, {2}, "bomb.yaml:", "alias")
    assert time.monotonic() - start < 20


@pytest.mark.parametrize("command", COMMANDS)
def test_recursive_alias_is_refused(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "cycle.yaml", "a: &x\n  b: *x\n")
    assert_clean(cli(command, path.name, cwd=tmp_path), {2}, "cycle.yaml:")


@pytest.mark.parametrize("command", COMMANDS)
def test_input_over_the_size_limit_is_refused(tmp_path: Path, command: str) -> None:
    big = write(tmp_path / "big.yaml", CONFIGMAP + "# " + "x" * (16 * 1024 * 1024) + "\n")
    assert_clean(cli(command, big.name, cwd=tmp_path), {2}, "big.yaml", "byte limit", "--max-bytes")


@pytest.mark.parametrize("command", COMMANDS)
def test_max_bytes_is_configurable(tmp_path: Path, command: str) -> None:
    text = spec_text() if command == "compile" else CONFIGMAP
    path = write(tmp_path / "small.yaml", text)
    size = len(text.encode())
    assert_clean(cli(command, "--max-bytes", str(size - 1), path.name, cwd=tmp_path), {2},
                 "small.yaml", f"{size - 1} byte limit")
    assert_clean(cli(command, "--max-bytes", str(size), path.name, cwd=tmp_path), {0})
    # stdin has the same limit
    assert_clean(cli(command, "--max-bytes", str(size - 1), "-", input=text.encode(), cwd=tmp_path), {2},
                 "<stdin>", "byte limit")


DEEP_INPUTS = {
    "flow-sequences": "[" * 100_000 + "]" * 100_000 + "\n",
    "flow-mappings": "{a: " * 100_000 + "}" * 100_000 + "\n",
    "block-sequences": "- " * 100_000 + "x\n",
    "indented-mappings": "".join(" " * i + "k:\n" for i in range(0, 600)) + " " * 600 + "k: v\n",
    "cr-line-ends": "\r".join(" " * i + "k:" for i in range(0, 600)) + " v\r",
    "deep-after-valid-docs": CONFIGMAP + "---\n" + "[" * 100_000 + "]" * 100_000 + "\n",
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("shape", sorted(DEEP_INPUTS))
def test_deep_nesting_is_refused_not_a_crash(tmp_path: Path, command: str, shape: str) -> None:
    # libyaml's composer is recursive C: unguarded, 10^5 levels kill the process with SIGSEGV.
    path = write(tmp_path / "deep.yaml", DEEP_INPUTS[shape])
    proc = cli(command, path.name, cwd=tmp_path)
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}"
    assert_clean(proc, {2}, "deep.yaml:", "nests deeper than")




@pytest.mark.parametrize("command", ["validate", "compile", "lint"])
@pytest.mark.parametrize("quoted", [True, False], ids=["quoted", "plain-word"])
def test_huge_scalar(tmp_path: Path, command: str, quoted: bool) -> None:
    """A 5 MB value (one long word: the worst case for backtracking regexes)."""
    size = 5_000_000
    value = f'"{"x" * size}"' if quoted else "a" * size
    if command == "compile":
        text = spec_text(**{"npus: 16": f"npus: 16\n  env: {{BIG: {value}}}"})
    else:
        text = CONFIGMAP.replace("a: b", f"a: {value}")
    path = write(tmp_path / "huge.yaml", text)
    assert_clean(cli(command, path.name, cwd=tmp_path), {0})


@pytest.mark.parametrize("command", COMMANDS)
def test_hundred_thousand_empty_documents(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "empty-docs.yaml", "---\n" * 100_000)
    start = time.monotonic()
    proc = cli(command, path.name, cwd=tmp_path)
    # compile: no spec at all in the input is an input error
    assert_clean(proc, {2} if command == "compile" else {0, 1})
    assert time.monotonic() - start < 30  # was quadratic: minutes


def test_many_documents_stream_is_linear(tmp_path: Path) -> None:
    """20,000 small documents in one stream: linear time (a per-document scan of the whole text was not)."""
    path = write(tmp_path / "stream.yaml", ("---\n" + CONFIGMAP) * 20_000)
    assert_clean(cli("validate", path.name, cwd=tmp_path), {0})


# --------------------------------------------------------------------------- numbers

ASCENDJOB_REPLICAS = """\
apiVersion: mindxdl.gitee.com/v1
kind: AscendJob
metadata:
  name: x
spec:
  replicaSpecs:
    Worker:
      replicas: {value}
"""


@pytest.mark.parametrize("command", ["validate", "lint"])
@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "1e400", "99999999999999999999999999999"])
def test_nan_inf_and_big_numbers_where_int32_is_expected(tmp_path: Path, command: str, value: str) -> None:
    path = write(tmp_path / "num.yaml", ASCENDJOB_REPLICAS.format(value=value))
    proc = cli(command, path.name, cwd=tmp_path)
    assert_clean(proc, {1}, "num.yaml:8:17:")


@pytest.mark.parametrize("command", COMMANDS)
def test_five_thousand_digit_integer(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "num.yaml", ASCENDJOB_REPLICAS.format(value="9" * 5000))
    # Python refuses to convert decimal strings over 4300 digits; the loader refuses it with a location.
    assert_clean(cli(command, path.name, cwd=tmp_path), {2}, "num.yaml:8:17:", "too long")


@pytest.mark.parametrize("value", [".nan", ".inf", "1e400", "16.5", "9" * 30, "-16", "0"])
def test_compile_refuses_odd_npus(tmp_path: Path, value: str) -> None:
    path = write(tmp_path / "spec.yaml", spec_text(**{"npus: 16": f"npus: {value}"}))
    assert_clean(cli("compile", path.name, cwd=tmp_path), {1}, "spec.yaml:11:9:")


@pytest.mark.parametrize("value", ["800000000000000000", "1600000"])
def test_compile_refuses_absurd_npu_totals(tmp_path: Path, value: str) -> None:
    path = write(tmp_path / "spec.yaml", spec_text(**{"npus: 16": f"npus: {value}"}))
    assert_clean(cli("compile", path.name, cwd=tmp_path), {1}, "spec.yaml:11:9:")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("value", ["2001-02-30", "0x_", "!!int x", "!!float ''", "!!bool maybe",
                                   "!!timestamp x", "!!int ''"])
def test_scalars_that_cannot_be_constructed(tmp_path: Path, command: str, value: str) -> None:
    path = write(tmp_path / "odd.yaml", ASCENDJOB_REPLICAS.format(value=value))
    assert_clean(cli(command, path.name, cwd=tmp_path), {2}, "odd.yaml:8:17:", "cannot read")


@pytest.mark.parametrize("command", ["validate", "lint"])
@pytest.mark.parametrize("tagged", ["!!set {a, b}", "!!omap [a: 1]", "!!pairs [a: 1]", "!!binary aGVsbG8="])
def test_exotic_standard_tags_give_plain_data(tmp_path: Path, command: str, tagged: str) -> None:
    path = write(tmp_path / "tags.yaml", CONFIGMAP.replace("a: b", f"a: {tagged}"))
    assert_clean(cli(command, path.name, cwd=tmp_path), {0, 1})


# --------------------------------------------------------------------------- code execution, duplicates


UNSAFE = {
    "apply": '!!python/object/apply:os.system ["touch {marker}"]\n',
    "apply-in-field": 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: !!python/object/apply:os.system ["touch {marker}"]\n',
    "new": '!!python/object/new:os.system ["touch {marker}"]\n',
    "name": "!!python/name:os.system\n",
    "subprocess": '!!python/object/apply:subprocess.check_output [["touch", "{marker}"]]\n',
    "custom-tag": "apiVersion: v1\nkind: ConfigMap\nmetadata: !Ref x\n",
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", sorted(UNSAFE))
def test_python_tags_never_run_code(tmp_path: Path, command: str, case: str) -> None:
    marker = tmp_path / "PWNED"
    path = write(tmp_path / "evil.yaml", UNSAFE[case].format(marker=marker))
    proc = cli(command, path.name, cwd=tmp_path)
    assert not marker.exists(), "a YAML tag ran code"
    assert_clean(proc, {2}, "evil.yaml:", "tag")


@pytest.mark.parametrize("command", COMMANDS)
def test_duplicate_keys_are_an_error(tmp_path: Path, command: str) -> None:
    text = (spec_text().replace("  framework: pytorch\n", "  framework: pytorch\n  framework: mindspore\n")
            if command == "compile" else CONFIGMAP.replace("  name: cfg\n", "  name: cfg\n  name: other\n"))
    path = write(tmp_path / "dup.yaml", text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.strip() in ("framework: mindspore", "name: other"))
    assert_clean(cli(command, path.name, cwd=tmp_path), {2}, f"dup.yaml:{line}:3:", "duplicate key")


@pytest.mark.parametrize("command", ["validate", "lint"])
@pytest.mark.parametrize("keys", [("1", '"1"'), ("1", "01"), ("true", "yes"), ("null", "~")])
def test_duplicate_keys_spelled_differently(tmp_path: Path, command: str, keys) -> None:
    text = CONFIGMAP + f"  {keys[0]}: x\n  {keys[1]}: y\n"
    path = write(tmp_path / "dup.yaml", text)
    assert_clean(cli(command, path.name, cwd=tmp_path), {2}, "dup.yaml:8:3:", "duplicate key")


# --------------------------------------------------------------------------- encodings and whitespace


BAD_BYTES = {
    "latin-1": (CONFIGMAP.replace("a: b", "a: caf\xe9").encode("latin-1"), "not valid UTF-8", "bad.yaml:6:9:"),
    "binary": (bytes(range(256)) * 4, "binary", "bad.yaml"),
    "utf-16": (CONFIGMAP.encode("utf-16"), "binary", "bad.yaml"),
    "random": (os.urandom(4096).replace(b"\0", b"") + b"\xff\xfe", "UTF-8", "bad.yaml"),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", sorted(BAD_BYTES))
def test_non_utf8_and_binary_files(tmp_path: Path, command: str, case: str) -> None:
    data, words, where = BAD_BYTES[case]
    path = write(tmp_path / "bad.yaml", data)
    assert_clean(cli(command, path.name, cwd=tmp_path), {2}, where, words)


@pytest.mark.parametrize("command", ["validate", "lint"])
@pytest.mark.parametrize("variant", ["lf", "crlf", "bom", "bom-crlf", "cr"])
def test_line_endings_and_bom_keep_finding_positions(tmp_path: Path, command: str, variant: str) -> None:
    text = CONFIGMAP_BAD_FIELD
    if "crlf" in variant:
        text = text.replace("\n", "\r\n")
    elif variant == "cr":
        text = text.replace("\n", "\r")
    data = text.encode()
    if "bom" in variant:
        data = b"\xef\xbb\xbf" + data
    path = write(tmp_path / "job.yaml", data)
    proc = cli(command, path.name, cwd=tmp_path)
    assert_clean(proc, {1}, "job.yaml:5:3:", "bogus")


@pytest.mark.parametrize("variant", ["crlf", "bom", "bom-crlf"])
def test_compile_output_does_not_depend_on_line_endings_or_bom(tmp_path: Path, variant: str) -> None:
    text = spec_text()
    reference = cli("compile", write(tmp_path / "lf.yaml", text).name, cwd=tmp_path)
    assert_clean(reference, {0})
    data = (text.replace("\n", "\r\n") if "crlf" in variant else text).encode()
    if "bom" in variant:
        data = b"\xef\xbb\xbf" + data
    proc = cli("compile", write(tmp_path / "other.yaml", data).name, cwd=tmp_path)
    assert_clean(proc, {0})
    assert proc.stdout.replace(b"other.yaml", b"lf.yaml") == reference.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_crlf_spec_errors_are_on_the_right_line(tmp_path: Path, command: str) -> None:
    text = spec_text(**{"npus: 16": "npus: 12"}) if command == "compile" else CONFIGMAP_BAD_FIELD
    path = write(tmp_path / "job.yaml", text.replace("\n", "\r\n").encode())
    line = "job.yaml:11:" if command == "compile" else "job.yaml:5:3:"
    assert_clean(cli(command, path.name, cwd=tmp_path), {1}, line)


@pytest.mark.parametrize("command", COMMANDS)
def test_tab_indentation_is_a_located_syntax_error(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "tabs.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: x\n")
    assert_clean(cli(command, path.name, cwd=tmp_path), {2}, "tabs.yaml:4:1:", "not valid YAML")


@pytest.mark.parametrize("command", ["validate", "lint"])
def test_tabs_inside_values_are_fine(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "tabs.yaml", CONFIGMAP.replace("a: b", 'a: "x\\ty"\n  c: "\t"') + "# \tcomment\n")
    assert_clean(cli(command, path.name, cwd=tmp_path), {0})


# --------------------------------------------------------------------------- paths


@pytest.mark.parametrize("command", COMMANDS)
def test_missing_file(tmp_path: Path, command: str) -> None:
    assert_clean(cli(command, "nope.yaml", cwd=tmp_path), {2}, "nope.yaml", "no such file")


@pytest.mark.parametrize("command", COMMANDS)
def test_path_under_a_file(tmp_path: Path, command: str) -> None:
    write(tmp_path / "file.yaml", CONFIGMAP)
    assert_clean(cli(command, "file.yaml/inner.yaml", cwd=tmp_path), {2}, "file.yaml/inner.yaml")


@pytest.mark.parametrize("command", COMMANDS)
def test_directory_arguments(tmp_path: Path, command: str) -> None:
    (tmp_path / "empty").mkdir()
    assert_clean(cli(command, "empty", cwd=tmp_path), {0, 1, 2})
    # a directory whose name looks like a YAML file, inside a walked directory
    (tmp_path / "tree" / "sub.yaml").mkdir(parents=True)
    write(tmp_path / "tree" / "ok.yaml", spec_text() if command == "compile" else CONFIGMAP)
    assert_clean(cli(command, "tree", cwd=tmp_path), {0})


@pytest.mark.parametrize("command", COMMANDS)
def test_symlink_loops(tmp_path: Path, command: str) -> None:
    os.symlink("b.yaml", tmp_path / "a.yaml")
    os.symlink("a.yaml", tmp_path / "b.yaml")
    assert_clean(cli(command, "a.yaml", cwd=tmp_path), {2}, "a.yaml", "symlink loop")
    # a directory loop inside a walked tree: no endless walk
    tree = tmp_path / "tree"
    write(tree / "ok.yaml", spec_text() if command == "compile" else CONFIGMAP)
    os.symlink("..", tree / "up")
    os.symlink(".", tree / "here")
    assert_clean(cli(command, "tree", cwd=tmp_path), {0, 2})


@pytest.mark.parametrize("command", COMMANDS)
def test_broken_symlink(tmp_path: Path, command: str) -> None:
    os.symlink("gone.yaml", tmp_path / "link.yaml")
    assert_clean(cli(command, "link.yaml", cwd=tmp_path), {2}, "link.yaml")


@needs_file_modes
@pytest.mark.parametrize("command", COMMANDS)
def test_unreadable_file(tmp_path: Path, command: str) -> None:
    path = write(tmp_path / "secret.yaml", CONFIGMAP)
    path.chmod(0)
    try:
        assert_clean(cli(command, path.name, cwd=tmp_path, obey_file_modes=True), {2}, "secret.yaml",
                     "permission denied")
    finally:
        path.chmod(0o600)


@pytest.mark.parametrize("command", COMMANDS)
def test_fifo_without_writer_does_not_hang(tmp_path: Path, command: str) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    start = time.monotonic()
    proc = cli(command, "pipe.yaml", cwd=tmp_path, timeout=30)
    assert_clean(proc, {0, 1, 2})
    assert time.monotonic() - start < 30


@pytest.mark.parametrize("command", COMMANDS)
def test_device_file_is_bounded(tmp_path: Path, command: str) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    assert_clean(cli(command, "--max-bytes", "1000", "/dev/zero", cwd=tmp_path), {2}, "/dev/zero")


# --------------------------------------------------------------------------- output safety (compile -o)


def test_output_is_all_or_nothing(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    write(specs / "a.yaml", spec_text("job-a"))
    write(specs / "b.yaml", spec_text("job-b", **{"npus: 16": "npus: 12"}))  # 12 does not fit the profile
    out = tmp_path / "out"
    write(out / "keep.txt", "mine\n")
    before = snapshot(out)
    proc = cli("compile", "specs/a.yaml", "specs/b.yaml", "-o", "out", cwd=tmp_path)
    assert_clean(proc, {1}, "b.yaml")
    assert snapshot(out) == before, "a failed compile wrote (or touched) files"
    proc = cli("compile", "specs/a.yaml", "specs/b.yaml", "-o", "fresh", cwd=tmp_path)
    assert_clean(proc, {1})
    assert not (tmp_path / "fresh").exists() or not any((tmp_path / "fresh").iterdir())


def test_output_never_follows_a_symlink_out_of_the_directory(tmp_path: Path) -> None:
    """A link where an output goes is refused (issue 31: every writer refuses a link target), not followed."""
    outside = write(tmp_path / "outside" / "precious.yaml", "do not touch\n")
    outside.chmod(0o644)
    before = (outside.read_bytes(), os.stat(outside).st_mtime_ns)
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(outside, out / "resnet50-pytorch.yaml")
    write(tmp_path / "spec.yaml", spec_text())
    proc = cli("compile", "spec.yaml", "-o", "out", cwd=tmp_path)
    assert_clean(proc, {2}, "resnet50-pytorch.yaml", "symbolic link", "AC013")
    assert (outside.read_bytes(), os.stat(outside).st_mtime_ns) == before
    assert (out / "resnet50-pytorch.yaml").is_symlink()
    assert os.listdir(out) == ["resnet50-pytorch.yaml"], "a temporary file was left behind"


def test_output_leaves_other_files_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write(out / "README.md", "notes\n")
    write(out / "other-job.yaml", "apiVersion: v1\nkind: ConfigMap\n")
    write(out / "sub" / "resnet50-pytorch.yaml", "nested: same name, other directory\n")
    os.symlink("/nonexistent", out / "dangling")
    old = time.time() - 3600
    for path in (out / "README.md", out / "other-job.yaml", out / "sub" / "resnet50-pytorch.yaml"):
        os.utime(path, (old, old))
    before = snapshot(out)
    write(tmp_path / "spec.yaml", spec_text())
    assert_clean(cli("compile", "spec.yaml", "-o", "out", cwd=tmp_path), {0})
    after = snapshot(out)
    new = set(after) - set(before)
    assert new == {"resnet50-pytorch.yaml"}, new
    assert {k: v for k, v in after.items() if k in before} == before
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")], "temporary files left behind"


def test_output_files_get_normal_permissions(tmp_path: Path) -> None:
    write(tmp_path / "spec.yaml", spec_text())
    assert_clean(cli("compile", "spec.yaml", "-o", "out", cwd=tmp_path), {0})
    mask = os.umask(0o022)
    os.umask(mask)
    mode = stat.S_IMODE(os.stat(tmp_path / "out" / "resnet50-pytorch.yaml").st_mode)
    assert mode == 0o666 & ~mask, oct(mode)  # not mkstemp's 0600
    # a replaced output keeps the mode it had
    os.chmod(tmp_path / "out" / "resnet50-pytorch.yaml", 0o640)
    write(tmp_path / "spec.yaml", spec_text(**{"epochs=90": "epochs=91"}))
    assert_clean(cli("compile", "spec.yaml", "-o", "out", cwd=tmp_path), {0})
    assert stat.S_IMODE(os.stat(tmp_path / "out" / "resnet50-pytorch.yaml").st_mode) == 0o640


def test_output_path_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / "out" / "resnet50-pytorch.yaml").mkdir(parents=True)
    write(tmp_path / "spec.yaml", spec_text())
    before = snapshot(tmp_path / "out")
    assert_clean(cli("compile", "spec.yaml", "-o", "out", cwd=tmp_path), {2}, "resnet50-pytorch.yaml", "directory")
    assert snapshot(tmp_path / "out") == before


def test_output_directory_under_a_file(tmp_path: Path) -> None:
    write(tmp_path / "file", "x\n")
    write(tmp_path / "spec.yaml", spec_text())
    assert_clean(cli("compile", "spec.yaml", "-o", "file/out", cwd=tmp_path), {2}, "file/out")
    assert (tmp_path / "file").read_text() == "x\n"


@needs_file_modes
def test_unwritable_output_directory(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    write(tmp_path / "spec.yaml", spec_text())
    try:
        assert_clean(cli("compile", "spec.yaml", "-o", "out", cwd=tmp_path, obey_file_modes=True), {2}, "out")
        assert not any(out.iterdir())
    finally:
        out.chmod(0o755)
