"""The compatibility matrix: columns in version order, footnotes where a behaviour does
not hold, blanks where a version lacks a behaviour, where each row changed said in words
and listed first, sources linked where they have a URL, areas in their declared order,
and clear errors on bad folders."""

from __future__ import annotations

import json
import re

import pytest
import sample_reports as sample
from sample_reports import info, result

from sdkprobe.areas import AREAS
from sdkprobe.commands import main as cli_main
from sdkprobe.report import ReportError, render_matrix, render_page, write
from sdkprobe.report.grid import describe_change, from_reports

ISSUE_LINK = f"[py#362]({sample.ISSUE_URL})"


def add(dir_, sdk, cli, *results, custom=False):
    write(sample.report(list(results), info(sdk, cli, custom=custom)), dir_)


@pytest.fixture
def reports(tmp_path):
    add(
        tmp_path,
        "0.2.10",
        "2.1.10",
        result("wire.tools", "differs", "sent --tools a|b"),
        result("hooks.fire", source=sample.ISSUE),
        result("mcp.new", "not-applicable", "no Python analogue"),
    )
    add(
        tmp_path,
        "0.2.9",
        "2.1.9",
        result("wire.tools"),
        result("hooks.fire", source=sample.ISSUE),
        result("hooks.gone", "error", "probe broke"),
    )
    add(
        tmp_path,
        "0.2.100",
        None,
        result("wire.tools", "differs", "sent --tools a|b"),
        result("hooks.fire", "needs-live", "needs --live", source=sample.ISSUE),
        custom=True,
    )
    return tmp_path


def section(md: str, heading: str) -> str:
    """The text under the `## heading` line (matched up to its title), up to the next heading."""
    m = re.search(rf"^## {re.escape(heading)}( — [^\n]*)?\n", md, re.MULTILINE)
    assert m, f"no section {heading!r}"
    return md[m.end() :].split("\n## ", 1)[0]


def table_rows(md: str, area: str) -> dict[str, list[str]]:
    """Area table rows by id: [source, changes, one cell per version]."""
    rows = {}
    for line in section(md, area).strip().splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        link = re.fullmatch(r"\[`(.+)`\]\(\.\./probes/catalogue/(\w+)\.py(?:#L\d+)?\)", cells[0])
        assert link and link.group(1).startswith(link.group(2) + "."), cells[0]  # links to its declaration
        rows[link.group(1)] = cells[1:]
    return rows


def test_columns_sorted_by_version_with_their_cli(reports):
    md_path, html_path = render_matrix(reports)
    assert (md_path.name, html_path.name) == ("COMPATIBILITY.md", "compatibility.html")
    header = section(md_path.read_text(), "wire").strip().splitlines()[0]
    assert [c.strip() for c in header.split("|")[1:-1]] == [
        "behaviour",
        "source",
        "changes",
        "0.2.9 (CLI 2.1.9)",
        "0.2.10 (CLI 2.1.10)",
        "0.2.100 (CLI ?, custom)",
    ]


def test_rows_grouped_by_area_cells_symbols_and_blanks(reports):
    md = render_matrix(reports)[0].read_text()
    hooks = table_rows(md, "hooks")
    assert hooks["hooks.fire"] == [ISSUE_LINK, "holds up to 0.2.10, needs-live from 0.2.100 (CLI ?, custom) on"] + [
        "✅",
        "✅",
        "🔑",
    ]
    assert hooks["hooks.gone"][2].startswith("💥[^") and hooks["hooks.gone"][3:] == ["—", "—"]
    mcp = table_rows(md, "mcp")["mcp.new"]
    assert mcp[1] == "" and mcp[2] == "—" and mcp[3].startswith("➖[^") and mcp[4] == "—"
    for symbol, name in [
        ("✅", "holds"),
        ("❌", "differs"),
        ("➖", "not-applicable"),
        ("🔑", "needs-live"),
        ("💥", "error"),
        ("—", "not probed"),
    ]:
        assert f"{symbol} {name}" in md


