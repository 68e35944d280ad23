"""``ascend-compile validate`` end to end (subprocess), plus discovery and offline operation."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from ascend_compile.files.discovery import discover
from tests.checkout import run_cli, write_tree

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NEGATIVE = os.path.join(REPO, "tests", "negative")
SAMPLES = os.path.join(os.path.dirname(REPO), "shared", "upstream", "samples")

CLEAN = """apiVersion: v1
kind: ConfigMap
metadata:
  name: rings-config-demo
  labels:
    ring-controller.atlas: ascend-910b
data:
  hccl.json: '{"status":"initializing"}'
"""


def run(*args, stdin=None, env=None):
    result = run_cli("validate", *args, input=stdin, env={"NO_COLOR": "1", **(env or {})}, unset=("FORCE_COLOR",),
                     text=False)
    out = result.stdout.decode("utf-8", "replace")
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err, out + err
    return result.returncode, out, err


@pytest.fixture
def clean_file(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text(CLEAN, encoding="utf-8")
    return path


def test_clean_file_exits_0(clean_file):
    code, out, _ = run(str(clean_file))
    assert code == 0
    assert out.strip() == "No problems found (1 file checked)."


def test_findings_exit_1_with_locations():
    path = os.path.join("tests", "negative", "unknown-field-podspec.yaml")
    code, out, _ = run(path)
    assert code == 1
    assert f"{path}:28:11: error: unknown field \"nodeselector\" [AC101]" in out
    assert "at: spec.replicaSpecs.Master.template.spec.nodeselector" in out
    assert 'hint: did you mean "nodeSelector"?' in out
    assert out.rstrip().endswith("1 error in 1 file (1 file checked).")


def test_quiet_drops_the_summary(clean_file):
    code, out, _ = run("--quiet", str(clean_file))
    assert (code, out) == (0, "")


def test_whole_negative_corpus_directory():
    code, out, _ = run("--format", "json", "tests/negative")
    assert code == 1
    report = json.loads(out)
    files = {f["file"] for f in report["findings"]}
    assert len(files) == len([n for n in os.listdir(NEGATIVE) if n.endswith(".yaml")]) - 1  # 1.9-only file is clean
    assert report["summary"]["filesChecked"] == len(files) + 1


@pytest.mark.parametrize("fmt", ["json", "sarif", "github", "text"])
def test_every_format(fmt):
    code, out, _ = run("--format", fmt, "tests/negative/not-allowed-event.yaml")
    assert code == 1
    if fmt == "json":
        assert json.loads(out)["findings"][0]["rule"] == "AC104"
    elif fmt == "sarif":
        assert json.loads(out)["runs"][0]["results"][0]["ruleId"] == "AC104"
    elif fmt == "github":
        assert out.startswith("::error file=tests/negative/not-allowed-event.yaml,line=14,col=14,"
                              "title=AC104 not-allowed-value::")
    else:
        assert "[AC104]" in out


def test_stdin():
    code, out, _ = run("-", stdin=CLEAN.encode())
    assert code == 0
    with open(os.path.join(NEGATIVE, "wrong-type-env-value.yaml"), "rb") as handle:
        code, out, _ = run("-", stdin=handle.read())
    assert code == 1 and out.startswith("<stdin>:40:26: error:")


def test_multi_document_stream_dispatches_by_kind():
    code, out, _ = run("--format", "json", "tests/negative/multi-document.yaml")
    assert code == 1
    (finding,) = json.loads(out)["findings"]
    assert (finding["line"], finding["object"]) == (36, "AscendJob/default/demo")


def test_no_strict_and_strict_kinds():
    assert run("--no-strict", "tests/negative/unknown-field-env.yaml")[0] == 0
    code, out, _ = run("tests/negative/unknown-kind.yaml")
    assert code == 0 and "warning" in out
    assert run("--strict-kinds", "tests/negative/unknown-kind.yaml")[0] == 1


def test_volcano_version_option():
    path = "tests/negative/volcano-1.9-new-pod-field.yaml"
    assert run(path)[0] == 0
    assert run("--volcano-version", "1.9", path)[0] == 1
    assert run("--volcano-version", "v1.9.0", path)[0] == 1
    code, _, err = run("--volcano-version", "1.12", path)
    assert code == 2 and "1.12" in err


def test_usage_errors_exit_2():
    code, _, err = run()
    assert code == 2 and "PATH" in err
    code, _, err = run("--format", "xml", "x.yaml")
    assert code == 2
    code, _, err = run("--max-bytes", "0", "x.yaml")
    assert code == 2


def test_help_has_an_example():
    code, out, _ = run("--help")
    assert code == 0
    assert "Examples:" in out and "ascend-compile validate manifests/" in out


def test_validate_does_not_import_jsonschema(clean_file):
    code = ("import sys\nfrom ascend_compile.cli import main\n"
            "try:\n    main(['validate', sys.argv[1]])\nexcept SystemExit as exc:\n    code = exc.code\n"
            "assert code == 0, code\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('jsonschema', 'requests', 'urllib3'))\n"
            "print('IMPORTED:' + ','.join(bad))\n")
    result = subprocess.run([sys.executable, "-c", code, str(clean_file)], cwd=REPO, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "IMPORTED:"


# --------------------------------------------------------------------------- hostile input


def _alias_bomb():
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]")
    return ("\n".join(lines) + "\n").encode()


HOSTILE = {
    "binary.yaml": (b"\x7fELF\x00\x01\x02\x00\x00", "AC001"),
    "latin1.yaml": ("name: caf\xe9\n".encode("latin-1"), "AC001"),
    "bomb.yaml": (_alias_bomb(), "AC005"),
    "deep.yaml": (("[" * 5000 + "]" * 5000 + "\n").encode(), "AC006"),
    "python.yaml": (b"apiVersion: v1\nkind: !!python/object/apply:os.system ['echo pwned']\n", "AC003"),
    "dupe.yaml": (b"apiVersion: v1\nkind: ConfigMap\nkind: Namespace\n", "AC004"),
    "syntax.yaml": (b"apiVersion: v1\nkind: [ConfigMap\n", "AC003"),
    "recursive.yaml": (b"a: &a [*a]\n", "AC005"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_exits_2_cleanly(tmp_path, name):
    data, rule = HOSTILE[name]
    path = tmp_path / name
    path.write_bytes(data)
    code, out, err = run("--format", "json", str(path))
    assert code == 2, out + err
    report = json.loads(out)
    assert [f["rule"] for f in report["findings"]] == [rule]
    assert report["findings"][0]["inputError"] is True
    assert "pwned" not in out + err


def test_missing_path_and_other_inputs_still_checked(tmp_path, clean_file):
    code, out, _ = run("--format", "json", str(tmp_path / "nope.yaml"), "tests/negative/unknown-field-top.yaml")
    assert code == 2
    rules = sorted(f["rule"] for f in json.loads(out)["findings"])
    assert rules == ["AC001", "AC101"]


def test_too_large(clean_file):
    code, out, _ = run("--max-bytes", "10", "--format", "json", str(clean_file))
    assert code == 2 and json.loads(out)["findings"][0]["rule"] == "AC002"


def test_empty_and_comment_only_files_are_clean(tmp_path):
    (tmp_path / "empty.yaml").write_text("", encoding="utf-8")
    (tmp_path / "comments.yaml").write_text("# nothing\n---\n", encoding="utf-8")
    assert run(str(tmp_path))[0] == 0


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks on this platform")
def test_symlink_loop_and_broken_link(tmp_path, clean_file):
    root = tmp_path / "tree"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "cm.yaml").write_text(CLEAN, encoding="utf-8")
    os.symlink(str(root), str(root / "sub" / "loop"))
    os.symlink(str(root / "missing.yaml"), str(root / "broken.yaml"))
    code, out, _ = run("--format", "json", str(root))
    assert code == 2
    findings = json.loads(out)["findings"]
    messages = sorted(f["message"] for f in findings)
    # a linked folder is not followed (a note), so the loop is never walked; the broken link is an error
    assert any("symlink to a folder" in m for m in messages) and any("broken symlink" in m for m in messages)
    assert json.loads(out)["summary"]["filesChecked"] == 1


def test_an_exclude_glob_written_from_here_excludes_as_one_written_from_the_folder_walked(tmp_path, monkeypatch):
    """validate --help's own example, `validate k8s/ --exclude 'k8s/legacy/**'`, excluded nothing: globs were
    matched against paths relative to the folder walked only (legacy/old.yaml)."""
    write_tree(tmp_path, {"k8s/cm.yaml": CLEAN, "k8s/legacy/old.yaml": "{broken\n"})
    monkeypatch.chdir(tmp_path)
    kept = {"k8s/": ["k8s/cm.yaml"], str(tmp_path / "k8s"): [str(tmp_path / "k8s" / "cm.yaml")]}
    for root, paths in kept.items():
        for glob in ("k8s/legacy/**", "./k8s/legacy/**", "legacy/**", "k8s/legacy", str(tmp_path / "k8s/legacy/*")):
            assert discover([root], exclude=[glob]).paths == paths, (root, glob)
    assert discover(["k8s/"], exclude=["*/legacy/old.yaml.bak"]).paths == ["k8s/cm.yaml", "k8s/legacy/old.yaml"]
    assert discover(["k8s/"], include=["k8s/legacy/*"]).paths == ["k8s/legacy/old.yaml"]
    for command in (("validate",), ("lint", "--no-cache")):
        result = run_cli(*command, "k8s/", "--exclude", "k8s/legacy/**", cwd=tmp_path, env={"NO_COLOR": "1"})
        assert result.returncode == 0, (command, result.stdout, result.stderr)


