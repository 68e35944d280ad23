"""``ascend-compile init``: write a starter job spec that compiles as is."""
from __future__ import annotations

import os
import sys
from typing import Any, List, NoReturn, Optional, Tuple

import click

from ..vocabulary import (ASCEND_JOB, DNS1123_LABEL, FRAMEWORKS, MAX_LABEL_LENGTH, MINDSPORE, PYTORCH, TENSORFLOW,
                          VOLCANO_JOB)

TARGETS = (ASCEND_JOB, VOLCANO_JOB)

DEFAULT_NAME = "my-training-job"
DEFAULT_FRAMEWORK = PYTORCH
DEFAULT_PROFILE = "module-910b-8"
DEFAULT_NPUS = 8
DEFAULT_TARGET = ASCEND_JOB
DEFAULT_IMAGES = {
    PYTORCH: "registry.example.com/ml/pytorch-train:latest",
    MINDSPORE: "registry.example.com/ml/mindspore-train:latest",
    TENSORFLOW: "registry.example.com/ml/tensorflow-train:latest",
}
START_COMMANDS = {framework: "bash /job/code/train_start.sh" for framework in FRAMEWORKS}

TEMPLATE = """\
# yaml-language-server: $schema={schema}
# A starter job spec written by 'ascend-compile init'. Compile it with:
#   ascend-compile compile {display}
# Every field is described in the schema above; 'ascend-compile profiles show {profile}'
# lists the NPU counts this profile allows.
apiVersion: ascend-compile.io/v1alpha1
kind: TrainingJob
metadata:
  name: {name}
spec:
  framework: {framework}
  profile: {profile}
{target_line}  npus: {npus}  # {split}
  image: {image}
  command: [/bin/bash, -c]
  args: ["{start}"]
  # volumes:
  #   - {{name: code, nfs: "10.0.0.5:/data/code", mountPath: /job/code}}
  #   - {{name: output, pvc: my-output-claim, mountPath: /job/output}}
  # env:
  #   HCCL_CONNECT_TIMEOUT: "600"
"""


def _schema_ref(path: Optional[str]) -> str:
    """A local copy of the spec schema beside or above the spec (relative), else this release's published one."""
    from .schema import local_schema, released_url

    found = local_schema(path) if path and path != "-" else None
    return found or released_url()


def _complete_profiles(incomplete: str) -> List[Any]:
    from .profiles import complete_profile_names

    return complete_profile_names(incomplete)


def _interactive() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _check_name(value: str) -> str:
    if not DNS1123_LABEL.match(value) or len(value) > MAX_LABEL_LENGTH:
        raise click.BadParameter(
            "use lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63)")
    return value


@click.command(
    "init",
    epilog="""\b
Examples:
  ascend-compile init                       # asks for what it needs (on a terminal)
  ascend-compile init jobs/resnet.yaml --name resnet --framework pytorch \\
      --profile module-910b-8 --npus 16 --image registry.example.com/ml/pytorch:2.1
  ascend-compile init - --name demo --npus 2 --profile card-910b-2 | ascend-compile compile -""",
)
@click.argument("path", required=False, metavar="[PATH]")
@click.option("--name", help="Job name (DNS-1123 label).")
@click.option("--framework", type=click.Choice(FRAMEWORKS), help="Training framework.")
@click.option("--profile", help="Hardware profile (see 'ascend-compile profiles').",
              shell_complete=lambda ctx, param, incomplete: _complete_profiles(incomplete))
@click.option("--npus", type=click.IntRange(min=1), help="Total NPUs; split into pods by the profile.")
@click.option("--image", help="Training container image.")
@click.option("--target", type=click.Choice(TARGETS), help="What to compile to (default AscendJob).")
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
@click.option("--profile-dir", "profile_dirs", multiple=True, type=click.Path(file_okay=False),
              help="Extra directory of hardware profiles (repeatable).")
@click.option("--no-config", is_flag=True, help="Ignore any project config file.")
def init_command(path: Optional[str], name: Optional[str], framework: Optional[str], profile: Optional[str],
                 npus: Optional[int], image: Optional[str], target: Optional[str], force: bool,
                 profile_dirs: Tuple[str, ...], no_config: bool) -> None:
    """Write a starter TrainingJob spec to PATH (default: NAME.yaml; - for stdout).

    Values come from the flags; on a terminal, missing ones are asked for, otherwise
    they take defaults (pytorch on module-910b-8 with 8 NPUs). The spec is compiled
    before it is written, so what init writes always compiles. An existing file is
    never overwritten without --force.
    """
    from ._session import open_for
    from ._settings import Inputs

    session = open_for(Inputs(no_config=no_config, profile_dirs=profile_dirs))
    ask = _interactive()
    name = _job_name(name, ask)
    framework = framework or (str(click.prompt("Framework", type=click.Choice(FRAMEWORKS), default=DEFAULT_FRAMEWORK))
                              if ask else DEFAULT_FRAMEWORK)
    found = _profile(session.registry, profile, ask)
    npus = _npus(found, npus, ask)
    if image is None:
        image = str(click.prompt("Image", default=DEFAULT_IMAGES[framework])) if ask else DEFAULT_IMAGES[framework]
    if target is None:
        fallback_target = DEFAULT_TARGET if DEFAULT_TARGET in found.targets else found.targets[0]
        target = str(click.prompt("Target", type=click.Choice(list(found.targets)), default=fallback_target)) \
            if ask and len(found.targets) > 1 else fallback_target
    path = path or f"{name}.yaml"
    text = render_spec(path, name=name, framework=framework, profile=found, npus=npus, image=image,
                       target=target)
    _check_compiles(text, path, session)
    _write(path, text, name, force)


