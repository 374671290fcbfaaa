"""`sdkprobe site`: the published site, built from the committed reports (a copy, with publish
times and a release note of the kind `sdkprobe update` writes).

Every link of every page resolves inside the site (a fragment to an id of its page); the
feed parses as Atom with the elements RFC 4287 requires, dated by notes/published.json alone; two
builds are the same bytes; bad input is one line and exit 2; and in chromium the index and a
behaviour page have no sideways scrolling at 1280 px and 390 px. The Pages workflow that
publishes it passes actionlint and asks for the least it needs.
"""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from chromium import in_frame, needs_chromium
from test_action import actionlint, described, load

from sdkprobe.commands import main
from sdkprobe.releases.versions import version_key
from sdkprobe.report import feed
from sdkprobe.report.html.markdown import to_html

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "reports"
REPOSITORY = "https://github.com/example/sdkprobe/blob/0123abc"
ATOM = "{http://www.w3.org/2005/Atom}"
# what a release note holds besides Markdown: raw HTML, which must stay text
NOTE = "# claude-agent-sdk 0.2.189\n\nWhat moved: `tools.x` holds → differs. <script>alert(1)</script>\n"


def versions(folder: Path) -> list[str]:
    return sorted((p.stem for p in folder.glob("*.json") if "+" not in p.stem), key=version_key)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    """The committed reports and histories, with a publish time for every release but the
    oldest Python one, and a note for the newest Python one."""
    out = tmp_path_factory.mktemp("data") / "reports"
    shutil.copytree(COMMITTED, out, ignore=shutil.ignore_patterns("*.html", "*.md", "behaviours", "notes"))
    for folder, day in ((out, 1), (out / "ts", 20)):
        times = {v: f"2026-11-{day + k:02d}T12:00:00+01:00" for k, v in enumerate(versions(folder))}
        if folder == out:
            del times[versions(folder)[0]]
        (folder / "notes").mkdir()
        (folder / "notes" / "published.json").write_text(json.dumps(times))
    (out / "notes" / f"{versions(out)[-1]}.md").write_text(NOTE)
    return out


