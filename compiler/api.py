"""The pipeline as functions: what the CLI, the KRM function and Python callers share.

The public names are re-exported from :mod:`compiler` (see ``__all__`` there);
import them from there (``from ascend_compile import compile_spec``), not from here.

Every function here is a thin layer over the pipeline the CLI uses: Python values are first made the plain
data a YAML file gives (:func:`~ascend_compile.yamlio.plain.plain`: what no file can give, a cycle or a
set, is the caller's :class:`~ascend_compile.errors.ArgumentError`), and a spec is wrapped in a :class:`~ascend_compile.yamlio.locations.Document`
(:func:`spec_document`) and goes through the same schema, the same profile
rules and the same error messages as a spec file given to
``ascend-compile compile``.  Problems are raised as :class:`~ascend_compile.errors.CompileError`
(or :class:`~ascend_compile.errors.InputError`) carrying :class:`~ascend_compile.findings.Finding` objects.

Unlike the CLI, the API never looks for a project config
(``.ascend-compile.yaml``) on its own: pass ``config=`` (a path or a
:class:`~ascend_compile.config.ProjectConfig`) to use one.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .config import ProjectConfig
from .files.discovery import read_documents
from .errors import ArgumentError, CompileError
from .findings import Finding
from .compiling.pipeline import CompiledJob, compile_specs
from .hardware.profiles import Profile, ProfileNotFoundError, ProfileRegistry
from .lint.session import Session, open_session
from .jobspec.model import API_VERSION, KIND
from .yamlio.common import DEFAULT_MAX_BYTES
from .yamlio.locations import Document
from .yamlio.plain import plain


#: A path as the API accepts it.
PathArg = Union[str, "os.PathLike[str]"]
#: A project config as the API accepts it: a loaded config, a path to one, or None (no config).
ConfigArg = Union[ProjectConfig, str, "os.PathLike[str]", None]
#: A Kubernetes object as plain data.
Object = Dict[str, Any]


# --------------------------------------------------------------------------- a spec as a document


def spec_document(data: Dict[str, Any], source: str = "<python>") -> Document:
    """Wrap a spec given as Python values so it goes through the same checks as a file."""
    return Document(source, 0, data, None)


# --------------------------------------------------------------------------- the spec as Python values


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


@dataclass(kw_only=True)
class JobSpec:
    """A ``TrainingJob`` spec built from Python values.

    Each field is the spec field of the same name in snake_case
    (``npus_per_pod`` is ``spec.npusPerPod``); ``docs/spec.md`` documents them.
    Fields left at ``None`` are left out of the spec, so their defaults apply
    (built-in < profile < project config), exactly as in a YAML file.
    Nothing is checked here: :func:`compile_spec` checks the spec with the
    same schema and rules as ``ascend-compile compile``.

    ``extra`` adds spec fields by their YAML name (``{"shmSize": "64Gi"}``), for
    fields newer than this class; it overrides the fields above.

    >>> spec = JobSpec(name="demo", framework="pytorch", profile="module-910b-8", npus=16,
    ...                image="swr.example.com/ml/pytorch-train:2.1.0")
    >>> spec.to_dict()["spec"]["npus"]
    16
    """

    name: str
    framework: str
    profile: str
    image: str
    namespace: Optional[str] = None
    npus: Optional[int] = None
    pods: Optional[int] = None
    npus_per_pod: Optional[int] = None
    target: Optional[str] = None
    image_pull_policy: Optional[str] = None
    command: Optional[Sequence[str]] = None
    args: Optional[Sequence[str]] = None
    working_dir: Optional[str] = None
    env: Optional[Union[Mapping[str, str], Sequence[Mapping[str, Any]]]] = None
    resources: Optional[Mapping[str, Any]] = None
    volumes: Optional[Sequence[Mapping[str, Any]]] = None
    ports: Optional[Sequence[Mapping[str, Any]]] = None
    restart_policy: Optional[str] = None
    queue: Optional[str] = None
    host_arch: Optional[str] = None
    scheduling: Optional[str] = None
    ranktable: Optional[str] = None
    ranktable_volume: Optional[Mapping[str, str]] = None
    scheduler_holds_npus: Optional[bool] = None
    tor_affinity: Optional[str] = None
    super_pod: Optional[Mapping[str, int]] = None
    multi_level: Optional[Sequence[int]] = None
    retries: Optional[int] = None
    fault_scheduling: Optional[str] = None
    fault_retry_times: Optional[int] = None
    pod_rescheduling: Optional[bool] = None
    process_recovery: Optional[Mapping[str, Any]] = None
    sub_healthy_strategy: Optional[str] = None
    reset_config: Optional[str] = None
    termination_grace_period_seconds: Optional[int] = None
    host_network: Optional[bool] = None
    plugins: Optional[Mapping[str, Sequence[str]]] = None
    task_name: Optional[str] = None
    container_name: Optional[str] = None
    create_namespace: Optional[bool] = None
    labels: Optional[Mapping[str, str]] = None
    annotations: Optional[Mapping[str, str]] = None
    pod_labels: Optional[Mapping[str, str]] = None
    pod_annotations: Optional[Mapping[str, str]] = None
    replica_types: Optional[Mapping[str, Mapping[str, Any]]] = None
    pod_template_patch: Optional[Mapping[str, Any]] = None
    job_patch: Optional[Mapping[str, Any]] = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    #: fields that are metadata, not spec
    _METADATA: ClassVar[Tuple[str, ...]] = ("name", "namespace")

    @classmethod
    def spec_fields(cls) -> Dict[str, str]:
        """Python field name -> spec field name, for every field under ``spec``."""
        return {f.name: _camel(f.name) for f in fields(cls) if f.name not in (*cls._METADATA, "extra")}

    def to_dict(self) -> Dict[str, Any]:
        """The ``TrainingJob`` document, as a YAML spec file would hold it."""
        metadata: Dict[str, Any] = {"name": self.name}
        if self.namespace is not None:
            metadata["namespace"] = self.namespace
        spec: Dict[str, Any] = {}
        for attr, key in self.spec_fields().items():
            value = getattr(self, attr)
            if value is not None:
                spec[key] = plain(value, f"spec.{key}", depth=3)
        spec.update(plain(self.extra, "spec", depth=2))
        return {"apiVersion": API_VERSION, "kind": KIND, "metadata": plain(metadata, "metadata", depth=2), "spec": spec}


SpecArg = Union[JobSpec, Mapping[str, Any]]


# --------------------------------------------------------------------------- context


def _session(config: ConfigArg, profile_dirs: Sequence[PathArg], cluster_snapshot: Optional[PathArg] = None,
             max_bytes: Optional[int] = None) -> Session:
    """The session of one call, as the CLI's ``--config``, ``--profile-dir`` and ``--cluster-snapshot`` make it: the
    config's ``lint.failOn`` and ``cluster`` apply (``cluster.snapshot`` where ``cluster_snapshot`` is not given),
    and a snapshot's recorded versions choose the release."""
    loaded = _config(config)
    inventory = None
    source = ""
    if cluster_snapshot is not None or loaded.cluster.snapshot:
        from .inventory.snapshot import load

        snapshot = _fspath(cluster_snapshot, "cluster_snapshot") if cluster_snapshot is not None \
            else str(loaded.cluster.snapshot)
        inventory = load(snapshot)
        source = f"cluster_snapshot {snapshot}" if cluster_snapshot is not None else \
            f"cluster.snapshot {snapshot} (in {loaded.path})"
    registry = ProfileRegistry([*loaded.profile_dirs, *_dirs(profile_dirs, "profile_dirs")])
    return open_session(loaded, registry, inventory=inventory, cluster_source=source, max_bytes=max_bytes)


