"""The same findings, byte for byte, whichever way a lint run reads its files: one process or several,
without the result cache, filling it, or answered from it.  And the cache is never stale."""
from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from tests.checkout import ROOT, run_cli
from tests.lint.conftest import CASES, SAMPLES, needs_shared
from ascend_compile.files import parallel
from ascend_compile.lint import paths as lint_run
from ascend_compile.report import catalogue_rules, render

JOB = """apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: {name}
  namespace: ml
  labels: {{ring-controller.atlas: ascend-910b}}
spec:
  minAvailable: 2
  schedulerName: volcano
  tasks:
  - name: worker
    replicas: 2
    template:
      spec:
        containers:
        - name: train
          image: swr.example.com/ml/train:1
          resources:
            requests: {{huawei.com/Ascend910: 8}}
            limits: {{huawei.com/Ascend910: 8}}
"""
CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: rings-config-{name}
  namespace: ml
  labels: {{ring-controller.atlas: {label}}}
data:
  hccl.json: '{{"status":"initializing"}}'
"""


def _corpus(folder: Path) -> Path:
    """Every lint case, the upstream samples, and jobs whose ConfigMaps sit in the same file, in another
    file, beside it under another name, or nowhere; a broken file; a symlink to a linted file."""
    folder.mkdir()
    for case in sorted(os.listdir(CASES)):
        shutil.copy(os.path.join(CASES, case), folder / case)
    if os.path.isdir(SAMPLES):
        for sample in sorted(n for n in os.listdir(SAMPLES) if n.endswith((".yaml", ".yml")))[:40]:
            shutil.copy(os.path.join(SAMPLES, sample), folder / f"sample-{sample}")
    for i in range(30):
        name = f"job-{i:02d}"
        job, cm = JOB.format(name=name), CONFIGMAP.format(name=name, label="ascend-910b" if i % 4 else "other")
        if i % 3 == 0:
            (folder / f"{name}.yaml").write_text(job + "---\n" + cm)
        elif i % 3 == 1:
            (folder / f"{name}.yaml").write_text(job)
            (folder / f"{name}-cm.yaml").write_text(cm)
        elif i % 5:
            (folder / f"{name}.yaml").write_text(job)  # no ConfigMap anywhere
        else:
            (folder / f"{name}.yaml").write_text(job + "      # ascend-compile: disable=AC501 reason\n")
    (folder / "broken.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n")
    (folder / "anchors.yaml").write_text(CONFIGMAP.format(name="a", label="x").replace("namespace: ml", "namespace: &n ml")
                                         + "---\n" + JOB.format(name="a").replace("namespace: ml", "namespace: ml"))
    os.symlink(folder / "job-01.yaml", folder / "link-to-job-01.yaml")
    return folder


def _json(findings, files) -> str:
    out = io.StringIO()
    render(findings, "json", rules=catalogue_rules(), stream=out, files_checked=files)
    return out.getvalue()


def _lint(paths, **options) -> str:
    return _json(*lint_run.lint_paths([str(p) for p in paths], **options))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return _corpus(tmp_path_factory.mktemp("modes") / "corpus")


def test_findings_are_the_same_in_one_process_in_several_and_from_the_cache(corpus, tmp_path, monkeypatch):
    needs_shared(SAMPLES)
    alone = _lint([corpus], jobs=1)
    assert '"AC501"' in alone and '"AC502"' in alone and '"AC101"' in alone and '"AC003"' in alone, \
        "the corpus should exercise cross-object, schema and input-error findings"
    assert _lint([corpus], jobs=2) == alone
    assert _lint([corpus], jobs=3) == alone
    cache = str(tmp_path / "cache")
    assert _lint([corpus], jobs=1, cache_dir=cache) == alone  # filling the cache
    assert _lint([corpus], jobs=2, cache_dir=cache) == alone  # every file from the cache...

    def must_not_lint(*_args, **_kwargs):
        raise AssertionError("a file was linted again although the cache holds its result")

    monkeypatch.setattr(lint_run, "lint_file_at", must_not_lint)
    assert _lint([corpus], jobs=1, cache_dir=cache) == alone  # ...as this run proves

    def must_not_fork(*_args, **_kwargs):
        raise AssertionError("a run answered wholly from the cache started worker processes")

    monkeypatch.setattr(parallel, "fork_map", must_not_fork)
    assert _lint([corpus], jobs=2, cache_dir=cache) == alone  # ...and this one: looked up here, nothing forked


def _bench_corpus(folder: Path, files: int) -> Path:
    """The benchmark's mixed corpus (AscendJobs, some with their Namespace; Volcano Jobs with their ConfigMaps in
    the job's file or beside it; every 20th job with a schema defect), ``files`` files of it."""
    import sys

    from ascend_compile.yamlio.dump import dump_document

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        import corpus as bench_corpus
    finally:
        sys.path.remove(os.path.join(ROOT, "bench"))
    bench_corpus._mixed({"mixed": files}, dump_document, folder)
    return folder


