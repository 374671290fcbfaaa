"""The compatibility matrix: columns in version order (newest first), each behaviour's
claim in one short line, footnotes where a behaviour does not hold, blanks where a
version lacks a behaviour, where each row changed said in words and listed first,
sources linked to their URL or the project's page on them, areas in their declared order,
and clear errors on bad folders."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import sample_reports as sample
from sample_reports import info, result

from sdkprobe.areas import AREAS
from sdkprobe.commands import main as cli_main
from sdkprobe.report import ReportError, render_matrix, render_page, write
from sdkprobe.report.cells import SHORT_CLAIM, project_from, short_claim, source_md
from sdkprobe.report.grid import describe_change, from_reports, load_dir

ISSUE_LINK = f"[py#362]({sample.ISSUE_URL})"
DOC_LINK = "[003 § Quick answer](../docs/sources/003.md#quick-answer)"
REPO = Path(__file__).resolve().parent.parent


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
    """Area table rows by id: [one cell per version, newest first, claim, changes, source]."""
    rows = {}
    for line in section(md, area).strip().splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        link = re.fullmatch(r"\[`(.+)`\]\(\.\./([^)#]+)(?:#L\d+)?\)", cells[0])
        assert link and _in_its_areas_place(link.group(1), REPO / link.group(2)), cells[0]  # links to its declaration
        rows[link.group(1)] = cells[1:]
    return rows


def _in_its_areas_place(bid: str, target: Path) -> bool:
    """Whether a row's link leads into its area's part of the catalogue: its package, or a
    module in it (probes/catalogue/mcp/, probes/catalogue/mcp/oauth.py)."""
    from sdkprobe import catalogue

    place = target.resolve().relative_to(Path(catalogue.__file__).resolve().parent).parts[0]
    return target.exists() and place == bid.split(".", 1)[0]


def test_columns_sorted_by_version_newest_first_with_their_cli(reports):
    # newest first (it was oldest first): the versions a reader upgrades to come first
    md_path, html_path = render_matrix(reports)
    assert (md_path.name, html_path.name) == ("COMPATIBILITY.md", "compatibility.html")
    header = section(md_path.read_text(), "wire").strip().splitlines()[0]
    assert [c.strip() for c in header.split("|")[1:-1]] == [
        "behaviour",
        "0.2.100 (CLI ?, custom)",
        "0.2.10 (CLI 2.1.10)",
        "0.2.9 (CLI 2.1.9)",
        "claim",
        "changes",
        "source",
    ]


def test_rows_grouped_by_area_cells_symbols_and_blanks(reports):
    md = render_matrix(reports)[0].read_text()
    hooks = table_rows(md, "hooks")
    assert hooks["hooks.fire"] == [
        "🔑",
        "✅",
        "✅",
        "claim of hooks.fire",
        "holds up to 0.2.10, needs-live from 0.2.100 (CLI ?, custom) on",
        ISSUE_LINK,
    ]
    assert hooks["hooks.gone"][:2] == ["—", "—"] and hooks["hooks.gone"][2].startswith("💥[^")
    mcp = table_rows(md, "mcp")["mcp.new"]
    assert mcp[-2] == "" and mcp[0] == "—" and mcp[1].startswith("➖[^") and mcp[2] == "—"
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
    ref100, ref10 = (re.fullmatch(r"❌\[\^(\d+)\]", c).group(1) for c in cells[:2])
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


def test_matrix_opens_with_the_newest_upgrade_then_what_changed(reports):
    md = render_matrix(reports)[0].read_text()
    headings = re.findall(r"^## (.*)$", md, re.MULTILINE)
    upgrading = "Upgrading from 0.2.10 to 0.2.100 (CLI ?, custom)"
    assert headings[:3] == [upgrading, "Changed across these versions", "Versions"]
    changed = []
    for line in section(md, "Changed across these versions").strip().splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        changed.append((re.fullmatch(r"\[`(.+)`\]\(.*\)", cells[0]).group(1), cells[2]))
        assert cells[1]  # the row's claim, in one short line
    assert changed == [  # in area order (wire before hooks), only the rows that changed
        ("wire.tools", "holds on 0.2.9, differs from 0.2.10 on"),
        ("hooks.fire", "holds up to 0.2.10, needs-live from 0.2.100 (CLI ?, custom) on"),
    ]
    # the area tables say the same words; rows that never changed say nothing
    assert table_rows(md, "wire")["wire.tools"][-2] == changed[0][1]
    assert table_rows(md, "hooks")["hooks.gone"][-2] == ""


def test_the_matrix_says_first_what_moved_between_its_two_newest_columns(reports):
    md = render_matrix(reports)[0].read_text()
    closing = md[md.index("\n## ") + 1 : md.index("\n## Changed across")]
    assert closing.startswith("## Upgrading from 0.2.10 to 0.2.100 (CLI ?, custom)\n")
    assert re.findall(r"^- `([^`]+)`", closing, re.MULTILINE) == ["hooks.fire", "mcp.new"]  # wire.tools did not move
    assert "- `hooks.fire`: ✅ holds on 0.2.10 → 🔑 needs-live on 0.2.100 (CLI ?, custom)." in closing
    assert "### Gone in 0.2.100 (CLI ?, custom) (only in 0.2.10)\n\n- `mcp.new` (➖ not-applicable)" in closing


def test_a_matrix_of_one_version_has_no_upgrade_section(tmp_path):
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a"))
    assert "Upgrading" not in render_matrix(tmp_path)[0].read_text()


def test_a_declared_behaviours_row_links_to_the_line_of_its_declaration(tmp_path):
    from sdkprobe import catalogue

    add(tmp_path, "0.2.9", "2.1.9", result("tools.mcp-tool-naming", tier="cli"))
    md = render_matrix(tmp_path)[0].read_text()
    code = catalogue.by_id("tools.mcp-tool-naming").probe.__code__  # the registry's: its probe's file and line
    module = Path(code.co_filename).resolve().relative_to(REPO).as_posix()
    assert f"[`tools.mcp-tool-naming`](../{module}#L{code.co_firstlineno})" in md


def test_a_matrix_with_no_change_says_so(tmp_path):
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a"), result("hooks.b", "differs"))
    add(tmp_path, "0.2.10", "2.1.10", result("wire.a"))
    md = render_matrix(tmp_path)[0].read_text()
    assert section(md, "Changed across these versions").strip() == "No behaviour changed across these 2 versions."


# --- sources and areas ------------------------------------------------------------------


def test_sources_link_to_their_url_or_the_projects_page_on_them(reports):
    md = render_matrix(reports)[0].read_text()
    assert table_rows(md, "hooks")["hooks.fire"][-1] == ISSUE_LINK
    # a design document: the project's page on it, at the section's anchor
    assert table_rows(md, "wire")["wire.tools"][-1] == DOC_LINK
    assert section(md, "Sources").strip().splitlines() == [
        f"- [003](../docs/sources/003.md): {sample.DOC_TITLE}",
        f"- {ISSUE_LINK}: claude-agent-sdk-python issue #362",
    ]


def test_a_source_with_neither_url_nor_page_is_named_only(tmp_path):
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a", source=sample.source("team-note", "Why")))
    assert table_rows(render_matrix(tmp_path)[0].read_text(), "wire")["wire.a"][-1] == "team-note § Why"


def test_links_to_a_page_start_from_the_matrix_folder(tmp_path):
    folder = REPO / "reports" / "cli-axis"
    assert source_md(sample.DOC, project_from(folder)) == "[003 § Quick answer](../../docs/sources/003.md#quick-answer)"


def test_a_url_cannot_break_the_link_or_the_table(tmp_path):
    odd = sample.source("docs", "Hooks", "https://example.com/a b)|<x>?q=(1)", "odd")
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a", source=odd))
    cell = table_rows(render_matrix(tmp_path)[0].read_text(), "wire")["wire.a"][-1]
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
    doc = DOC_LINK
    assert rows == {"`wire.b`": doc, "`tools.d`": ISSUE_LINK, "`hooks.e`": doc, "`zzz.old`": doc}
    assert section(page, "Sources").strip().splitlines()[0] == f"- [003](../docs/sources/003.md): {sample.DOC_TITLE}"


# --- files and folders ------------------------------------------------------------------


def test_matrix_is_deterministic(reports):
    first = [p.read_bytes() for p in render_matrix(reports)]
    assert [p.read_bytes() for p in render_matrix(reports)] == first


def test_version_strings_stay_text(tmp_path):
    for v in ("1.10", "1.9", "1.100"):
        add(tmp_path, v, "2.10", result("wire.a"))
    md = render_matrix(tmp_path)[0].read_text()
    summary = [line.split("|")[1].strip() for line in md.splitlines() if line.startswith("| 1.")]
    assert summary == ["1.100", "1.10", "1.9"]  # newest first, as the columns
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


def test_a_cli_axis_matrix_has_its_sdks_bundled_report_from_the_folder_above_as_a_column(tmp_path):
    axis = tmp_path / "cli-axis"
    axis.mkdir()
    add(axis, "0.2.189", "2.1.99", result("tools.a", "differs"), custom=True)
    add(axis, "0.2.189", "2.1.100", result("tools.a", "differs"), custom=True)
    assert [c.cli_version for c in load_dir(axis).columns] == ["2.1.99", "2.1.100"]  # none above yet
    add(tmp_path, "0.2.189", "2.1.332", result("tools.a"), result("wire.b"))  # wire.b: not on the axis
    add(tmp_path, "0.2.181", "2.1.323", result("tools.a", "differs"))  # another SDK's: not a column
    grid = load_dir(axis)
    assert [c.label for c in grid.columns] == [
        "0.2.189 (CLI 2.1.99, custom)",
        "0.2.189 (CLI 2.1.100, custom)",
        "0.2.189",
    ]  # by CLI release, not by file name: the bundled CLI is the newest
    assert [r.id for r in grid.rows] == ["tools.a"]
    assert grid.rows[0].change == "differs up to 0.2.189 (CLI 2.1.100, custom), holds from 0.2.189 on"
    assert "`../0.2.189.json`" in render_matrix(axis)[0].read_text()
    assert len(load_dir(tmp_path).columns) == 2  # the SDK folder itself: its own reports only


OLD, NEW = "wire.empty-lists-and-zero-send-no-flag", "wire.empty-and-zero-values-reach-cli"  # a declared rename


def test_an_old_reports_cells_land_in_the_renamed_behaviours_row(tmp_path, capsys):
    """A report written before a rename names the old id: its cell, and the history's entry
    for it, belong to the current id's row, not to a row of their own."""
    from sdkprobe.report.history import HISTORY_PATH, Entry, History, Side, Step
    from sdkprobe.report.history import write as write_history

    old = sample.report([result(OLD, claim="the old words")], info("0.2.5", "2.1.5"))
    new = sample.report([result(NEW, "differs")], info("0.2.10", "2.1.10"))
    step = Step(OLD, "0.2.5", "0.2.10", ("holds", "differs"))
    history = History(("0.2.5", "0.2.10"), (Entry(step, Side("0.2.7", "holds"), Side("0.2.8", "differs"), "scan", 4),))
    grid = from_reports([old, new], history, {OLD: NEW})
    [row] = grid.rows
    assert row.id == NEW and row.verdicts == ["holds", "differs"]
    assert row.change == "holds up to 0.2.7, differs from 0.2.8 on" and row.exact
    assert [r.id for r in from_reports([old, new], history).rows] == [NEW, OLD]  # what the map prevents
    # `sdkprobe report` takes the map from the catalogue
    for r in (old, new):
        write(r, tmp_path)
    write_history(history, tmp_path / HISTORY_PATH)
    assert cli_main(["report", str(tmp_path)]) == 0
    matrix = (tmp_path / "COMPATIBILITY.md").read_text()
    assert f"`{NEW}`" in matrix and f"`{OLD}`" not in matrix and "differs from 0.2.8 on" in matrix


