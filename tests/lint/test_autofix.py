"""``lint --fix`` / ``--diff`` and SARIF ``fixes`` on a synthetic legacy repository (72 manifests made here):
after --fix only the findings that cannot be fixed mechanically are left, and every file is byte-identical
to what it was except for the fixed values (comments, CRLF line ends, flow style and key order kept).

The defects put into the goldens, each with what --fix must make of it: env values the API wants as strings
(AC102), an NPU request without its limit, in block and in flow style (AC701), a leader's ports without
``ascendjob-port`` (AC213), ASCEND_VISIBLE_DEVICES reading another resource's annotation (AC601), a Volcano
Job without its ``ring-controller.atlas`` label (AC215); and look-alikes no fix may touch (a list env value,
a limit that differs from its request, a port already on 2222 under another name: AC217, since the leader's
Service cannot take it beside the ascendjob-port the operator adds)."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pytest

from tests.checkout import ROOT, run_cli

MATRIX = sorted((ROOT / "golden" / "matrix").glob("*.yaml"))
ENV_ANCHOR = "            - name: XDL_IP\n"
#: (what is put into a file, what --fix turns it into); None: nothing to fix there
INJECTED: List[Tuple[str, str]] = [
    ("            - name: HCCL_CONNECT_TIMEOUT\n              value: 600   # seconds, from the old runbook\n",
     "            - name: HCCL_CONNECT_TIMEOUT\n              value: \"600\"   # seconds, from the old runbook\n"),
    ("            - {name: USE_CACHE, value: true}\n", "            - {name: USE_CACHE, value: \"true\"}\n"),
    ("            - name: MODEL_VERSION\n              value: 1.10\n",
     "            - name: MODEL_VERSION\n              value: \"1.10\"\n"),
]
NOT_FIXABLE = "            - name: SHAPE\n              value: [1, 2]\n"  # a list where a string goes: no safe fix
FIXED_RULES = ("AC102", "AC701", "AC213", "AC601", "AC215")
#: a resources block as the goldens write it: limits, then requests, of one NPU resource
NPU = re.compile(r"^( +)resources:\n( +)limits:\n( +)(huawei\.com/\S+): (\d+)\n\2requests:\n\3\4: \5\n", re.M)
PORT = re.compile(r"^( +)ports:\n( +)- containerPort: 2222\n( +)name: ascendjob-port\n", re.M)
ANNOTATION = re.compile(r"(fieldPath: metadata\.annotations\[')(huawei\.com/[^']+)('\])")
#: an injection: (text, fixed) -> (text, fixed) with one defect more, or None where it does not apply
Injection = Callable[[str, str], Optional[Tuple[str, str]]]


def _replace(pattern: "re.Pattern[str]", text: str, fixed: str, broken: Callable[["re.Match[str]"], str],
             repaired: Callable[["re.Match[str]"], str], last: bool = False) -> Optional[Tuple[str, str]]:
    """The first (or last) match of ``pattern``, in both texts, made ``broken`` / ``repaired``."""
    found = list(pattern.finditer(text))
    wanted = [m for m in pattern.finditer(fixed) if found and m.group(0) == found[-1 if last else 0].group(0)]
    if not found or not wanted:
        return None
    one, two = found[-1 if last else 0], wanted[-1 if last else 0]
    return (text[:one.start()] + broken(one) + text[one.end():],
            fixed[:two.start()] + repaired(two) + fixed[two.end():])


def limit_missing(text: str, fixed: str) -> Optional[Tuple[str, str]]:
    def requests(m: "re.Match[str]") -> str:
        return f"{m[1]}resources:\n{m[2]}requests:\n{m[3]}{m[4]}: {m[5]}  # per pod\n"
    return _replace(NPU, text, fixed, requests, lambda m: requests(m) + f"{m[2]}limits:\n{m[3]}{m[4]}: {m[5]}\n",
                    last=True)


def limit_missing_flow(text: str, fixed: str) -> Optional[Tuple[str, str]]:
    return _replace(NPU, text, fixed, lambda m: f"{m[1]}resources: {{requests: {{{m[4]}: {m[5]}}}}}\n",
                    lambda m: f"{m[1]}resources: {{requests: {{{m[4]}: {m[5]}}}, limits: {{{m[4]}: {m[5]}}}}}\n",
                    last=True)


def limit_differs(text: str, fixed: str) -> Optional[Tuple[str, str]]:
    def differing(m: "re.Match[str]") -> str:
        return f"{m[1]}resources:\n{m[2]}limits:\n{m[3]}{m[4]}: 1\n{m[2]}requests:\n{m[3]}{m[4]}: {m[5]}\n"
    return _replace(NPU, text, fixed, differing, differing, last=True)


def _leader_port(text: str, fixed: str, name: str, port: int, fixable: bool) -> Optional[Tuple[str, str]]:
    first = PORT.search(text)
    roles = re.findall(r"^    (Master|Scheduler|Chief|Worker):$", text[:first.start()] if first else "", re.M)
    if not roles or roles[-1] == "Worker":
        return None

    def renamed(m: "re.Match[str]") -> str:
        return f"{m[1]}ports:\n{m[2]}- containerPort: {port}   # rendezvous\n{m[3]}name: {name}\n"

    def added(m: "re.Match[str]") -> str:
        return renamed(m) + (f"{m[2]}- name: ascendjob-port\n{m[3]}containerPort: 2222\n" if fixable else "")
    return _replace(PORT, text, fixed, renamed, added)


def port_renamed(text: str, fixed: str) -> Optional[Tuple[str, str]]:
    return _leader_port(text, fixed, "master", 29500, True)


def port_renamed_on_2222(text: str, fixed: str) -> Optional[Tuple[str, str]]:
    return _leader_port(text, fixed, "rendezvous", 2222, False)


def wrong_annotation(text: str, fixed: str) -> Optional[Tuple[str, str]]:
    def other(m: "re.Match[str]") -> str:
        return m[1] + ("huawei.com/Ascend910" if m[2] == "huawei.com/npu" else "huawei.com/npu") + m[3]
    return _replace(ANNOTATION, text, fixed, other, lambda m: m[0], last=True)


def ring_label_missing(text: str, fixed: str) -> Optional[Tuple[str, str]]:
    job = re.compile(r"^kind: Job\n(?:.*\n)*?(    ring-controller\.atlas: \S+\n)", re.M)
    return _replace(job, text, fixed, lambda m: m[0][:-len(m[1])], lambda m: m[0])


#: injection and which files (by index) get it
INJECTIONS: List[Tuple[Injection, Callable[[int], bool]]] = [
    (limit_missing, lambda i: i % 3 == 1), (limit_missing_flow, lambda i: i % 6 == 2),
    (limit_differs, lambda i: i % 11 == 5), (port_renamed, lambda i: i % 2 == 1),
    (port_renamed_on_2222, lambda i: i % 9 == 4), (wrong_annotation, lambda i: i % 4 == 3),
    (ring_label_missing, lambda i: i % 3 == 0),
]


def lint(repo: Path, *args: str):
    return run_cli("lint", "manifests/", "--no-cache", *args, cwd=repo)


@pytest.fixture()
def repo(tmp_path: Path) -> Tuple[Path, Dict[str, bytes]]:
    """manifests/ and, per file, the bytes --fix must leave (fixable values fixed, all else as written)."""
    folder = tmp_path / "manifests"
    folder.mkdir()
    expected: Dict[str, bytes] = {}
    for i, golden in enumerate(MATRIX):
        text = golden.read_text(encoding="utf-8")
        fixed = text
        if ENV_ANCHOR in text and i % 2 == 0:
            before, after = INJECTED[i % 3]
            text, fixed = (text.replace(ENV_ANCHOR, before + ENV_ANCHOR, 1),
                           fixed.replace(ENV_ANCHOR, after + ENV_ANCHOR, 1))
        if ENV_ANCHOR in text and i % 5 == 0:
            text, fixed = (text.replace(ENV_ANCHOR, NOT_FIXABLE + ENV_ANCHOR, 1),
                           fixed.replace(ENV_ANCHOR, NOT_FIXABLE + ENV_ANCHOR, 1))
        for inject, applies in INJECTIONS:
            made = inject(text, fixed) if applies(i) else None
            if made is not None:
                text, fixed = made
        if i % 7 == 0:
            text, fixed = text.replace("\nspec:\n", "\nlegacyField: 1\nspec:\n", 1), \
                fixed.replace("\nspec:\n", "\nlegacyField: 1\nspec:\n", 1)
        data, want = text.encode(), fixed.encode()
        if i % 4 == 1:  # some files were written on Windows
            data, want = data.replace(b"\n", b"\r\n"), want.replace(b"\n", b"\r\n")
        (folder / golden.name).write_bytes(data)
        expected[golden.name] = want
    return tmp_path, expected


def findings(result) -> List[Dict[str, str]]:
    return json.loads(result.stdout)["findings"]


def fixable(finding: Dict[str, str], root: Path) -> bool:
    """Whether --fix must fix this finding (the look-alikes it must leave are told apart here)."""
    rule, message = finding["rule"], finding["message"]
    return rule in FIXED_RULES and "got a list" not in message and "differs from its request" not in message


def test_diff_shows_the_fixes_and_changes_nothing(repo) -> None:
    root, _ = repo
    before = {p.name: p.read_bytes() for p in (root / "manifests").iterdir()}
    result = lint(root, "--diff")
    assert result.returncode == 1
    assert '+              value: "600"   # seconds, from the old runbook' in result.stdout
    assert '+            - {name: USE_CACHE, value: "true"}' in result.stdout
    for added in (r"\+ +limits:", r"\+ +huawei\.com/\w+: \d+", r"\+ +resources: \{requests: .*, limits: \{huawei.*\}\}",
                  r"\+ +- name: ascendjob-port", r"\+ +containerPort: 2222", r"\+ +ring-controller\.atlas: ascend-\S+",
                  r"\+ +fieldPath: metadata\.annotations\['huawei\.com/\w+'\]"):
        assert re.search("^" + added + "\r?$", result.stdout, re.M), added
    assert {p.name: p.read_bytes() for p in (root / "manifests").iterdir()} == before
    assert "--- a/manifests/" in result.stdout and "+++ b/manifests/" in result.stdout


def test_fix_leaves_only_what_cannot_be_fixed_and_every_other_byte(repo) -> None:
    root, expected = repo
    assert len(expected) >= 50
    found = findings(lint(root, "--format", "json"))
    to_fix = [f for f in found if fixable(f, root)]
    for rule in FIXED_RULES:
        assert len([f for f in to_fix if f["rule"] == rule]) >= 3, rule
    left_alone = [f for f in found if f not in to_fix]
    assert {"AC102", "AC701", "AC217"} <= {f["rule"] for f in left_alone}  # the look-alikes are there
    result = lint(root, "--fix", "--format", "json")
    assert f"fixed {len(to_fix)} finding(s)" in result.stderr
    left = findings(result)
    assert {(f["rule"], f["file"], f["path"]) for f in left} == \
        {(f["rule"], f["file"], f["path"]) for f in left_alone}
    for name, want in expected.items():
        assert (root / "manifests" / name).read_bytes() == want, name
    assert lint(root, "--diff").returncode == 0  # nothing more to fix


def test_sarif_offers_the_fixes(repo) -> None:
    root, _ = repo
    found = findings(lint(root, "--format", "json"))
    sarif = json.loads(lint(root, "--format", "sarif").stdout)
    results = sarif["runs"][0]["results"]
    with_fix = [r for r in results if "fixes" in r]
    assert {r["ruleId"] for r in with_fix} == set(FIXED_RULES)
    assert len(with_fix) == len([f for f in found if fixable(f, root)])
    for result in with_fix:
        change = result["fixes"][0]["artifactChanges"][0]
        region, text = change["replacements"][0]["deletedRegion"], change["replacements"][0]["insertedContent"]["text"]
        where = result["locations"][0]["physicalLocation"]["region"]
        if result["ruleId"] in ("AC102", "AC601"):  # the value at the finding, replaced
            assert (region["startLine"], region["startColumn"]) == (where["startLine"], where["startColumn"])
            assert text.startswith(('"', "metadata.annotations"))
        else:  # an insertion: an empty region, at the end of a line, of new lines
            assert (region["startLine"], region["startColumn"]) == (region["endLine"], region["endColumn"])
            assert text.startswith(("\n", "\r\n", ", "))


CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes\ndata:\n  a: b\n---\n"


def _one_file(tmp_path: Path, text: str) -> Path:
    (tmp_path / "manifests").mkdir()
    path = tmp_path / "manifests" / "job.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _golden(name: str) -> str:
    return (ROOT / "golden" / "matrix" / name).read_text(encoding="utf-8")


def test_a_fix_in_a_later_document_of_a_stream_lands_on_its_own_node(tmp_path: Path) -> None:
    text = _golden("pytorch-module-910b-8-acjob.yaml").replace(
        "              limits:\n                huawei.com/Ascend910: 8\n", "", 1)
    text = text.replace("    framework: pytorch\n", "    framework: pytorch\n    tier: 1.10  # x\n", 1)
    path = _one_file(tmp_path, CONFIGMAP + text)
    lint(tmp_path, "--fix")
    fixed = path.read_text(encoding="utf-8")
    assert fixed.startswith(CONFIGMAP) and 'tier: "1.10"  # x' in fixed
    assert "                huawei.com/Ascend910: 8\n              limits:\n                huawei.com/Ascend910: 8\n" \
        in fixed
    assert findings(lint(tmp_path, "--format", "json")) == []


def test_two_limits_missing_in_one_container_are_both_added(tmp_path: Path) -> None:
    block = "          resources:\n            limits:\n              huawei.com/Ascend910: 8\n" \
            "            requests:\n              huawei.com/Ascend910: 8\n"
    text = _golden("pytorch-module-910b-8-vcjob.yaml")
    assert block in text
    path = _one_file(tmp_path, text.replace(block, "          resources:\n            requests:\n"
                                            "              huawei.com/Ascend910: 8\n              cpu: 4\n"
                                            "              huawei.com/Ascend310P: 1\n"))
    lint(tmp_path, "--fix")
    assert "              huawei.com/Ascend310P: 1\n            limits:\n              huawei.com/Ascend910: 8\n" \
           "              huawei.com/Ascend310P: 1\n          volumeMounts:" in path.read_text(encoding="utf-8")
    left = {f["rule"] for f in findings(lint(tmp_path, "--format", "json"))}
    assert left == {"AC702"}  # two NPU resources in one container: a human's call


def test_what_cannot_be_edited_with_certainty_is_left_alone(tmp_path: Path) -> None:
    # the last value of the resources mapping is a block scalar (where it ends is not one line), and the ports'
    # items start on the line after their dash: no fix, the findings stay, the file is untouched
    text = _golden("pytorch-module-910b-8-acjob.yaml").replace(
        "              limits:\n                huawei.com/Ascend910: 8\n", "", 1).replace(
        "            ports:\n            - containerPort: 2222\n              name: ascendjob-port\n",
        "            ports:\n            -\n              containerPort: 29500\n              name: master\n", 1)
    text = text.replace("                huawei.com/Ascend910: 8\n",
                        "                huawei.com/Ascend910: 8\n                note: |\n                  kept\n", 1)
    path = _one_file(tmp_path, text)
    before = lint(tmp_path, "--format", "json")
    assert {"AC701", "AC213"} <= {f["rule"] for f in findings(before)}
    assert lint(tmp_path, "--diff").returncode == 0
    result = lint(tmp_path, "--fix", "--format", "json")
    assert "fixed 0 finding(s)" in result.stderr and path.read_text(encoding="utf-8") == text
    assert findings(result) == findings(before)


def test_a_fix_whose_text_would_read_as_other_data_is_refused() -> None:
    from ascend_compile.lint import autofix
    from ascend_compile.lint.fixing import Change, Fix
    from ascend_compile.findings import Finding

    text = "a:\n  b: 1\n"
    finding = Finding("AC102", "error", "x", ("a", "b"), file="f.yaml", line=2, column=6)
    honest = Fix(finding, 8, 9, '"1"', "quote", Change(0, ("a", "b"), "1"))
    liar = Fix(finding, 8, 9, '"1"\n  c: 2', "quote", Change(0, ("a", "b"), "1"))
    assert autofix.apply(text, [honest]) == 'a:\n  b: "1"\n'
    before = autofix._read(text)
    assert autofix._only_the_changes(text, [honest], before) and not autofix._only_the_changes(text, [liar], before)


def test_one_wrong_fix_among_right_ones_leaves_only_it_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """All fixes are checked together first; when that fails each is checked alone (the liar goes, the rest stay)."""
    from ascend_compile.lint import autofix
    from ascend_compile.lint.fixing import Change, Fix
    from ascend_compile.findings import Finding

    text = "a: 1\nb: 2\nc: 3\n"

    def quote(key: str, start: int, extra: str = "") -> Fix:
        finding = Finding("AC102", "error", "x", (key,), file="f.yaml", line=1, column=1)
        return Fix(finding, start, start + 1, '"%s"%s' % (text[start], extra), "quote",
                           Change(0, (key,), text[start]))

    right_a, liar_b, right_c = quote("a", 3), quote("b", 8, "\nd: 4"), quote("c", 13)
    made = iter([right_a, liar_b, right_c])
    monkeypatch.setattr(autofix, "fixer", lambda rule_id: lambda finding, text, docs: next(made))
    kept = autofix._fixes_for("f.yaml", text, [right_a.finding, liar_b.finding, right_c.finding])
    assert kept == [right_a, right_c]
    assert autofix.apply(text, kept) == 'a: "1"\nb: 2\nc: "3"\n'


def test_a_file_with_many_fixable_findings_is_planned_in_linear_time(tmp_path: Path) -> None:
    """Hundreds of fixable findings in one file: each fix used to read the whole file twice (minutes)."""
    doc = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm%d}\ndata: {a: 1}\n"
    (tmp_path / "manifests").mkdir()
    (tmp_path / "manifests" / "many.yaml").write_text("---\n".join(doc % i for i in range(400)), encoding="utf-8")
    started = time.monotonic()
    result = lint(tmp_path, "--diff")
    assert result.stdout.count('+data: {a: "1"}') == 400
    assert time.monotonic() - started < 30  # was about 60 s (quadratic); now about a second
