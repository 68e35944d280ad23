"""Every option of the commands that check and compile, in one table: no click here.

Each :class:`Option` says its spellings, the parameter it sets, what it takes, its default, its help and the
commands that take it.  click's options are made from it (:func:`ascend_compile.cli._options.table_options`), and
the fast path (:mod:`._fast`) reads a plain command line with it, so the two read every option the same way;
:func:`defaults` gives a command's parameters before its command line is read.  A command lists its options in
``--help`` in the order of this table.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ..findings import SEVERITIES
from ..records import NamedTuple
from ..report import FORMATS
from ..yamlio.common import DEFAULT_MAX_BYTES

#: what an option takes (besides a tuple of allowed values): a flag, a flag with its off spelling second
#: (``--strict/--no-strict``), a repeatable text, a whole number of at least 1, a text, a file, a directory
FLAG, SWITCH, MANY, INT, TEXT, FILE, DIR = "flag", "switch", "many", "int", "text", "file", "dir"

#: the commands that read the project config and profiles (``--config``, ``--format``, ``--show-config``, ...)
_INPUT = ("lint", "compile", "import", "status", "apply", "diff", "delete")
#: ``--color``: auto (the terminal and NO_COLOR / FORCE_COLOR decide), always, never
COLOR_CHOICES = ("auto", "always", "never")
#: the commands whose report is findings, in any of the report formats (``status`` reports jobs: text or json)
_FINDINGS = tuple(command for command in _INPUT if command != "status")
#: the commands that run kubectl (``--kubeconfig``, ``--context``, ``-n``, ...)
_KUBECTL = ("lint", "compile", "apply", "diff", "delete", "status", "why", "wait", "logs", "events", "list",
            "cluster snapshot")
#: the webhook's server: judged as ``lint`` judges, against the cluster it watches (through the Python client)
_WEBHOOK = "webhook serve"
#: what ``-n`` means to the commands that check jobs against the live cluster
_CLUSTER_NAMESPACE = ("With --cluster: read the PersistentVolumeClaims and ConfigMaps of this namespace (and kube-system) "
                      "only, not those of every namespace; jobs in other namespaces are then not checked for missing "
                      "ones (AC908, AC909), and a job that names no namespace is checked in this one (where kubectl "
                      "apply -n puts it; default: the context's namespace). The manifests' namespaces stay as they "
                      "are.")
#: what ``--fail-on`` means on every command that takes it
_FAIL_ON = "Lowest severity of a finding that makes the exit code 1 (default: lint.failOn in the config, else error)."


class Option(NamedTuple):
    """One option: ``flags`` its spellings (a :data:`SWITCH`: the on spelling, then the off one), ``param`` the
    parameter it sets, ``takes`` a kind above or the tuple of allowed values.  ``helps`` gives a command its own
    help where the option means more there; ``fast`` is whether the fast path reads it (a command line with one
    it does not read is left to click)."""

    flags: Tuple[str, ...]
    param: str
    takes: Any
    commands: Tuple[str, ...]
    help: str
    default: Any = None
    metavar: Optional[str] = None
    show_default: bool = False
    hidden: bool = False
    fast: bool = True
    helps: Tuple[Tuple[str, str], ...] = ()

    def help_for(self, command: str) -> str:
        return dict(self.helps).get(command, self.help)


OPTIONS: Tuple[Option, ...] = (
    Option(("-o", "--output-dir"), "output_dir", DIR, ("compile",),
           "Write one file per job (<name>.yaml) into this directory instead of stdout."),
    Option(("--check",), "check", FLAG, ("compile",),
           "Write nothing; exit 1 and print a diff if the files in --output-dir are not what compile would write, "
           "or if it holds a generated file no spec produces any more (an orphan). With --format json: one JSON "
           "document (upToDate, stale, missing, orphans, diff).", default=False),
    Option(("--set",), "overrides", MANY, ("compile",),
           "Set a field of every spec before compiling (repeatable), e.g. spec.image=repo/train:2.1; VALUE is read "
           "as YAML (quote it for a string: 'spec.env.V=\"1.0\"'). Checked like the spec.", default=(),
           metavar="PATH=VALUE"),
    Option(("--fail-on",), "fail_on", SEVERITIES, ("lint", "validate", "compile", "krm"), _FAIL_ON,
           helps=(("compile", f"{_FAIL_ON} Such a finding in the compiled output refuses its spec: nothing is "
                              "written."),
                  ("krm", f"{_FAIL_ON} kustomize and kpt stop on a non-zero exit status."))),
    Option(("--disable",), "disable", MANY, ("lint", "validate"),
           "Do not run this rule (ID or name; repeatable, or comma-separated). Input, config, output and spec errors, "
           "and AC014 (a file NOT CHECKED), cannot be disabled.", default=(), metavar="ID",
           helps=(("validate", "Do not report this rule (ID or name, e.g. AC009; repeatable, or comma-separated). "
                               "Input errors (AC001-AC006) and AC014 (a file NOT CHECKED) cannot be "
                               "disabled."),)),
    Option(("--strict", "--no-strict"), "strict", SWITCH, ("lint", "validate"),
           "Report fields the schemas do not define (typos) as errors.", default=True, show_default=True),
    Option(("--strict-kinds",), "strict_kinds", FLAG, ("lint", "validate"),
           "Treat an apiVersion/kind without a built-in schema as an error, not a warning.", default=False),
    Option(("--volcano-version",), "volcano_version", TEXT, ("lint", "validate"),
           "The cluster's Volcano release (1.9 or 1.15; default: the cluster's with --cluster or --cluster-snapshot "
           "when it is one of them, else the newest): the schemas Volcano objects are checked against, and whether "
           "the policy action Ignore works there (AC408).", metavar="X.Y",
           helps=(("validate", "Volcano release whose Job/PodGroup/Queue schemas to use (default 1.15)."),)),
    Option(("--include",), "include", MANY, ("lint", "validate"),
           "In directories, read files matching this glob (repeatable; default *.yaml, *.yml).", default=(),
           metavar="GLOB"),
    Option(("--exclude",), "exclude", MANY, ("lint", "validate"),
           "In directories, skip files and directories matching this glob: a name, or a path from the directory "
           "walked or from here (repeatable).", default=(), metavar="GLOB"),
    Option(("-q", "--quiet"), "quiet", FLAG, ("lint", "validate"),
           "Text format: print findings only, no summary line.", default=False),
    Option(("--no-cache",), "no_cache", FLAG, ("lint",),
           "Do not read or write the result cache (files whose text did not change are not checked again; it lives "
           "in $ASCEND_COMPILE_CACHE_DIR or ~/.cache/ascend-compile and is safe to delete), nor the start-up cache. "
           "The default in CI ($CI set, as CI services set it).", default=False),
    Option(("--cache",), "cache", FLAG, ("lint",),
           "Use the caches in CI too, where they are off by default: another pipeline running as the same user could "
           "have written an entry that reports a changed file clean. Give the cache a key per branch (docs/ci.md).",
           default=False),
    Option(("--write-baseline",), "write_baseline", FILE, ("lint",),
           "Record the current findings in FILE (JSON) and exit 0: adopt lint on a legacy repository.",
           metavar="FILE", fast=False),
    Option(("--baseline",), "baseline", FILE, ("lint",),
           "Report only findings FILE does not record (matched by rule, file, object and field path, not line), and "
           "say how many were baselined and how many entries are stale.", metavar="FILE", fast=False),
    Option(("--fix",), "fix", FLAG, ("lint",),
           "Fix what can be fixed mechanically and safely, in place, changing only the fixed places (env values "
           "quoted as strings, NPU limits equal to requests, the leader's rendezvous port, ASCEND_VISIBLE_DEVICES "
           "wiring, a Volcano Job's ring-controller label); then report what is left.", default=False, fast=False),
    Option(("--diff",), "show_diff", FLAG, ("lint",),
           "Print the changes --fix would make, as a diff; change nothing (also with --fix).", default=False,
           fast=False),
    Option(("--no-lint",), "no_lint", FLAG, ("compile",),
           "Do not lint the compiled output (by default its warnings are printed to stderr, and an error refuses "
           "the spec as a compile error would).", default=False),
    Option(("--cluster-snapshot",), "cluster_snapshot", TEXT, ("lint", "compile", "apply", _WEBHOOK),
           "Also check the jobs against this cluster snapshot (ascend-compile cluster snapshot): queues, nodes, "
           "NPUs, claims, ConfigMaps and topology (rules AC901-AC911).", metavar="FILE",
           helps=(("compile", "Also check the compiled output against this cluster snapshot (ascend-compile "
                              "cluster snapshot): a job the cluster would refuse or never schedule (rules "
                              "AC901-AC911) is refused."),
                  (_WEBHOOK, "Judge against this cluster snapshot, fixed, instead of watching the cluster (tests, "
                             "benchmarks)."))),
    Option(("--mindcluster",), "mindcluster", TEXT, ("lint", "compile", "apply", _WEBHOOK),
           "The MindCluster release the cluster runs (v6.0.0, v7.0.RC1, v7.3.2, v26.0.1 or v26.1.0): what the jobs "
           "are judged for (default: cluster.mindcluster in the config, else the version --cluster or "
           "--cluster-snapshot records, else the newest; --show-config says which and why).", metavar="VERSION"),
    Option(("--device-stack",), "device_stack", TEXT, ("lint", "compile", "apply", _WEBHOOK),
           "What gives the pods their NPUs (mindcluster: MindCluster's device plugin; hami: HAMi; volcano-vnpu:hami or "
           "volcano-vnpu:mindcluster: Volcano's deviceshare in that mode): what the NPU requests are judged for "
           "(default: cluster.deviceStack in the config, else hami when the --cluster or --cluster-snapshot nodes offer "
           "HAMi's resources, else mindcluster; --show-config says which and why).", metavar="STACK"),
    Option(("--volcano-webhook", "--no-volcano-webhook"), "volcano_webhook", SWITCH,
           ("lint", "compile", "apply", _WEBHOOK),
           "Whether Volcano's admission webhook is installed on the cluster (Volcano's own install has it, "
           "MindCluster's has none; default: cluster.volcanoWebhook in the config, else not said): some refusals "
           "exist only with it.", default=None),
    Option(("--cluster",), "cluster", FLAG, ("lint", "compile", "apply"),
           "Also check the jobs against the live cluster (read through kubectl with --kubeconfig, --context, -n, "
           "...), as --cluster-snapshot does against a file.", default=False, fast=False,
           helps=(("compile", "Also check the compiled output against the live cluster (read through kubectl with "
                              "--kubeconfig, --context, -n, ...), as --cluster-snapshot does against a file."),)),
    Option(("--kubectl",), "kubectl_path", TEXT, _KUBECTL,
           "kubectl to run (default: $ASCEND_COMPILE_KUBECTL, else kubectl on PATH).", metavar="PATH", fast=False),
    Option(("--kubeconfig",), "kubeconfig", TEXT, (*_KUBECTL, _WEBHOOK),
           "kubeconfig file (default: $KUBECONFIG, else ~/.kube/config).", metavar="FILE", fast=False,
           helps=((_WEBHOOK, "kubeconfig file of the cluster to watch (default: in a pod, its service account; "
                             "else $KUBECONFIG, else ~/.kube/config)."),)),
    Option(("--context",), "context", TEXT, (*_KUBECTL, _WEBHOOK),
           "kubeconfig context to use (default: the current context).", metavar="NAME", fast=False),
    Option(("-n", "--namespace"), "namespace", TEXT, _KUBECTL,
           "Namespace for jobs whose spec names none (default: the context's namespace). A spec's own namespace "
           "must agree with it.", metavar="NS", fast=False,
           helps=(("lint", _CLUSTER_NAMESPACE), ("compile", _CLUSTER_NAMESPACE),
                  ("cluster snapshot", "Read the PersistentVolumeClaims and ConfigMaps of this namespace and of "
                                       "kube-system only (default: those of every namespace), and record it as where "
                                       "a job that names no namespace lands (default: the context's namespace); "
                                       "nodes, queues and versions are the cluster's either way."))),
    Option(("--request-timeout",), "request_timeout", TEXT, _KUBECTL,
           "How long kubectl waits for one server request, e.g. 1m; 0: no limit (default: 30s; delete --wait: no "
           "limit).", metavar="DURATION", fast=False),
    Option(("--kubectl-timeout",), "kubectl_timeout", TEXT, _KUBECTL,
           "Stop a kubectl run (and what it started) that takes longer than this.", default="5m",
           metavar="DURATION", show_default=True, fast=False),
    Option(("--config",), "config_path", FILE, (*_INPUT, "validate", "krm", _WEBHOOK),
           "Project config file (default: .ascend-compile.yaml found upward from here to the repository root).",
           fast=False,
           helps=(("validate", "Project config whose lint.disable applies (default: .ascend-compile.yaml found from "
                               "here up to the repository root)."),)),
    Option(("--no-config",), "no_config", FLAG, (*_INPUT, "validate", "krm", _WEBHOOK),
           "Ignore any project config file.",
           default=False),
    Option(("--profile-dir",), "profile_dirs", DIR, (*_INPUT, "krm", _WEBHOOK),
           "Extra directory of hardware profiles (repeatable; later ones win).", default=(), fast=False),
    Option(("--max-bytes",), "max_bytes", INT, (*_INPUT, "validate", "krm"), "Refuse input files larger than this.",
           default=DEFAULT_MAX_BYTES, show_default=True),
    Option(("--format",), "fmt", FORMATS, (*_FINDINGS, "validate"), "How to report problems.", default="text",
           show_default=True),
    Option(("--color",), "color", COLOR_CHOICES, (*_FINDINGS, "validate"),
           "Colour in the text format: auto (when stdout is a terminal; NO_COLOR turns it off, FORCE_COLOR on), "
           "always or never (this flag wins over both variables).", default="auto", show_default=True),
    Option(("--format",), "fmt", ("text", "json"), ("status",), "How to report the jobs (and problems).",
           default="text", show_default=True),
    Option(("-f",), "fmt_alias", FORMATS, ("validate",), "The old spelling of --format.", hidden=True),
    Option(("-v", "--verbose"), "verbose", FLAG, _INPUT,
           "Say on stderr which project config and profile directories are used.", default=False, fast=False),
    Option(("--show-config",), "show_config", FLAG, _INPUT,
           "Print the project config and profile directories this command would use, and exit.", default=False,
           fast=False),
)


def options_of(command: str) -> Tuple[Option, ...]:
    """The options ``command`` takes, in ``--help``'s order."""
    return tuple(option for option in OPTIONS if command in option.commands)


def defaults(command: str) -> Dict[str, Any]:
    """``command``'s parameters before its command line is read: each option's default."""
    return {option.param: option.default for option in OPTIONS if command in option.commands}
