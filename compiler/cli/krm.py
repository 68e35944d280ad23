"""``ascend-compile krm``: the KRM function adapter (ResourceList on stdin, ResourceList on stdout)."""
from __future__ import annotations

import sys
from typing import Any, List, Optional

import click

from ._options import table_options


@click.command(
    "krm",
    epilog="""\b
Examples:
  # kustomize: a generators: entry whose file is a TrainingJob spec annotated with
  #   config.kubernetes.io/function: |
  #     exec:
  #       path: ascend-compile-krm    (installed with ascend-compile; found on PATH)
  kustomize build --enable-alpha-plugins --enable-exec examples/kustomize/generator
  # kpt: compile every spec under specs/ and print the manifests
  kpt fn eval specs/ --exec "ascend-compile krm" -o unwrap
  # kpt as a validator: lint everything, report findings as results
  kpt fn eval manifests/ --exec "ascend-compile krm --lint" -o stdout
  ascend-compile krm < resource-list.yaml""",
)
@click.argument("input_path", metavar="[RESOURCE_LIST]", default="-", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--lint", "lint", flag_value=True, default=None,
              help="Validator mode: pass every item through unchanged and report lint findings as results "
                   "(also: a ConfigMap functionConfig with data.lint: \"true\").")
@table_options("krm")
@click.option("-q", "--quiet", is_flag=True, help="Do not repeat the results that fail the run on stderr.")
def krm_command(**params: Any) -> None:
    """Run as a KRM function (kustomize exec plugin, kpt fn eval --exec).

    Reads a config.kubernetes.io/v1 ResourceList, replaces each TrainingJob spec among
    its items (and a spec given as functionConfig) by the manifests it compiles to,
    passes every other item through, and writes the ResourceList to stdout with any
    problems in results (severity, message, resourceRef, field.path, file.path).
    Results at or above --fail-on (default: errors) are also printed on stderr, and
    the exit status is 1 (2 when the input is not a readable ResourceList), as
    kustomize expects.
    """
    from ..compiling import krm
    from ..errors import AscendCompileError
    from ..yamlio.dump import dump_document
    from ..yamlio.parsing import load_documents
    from ..yamlio.reading import display_name, read_text
    from ._session import open_for
    from ._settings import KrmOptions, options_for

    options = options_for(KrmOptions, params)
    session = open_for(options.inputs, options.judging)  # failOn refuses a spec as compile refuses it
    try:
        text = read_text(options.input_path, session.max_bytes)
        docs = load_documents(text, display_name(options.input_path))
    except AscendCompileError as exc:
        _report(exc.findings)
        sys.exit(2)
    if len(docs) != 1:
        data = None if not docs else [d.data for d in docs]
    else:
        data = docs[0].data
    outcome = krm.run(data, lint=options.lint, session=session)
    spliced = _unchanged_with_results(text, docs, outcome) if outcome.lint else None
    sys.stdout.write(spliced if spliced is not None else dump_document(outcome.resource_list))
    sys.stdout.flush()
    status = krm.exit_status(outcome.findings, session.fail_on)
    if status and not options.quiet:
        _report([f for f in outcome.findings if session.refuses(f)])
    sys.exit(status)


def _unchanged_with_results(text: str, docs: List[Any], outcome: Any) -> Optional[str]:
    """The input text itself, plus a ``results:`` key: for validators, whose output kustomize
    compares node by node (quoting style included) with their input.

    Only for a single block-style ResourceList mapping without ``results``; otherwise None
    (and the caller re-serialises, which is equivalent but may requote scalars).
    """
    import yaml

    from ..yamlio.dump import dump_document

    if len(docs) != 1 or not isinstance(docs[0].node, yaml.MappingNode) or docs[0].node.flow_style:
        return None
    node = docs[0].node
    if any(isinstance(k, yaml.ScalarNode) and k.value == "results" for k, _ in node.value):
        return None
    lines = text.splitlines(keepends=True)
    end = node.end_mark
    body = "".join(lines[:end.line]) if end.column == 0 else "".join(lines[:end.line + 1])
    if body and not body.endswith("\n"):
        body += "\n"
    results = outcome.resource_list.get("results")
    if not results:
        return body
    indent = " " * node.start_mark.column  # a mapping written indented: its new key is indented alike
    return body + "".join(indent + line for line in dump_document({"results": results}).splitlines(keepends=True))


def _report(findings: List[Any]) -> None:
    from ..report import render

    render(findings, "text", stream=sys.stderr, color=False)
