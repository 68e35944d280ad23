"""``ascend-compile schema``: the spec's JSON Schema, on stdout or written where editors can read it."""
from __future__ import annotations

import os
import sys
from typing import Optional

import click

#: The schemas a project needs beside its specs: the spec, and the hardware profile (for profileDirs).
SPEC_SCHEMA = "trainingjob-v1alpha1.json"
PROFILE_SCHEMA = "profile-v1alpha1.json"
#: The one repository of ascend-compile: its released schemas are at this URL + /<tag>/schemas/<file>.
REPOSITORY = "https://github.com/ascend-compile/ascend-compile"
RAW_FILES = "https://raw.githubusercontent.com/ascend-compile/ascend-compile"


def builtin_schema(name: str = SPEC_SCHEMA) -> bytes:
    from ..resources import schemas_dir

    with open(os.path.join(schemas_dir(), name), "rb") as handle:
        return handle.read()


def released_url(name: str = SPEC_SCHEMA) -> str:
    """Where this release's schema is published: the file in the repository at the release's tag."""
    from .commands import version

    return f"{RAW_FILES}/v{version()}/schemas/{name}"


def local_schema(spec_path: str) -> Optional[str]:
    """The path, relative to the spec's folder, of a ``schemas/`` copy of the spec schema in that folder or above
    it (a source checkout, or what ``schema --write schemas/`` wrote), if it is this release's.

    Searched as config discovery searches: up to the repository root, never above it (without one, the spec's
    folder only); each candidate read only as a regular file no larger than the schema (a link to ``/dev/zero``
    or a FIFO, or out of the repository, is passed over, not read)."""
    from ..safeio.inside import outside_link, repository_root
    from ..safeio.read import read_regular_bytes

    wanted = builtin_schema()
    folder = os.path.dirname(os.path.abspath(spec_path))
    root = repository_root(folder)
    here = folder
    while True:
        candidate = os.path.join(here, "schemas", SPEC_SCHEMA)
        if not outside_link(candidate) and read_regular_bytes(candidate, len(wanted), follow=True)[0] == wanted:
            return os.path.relpath(candidate, folder).replace(os.sep, "/")
        if root is None or here == root or os.path.dirname(here) == here:
            return None
        here = os.path.dirname(here)


@click.command(
    "schema",
    epilog="""\b
Examples:
  ascend-compile schema > trainingjob-v1alpha1.json
  ascend-compile schema --write schemas/     # then: ascend-compile init jobs/new.yaml points at it
  ascend-compile schema --profile""",
)
@click.option("--write", "directory", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help=f"Write {SPEC_SCHEMA} and {PROFILE_SCHEMA} into DIR (created if missing) instead of printing.")
@click.option("--profile", "profile", is_flag=True, help="Print the hardware profile schema instead of the spec's.")
def schema_command(directory: Optional[str], profile: bool) -> None:
    """Print the JSON Schema of the job spec (kind: TrainingJob), or write it to a folder.

    Editors with the YAML language server check and complete a spec whose first line is
    '# yaml-language-server: $schema=<path or URL>'. Keep a copy in your repository
    (--write schemas/) and 'init' points new specs at it; without one, 'init' uses this
    release's schema in the ascend-compile repository.
    """
    if directory is None:
        sys.stdout.buffer.write(builtin_schema(PROFILE_SCHEMA if profile else SPEC_SCHEMA))
        return
    from ..errors import AscendCompileError
    from ..report import render
    from ..safeio.write import write_into

    try:
        written = write_into(directory, [(name, builtin_schema(name)) for name in (SPEC_SCHEMA, PROFILE_SCHEMA)])
    except AscendCompileError as exc:  # a link where a schema goes, a folder that cannot be made or written
        render(exc.findings, "text", stream=sys.stderr)
        sys.exit(2)
    for target in written:
        click.echo(f"wrote {target}", err=True)
    folder = os.path.normpath(directory)
    click.echo(f"first line of a spec in {os.path.join(folder, os.pardir)}: # yaml-language-server: $schema="
               f"{os.path.basename(folder)}/{SPEC_SCHEMA}", err=True)