def test_where_a_report_has_both_ids_the_current_ids_entry_is_kept():
    """A report merged across a rename may hold both: the entry under the current id is the
    newer run, so it wins, in the report and in the history alike."""
    from sdkprobe.report.history import Entry, History, Side, Step
    from sdkprobe.report.store import renamed

    both = sample.report([result(NEW, "differs"), result(OLD, "holds")], info("0.2.10", "2.1.10"))
    assert [(b["id"], b["verdict"]) for b in renamed(both, {OLD: NEW})["behaviours"]] == [(NEW, "differs")]
    entry = Entry(
        Step(OLD, "0.2.5", "0.2.10", ("holds", "differs")), Side("0.2.7", "holds"), Side("0.2.8", "x"), "scan", 1
    )
    current = dataclasses.replace(entry, step=dataclasses.replace(entry.step, id=NEW), probe_runs=2)
    history = History(("0.2.5", "0.2.10"), (entry, current)).renamed({OLD: NEW})
    assert history.entries == (current,)
    assert history.renamed({"wire.nothing-renamed": NEW}) is history


# --- claims beside verdicts -------------------------------------------------------------

LONG = (
    "The SDK forwards agent definitions as written, without checking them: an unknown field "
    "(allowedTools), a shape the types forbid and a typo all reach the CLI."
)


