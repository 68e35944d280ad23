"""The oracle: what upstream does with each job of a set of manifests.

Each *case* (a job and the objects that come with it, usually one file) is
submitted into namespaces of its own, many cases per cluster, and observed
until it settles.  The verdict per job is one of:

- ``rejected``: the API server refused an object at submission (a Volcano
  admission webhook, the CRD schema, or a field the kind lacks: objects are
  created with strict field validation, as kubectl sends them); ``message``
  is the server's own;
- ``refused``: the ascend-operator marked the AscendJob Failed (``reason`` and
  ``message`` of its condition, e.g. ``JobValidFailed``);
- ``running``: every pod of the job was bound and Running, and a node's
  kubelet would start it (``nodes`` says where, ``waited_for_room`` that it
  only ran once other cases had left);
- ``pending``: it never got all its pods running; ``room`` says why:
  ``never-fits`` when it stayed pending in a cluster where nothing else ran,
  ``no-room-now`` when the time ran out while other jobs held the nodes;
  ``reason``/``message`` say which object a placed pod needs and its
  namespace lacks (what a kubelet says, :mod:`tests.simcluster.kubelet`;
  kwok runs such a pod), else come from the PodGroup's conditions and the
  namespace's Warning events (the scheduler's and the controllers' own words,
  all kept in ``events``).

"No room now" versus "never fits" is found by rounds: after a round settles,
the cases that ran are deleted (freeing their nodes) and the pending ones get
another round, until none makes progress.
"""
from __future__ import annotations

import copy
import itertools
import json
import re
import time
import uuid
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

import yaml

from tests.simcluster import kubelet, releases
from tests.simcluster.cluster import SimCluster, SimClusterError

ASCEND_JOB = ("mindxdl.gitee.com", "v1", "ascendjobs")
VOLCANO_JOB = ("batch.volcano.sh", "v1alpha1", "jobs")
PODGROUP = ("scheduling.volcano.sh", "v1beta1", "podgroups")
JOB_KINDS = {("mindxdl.gitee.com/v1", "AscendJob"): ASCEND_JOB, ("batch.volcano.sh/v1alpha1", "Job"): VOLCANO_JOB}

#: how every object is created: as ``kubectl apply`` and ``kubectl create`` send it (``--validate=strict``, their
#: default), so the API server refuses an object with a field its kind or CRD schema lacks, where a create without
#: it drops the field and keeps the object
FIELD_VALIDATION = "Strict"

_counter = itertools.count()


@dataclass
class Case:
    """One job and the objects submitted with it (ConfigMaps...)."""

    label: str  # where it came from (file name, test id)
    objects: List[Dict[str, Any]]

    def jobs(self) -> List[Dict[str, Any]]:
        return [o for o in self.objects if (o.get("apiVersion"), o.get("kind")) in JOB_KINDS]


@dataclass
class Verdict:
    case: str
    kind: str
    name: str
    namespace: str  # the namespace the job had in its manifest
    outcome: str  # rejected | refused | running | pending
    reason: str = ""
    message: str = ""
    room: str = ""  # pending only: never-fits | no-room-now
    waited_for_room: bool = False
    nodes: List[str] = field(default_factory=list)
    events: List[str] = field(default_factory=list)
    sim_namespace: str = ""

    def line(self) -> str:
        text = f"{self.case}: {self.kind} {self.namespace}/{self.name}: {self.outcome}"
        if self.room:
            text += f" ({self.room})"
        if self.reason or self.message:
            text += f": {self.reason}" + (f": {self.message}" if self.message else "")
        return text

    def as_dict(self) -> Dict[str, Any]:
        return dict(self.__dict__)