def test_a_broken_symlink_the_walk_would_not_read_is_no_error(tmp_path):
    """--exclude is the way out the walk's own hint gives: it must silence a broken link, as a hidden name does."""
    os.symlink(str(tmp_path / "gone.yaml"), str(tmp_path / "old.yaml"))
    os.symlink(str(tmp_path / "gone.yaml"), str(tmp_path / ".pre-commit-config.yaml"))
    (tmp_path / "cm.yaml").write_text(CLEAN, encoding="utf-8")
    assert [os.path.basename(f.file) for f in discover([str(tmp_path)]).findings] == ["old.yaml"]
    for exclude in ("old.yaml", "old.*"):
        found = discover([str(tmp_path)], exclude=[exclude])
        assert (found.findings, found.paths) == ([], [str(tmp_path / "cm.yaml")]), exclude
    for command in (("validate",), ("lint", "--no-cache")):
        result = run_cli(*command, "--exclude", "old.yaml", ".", cwd=tmp_path, env={"NO_COLOR": "1"})
        assert result.returncode == 0, (command, result.stdout, result.stderr)


# --------------------------------------------------------------------------- discovery


def test_discovery_order_filters_and_hidden_dirs(tmp_path):
    for rel in ["b.yaml", "a.yml", "c.json", "z/d.yaml", "z/e.txt", ".git/f.yaml", "vendor/g.yaml",
                "m/h.yaml", ".gitlab-ci.yml", "m/.ascend-compile.yaml"]:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(CLEAN, encoding="utf-8")
    found = discover([str(tmp_path)], exclude=["vendor"])
    rel = [os.path.relpath(p, tmp_path) for p in found.paths]
    assert rel == ["a.yml", "b.yaml", os.path.join("m", "h.yaml"), os.path.join("z", "d.yaml")]
    assert found.findings == []
    found = discover([str(tmp_path)], include=["*.json", "*.txt"], exclude=["z/**"])
    assert [os.path.relpath(p, tmp_path) for p in found.paths] == ["c.json"]
    # an explicit file is read whatever its name, and only once
    explicit = str(tmp_path / "c.json")
    assert discover([explicit, explicit, "-", "-"]).paths == [explicit, "-"]
    hidden = str(tmp_path / ".gitlab-ci.yml")  # a walk skips dotfiles (tools' configuration); named, it is read
    assert discover([hidden]).paths == [hidden]
    missing = discover([str(tmp_path / "nope")])
    assert missing.paths == [] and missing.findings[0].input_error and missing.findings[0].rule == "AC001"


