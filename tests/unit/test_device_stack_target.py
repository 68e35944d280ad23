"""The device stack of a run's target (issue 45): how a flag or setting names one, what a target says of it, and
that the rules know every chip HAMi's device plugin alone offers."""
from __future__ import annotations

import pytest

from ascend_compile.releases import DEVICE_STACKS, HAMI_STACKS, MINDCLUSTER_STACK, Target, stack_of


@pytest.mark.parametrize("text,stack", [("hami", "hami"), ("HAMi", "hami"), ("volcano-vnpu/hami", "volcano-vnpu:hami"),
                                        (" Volcano-vNPU:MindCluster ", "volcano-vnpu:mindcluster"),
                                        ("mindcluster", "mindcluster"), ("volcano", None), ("", None), (None, None)])
def test_a_stack_is_named_in_any_case_with_a_colon_or_a_slash(text, stack):
    assert stack_of(text) == stack


def test_a_target_without_a_stack_judges_for_mindclusters_device_plugin():
    target = Target()
    assert target.device_stack is None and target.stack == MINDCLUSTER_STACK
    assert "device stack: MindCluster's device plugin: the default" in target.describe()
    assert target.with_stack(None, "ignored") == target


def test_a_named_stack_says_which_and_why():
    target = Target().with_stack("volcano-vnpu:hami", "--device-stack volcano-vnpu:hami")
    assert target.stack == "volcano-vnpu:hami" and target.stack in HAMI_STACKS
    assert target.describe().endswith(f"device stack: {DEVICE_STACKS['volcano-vnpu:hami']}, judged for Volcano "
                                      "v1.15.1: --device-stack volcano-vnpu:hami")


def test_every_resource_only_hami_offers_has_its_chip():
    from ascend_compile.lint.rules._stacks import HAMI_CHIPS
    from ascend_compile.vocabulary import HAMI_ONLY_RESOURCES

    assert set(HAMI_ONLY_RESOURCES) <= set(HAMI_CHIPS)
    for chip in HAMI_CHIPS.values():
        sizes = [size for _, size in chip.templates]
        assert sizes == sorted(sizes) and sizes[-1] < chip.allocatable <= chip.capacity
