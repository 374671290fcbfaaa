"""One behaviour's story (`sdkprobe show`, behaviours/<id>.html) and what moved between two
reports (`sdkprobe report --from A --to B`): the claim, every version's verdict, the
change with the exact releases the history found, only what moved, and clear errors."""

from __future__ import annotations

import dataclasses
import re
from html import unescape
from pathlib import Path

import pytest
import sample_reports as sample
from sample_reports import info, result

from sdkprobe import catalogue
from sdkprobe.commands import main
from sdkprobe.report import history as hist
from sdkprobe.report import render_matrix, write
from sdkprobe.report.cells import declaration
from sdkprobe.report.declared import find
from sdkprobe.report.grid import load_dir
from sdkprobe.report.html.story import render_html
from sdkprobe.report.story import render_text, story

NAMING = "tools.mcp-tool-naming"  # a behaviour the catalogue declares, so its declaration is found
CLAIM = "A tool of an MCP server is named mcp__<server>__<tool> & so on, in every place a host sees it."
ROOT = Path(__file__).resolve().parent.parent
# The module declaring NAMING, wherever the catalogue keeps it: its probe's file, as the registry has it.
TOOLS = Path(catalogue.by_id(NAMING).probe.__code__.co_filename).resolve()
MODULE = TOOLS.relative_to(ROOT).as_posix()  # probes/catalogue/<area>/<module>.py


def _naming(verdict, checks, note=""):
    return result(NAMING, verdict, note, checks, tier="cli", claim=CLAIM, source=sample.ISSUE)


@pytest.fixture
def reports(tmp_path):
    """0.2.5 and 0.2.9: the naming moved (its history narrows it to 0.2.6/0.2.7), a sub-check of
    hooks.sub moved under an unchanged verdict, wire.steady did not move, hooks.gone is only in
    0.2.5 and mcp.new only in 0.2.9."""
    write(
        sample.report(
            [
                _naming("holds", {"in-process": "holds", "stdio": "holds"}),
                result("wire.steady", "differs", "sent <b>x</b>", {"flag": "differs"}),
                result("hooks.sub", "differs", "x broke", {"x": "differs", "y": "holds"}),
                result("hooks.gone"),
            ],
            info("0.2.5", "2.1.5"),
        ),
        tmp_path,
    )
    write(
        sample.report(
            [
                _naming("differs", {"in-process": "holds", "stdio": "differs"}, "stdio tool <missing> & unnamed"),
                result("wire.steady", "differs", "sent <b>x</b>", {"flag": "differs"}),
                result("hooks.sub", "differs", "y broke", {"x": "holds", "y": "differs"}),
                result("mcp.new"),
            ],
            info("0.2.9", "2.1.9"),
        ),
        tmp_path,
    )
    step = hist.Step(NAMING, "0.2.5", "0.2.9", ("holds", "differs"))
    entry = hist.Entry(step, hist.Side("0.2.6", "holds"), hist.Side("0.2.7", "differs"), "bisect", 2)
    hist.write(hist.History(("0.2.5", "0.2.9"), (entry,)), tmp_path / hist.HISTORY_PATH)
    return tmp_path


def _flat(text: str) -> str:
    return " ".join(text.split())


def declared_line() -> int:
    """The line of the `@behaviour(` whose block names NAMING, read off the module's text."""
    lines = TOOLS.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == f'id="{NAMING}",')
    return next(i for i in range(at, -1, -1) if lines[i].startswith("@behaviour(")) + 1


# --- show ----------------------------------------------------------------------------


def test_show_tells_the_claim_every_versions_verdict_and_the_change_with_its_exact_releases(reports, capsys):
    assert main(["show", NAMING, "--reports", str(reports)]) == 0
    out = capsys.readouterr().out
    flat = _flat(out)
    assert CLAIM in flat  # whole, however it is wrapped
    assert "py#362 — claude-agent-sdk-python issue #362" in flat and sample.ISSUE_URL in out
    assert "sub-checks: in-process, stdio" in flat
    assert f"declared: {MODULE}:{declared_line()}" in flat
    rows = {line.split()[0]: line.split() for line in out.splitlines() if re.match(r"0\.2\.\d", line)}
    assert rows["0.2.5"][:5] == ["0.2.5", "CLI", "2.1.5", "holds", "all"]
    assert rows["0.2.9"][:5] == ["0.2.9", "CLI", "2.1.9", "differs", "differs:"] and rows["0.2.9"][-1] == "[1]"
    assert "[1] on 0.2.9: stdio tool <missing> & unnamed" in flat
    assert "What moved: verdict: holds up to 0.2.6, differs from 0.2.7 on" in flat  # the history's releases