def cases_from_documents(label: str, documents: Iterable[Any]) -> List[Case]:
    """Split one file's documents into cases: one per job; a ``rings-config-<job>`` goes with its job,
    any other non-job object with every job of the file."""
    docs = [copy.deepcopy(d) for d in documents if isinstance(d, dict) and d.get("kind")]
    if docs and docs[0].get("kind") == "List":
        docs = docs[0].get("items") or []
    jobs = [d for d in docs if (d.get("apiVersion"), d.get("kind")) in JOB_KINDS]
    others = [d for d in docs if d not in jobs and d.get("kind") != "Namespace"]
    if not jobs:
        return []
    cases = []
    for job in jobs:
        name = job.get("metadata", {}).get("name", "")
        mine = [o for o in others if not str(o.get("metadata", {}).get("name", "")).startswith("rings-config-")
                or o["metadata"]["name"] == f"rings-config-{name}"]
        cases.append(Case(f"{label}" + (f"#{name}" if len(jobs) > 1 else ""), mine + [job]))
    return cases


def cases_from_files(paths: Sequence[Path]) -> List[Case]:
    files: List[Path] = []
    for path in paths:
        files += sorted(p for p in path.rglob("*.y*ml")) if path.is_dir() else [path]
    cases: List[Case] = []
    for path in files:
        cases += cases_from_documents(path.name, yaml.safe_load_all(path.read_text()))
    return cases


# --------------------------------------------------------------------------
# submitting


@dataclass
class _Tracked:
    case: Case
    job: Dict[str, Any]
    ns_map: Dict[str, str]
    original_ns: str = "default"
    verdict: Optional[Verdict] = None
    waited: bool = False
    last_pending: Tuple[str, str, List[str]] = ("", "", [])

    @property
    def kind(self) -> str:
        return str(self.job["kind"])

    @property
    def name(self) -> str:
        return str(self.job["metadata"]["name"])

    @property
    def ns(self) -> str:
        return self.ns_map[self.original_ns]


def _sim_namespace(index: int, original: str) -> str:
    return f"o{index}-{original}"[:63].rstrip("-")


def _submit(sim: SimCluster, case: Case, batch: str) -> List[_Tracked]:
    index = next(_counter)
    ns_map: Dict[str, str] = {}
    objects = copy.deepcopy(case.objects)
    originals = [str((o.get("metadata") or {}).get("namespace") or "default") for o in objects]
    for obj in objects:
        original = str(obj.setdefault("metadata", {}).get("namespace") or "default")
        ns_map.setdefault(original, _sim_namespace(index, original))
        obj["metadata"]["namespace"] = ns_map[original]
        obj["metadata"].pop("resourceVersion", None)
        obj["metadata"].pop("uid", None)
    core = sim.core_api()
    for ns in ns_map.values():
        core.create_namespace({"apiVersion": "v1", "kind": "Namespace",
                               "metadata": {"name": ns, "labels": {"ascend-compile.io/oracle-batch": batch}}})
    sim.ensure_service_accounts(ns_map.values())
    tracked = [_Tracked(case, job, ns_map, original) for job, original in zip(objects, originals)
               if (job.get("apiVersion"), job.get("kind")) in JOB_KINDS]
    ordered = sorted(objects, key=lambda o: (o.get("apiVersion"), o.get("kind")) in JOB_KINDS)
    for obj in ordered:
        try:
            _create(sim, obj)
        except Exception as exc:  # noqa: BLE001 - the server's refusal is the verdict
            message = _api_message(exc)
            for item in tracked:
                if item.verdict is None:
                    item.verdict = _verdict(item, "rejected", reason=f"{obj.get('kind')} refused", message=message)
            break
    return tracked


#: each cluster's dynamic client (it discovers the kinds the server serves once)
_DYNAMIC: "weakref.WeakKeyDictionary[SimCluster, Any]" = weakref.WeakKeyDictionary()