def _config(config: ConfigArg) -> ProjectConfig:
    """The project config a call names: none, a loaded one, or a path to one."""
    if config is None:
        loaded = ProjectConfig()
    elif isinstance(config, ProjectConfig):
        loaded = config
    else:
        from .config import load_config

        loaded = load_config(_fspath(config, "config"))
    return loaded


def _fspath(value: Any, what: str) -> str:
    """A path argument as a string; anything else is the caller's :class:`ArgumentError`."""
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    raise ArgumentError(f"{what} must be a path (str or os.PathLike), not {type(value).__name__}")


def _dirs(dirs: Any, what: str) -> List[str]:
    if isinstance(dirs, (str, os.PathLike)) or not isinstance(dirs, (list, tuple)):
        raise ArgumentError(f"{what} must be a list of directory paths, not {type(dirs).__name__}")
    return [_fspath(d, what) for d in dirs]


def _spec_data(spec: SpecArg) -> Dict[str, Any]:
    if isinstance(spec, JobSpec):
        return spec.to_dict()
    if isinstance(spec, Mapping):
        data = plain(spec)
        assert isinstance(data, dict)
        return data
    raise ArgumentError(f"a spec is a JobSpec or a mapping (the TrainingJob document), not {type(spec).__name__}")


# --------------------------------------------------------------------------- compile


