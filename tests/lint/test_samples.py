"""Every upstream sample lints without error-level findings, except the defective ones named here."""
from __future__ import annotations

import collections
import os

from .conftest import SAMPLES, needs_shared

#: sample file -> the error-level findings (rule IDs, with repeats) it must produce, and why
DEFECTIVE = {
    # mind-cluster v6.0.0-RC3 operator examples: an env value written as a bare 1 (an integer,
    # where Kubernetes wants a string).
    "component__ascend-operator__examples__mindspore-distribute-acjob.yaml": ["AC102"],
    "component__ascend-operator__examples__mindspore-standalone-acjob.yaml": ["AC102"],
    "component__ascend-operator__examples__pytorch-distribute-acjob.yaml": ["AC102"],
    "component__ascend-operator__examples__tensorflow-distribute-acjob.yaml": ["AC102"],
    # cleanPodPolicy, backoffLimit and schedulingPolicy sit directly under spec instead of
    # spec.runPolicy, so the operator ignores them.
    "component__ascend-operator__examples__tensorflow-standalone-acjob.yaml": ["AC101", "AC101", "AC101"],
    # mind-cluster system-test fixtures, not user samples: the acjob mounts its ranktable volume at
    # /user/mindx/ranktable, the vcjob has the ring-controller label but no rings-config ConfigMap.
    "tests__st__testcases__multi_node_schedule__resources_0001__job_kwok_simulator-8x8.yaml": ["AC503"],
    "tests__st__testcases__multi_node_schedule__resources_0001__vcjob_kwok_simulator-8x8.yaml": ["AC501", "AC503"],
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
