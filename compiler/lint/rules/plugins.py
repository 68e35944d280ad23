"""A Volcano Job names a job plugin Volcano does not have.

**What.** The keys of ``spec.plugins`` must be built-in Volcano job plugins:
``ssh``, ``env``, ``svc`` (used by every MindCluster sample), or the
distributed-framework plugins ``tensorflow``, ``mpi``, ``pytorch``, ``ray``.

With ``mpi``, the job needs the tasks the plugin names: ``master`` and
``worker`` unless its arguments say otherwise (``--master=<task>``,
``--worker=<task>``).

**Why.** Volcano's admission webhook rejects a job naming a plugin it does not
have, and an ``mpi`` job without its master or worker task. (The framework
plugins depend on the Volcano release; ``ray`` is newer than v1.9.)

**How to fix.** Fix the plugin name, or remove it; remove ``mpi`` from an
Ascend job (MindCluster's samples use ``ssh``, ``env`` and ``svc``), or name
its tasks.

Failing::

    plugins:
      ssh: []
      envs: []

Passing::

    plugins:
      ssh: []
      env: []
      svc: []
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List

from ...catalogue.citations import Citation, Place, VC, VCJ
from ...manifest.values import as_dict, as_list, as_str
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateJobCreate", VCJ, VC, "unable to find job plugin: %s;",
                    also=(Place("", "pkg/controllers/job/plugins/", VC),
                          Place("", "pkg/controllers/job/plugins/distributed-framework/mpi/mpi.go", VC)))

KNOWN = ("ssh", "env", "svc", "tensorflow", "mpi", "pytorch", "ray")


def _close(word: str, options: Iterable[str], n: int = 1) -> List[str]:
    import difflib  # only when there is something to suggest

    return difflib.get_close_matches(word, options, n=n)


def _mpi_roles(args: Any) -> Dict[str, str]:
    """The task names the mpi plugin looks for: its --master / --worker flags (Go's flag forms), else the defaults."""
    roles = {"master": "master", "worker": "worker"}
    args = [a for a in as_list(args) if isinstance(a, str)]
    for i, arg in enumerate(args):
        flag, _, value = arg.lstrip("-").partition("=")
        if flag in roles and arg.startswith("-"):
            roles[flag] = value if "=" in arg else (args[i + 1] if i + 1 < len(args) else roles[flag])
    return roles


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    plugins = as_dict(obj.spec.get("plugins"))
    for name in plugins:
        if name == "mpi":
            tasks = {as_str(t.get("name")) for t in as_list(obj.spec.get("tasks")) if isinstance(t, dict)}
            for role, task in _mpi_roles(plugins[name]).items():
                if task not in tasks:
                    yield Problem(("spec", "plugins", name), f"the mpi plugin's {role} task {task!r} is not among "
                                                             "the job's tasks: Volcano rejects the job",
                                  hint="remove the mpi plugin (MindCluster's samples use ssh, env and svc)")
                    break
        if name in KNOWN:
            continue
        close = _close(str(name), KNOWN, n=1)
        yield Problem(("spec", "plugins", name), f"unable to find job plugin {name!r}: Volcano rejects the job",
                      hint=f"did you mean {close[0]!r}?" if close else None, key=True)
