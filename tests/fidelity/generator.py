"""The generated jobs: every simulated parent as it is, and single-field mutations of sampled parents.

Deterministic: parents in a fixed order, mutations in their registration
order, and each mutation's sample of parents chosen by a hash of the seed, the
mutation and the parent (stable when other parents come and go).  :func:`generate` gives the full set; :func:`ci_subset`
the reduced one CI runs.  Bump :data:`GENERATOR_VERSION` whenever the set of
jobs changes on purpose (docs/fidelity.md records the version and the count,
and a test checks they match).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from tests.fidelity.mutations import DESCRIPTIONS, MUTATIONS, Context
from tests.fidelity.parents import Parent, load_parents, profiles as load_profiles
from tests.simcluster import nodes

GENERATOR_VERSION = 7
SEED = 14
#: parents sampled per mutation (fewer when fewer apply)
PER_MUTATION = 7
#: jobs per mutation in the CI subset, and unmutated parents in it
CI_PER_MUTATION = 2
CI_PARENTS = 12


@dataclass
class Job:
    id: str
    parent: str
    source: str
    profile: str
    mutation: str  # "" for a parent as it is
    objects: List[Dict[str, Any]] = field(repr=False)


@dataclass
class Generated:
    jobs: List[Job]
    skipped: List[Tuple[str, str]]  # (parent, reason) not judged by the oracle


def _context(parent: Parent, profiles: Dict[str, nodes.HardwareProfile]) -> Context:
    return Context(profiles.get(parent.profile), profiles)


def _rank(mutation: str, key: object) -> str:
    """A parent's (or group's) place in a mutation's sample: a hash, so adding or removing a parent (a
    new golden, a spec the compiler now refuses) changes no other parent's chance, and saved verdicts
    stay valid."""
    return hashlib.sha256(f"{SEED}:{mutation}:{key}".encode()).hexdigest()


def _spread(mutation: str, candidates: List[Tuple[Parent, List[Dict[str, Any]]]],
            count: int) -> List[Tuple[Parent, List[Dict[str, Any]]]]:
    """``count`` candidates in hash order, taken round-robin over (profile, source) groups visited in
    hash order too (so each mutation meets several kinds of hardware and of manifest)."""
    groups: Dict[Tuple[str, str], List[Tuple[Parent, List[Dict[str, Any]]]]] = {}
    for item in sorted(candidates, key=lambda c: _rank(mutation, c[0].id)):
        groups.setdefault((item[0].profile, item[0].source), []).append(item)
    order = [groups[k] for k in sorted(groups, key=lambda k: _rank(mutation, k))]
    chosen: List[Tuple[Parent, List[Dict[str, Any]]]] = []
    while len(chosen) < count and any(order):
        for group in order:
            if group and len(chosen) < count:
                chosen.append(group.pop(0))
    return chosen


def generate(parents: Optional[List[Parent]] = None) -> Generated:
    """Every job of the full run, in a fixed order."""
    parents = load_parents() if parents is None else parents
    profiles = load_profiles()
    judged = [p for p in parents if p.simulated]
    skipped = [(p.id, f"profile {p.profile} is not simulated ({nodes.UNSIMULATED[p.profile]})"
                if p.profile in nodes.UNSIMULATED else "its hardware profile cannot be told")
               for p in parents if not p.simulated]
    jobs = [Job(p.id, p.id, p.source, p.profile, "", p.copy_objects()) for p in judged]
    for name, mutate in MUTATIONS.items():
        candidates = []
        for parent in judged:
            objects = parent.copy_objects()
            if mutate(objects, _context(parent, profiles)):
                candidates.append((parent, objects))
        for parent, objects in _spread(name, candidates, PER_MUTATION):
            jobs.append(Job(f"{parent.id}~{name}", parent.id, parent.source, parent.profile, name, objects))
    return Generated(jobs, skipped)


def ci_subset(jobs: List[Job]) -> List[Job]:
    """The CI run: the first few jobs of every mutation and a few unmutated parents of each source."""
    chosen: List[Job] = []
    per: Dict[str, int] = {}
    for job in jobs:
        limit = CI_PER_MUTATION if job.mutation else CI_PARENTS // 3
        key = job.mutation or f"parent:{job.source}"
        if per.get(key, 0) < limit:
            per[key] = per.get(key, 0) + 1
            chosen.append(job)
    return chosen


def describe(mutation: str) -> str:
    return DESCRIPTIONS.get(mutation, "the parent as it is")
