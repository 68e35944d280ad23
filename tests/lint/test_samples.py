"""The false-positive guard: upstream samples and our goldens lint without error-level findings.

The only exceptions are samples that upstream itself rejects, named here with the reason.
"""
from __future__ import annotations

import collections
import os

from .conftest import SAMPLES, needs_shared

#: sample file -> the error-level findings (rule IDs, with repeats) it must produce, and why.  Every
#: other sample (the top level and master/) must get no error at all: a finding there would block a
#: valid job in a CI gate.
DEFECTIVE = {
    # mind-cluster v6.0.0-RC3 operator examples: an env value written as a bare 1 (an integer, where
    # Kubernetes wants a string). The simulated cluster's API server rejects each of them: "...env[0].value
    # in body must be of type string".
    "component__ascend-operator__examples__mindspore-distribute-acjob.yaml": ["AC102"],
    # ... and asks minAvailable 3 of its single pod: the PodGroup would never be satisfied (the simulated
    # cluster keeps such a job Pending: "pod group is not ready, 1 Pending, 3 minAvailable").
    "component__ascend-operator__examples__mindspore-standalone-acjob.yaml": ["AC102", "AC216"],
    "component__ascend-operator__examples__pytorch-distribute-acjob.yaml": ["AC102"],
    "component__ascend-operator__examples__tensorflow-distribute-acjob.yaml": ["AC102"],
    # cleanPodPolicy, backoffLimit and schedulingPolicy sit directly under spec instead of
    # spec.runPolicy. kubectl's default (strict) field validation rejects the object; a client that
    # submits without strict validation (the simulated cluster's oracle) gets them pruned and the job
    # runs without them.
    "component__ascend-operator__examples__tensorflow-standalone-acjob.yaml": ["AC101", "AC101", "AC101"],
    # 8 NPUs of one pod with duo=true and npu-310-strategy=card: the plugin's card310px2 handler places one
    # card (2 NPUs) per pod, so the job stays Pending ("req npu(8) illegal not meet node top<[0 1 2 3 4 5 6
    # 7]>" on the simulated cluster, the 310p matrix goldens before the profile was fixed).
    "samples__inference__volcano__pytorch_acjob_infer_310p_with_ranktable.yaml": ["AC301"],
    # A volume named huawei.com/npu-config: not a DNS-1123 label. Volcano's job admission validates each
    # task's pod template as Kubernetes does and refuses the job (the simulated cluster refuses the same
    # rename of a module-910b-8 golden's volume: tests/simcluster/test_rules_rejections.py).
    "samples__train__basic-training__ranktable__yaml__950__a950_superpod_pytorch_vcjob.yaml": ["AC709"],
}


def _errors_by_file():
    from ascend_compile.lint.paths import lint_paths

    findings, files = lint_paths([SAMPLES])
    assert files >= 60
    errors = collections.defaultdict(list)
    for finding in findings:
        assert not finding.input_error, finding
        if finding.severity == "error":
            errors[os.path.relpath(finding.file, SAMPLES)].append(finding.rule)
    return {name: sorted(rules) for name, rules in errors.items()}


def test_samples_have_only_the_known_defects():
    needs_shared(SAMPLES)
    assert _errors_by_file() == {name: sorted(rules) for name, rules in DEFECTIVE.items()}


def test_each_sample_file_alone_has_the_same_errors():
    """Linting one file at a time (as pre-commit does) matches the directory run for the samples."""
    needs_shared(SAMPLES)
    from ascend_compile.lint.paths import lint_paths

    for name in sorted(os.listdir(SAMPLES)):
        path = os.path.join(SAMPLES, name)
        if not name.endswith(".yaml"):
            continue
        findings, _ = lint_paths([path])
        errors = sorted(f.rule for f in findings if f.severity == "error")
        assert errors == sorted(DEFECTIVE.get(name, [])), name


def _golden_files():
    from .conftest import ROOT

    out = []
    for folder, _, names in os.walk(os.path.join(ROOT, "golden")):
        out.extend(os.path.join(folder, n) for n in names if n.endswith((".yaml", ".yml")))
    return sorted(out)


def test_goldens_have_no_error():
    """Every golden manifest (what compile writes, and the sample translations) gets no error-level finding."""
    from ascend_compile.lint.paths import lint_paths

    files = _golden_files()
    assert len(files) > 100
    findings, _ = lint_paths(files)
    errors = [f"{f.file}:{f.line}: {f.rule} {f.message}" for f in findings if f.severity == "error"]
    assert errors == []


def test_master_samples_are_covered():
    """The newest upstream convention (master/, schedule_policy annotations) is part of the guard."""
    needs_shared(SAMPLES)
    from ascend_compile.lint.paths import lint_paths

    master = os.path.join(SAMPLES, "master")
    findings, files = lint_paths([master])
    assert files == len([n for n in os.listdir(master) if n.endswith(".yaml")]) > 0
    assert [f for f in findings if f.severity == "error"] == []
