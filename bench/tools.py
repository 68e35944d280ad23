"""The programs the benchmark runs: this checkout as users run it, and the peer tools.

**ascend-compile.** A user runs an installed console script: a venv whose site-packages hold the
package, PyYAML and click, with bytecode compiled, and no ``.pth`` start-up hooks of a development
environment.  ``bench/.toolenv/`` is such a venv, made offline in a second: PyYAML and click are
linked from the Python running the benchmark, ``ascend_compile`` from this checkout, the console
script written as pip writes it, and the checkout compiled to bytecode before every run.  The
floors (``python -c pass``, parse-only) run with the same interpreter.

**kubeconform** v0.8.0 is built from Go modules into ``${XDG_CACHE_HOME:-~/.cache}/ascend-compile/bin``
the first time (``go install``; the only thing fetched, and never while timing), and checks with
schemas converted from the same CRDs (``bench/kubeconform_schemas.py``).  Without Go its rows are
skipped with a note.  **check-jsonschema** runs from ``bench/.venv`` when it is installed there.
"""
from __future__ import annotations

import compileall
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import List, Optional, Tuple

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
KUBECONFORM_VERSION = "v0.8.0"
KUBECONFORM_MODULE = "github.com/yannh/kubeconform/cmd/kubeconform"
CONSOLE_SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from ascend_compile.cli import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""


def cache_root() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ascend-compile"


def tool_env(checkout: Path = ROOT) -> Tuple[str, List[str]]:
    """(the venv's python, the ascend-compile command), the venv made or refreshed: ``<checkout>/bench/.toolenv``,
    running the ``compiler/`` of ``checkout`` (this one unless ``run.py --checkout`` names another)."""
    toolenv = checkout / "bench" / ".toolenv"
    python = toolenv / "bin" / "python"
    if not python.exists():
        venv.EnvBuilder(with_pip=False, symlinks=True).create(toolenv)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # Found by a child: importing them here would add to every command's peak RSS (a forked child's
    # figure counts what it shares with this process).
    found = subprocess.run([sys.executable, "-c", "import click, yaml; print(yaml.__file__); print(click.__file__)"],
                           capture_output=True, text=True, check=True).stdout.split("\n")
    links = {"yaml": Path(found[0]).parent, "click": Path(found[1]).parent, "ascend_compile": checkout / "compiler"}
    extension = Path(found[0]).parent.parent / "_yaml"
    if extension.is_dir():
        links["_yaml"] = extension
    for name, target in links.items():
        link = site / name
        if not (link.is_symlink() and Path(os.readlink(link)) == target):
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(target, target_is_directory=True)
    script = toolenv / "bin" / "ascend-compile"
    script.write_text(CONSOLE_SCRIPT.format(python=python))
    script.chmod(0o755)
    for target in links.values():  # what pip does at install: nothing is compiled while timing
        compileall.compile_dir(str(target), quiet=1, force=False)
    return str(python), [str(script)]


def kubeconform(log) -> Tuple[Optional[str], str]:
    """(the kubeconform binary or None, a note): built from Go modules on first use."""
    binary = cache_root() / "bin" / "kubeconform"
    stamp = binary.with_name("kubeconform.version")
    if binary.exists() and stamp.exists() and stamp.read_text().strip() == KUBECONFORM_VERSION:
        return str(binary), ""
    go = shutil.which("go")
    if go is None:
        return None, "kubeconform rows skipped: Go is not installed (the benchmark builds kubeconform " \
                     f"{KUBECONFORM_VERSION} from Go modules with 'go install')"
    log(f"building kubeconform {KUBECONFORM_VERSION} with {go} ...")
    env = dict(os.environ, GOBIN=str(binary.parent), GOFLAGS="-mod=mod",
               GOMODCACHE=str(cache_root() / "go-mod"), GOCACHE=str(cache_root() / "go-build"))
    proc = subprocess.run([go, "install", f"{KUBECONFORM_MODULE}@{KUBECONFORM_VERSION}"], env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0 or not binary.exists():
        return None, f"kubeconform rows skipped: 'go install' failed: {proc.stderr.strip()[-300:]}"
    stamp.write_text(KUBECONFORM_VERSION + "\n")
    return str(binary), ""


def kubeconform_schemas(out: Path) -> str:
    """Convert the CRDs for kubeconform (once per corpus); return the -schema-location template."""
    if not (out / "job-batch-v1alpha1.json").exists():
        sys.path.insert(0, str(BENCH))
        from kubeconform_schemas import write

        write(out)
    return str(out / "{{ .ResourceKind }}{{ .KindSuffix }}.json")


def check_jsonschema() -> Optional[str]:
    for candidate in (BENCH / ".venv" / "bin" / "check-jsonschema", BENCH / ".venv" / "Scripts" / "check-jsonschema.exe"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("check-jsonschema")
