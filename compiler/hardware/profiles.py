"""Hardware profiles: one YAML file per server model, loaded into :class:`Profile`.

Profiles are data.  The built-in ones live in ``profiles/``; a project adds
its own by listing extra directories (``profileDirs`` in the project config or
``--profile-dir``).  A later directory overrides a profile of the same name.
Every number the compiler and the hardware lint rules use (NPUs per node,
allowed per-pod counts, sp-block arithmetic) comes from here.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..catalogue import PROFILE_INVALID, PROFILE_UNKNOWN
from ..errors import CompileError, InputError
from ..records import field, record
from ..findings import ERROR, Finding
from ..resources import profiles_dir
from ..vocabulary import FRAMEWORKS, JOBS

PROFILE_API_VERSION = "ascend-compile.io/v1alpha1"
PROFILE_KIND = "HardwareProfile"
NODE_SELECTOR = "nodeSelector"
SCHEDULE_POLICY = "schedulePolicy"
#: a job that names no hardware: no accelerator-type, no schedule_policy (the scheduler's default handler, or
#: with sp-block the super-pod one); a spec may ask for it where that handler is the profile's own
NO_HARDWARE_NAMED = "none"
#: values of ``fallback``: which jobs without a known schedule policy the scheduler gives this profile's handler
NO_ACCELERATOR_TYPE = "noAcceleratorType"  # jobs of its resource that name no accelerator-type
SP_BLOCK = "spBlock"  # sp-block jobs whose accelerator-type names no other super-pod profile


@record(frozen=True)
class SuperPod:
    block_multiple: int
    max_blocks: Optional[int] = None
    rack_blocks: Tuple[int, ...] = ()
    # A single-pod job's sp-block must equal its NPU count (the A3 super-pod handler checks this).
    single_pod_block_is_total: bool = False


@record(frozen=True)
class LabelHandler:
    """Another handler of the profile's resource, which the scheduler plugin gives jobs by their labels."""

    name: str
    job_labels: Tuple[Tuple[str, str], ...]  # (key, value) the job's labels must all have; none: any job
    max_per_pod: int  # it takes any count from 1 to this (base ValidNPUJob: MaxNodeNPUNum)
    single_npu_pod_labels: Tuple[Tuple[str, str], ...] = ()  # with these job labels: one NPU pod at most


