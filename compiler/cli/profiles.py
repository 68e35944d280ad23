"""``ascend-compile profiles``: list the hardware profiles, or show one."""
from __future__ import annotations

import json
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

import click

PROFILE_OPTIONS = [
    click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
                 help="Project config file (default: .ascend-compile.yaml found upward from here)."),
    click.option("--no-config", is_flag=True, help="Ignore any project config file."),
    click.option("--profile-dir", "profile_dirs", multiple=True, type=click.Path(file_okay=False),
                 help="Extra directory of hardware profiles (repeatable; later ones win)."),
]


def _profile_options(func: Any) -> Any:
    for decorator in reversed(PROFILE_OPTIONS):
        func = decorator(func)
    return func


def _registry(config_path: Optional[str], no_config: bool, profile_dirs: Sequence[str]) -> Any:
    from ._session import load_profiles
    from ._settings import Inputs

    _config, registry = load_profiles(Inputs(config_path, no_config, tuple(profile_dirs)))
    return registry


def _load_all(registry: Any) -> List[Any]:
    from ..errors import AscendCompileError
    from ..report import render

    try:
        return list(registry.all())
    except AscendCompileError as exc:
        render(exc.findings, "text", stream=sys.stderr)
        sys.exit(2)


def complete_profile_names(incomplete: str) -> List[Any]:
    """Shell completion for profile names (built-in and the project's profile directories)."""
    from click.shell_completion import CompletionItem

    try:
        registry = _registry(None, False, ())
        return [CompletionItem(p.name, help=p.description) for p in registry.all() if p.name.startswith(incomplete)]
    except (Exception, SystemExit):  # noqa: BLE001 - completion must never print a traceback
        return []


def compact_counts(values: Sequence[int]) -> str:
    """``[1, 2, 3, 4, 8]`` -> ``"1-4, 8"``: runs of three or more become ranges."""
    values = sorted(set(values))
    parts: List[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{values[i]}-{values[j]}")
        else:
            parts.extend(str(v) for v in values[i:j + 1])
        i = j + 1
    return ", ".join(parts)


def allowed_totals(profile: Any) -> str:
    """In words, which totals ``npus:`` accepts on this profile (see hardware.split_total)."""
    one_pod = compact_counts(profile.single_pod)
    per_node = profile.npus_per_node
    if per_node in profile.multi_pod:
        text = (f"{one_pod} as one pod; {per_node * 2}, {per_node * 3}, {per_node * 4}, ... "
                f"(whole nodes of {per_node}) as several pods")
        if profile.super_pod:
            text += f", in sp-blocks that are multiples of {profile.super_pod.block_multiple}"
        return text
    return f"{one_pod} as one pod"


def _row(profile: Any) -> Tuple[str, ...]:
    multi = compact_counts(profile.multi_pod)
    if profile.multi_pod_recommended:
        multi += f" (recommended {compact_counts(profile.multi_pod_recommended)})"
    return (profile.name, profile.chip, profile.resource, str(profile.npus_per_node),
            compact_counts(profile.single_pod), multi)


def _on_release(profile: Any, every: Sequence[Any], release: str) -> Dict[str, Any]:
    """What the plugin of ``release`` does with jobs for ``profile`` (compiler/releases.py's facts, through the
    handler choice and NPU arithmetic lint uses)."""
    from .. import releases
    from ..hardware.arithmetic import allowed_per_pod
    from ..hardware.targeting import handler_absent, known_policies

    absent = handler_absent(every, profile.accelerator_type, profile.resource, release) is not None \
        if profile.accelerator_type else False
    missing = profile.name in releases.value("handlers-absent", release)
    if missing:
        handler = "none (a job naming its accelerator-type gets no handler: no NPU count is checked)"
    elif absent:
        handler = "only through the sp-block annotation"
    else:
        handler = "yes"
    view: Dict[str, Any] = {"handler": handler,
                            "singlePod": None if missing else list(allowed_per_pod(profile, 1, release)),
                            "multiPod": None if missing else list(allowed_per_pod(profile, 2, release))}
    if profile.schedule_policy:
        view["schedulePolicyRead"] = profile.schedule_policy in known_policies(every, release)
    view["ringControllerRequired"] = "ascend-910b" if profile.name in releases.value(
        "ring-controller-910b-required", release) else None
    return view


def per_release(profile: Any, every: Sequence[Any]) -> List[Dict[str, Any]]:
    """The profile's facts per supported MindCluster release, consecutive releases alike as one span, oldest first:
    ``[{"releases": "v6.0.0-v7.0.RC1", "handler": ..., "singlePod": [...], "multiPod": [...], ...}, ...]``."""
    from .. import releases

    spans: List[Tuple[List[str], Dict[str, Any]]] = []
    for release in releases.RELEASES:
        view = _on_release(profile, every, release)
        if spans and spans[-1][1] == view:
            spans[-1][0].append(release)
        else:
            spans.append(([release], view))
    return [{"releases": releases.span_text(names), **view} for names, view in spans]


def _details(profile: Any, every: Sequence[Any]) -> Dict[str, Any]:
    data: Dict[str, Any] = dict(profile.to_dict())
    data["allowedNpus"] = allowed_totals(profile)
    data["releases"] = per_release(profile, every)
    return data


def _release_line(span: Dict[str, Any]) -> str:
    said = [f"handler {span['handler']}"]
    if span["singlePod"] is not None:
        said += [f"1 pod: {compact_counts(span['singlePod'])}", f"several pods: {compact_counts(span['multiPod'])}"]
    if "schedulePolicyRead" in span:
        said.append("schedule_policy read" if span["schedulePolicyRead"] else "schedule_policy not read")
    if span["ringControllerRequired"]:
        from ..vocabulary import RING_LABEL

        said.append(f"{RING_LABEL} must be {span['ringControllerRequired']}")
    return f"  {span['releases']}: " + "; ".join(said)


def release_notes(profiles: Sequence[Any]) -> str:
    """Below the table: for each profile whose facts differ between the supported releases, each span's."""
    lines: List[str] = []
    for profile in profiles:
        spans = per_release(profile, profiles)
        if len(spans) > 1:
            lines += [f"{profile.name}:", *(_release_line(span) for span in spans)]
    if not lines:
        return ""
    return "\nPer MindCluster release, where it differs (ascend-compile profiles show NAME):\n" + "\n".join(lines) + "\n"


_HEADER = ("NAME", "CHIP", "RESOURCE", "NPUS/NODE", "NPUS/POD (1 POD)", "NPUS/POD (SEVERAL PODS)")


def _table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines) + "\n"