def compile_job(spec: SpecArg, *, config: ConfigArg = None, profile_dirs: Sequence[PathArg] = (),
                source: str = "<python>", cluster_snapshot: Optional[PathArg] = None) -> CompiledJob:
    """Compile one spec (a :class:`JobSpec` or the ``TrainingJob`` document as a dict).

    The same steps as ``ascend-compile compile``, the lint of the output included (against ``cluster_snapshot``
    too, a file ``ascend-compile cluster snapshot`` wrote): raises :class:`~ascend_compile.errors.CompileError` with
    every problem found where ``compile`` would refuse the spec (the config's ``lint.failOn`` included); the
    output's lint warnings are in the job's ``warnings``.
    """
    session = _session(config, profile_dirs, cluster_snapshot)
    return compile_specs([spec_document(_spec_data(spec), source)], session)[0]


def compile_spec(spec: SpecArg, *, config: ConfigArg = None, profile_dirs: Sequence[PathArg] = ()) -> List[Object]:
    """Compile one spec into its Kubernetes objects, in apply order (Namespace, ConfigMap, job)."""
    return compile_job(spec, config=config, profile_dirs=profile_dirs).objects


def compile_to_yaml(spec: SpecArg, *, config: ConfigArg = None, profile_dirs: Sequence[PathArg] = ()) -> str:
    """Compile one spec into the YAML stream ``ascend-compile compile`` prints."""
    from .compiling.writer import render_jobs

    return render_jobs([compile_job(spec, config=config, profile_dirs=profile_dirs)])


def to_yaml(objects: Sequence[Mapping[str, Any]]) -> str:
    """Objects as the deterministic ``---``-separated YAML stream ``ascend-compile compile`` prints."""
    from .yamlio.dump import dump_documents

    if isinstance(objects, Mapping) or not isinstance(objects, (list, tuple)) or \
            not all(isinstance(obj, Mapping) for obj in objects):
        raise ArgumentError("to_yaml takes a list of objects (dicts)")
    return dump_documents([plain(obj, f"objects[{i}]") for i, obj in enumerate(objects)])


def compile_files(paths: Union[PathArg, Sequence[PathArg]], *, config: ConfigArg = None,
                  profile_dirs: Sequence[PathArg] = (), max_bytes: int = DEFAULT_MAX_BYTES,
                  cluster_snapshot: Optional[PathArg] = None) -> List[CompiledJob]:
    """Compile spec files (directories are searched for ``*.yaml``/``*.yml``), all or nothing, as ``compile`` does
    (with ``cluster_snapshot`` as :func:`compile_job`)."""
    session = _session(config, profile_dirs, cluster_snapshot, max_bytes)
    return compile_specs(read_documents(_path_list(paths), session.max_bytes), session)


# --------------------------------------------------------------------------- validate and lint


def _path_list(paths: Union[PathArg, Sequence[PathArg]]) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [_fspath(paths, "paths")]
    if not isinstance(paths, (list, tuple)):
        raise ArgumentError(f"paths must be a path or a list of paths, not {type(paths).__name__}")
    return [_fspath(p, "paths") for p in paths]


InputsArg = Union[Mapping[str, Any], PathArg, Sequence[Union[Mapping[str, Any], PathArg]]]


def _split_inputs(inputs: InputsArg) -> Tuple[List[Object], List[str]]:
    """Objects or paths (one, or a list of either); mixing both is refused."""
    items: Sequence[Any]
    if isinstance(inputs, (Mapping, str, os.PathLike)):
        items = [inputs]
    elif isinstance(inputs, (list, tuple)):
        items = list(inputs)
    else:
        raise ArgumentError(f"expected Kubernetes objects (dicts) or file paths, got {type(inputs).__name__}")
    objects = [plain(i) for i in items if isinstance(i, Mapping)]
    paths = [os.fspath(i) for i in items if isinstance(i, (str, os.PathLike))]
    if len(objects) + len(paths) != len(items):
        bad = next(i for i in items if not isinstance(i, (Mapping, str, os.PathLike)))
        raise ArgumentError(f"expected Kubernetes objects (dicts) or file paths, got {type(bad).__name__}")
    if objects and paths:
        raise ArgumentError("pass either objects or paths, not both in one call")
    return objects, paths