def test_the_benchmark_corpus_gives_the_same_findings_every_way(tmp_path, monkeypatch):
    folder = _bench_corpus(tmp_path / "mixed", 160)
    kinds = {line.split(":", 1)[1].strip() for path in folder.iterdir() for line in path.read_text().splitlines()
             if line.startswith("kind:")}
    assert kinds == {"AscendJob", "Job", "ConfigMap", "Namespace"}
    alone = _lint([folder], jobs=1)
    assert '"AC1' in alone, "the corpus plants schema defects"
    cache = str(tmp_path / "cache")
    assert _lint([folder], jobs=2) == alone
    assert _lint([folder], jobs=2, cache_dir=cache) == alone  # filling the cache
    files = sorted(folder.iterdir())
    assert _lint(files[::3], jobs=1, cache_dir=cache) == _lint(files[::3], jobs=1)  # some, answered from it
    monkeypatch.setattr(lint_run, "lint_file_at", lambda *_a, **_k: (_ for _ in ()).throw(AssertionError("linted")))
    assert _lint([folder], jobs=1, cache_dir=cache) == alone  # every file from the cache


def test_some_files_from_the_cache_and_some_linted_give_the_same_findings(corpus, tmp_path):
    needs_shared(SAMPLES)
    cache = str(tmp_path / "cache")
    files = sorted(corpus.iterdir())
    _lint(files[::2], jobs=1, cache_dir=cache)  # half of the files are cached
    assert _lint(files, jobs=2, cache_dir=cache) == _lint(files, jobs=1)


def test_the_command_line_prints_the_same_bytes_with_and_without_the_cache(corpus, tmp_path):
    env = {"ASCEND_COMPILE_CACHE_DIR": str(tmp_path / "cache")}
    runs = [run_cli("lint", "--format", "json", *extra, str(corpus), env=env)
            for extra in ([], [], ["--no-cache"])]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout and runs[0].returncode == runs[2].returncode
    assert os.listdir(tmp_path / "cache"), "the first run should have written the cache"


# --------------------------------------------------------------------------- the cache is never stale


def _dir(tmp_path: Path, files: dict) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def _rules(folder: Path, cache: str, **options) -> list:
    """(file name, rule, line) of every finding of a cached run over ``folder``."""
    findings, _ = lint_run.lint_paths([str(folder)], cache_dir=cache, jobs=1, **options)
    return sorted((os.path.basename(f.file), f.rule, f.line) for f in findings)


def _changed_everywhere(folder: Path, cache: str, change, **options) -> None:
    """After ``change``, the cached run gives what a run without the cache gives (and it differs from before)."""
    before = _rules(folder, cache, **options)
    change()
    after = _rules(folder, cache, **options)
    findings, _ = lint_run.lint_paths([str(folder)], jobs=1, **options)
    assert after == sorted((os.path.basename(f.file), f.rule, f.line) for f in findings)
    assert after != before, "the change should have changed the findings"


def test_a_changed_file_is_linted_again(tmp_path):
    folder = _dir(tmp_path, {"job.yaml": JOB.format(name="a") + "---\n" + CONFIGMAP.format(name="a", label="ascend-910b")})
    _changed_everywhere(folder, str(tmp_path / "c"),
                        lambda: (folder / "job.yaml").write_text(JOB.format(name="a")))


def test_a_change_in_another_linted_file_reaches_the_unchanged_job(tmp_path):
    folder = _dir(tmp_path, {"job.yaml": JOB.format(name="a"),
                             "cm.yaml": CONFIGMAP.format(name="a", label="ascend-910b")})
    _changed_everywhere(folder, str(tmp_path / "c"),
                        lambda: (folder / "cm.yaml").write_text(CONFIGMAP.format(name="b", label="ascend-910b")))


def test_a_change_in_a_file_beside_the_job_reaches_it(tmp_path):
    folder = _dir(tmp_path, {"job.yaml": JOB.format(name="a"),
                             "configmaps.yaml": CONFIGMAP.format(name="a", label="ascend-910b")})
    cache = str(tmp_path / "c")

    def lint_job_only() -> list:
        findings, _ = lint_run.lint_paths([str(folder / "job.yaml")], cache_dir=cache, jobs=1)
        return [f.rule for f in findings if f.rule == "AC501"]

    assert lint_job_only() == lint_job_only() == []
    (folder / "configmaps.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n")
    assert lint_job_only() == ["AC501"]


