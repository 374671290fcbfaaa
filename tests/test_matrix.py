"""The compatibility matrix: columns in version order, footnotes where a behaviour does
not hold, blanks where a version lacks a behaviour, and clear errors on bad folders."""

from __future__ import annotations

import json
import re

import pytest
from sample_reports import info, result

from probes.cli import main as cli_main
from probes.report import ReportError, build, render_matrix, write


def add(dir_, sdk, cli, *results, custom=False):
    write(build(list(results), info(sdk, cli, custom=custom)), dir_)


@pytest.fixture
def reports(tmp_path):
    add(
        tmp_path,
        "0.2.10",
        "2.1.10",
        result("wire.tools", "differs", "sent --tools a|b"),
        result("hooks.fire"),
        result("mcp.new", "not-applicable", "no Python analogue"),
    )
    add(
        tmp_path,
        "0.2.9",
        "2.1.9",
        result("wire.tools"),
        result("hooks.fire"),
        result("hooks.gone", "error", "probe broke"),
    )
    add(
        tmp_path,
        "0.2.100",
        None,
        result("wire.tools", "differs", "sent --tools a|b"),
        result("hooks.fire", "needs-live", "needs --live"),
        custom=True,
    )
    return tmp_path


def table_rows(md: str, area: str) -> dict[str, list[str]]:
    section = md.split(f"## {area}\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.strip().splitlines()[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        link = re.fullmatch(r"\[`(.+)`\]\(\.\./probes/catalogue/(\w+)\.py\)", cells[0])
        assert link and link.group(1).startswith(link.group(2) + "."), cells[0]  # links to its declaration
        rows[link.group(1)] = cells[1:]
    return rows


def test_columns_sorted_by_version_with_their_cli(reports):
    md_path, html_path = render_matrix(reports)
    assert (md_path.name, html_path.name) == ("COMPATIBILITY.md", "compatibility.html")
    md = md_path.read_text()
    header = next(line for line in md.splitlines() if line.startswith("| behaviour"))
    assert [c.strip() for c in header.split("|")[3:-1]] == [
        "0.2.9 (CLI 2.1.9)",
        "0.2.10 (CLI 2.1.10)",
        "0.2.100 (CLI ?, custom)",
    ]


def test_rows_grouped_by_area_cells_symbols_and_blanks(reports):
    md = render_matrix(reports)[0].read_text()
    assert md.index("## hooks") < md.index("## mcp") < md.index("## wire")
    hooks = table_rows(md, "hooks")
    assert hooks["hooks.fire"] == ["003 § Quick answer", "✅", "✅", "🔑"]
    assert hooks["hooks.gone"][1].startswith("💥[^") and hooks["hooks.gone"][2:] == ["—", "—"]
    mcp = table_rows(md, "mcp")["mcp.new"]
    assert mcp[1] == "—" and mcp[2].startswith("➖[^") and mcp[3] == "—"
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
    assert cells[1] == "✅"
    ref10, ref100 = (re.fullmatch(r"❌\[\^(\d+)\]", c).group(1) for c in cells[2:])
    assert ref10 == ref100  # the same note on two versions shares one footnote
    note = re.search(rf"^\[\^{ref10}\]: (.*)$", md, re.MULTILINE).group(1)
    assert note == "`wire.tools` on 0.2.10, 0.2.100 (CLI ?, custom): sent --tools a\\|b"


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
    (tmp_path / "0.2.8.json").write_text(json.dumps({"schema": 1, "sdk_version": "0.2.8"}))
    with pytest.raises(ReportError) as exc:
        render_matrix(tmp_path)
    assert "0.2.8.json: schema mismatch" in str(exc.value) and "\n" not in str(exc.value)


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
