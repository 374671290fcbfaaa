"""The TypeScript SDK's reports beside the Python SDK's: a folder of them renders with that
SDK's name, and where a Python and a TypeScript report on one CLI disagree is listed
(SDK-DIFFERENCES.md, sdk-differences.html, `sdkprobe report --sdks`), holds against
differs apart from not-applicable or inconclusive on one side."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import sample_reports as sample
from sample_reports import info, result

from sdkprobe.commands import main
from sdkprobe.report import ReportError, render_matrix, render_page, sdkdiff, write
from sdkprobe.report.cells import md as md_escape
from sdkprobe.report.schema import validate
from sdkprobe.report.store import dumps, file_stem

COMMITTED = Path(__file__).resolve().parents[1] / "reports" / "0.2.189.json"


def _python() -> dict[str, Any]:
    report: dict[str, Any] = json.loads(COMMITTED.read_text(encoding="utf-8"))
    return report


def _by_verdict(report: dict[str, Any], verdict: str, skip: set[str]) -> dict[str, Any]:
    return next(b for b in report["behaviours"] if b["verdict"] == verdict and b["id"] not in skip)


def fabricate(python: dict[str, Any]) -> tuple[dict[str, Any], dict[str, set[str]]]:
    """A TypeScript report made from a Python one: the same CLI, some verdicts flipped, one
    sub-check flipped under an unchanged verdict, one behaviour left out; with the ids of each
    flip by the group the page should list it in."""
    ts = copy.deepcopy(python)
    ts.update(sdk="typescript", sdk_version="0.3.332", node="v20.11.1")
    used: set[str] = set()

    def flip(verdict: str, to: str, note: str) -> str:
        b = _by_verdict(ts, verdict, used)
        b["verdict"], b["note"] = to, note
        used.add(b["id"])
        return str(b["id"])

    to_differs = flip("holds", "differs", "the TypeScript SDK sends it <late> | twice")
    to_holds = flip("differs", "holds", "")
    not_applicable = flip("holds", "not-applicable", "the TypeScript SDK has no such option")
    inconclusive = flip("holds", "error", "the Node driver crashed")
    # a sub-check both have that differs, the verdict the same on both
    sub = next(
        b
        for b in ts["behaviours"]
        if b["verdict"] == "differs" and b["id"] not in used and "holds" in b["checks"].values()
    )
    name = sorted(n for n, v in sub["checks"].items() if v == "holds")[0]
    sub["checks"][name] = "differs"
    used.add(sub["id"])
    gone = next(b for b in ts["behaviours"] if b["id"] not in used)
    ts["behaviours"].remove(gone)
    validate(ts, where="fabricated TypeScript report")
    return ts, {
        sdkdiff.DIFFERENCE: {to_differs, to_holds, sub["id"]},
        sdkdiff.NOT_APPLICABLE_ON_ONE: {not_applicable},
        sdkdiff.INCONCLUSIVE: {inconclusive},
        "only": {gone["id"]},
        "sub": {f"{sub['id']}:{name}"},
    }


@pytest.fixture(scope="module")
def pair() -> tuple[dict[str, Any], dict[str, Any], dict[str, set[str]]]:
    python = _python()
    ts, flips = fabricate(python)
    return python, ts, flips


def _put(folder: Path, report: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{file_stem(report)}.json").write_text(dumps(report), encoding="utf-8")


def sections(md: str, level: int = 3) -> dict[str, str]:
    """Each section of a page by its heading (at `level`), up to the next heading of that level or higher."""
    out: dict[str, str] = {}
    heading = None
    for line in md.splitlines():
        m = re.match(r"^(#+) (.*)$", line)
        if m and len(m.group(1)) <= level:
            heading = m.group(2) if len(m.group(1)) == level else None
            if heading:
                out[heading] = ""
        elif heading:
            out[heading] += line + "\n"
    return out


def table_ids(text: str) -> set[str]:
    return set(re.findall(r"^\| \[`([^`]+)`\]", text, flags=re.M))


def test_the_page_lists_exactly_the_flipped_behaviours_each_in_its_group_with_notes(pair):
    python, ts, flips = pair
    md = sdkdiff.comparison_markdown(sdkdiff.pair(python, ts))
    got = sections(md)
    assert table_ids(got[sdkdiff.KINDS[sdkdiff.DIFFERENCE]]) == flips[sdkdiff.DIFFERENCE]
    assert table_ids(got[sdkdiff.KINDS[sdkdiff.NOT_APPLICABLE_ON_ONE]]) == flips[sdkdiff.NOT_APPLICABLE_ON_ONE]
    assert table_ids(got[sdkdiff.KINDS[sdkdiff.INCONCLUSIVE]]) == flips[sdkdiff.INCONCLUSIVE]
    (gone,) = flips["only"]
    assert f"`{gone}` only in Python 0.2.189" in got["In one report only"]
    # each side's note, escaped for the table (a pipe would split the cell, <late> be swallowed as a tag)
    assert "the TypeScript SDK sends it &lt;late&gt; \\| twice" in md
    assert "the TypeScript SDK has no such option" in md and "the Node driver crashed" in md
    # the sub-check that moved under one verdict, with each side's verdict in order Python · TypeScript
    ((sub_id, name),) = (s.split(":") for s in flips["sub"])
    row = next(line for line in md.splitlines() if line.startswith(f"| [`{sub_id}`]"))
    assert f"`{name}` ✅ holds · ❌ differs" in row
    # one note, the same on both sides, is said once
    note = next(b["note"] for b in python["behaviours"] if b["id"] == sub_id)
    assert row.count(md_escape(note)) == 1 and re.search(rf"differs: {sdkdiff.SAME_NOTE} +\|", row)
    compared = len(python["behaviours"]) - 1
    assert (
        f"{compared} behaviours compared, 3 differ between the SDKs, 1 not applicable on one side, "
        "1 inconclusive on one side; 1 in one report only."
    ) in md


def test_agreeing_reports_list_nothing():
    python = sample.report([result("wire.a"), result("wire.b", "differs")], info("0.2.9", "2.1.9"))
    ts = {**python, "sdk": "typescript", "sdk_version": "0.3.9"}
    c = sdkdiff.pair(python, ts)
    assert c.disagreements == () and c.compared == 2
    md = sdkdiff.comparison_markdown(c)
    assert "No behaviour holds on one SDK and differs on the other on CLI 2.1.9." in md
    assert "Not applicable on one side" not in md


def test_a_typescript_folder_renders_its_matrix_naming_the_typescript_sdk(tmp_path, pair):
    _, ts, _ = pair
    folder = tmp_path / "ts"
    write(ts, folder)
    md_path, html_path = render_matrix(folder)
    md, html = md_path.read_text(), html_path.read_text()
    assert md.startswith("# @anthropic-ai/claude-agent-sdk compatibility\n")
    assert "`@anthropic-ai/claude-agent-sdk` (the TypeScript SDK)" in md
    assert "<title>@anthropic-ai/claude-agent-sdk compatibility</title>" in html
    page = next((folder / "behaviours").glob("*.html")).read_text()
    assert "— @anthropic-ai/claude-agent-sdk compatibility</title>" in page
    version_page = (folder / "0.3.332.md").read_text()
    assert version_page.startswith("# @anthropic-ai/claude-agent-sdk 0.3.332\n")
    assert "| Node " in version_page and "v20.11.1" in version_page and "| Python " not in version_page
    # nowhere named as the Python SDK's, except as the other SDK's matrix this folder could sit beside
    for text in (md, html, page, version_page):
        assert not re.search(r"(?<![/@\w-])claude-agent-sdk compatibility|# claude-agent-sdk", text)


def test_a_python_folder_with_ts_beside_it_writes_the_differences_and_points_at_them(tmp_path, pair, capsys):
    python, ts, flips = pair
    _put(tmp_path, python)
    _put(tmp_path / "ts", ts)
    assert main(["report", str(tmp_path)]) == 0
    assert "SDK-DIFFERENCES.md" in capsys.readouterr().out
    page = (tmp_path / sdkdiff.MD_NAME).read_text()
    assert page.startswith("# claude-agent-sdk and @anthropic-ai/claude-agent-sdk on one CLI\n")
    assert "## CLI 2.1.332: Python 0.2.189, TypeScript 0.3.332" in page
    assert table_ids(page) == set().union(*(flips[k] for k in sdkdiff.KINDS))
    matrix = (tmp_path / "COMPATIBILITY.md").read_text()
    section = sections(matrix, 2)["The TypeScript SDK"]
    assert "[ts/COMPATIBILITY.md](ts/COMPATIBILITY.md)" in section
    assert "[SDK-DIFFERENCES.md](SDK-DIFFERENCES.md)" in section
    assert "- CLI 2.1.332: Python 0.2.189, TypeScript 0.3.332: " in section and "3 differ between the SDKs" in section
    html = (tmp_path / sdkdiff.HTML_NAME).read_text()
    for bid in flips[sdkdiff.DIFFERENCE]:
        assert f'href="behaviours/{bid}.html"' in html
    assert 'href="sdk-differences.html"' in (tmp_path / "compatibility.html").read_text()
    # the TypeScript folder's matrix, rendered on its own, points back
    assert main(["report", str(tmp_path / "ts")]) == 0
    assert "[../SDK-DIFFERENCES.md](../SDK-DIFFERENCES.md)" in (tmp_path / "ts" / "COMPATIBILITY.md").read_text()
    assert 'href="../sdk-differences.html"' in (tmp_path / "ts" / "compatibility.html").read_text()
    # deterministic
    first = page
    assert main(["report", str(tmp_path)]) == 0
    assert (tmp_path / sdkdiff.MD_NAME).read_text() == first


def test_a_python_folder_without_ts_writes_no_differences(tmp_path, pair):
    python, _, _ = pair
    _put(tmp_path, python)
    (tmp_path / "ts").mkdir()  # empty: no reports
    render_matrix(tmp_path)
    assert not (tmp_path / sdkdiff.MD_NAME).exists()
    assert "## The TypeScript SDK" not in (tmp_path / "COMPATIBILITY.md").read_text()


def test_no_shared_cli_version_is_said(tmp_path):
    _put(tmp_path, sample.report([result("wire.a")], info("0.2.9", "2.1.9")))
    _put(tmp_path, sample.report([result("wire.a")], info("0.2.8", "2.1.5", custom=True)))  # a custom CLI: not paired
    ts = sample.report([result("wire.a")], {**info("0.3.5", "2.1.5"), "sdk": "typescript", "node": "v20"})
    _put(tmp_path / "ts", ts)
    render_matrix(tmp_path)
    page = (tmp_path / sdkdiff.MD_NAME).read_text()
    assert (
        "No CLI version has both a Python SDK report and a TypeScript SDK report run with its bundled CLI: "
        "the Python SDK's reports bundle CLI 2.1.9; the TypeScript SDK's, CLI 2.1.5." in page
    )
    assert "##" not in page.split("\n", 1)[1]  # no CLI section


def test_the_newest_release_of_each_sdk_bundling_a_cli_is_compared_newest_cli_first():
    def rep(version, cli, verdict, sdk="python"):
        return {**sample.report([result("wire.a", verdict)], info(version, cli)), "sdk": sdk}

    python = [rep("0.2.8", "2.1.9", "differs"), rep("0.2.9", "2.1.9", "holds"), rep("0.2.10", "2.1.10", "holds")]
    ts = [rep("0.3.9", "2.1.9", "holds", "typescript"), rep("0.3.10", "2.1.10", "differs", "typescript")]
    beside = sdkdiff.pair_up(python, ts)
    assert [(c.cli_version, c.python_version, c.typescript_version) for c in beside.pairs] == [
        ("2.1.10", "0.2.10", "0.3.10"),
        ("2.1.9", "0.2.9", "0.3.9"),
    ]
    assert [len(c.of(sdkdiff.DIFFERENCE)) for c in beside.pairs] == [1, 0]


def test_sdks_prints_the_view_for_two_reports_in_either_order(tmp_path, pair, capsys):
    python, ts, flips = pair
    _put(tmp_path, python)
    _put(tmp_path / "ts", ts)
    a, b = tmp_path / "0.2.189.json", tmp_path / "ts" / "0.3.332.json"
    assert main(["report", "--sdks", str(b), str(a)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# CLI 2.1.332: Python 0.2.189, TypeScript 0.3.332\n")
    assert table_ids(sections(out, 2)[sdkdiff.KINDS[sdkdiff.DIFFERENCE]]) == flips[sdkdiff.DIFFERENCE]
    target = tmp_path / "out.md"
    assert main(["report", "--sdks", str(a), str(b), "--out", str(target)]) == 0
    # the same view (its links made from the file's folder rather than from here)
    written = target.read_text()
    assert sections(written, 2).keys() == sections(out, 2).keys() and table_ids(written) == table_ids(out)
    assert written.splitlines()[:3] == out.splitlines()[:3]  # heading and count line


@pytest.mark.parametrize(
    ("make", "message"),
    [
        ("two-python", "are both Python SDK reports; --sdks compares one Python SDK report with one TypeScript"),
        ("two-cli", "ran CLI 2.1.9, {b} CLI 2.1.10; --sdks compares the two SDKs on one CLI"),
        ("no-cli", "does not say which CLI it ran"),
        ("dir", "--sdks takes two report files and no DIR"),
        ("missing", "no such report file"),
    ],
)
def test_sdks_bad_input_exits_2_with_one_line(tmp_path, capsys, make, message):
    py = sample.report([result("wire.a")], info("0.2.9", "2.1.9"))
    ts = {**py, "sdk": "typescript", "sdk_version": "0.3.9"}
    if make == "two-python":
        ts = {**py, "sdk_version": "0.2.10"}
    elif make == "two-cli":
        ts = {**ts, "cli_version": "2.1.10"}
    elif make == "no-cli":
        ts = {**ts, "cli_version": None}
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(dumps(py))
    b.write_text(dumps(ts))
    args = ["report", "--sdks", str(a), str(b)]
    if make == "dir":
        args = ["report", str(tmp_path), "--sdks", str(a), str(b)]
    elif make == "missing":
        args = ["report", "--sdks", str(a), str(tmp_path / "nope.json")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message.format(b=b) in err


def test_a_folder_mixing_the_two_sdks_is_refused_in_one_line(tmp_path):
    _put(tmp_path, sample.report([result("wire.a")], info("0.2.9", "2.1.9")))
    _put(tmp_path, {**sample.report([result("wire.a")], info("0.3.9", "2.1.9")), "sdk": "typescript"})
    with pytest.raises(ReportError, match=r"of two SDKs \(claude-agent-sdk 0.2.9, @anthropic-ai/claude-agent-sdk "):
        render_matrix(tmp_path)


def test_a_python_report_in_ts_is_refused(tmp_path):
    _put(tmp_path, sample.report([result("wire.a")], info("0.2.9", "2.1.9")))
    _put(tmp_path / "ts", sample.report([result("wire.a")], info("0.2.8", "2.1.9")))
    with pytest.raises(ReportError, match=r"0.2.8 is a Python SDK report; ts/ holds the TypeScript SDK's"):
        render_matrix(tmp_path)
    assert not (tmp_path / "COMPATIBILITY.md").exists()  # nothing written


def test_the_schema_takes_the_sdk_and_node_fields_and_nothing_else_there():
    py = sample.report([result("wire.a")])
    validate({**py, "sdk": "typescript", "node": "v20.11.1"})
    validate({**py, "sdk": "python"})
    with pytest.raises(ReportError, match=r"\$.sdk"):
        validate({**py, "sdk": "go"})
    with pytest.raises(ReportError, match=r"\$.node"):
        validate({**py, "node": ""})


def test_a_python_reports_version_page_still_names_the_python_sdk():
    page = render_page(sample.report([result("wire.a")], info("0.2.9", "2.1.9")))
    assert page.startswith("# claude-agent-sdk 0.2.9\n") and "| Python " in page


def test_a_typescript_matrix_says_its_exact_releases_are_npms():
    from sdkprobe.report.grid import from_reports

    ts = {**sample.report([result("wire.a")], info("0.3.9", "2.1.9")), "sdk": "typescript"}
    assert "every release on npm" in from_reports([ts]).exact_note
    assert "every release on PyPI" in from_reports([sample.report([result("wire.a")])]).exact_note
