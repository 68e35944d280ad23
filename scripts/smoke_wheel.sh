#!/usr/bin/env bash
# Build the wheel, install it (not editable) into a fresh venv, and run the installed
# ascend-compile from a directory outside the repo on the examples and on its own output.
#
# What it proves: the wheel carries every module of compiler/, the built-in schemas
# (ascend_compile/_schemas) and profiles (ascend_compile/_profiles), and the console script works
# without the source tree on sys.path.
#
# Usage: bash scripts/smoke_wheel.sh            (PYTHON=python3.11 to pick the interpreter)
#        KEEP_SMOKE_DIR=1 bash scripts/smoke_wheel.sh   keeps the temp dir for a post-mortem
# Needs: network access to PyPI (build backend, PyYAML, click) or a warm pip cache.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/ascend-compile-smoke.XXXXXX")"
if [[ -z "${KEEP_SMOKE_DIR:-}" ]]; then
  trap 'rm -rf "$TMP"' EXIT
else
  echo "smoke: keeping $TMP"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH

step() { printf '== smoke: %s\n' "$*"; }
fail() { printf 'smoke: FAIL: %s\n' "$*" >&2; exit 1; }

# 1. A copy of the source tree: building in the checkout would leave build/ and *.egg-info
#    behind, and a stale build/lib can smuggle deleted files into the wheel.
step "copy the source tree"
mkdir -p "$TMP/src"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # tracked files plus new files not yet committed (not the ignored ones)
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
     | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
     | tar --null -T - -cf -) | tar -C "$TMP/src" -xf -
else
  (cd "$ROOT" && tar --exclude=.git --exclude=build --exclude=dist --exclude='*.egg-info' \
     --exclude=__pycache__ --exclude=.venv -cf - .) | tar -C "$TMP/src" -xf -
fi

# 2. The wheel (pip's default build isolation: setuptools comes from PyPI as pyproject.toml says).
step "build the wheel"
"$PYTHON" -m pip wheel -q --no-deps -w "$TMP/dist" "$TMP/src"
WHEEL="$(ls "$TMP"/dist/ascend_compile-*.whl)"
echo "smoke: built $(basename "$WHEEL")"

# 3. The wheel holds every module and every data file of the source tree.
step "check the wheel's contents"
"$PYTHON" - "$WHEEL" "$TMP/src" <<'EOF'
import os, sys, zipfile

wheel, src = sys.argv[1], sys.argv[2]
names = set(zipfile.ZipFile(wheel).namelist())
missing = []

def expect(path):
    if path not in names:
        missing.append(path)

for root, dirs, files in os.walk(os.path.join(src, "compiler")):
    dirs[:] = [d for d in dirs if d != "__pycache__"]
    for name in files:
        if name.endswith(".py") or name == "py.typed":
            rel = os.path.relpath(os.path.join(root, name), os.path.join(src, "compiler"))
            expect("ascend_compile/" + rel.replace(os.sep, "/"))
for name in os.listdir(os.path.join(src, "schemas")):
    if name.endswith(".json"):
        expect("ascend_compile/_schemas/" + name)
for name in os.listdir(os.path.join(src, "profiles")):
    if name.endswith((".yaml", ".yml")):
        expect("ascend_compile/_profiles/" + name)
entry_points = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
if not entry_points:
    missing.append("*.dist-info/entry_points.txt")
else:
    text = zipfile.ZipFile(wheel).read(entry_points[0]).decode()
    for script in ("ascend-compile = ascend_compile.cli:main", "ascend-compile-krm = ascend_compile.cli:krm_main"):
        if script not in text:
            missing.append(f"console script {script}")
stray = sorted(n for n in names if n.startswith(("compiler/", "tests/", "schemas/", "profiles/", "scripts/", "examples/")))
if missing or stray:
    for path in missing:
        print(f"smoke: missing from the wheel: {path}", file=sys.stderr)
    for path in stray:
        print(f"smoke: unexpected top-level file in the wheel: {path}", file=sys.stderr)
    sys.exit(1)