def test_a_differs_cell_is_footnoted_with_its_note(reports):
    md = render_matrix(reports)[0].read_text()
    cells = table_rows(md, "wire")["wire.tools"]
    assert cells[2] == "✅"
    ref10, ref100 = (re.fullmatch(r"❌\[\^(\d+)\]", c).group(1) for c in cells[3:])
    assert ref10 == ref100  # the same note on two versions shares one footnote
    note = re.search(rf"^\[\^{ref10}\]: (.*)$", md, re.MULTILINE).group(1)
    assert note == "`wire.tools` on 0.2.10, 0.2.100 (CLI ?, custom): sent --tools a\\|b"


# --- where a row changed, in words ------------------------------------------------------

V = ["0.1.19", "0.1.33", "0.1.58", "0.1.81", "0.2.82"]
H, D, NA, NL, E = "holds", "differs", "not-applicable", "needs-live", "error"


@pytest.mark.parametrize(
    ("verdicts", "words"),
    [
        ([H, H, H, H, H], ""),
        ([D, D, D, D, D], ""),  # always differs: nothing changed, the cells say it
        ([None, None, H, H, None], ""),  # absent is not a change
        ([None, None, None, None, None], ""),
        ([H, H, D, D, D], "holds up to 0.1.33, differs from 0.1.58 on"),
        ([H, D, D, D, D], "holds on 0.1.19, differs from 0.1.33 on"),
        ([H, H, H, H, D], "holds up to 0.1.81, differs from 0.2.82 on"),
        ([H, H, None, D, D], "holds up to 0.1.33, differs from 0.1.81 on"),  # the gap is skipped
        ([None, H, None, H, D], "holds on 0.1.33–0.1.81, differs from 0.2.82 on"),  # not probed on the oldest
        ([H, H, D, D, None], "holds up to 0.1.33, differs on 0.1.58–0.1.81"),  # nor on the newest
        ([None, D, H, H, None], "differs on 0.1.33, holds on 0.1.58–0.1.81"),
        ([H, H, D, H, H], "holds on 0.1.19–0.1.33, differs on 0.1.58, holds from 0.1.81 on"),
        ([None, H, D, None, H], "holds on 0.1.33, differs on 0.1.58, holds from 0.2.82 on"),
        ([H, D, D, H, D], "holds on 0.1.19, differs on 0.1.33–0.1.58, holds on 0.1.81, differs from 0.2.82 on"),
        ([NA, NA, NL, E, E], "not-applicable on 0.1.19–0.1.33, needs-live on 0.1.58, error from 0.1.81 on"),
    ],
)
def test_change_is_described_in_words(verdicts, words):
    assert describe_change(verdicts, V) == words


def test_exact_releases_split_a_run_where_the_verdict_moved_and_moved_back_between_two_columns():
    # 0.1.33 and 0.1.58 both read differs; the history found holds on 0.1.40-0.1.47 between them
    exact = {("0.1.33", "0.1.58"): ("0.1.39", "0.1.48", (("holds", "0.1.40", "0.1.47"),))}
    words = describe_change([D, D, D, D, D], V, exact)
    assert words == "differs on 0.1.19–0.1.39, holds on 0.1.40–0.1.47, differs from 0.1.48 on"
    assert describe_change([D, D, D, D, D], V) == ""  # without it the columns agree
    # beside a change between columns
    assert describe_change([D, D, D, H, H], V, exact) == (
        "differs on 0.1.19–0.1.39, holds on 0.1.40–0.1.47, differs on 0.1.48–0.1.58, holds from 0.1.81 on"
    )


def test_rows_carry_their_change_and_name_custom_columns():
    reports = [
        sample.report([result("wire.a"), result("wire.b")], info("0.2.9", "2.1.9")),
        sample.report([result("wire.a", "differs"), result("wire.b")], info("0.2.10", "2.1.10")),
        sample.report([result("wire.a"), result("wire.b")], info("0.2.10", "2.1.5", custom=True)),
    ]
    grid = from_reports(reports)
    assert [c.label for c in grid.columns] == ["0.2.9", "0.2.10", "0.2.10 (CLI 2.1.5, custom)"]
    assert {r.id: r.change for r in grid.rows} == {
        "wire.a": "holds on 0.2.9, differs on 0.2.10, holds from 0.2.10 (CLI 2.1.5, custom) on",
        "wire.b": "",
    }
    assert [r.id for r in grid.changed()] == ["wire.a"]