@pytest.mark.parametrize("option,value", [("strict", False), ("volcano_version", "1.9"), ("disable", ["AC502"]),
                                          ("max_bytes", 600)])
def test_an_option_is_part_of_the_key(tmp_path, option, value):
    # schedulerNme: a typo (strict); networkTopology: a field of Volcano 1.15, unknown to 1.9
    job = JOB.format(name="a").replace("schedulerName", "schedulerNme").replace(
        "spec:\n  minAvailable", "spec:\n  networkTopology: {mode: soft}\n  minAvailable")
    folder = _dir(tmp_path, {"job.yaml": job + "---\n" + CONFIGMAP.format(name="a", label="x")})
    cache = str(tmp_path / "c")
    assert _rules(folder, cache, **{option: value}) != _rules(folder, cache)
    findings, _ = lint_run.lint_paths([str(folder)], jobs=1, **{option: value})
    assert _rules(folder, cache, **{option: value}) == sorted((os.path.basename(f.file), f.rule, f.line)
                                                              for f in findings)


def test_the_project_config_is_part_of_the_key(tmp_path):
    from ascend_compile.config import load_config

    folder = _dir(tmp_path, {"job.yaml": JOB.format(name="a")})
    config = tmp_path / "cfg.yaml"
    config.write_text("lint:\n  severity: {AC501: error}\n")
    cache = str(tmp_path / "c")
    plain = lint_run.lint_paths([str(folder)], cache_dir=cache, jobs=1)[0]
    configured = lint_run.lint_paths([str(folder)], config=load_config(str(config)), cache_dir=cache, jobs=1)[0]
    assert [f.severity for f in plain if f.rule == "AC501"] == ["warning"]
    assert [f.severity for f in configured if f.rule == "AC501"] == ["error"]


def test_the_profiles_are_part_of_the_key(tmp_path):
    from ascend_compile.config import ProjectConfig

    profiles = tmp_path / "profiles"
    profiles.mkdir()
    builtin = Path(ROOT) / "profiles" / "module-910b-8.yaml"
    text = builtin.read_text()
    (profiles / "module-910b-8.yaml").write_text(text)
    job = (Path(ROOT) / "golden" / "pytorch-module-910b-8.yaml").read_text()
    folder = _dir(tmp_path, {"job.yaml": job})
    config = ProjectConfig(profile_dirs=(str(profiles),))

    def lint() -> list:
        findings, _ = lint_run.lint_paths([str(folder)], config=config, cache_dir=str(tmp_path / "c"), jobs=1)
        return [f.rule for f in findings]

    before = lint()
    # the same profile now allows at most 4 NPUs per pod of a distributed job: the 8-NPU pods become wrong
    changed = text.replace("multiPod: [1, 2, 3, 4, 5, 6, 7, 8]", "multiPod: [1, 2, 4]")
    assert changed != text, "the profile format changed: update this test"
    (profiles / "module-910b-8.yaml").write_text(changed)
    after = lint()
    fresh, _ = lint_run.lint_paths([str(folder)], config=config, jobs=1)
    assert after == [f.rule for f in fresh] and after != before


def test_the_version_and_code_are_part_of_the_key(tmp_path, monkeypatch):
    from ascend_compile import _version
    from ascend_compile.lint import fingerprint

    before = fingerprint.code_digest()
    monkeypatch.setattr(_version, "__version__", _version.__version__ + ".post1")
    assert fingerprint.code_digest() != before


def test_a_renamed_file_keeps_its_findings_under_its_new_name(tmp_path):
    folder = _dir(tmp_path, {"a.yaml": JOB.format(name="a")})
    cache = str(tmp_path / "c")
    before = _rules(folder, cache)
    assert ("a.yaml", "AC501", 6) in before
    os.rename(folder / "a.yaml", folder / "b.yaml")
    assert _rules(folder, cache) == [("b.yaml", rule, line) for _name, rule, line in before]


def test_a_damaged_or_foreign_cache_is_ignored(tmp_path):
    folder = _dir(tmp_path, {"a.yaml": JOB.format(name="a")})
    cache = tmp_path / "c"
    want = _rules(folder, str(cache))
    for shard in cache.rglob("*.cache"):
        shard.write_bytes(b"\x00garbage")
    assert _rules(folder, str(cache)) == want
    for directory in cache.rglob("*"):
        if directory.is_dir():
            directory.chmod(0o777)  # writable by anyone: entries there are not trusted
    for shard in cache.rglob("*.cache"):
        shard.write_bytes(b"")
    assert _rules(folder, str(cache)) == want
