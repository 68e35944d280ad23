"""Developer helper (not a test): fill ``@column`` into ``# expect: ID`` markers from an actual lint run.

    python tests/lint/fill_columns.py tests/lint/cases/AC2*.yaml

Review the diff before committing: the test compares the markers with lint output.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts"))
from _checkout import use_checkout  # noqa: E402

use_checkout()

from ascend_compile.lint.paths import lint_paths  # noqa: E402

MARK = re.compile(r"# expect: (.*)$")


def main(paths):
    for path in paths:
        findings, _ = lint_paths([path])
        actual = {}
        for f in findings:
            actual.setdefault(f.line, []).append((f.rule, f.column))
        lines = open(path).read().split("\n")
        for number, line in enumerate(lines, start=1):
            match = MARK.search(line)
            if not match:
                if number in actual:
                    print(f"{path}:{number}: unexpected {actual[number]}")
                continue
            got = list(actual.get(number, []))
            out = []
            for token in match.group(1).split():
                rule = token.split("@")[0]
                hit = next((g for g in got if g[0] == rule), None)
                if hit is None:
                    print(f"{path}:{number}: expected {rule} not found")
                    out.append(token)
                    continue
                got.remove(hit)
                out.append(f"{rule}@{hit[1]}")
            if got:
                print(f"{path}:{number}: unexpected {got}")
            lines[number - 1] = line[:match.start()] + "# expect: " + " ".join(out)
        open(path, "w").write("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1:])