def test_a_short_claim_is_the_summary_or_the_claim_cut_at_a_word():
    assert short_claim({"claim": "Short and whole."}) == "Short and whole."
    assert short_claim({"claim": LONG, "summary": "Agent definitions reach the CLI unchecked."}) == (
        "Agent definitions reach the CLI unchecked."
    )
    cut = short_claim({"claim": LONG})
    assert len(cut) <= SHORT_CLAIM and cut.endswith("…") and LONG.startswith(cut[:-1])
    assert cut == "The SDK forwards agent definitions as written, without checking them: an unknown field…"
    assert short_claim({"claim": LONG, "summary": ""}) == cut  # an empty summary is none
    exact = "x" * (SHORT_CLAIM - 10) + " " + "y" * 9  # exactly SHORT_CLAIM: kept whole
    assert short_claim({"claim": exact}) == exact


def test_a_short_claim_never_ends_inside_a_code_span():
    claim = "A host answers it by allowing it with updated input holding `answers, keyed by the question text`."
    cut = short_claim({"claim": claim})
    assert cut.count("`") % 2 == 0 and cut == "A host answers it by allowing it with updated input holding…"
    assert short_claim({"claim": "`" + "a" * 120 + "`"}) == "a" * (SHORT_CLAIM - 1) + "…"


