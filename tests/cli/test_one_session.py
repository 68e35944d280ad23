"""One session for every command (issue 46): the same specs and manifests, given to every entry that reads them,
get the same findings and the same accept/refuse decision.

Four inputs, each a job spec in a folder of its own (a repository root) and, where it compiles, the manifest it
compiles to (``compile --no-lint``):

- clean: nothing to say;
- a spec error (12 NPUs on 8-NPU servers, AC304): no manifest;
- a finding that needs the cluster (a queue the snapshot does not have, AC901): only for the entries that take a
  cluster (every entry that takes one is given ``--cluster-snapshot``, for every input);
- a warning (a literal credential, AC801) under ``lint: {failOn: warning}`` in the folder's project config.

The entries: ``compile`` (stdout, ``-o``, ``--check``), ``lint`` of the spec and of the manifest, ``krm`` (generator
and ``--lint`` validator), ``import`` of the manifest, ``apply``, ``diff``, ``status`` and ``why`` of the spec (against
a fake kubectl: accepted means the command went on to the cluster), and the Python API (``compile_files``,
``lint_manifests``).  Each entry's findings are the rule IDs of its errors and warnings; its decision is whether it
accepted the job.  ``compile`` to stdout is the reference, and the reference is checked against what each input
is about.  ``validate`` checks schemas only (none of the four has a schema problem): it reads the session's config
all the same, which tests/cli/test_flag_vocabulary.py checks.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.cli.test_cluster_compile import SPEC  # a job that needs a queue (QUEUE), a claim and 16 NPUs
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

SNAPSHOT = ROOT / "tests" / "lint" / "clusters" / "small.yaml"
#: input -> (spec, project config, whether only the cluster can tell, the findings it is about)
INPUTS: Dict[str, Tuple[str, str, bool, FrozenSet[str]]] = {
    "clean": (SPEC.replace("QUEUE", "default"), "", False, frozenset()),
    "spec error": (SPEC.replace("npus: 16", "npus: 12").replace("QUEUE", "default"), "", False, frozenset({"AC304"})),
    "needs the cluster": (SPEC.replace("QUEUE", "research"), "", True, frozenset({"AC901"})),
    "warning under failOn": (SPEC.replace("QUEUE", "default")
                             + "  env: {DB_PASSWORD: hunter2}\n", "lint:\n  failOn: warning\n", False,
                             frozenset({"AC801"})),
}
#: the findings a text report names: "<where>: error|warning: <message> [ACnnn]"
_REPORTED = re.compile(r"\b(?:error|warning): .*\[(AC\d{3})\]$", re.M)

Outcome = Tuple[bool, FrozenSet[str]]


def _ids(*texts: str) -> FrozenSet[str]:
    return frozenset(match for text in texts for match in _REPORTED.findall(text))


@functools.lru_cache(maxsize=None)
def _folder(name: str, base: str) -> Path:
    """The input's folder (below ``base``): a repository root with its spec, its config and its manifest."""
    spec, config, _snapshot, _about = INPUTS[name]
    folder = Path(base) / name.replace(" ", "-")
    folder.mkdir(parents=True)
    (folder / ".ascend-compile-root").write_text("", encoding="utf-8")
    if config:
        (folder / ".ascend-compile.yaml").write_text(config, encoding="utf-8")
    (folder / "spec.yaml").write_text(spec, encoding="utf-8")
    compiled = run_cli("compile", "--no-lint", "spec.yaml", cwd=folder)
    if compiled.returncode == 0:
        (folder / "manifest.yaml").write_text(compiled.stdout, encoding="utf-8")
    return folder


