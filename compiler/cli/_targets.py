"""The jobs a cluster command acts on: its SPEC arguments compiled in the command's session (as ``compile``
compiles them), a compiled manifest's job, or a NAME."""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Sequence, Union

import click

from ..lint.session import Session
from ._session import Usage, open_for, report_and_exit
from ._settings import ApplyOptions, DiffOptions, Inputs, KubectlFlags


def compile_for_cluster(specs: Sequence[str], options: Union[ApplyOptions, DiffOptions]) -> List[Any]:
    """Compile as ``compile`` does, in the command's session (the same steps, output lint included, against the
    cluster with ``--cluster`` or ``--cluster-snapshot``, for its target): a spec ``compile`` would refuse is
    reported and exits (1 bad spec, 2 unreadable) before anything is sent."""
    from ..errors import AscendCompileError
    from .compile import compile_or_exit

    try:
        # apply takes --cluster-snapshot, and so the config's cluster.snapshot; diff takes neither
        session = open_for(options.inputs, options.judging, options.kubectl,
                           config_snapshot=isinstance(options, ApplyOptions))
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    except AscendCompileError as exc:  # a snapshot that cannot be read (AC016)
        report_and_exit(exc.findings, options.inputs.fmt, stream=sys.stderr)
    return compile_or_exit(specs, session, options.inputs.fmt)


def job_targets(targets: Sequence[str], kind: str, inputs: Inputs, flags: KubectlFlags,
                session: Optional[Session] = None) -> List[Any]:
    """The jobs the arguments name: a SPEC path holding job specs is compiled in the command's session (``session``,
    else made from ``inputs`` when a SPEC is given; problems reported, exit), one holding a compiled manifest names
    the job it holds; NAMEs are checked."""
    from ..compiling import pipeline
    from ..files.discovery import read_documents
    from ..errors import AscendCompileError
    from ..jobspec.model import is_spec
    from ..kube.planning import check_namespaces, is_spec_path, manifest_target, shadowed_names
    from ..kube.planning import targets as plan_targets

    for name in shadowed_names(targets):
        click.echo(f"note: {name!r} is taken as a job name; to use the local {name!r} as a spec, "
                   f"write ./{name}", err=True)
    paths = [t for t in targets if is_spec_path(t)]
    jobs: List[Any] = []
    files: List[Any] = []
    if paths:
        session = session or open_for(inputs)
        try:
            by_file: Dict[str, List[Any]] = {}
            for doc in read_documents(paths, session.max_bytes):
                by_file.setdefault(doc.source, []).append(doc)
            specs = [doc for docs in by_file.values() if any(is_spec(doc.data) for doc in docs) for doc in docs]
            jobs = pipeline.compile_specs(specs, session) if specs else []
        except AscendCompileError as exc:
            report_and_exit(exc.findings, inputs.fmt, stream=sys.stderr)
        files = [manifest_target(source, [doc.data for doc in docs if doc.data is not None], flags.namespace)
                 for source, docs in by_file.items() if not any(is_spec(doc.data) for doc in docs)]
    check_namespaces(jobs, flags.namespace)
    return plan_targets(targets, jobs, kind, files)