def validate_manifests(objects_or_paths: InputsArg, *, strict: bool = True, strict_kinds: bool = False,
             volcano_version: Optional[str] = None) -> List[Finding]:
    """Check manifests against the built-in JSON Schemas (``ascend-compile validate``).

    Give objects (dicts, e.g. from :func:`compile_spec`) or paths (files,
    directories, ``-``); findings from paths carry line and column.
    """
    objects, paths = _split_inputs(objects_or_paths)
    volcano_version = _volcano_version(volcano_version)
    if paths:
        from .files.validate import validate_paths

        findings, _count = validate_paths(paths, strict=strict, strict_kinds=strict_kinds,
                                        volcano_version=volcano_version)
        return list(findings)
    from .schemacheck.check import validate_object

    out: List[Finding] = []
    for obj in objects:
        out.extend(validate_object(obj, strict=strict, volcano_version=volcano_version, strict_kinds=strict_kinds))
    return out


def lint_manifests(objects_or_paths: InputsArg, *, config: ConfigArg = None, profile_dirs: Sequence[PathArg] = (),
         strict: bool = True, volcano_version: Optional[str] = None,
         disable: Sequence[str] = (), cluster_snapshot: Optional[PathArg] = None) -> List[Finding]:
    """Schema checks plus the operator's and scheduler's rules (``ascend-compile lint``).

    Give objects (dicts) or paths; all of them are linted as one run, so
    cross-object rules (a Volcano Job and its ranktable ConfigMap) see them all.
    A job spec in a file is checked as ``ascend-compile compile`` checks it; with ``cluster_snapshot`` (as
    :func:`compile_job`) everything is also checked against that cluster.
    """
    objects, paths = _split_inputs(objects_or_paths)
    session = _session(config, profile_dirs, cluster_snapshot)
    volcano_version = _volcano_version(volcano_version)
    _known_rules(disable)
    if paths:
        from .compiling.pipeline import check_specs
        from .lint.paths import lint_paths

        findings, _count = lint_paths(paths, session.registry, session.config, strict=strict,
                                      volcano_version=volcano_version, disable=disable,
                                      specs=lambda docs: check_specs(docs, session), inventory=session.inventory,
                                      target=session.target)
        return findings
    linter = session.linter(strict=strict, volcano_version=volcano_version, disable=disable)
    return list(linter.run(objects=[(obj, "") for obj in objects]))


def _volcano_version(value: Optional[str]) -> Optional[str]:
    """``volcano_version`` checked as ``--volcano-version`` is: '1.9', 'v1.15.0', ... or None."""
    if value is None:
        return None
    from .schemacheck.registry import VOLCANO_VERSIONS, normalize_volcano_version

    if not isinstance(value, str):
        raise ArgumentError(f"volcano_version is a str such as '1.9', not {type(value).__name__}")
    try:
        return normalize_volcano_version(value)
    except ValueError as exc:
        raise ArgumentError(str(exc), f"one of {', '.join(VOLCANO_VERSIONS)}") from None


def _known_rules(disable: Sequence[str]) -> None:
    """``disable`` names rules that exist and can be disabled (else it would silently disable nothing)."""
    from .catalogue import get
    from .config import cannot_disable

    if isinstance(disable, str) or not all(isinstance(d, str) for d in disable):
        raise ArgumentError("disable is a list of rule IDs or names, e.g. ['AC303']")
    unknown = [d for d in disable if get(d) is None]
    if unknown:
        raise ArgumentError(f"disable names unknown rules: {', '.join(unknown)}", "see 'ascend-compile rules'")
    refused = [cannot_disable(d) for d in disable if cannot_disable(d)]
    if refused:
        raise ArgumentError(f"disable: {'; '.join(refused)}", "remove them from disable")


# --------------------------------------------------------------------------- profiles


def list_profiles(extra_dirs: Sequence[PathArg] = ()) -> List[Profile]:
    """Every hardware profile (built-in, then ``extra_dirs``; a later one overrides by name), sorted by name."""
    return ProfileRegistry(_dirs(extra_dirs, "extra_dirs")).all()


def load_profile(name: str, extra_dirs: Sequence[PathArg] = ()) -> Profile:
    """One hardware profile by name; raises :class:`ProfileNotFoundError` if there is none."""
    if not isinstance(name, str):
        raise ArgumentError(f"a profile name is a str, not {type(name).__name__}")
    return ProfileRegistry(_dirs(extra_dirs, "extra_dirs")).require(name)