@record(frozen=True)
class Profile:
    name: str
    description: str
    chip: str
    resource: str
    ring_controller: str
    npus_per_node: int
    single_pod: Tuple[int, ...]
    multi_pod: Tuple[int, ...]
    accelerator_type: Optional[str] = None
    schedule_policy: Optional[str] = None
    dialects: Tuple[str, ...] = (NODE_SELECTOR, SCHEDULE_POLICY)
    host_arch: Optional[str] = None
    #: whether the hardware is built only with ``host_arch`` hosts (a job selecting the other arch fits none of its
    #: servers); False where server models come in both (Atlas 800 9000 / 9010, cards in either kind of host)
    host_arch_only: bool = False
    multi_pod_recommended: Tuple[int, ...] = ()
    super_pod: Optional[SuperPod] = None
    fallback: Optional[str] = None
    job_labels: Mapping[str, str] = field(default_factory=dict)
    #: the resource's other handlers, for jobs without ``job_labels``: the first whose labels a job has
    label_handlers: Tuple[LabelHandler, ...] = ()
    #: job labels with which the profile's handler refuses a job of more than one NPU pod (the 310P Duo handlers:
    #: ``distributed: "true"``)
    single_npu_pod_labels: Mapping[str, str] = field(default_factory=dict)
    ranktable_version: str = "1.0"
    frameworks: Tuple[str, ...] = FRAMEWORKS
    targets: Tuple[str, ...] = JOBS
    notes: str = ""
    #: where upstream says what the profile encodes (code and docs, with their paths)
    sources: Tuple[str, ...] = ()
    source_file: str = ""

    def allowed_per_pod(self, pods: int) -> Tuple[int, ...]:
        return self.single_pod if pods <= 1 else self.multi_pod

    def label_keys(self) -> Tuple[str, ...]:
        """The job labels that pick this profile's handler among its resource's (none: no label does)."""
        keys = set(self.job_labels).union(self.single_npu_pod_labels) if self.label_handlers else set()
        return tuple(sorted(keys.union(*({k for k, _ in h.job_labels + h.single_npu_pod_labels}
                                           for h in self.label_handlers))))

    def refuses_pods(self, labels: Mapping[str, Optional[str]], pods: int) -> bool:
        """Whether the handler refuses a job of ``pods`` NPU pods for its labels (``singleNpuPodLabels``)."""
        return pods > 1 and bool(self.single_npu_pod_labels) \
            and all(labels.get(k) == v for k, v in self.single_npu_pod_labels.items())

    def handler_for(self, labels: Mapping[str, Optional[str]]) -> Optional["Profile"]:
        """The rules of the handler the scheduler gives a job of this profile whose labels (as the plugin reads
        them, defaults applied) are ``labels``: the profile's own when they carry its ``jobLabels``, else the
        first of its ``labelHandlers`` whose labels they carry (any count from 1 to its maximum), else None."""
        if all(labels.get(k) == v for k, v in self.job_labels.items()):
            return self
        for handler in self.label_handlers:
            if all(labels.get(k) == v for k, v in handler.job_labels):
                from dataclasses import replace  # only for such jobs (records.py: lint avoids importing it)

                counts = tuple(range(1, handler.max_per_pod + 1))
                return replace(self, name=f"{self.name} {handler.name}", single_pod=counts, multi_pod=counts,
                               multi_pod_recommended=(), job_labels=dict(handler.job_labels), label_handlers=(),
                               single_npu_pod_labels=dict(handler.single_npu_pod_labels))
        return None

    @property
    def default_dialect(self) -> str:
        return self.dialects[0]

    def to_dict(self) -> Dict[str, Any]:
        """The profile as plain data (what ``profiles show`` prints)."""
        out: Dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "chip": self.chip,
            "resource": self.resource,
            "ringController": self.ring_controller,
            "acceleratorType": self.accelerator_type,
            "schedulePolicy": self.schedule_policy,
            "dialects": list(self.dialects),
            "hostArch": self.host_arch,
            "hostArchOnly": self.host_arch_only or None,
            "npusPerNode": self.npus_per_node,
            "npusPerPod": {"singlePod": list(self.single_pod), "multiPod": list(self.multi_pod)},
            "frameworks": list(self.frameworks),
            "targets": list(self.targets),
            "ranktableVersion": self.ranktable_version,
        }
        if self.multi_pod_recommended:
            out["npusPerPod"]["multiPodRecommended"] = list(self.multi_pod_recommended)
        if self.super_pod:
            sp: Dict[str, Any] = {"blockMultiple": self.super_pod.block_multiple}
            if self.super_pod.max_blocks:
                sp["maxBlocks"] = self.super_pod.max_blocks
            if self.super_pod.rack_blocks:
                sp["rackBlocks"] = list(self.super_pod.rack_blocks)
            if self.super_pod.single_pod_block_is_total:
                sp["singlePodBlockIsTotal"] = True
            out["superPod"] = sp
        if self.fallback:
            out["fallback"] = self.fallback
        if self.job_labels:
            out["jobLabels"] = dict(self.job_labels)
        if self.label_handlers:
            out["labelHandlers"] = [_label_handler_dict(h) for h in self.label_handlers]
        if self.single_npu_pod_labels:
            out["singleNpuPodLabels"] = dict(self.single_npu_pod_labels)
        if self.notes:
            out["notes"] = self.notes
        if self.sources:
            out["sources"] = list(self.sources)
        return {k: v for k, v in out.items() if v is not None}


def _label_handler_dict(handler: LabelHandler) -> Dict[str, Any]:
    out: Dict[str, Any] = {"handler": handler.name, "jobLabels": dict(handler.job_labels),
                           "maxNpusPerPod": handler.max_per_pod}
    if handler.single_npu_pod_labels:
        out["singleNpuPodLabels"] = dict(handler.single_npu_pod_labels)
    return out