def test_matrix_opens_with_what_changed(reports):
    md = render_matrix(reports)[0].read_text()
    headings = re.findall(r"^## (.*)$", md, re.MULTILINE)
    assert headings[:2] == ["Changed across these versions", "Versions"]
    changed = []
    for line in section(md, "Changed across these versions").strip().splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        changed.append((re.fullmatch(r"\[`(.+)`\]\(.*\)", cells[0]).group(1), cells[1]))
    assert changed == [  # in area order (wire before hooks), only the rows that changed
        ("wire.tools", "holds on 0.2.9, differs from 0.2.10 on"),
        ("hooks.fire", "holds up to 0.2.10, needs-live from 0.2.100 (CLI ?, custom) on"),
    ]
    # the area tables say the same words; rows that never changed say nothing
    assert table_rows(md, "wire")["wire.tools"][1] == changed[0][1]
    assert table_rows(md, "hooks")["hooks.gone"][1] == ""


def test_the_matrix_ends_with_what_moved_between_its_two_newest_columns(reports):
    md = render_matrix(reports)[0].read_text()
    closing = md[md.rindex("\n## ") + 1 :]
    assert closing.startswith("## Upgrading from 0.2.10 to 0.2.100 (CLI ?, custom)\n")
    assert re.findall(r"^- `([^`]+)`", closing, re.MULTILINE) == ["hooks.fire", "mcp.new"]  # wire.tools did not move
    assert "- `hooks.fire`: ✅ holds on 0.2.10 → 🔑 needs-live on 0.2.100 (CLI ?, custom)." in closing
    assert "### Gone in 0.2.100 (CLI ?, custom) (only in 0.2.10)\n\n- `mcp.new` (➖ not-applicable)" in closing


def test_a_matrix_of_one_version_has_no_upgrade_section(tmp_path):
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a"))
    assert "Upgrading" not in render_matrix(tmp_path)[0].read_text()


def test_a_declared_behaviours_row_links_to_the_line_of_its_declaration(tmp_path):
    from sdkprobe.report.declared import find

    add(tmp_path, "0.2.9", "2.1.9", result("tools.mcp-tool-naming", tier="cli"))
    md = render_matrix(tmp_path)[0].read_text()
    line = find("tools.mcp-tool-naming").line
    assert f"[`tools.mcp-tool-naming`](../probes/catalogue/tools.py#L{line})" in md


def test_a_matrix_with_no_change_says_so(tmp_path):
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a"), result("hooks.b", "differs"))
    add(tmp_path, "0.2.10", "2.1.10", result("wire.a"))
    md = render_matrix(tmp_path)[0].read_text()
    assert section(md, "Changed across these versions").strip() == "No behaviour changed across these 2 versions."


# --- sources and areas ------------------------------------------------------------------


def test_sources_are_linked_where_they_have_a_url(reports):
    md = render_matrix(reports)[0].read_text()
    assert table_rows(md, "hooks")["hooks.fire"][0] == ISSUE_LINK
    assert table_rows(md, "wire")["wire.tools"][0] == "003 § Quick answer"  # a design document: named
    assert "](" not in table_rows(md, "wire")["wire.tools"][0]
    assert section(md, "Sources").strip().splitlines() == [
        f"- 003: {sample.DOC_TITLE}",
        f"- {ISSUE_LINK}: claude-agent-sdk-python issue #362",
    ]


def test_a_url_cannot_break_the_link_or_the_table(tmp_path):
    odd = sample.source("docs", "Hooks", "https://example.com/a b)|<x>?q=(1)", "odd")
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a", source=odd))
    cell = table_rows(render_matrix(tmp_path)[0].read_text(), "wire")["wire.a"][0]
    assert cell == "[docs § Hooks](https://example.com/a%20b%29%7C%3Cx%3E?q=%281%29)"


def test_areas_in_declared_order_with_their_titles(tmp_path):
    # ids that sort alphabetically against the declared order, and one undeclared area
    ids = ["zzz.old", "agents.a", "wire.b", "process.c", "tools.d", "hooks.e"]
    add(tmp_path, "0.2.9", "2.1.9", *(result(i) for i in ids))
    md = render_matrix(tmp_path)[0].read_text()
    headings = re.findall(r"^## (.*)$", md, re.MULTILINE)
    areas = headings[headings.index("Versions") + 1 : headings.index("Sources")]
    assert areas == [
        "wire — What the SDK sends",
        "tools — Tools offered",
        "hooks — Hooks",
        "agents — Subagents",
        "process — The CLI process",
        "zzz",  # an old report's area: after the declared ones, by name
    ]
    assert areas[:-1] == [f"{a.name} — {a.title}" for a in AREAS if a.name in {i.split(".")[0] for i in ids}]