def test_rows_carry_the_newest_summary_and_every_page_shows_the_short_claim(tmp_path):
    old = sample.report([result("wire.a", claim=LONG)], info("0.2.9", "2.1.9"))
    new = sample.report([result("wire.a", claim=LONG)], info("0.2.10", "2.1.10"))
    new["behaviours"][0]["summary"] = "Agent definitions reach the CLI unchecked."  # not in the schema yet
    grid = from_reports([old, new])
    assert grid.rows[0].summary == "Agent definitions reach the CLI unchecked."
    assert short_claim(grid.rows[0]) == grid.rows[0].summary
    assert from_reports([old]).rows[0].summary == ""
    add(tmp_path, "0.2.9", "2.1.9", result("wire.a", claim=LONG))
    md = render_matrix(tmp_path)[0].read_text()
    assert table_rows(md, "wire")["wire.a"][-3] == md_cell(short_claim({"claim": LONG}))
    page = render_page(old)
    row = next(line for line in page.splitlines() if "`wire.a`" in line)
    short = md_cell(short_claim({"claim": LONG}))
    assert [c.strip() for c in row.split("|")[1:5]] == ["`wire.a`", "wire", "✅ holds", short]
    assert page.splitlines()[page.splitlines().index(row) - 2].split("|")[4].strip() == "claim"


def md_cell(text: str) -> str:
    from sdkprobe.report.cells import md

    return md(text)