def test_a_source_without_a_url_links_to_its_page_in_the_project(reports):
    grid = load_dir(reports)
    s = story(grid, next(r for r in grid.rows if r.id == NAMING))
    assert s.link == sample.ISSUE_URL
    assert f"\n            {sample.ISSUE_URL}\n" in render_text(s)  # under the source, as its second line
    doc = dataclasses.replace(s, source={**sample.DOC, "page": "docs/sources/003.md"})
    assert doc.link == "docs/sources/003.md#quick-answer" and "docs/sources/003.md#quick-answer" in render_text(doc)
    assert '<a href="../../docs/sources/003.md#quick-answer">docs/sources/003.md#quick-answer</a>' in render_html(
        doc, "../.."
    )
    odd = dataclasses.replace(s, source={**sample.DOC, "page": "javascript:alert(1)"})
    assert odd.link is None and "javascript" not in render_html(odd, "..")


def test_show_of_a_behaviour_that_never_moved_says_so(reports, capsys):
    assert main(["show", "wire.steady", "--reports", str(reports)]) == 0
    out = _flat(capsys.readouterr().out)
    assert "Nothing moved across these 2 versions." in out
    assert "declared: in no module of the catalogues loaded" in out  # no module declares this sample id


def test_an_unknown_id_exits_2_with_one_line_naming_the_close_ones(reports, capsys):
    assert main(["show", "tools.mcp-tool-namin", "--reports", str(reports)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("sdkprobe show: error: no behaviour tools.mcp-tool-namin") and NAMING in err


def test_show_of_a_folder_without_reports_exits_2(tmp_path, capsys):
    assert main(["show", NAMING, "--reports", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# --- the page --------------------------------------------------------------------------


def test_each_behaviour_has_a_page_with_its_story_and_its_declarations_text_anchored_by_line(reports):
    render_matrix(reports)
    folder = reports / "behaviours"
    assert sorted(p.name for p in folder.iterdir()) == [
        f"{i}.html" for i in sorted(["hooks.gone", "hooks.sub", "mcp.new", NAMING, "wire.steady"])
    ]
    page = (folder / f"{NAMING}.html").read_text()
    assert not re.search(r"<link|@import|url\(|\bsrc=", page)  # self-contained
    assert "mcp__&lt;server&gt;__&lt;tool&gt; &amp; so on" in page and "<server>" not in page
    assert "holds up to 0.2.6, differs from 0.2.7 on" in page
    # the declaration's text, each line under its own anchor, from the line of its @behaviour(
    first = declared_line()
    block = find(NAMING).lines
    lines = TOOLS.read_text(encoding="utf-8").splitlines()
    assert list(block) == lines[first - 1 : first - 1 + len(block)] and len(block) > 5
    for n, text in enumerate(block, start=first):
        anchor = re.search(rf'<span class="line" id="L{n}"><a class="ln" href="#L{n}">{n}</a>(.*?)</span>', page)
        assert anchor and unescape(anchor.group(1)) == text, n
    assert f'href="#L{first}">{MODULE}:{first}</a>' in page


def test_the_page_and_the_terminal_tell_the_same_story(reports):
    grid = load_dir(reports)
    s = story(grid, next(r for r in grid.rows if r.id == "hooks.sub"))
    text, page = _flat(render_text(s)), unescape(render_html(s, ".."))
    for seen in s.seen:
        assert seen.verdict in text and seen.verdict in page
        assert seen.checks_words() in text and seen.checks_words() in page
    assert [n.text for n in s.notes] == ["x broke", "y broke"]
    assert all(n.text in text and n.text in page for n in s.notes)


def test_the_pages_folder_is_replaced_as_a_whole(reports):
    stale = reports / "behaviours" / "hooks.long-gone.html"
    stale.parent.mkdir()
    stale.write_text("old")
    render_matrix(reports)
    assert not stale.exists() and (reports / "behaviours" / f"{NAMING}.html").exists()
    assert not [p for p in reports.iterdir() if p.name.startswith(".")]  # nothing left beside it


def test_a_pages_folder_that_is_a_file_writes_nothing(reports, capsys):
    (reports / "behaviours").write_text("in the way")
    assert main(["report", str(reports)]) == 2
    assert "behaviours" in capsys.readouterr().err
    assert not (reports / "COMPATIBILITY.md").exists() and not (reports / "compatibility.html").exists()


# --- the declaration's line ---------------------------------------------------------------


def test_a_declaration_link_carries_the_line_of_its_behaviour():
    assert declaration(NAMING) == f"../{MODULE}#L{declared_line()}"
    assert TOOLS.read_text(encoding="utf-8").splitlines()[declared_line() - 1] == "@behaviour("


def test_a_declarations_block_ends_before_the_next_ones_lead_in():
    for b in catalogue.load():
        block = find(b.id).lines
        assert block[0] == "@behaviour(" and not any(line.startswith("@behaviour(") for line in block[1:]), b.id
        assert block[-1].strip() and not block[-1].startswith("#"), b.id
        # the whole block: the probe, its decision and its counterexamples
        assert any(line.startswith(f"@{b.probe.__name__}.decide") for line in block), b.id
        assert not b.counterexamples or any(line.startswith(f"{b.probe.__name__}.differs_on(") for line in block)


MOVED = """
from sdkprobe.behaviour import behaviour, check


# --- a section's lead-in, which belongs to the next block

@behaviour(
    id="tools.toy-moved",
    claim="A behaviour in a module of an area's package is found where it is.",
    source=("003", "s"),
    tier="wire",
    checks=("it",),
)
async def toy_moved(h):
    return {}


@toy_moved.decide
def _(seen):
    return {"it": check(True, "")}

# the next one's lead-in

@behaviour(
    id="tools.toy-next",
    claim="Another behaviour, declared after it in the same module.",
    source=("003", "s"),
    tier="wire",
    checks=("it",),
)
async def toy_next(h):
    return {}
"""


def test_a_declaration_is_found_by_its_probes_file_and_line_wherever_its_module_is(tmp_path, monkeypatch):
    """The link follows the module: one in an area's package (probes/catalogue/tools/moved.py)
    is found there, at its line, with no path in the code saying where modules are."""
    import importlib.util
    import sys

    from sdkprobe import behaviour as declaring
    from sdkprobe.report import declared

    module = tmp_path / "probes" / "catalogue" / "tools" / "moved.py"
    module.parent.mkdir(parents=True)
    module.write_text(MOVED, encoding="utf-8")
    declared.find(NAMING)  # the selected catalogues imported, before the registry is set aside
    monkeypatch.setattr(declared, "PROJECT", tmp_path)
    monkeypatch.setattr(declaring, "REGISTRY", {})
    spec = importlib.util.spec_from_file_location("toy_moved", module)
    loaded = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "toy_moved", loaded)
    spec.loader.exec_module(loaded)
    found = declared.find("tools.toy-moved")
    first = MOVED.splitlines().index("@behaviour(") + 1  # the file's lines are MOVED's
    assert (found.where, found.lines[0], found.lines[-1]) == (
        f"probes/catalogue/tools/moved.py:{first}",
        "@behaviour(",
        '    return {"it": check(True, "")}',
    )
    assert declaration("tools.toy-moved") == f"../probes/catalogue/tools/moved.py#L{first}"
    assert declared.find("tools.toy-next").lines[-1] == "    return {}"
    assert declared.find("tools.no-such-behaviour") is None
    monkeypatch.setattr(declared, "PROJECT", tmp_path / "elsewhere")
    monkeypatch.chdir(tmp_path / "probes")
    team = declared.find("tools.toy-moved")  # a team's module, outside the project: found, named from the cwd
    assert team is not None and not team.in_project and team.where == f"catalogue/tools/moved.py:{first}"


# --- report --from/--to -------------------------------------------------------------------


def _items(md: str) -> list[str]:
    """The ids of the top-level list items, in order."""
    return re.findall(r"^- `([^`]+)`", md, re.MULTILINE)


def _upgrade(reports, capsys, a="0.2.5", b="0.2.9"):
    assert main(["report", str(reports), "--from", a, "--to", b]) == 0
    return capsys.readouterr().out


def test_upgrade_lists_exactly_what_moved_as_a_release_note(reports, capsys):
    out = _upgrade(reports, capsys)
    assert out.startswith("# Upgrading from 0.2.5 to 0.2.9\n")
    moved = out.split("## What moved", 1)[1].split("\n## ", 1)[0]
    assert _items(moved) == [NAMING, "hooks.sub"]  # in area order (tools before hooks); wire.steady did not move
    naming = moved[moved.index(f"- `{NAMING}`") :]
    assert naming.startswith(f"- `{NAMING}`: ✅ holds on 0.2.5 → ❌ differs on 0.2.9. A tool of an MCP server")
    assert "  - sub-checks moved: stdio holds → differs\n" in naming
    assert "  - changed: holds up to 0.2.6, differs from 0.2.7 on\n" in naming  # the history's exact releases
    assert "  - seen on 0.2.9: stdio tool &lt;missing&gt; &amp; unnamed\n" in naming
    new = out.split("## New in 0.2.9", 1)[1].split("\n## ", 1)[0]
    gone = out.split("## Gone in 0.2.9 (only in 0.2.5)", 1)[1]
    assert _items(new) == ["mcp.new"] and _items(gone) == ["hooks.gone"]
    assert "wire.steady" not in out


def test_upgrade_lists_a_move_of_sub_checks_alone(reports, capsys):
    out = _upgrade(reports, capsys)
    sub = out[out.index("- `hooks.sub`") :].split("\n- ", 1)[0]
    assert "❌ differs on 0.2.5 → ❌ differs on 0.2.9" in sub
    assert "  - sub-checks moved: x differs → holds; y holds → differs" in sub
    assert "seen on 0.2.9: y broke" in sub and "seen on 0.2.5: x broke" in sub
    assert "changed:" not in sub  # two neighbouring columns and no history for it: nothing to add


def test_upgrade_between_reports_that_agree_says_nothing_moved(tmp_path, capsys):
    for version in ("0.2.5", "0.2.9"):
        write(sample.report([result("wire.a"), result("hooks.b", "differs")], info(version)), tmp_path)
    out = _upgrade(tmp_path, capsys)
    assert out == "# Upgrading from 0.2.5 to 0.2.9\n\nNothing moved between 0.2.5 and 0.2.9.\n"


def test_upgrade_to_a_file(reports, tmp_path, capsys):
    out = tmp_path / "notes" / "upgrade.md"
    assert main(["report", str(reports), "--from", "0.2.5", "--to", "0.2.9", "--out", str(out)]) == 0
    assert capsys.readouterr().out == "" and _items(out.read_text())[:2] == [NAMING, "hooks.sub"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--from", "0.2.6", "--to", "0.2.9"], "no report of 0.2.6 in {dir}; it has 0.2.5, 0.2.9"),
        (["--from", "0.2.5"], "--from and --to go together"),
        (["--out", "x.md"], "--out writes what --from/--to print"),
    ],
)
def test_upgrade_bad_input_exits_2_with_one_line(reports, capsys, args, message):
    assert main(["report", str(reports), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message.format(dir=reports) in err
    assert not (reports / "COMPATIBILITY.md").exists()  # nothing written


def test_the_matrix_opens_with_the_upgrade_to_the_newest_version(reports, capsys):
    md = render_matrix(reports)[0].read_text()
    closing = md[md.index("\n## Upgrading from 0.2.5 to 0.2.9\n") : md.index("\n## Changed across")]
    assert closing.strip() == _upgrade(reports, capsys).replace("\n#", "\n##").replace("# ", "## ", 1).strip()


def test_a_renamed_behaviours_story_names_its_old_id_and_its_claim_in_short(tmp_path, capsys):
    """A report written before a rename, shown under the old id: the current id's story,
    saying which id it had (a relied-on list may still use it) and its claim in one line."""
    old, new = "wire.empty-lists-and-zero-send-no-flag", "wire.empty-and-zero-values-reach-cli"
    entry = result(old, "differs", "no flag", claim="the old words of the claim, long enough")
    entry["summary"] = "An explicit empty or zero option value reaches the CLI"
    write(sample.report([entry], info("0.2.9", "2.1.9")), tmp_path)
    assert main(["show", old, "--reports", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert f"{old} was renamed {new}" in err
    assert out.startswith(
        f"{new}\n\nin short:   An explicit empty or zero option value reaches the CLI\nformerly:   {old}\n"
    )
    grid = load_dir(tmp_path, catalogue.renames())
    page = unescape(render_html(story(grid, grid.rows[0]), ".."))
    assert f"<dt>formerly</dt><dd>{old}</dd>" in page and "<dt>in short</dt>" in page
    assert story(load_dir(tmp_path), load_dir(tmp_path).rows[0]).formerly == ()  # without the map: itself