def _create(sim: SimCluster, obj: Dict[str, Any]) -> None:
    """Create ``obj`` as kubectl does: its JSON as written, posted with :data:`FIELD_VALIDATION`.  (The typed client
    checks a core object against its own models first and refuses a field with words of its own; the server is the
    one that decides.)"""
    from kubernetes.dynamic import DynamicClient

    client = _DYNAMIC.get(sim)
    if client is None:
        assert sim.workdir is not None, "cluster not started"
        client = _DYNAMIC[sim] = DynamicClient(sim.api_client(), cache_file=str(sim.workdir / "discovery.json"))
    resource = client.resources.get(api_version=obj.get("apiVersion"), kind=obj.get("kind"))
    client.create(resource, body=obj, namespace=obj["metadata"].get("namespace"),
                  query_params=[("fieldValidation", FIELD_VALIDATION)])


def _api_message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, (bytes, bytearray)):
        body = body.decode("utf-8", "replace")
    if isinstance(body, str):
        try:
            return str(json.loads(body).get("message") or body)
        except ValueError:
            return body
    return str(exc)


def _verdict(item: _Tracked, outcome: str, **fields: Any) -> Verdict:
    return Verdict(case=item.case.label, kind=item.kind, name=item.name, namespace=item.original_ns,
                   outcome=outcome, sim_namespace=item.ns, **fields)


# --------------------------------------------------------------------------
# observing


@dataclass
class _Snapshot:
    jobs: Dict[Tuple[str, str, str], Dict[str, Any]]
    pods: Dict[str, List[Dict[str, Any]]]  # by namespace
    podgroups: Dict[str, List[Dict[str, Any]]]
    events: Dict[str, List[Dict[str, Any]]]
    #: (kind, name) of the ConfigMaps and Secrets of each namespace, for what a kubelet would not start
    objects: Dict[str, Set[Tuple[str, str]]] = field(default_factory=dict)


def _raw_list(call: Any, **options: Any) -> List[Dict[str, Any]]:
    """The items of a core list call as plain JSON: the client's models cost some 30 times the CPU to
    build and to turn back into dicts (0.4 s against 0.013 s for 500 pods), on every poll of every round."""
    return json.loads(call(_preload_content=False, **options).data)["items"]


def _snapshot(sim: SimCluster, namespaces: Sequence[str]) -> _Snapshot:
    core, custom = sim.core_api(), sim.custom_api()
    wanted = set(namespaces)
    jobs: Dict[Tuple[str, str, str], Dict[str, Any]] = {}
    for kind, (group, version, plural) in (("AscendJob", ASCEND_JOB), ("Job", VOLCANO_JOB)):
        for item in custom.list_cluster_custom_object(group, version, plural)["items"]:
            meta = item["metadata"]
            if meta["namespace"] in wanted:
                jobs[(kind, meta["namespace"], meta["name"])] = item
    pods: Dict[str, List[Dict[str, Any]]] = {}
    for pod in _raw_list(core.list_pod_for_all_namespaces):
        if pod["metadata"]["namespace"] in wanted:
            pods.setdefault(pod["metadata"]["namespace"], []).append(pod)
    podgroups: Dict[str, List[Dict[str, Any]]] = {}
    for pg in custom.list_cluster_custom_object(*PODGROUP)["items"]:
        if pg["metadata"]["namespace"] in wanted:
            podgroups.setdefault(pg["metadata"]["namespace"], []).append(pg)
    events: Dict[str, List[Dict[str, Any]]] = {}
    for event in _raw_list(core.list_event_for_all_namespaces, field_selector="type=Warning"):
        if event["metadata"]["namespace"] in wanted:
            events.setdefault(event["metadata"]["namespace"], []).append(event)
    objects: Dict[str, Set[Tuple[str, str]]] = {ns: set() for ns in wanted}
    for kind, call in ((kubelet.CONFIG_MAP, core.list_config_map_for_all_namespaces),
                       (kubelet.SECRET, core.list_secret_for_all_namespaces)):
        for obj in _raw_list(call, field_selector="metadata.namespace!=kube-system"):
            if obj["metadata"]["namespace"] in wanted:
                objects[obj["metadata"]["namespace"]].add((kind, obj["metadata"]["name"]))
    return _Snapshot(jobs, pods, podgroups, events, objects)


