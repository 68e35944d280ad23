"""AC711 env-reference: how the kubelet reads $(VAR) (third_party/forked/golang/expansion/expand.go, v1.32.4)."""
from __future__ import annotations

import pytest

from tests.checkout import ROOT  # noqa: F401  (imports this checkout's ascend_compile)
from .conftest import lint_text


@pytest.mark.parametrize("text, names", [
    ("$(A)/x", ["A"]),
    ("$$(A)", []),  # the escape
    ("$$$(A)", ["A"]),  # an escaped $, then a reference
    ("$(A", []),  # no closer: left as it is
    ("$x$(B)", ["B"]),
    ("$(A)$(B)", ["A", "B"]),
    ("$()", [""]),
    ("$($(A))", ["$(A"]),  # the first ')' closes the reference
    ("trailing $", []),
])
def test_references_follow_the_kubelets_expansion(text, names):
    from ascend_compile.lint.rules.env_reference import references

    assert references(text) == names


def _pod(env: str, links: str = "") -> str:
    return f"""\
apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
{links}  containers:
  - name: c
    image: busybox:1.36
    env:
{env}"""


def _found(text):
    return [(f.line, f.message) for f in lint_text(text, "pod.yaml") if f.rule == "AC711"]


def test_a_self_reference_is_not_defined_yet():
    found = _found(_pod("    - {name: PATH_X, value: '$(PATH_X):/opt/bin'}\n"))
    assert len(found) == 1 and "defines it after" not in found[0][1] and "no such variable" in found[0][1]


def test_service_link_names_count_only_while_service_links_are_on():
    env = "    - {name: ADDR, value: '$(MINDIE_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)'}\n"
    assert _found(_pod(env)) == []
    off = _found(_pod(env, "  enableServiceLinks: false\n"))
    assert [m for _, m in off] == [m for _, m in off if "MINDIE_SERVICE_HOST" in m] and len(off) == 1


def test_a_volcano_job_env_value_cannot_use_what_its_plugins_append():
    text = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: infer}
spec:
  minAvailable: 1
  schedulerName: volcano
  queue: default
  plugins: {env: []}
  tasks:
  - name: worker
    replicas: 1
    template:
      spec:
        restartPolicy: Never
        containers:
        - name: infer
          image: infer_image:latest
          command: ["/bin/bash", "-c", "echo $(VC_TASK_INDEX)"]
          env:
          - {name: RANK_ID, value: "$(VC_TASK_INDEX)"}
"""
    found = _found(text)
    assert [line for line, _ in found] == [20] and "VC_TASK_INDEX" in found[0][1]


def test_service_link_names_are_the_kubelets_pattern() -> None:
    # the scan that replaced the regular expression (it backtracked quadratically) accepts the same names
    import itertools
    import re

    from ascend_compile.lint.rules.env_reference import _service_link

    pattern = re.compile(r"KUBERNETES_.*|.+_SERVICE_(HOST|PORT)(_.+)?|.+_PORT(_.+)?")
    parts = ["", "A", "_", "_PORT", "_SERVICE_HOST", "_SERVICE_PORT", "KUBERNETES_", "PORT", "_X", "HOST"]
    for combo in itertools.product(parts, repeat=3):
        name = "".join(combo)
        assert _service_link(name) == bool(pattern.fullmatch(name)), name
