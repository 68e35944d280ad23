"""A container's image is no reference Kubernetes can pull: the pod never starts (InvalidImageName).

**What.** Every container and init container's ``image`` must parse as a container image
reference: ``[registry[:port]/]path[:tag][@digest]`` where

- the registry is a host name (letters, digits, ``-``, dots between its parts; upper case
  allowed), an IPv6 address in brackets, or ``localhost``, with an optional ``:port``;
- the path is one or more ``/``-separated parts of **lower-case** letters and digits, joined
  inside a part by one ``.``, one or two ``_``, or any number of ``-`` (at most 255 characters
  with the registry's default ``library/`` prefix);
- the tag is a letter, digit or ``_`` and then at most 127 more of those or ``.`` and ``-``;
- the digest is ``sha256:`` and 64 lower-case hex digits (``sha384`` 96, ``sha512`` 128);
- no space, tab, non-ASCII character (a full-width colon ``：`` or slash copied from a
  Chinese document), and not a bare 64-digit hex image ID.

Leading or trailing spaces are refused by the API server itself ("must not have leading or
trailing whitespace"); everything else is accepted by the API server and refused by the
kubelet on the node.

**Why.** The kubelet parses the image name before pulling it; one it cannot parse puts
the container in ``InvalidImageName`` and the pod never starts: the job holds its NPUs
and never runs. An error. The simulated cluster fakes the kubelet (kwok), so it cannot
show this: the rule follows the kubelet's code, and the reference grammar of the
distribution and OCI digest libraries it uses; the API server's container validation
refuses whitespace.

**How to fix.** Write the reference in ASCII with a lower-case repository path, e.g.
``ubuntu:22.04``, ``swr.cn-south-1.myhuaweicloud.com/ascendhub/mindie:1.0.0-800I-A2-py311``.

Failing::

    containers:
    - name: ascend
      image: ubuntu：22.04          # a full-width colon
    - name: sidecar
      image: Registry.local/Tools/Ascend:1.0   # upper case in the path

Passing::

    containers:
    - name: ascend
      image: ubuntu:22.04
    - name: sidecar
      image: registry.local:5000/tools/ascend:1.0
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator, Optional, Tuple

from ...catalogue.citations import Citation, K8S, K8V, Place
from ..rule import Problem
from ._util import pod_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("EnsureImageExists", "pkg/kubelet/images/image_manager.go", K8S,
                    "Failed to apply default image tag %q: %v (InvalidImageName)",
                    also=(Place("applyDefaultImageTag", "pkg/kubelet/images/image_manager.go", K8S),
                          Place("ParseImageName", "pkg/util/parsers/parsers.go", K8S),
                          Place("ParseNormalizedNamed", "vendor/github.com/distribution/reference/normalize.go", K8S),
                          Place("splitDockerDomain", "vendor/github.com/distribution/reference/normalize.go", K8S),
                          Place("Parse", "vendor/github.com/distribution/reference/reference.go", K8S),
                          Place("", "vendor/github.com/distribution/reference/regexp.go", K8S),
                          Place("Digest.Validate", "vendor/github.com/opencontainers/go-digest/digest.go", K8S),
                          Place("validateContainers", K8V, K8S)))

# The image reference grammar the kubelet parses, in ASCII: Go's \w and classes are ASCII-only.
_ALNUM = r"[a-z0-9]+"
_SEPARATOR = r"(?:[._]|__|[-]+)"
_DOMAIN_PART = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_HOST = rf"(?:{_DOMAIN_PART}(?:\.{_DOMAIN_PART})*|\[(?:[a-fA-F0-9:]+)\])"
_DOMAIN_AND_PORT = rf"{_HOST}(?::[0-9]+)?"
_TAG = r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}"
_DIGEST = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}"
_PATH_PART = rf"{_ALNUM}(?:{_SEPARATOR}{_ALNUM})*"
_REMOTE = rf"{_PATH_PART}(?:/{_PATH_PART})*"
_REFERENCE = re.compile(rf"((?:{_DOMAIN_AND_PORT}/)?{_REMOTE})(?::({_TAG}))?(?:@({_DIGEST}))?", re.ASCII)
_NAME = re.compile(rf"(?:({_DOMAIN_AND_PORT})/)?({_REMOTE})", re.ASCII)
_IMAGE_ID = re.compile(r"[a-f0-9]{64}", re.ASCII)
_PATH_MAX = 255
#: the digest algorithms the kubelet has (it imports crypto/sha256 and crypto/sha512) and their hex lengths
_DIGEST_HEX = {"sha256": 64, "sha384": 96, "sha512": 128}
_DEFAULT_DOMAIN = "docker.io"
_LEGACY_DOMAIN = "index.docker.io"
_OFFICIAL_PREFIX = "library/"
#: what happens to a pod whose image the API server accepts and the kubelet cannot parse
KUBELET = "the kubelet reports InvalidImageName and the pod never starts"
WHITESPACE = "has leading or trailing whitespace: the API server refuses the pod"


def refusal(image: str) -> Optional[str]:
    """Why Kubernetes cannot pull ``image`` (the API server or the kubelet refuses it), None when it can."""
    if image != image.strip():
        return WHITESPACE
    if _IMAGE_ID.fullmatch(image):
        return "is a bare 64-digit image ID, which is no repository name"
    domain, remainder = _split_domain(image)
    remote = remainder.split(":", 1)[0]
    if remote.lower() != remote:
        written = remote[len(_OFFICIAL_PREFIX):] if remote.startswith(_OFFICIAL_PREFIX) \
            and _OFFICIAL_PREFIX not in image else remote
        return f"has upper case in its repository path {written!r}: it must be lower case"
    match = _REFERENCE.fullmatch(f"{domain}/{remainder}")
    if match is None:
        return _why_not(image)
    name = _NAME.fullmatch(match.group(1))
    path = name.group(2) if name else match.group(1)
    if len(path) > _PATH_MAX:
        return f"has a repository path of {len(path)} characters (at most {_PATH_MAX})"
    digest = match.group(3)
    if digest:
        algorithm, _, encoded = digest.partition(":")
        size = _DIGEST_HEX.get(algorithm)
        if size is None:
            return f"has a digest of algorithm {algorithm!r}: only sha256, sha384 and sha512 are supported"
        if len(encoded) != size or not re.fullmatch(r"[a-f0-9]+", encoded, re.ASCII):
            return f"has a {algorithm} digest that is not {size} lower-case hex digits"
    return None


def _split_domain(name: str) -> Tuple[str, str]:
    """The registry and the rest, as the kubelet's parser splits a familiar name."""
    first, slash, rest = name.partition("/")
    if not slash:
        return _DEFAULT_DOMAIN, _OFFICIAL_PREFIX + name
    if first == _LEGACY_DOMAIN:
        domain, remote = _DEFAULT_DOMAIN, rest
    elif first == "localhost" or any(c in first for c in ".:") or first.lower() != first:
        domain, remote = first, rest
    else:
        domain, remote = _DEFAULT_DOMAIN, name
    if domain == _DEFAULT_DOMAIN and "/" not in remote:
        remote = _OFFICIAL_PREFIX + remote
    return domain, remote