def build(reports: Path, out: Path, capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["site", str(out), "--reports", str(reports), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def site(reports, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "_site"
    assert main(["site", str(out), "--reports", str(reports), "--repository", REPOSITORY]) == 0
    return out


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if name == "id" and value:
                self.ids.add(value)


def parsed(path: Path) -> Links:
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def broken_links(site: Path) -> tuple[list[str], int]:
    """Each link of the site that does not resolve inside it (as 'page: link'), and how many
    links were followed. Links out are https only; a fragment must be an id of its page."""
    pages = {p: parsed(p) for p in site.rglob("*.html")}
    feed_links = [e.get("href") or "" for e in ET.parse(site / feed.NAME).getroot().iter(f"{ATOM}link")]
    bad, followed = [], 0
    for page, links in [*((p, x.links) for p, x in pages.items()), (site / feed.NAME, feed_links)]:
        for link in links:
            if link.startswith("https://"):
                continue
            followed += 1
            parts = urlsplit(link)
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if parts.scheme or parts.netloc or link.startswith("/") or not target.is_relative_to(site.resolve()):
                bad.append(f"{page.relative_to(site)}: {link} (leaves the site)")
            elif not target.is_file():
                bad.append(f"{page.relative_to(site)}: {link} (no such page)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parsed(target).ids
                if unquote(parts.fragment) not in ids:
                    bad.append(f"{page.relative_to(site)}: {link} (no such id)")
    return bad, followed


def test_every_link_resolves_inside_the_site(site):
    bad, followed = broken_links(site)
    assert not bad, "\n".join(bad[:20])
    assert followed > 10_000  # the matrices' rows, footnotes, each behaviour's notes...


def test_a_broken_link_is_noticed(site, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(site, copy)
    index = copy / "index.html"
    index.write_text(
        index.read_text().replace(
            "</body>", '<a href="nowhere.html">x</a><a href="../x">y</a><a href="#no">z</a></body>'
        )
    )
    (copy / "behaviours" / sorted(p.name for p in (copy / "behaviours").iterdir())[0]).unlink()
    bad, _ = broken_links(copy)
    assert {b for b in bad if b.startswith("index.html")} == {
        "index.html: nowhere.html (no such page)",
        "index.html: ../x (leaves the site)",
        "index.html: #no (no such id)",
    }
    assert any("(no such page)" in b and "behaviours/" in b for b in bad if not b.startswith("index.html"))


def test_the_feed_is_atom_with_an_entry_per_dated_release(site, reports):
    root = ET.parse(site / feed.NAME).getroot()
    assert root.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated", "author"):
        assert root.find(f"{ATOM}{name}") is not None, name
    assert root.find(f"{ATOM}author/{ATOM}name").text
    entries = root.findall(f"{ATOM}entry")
    python, ts = versions(reports), versions(reports / "ts")
    assert len(entries) == len(python) - 1 + len(ts)  # the oldest Python release has no publish time
    rfc3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
    for e in entries:
        for name in ("id", "title", "updated"):
            assert (e.find(f"{ATOM}{name}").text or "").strip(), name
        assert rfc3339.fullmatch(e.find(f"{ATOM}updated").text)
        assert e.find(f"{ATOM}id").text.startswith("urn:uuid:")
        assert e.find(f"{ATOM}link[@rel='alternate']") is not None
    # dated by notes/published.json: the newest TypeScript release, 12:00 at +01:00, first
    newest = f"2026-11-{20 + len(ts) - 1:02d}T11:00:00Z"
    assert root.find(f"{ATOM}updated").text == entries[0].find(f"{ATOM}updated").text == newest
    assert entries[0].find(f"{ATOM}title").text == f"@anthropic-ai/claude-agent-sdk {ts[-1]}"
    assert len({e.find(f"{ATOM}id").text for e in entries}) == len(entries)
    titles = [e.find(f"{ATOM}title").text for e in entries]
    assert f"claude-agent-sdk {python[0]}" not in titles


def test_two_builds_are_the_same_bytes(site, reports, tmp_path):
    again = tmp_path / "again"
    assert main(["site", str(again), "--reports", str(reports), "--repository", REPOSITORY]) == 0
    first = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []


def test_the_index_names_both_sdks_and_their_newest_release(site, reports):
    text = (site / "index.html").read_text()
    python, ts = versions(reports)[-1], versions(reports / "ts")[-1]
    assert "claude-agent-sdk</code> (the Python SDK)" in text and "@anthropic-ai/claude-agent-sdk" in text
    assert f'href="releases/{python}.html"><strong>{python}</strong>' in text
    assert f'href="ts/releases/{ts}.html"><strong>{ts}</strong>' in text
    assert f"What moved in {python}" in text and f"What moved in {ts}" in text
    assert 'type="application/atom+xml"' in text  # a feed reader finds the feed from the index


def test_a_release_page_shows_its_note_or_what_moved_since_the_one_before(site, reports):
    python = versions(reports)
    noted = (site / "releases" / f"{python[-1]}.html").read_text()
    assert to_html(NOTE, 1) in noted
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in noted and "<script>" not in noted
    unnoted = (site / "releases" / f"{python[-2]}.html").read_text()
    assert f"No release note was recorded for {python[-2]}; from the reports:" in unnoted
    assert f"Compared with {python[-3]} (CLI " in unnoted  # the note `update` would write
    assert f"Upgrading from {python[-3]} to {python[-2]}" in unnoted
    oldest = (site / "releases" / f"{python[0]}.html").read_text()
    assert "publish time on PyPI not recorded" in oldest and "nothing to compare with" in oldest


def test_a_behaviour_page_joins_both_sdks(site, reports):
    both = json.loads((reports / f"{versions(reports)[-1]}.json").read_text())["behaviours"]
    ts = {
        b["id"] for b in json.loads((reports / "ts" / f"{versions(reports / 'ts')[-1]}.json").read_text())["behaviours"]
    }
    bid = next(b["id"] for b in both if b["id"] in ts)
    page = parsed(site / "behaviours" / f"{bid}.html")
    assert {"python", "typescript", "declaration"} <= page.ids
    newest = {b["id"]: b["verdict"] for b in both}[bid]
    assert (
        f'<li><a href="#python">claude-agent-sdk</a> {versions(reports)[-1]}: {newest}</li>'
        in (site / "behaviours" / f"{bid}.html").read_text()
    )
    lead = (site / "ts" / "behaviours" / f"{bid}.html").read_text()
    assert f'url=../../behaviours/{bid}.html#typescript"' in lead
    assert f"{REPOSITORY}/probes/catalogue/" in (site / "behaviours" / f"{bid}.html").read_text()


def test_a_site_is_replaced_whole_and_an_undated_release_named(site, reports, tmp_path, capsys):
    out = tmp_path / "out"
    shutil.copytree(site, out)
    (out / "behaviours" / "gone.html").write_text("a behaviour no report has any more")
    code, said, err = build(reports, out, capsys)
    assert code == 0 and f"wrote {out}/" in said
    assert not (out / "behaviours" / "gone.html").exists()
    assert err == (
        f"sdkprobe site: no publish time in notes/published.json for claude-agent-sdk {versions(reports)[0]}: "
        "not in the feed\n"
    )


@pytest.mark.parametrize("case", ["out-is-a-file", "out-holds-other-files", "no-report", "bad-released", "bad-url"])
def test_bad_input_is_one_line_and_exit_2(case, reports, tmp_path, capsys):
    out, data, extra = tmp_path / "out", reports, []
    if case == "out-is-a-file":
        out.write_text("mine")
    elif case == "out-holds-other-files":
        out.mkdir()
        (out / "notes.txt").write_text("mine")
    elif case == "no-report":
        data = tmp_path / "empty"
        data.mkdir()
    elif case == "bad-released":
        data = tmp_path / "reports"
        shutil.copytree(reports, data)
        (data / "notes" / "published.json").write_text(json.dumps({"0.2.189": "yesterday"}))
    else:
        extra = ["--repository", "javascript:alert(1)"]
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and p.is_relative_to(out)}
    code, said, err = build(data, out, capsys, *extra)
    assert code == 2 and said == ""
    assert err.startswith("sdkprobe site: error: ") and err.count("\n") == 1, err
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file() and p.is_relative_to(out)} == before


def test_markdown_headings_move_down_and_tables_scroll():
    text = to_html("# A\n\n###### B\n\n| x |\n|---|\n| <b>1</b> |\n", 1)
    assert "<h2>A</h2>" in text and "<h6>B</h6>" in text
    assert '<div class="scroll"><table>' in text and "</table>\n</div>" in text
    assert "&lt;b&gt;1&lt;/b&gt;" in text


# --- in a browser -----------------------------------------------------------------------

LAYOUT = """
    var root = d.documentElement;
    out.page = [root.scrollWidth, root.clientWidth];
    out.wide = Array.prototype.filter.call(d.querySelectorAll('body *'), function (e) {
      return e.getBoundingClientRect().right > root.clientWidth + 1 && !e.closest('.scroll');
    }).slice(0, 5).map(function (e) { return e.tagName + '.' + e.className; });
    out.h1 = d.querySelector('h1').getBoundingClientRect().top < w.innerHeight;
    out.nav = Array.prototype.every.call(d.querySelectorAll('nav.site a'), function (a) {
      var b = a.getBoundingClientRect(); return b.width > 0 && b.right <= root.clientWidth;
    });
"""


@needs_chromium
@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
@pytest.mark.parametrize(
    "page",
    [
        "index.html",
        "behaviours/tools.disallowed-removes-builtin-not-mcp.html",
        f"releases/{versions(COMMITTED)[-1]}.html",
    ],
)
def test_pages_are_usable_at_laptop_and_phone_width(site, page, width, height, tmp_path):
    out = in_frame(tmp_path, site / page, width, height, LAYOUT)
    assert out["page"][0] <= out["page"][1], f"{page} scrolls sideways at {width} px: {out}"
    assert out["wide"] == [] and out["h1"] and out["nav"], out


@needs_chromium
def test_the_layout_check_notices_a_page_wider_than_the_screen(tmp_path):
    page = tmp_path / "wide.html"
    page.write_text(
        '<!DOCTYPE html><meta name="viewport" content="width=device-width, initial-scale=1">'
        '<nav class="site"><a href="a.html">a</a></nav><h1>wide</h1><div style="width:2000px">x</div>'
    )
    out = in_frame(tmp_path, page, 390, 844, LAYOUT)
    assert out["page"][0] > out["page"][1] and out["wide"] == ["DIV."]


# --- the Pages workflow ------------------------------------------------------------------

PAGES = ROOT / ".github" / "workflows" / "pages.yml"


def test_the_pages_workflow_has_no_findings_and_least_permissions():
    findings = actionlint(PAGES)
    assert not findings, described(findings)
    text = PAGES.read_text()
    branches = "  push:\n    branches:\n      - main\n"  # the reader below takes no list of scalars
    assert branches in text
    flow = load(text.replace(branches, "  push:\n"))
    assert {k: v.value for k, v in flow["permissions"].children.items()} == {"contents": "read"}
    jobs = flow["jobs"].children
    assert "permissions" not in jobs["build"].children
    assert {k: v.value for k, v in jobs["deploy"]["permissions"].children.items()} == {
        "pages": "write",
        "id-token": "write",
    }
    uses = [s["uses"].value for job in jobs.values() for s in job["steps"].items if "uses" in s.children]
    assert all(re.fullmatch(r"actions/[\w-]+@v\d+", u) for u in uses), uses
    runs = "\n".join(s["run"].value for s in jobs["build"]["steps"].items if "run" in s.children)
    assert "sdkprobe site _site" in runs
