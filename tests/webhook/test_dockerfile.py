"""deploy/Dockerfile (issue 48): every base pinned to an exact patch release (or a digest), never ``latest``; the
image runs as the non-root user the Deployment of ``webhook manifests`` runs it as; its entry point is
``ascend-compile webhook serve``; it installs the wheel built from this checkout and fetches nothing when it runs."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import List, Tuple

from ascend_compile.webhook.manifests import PORT, USER_ID
from tests.checkout import ROOT

DOCKERFILE = ROOT / "deploy" / "Dockerfile"
#: an exact patch release (python:3.11.11-slim-bookworm) or a digest
PINNED = re.compile(r"^[\w./-]+(:\d+\.\d+\.\d+[\w.-]*)?(@sha256:[0-9a-f]{64})?$")


def _instructions(path: Path = DOCKERFILE) -> List[Tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments left out."""
    out: List[Tuple[str, str]] = []
    pending = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line.rstrip("\\").strip() + " "
        if line.endswith("\\"):
            continue
        word, _, rest = pending.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
        pending = ""
    return out


def _bases() -> List[str]:
    stages = {rest.split()[2] for word, rest in _instructions() if word == "FROM" and " AS " in rest.upper()}
    return [rest.split()[0] for word, rest in _instructions() if word == "FROM" and rest.split()[0] not in stages]


def test_every_base_is_pinned_and_none_is_latest() -> None:
    bases = _bases()
    assert bases, "no FROM"
    for base in bases:
        assert "latest" not in base, base
        assert ":" in base or "@sha256:" in base, f"{base}: no tag"
        assert PINNED.match(base) and (re.search(r":\d+\.\d+\.\d+", base) or "@sha256:" in base), \
            f"{base}: pin an exact patch release (python:3.11.11-slim) or a digest"


def test_the_image_runs_as_the_non_root_user_the_deployment_names() -> None:
    users = [rest for word, rest in _instructions() if word == "USER"]
    assert users, "no USER: the image would run as root"
    user = users[-1].split(":")[0]
    assert user not in ("0", "root") and user == str(USER_ID)
    last_from = max(i for i, (word, _) in enumerate(_instructions()) if word == "FROM")
    assert any(word == "USER" for word, _ in _instructions()[last_from:]), "USER must be in the final stage"


def test_the_entry_point_is_webhook_serve_and_the_port_the_deployment_uses() -> None:
    entry = [json.loads(rest) for word, rest in _instructions() if word == "ENTRYPOINT"]
    assert entry == [["ascend-compile", "webhook", "serve"]]
    assert ("EXPOSE", str(PORT)) in _instructions()


def test_it_installs_the_wheel_of_this_checkout_and_fetches_nothing_at_run_time() -> None:
    instructions = _instructions()
    runs = " ".join(rest for word, rest in instructions if word == "RUN")
    assert "pip wheel" in runs and ".whl" in runs
    assert not any(word == "ADD" for word, _ in instructions), "ADD can fetch URLs: COPY what the image needs"
    final = instructions[max(i for i, (word, _) in enumerate(instructions) if word == "FROM"):]
    assert not any(word in ("CMD", "HEALTHCHECK") and re.search(r"\b(curl|wget|pip)\b", rest) for word, rest in final)
    copied = {rest.split()[0].rstrip("/") for word, rest in instructions if word == "COPY" and "--from" not in rest}
    assert {"pyproject.toml", "compiler", "schemas", "profiles"} <= copied
