"""A spec cannot choose where kpt writes what it compiles to: not through the KRM function, nor through
``compile`` (whose output kustomize and kpt read as resources), the Python API or ``lint``.

Issue 31 (low): kpt writes each object of a function's output to the file its
``internal.config.kubernetes.io/path`` (or legacy ``config.kubernetes.io/path``) annotation names.  A spec's
``jobPatch`` (or ``annotations``) set those on the generated job and the KRM function passed them through, so a
pull request's spec could have ``kpt fn render`` write the job to ``../../home/runner/.bashrc``.
"""
from __future__ import annotations

import pytest
import yaml

from tests.hardening.helpers import assert_clean, cli, snapshot, write

SPEC = """\
- apiVersion: ascend-compile.io/v1alpha1
  kind: TrainingJob
  metadata:
    name: demo
    annotations:
      config.kubernetes.io/path: jobs/demo.yaml
  spec:
    framework: pytorch
    profile: module-910b-8
    npus: 8
    image: swr.example.com/ml/pytorch-train:2.1.0
{extra}"""


def resource_list(extra: str) -> bytes:
    return f"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n{SPEC.format(extra=extra)}".encode()


@pytest.mark.parametrize("key", ["internal.config.kubernetes.io/path", "config.kubernetes.io/path",
                                 "internal.config.kubernetes.io/index", "config.kubernetes.io/id"])
@pytest.mark.parametrize("field, extra", [
    ("spec.jobPatch.metadata.annotations", "    jobPatch:\n      metadata:\n        annotations:\n          {key}: {value}\n"),
    ("spec.annotations", "    annotations:\n      {key}: {value}\n"),
])
def test_a_spec_setting_a_location_annotation_is_refused(tmp_path, key: str, field: str, extra: str) -> None:
    planted = "../../../home/runner/.bashrc"
    proc = cli("krm", input=resource_list(extra.format(key=key, value=planted)), cwd=tmp_path)
    assert_clean(proc, {1}, "AC020", f"{field}['{key}']", "remove the annotation from the spec")
    out = yaml.safe_load(proc.stdout)
    kinds = [item["kind"] for item in out["items"]]
    assert kinds == ["TrainingJob"], kinds  # the spec stays as it was; nothing compiled from it is emitted
    assert planted not in yaml.safe_dump([r for r in out["items"] if r["kind"] != "TrainingJob"])


def test_user_facing_kpt_annotations_stay_a_specs_to_set(tmp_path) -> None:
    extra = "    annotations:\n      config.kubernetes.io/depends-on: /namespaces/default/ConfigMap/x\n"
    proc = cli("krm", input=resource_list(extra), cwd=tmp_path)
    assert_clean(proc, {0})
    job = yaml.safe_load(proc.stdout)["items"][-1]
    assert job["metadata"]["annotations"]["config.kubernetes.io/depends-on"] == "/namespaces/default/ConfigMap/x"


@pytest.mark.parametrize("key", ["internal.config.kubernetes.io/path", "config.kubernetes.io/index"])
def test_compile_refuses_a_spec_setting_a_location_annotation_as_krm_does(tmp_path, key: str) -> None:
    planted = "../../../home/runner/.bashrc"
    spec = yaml.safe_load(SPEC.format(extra=""))[0]
    spec["spec"]["jobPatch"] = {"metadata": {"annotations": {key: planted}}}
    path = write(tmp_path / "job.yaml", yaml.safe_dump(spec, sort_keys=False))
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if key in text)
    out = tmp_path / "out"
    out.mkdir()
    for args in (("compile", str(path)), ("compile", str(path), "-o", str(out)), ("lint", "--no-cache", str(path))):
        proc = cli(*args)
        assert_clean(proc, {1}, f"job.yaml:{line}:", "[AC020]", f"spec.jobPatch.metadata.annotations['{key}']",
                     "remove the annotation from the spec")
        assert planted not in proc.stdout_text  # type: ignore[attr-defined]
    assert snapshot(out) == {}  # nothing written

    from ascend_compile import api
    from ascend_compile.errors import CompileError

    with pytest.raises(CompileError, match="would carry the annotation"):
        api.compile_spec(spec)