@click.group(
    "profiles",
    invoke_without_command=True,
    epilog="""\b
Examples:
  ascend-compile profiles
  ascend-compile profiles --format json | jq -r '.[].name'
  ascend-compile profiles show module-910b-16
  ascend-compile profiles --profile-dir hw-profiles/ show my-cluster-a2""",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a table; json: every profile in full.")
@_profile_options
@click.pass_context
def profiles_command(ctx: click.Context, fmt: str, config_path: Optional[str], no_config: bool,
                     profile_dirs: Tuple[str, ...]) -> None:
    """List the hardware profiles: chip, device-plugin resource, NPUs per node, and
    the NPU counts a pod may request on one pod and when the job has several pods
    (on the newest MindCluster release; below the table, what differs on older ones).

    Profiles are data: the built-in ones plus any directories given with --profile-dir
    or profileDirs in the project config.
    """
    ctx.obj = {"config_path": config_path, "no_config": no_config, "profile_dirs": profile_dirs}
    if ctx.invoked_subcommand is not None:
        return
    profiles = _load_all(_registry(config_path, no_config, profile_dirs))
    if fmt == "json":
        sys.stdout.write(json.dumps([_details(p, profiles) for p in profiles], indent=2) + "\n")
        return
    sys.stdout.write(_table([_HEADER, *(_row(p) for p in profiles)]) + release_notes(profiles))


@profiles_command.command(  # type: ignore[untyped-decorator, unused-ignore]  # click 8.1 types group.command loosely
    "show",
    epilog="""\b
Examples:
  ascend-compile profiles show module-910b-8
  ascend-compile profiles show module-a3-16-super-pod --format json""",
)
@click.argument("name", shell_complete=lambda ctx, param, incomplete: complete_profile_names(incomplete))
@click.option("--format", "fmt", type=click.Choice(["yaml", "json"]), default="yaml", show_default=True,
              help="Output format.")
@_profile_options
@click.pass_context
def show_command(ctx: click.Context, name: str, fmt: str, config_path: Optional[str], no_config: bool,
                 profile_dirs: Tuple[str, ...]) -> None:
    """Show one hardware profile in full, with the NPU counts it allows, and per
    MindCluster release (releases): whether the plugin has its handler, the counts
    it takes, whether it reads the profile's schedule_policy.

    An unknown NAME exits with status 2 and suggests the closest known name.
    """
    parent = ctx.obj or {}
    registry = _registry(config_path or parent.get("config_path"), no_config or bool(parent.get("no_config")),
                         (*parent.get("profile_dirs", ()), *profile_dirs))
    from ..hardware.profiles import ProfileNotFoundError

    every = _load_all(registry)
    try:
        profile = registry.require(name)
    except ProfileNotFoundError as exc:
        click.echo(f"error: {exc.sentence()}", err=True)
        sys.exit(2)
    data = _details(profile, every)
    if fmt == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    from ..yamlio.dump import dump_document

    sys.stdout.write(dump_document(data))