def _why_not(image: str) -> str:
    """What makes ``image`` fail the grammar, as specific as can be said."""
    for position, char in enumerate(image):
        if ord(char) > 127:
            import unicodedata  # only for an image that is not ASCII: the lint of a valid one need not import it

            name = unicodedata.name(char, "")
            return f"has {char!r} ({name or f'U+{ord(char):04X}'}) at position {position + 1}: image references " \
                   "are ASCII"
        if char.isspace():
            return f"has a space at position {position + 1}"
    repository, at, digest = image.partition("@")
    tail = repository.rsplit("/", 1)[-1]
    if ":" in tail:
        tag = tail.split(":", 1)[1]
        if len(tag) > 128:
            return f"has a tag of {len(tag)} characters (at most 128)"
        if not re.fullmatch(_TAG, tag, re.ASCII):
            return f"has the tag {tag!r}: a tag is letters, digits, '_', '.' and '-', not starting with '.' or '-'"
    if at and not re.fullmatch(_DIGEST, digest, re.ASCII):
        return f"has the digest {digest!r}, which is not <algorithm>:<hex digits>"
    return "is not of the form [registry[:port]/]name[:tag][@digest] (lower-case path parts joined by '/', " \
           "each of letters and digits separated by '.', '_', '__' or '-')"


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        for path, container in pod_containers(pod_set):
            image = container.get("image")
            if not isinstance(image, str) or not image:
                continue  # a missing image is the schema's (and AC210's)
            why = refusal(image)
            if why is not None:
                yield Problem(path + ("image",), f"image {image!r} {why}" + ("" if why == WHITESPACE else f"; {KUBELET}"))