print(f"smoke: wheel has {len(names)} files, all modules, schemas and profiles present")
EOF

# 4. A fresh venv with only the wheel and its declared dependencies.
step "install the wheel into a fresh venv"
"$PYTHON" -m venv "$TMP/venv"
VENV_BIN="$TMP/venv/bin"
"$VENV_BIN/python" -m pip install -q "$WHEEL"
AC="$VENV_BIN/ascend-compile"
[[ -x "$AC" ]] || fail "the console script ascend-compile was not installed"

# 5. Run it from elsewhere: nothing may come from the checkout.
WORK="$TMP/work"
mkdir -p "$WORK"
cd "$WORK"

step "data files resolve inside the installed package"
"$VENV_BIN/python" - <<'EOF'
import os, sys
import ascend_compile
from ascend_compile.resources import profiles_dir, schemas_dir

pkg = os.path.dirname(ascend_compile.__file__)
if "site-packages" not in pkg:
    sys.exit(f"smoke: ascend_compile was imported from {pkg}, not from the venv")
for found, expected in ((schemas_dir(), "_schemas"), (profiles_dir(), "_profiles")):
    if found != os.path.join(pkg, expected):
        sys.exit(f"smoke: data dir resolved to {found}, expected {os.path.join(pkg, expected)}")
    if not os.listdir(found):
        sys.exit(f"smoke: {found} is empty")
from ascend_compile.hardware.profiles import ProfileRegistry
names = ProfileRegistry().names()
assert "module-910b-8" in names, names
print(f"smoke: schemas and profiles found in {pkg} ({len(names)} profiles)")
EOF

"$AC" --version
"$VENV_BIN/python" -m ascend_compile --version

has_command() {  # the command's module is in the installed package
  "$VENV_BIN/python" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('ascend_compile.cli.$1') is None)"
}

step "compile the examples"
"$AC" compile "$ROOT"/examples/*.yaml > "$WORK/all.yaml"
[[ -s "$WORK/all.yaml" ]] || fail "compile printed nothing"
"$AC" compile "$ROOT"/examples/*.yaml -o "$WORK/manifests"
"$AC" compile "$ROOT"/examples/*.yaml -o "$WORK/manifests" --check
n_examples=$(ls "$ROOT"/examples/*.yaml | wc -l)
n_out=$(ls "$WORK"/manifests/*.yaml | wc -l)
[[ "$n_examples" -eq "$n_out" ]] || fail "$n_examples examples but $n_out output files"

if has_command validate; then
  step "validate the compiled manifests"
  "$AC" validate "$WORK/manifests"
  "$AC" validate - < "$WORK/all.yaml"
fi
if has_command lint; then
  step "lint the compiled manifests"
  "$AC" lint "$WORK/manifests"
fi
if has_command profiles; then
  step "profiles"
  "$AC" profiles > /dev/null
  "$AC" profiles show module-910b-8 > /dev/null
fi
if has_command init; then
  step "init, then compile what it wrote"
  "$AC" init "$WORK/starter.yaml" --name smoke-job --framework pytorch --profile module-910b-8 \
      --npus 8 --image pytorch-train:2.1 < /dev/null
  "$AC" compile "$WORK/starter.yaml" > /dev/null
fi
if has_command krm; then
  step "krm: a ResourceList through the KRM function"
  "$VENV_BIN/python" - "$ROOT/examples/pytorch-module-910b-8.yaml" > "$WORK/rl.yaml" <<'EOF'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
yaml.safe_dump({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [spec]}, sys.stdout)
EOF
  "$AC" krm < "$WORK/rl.yaml" > "$WORK/rl-out.yaml"
  grep -q 'kind: AscendJob' "$WORK/rl-out.yaml" || fail "krm did not emit the AscendJob"
  "$VENV_BIN/ascend-compile-krm" < "$WORK/rl.yaml" | cmp -s - "$WORK/rl-out.yaml" \
    || fail "ascend-compile-krm is not ascend-compile krm"
fi

step "OK"