def _job_pods(item: _Tracked, snap: _Snapshot) -> List[Dict[str, Any]]:
    pods = snap.pods.get(item.ns, [])
    if item.kind == "AscendJob":
        return [p for p in pods if p["metadata"].get("labels", {}).get("job-name") == item.name
                or any(o.get("name") == item.name for o in p["metadata"].get("ownerReferences", []))]
    return [p for p in pods if p["metadata"].get("annotations", {}).get("volcano.sh/job-name") == item.name
            or p["metadata"].get("labels", {}).get("volcano.sh/job-name") == item.name]


def _expected_pods(item: _Tracked) -> int:
    """The pods the job asks for: each replica (task) its ``replicas`` (1 when absent), a negative count as none, so
    a job asking only for negative replicas expects no pod and never counts as running (0 of -1 is not all)."""
    spec = item.job.get("spec", {})
    if item.kind == "AscendJob":
        counts = [(r or {}).get("replicas", 1) for r in (spec.get("replicaSpecs") or {}).values()]
    else:
        counts = [t.get("replicas", 1) for t in spec.get("tasks") or []]
    return sum(max(0, int(count or 0)) for count in counts)


def _not_started(item: _Tracked, snap: _Snapshot) -> List[Tuple[str, str, str]]:
    """(pod, reason, message) for each object a placed pod of the job needs and its namespace lacks: kwok runs
    such a pod, a node's kubelet never starts it (:mod:`tests.simcluster.kubelet`)."""
    existing = snap.objects.get(item.ns, set())
    out = []
    for pod in sorted(_job_pods(item, snap), key=lambda p: str(p["metadata"]["name"])):
        if (pod.get("spec") or {}).get("nodeName"):
            out += [(str(pod["metadata"]["name"]), reason, message)
                    for reason, message in kubelet.missing(pod["spec"], existing)]
    return out


#: Unschedulable condition reasons, most telling first (NotEnoughResources is the gang plugin's summary)
_REASON_ORDER = ("JobValidateFailed", "JobEnqueueFailed", "NodePredicateFailed")


def _pending_reasons(item: _Tracked, snap: _Snapshot) -> Tuple[str, str, List[str]]:
    """(reason, message, every line) for a job that is not running: what a kubelet would say of a placed pod it
    cannot start (:mod:`tests.simcluster.kubelet`), else the most telling Unschedulable condition of its PodGroup,
    else the first Warning event, else (AscendJob) its last condition."""
    lines: List[str] = []
    conditions: List[Tuple[str, str]] = []
    for pg in snap.podgroups.get(item.ns, []):
        for cond in (pg.get("status") or {}).get("conditions") or []:
            if cond.get("status") == "True" and cond.get("type") == "Unschedulable":
                reason, message = str(cond.get("reason") or ""), str(cond.get("message") or "")
                conditions.append((reason, message))
                lines.append(f"PodGroup {pg['metadata']['name']}: Unschedulable ({reason}): {message}")
    events = []
    for event in snap.events.get(item.ns, []):
        obj = event.get("involvedObject", {})
        lines.append(f"{obj.get('kind')} {obj.get('name')}: {event.get('reason')}: {event.get('message')}")
        events.append((str(event.get("reason") or ""), str(event.get("message") or "")))
    conditions.sort(key=lambda c: _REASON_ORDER.index(c[0]) if c[0] in _REASON_ORDER else len(_REASON_ORDER))
    blocked = _not_started(item, snap)
    lines += [f"Pod {pod}: {reason}: {message}" for pod, reason, message in blocked]
    kubelet_says = [(reason, f"pod {pod}: {message}") for pod, reason, message in blocked]
    chosen = (kubelet_says or conditions or events or [("", "")])[0]
    if item.kind == "AscendJob" and not chosen[0]:
        last = ((snap.jobs.get((item.kind, item.ns, item.name), {}).get("status") or {}).get("conditions") or [{}])[-1]
        chosen = (str(last.get("reason") or ""), str(last.get("message") or ""))
    return chosen[0], chosen[1], sorted(set(lines))