HELM_TEMPLATE = """apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: {{ .Release.Name }}
spec:
  minAvailable: {{ .Values.replicas }}
"""


def _repo_with_a_chart(root):
    """A manifests folder beside a Helm chart (with a sub-chart): what `lint .` meets in many repositories."""
    files = {"k8s/cm.yaml": CLEAN, "charts/train/Chart.yaml": "apiVersion: v2\nname: train\nversion: 0.1.0\n",
             "charts/train/values.yaml": "replicas: 2\n", "charts/train/templates/job.yaml": HELM_TEMPLATE,
             "charts/train/charts/sub/Chart.yaml": "apiVersion: v2\nname: sub\nversion: 0.1.0\n",
             "charts/train/charts/sub/templates/cm.yaml": HELM_TEMPLATE}
    write_tree(root, files)


def test_discovery_skips_a_helm_chart_with_one_note(tmp_path):
    _repo_with_a_chart(tmp_path)
    found = discover([str(tmp_path)])
    assert [os.path.relpath(p, tmp_path) for p in found.paths] == [os.path.join("k8s", "cm.yaml")]
    [note] = found.findings
    assert (note.rule, note.severity, note.input_error) == ("AC007", "info", False)
    assert note.file == str(tmp_path / "charts" / "train") and "Helm chart" in note.message
    assert "helm template" in note.hint
    # the chart named itself is a walk too; a file of it named on the command line is read
    chart = str(tmp_path / "charts" / "train")
    assert discover([chart]).paths == [] and [f.rule for f in discover([chart]).findings] == ["AC007"]
    values = str(tmp_path / "charts" / "train" / "values.yaml")
    assert discover([values]).paths == [values] and discover([values]).findings == []
    # a file that merely mentions Chart.yaml, or a directory of that name, is no chart
    (tmp_path / "k8s" / "Chart.yaml.bak").write_text("x: 1\n", encoding="utf-8")
    (tmp_path / "k8s" / "sub" / "Chart.yaml").mkdir(parents=True)
    assert [f.rule for f in discover([str(tmp_path / "k8s")]).findings] == []


