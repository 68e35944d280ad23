"""lint_objects and lint_documents as the compiler and the Python API call them."""
from __future__ import annotations

from .conftest import lint_text


def _job(npus=8, name="api-job"):
    return {
        "apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
        "metadata": {"name": name, "labels": {"framework": "pytorch"}},
        "spec": {"replicaSpecs": {"Master": {"replicas": 1, "template": {"spec": {
            "nodeSelector": {"accelerator-type": "module-910b-16"},
            "containers": [{"name": "ascend", "image": "torch:2.1",
                            "ports": [{"name": "ascendjob-port", "containerPort": 2222}],
                            "resources": {"requests": {"huawei.com/Ascend910": npus},
                                          "limits": {"huawei.com/Ascend910": npus}}}]}}}}},
    }


def test_lint_objects_clean_and_failing():
    from ascend_compile.lint.oneshot import lint_objects

    assert lint_objects([_job(16)]) == []
    findings = lint_objects([_job(9)], source="<compiled>")
    assert [(f.rule, f.line, f.file) for f in findings] == [("AC301", 0, "<compiled>")]
    assert findings[0].field_path == ("spec.replicaSpecs.Master.template.spec.containers[0]"
                                      ".resources.requests['huawei.com/Ascend910']")


def test_profile_added_as_a_file_is_enforced(tmp_path):
    """A new hardware profile is picked up from --profile-dir data, with no code change."""
    from ascend_compile.lint.oneshot import lint_objects
    from ascend_compile.hardware.profiles import ProfileRegistry

    (tmp_path / "x.yaml").write_text("""\
apiVersion: ascend-compile.io/v1alpha1
kind: HardwareProfile
metadata:
  name: lab-box-4
spec:
  description: A lab server with 4 NPUs.
  chip: Ascend910B
  resource: huawei.com/Ascend910
  ringController: ascend-910b
  acceleratorType: lab-box-4
  npusPerNode: 4
  npusPerPod:
    singlePod: [1, 2, 4]
    multiPod: [4]
""")
    job = _job(3)
    job["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["nodeSelector"]["accelerator-type"] = "lab-box-4"
    assert [f.rule for f in lint_objects([job])] == ["AC306"]
    registry = ProfileRegistry([str(tmp_path)])
    findings = lint_objects([job], registry)
    assert [f.rule for f in findings] == ["AC301"] and "lab-box-4" in findings[0].message


def test_lint_documents_locates_findings():
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n"
    findings = lint_text(text, "cm.yaml")
    assert [(f.rule, f.line, f.column) for f in findings] == [("AC704", 4, 9)]


def test_rule_crash_becomes_a_finding(monkeypatch):
    from ascend_compile.lint import registry
    from ascend_compile.lint.engine import Linter

    linter = Linter()
    rule = next(r for r in linter.rules if r.id == "AC204")

    def boom(obj, run):
        raise KeyError("x")
        yield

    linter.rules = [rule._replace(check=boom)]
    findings = linter.run(objects=[(_job(), "")])
    assert [f.rule for f in findings] == ["AC204"] and "internal error" in findings[0].message
    from ascend_compile.findings import EXIT_INTERNAL, exit_code

    assert findings[0].internal and exit_code(findings) == EXIT_INTERNAL  # our bug: 3, never 1 ("findings")
    assert registry.get("AC204").check is not boom


def test_rule_that_crashes_after_yielding_reports_only_the_crash():
    """What a rule yielded before it broke is not trusted: the crash alone is reported for that rule."""
    from ascend_compile.lint.engine import Linter
    from ascend_compile.lint.rule import Problem

    linter = Linter()
    rule = next(r for r in linter.rules if r.id == "AC204")

    def half_done(obj, run):
        yield Problem(("metadata", "name"), "a problem found before the rule broke")
        raise ValueError("broken")

    linter.rules = [rule._replace(check=half_done)]
    findings = linter.run(objects=[(_job(), "")])
    assert len(findings) == 1 and findings[0].internal and "ValueError: broken" in findings[0].message