def _observe(item: _Tracked, snap: _Snapshot) -> Tuple[str, Any]:
    """('refused'|'running'|'pending', detail) for a submitted job."""
    job = snap.jobs.get((item.kind, item.ns, item.name))
    if job is None:
        return "pending", "job not found"
    status = job.get("status") or {}
    if item.kind == "AscendJob":
        conditions = status.get("conditions") or []
        failed = [c for c in conditions if c.get("type") == "Failed" and c.get("status") == "True"]
        if failed:
            return "refused", failed[-1]
    pods = _job_pods(item, snap)
    expected = _expected_pods(item)
    existing = snap.objects.get(item.ns, set())
    running = [p for p in pods if (p.get("status") or {}).get("phase") == "Running"
               and not kubelet.missing(p.get("spec") or {}, existing)]
    if expected > 0 and len(running) >= expected:
        return "running", sorted(p["spec"].get("nodeName", "") for p in running)
    return "pending", (status.get("state") or {}).get("phase") or len(pods)


_CLAUSE = re.compile(r"[,;]|\.\.\.|Reason:|(?=task<)")
_WORD = re.compile(r"[A-Za-z]+|[0-9]+")


def _same_words(message: str) -> Tuple[Tuple[str, ...], ...]:
    """A message as its clauses, each a sorted tuple of its words, in sorted order.

    The scheduler and the Ascend plugin build some messages by walking Go maps and sets (which task,
    which node, which ``Reason:`` comes first), so a pending job's unchanged reason is worded in another
    order from one scheduling cycle to the next; compared this way it is the same message, while a
    changed count or node stays a change (each count is in the clause of its reason).
    """
    return tuple(sorted(tuple(sorted(_WORD.findall(clause))) for clause in _CLAUSE.split(message)))


def _state(item: _Tracked, snap: _Snapshot) -> Tuple[Any, ...]:
    """What has to stay the same for ``quiet`` seconds before a round ends."""
    reason, message, _ = _pending_reasons(item, snap)
    return _observe(item, snap), reason, _same_words(message)


#: seconds without change that end a round in which some jobs ran: the scheduler's period is 1 s, so a job
#: that has room is placed within a few seconds; one that waits past this goes on waiting in the next round
#: (with the room the finished jobs leave), and never-fits still needs a whole quiet round of its own
SETTLE = 3.0


def _settle(sim: SimCluster, items: List[_Tracked], *, quiet: float, timeout: float,
            settle: float = SETTLE) -> _Snapshot:
    """Poll until no job changed for ``quiet`` seconds (or ``timeout``); returns the last snapshot.

    A round in which some jobs already ran (or were refused) ends sooner, after ``settle`` seconds without
    change: those jobs are then deleted and the pending ones get their room in the next round.  Only a round
    in which nothing ran needs the whole ``quiet`` time, since that is the round whose pending jobs are
    called never-fits (:func:`judge`)."""
    namespaces = sorted({ns for item in items for ns in item.ns_map.values()})
    started = last_change = time.monotonic()
    previous: Optional[List[Any]] = None
    while True:
        snap = _snapshot(sim, namespaces)
        state = [_state(item, snap) for item in items]
        now = time.monotonic()
        if state != previous:
            previous, last_change = state, now
        done = [s[0][0] in ("refused", "running") for s in state]
        if all(done) and now - last_change >= 1.0:
            return snap
        if any(done) and now - last_change >= settle:
            return snap
        if now - last_change >= quiet or now - started >= timeout:
            return snap
        dead = sim.dead_processes()
        if dead:
            raise SimClusterError(f"{', '.join(dead)} exited while judging:\n{sim.logs_for_failure()}")
        time.sleep(1.0)


