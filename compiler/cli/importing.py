"""``ascend-compile import``: AscendJob / Volcano Job manifests (and their ConfigMaps) to job specs."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, List, Tuple

import click

from ._options import table_options
from ._session import DOCUMENT_FORMATS, nothing_found, open_for, report, report_and_exit
from ._settings import ImportOptions, options_for

if TYPE_CHECKING:
    from ..findings import Finding


@click.command(
    "import",
    epilog="""\b
Examples:
  ascend-compile import hand-written.yaml > job-spec.yaml
  ascend-compile import legacy/*.yaml -o specs/
  ascend-compile import train.yaml rings-config.yaml --profile module-910b-16""",
)
@click.argument("manifests", nargs=-1, required=True, metavar="MANIFEST...")
@click.option("--profile", default=None, metavar="NAME",
              help="The hardware profile, when the manifests fit several (import says so).")
@click.option("-o", "--output-dir", type=click.Path(file_okay=False), default=None,
              help="Write one spec per job (<name>.yaml) into this directory instead of stdout; two jobs of one "
                   "name (the same job in two namespaces) are refused before anything is written.")
@click.option("--force", is_flag=True, help="With --output-dir: overwrite specs that exist.")
@click.option("--exact", is_flag=True,
              help="Specs that compile back to the manifests byte for byte: the harmless differences (a task name, "
                   "a default written out, /dev/shm mounted) are carried through spec.jobPatch too.")
@table_options("import")
def import_command(manifests: Tuple[str, ...], **params: Any) -> None:
    """Turn AscendJob / Volcano Job manifests into the shortest job specs that compile to jobs the cluster treats the same.

    MANIFEST is a file, a directory or - for stdin; give a job's ranktable and reset
    ConfigMaps with it. The profile is worked out from the NPU resource, node selectors
    and annotations. Differences the cluster does not act on (a task name, a default
    written out, /dev/shm mounted) are accepted and listed in a comment at the top of the
    spec (--exact carries them too). What no spec field says goes into spec.jobPatch, with a comment; a
    manifest that no spec can reproduce (an explicit null, an ambiguous profile) is
    refused with the reason (AC026, or the ID of the lint error the job has), and the other jobs are still
    imported (exit code 1): nothing is dropped. Objects that are not jobs and
    that no spec writes (a Deployment, a ConfigMap of another namespace) are skipped
    with a note on stderr: they stay manifests. Files a folder's walk leaves out (a Helm
    chart, kustomize patches) are named there too.
    Each spec is compiled before it is written and must give back the same objects (but
    for the differences listed).
    """
    from ..files.discovery import for_command, read_documents
    from ..errors import AscendCompileError
    from ..importer import import_documents
    from ..importer.render import render_all

    options = options_for(ImportOptions, params)
    fmt, profile = options.inputs.fmt, options.profile
    session = open_for(options.inputs)  # what the specs are compiled and their output linted with
    if profile is not None and profile not in session.registry.names():
        raise click.BadParameter(f"unknown profile {profile!r} (see 'ascend-compile profiles')", param_hint="--profile")
    skipped: List[Finding] = []
    refused: List[Finding] = []  # jobs that cannot be imported: said, and the others still imported (exit 1)
    left_out: List[Finding] = []
    try:
        docs = read_documents(list(manifests), session.max_bytes, left_out)
        if not docs:  # nothing read at all: an input error, as for compile
            sys.exit(nothing_found("import", "manifests", left_out))
        imported = import_documents(docs, session, profile, skipped, refused, options.exact)
    except AscendCompileError as exc:  # said with what was left out on purpose (kustomize patches): the job may be there
        report_and_exit([*exc.findings, *(for_command(note, "import") for note in left_out)], fmt, stream=sys.stderr)
        return
    skipped += [for_command(note, "import") for note in left_out]
    if refused or skipped:  # refused jobs, objects that are not jobs, files left out: on stderr, the specs on stdout
        # (a json or sarif document on stdout when no spec goes there: its one document)
        alone = fmt in DOCUMENT_FORMATS and (options.output_dir is not None or not imported)
        report([*refused, *skipped], fmt, sys.stdout if alone else sys.stderr)
    if options.output_dir is None:
        sys.stdout.write(render_all(imported))
    else:
        _write(imported, options.output_dir, options.force, fmt)
    if refused:
        sys.exit(1)


def _write(imported: List[Any], output_dir: str, force: bool, fmt: str) -> None:
    """One spec per job into ``output_dir``, all or none: two jobs of one name (the same job in two namespaces)
    are refused before anything is written (AC013), as is a spec that exists, without --force."""
    from ..errors import AscendCompileError
    from ..importer.render import render
    from ..safeio.write import refuse_same_names, write_into

    files = [(f"{one.name}.yaml", render(one)) for one in imported]
    taken = [os.path.join(output_dir, name) for name, _ in files if os.path.lexists(os.path.join(output_dir, name))]
    try:
        refuse_same_names([(name, one.source, _origin(one)) for (name, _), one in zip(files, imported)],
                          "import the jobs of each namespace into a directory of their own")
        if taken and not force:
            click.echo(f"error: {', '.join(taken)} already exist(s); use --force to overwrite", err=True)
            sys.exit(2)
        written = write_into(output_dir, files)  # all or none; a link where a spec goes is refused, --force or not
    except AscendCompileError as exc:
        report_and_exit(exc.findings, fmt, stream=sys.stderr)
        return
    for path in written:
        click.echo(f"wrote {path}", err=True)


def _origin(one: Any) -> str:
    """Where an imported job comes from, for a message: its file, and its namespace when it names one."""
    namespace = (one.spec.get("metadata") or {}).get("namespace")
    return f"{one.source}, namespace {namespace}" if namespace else one.source