def test_a_folder_given_inside_a_charts_templates_is_not_read_either(tmp_path):
    """`lint charts/train/templates` read Go templates as YAML: syntax errors, exit 2."""
    _repo_with_a_chart(tmp_path)
    chart = tmp_path / "charts" / "train"
    (chart / "templates" / "more").mkdir()
    (chart / "crds").mkdir()
    (chart / "crds" / "cm.yaml").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "linked").symlink_to(chart / "templates", target_is_directory=True)
    sub = chart / "charts" / "sub"
    for folder, owner in (("templates", chart), ("templates/more", chart), ("charts/sub/templates", sub)):
        found = discover([str(chart / folder)])
        [note] = found.findings
        assert found.paths == [] and note.rule == "AC007" and note.file == str(chart / folder), folder
        assert f"Helm chart {owner} (" in note.message and f"RELEASE {owner} |" in note.hint, folder
    assert [f.rule for f in discover([str(tmp_path / "linked")]).findings] == ["AC007"]
    # a chart's other folders hold plain YAML (crds/ is applied as it is); a named template is read
    assert discover([str(chart / "crds")]).paths == [str(chart / "crds" / "cm.yaml")]
    assert discover([str(chart / "templates" / "job.yaml")]).paths == [str(chart / "templates" / "job.yaml")]
    for command in (("validate",), ("lint", "--no-cache")):
        result = run_cli(*command, "charts/train/templates", cwd=tmp_path, env={"NO_COLOR": "1"})
        assert result.returncode == 0, (command, result.stdout, result.stderr)
        assert "helm template RELEASE charts/train | ascend-compile lint -" in result.stdout, command