def _whole(value: Any) -> Any:
    """JSON Schema lets ``8.0`` pass as an integer; the NPU arithmetic (and ``replicas``) needs ``8``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    return value


def _profile_from_data(data: Dict[str, Any], source: str) -> Profile:
    spec = _whole(data["spec"])
    counts = spec["npusPerPod"]
    sp = spec.get("superPod")
    return Profile(
        name=data["metadata"]["name"],
        description=spec.get("description", ""),
        chip=spec["chip"],
        resource=spec["resource"],
        ring_controller=spec["ringController"],
        npus_per_node=spec["npusPerNode"],
        single_pod=tuple(counts["singlePod"]),
        multi_pod=tuple(counts["multiPod"]),
        multi_pod_recommended=tuple(counts.get("multiPodRecommended", ())),
        accelerator_type=spec.get("acceleratorType"),
        schedule_policy=spec.get("schedulePolicy"),
        dialects=tuple(spec.get("dialects") or _default_dialects(spec)),
        host_arch=spec.get("hostArch"),
        host_arch_only=bool(spec.get("hostArchOnly", False)),
        super_pod=SuperPod(sp["blockMultiple"], sp.get("maxBlocks"), tuple(sp.get("rackBlocks", ())),
                          bool(sp.get("singlePodBlockIsTotal", False))) if sp else None,
        fallback=spec.get("fallback"),
        job_labels=dict(spec.get("jobLabels") or {}),
        label_handlers=tuple(LabelHandler(h["handler"], tuple(sorted((h.get("jobLabels") or {}).items())),
                                          h["maxNpusPerPod"], tuple(sorted((h.get("singleNpuPodLabels") or {}).items())))
                             for h in spec.get("labelHandlers") or ()),
        single_npu_pod_labels=dict(spec.get("singleNpuPodLabels") or {}),
        ranktable_version=str(spec.get("ranktableVersion", "1.0")),
        frameworks=tuple(spec.get("frameworks") or Profile.frameworks),
        targets=tuple(spec.get("targets") or Profile.targets),
        notes=spec.get("notes", ""),
        sources=tuple(spec.get("sources") or ()),
        source_file=source,
    )


def _default_dialects(spec: Dict[str, Any]) -> Tuple[str, ...]:
    dialects = []
    if spec.get("acceleratorType"):
        dialects.append(NODE_SELECTOR)
    if spec.get("schedulePolicy"):
        dialects.append(SCHEDULE_POLICY)
    return tuple(dialects) or (NODE_SELECTOR,)


#: the modules that read and check a profile file, and the schema: the key of the start-up cache of checked
#: profile data (tests/unit/test_datacache.py checks that it names every module loading a profile uses)
PROFILE_CODE = ("_version.py", "datacache.py", "safeio/__init__.py", "safeio/inside.py", "safeio/read.py",
                "safeio/text.py", "hardware/__init__.py",
                "hardware/profiles.py", "records.py", "findings.py", "catalogue/__init__.py", "vocabulary.py", "podtemplates.py",
                "errors.py", "schemacheck/__init__.py", "schemacheck/check.py", "schemacheck/registry.py",
                "schemacheck/validator.py", "schemacheck/keywords.py", "schemacheck/messages.py", "resources.py",
                "yamlio/__init__.py", "yamlio/common.py", "yamlio/fastload.py", "yamlio/parsing.py",
                "yamlio/reading.py", "yamlio/locations.py", "yamlio/guards.py", "yamlio/blockload.py",
                "yamlio/scalars.py", "yamlio/loader.py", "yamlio/eventwalk.py")


def _profile_cache() -> Any:
    from .. import datacache
    from ..resources import schemas_dir

    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # the package's root
    return datacache.Store("profiles", [os.path.join(here, name) for name in PROFILE_CODE]
                           + [os.path.join(schemas_dir(), "profile-v1alpha1.json")])


#: the profile files this process has read: each one's text when last read, and its profile.  A profile is a
#: function of its file's path and text, so a file read again with the same text is that profile: a process that
#: makes many registries (a Python API caller compiling one job per call) checks each file once, not once per call
_READ: Dict[str, Tuple[str, Profile]] = {}


def _load_profile_file(path: str, cache: Optional[Callable[[], Any]] = None) -> Profile:
    """The profile in ``path``: the one read before in this process if the text is the same (:data:`_READ`), else
    read and checked, with ``cache()`` (the :class:`~ascend_compile.datacache.Store`, opened on first need) keeping
    the checked data across runs."""
    from ..yamlio.reading import read_text

    text = read_text(path)
    known = _READ.get(path)
    if known is not None and known[0] == text:
        return known[1]
    store = cache() if cache is not None else None
    key = data = None
    if store is not None:
        from ..datacache import digest

        key = digest(text.encode("utf-8", "surrogatepass"))
        data = store.get(key)
    if data is None:
        from ..yamlio.parsing import load_documents

        data = _checked(load_documents(text, path), path)
        if store is not None:
            store.put(key, data)
    profile = _profile_from_data(data, path)
    _READ[path] = (text, profile)
    return profile


def _checked(docs: List[Any], path: str) -> Dict[str, Any]:
    from ..schemacheck import check

    if len(docs) != 1:
        raise InputError([Finding(PROFILE_INVALID, ERROR, "a profile file must hold exactly one document",
                                  file=path, line=1, column=1, input_error=True)])
    doc = docs[0]
    problems = [f for f in check.validate_document(doc) if f.severity == ERROR]
    if problems:
        raise InputError([
            Finding(PROFILE_INVALID, ERROR, f"invalid hardware profile: {f.message}", f.path,
                    f.hint, f.file, f.line, f.column, input_error=True)
            for f in problems
        ])
    data: Dict[str, Any] = doc.data
    return data


class ProfileRegistry:
    """All profiles visible to one run: built-in first, then extra directories."""

    def __init__(self, extra_dirs: Sequence[str] = ()):
        self._dirs = [profiles_dir(), *extra_dirs]
        self._profiles: Optional[Dict[str, Profile]] = None

    def _load(self) -> Dict[str, Profile]:
        if self._profiles is None:
            profiles: Dict[str, Profile] = {}
            opened: List[Any] = []  # the start-up cache, opened for the first file not read before as it is now

            def cache() -> Any:
                if not opened:
                    opened.append(_profile_cache())
                return opened[0]

            for directory in self._dirs:
                if not os.path.isdir(directory):
                    raise InputError([Finding(PROFILE_INVALID, ERROR, "profile directory does not exist",
                                              file=directory, input_error=True,
                                              hint="fix profileDirs in the project config or --profile-dir")])
                for name in sorted(os.listdir(directory)):
                    if name.endswith((".yaml", ".yml")) and not name.startswith("."):
                        profile = _load_profile_file(os.path.join(directory, name), cache)
                        profiles[profile.name] = profile
            if opened:
                opened[0].save()
            self._profiles = profiles
        return self._profiles

    def check(self) -> None:
        """Load the profiles of the extra directories now: a bad directory or profile is an
        :class:`InputError` here, before anything uses them (the built-in ones load on first use)."""
        if len(self._dirs) > 1:
            self._load()

    def files(self) -> List[str]:
        """The profile files this registry reads, in the order it reads them (without reading them)."""
        return [os.path.join(directory, name) for directory in self._dirs if os.path.isdir(directory)
                for name in sorted(os.listdir(directory)) if name.endswith((".yaml", ".yml")) and not name.startswith(".")]

    def names(self) -> List[str]:
        return sorted(self._load())

    def all(self) -> List[Profile]:
        profiles = self._load()
        return [profiles[name] for name in sorted(profiles)]

    def get(self, name: str) -> Optional[Profile]:
        return self._load().get(name)

    def require(self, name: str) -> Profile:
        """The profile called ``name``; :class:`ProfileNotFoundError` (with the closest name) if there is none."""
        found = self.get(name)
        if found is None:
            raise ProfileNotFoundError(name, self.names())
        return found


class ProfileNotFoundError(CompileError, LookupError):
    """No hardware profile of that name (a :class:`CompileError` and a :class:`LookupError`)."""

    def __init__(self, name: str, known: Sequence[str]):
        from difflib import get_close_matches

        self.name = name
        self.known = list(known)
        close = get_close_matches(name, self.known, n=1)
        self.suggestion: Optional[str] = close[0] if close else None
        self.message = f"unknown hardware profile {name!r}"
        hint = (f"did you mean {self.suggestion!r}? " if self.suggestion else "") + \
            f"known profiles: {', '.join(self.known)}"
        super().__init__([Finding(PROFILE_UNKNOWN, ERROR, self.message, hint=hint)])

    def sentence(self) -> str:
        """The problem as one line of prose, for the commands that print it on its own."""
        return f"{self.message}. " + (f"Did you mean {self.suggestion!r}? " if self.suggestion else "") + \
            f"Known profiles: {', '.join(self.known)}"