def test_the_version_page_orders_areas_and_links_sources():
    results = [result("hooks.e"), result("tools.d", source=sample.ISSUE), result("wire.b"), result("zzz.old")]
    page = render_page(sample.report(results, info("0.2.9", "2.1.9")))
    headings = re.findall(r"^## (.*)$", page, re.MULTILINE)
    assert headings == ["wire — What the SDK sends", "tools — Tools offered", "hooks — Hooks", "zzz", "Sources"]
    rows = {line.split("|")[1].strip(): line.split("|")[-2].strip() for line in page.splitlines() if "| `" in line}
    doc = "003 § Quick answer"
    assert rows == {"`wire.b`": doc, "`tools.d`": ISSUE_LINK, "`hooks.e`": doc, "`zzz.old`": doc}
    assert section(page, "Sources").strip().splitlines()[0] == f"- 003: {sample.DOC_TITLE}"


# --- files and folders ------------------------------------------------------------------


def test_matrix_is_deterministic(reports):
    first = [p.read_bytes() for p in render_matrix(reports)]
    assert [p.read_bytes() for p in render_matrix(reports)] == first


def test_version_strings_stay_text(tmp_path):
    for v in ("1.10", "1.9", "1.100"):
        add(tmp_path, v, "2.10", result("wire.a"))
    md = render_matrix(tmp_path)[0].read_text()
    summary = [line.split("|")[1].strip() for line in md.splitlines() if line.startswith("| 1.")]
    assert summary == ["1.9", "1.10", "1.100"]
    assert "(CLI 2.10)" in md


def test_bad_folders_are_refused_in_one_line(tmp_path):
    with pytest.raises(ReportError, match="no such folder"):
        render_matrix(tmp_path / "missing")
    with pytest.raises(ReportError, match="no <sdk-version>.json reports"):
        render_matrix(tmp_path)
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a"))
    (tmp_path / "0.2.9.json").rename(tmp_path / "0.2.8.json")
    with pytest.raises(ReportError, match="the file name says 0.2.8, the report is for 0.2.9"):
        render_matrix(tmp_path)
    (tmp_path / "0.2.8.json").write_text(json.dumps({"schema": 2, "sdk_version": "0.2.8"}))
    with pytest.raises(ReportError) as exc:
        render_matrix(tmp_path)
    assert "0.2.8.json: schema mismatch" in str(exc.value) and "\n" not in str(exc.value)


def test_a_schema_1_report_is_refused(tmp_path):
    old = {**sample.report([result("wire.a")], info("0.2.9", "2.1.9")), "schema": 1}
    old["behaviours"][0]["source"] = ["003_60988dc4d5bfdb0e.txt", "Quick answer"]
    (tmp_path / "0.2.9.json").write_text(json.dumps(old))
    with pytest.raises(ReportError, match="schema version 1; this sdkprobe reads version 2"):
        render_matrix(tmp_path)


def test_report_command(reports, tmp_path, capsys):
    assert cli_main(["report", str(reports)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {reports / 'COMPATIBILITY.md'}" in out and f"wrote {reports / 'compatibility.html'}" in out
    assert cli_main(["report", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sdkprobe report: error: ") and len(err.strip().splitlines()) == 1


def test_a_custom_cli_report_sits_beside_the_bundled_one(tmp_path):
    add(tmp_path, "0.2.189", "2.1.332", result("wire.tools"))
    add(tmp_path, "0.2.189", "2.1.321", result("wire.tools", "differs", "older CLI"), custom=True)
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["0.2.189+cli-2.1.321.json", "0.2.189.json"]
    md = render_matrix(tmp_path)[0].read_text()
    assert "0.2.189 (CLI 2.1.332)" in md and "0.2.189 (CLI 2.1.321, custom)" in md
    assert "on 0.2.189 (CLI 2.1.321, custom): older CLI" in md
