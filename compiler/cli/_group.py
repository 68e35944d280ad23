"""The click group and its lazy command loader."""
from __future__ import annotations

import importlib
from typing import List, Optional

import click

from .commands import COMMANDS, version


class LazyGroup(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        # click turns Ctrl-C into "Aborted!" and exit 1, which a CI script cannot tell from findings
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            from ..errors import Interrupted

            raise Interrupted() from None

    def list_commands(self, ctx: click.Context) -> List[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> Optional[click.Command]:
        entry = COMMANDS.get(name)
        if entry is None:
            return None
        module = importlib.import_module(f"{__package__}.{entry[0]}")
        command: click.Command = getattr(module, f"{name}_command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(version(), "--version", prog_name="ascend-compile", message="%(prog)s %(version)s")
def cli() -> None:
    """Compile compact training-job specs into Kubernetes manifests for Ascend NPU
    clusters (MindCluster + Volcano), and lint the manifests you already have.

    \b
    Examples:
      ascend-compile compile job.yaml     # a spec, e.g. the starter 'ascend-compile init job.yaml' writes
      ascend-compile compile specs/ -o manifests/
      ascend-compile lint manifests/
      ascend-compile profiles show module-910b-16
    """
