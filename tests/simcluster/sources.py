"""The pinned upstream source archives in ``../shared/upstream/src``: find, verify, unpack.

The archives are exact ``git archive`` snapshots (provenance and checksums in
``../shared/upstream/src/SOURCES.md``).  Their SHA-256s are pinned here as well;
:func:`verify` refuses an archive whose checksum differs, and refuses to go on
when SOURCES.md lists another checksum than the one pinned (then both must be
reviewed together).  Nothing is ever written into ``../shared`` (CI lays it
read-only): archives unpack into the build cache.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Optional

from tests.checkout import SHARED

SOURCE_DIR = SHARED / "upstream" / "src"
SOURCES_MD = SOURCE_DIR / "SOURCES.md"


class SourceError(RuntimeError):
    """An archive is missing, differs from its pinned checksum, or cannot be unpacked."""


@dataclass(frozen=True)
class Archive:
    key: str  # our short name
    filename: str
    sha256: str
    #: the folder the archive unpacks to (its single top-level directory)
    top: str

    @property
    def path(self) -> Path:
        return SOURCE_DIR / self.filename


ARCHIVES: Dict[str, Archive] = {a.key: a for a in (
    Archive("volcano", "volcano-v1.12.0.tar.gz",
            "c797e4522a8190aaf8812db879bdf0105a00e3ab38e2a7d601a14622dad8748c", "volcano-v1.12.0"),
    Archive("volcano-apis-1.12", "volcano-apis-v1.12.0.tar.gz",
            "42ccb572e6f345b119b5d99f2870a08b55103a05ae973b7ab5e6b7e0b7187f2c", "volcano-apis-v1.12.0"),
    Archive("volcano-apis-1.7", "volcano-apis-v1.7.0.tar.gz",
            "60173c0c44d839ab94c24886bc643ea98fb590076a3fedd83779d94b04831d51", "volcano-apis-v1.7.0"),
    Archive("mind-cluster", "mind-cluster-22bb3d987bc0.tar.gz",
            "960e019adc570f12af717ae0d762021b3a8a9c29cd2049f26f5773c4c092cc5f", "mind-cluster"),
    # the released versions (SOURCES.md, "Released versions"), in the folder releases/
    Archive("volcano-1.9", "releases/volcano-v1.9.0.tar.gz",
            "d5342e49549fc3fdae66d8bb9988629a8bb779f83a4aa9bb61b054c72e5c3448", "volcano-v1.9.0"),
    Archive("volcano-apis-1.9", "releases/volcano-apis-v1.9.0.tar.gz",
            "e5e754dde95059924352cdb659a2b276f3793d439272b40f07914e47cbeb33dc", "volcano-apis-v1.9.0"),
    Archive("mind-cluster-v6.0.0", "releases/mind-cluster-v6.0.0.tar.gz",
            "175d681dd0cee2e78914bdb7f8a9f26830d48e1594ea4a0df70d4ac60bca03fc", "mind-cluster-v6.0.0"),
    Archive("mind-cluster-v7.0.RC1", "releases/mind-cluster-v7.0.RC1.tar.gz",
            "9f821bd0bd907bb01eb75bdd8aa9cf02eba543fbe7cb7d1003dae899cdefcd53", "mind-cluster-v7.0.RC1"),
    Archive("mind-cluster-v7.3.2", "releases/mind-cluster-v7.3.2.tar.gz",
            "a9018915bbc54ad404e1fa31ef6f9d05a39026aee91ba8f4d6ade15c1feffc8b", "mind-cluster-v7.3.2"),
    Archive("mind-cluster-v26.0.1", "releases/mind-cluster-v26.0.1.tar.gz",
            "a16a5340c9b215584423f8aae8d218d611b1bfc827a5f914fb52a0c6d98d36c5", "mind-cluster-v26.0.1"),
    Archive("mind-cluster-v26.1.0", "releases/mind-cluster-v26.1.0.tar.gz",
            "5c2f42ed94ba121237b8d889ff0d871562e930d645b46fc245f138e236335a0d", "mind-cluster-v26.1.0"),
    # Volcano's own Ascend device sharing (deviceshare: HAMi mode, MindCluster vNPU mode); its apis are staged inside
    Archive("volcano-1.15", "releases/volcano-v1.15.1.tar.gz",
            "e6e3d69cc9b4a3ae46fc1a2e90630f8c85d590a4a568f22c2258c63ff3bc574b", "volcano-v1.15.1"),
)}


def missing_reason() -> Optional[str]:
    """None when every archive is there, else a one-line reason (for a skip)."""
    if not SOURCE_DIR.is_dir():
        return f"{SOURCE_DIR} is absent (../shared not beside the checkout): no upstream sources to build"
    absent = [a.filename for a in ARCHIVES.values() if not a.path.is_file()]
    if absent:
        return f"upstream archives missing from {SOURCE_DIR}: {', '.join(absent)}"
    return None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _listed_in_sources_md() -> Dict[str, str]:
    """filename -> sha256 as SOURCES.md lists them (its ``sha256:`` block)."""
    if not SOURCES_MD.is_file():
        return {}
    listed = {}
    for match in re.finditer(r"^([0-9a-f]{64})\s+(\S+\.tar\.gz)\s*$", SOURCES_MD.read_text(), re.MULTILINE):
        listed[match.group(2)] = match.group(1)
    return listed


def verify(keys: Iterable[str] = tuple(ARCHIVES)) -> None:
    """Check each archive against its pinned SHA-256 (and SOURCES.md against the pins)."""
    reason = missing_reason()
    if reason:
        raise SourceError(reason)
    listed = _listed_in_sources_md()
    for key in keys:
        archive = ARCHIVES[key]
        if archive.filename in listed and listed[archive.filename] != archive.sha256:
            raise SourceError(
                f"{SOURCES_MD} lists sha256 {listed[archive.filename]} for {archive.filename}, but "
                f"tests/simcluster/sources.py pins {archive.sha256}: review the new archive, then update the pin")
        actual = _sha256(archive.path)
        if actual != archive.sha256:
            raise SourceError(f"{archive.path}: sha256 {actual} differs from the pinned {archive.sha256}")


def unpack(key: str, dest: Path) -> Path:
    """Unpack one archive into ``dest`` (replacing it) and return its top-level folder there."""
    archive = ARCHIVES[key]
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    try:
        with tarfile.open(archive.path, "r:gz") as tar:
            tar.extractall(dest, filter="data")
    except (tarfile.TarError, OSError) as exc:
        raise SourceError(f"cannot unpack {archive.path}: {exc}") from exc
    top = dest / archive.top
    if not top.is_dir():
        raise SourceError(f"{archive.path} did not unpack to {archive.top}/")
    return top
