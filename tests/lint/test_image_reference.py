"""AC710 image-reference: the references the kubelet refuses (InvalidImageName), and none it accepts.

The case table is ours, written from the grammar of github.com/distribution/reference v0.6.0 (regexp.go,
normalize.go), which the kubelet of Kubernetes v1.32.4 uses (pkg/util/parsers/parsers.go).  The last test runs
the same parse in Go, from the module cache the simulated cluster's build fills, on the table and on variants
of it, and requires the rule to agree with it on every one.
"""
from __future__ import annotations

import itertools
import os
import subprocess
import tempfile

import pytest

from tests.checkout import ROOT  # noqa: F401  (imports this checkout's ascend_compile)
from .conftest import lint_text

ACCEPTED = [
    "ubuntu", "ubuntu:22.04", "library/ubuntu:22.04", "docker.io/library/ubuntu:latest", "index.docker.io/ubuntu",
    "localhost/x", "localhost:5000/x", "localhost:5000/team/x:v1", "registry.local:5000/tools/ascend:1.0",
    "Registry.Example.com/x/y:1",  # upper case is allowed in the registry host
    "REGISTRY/x",  # an upper-case first part is taken for a registry
    "[::1]:5000/foo", "[fe80::1]/foo:bar", "127.0.0.1:5000/foo",
    "a__b/c-d.e_f:1", "a--b/c---d", "a.b/c.d/e", "x:" + "t" * 128, "x:_tag", "x:Tag.With-Caps_1",
    "swr.cn-south-1.myhuaweicloud.com/ascendhub/mindie:1.0.0-800I-A2-py311-openeuler24.03-lts",
    "swr.cn-south-1.myhuaweicloud.com/ascendhub/ascend-pytorch:24.0.RC1-A2-1.11.0-ubuntu20.04",
    "foo@sha256:" + "a" * 64, "foo:v1@sha256:" + "0123456789abcdef" * 4, "foo@sha384:" + "b" * 96,
    "foo@sha512:" + "c" * 128, "x" * 200, "a/" * 100 + "b",
]
REFUSED = [
    "ubuntu：22.04",  # a full-width colon, copied from a Chinese document
    "ubuntu:22.04 ", " ubuntu", "ubuntu :22.04", "my image:1", "ubuntu\t", "ubuntu:２２.04", "registry／x",
    "Ubuntu:22.04", "registry.local/Tools/ascend:1.0", "docker.io/Foo", "team/Image",
    "x:" + "t" * 129, "x:.tag", "x:-tag", "x:", "x@", "x::1", "x:1:2",
    "a___b", "a_-b", "-a", "a-", ".a", "a.", "a..b", "a//b", "/a", "a/", "",
    "foo@sha256:" + "a" * 63, "foo@sha256:" + "A" * 64, "foo@md5:" + "a" * 32, "foo@sha256:xyz",
    "a" * 64,  # a bare image ID
    "x" * 250, "a/" * 130 + "b",  # paths over 255 characters (with library/ for one part)
    "ex.com:abc/x", "[::1/x", "http://registry/x",
]


def refusal(image):
    from ascend_compile.lint.rules.image_reference import refusal as rule_refusal

    return rule_refusal(image)


@pytest.mark.parametrize("image", ACCEPTED)
def test_accepted_reference_is_not_flagged(image):
    assert refusal(image) is None


@pytest.mark.parametrize("image", [i for i in REFUSED if i])
def test_refused_reference_is_flagged(image):
    assert refusal(image) is not None


def test_full_width_colon_message_names_the_character_and_the_consequence():
    text = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: mindie-server}
spec:
  replicas: 1
  selector: {matchLabels: {app: mindie-server}}
  template:
    metadata: {labels: {app: mindie-server}}
    spec:
      initContainers:
      - {name: prepare, image: "busybox:1.36"}
      containers:
      - name: server
        image: "ubuntu：22.04"
"""
    findings = [f for f in lint_text(text, "deploy.yaml") if f.rule == "AC710"]
    assert [(f.line, f.column) for f in findings] == [(14, 16)]
    assert "FULLWIDTH COLON" in findings[0].message and "InvalidImageName" in findings[0].message
    assert findings[0].severity == "error"


def _variants():
    """Deterministic variants of the table: characters put in, taken out and changed at every place."""
    chars = [":", "/", "@", ".", "_", "-", "__", "A", "a", "0", " ", "：", "[", "]", "sha256:" + "f" * 64]
    base = [i for i in ACCEPTED if len(i) < 100]
    out = set()
    for image in base:
        for position in range(len(image) + 1):
            out.update(image[:position] + char + image[position:] for char in chars)
            out.update(image[:position] + char + image[position + 1:] for char in chars)
            out.add(image[:position] + image[position + 1:])
    for a, b in itertools.product(["x", "reg.io", "reg.io:5000", "localhost", "Reg"], ["y", "Y", "y_z", "y:1"]):
        out.add(f"{a}/{b}")
    return sorted(i for i in out | set(ACCEPTED) | set(REFUSED) if i and "\n" not in i)


@pytest.fixture(scope="module")
def kubelet_parse():
    """A function telling whether the kubelet's parser accepts each image (built once from the module cache)."""
    from tests.integration import controlplane

    go = controlplane.find_go()
    cache = controlplane._cache_home() / "go-mod" / "github.com" / "distribution" / "reference@v0.6.0"
    if go is None or not cache.is_dir():
        pytest.skip("Go or github.com/distribution/reference v0.6.0 in the module cache is missing: the "
                    "differential check against the kubelet's parser cannot run here")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "imageref")
    env = controlplane._go_env()
    env["GOPROXY"] = "off"
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "imageref")
        built = subprocess.run([go, "build", "-o", binary, "."], cwd=source, env=env, capture_output=True,
                               text=True, timeout=600)
        assert built.returncode == 0, built.stderr

        def parse(images):
            out = subprocess.run([binary], input="".join(i + "\n" for i in images), capture_output=True,
                                 text=True, timeout=120, check=True).stdout.split()
            assert len(out) == len(images)
            return dict(zip(images, [answer == "ok" for answer in out]))

        yield parse


def test_the_rule_agrees_with_the_kubelets_parser(kubelet_parse):
    images = _variants()
    assert len(images) > 10000
    kubelet = kubelet_parse(images)
    assert all(kubelet[i] for i in ACCEPTED) and not any(kubelet[i] for i in REFUSED if i)
    disagree = [(i, kubelet[i], refusal(i)) for i in images if (refusal(i) is None) != kubelet[i]]
    assert disagree == []
