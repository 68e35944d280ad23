"""Suppression: comments (same line, line above, whole file), the object annotation, config."""
from __future__ import annotations

from .conftest import lint_text

JOB = """\
apiVersion: mindxdl.gitee.com/v1
kind: AscendJob
metadata:
  name: sup
  labels: {{framework: pytorch}}
{annotations}spec:
  successPolicy: AllWorker{same_line}
  replicaSpecs:
    Master:
{above}      restartPolicy: OnError
      template:
        spec:
          nodeSelector: {{accelerator-type: module-910b-8}}
          containers:
          - name: ascend
            image: torch:2.1
            ports: [{{name: ascendjob-port, containerPort: 2222}}]
            resources:
              requests: {{huawei.com/Ascend910: 8}}
              limits: {{huawei.com/Ascend910: 8}}
{tail}"""


def job(annotations="", same_line="", above="", tail=""):
    return JOB.format(annotations=annotations, same_line=same_line, above=above, tail=tail)


def rules(text, **kwargs):
    return sorted(f.rule for f in lint_text(text, "sup.yaml", **kwargs))


def test_unsuppressed_baseline():
    assert rules(job()) == ["AC204", "AC214"]


def test_same_line_comment_with_reason():
    text = job(same_line="  # ascend-compile: disable=AC204 legacy operator accepts it")
    assert rules(text) == ["AC214"]


def test_comment_on_the_line_above():
    text = job(above="      # ascend-compile: disable=AC214\n")
    assert rules(text) == ["AC204"]


def test_comment_above_skips_blank_and_comment_lines_only():
    text = job(above="      # ascend-compile: disable=AC214\n      # why: restart handled by the wrapper\n")
    assert rules(text) == ["AC204"]


def test_comment_list_and_names():
    text = job(same_line="  # ascend-compile: disable=restart-policy, success-policy")
    assert rules(text) == ["AC214"]  # only the finding on this line is suppressed


def test_a_directive_for_another_rule_does_not_suppress():
    assert rules(job(same_line="  # ascend-compile: disable=AC301")) == ["AC204", "AC214"]


def test_disable_file():
    text = "# ascend-compile: disable-file=AC204,AC214\n" + job()
    assert rules(text) == []


def test_unknown_rule_in_directive_is_reported():
    findings = lint_text(job(same_line="  # ascend-compile: disable=AC999"), "sup.yaml")
    bad = [f for f in findings if f.rule == "AC012"]
    assert len(bad) == 1 and bad[0].line == 7 and "AC999" in bad[0].message


def test_a_directive_naming_a_rule_no_comment_can_silence_is_reported():
    """An input error (the file was not read) or a discovery note (on a file not linted) cannot be silenced
    from inside the file: the directive would do nothing, so lint says so, and the other rules it names work."""
    findings = lint_text("# ascend-compile: disable-file=AC001,AC204,AC009\n" + job(), "sup.yaml")
    bad = sorted((f.line, f.message.split(" ")[0], f.hint) for f in findings if f.rule == "AC012")
    assert bad == [(1, "AC001", "remove AC001 from the directive"), (1, "AC009", "remove AC009 from the directive")]
    assert all("cannot be suppressed" in f.message for f in findings if f.rule == "AC012")
    assert sorted(f.rule for f in findings if f.rule != "AC012") == ["AC214"]


def test_an_ignore_annotation_naming_an_input_error_is_reported():
    text = job(annotations='  annotations:\n    ascend-compile.io/ignore: "AC003: never parsed; AC204: ok"\n')
    findings = lint_text(text, "sup.yaml")
    assert sorted(f.rule for f in findings) == ["AC012", "AC214"]
    bad = next(f for f in findings if f.rule == "AC012")
    assert bad.message.startswith("AC003 cannot be suppressed (an input error") and bad.hint == "remove the entry"


def test_annotation_with_reason():
    text = job(annotations='  annotations:\n    ascend-compile.io/ignore: "AC204: old operator; AC214: wrapper restarts"\n')
    assert rules(text) == []


def test_annotation_without_reason_is_not_honoured_and_reported():
    text = job(annotations='  annotations:\n    ascend-compile.io/ignore: "AC204"\n')
    findings = lint_text(text, "sup.yaml")
    assert sorted(f.rule for f in findings) == ["AC012", "AC204", "AC214"]
    bad = next(f for f in findings if f.rule == "AC012")
    assert (bad.line, bad.column) == (7, 31) and "no reason" in bad.message


def test_annotation_unknown_rule():
    text = job(annotations='  annotations:\n    ascend-compile.io/ignore: "AC204: ok; nonsense: why"\n')
    assert rules(text) == ["AC012", "AC214"]


def test_annotation_only_covers_its_object():
    other = job(annotations='  annotations:\n    ascend-compile.io/ignore: "AC204: ok"\n')
    second = job().replace("name: sup", "name: sup2")
    assert rules(other + "---\n" + second) == ["AC204", "AC214", "AC214"]


def test_config_disable_and_severity():
    from ascend_compile.config import LintSettings, ProjectConfig

    config = ProjectConfig(lint=LintSettings(disable=("AC204",), severity={"AC214": "warning"}))
    findings = lint_text(job(), "sup.yaml", config=config)
    assert [(f.rule, f.severity) for f in findings] == [("AC214", "warning")]


def test_disable_argument():
    assert rules(job(), disable=["restart-policy"]) == ["AC204"]