class Run:
    """One input given to entries, in its folder."""

    def __init__(self, name: str, base: Path, kubectl: Optional[Fake] = None):
        self.name, self.folder, self.kubectl = name, _folder(name, str(base)), kubectl
        #: the flags of an entry that takes a cluster
        self.cluster = ["--cluster-snapshot", str(SNAPSHOT)]

    def cli(self, *args: str, input: Optional[str] = None) -> Any:
        env = self.kubectl.env() if self.kubectl is not None else None
        return run_cli(*args, cwd=self.folder, input=input, env=env)

    def config(self) -> Optional[str]:
        path = self.folder / ".ascend-compile.yaml"
        return str(path) if path.exists() else None

    def kubectl_calls(self, verb: str) -> List[Any]:
        assert self.kubectl is not None
        return [call for call in self.kubectl.calls() if call["argv"][0] == verb]


def _compile(run: Run) -> Outcome:
    proc = run.cli("compile", "spec.yaml", *run.cluster)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode == 0 and "kind: AscendJob" in proc.stdout, _ids(proc.stderr)


@functools.lru_cache(maxsize=None)
def _reference(name: str, base: str) -> Outcome:
    """``compile`` to stdout of the input: the reference every entry is held to, run once per input (not again for
    each of the input's entries: its output is a function of the folder's spec, config and the snapshot, which no
    entry changes)."""
    return _compile(Run(name, Path(base)))


def _compile_out(run: Run) -> Outcome:
    proc = run.cli("compile", "spec.yaml", *run.cluster, "-o", "out")
    written = (run.folder / "out" / "train.yaml").exists()
    assert proc.returncode in (0, 1) and written == (proc.returncode == 0), proc.stderr  # all or nothing
    return written, _ids(proc.stderr)


def _compile_check(run: Run) -> Outcome:
    run.cli("compile", "spec.yaml", *run.cluster, "-o", "checked")  # what --check compares against
    proc = run.cli("compile", "spec.yaml", *run.cluster, "-o", "checked", "--check")
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode == 0, _ids(proc.stderr)


def _lint(path: str) -> Callable[[Run], Outcome]:
    def entry(run: Run) -> Outcome:
        proc = run.cli("lint", "--no-cache", path, *run.cluster)
        assert proc.returncode in (0, 1), proc.stderr
        return proc.returncode == 0, _ids(proc.stdout)

    return entry


def _resource_list(run: Run, file: str) -> str:
    items = [doc for doc in yaml.safe_load_all((run.folder / file).read_text(encoding="utf-8")) if doc]
    return yaml.safe_dump({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items})


def _krm(run: Run) -> Outcome:
    proc = run.cli("krm", input=_resource_list(run, "spec.yaml"))
    assert proc.returncode in (0, 1), proc.stderr
    out = yaml.safe_load(proc.stdout)
    generated = any(item.get("kind") == "AscendJob" for item in out["items"])
    assert generated == (proc.returncode == 0), proc.stdout  # a refused spec stays a spec: no AscendJob
    return generated, _ids(proc.stderr)


def _krm_lint(run: Run) -> Outcome:
    proc = run.cli("krm", "--lint", input=_resource_list(run, "manifest.yaml"))
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode == 0, _ids(proc.stderr)


def _import(run: Run) -> Outcome:
    proc = run.cli("import", "manifest.yaml")
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode == 0 and "kind: TrainingJob" in proc.stdout, _ids(proc.stderr)


def _on_the_cluster(command: str, verb: str) -> Callable[[Run], Outcome]:
    """A cluster command given the spec: accepted when it went on to send or read the job."""

    def entry(run: Run) -> Outcome:
        flags = run.cluster if command == "apply" else []
        proc = run.cli(command, "spec.yaml", *flags)
        acted = bool(run.kubectl_calls(verb))
        assert acted or proc.returncode in (1, 2), proc.stderr  # refused: diff says 2, as kubectl diff does
        return acted, _ids(proc.stderr)

    return entry


def _api_compile(run: Run) -> Outcome:
    from ascend_compile import compile_files
    from ascend_compile.errors import CompileError

    try:
        jobs = compile_files(str(run.folder / "spec.yaml"), config=run.config(), cluster_snapshot=SNAPSHOT)
    except CompileError as exc:
        return False, frozenset(f.rule for f in exc.findings if f.severity in ("error", "warning"))
    return True, frozenset(f.rule for job in jobs for f in job.warnings)