def _job_name(name: Optional[str], ask: bool) -> str:
    if name is None:
        return str(click.prompt("Job name", default=DEFAULT_NAME, value_proc=_check_name)) if ask else DEFAULT_NAME
    try:
        return _check_name(name)
    except click.BadParameter as exc:
        _fail(f"invalid --name {name!r}: {exc.message}")


def _profile(registry: Any, profile: Optional[str], ask: bool) -> Any:
    from ..errors import AscendCompileError
    from ..hardware.profiles import ProfileNotFoundError

    try:
        names = registry.names()
    except AscendCompileError as exc:  # a broken profile directory is reported, not a traceback
        _fail("; ".join(f"{f.file}: {f.message}" for f in exc.findings))
    if profile is None and ask:
        click.echo("Hardware profiles: " + ", ".join(names), err=True)

        def known(value: str) -> Any:  # an unknown name is asked again, with the nearest names
            try:
                return registry.require(value)
            except ProfileNotFoundError as exc:
                raise click.BadParameter(exc.sentence()) from None

        return click.prompt("Profile", default=DEFAULT_PROFILE, value_proc=known)
    try:
        return registry.require(profile or DEFAULT_PROFILE)
    except ProfileNotFoundError as exc:
        _fail(exc.sentence())


def _npus(profile: Any, npus: Optional[int], ask: bool) -> int:
    """The NPU total, checked against the profile when it is given (a flag) or answered (asked again)."""
    if npus is not None:
        try:
            return _placeable(profile, str(npus))
        except click.BadParameter as exc:
            _fail(f"invalid --npus {npus}: {exc.message}")
    fallback = DEFAULT_NPUS if DEFAULT_NPUS in profile.single_pod else max(profile.single_pod)
    if not ask:
        return int(fallback)
    from .profiles import allowed_totals

    click.echo(f"{profile.name} takes {allowed_totals(profile)}", err=True)
    return int(click.prompt("Total NPUs", default=fallback, value_proc=lambda value: _placeable(profile, value)))


def _placeable(profile: Any, value: str) -> int:
    """A total the profile can place (hardware.split_total), else BadParameter saying why and what to ask for."""
    from ..hardware.arithmetic import split_total

    try:
        total = int(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a whole number of NPUs") from None
    split, violations = split_total(profile, total)
    if split is None:
        raise click.BadParameter("; ".join(f"{v.message} ({v.hint})" for v in violations))
    return total


def _write(path: str, text: str, name: str, force: bool) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    if os.path.isdir(path):
        _fail(f"{path} is a directory; give a file name, e.g. {os.path.join(path, name + '.yaml')}")
    if os.path.lexists(path) and not force:
        _fail(f"{path} already exists; use --force to overwrite it")
    from ..errors import AscendCompileError
    from ..safeio.inside import check_inside
    from ..safeio.write import write_file

    try:
        check_inside(path)  # before its folder is made: no link above it leads out of the repository
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        write_file(path, text)  # never through a link, --force or not
    except OSError as exc:
        _fail(f"cannot create the folder {directory}: {exc.strerror or exc}")
    except AscendCompileError as exc:
        _fail("; ".join(f"{f.file}: {f.message} ({f.hint})" if f.hint else f"{f.file}: {f.message}"
                        for f in exc.findings))
    click.echo(f"wrote {path}; compile it with: ascend-compile compile {path}", err=True)


def _yaml_scalar(value: str) -> str:
    """A string as a YAML plain scalar when that is safe, else double-quoted."""
    import json

    import yaml

    try:
        if yaml.safe_load(value) == value and not value.startswith(("#", "&", "*", "!", "{", "[", "-", "?", "'", '"')) \
                and ": " not in value and " #" not in value:
            return value
    except yaml.YAMLError:
        pass
    return json.dumps(value)


def render_spec(path: str, *, name: str, framework: str, profile: Any, npus: int, image: str, target: str) -> str:
    from ..hardware.arithmetic import split_total
    from ..safeio.text import printable

    split, _ = split_total(profile, npus)
    if split:
        pods, per_pod = split
        split_text = f"{pods} pod{'s' if pods > 1 else ''} x {per_pod} NPUs on {profile.name}"
    else:
        split_text = f"on {profile.name}"
    target_line = f"  target: {target}\n" if target != ASCEND_JOB else ""
    # what goes into a comment is escaped: a path with a line break must not end the comment
    return TEMPLATE.format(schema=printable(_schema_ref(path)), display=printable(path), name=name,
                           framework=framework, profile=printable(profile.name), target_line=target_line,
                           npus=npus, split=printable(split_text), image=_yaml_scalar(image),
                           start=START_COMMANDS[framework])


def _check_compiles(text: str, path: str, session: Any) -> None:
    from ..errors import AscendCompileError
    from ..compiling.pipeline import compile_document
    from ..yamlio.parsing import load_documents

    try:
        docs = load_documents(text, path)
        compile_document(docs[0], session)
    except AscendCompileError as exc:
        problems: List[str] = []
        for finding in exc.findings:
            problems.append(f"{finding.field_path or 'spec'}: {finding.message}"
                            + (f" ({finding.hint})" if finding.hint else ""))
        _fail("these values do not make a job that compiles:\n  " + "\n  ".join(problems))