def _free(sim: SimCluster, items: Iterable[_Tracked]) -> None:
    """Delete finished cases' jobs, pods and PodGroups (no garbage collector runs here)."""
    core, custom = sim.core_api(), sim.custom_api()
    for item in items:
        group, version, plural = ASCEND_JOB if item.kind == "AscendJob" else VOLCANO_JOB
        try:
            custom.delete_namespaced_custom_object(group, version, item.ns, plural, item.name)
        except Exception:  # noqa: BLE001 - already gone
            pass
    for item in items:
        core.delete_collection_namespaced_pod(item.ns)
        for pg in custom.list_namespaced_custom_object(*PODGROUP[:2], item.ns, PODGROUP[2])["items"]:
            try:
                custom.delete_namespaced_custom_object(*PODGROUP[:2], item.ns, PODGROUP[2], pg["metadata"]["name"])
            except Exception:  # noqa: BLE001
                pass


def judge(sim: SimCluster, cases: Sequence[Case], *, quiet: float = 12.0, round_timeout: float = 90.0,
          total_timeout: float = 540.0) -> List[Verdict]:
    """Submit every case to ``sim`` and return one verdict per job, in the order of ``cases``."""
    batch = uuid.uuid4().hex[:8]
    started = time.monotonic()
    items: List[_Tracked] = []
    for case in cases:
        items += _submit(sim, case, batch)
    open_items = [i for i in items if i.verdict is None]
    while open_items:
        snap = _settle(sim, open_items, quiet=quiet, timeout=round_timeout)
        finished: List[_Tracked] = []
        for item in open_items:
            outcome, detail = _observe(item, snap)
            if outcome == "refused":
                item.verdict = _verdict(item, "refused", reason=str(detail.get("reason") or ""),
                                        message=str(detail.get("message") or ""))
                finished.append(item)
            elif outcome == "running":
                item.verdict = _verdict(item, "running", nodes=list(detail), waited_for_room=item.waited)
                finished.append(item)
            else:
                item.last_pending = _pending_reasons(item, snap)
        still = [i for i in open_items if i.verdict is None]
        out_of_time = time.monotonic() - started > total_timeout
        if not finished or out_of_time:
            # nothing ran this round: what is left either never fits, or (out of time) waits for room
            others_hold_room = out_of_time and bool(finished)
            for item in still:
                reason, message, lines = item.last_pending
                item.verdict = _verdict(item, "pending", reason=reason, message=message, events=lines,
                                        room="no-room-now" if others_hold_room else "never-fits")
            _free(sim, finished)
            break
        _free(sim, finished)
        for item in still:
            item.waited = True
        open_items = still
    return [i.verdict for i in items if i.verdict is not None]


def judge_files(paths: Sequence[Path], *, timeout: float = 90.0, nodes_per_profile: int = 4,
                release: str = releases.DEFAULT, admission_webhook: bool = True) -> List[Verdict]:
    """Start a cluster of ``release``, judge every job in the files, stop the cluster."""
    cases = cases_from_files(paths)
    if not cases:
        raise SimClusterError("no AscendJob or Volcano Job in the given files")
    with SimCluster(nodes_per_profile=nodes_per_profile, release=release, admission_webhook=admission_webhook) as sim:
        return judge(sim, cases, round_timeout=timeout)


def judge_manifests(manifests: Mapping[str, Sequence[Dict[str, Any]]], sim: Optional[SimCluster] = None,
                    release: str = releases.DEFAULT, **options: Any) -> List[Verdict]:
    """Judge ``{label: [objects...]}``; on ``sim`` when given, else on a cluster of ``release`` started for the
    purpose."""
    cases: List[Case] = []
    for label, objects in manifests.items():
        cases += cases_from_documents(label, objects)
    if sim is not None:
        return judge(sim, cases, **options)
    with SimCluster(release=release) as own:
        return judge(own, cases, **options)