def _api_lint(run: Run) -> Outcome:
    from ascend_compile import lint_manifests
    from ascend_compile.config import load_config
    from ascend_compile.findings import exit_code

    config = run.config()  # the API takes the team's config when it is given; the caller applies its failOn
    findings = lint_manifests(str(run.folder / "spec.yaml"), config=config, cluster_snapshot=SNAPSHOT)
    shown = frozenset(f.rule for f in findings if f.severity in ("error", "warning"))
    return exit_code(findings, (load_config(config).lint.fail_on if config else None) or "error") == 0, shown


#: entry -> (what it runs, whether it reads the manifest (else the spec), whether it takes a cluster, kubectl)
ENTRIES: Dict[str, Tuple[Callable[[Run], Outcome], bool, bool, bool]] = {
    "compile -o": (_compile_out, False, True, False),
    "compile --check": (_compile_check, False, True, False),
    "lint spec": (_lint("spec.yaml"), False, True, False),
    "lint manifest": (_lint("manifest.yaml"), True, True, False),
    "krm": (_krm, False, False, False),
    "krm --lint": (_krm_lint, True, False, False),
    "import": (_import, True, False, False),
    "apply": (_on_the_cluster("apply", "apply"), False, True, True),
    "diff": (_on_the_cluster("diff", "diff"), False, False, True),
    "status": (_on_the_cluster("status", "get"), False, False, True),
    "why": (_on_the_cluster("why", "get"), False, False, True),
    "api compile_files": (_api_compile, False, True, False),
    "api lint_manifests": (_api_lint, False, True, False),
}


def _pairs() -> List[Any]:
    """Every input with every entry that reads what it has (a manifest only where the spec compiles) and takes
    what it is given (the cluster snapshot)."""
    out = []
    for name, (_spec, _config, needs_cluster, about) in INPUTS.items():
        has_manifest = name != "spec error"
        for entry, (_run, manifest, cluster, _kubectl) in ENTRIES.items():
            if (manifest and not has_manifest) or (needs_cluster and not cluster):
                continue
            out.append(pytest.param(name, entry, id=f"{name}: {entry}"))
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("one-session")


@pytest.mark.parametrize("name", list(INPUTS))
def test_compile_is_the_reference_and_says_what_each_input_is_about(name: str, base: Path) -> None:
    accepted, found = _reference(name, str(base))
    about = INPUTS[name][3]
    assert found == about
    assert accepted == (not about)


@pytest.mark.parametrize("name, entry", _pairs())
def test_every_entry_finds_and_decides_as_compile_does(name: str, entry: str, base: Path, tmp_path: Path,
                                                       fake: Fake) -> None:  # noqa: F811
    run_entry, _manifest, _cluster, kubectl = ENTRIES[entry]
    expected = _reference(name, str(base))
    assert run_entry(Run(name, base, fake if kubectl else None)) == expected


def test_why_lints_the_stored_job_with_the_teams_config(fake: Fake, tmp_path: Path) -> None:  # noqa: F811
    """``why`` names the rule that predicts a cause by the team's lint settings (its session), not the defaults."""
    from tests.cli.test_lifecycle_cli import RECORDING, _serve

    _serve(fake, RECORDING["job"])

    def rules() -> List[str]:
        proc = run_cli("why", "big", "-n", "matrix", "--format", "json", cwd=tmp_path, env=fake.env())
        assert proc.returncode == 0, proc.stderr
        found: List[str] = json.loads(proc.stdout)["cause"]["rules"]
        return found

    assert "AC216" in rules()
    (tmp_path / ".ascend-compile-root").write_text("", encoding="utf-8")
    (tmp_path / ".ascend-compile.yaml").write_text("lint:\n  disable: [AC216]\n", encoding="utf-8")
    assert "AC216" not in rules()