def test_lint_and_validate_of_a_repository_with_a_chart_exit_0_with_the_note(tmp_path):
    _repo_with_a_chart(tmp_path)
    for command in (("validate",), ("lint", "--no-cache")):
        result = run_cli(*command, "--format", "json", str(tmp_path), env={"NO_COLOR": "1"})
        assert result.returncode == 0, (command, result.stdout, result.stderr)
        report = json.loads(result.stdout)
        assert [(f["rule"], f["severity"]) for f in report["findings"]] == [("AC007", "info")], command
        assert report["summary"]["filesChecked"] == 1, command


def test_a_folder_without_yaml_exits_2_for_lint_and_validate(tmp_path):
    """A renamed or mistyped manifests folder must not pass a CI step as clean (kubeconform says nothing)."""
    (tmp_path / "README.md").write_text("no manifests here\n", encoding="utf-8")
    for command in (("validate",), ("lint", "--no-cache")):
        result = run_cli(*command, str(tmp_path), env={"NO_COLOR": "1"})
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert f"ascend-compile {command[0]}: no YAML files found in the given paths" in result.stderr


# --------------------------------------------------------------------------- offline


def test_validate_works_with_networking_disabled(monkeypatch, clean_file):
    from click.testing import CliRunner

    from ascend_compile.cli.validate import validate_command

    def no_network(*args, **kwargs):
        raise OSError("networking is disabled in this test")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    runner = CliRunner()
    result = runner.invoke(validate_command, [str(clean_file), os.path.join(NEGATIVE, "not-allowed-event.yaml"),
                                              "--format", "sarif"])
    assert result.exit_code == 1, result.output
    assert json.loads(result.output)["runs"][0]["results"][0]["ruleId"] == "AC104"


def test_large_runs_use_several_processes_and_find_the_same_problems(tmp_path):
    """validate splits many files over worker processes; the findings are those of a serial run."""
    from ascend_compile.files.parallel import PARALLEL_MIN_FILES
    from ascend_compile.files.validate import validate_paths

    good = open(os.path.join(REPO, "golden", "pytorch-module-910b-8.yaml"), encoding="utf-8").read()
    bad = good.replace("restartPolicy: Never", "restartPolicy: 7", 1)
    for i in range(PARALLEL_MIN_FILES + 6):
        (tmp_path / f"job-{i:03d}.yaml").write_text(bad if i % 7 == 0 else good)
    serial, count = validate_paths([str(tmp_path)], jobs=1)
    parallel, count2 = validate_paths([str(tmp_path)], jobs=2)
    assert count == count2 == PARALLEL_MIN_FILES + 6
    assert serial == parallel
    assert len(serial) == len(range(0, PARALLEL_MIN_FILES + 6, 7))
    assert all(f.rule == "AC102" for f in serial)


def test_a_leading_double_star_in_an_exclude_glob_matches_no_folder_too(tmp_path):
    """`--exclude '**/legacy/**'` (as .gitignore reads it) excluded legacy/ below the top but not legacy/ at the top
    of the walk: fnmatch wants the "/" before "legacy"."""
    write_tree(tmp_path, {"cm.yaml": CLEAN, "legacy/old.yaml": "{broken\n", "a/legacy/old.yaml": "{broken\n",
                          "a/not-legacy/cm.yaml": CLEAN})
    kept = [str(tmp_path / "cm.yaml"), str(tmp_path / "a" / "not-legacy" / "cm.yaml")]  # a folder's files first
    for glob in ("**/legacy/**", "**/legacy", "**/legacy/", "**/old.yaml"):
        assert discover([str(tmp_path)], exclude=[glob]).paths == kept, glob
    assert discover([str(tmp_path)], exclude=["**/*"]).paths == []
    assert discover([str(tmp_path)], include=["**/cm.yaml"]).paths == kept
