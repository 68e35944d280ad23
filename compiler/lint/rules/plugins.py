"""A Volcano Job names a job plugin Volcano does not have.

**What.** The keys of ``spec.plugins`` must be built-in Volcano job plugins:
``ssh``, ``env``, ``svc`` (used by every MindCluster sample), or the
distributed-framework plugins ``tensorflow``, ``mpi``, ``pytorch``, ``ray``.

**Why.** Volcano's admission webhook rejects the job: "unable to find job
plugin: %s;". Source: ``VC@v1.9.0: pkg/webhooks/admission/jobs/validate/admit_job.go``,
``pkg/controllers/job/plugins/`` (The framework plugins depend on
the Volcano release; ``ray`` is newer than v1.9.)

**How to fix.** Fix the plugin name, or remove it.

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
from ..context import as_dict
from ..rule import Problem

KNOWN = ("ssh", "env", "svc", "tensorflow", "mpi", "pytorch", "ray")


def _close(word, options, n=1):
    import difflib  # only when there is something to suggest

    return difflib.get_close_matches(word, options, n=n)


def check(obj, run):
    for name in as_dict(obj.spec.get("plugins")):
        if name in KNOWN:
            continue
        close = _close(str(name), KNOWN, n=1)
        yield Problem(("spec", "plugins", name), f"unable to find job plugin {name!r}: Volcano rejects the job",
                      hint=f"did you mean {close[0]!r}?" if close else None, key=True)