def test_rows_carry_each_sub_check_with_its_newest_verdict_and_where_it_moved():
    reports = [
        sample.report([result("wire.a", checks={"x": "holds", "y": "holds"})], info("0.2.9", "2.1.9")),
        sample.report([result("wire.a", "differs", checks={"x": "holds", "y": "differs"})], info("0.2.10", "2.1.10")),
    ]
    row = from_reports(reports).rows[0]
    assert [(c.name, c.verdict, c.change) for c in row.checks] == [
        ("x", "holds", ""),
        ("y", "differs", "holds on 0.2.9, differs from 0.2.10 on"),
    ]


def test_footnotes_are_numbered_in_reading_order_newest_first():
    reports = [
        sample.report([result("wire.a", "differs", "old note")], info("0.2.9", "2.1.9")),
        sample.report([result("wire.a", "differs", "new note")], info("0.2.10", "2.1.10")),
    ]
    grid = from_reports(reports)
    assert [(n.number, n.text, n.versions) for n in grid.notes] == [
        (1, "new note", ["0.2.10"]),
        (2, "old note", ["0.2.9"]),
    ]
    assert grid.refs == {("wire.a", 1): 1, ("wire.a", 0): 2} and grid.newest_first() == [1, 0]


def test_a_security_marked_row_shows_the_mark_its_words_and_is_found_by_the_filter(tmp_path):
    marked = result("perms.deny", claim=LONG)
    marked["security"] = "a deny that stops being honoured runs the tool anyway"
    add(tmp_path, "0.2.9", "2.1.9", marked, result("wire.a"))
    md_path, html_path = render_matrix(tmp_path)
    md = md_path.read_text()
    assert ") 🔒 |" in next(line for line in md.splitlines() if line.startswith("| [`perms.deny`]("))
    assert "🔒" not in next(line for line in md.splitlines() if "[`wire.a`]" in line)
    assert "🔒 a contract a host's safety rests on" in md
    html = html_path.read_text()
    row = next(line for line in html.splitlines() if 'data-id="perms.deny"' in line)
    assert re.search(r'data-find="perms.deny [^"]* security"', row)
    assert 'aria-label="security: a deny that stops being honoured runs the tool anyway"' in row
    assert "Security: a deny that stops being honoured" in row
    plain = next(line for line in html.splitlines() if 'data-id="wire.a"' in line)
    assert "security" not in plain


def test_each_versions_surface_is_shown_with_what_it_adds_removes_and_the_cover(tmp_path):
    old = sample.report([result("wire.a")], info("0.2.9", "2.1.9"))
    mid = sample.report([result("wire.a")], info("0.2.10", "2.1.10"))
    new = sample.report([result("wire.a")], info("0.2.11", "2.1.11"))
    old["surface"] = ["option:gone", "option:tools"]
    new["surface"] = ["client:interrupt", "option:new", "option:tools"]  # 0.2.10 records none: skipped
    for rep in (old, mid, new):
        write(rep, tmp_path)
    coverage = {"option:tools": ["wire.a"], "client:interrupt": ["wire.a"]}
    steps = from_reports([old, mid, new]).surface_steps()
    assert [(s.label, s.items, s.since, s.added, s.removed) for s in steps] == [
        ("0.2.11", 3, "0.2.9", ("client:interrupt", "option:new"), ("option:gone",)),
        ("0.2.9", 2, None, (), ()),
    ]
    md_path, html_path = render_matrix(tmp_path, coverage=lambda sdk, items: coverage)
    rows = section(md_path.read_text(), "Public surface").strip().splitlines()[-2:]
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in rows]
    assert cells == [
        ["0.2.11", "3", "2 (66.7%)", "`client:interrupt`, `option:new` ✗", "`option:gone`"],
        ["0.2.9", "2", "1 (50.0%)", "", ""],
    ]
    html = html_path.read_text()
    assert '<details class="changes" id="surface">' in html and "<code>option:new</code> ✗" in html
    assert "<code>client:interrupt</code> ✗" not in html
    # without a catalogue's coverage: the sizes and the changes, nothing marked
    md = render_matrix(tmp_path)[0].read_text()
    table = section(md, "Public surface").split("\n\n")[-1]
    assert "| 0.2.11 " in table and "✗" not in table
