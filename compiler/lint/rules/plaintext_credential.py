"""A literal env value or ConfigMap entry looks like a credential.

**What.** Flags env ``value`` literals and ConfigMap ``data`` entries that look
like secrets: a name such as ``PASSWORD``, ``TOKEN``, ``SECRET``, ``API_KEY``,
``ACCESS_KEY``, ``PRIVATE_KEY``, ``CREDENTIALS``, ``GITHUB_PAT``, ``HF_HUB_KEY``
with a literal value, or a
value that matches a well-known secret format (PEM private key, AWS access key
ID, GitHub / Slack / Hugging Face tokens, JWTs, ``scheme://user:password@host``
URLs).

**Why.** Manifests are committed, printed by ``kubectl get -o yaml`` and
readable by anyone who can read the namespace's jobs or ConfigMaps; Secrets
have their own RBAC and can be encrypted at rest. Image-registry and dataset
tokens in training jobs are a common leak.

**How to fix.** Put the value in a Secret and reference it with
``valueFrom.secretKeyRef`` (or mount it). If the value is not secret, suppress
with a reason.

Failing::

    env:
    - name: HF_TOKEN
      value: hf_abcdefghijklmnopqrstuvwxyz0123456789

Passing::

    env:
    - name: HF_TOKEN
      valueFrom:
        secretKeyRef: {name: hf-token, key: token}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Pattern, Set, Tuple
import re

from ...catalogue.citations import Citation, NONE
from ...manifest.values import as_dict
from ...vocabulary import CONFIG_MAP, SECRET_NAME
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("", "no upstream rule: Kubernetes Secrets documentation (a security convention)", NONE)


_NAME = SECRET_NAME
_VALUE_PATTERNS = (
    ("a private key", r"-----BEGIN ([A-Z]+ )*PRIVATE KEY-----", 0),
    ("an AWS access key ID", r"\b(AKIA|ASIA)[0-9A-Z]{16}\b", 0),
    ("a GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36,}\b", 0),
    ("a Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}", 0),
    ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{30,}\b", 0),
    ("a JSON web token", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", 0),
    # The scheme may only start where no scheme character precedes it, and every part is bounded:
    # without that, a long word makes the search quadratic.
    ("a URL with a password",
     r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}://[^/\s:@]{1,256}:[^/\s@]{1,256}@", re.I),
)
_VALUE: List[Tuple[str, Pattern[str]]] = []  # (what, compiled pattern): compiled when first needed (most runs never need them)
#: text each pattern of _VALUE needs: a value holding none of it matches none (one cheap test per value)
_NEEDS = ("PRIVATE KEY", "AKIA", "ASIA", "gh", "xox", "hf_", "eyJ", "://")
_NEEDED = re.compile("|".join(re.escape(needed) for needed in _NEEDS))  # any of them, in one search
#: values that are clearly not secrets even under a secret-looking name
_HARMLESS = re.compile(r"^(|true|false|yes|no|none|null|0|1|on|off|\$\(.*\)|\$\{.*\}|<.*>|changeme)$", re.I)


#: env names and ConfigMap keys _NAME does not match: a run's jobs repeat them (bounded, whatever the input; a
#: search costs ~0.3 us)
_PLAIN_NAMES: Set[str] = set()


def _secret_name(name: str) -> bool:
    if name in _PLAIN_NAMES:
        return False
    if _NAME.search(name) is not None:
        return True
    if len(_PLAIN_NAMES) < 4096:
        _PLAIN_NAMES.add(name)
    return False


def _looks_secret(name: Any, value: Any) -> Optional[str]:
    if not isinstance(value, str):
        return None
    if _NEEDED.search(value) is not None:
        if not _VALUE:
            _VALUE.extend((what, re.compile(pattern, flags)) for what, pattern, flags in _VALUE_PATTERNS)
        for what, pattern in _VALUE:
            if pattern.search(value):
                return what
    if isinstance(name, str) and _secret_name(name) and not _HARMLESS.match(value.strip()) \
            and not value.startswith("/") and len(value.strip()) >= 4:
        return f"a literal value under the secret-looking name {name}"
    return None


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.kind == CONFIG_MAP:
        for key, value in as_dict(obj.data.get("data")).items():
            what = _looks_secret(key, value)
            if what:
                yield Problem(("data", key), f"ConfigMap entry {key!r} looks like a credential ({what}); "
                                             "ConfigMaps are not secret")
        return
    for pod_set in obj.pod_sets():
        for container in pod_set.containers():
            for index, item in container.env():
                value, name = item.get("value"), item.get("name")
                if not isinstance(value, str) or (_NEEDED.search(value) is None
                                                  and (not isinstance(name, str) or name in _PLAIN_NAMES)):
                    continue  # most env: no literal value, or one no pattern can match under a harmless name
                what = _looks_secret(name, value)
                if what:
                    yield Problem(container.path + ("env", index, "value"),
                                  f"env {name!r} of container {container.name!r} looks like a credential ({what})")
