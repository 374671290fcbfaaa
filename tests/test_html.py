"""The HTML matrix: self-contained, escaped, newest version first, each row with its
short claim and its id linked to its page, what changed folded under the filter, and, in
a real browser, filtering (also to "only rows that change"), 110 rows of fifteen versions
on a phone and a laptop with the claims folded away, and the committed matrix showing its
two newest versions and its filter on the first screen of both.

The browser tests need Debian's chromium (apt-get install -y chromium
fonts-noto-color-emoji); without it they skip and say so. Chromium's headless window is
never narrower than 500 px, so phone-width checks load the page in a 360 px iframe and
read the layout from there when it has loaded (no sleeps).
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest
import sample_reports as sample
from chromium import browser, in_frame, needs_chromium

from sdkprobe.areas import AREAS
from sdkprobe.report import render_matrix, write

# Fifteen versions (as many as are listed) and 110 rows (more than the catalogue holds), so
# the phone and laptop checks below bound what the real matrix needs.
VERSIONS = ["0.1.19", "0.1.33", "0.1.58", "0.1.81", "0.2.82", "0.2.141", "0.2.160", "0.2.180", "0.2.181", "0.2.189"]
VERSIONS += ["0.2.190", "0.2.191", "0.2.192", "0.2.193", "0.2.194"]
ROWS = 110
H, D, NA, NL, E = "holds", "differs", "not-applicable", "needs-live", "error"


def _plan() -> dict[str, list[str | None]]:
    """110 behaviours over the twelve areas, each with its verdict per version (None: not
    in that version's report). Most hold everywhere; the few below do something else, over
    the first ten versions, and keep their last verdict on the five after."""
    ids = [f"{AREAS[i % len(AREAS)].name}.probe-{i:02d}{'-with-a-long-name' * (i % 3)}" for i in range(ROWS)]
    plan: dict[str, list[str | None]] = {bid: [H] * len(VERSIONS) for bid in ids}
    special: dict[int, list[str | None]] = {
        # rows that change
        3: [H] * 4 + [D] * 6,
        10: [H, H, E] + [H] * 7,  # a change and a change back
        17: [NA] * 3 + [D] * 7,
        25: [None, None] + [H] * 5 + [D] * 3,  # absent on the oldest
        40: [H] * 5 + [None] + [H, H, D, D],  # absent in the middle
        51: [D, D, H, H, H, H, H, H, H, None],  # fixed, then not probed any more
        66: [NL] * 5 + [H] * 5,
        # rows that do not change, however odd they look
        30: [None] * 5 + [H] * 5,
        31: [NL] * 10,
        32: [D] * 10,
        33: [H, None, H, None, H, None, H, None, H, None],
    }
    for i, verdicts in special.items():
        plan[ids[i]] = verdicts + verdicts[-1:] * (len(VERSIONS) - len(verdicts))
    return plan


PLAN = _plan()
CHANGING = [ids for ids in PLAN if len({v for v in PLAN[ids] if v}) > 1]
LINKED = {bid for i, bid in enumerate(PLAN) if i % 5 == 0}  # these cite an upstream issue


def order(ids) -> list[str]:
    """Ids in the page's order: by declared area, then id."""
    names = [a.name for a in AREAS]
    return sorted(ids, key=lambda b: (names.index(b.split(".")[0]), b))


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("matrix")
    for n, version in enumerate(VERSIONS):
        results = [
            sample.result(
                bid,
                verdicts[n],
                "sent <TMP> & a|b" if verdicts[n] == D else "",
                claim=f"claim of {bid} <b>bold</b>",
                source=sample.ISSUE if bid in LINKED else sample.DOC,
            )
            for bid, verdicts in PLAN.items()
            if verdicts[n] is not None
        ]
        write(sample.report(results, sample.info(version, f"2.1.{n}")), out)
    return render_matrix(out)[1]


def test_the_sample_has_what_the_tests_need():
    assert len(PLAN) == ROWS and len(VERSIONS) == 15 and len(CHANGING) == 7


def test_page_is_self_contained_and_escaped(page):
    text = page.read_text()
    # no external assets; links go in-page, to a declaration, to the project's page on a
    # source, or to an upstream source
    assert not re.search(r"<link|@import|url\(|\bsrc=", text)
    hrefs = set(re.findall(r'href="([^"]*)"', text))
    assert hrefs <= {sample.ISSUE_URL} | {
        h
        for h in hrefs
        if re.fullmatch(
            r"#[\w.-]+|\.\./probes/catalogue/\w+/(\w+\.py)?|\.\./docs/sources/\w+\.md(#[\w-]+)?"
            r"|behaviours/[\w.-]+\.html",
            h,
        )
    }
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
    assert "&lt;b&gt;bold&lt;/b&gt;" in text and "<b>bold" not in text
    assert "sent &lt;TMP&gt; &amp; a|b" in text
    assert text.count('class="behaviour-row"') == ROWS
    assert "`" not in text  # no Markdown-ish backticks reach the reader


def test_each_row_links_its_id_to_its_own_page(page):
    text = page.read_text()
    for bid in PLAN:
        row = re.search(rf'<tr [^>]*id="row-{re.escape(bid)}">.*?</tr>', text).group(0)
        assert f'<a class="id" href="behaviours/{bid}.html"><code>{bid}</code></a>' in row


def test_versions_run_newest_first_in_the_header_and_in_every_row(page):
    text = page.read_text()
    header = re.findall(r'<th class="v" scope="col" title="([^,"]+),', text)
    assert header == VERSIONS[::-1]
    ids = list(PLAN)
    row3 = re.search(rf'<tr [^>]*id="row-{re.escape(ids[3])}">.*?</tr>', text).group(0)
    # holds on the four oldest, differs on the rest: differs first now
    assert re.findall(r'data-verdict="(\w+)"', row3) == [D] * 11 + [H] * 4


def test_each_row_shows_its_short_claim_and_folds_the_rest(page):
    text = page.read_text()
    ids = list(PLAN)
    row = re.search(rf'<tr [^>]*id="row-{re.escape(ids[3])}">.*?</tr>', text).group(0)
    claim = html.escape(f"claim of {ids[3]} <b>bold</b>")
    assert f'<summary class="short">{claim}</summary>' in row
    more = re.search(r'<div class="more">(.*?)</div>', row).group(1)
    assert f'<p class="claim">{claim}</p>' in more
    assert "declaration</a>" in more
    # the row's notes, linked to the page's list, with the versions they are on
    note = re.search(r'<ul class="row-notes"><li><a href="#note-(\d+)">\d+</a> differs on ([^:]+): (.*?)</li>', more)
    assert note and note.group(2) == ", ".join(VERSIONS[4:]) and note.group(3) == "sent &lt;TMP&gt; &amp; a|b"
    assert f'<li id="note-{note.group(1)}" value="{note.group(1)}"><code>{ids[3]}</code>' in text


def test_page_opens_with_what_changed(page):
    text = page.read_text()
    heading = f'<h2 id="changes">Changed across these {len(VERSIONS)} versions</h2>'
    # folded, with its count, under the filter (it used to open the page, pushing the filter
    # below fifty lines) and above the table
    assert text.index('id="q"') < text.index(heading) < text.index("<table")
    assert f'<details class="changes"><summary>{heading} <span class="count">(7 behaviours)</span></summary>' in text
    listed = re.findall(
        r'<li><a href="#row-([^"]+)"><code>[^<]+</code></a> .*?: <span class="change">([^<]*)</span>', text
    )
    assert [bid for bid, _ in listed] == order(CHANGING)
    words = dict(listed)
    ids = list(PLAN)
    assert words[ids[3]] == "holds up to 0.1.81, differs from 0.2.82 on"
    assert words[ids[10]] == "holds on 0.1.19–0.1.33, error on 0.1.58, holds from 0.1.81 on"
    assert words[ids[25]] == "holds on 0.1.58–0.2.160, differs from 0.2.180 on"
    assert words[ids[40]] == "holds up to 0.2.180, differs from 0.2.181 on"
    assert words[ids[51]] == "differs up to 0.1.33, holds on 0.1.58–0.2.181"
    # each listed id links to a row that exists and carries the same words
    for bid, change in listed:
        row = re.search(rf'<tr [^>]*id="row-{re.escape(bid)}">.*?</tr>', text).group(0)
        assert f'<span class="change">{html.escape(change)}</span>' in row
    # rows that never change say nothing extra
    row30 = re.search(rf'<tr [^>]*id="row-{re.escape(ids[30])}">.*?</tr>', text).group(0)
    assert 'class="change"' not in row30 and 'data-changed="0"' in row30


def test_page_says_first_what_moved_between_the_two_newest_versions():
    """The upgrade an upgrader came for, unfolded above the list of changes: exactly the
    rows whose verdict differs between the two newest columns, each with both verdicts."""
    from sdkprobe.report.grid import from_reports
    from sdkprobe.report.html.matrix import render_html

    def report(version, verdicts):
        return sample.report(
            [sample.result(bid, verdict) for bid, verdict in verdicts.items()], sample.info(version, "2.1.9")
        )

    oldest = report("0.2.8", {"wire.a": "differs", "wire.b": "holds", "wire.c": "holds"})
    older = report("0.2.9", {"wire.a": "holds", "wire.b": "holds", "wire.c": "holds"})
    newest = report("0.2.10", {"wire.a": "holds", "wire.b": "differs", "wire.c": "holds"})
    text = render_html(from_reports([oldest, older, newest]))
    heading = '<h2 id="upgrade">Upgrading from 0.2.9 to 0.2.10</h2>'
    assert text.index('id="q"') < text.index(heading) < text.index('id="changes"') < text.index("<table")
    section = text[text.index(heading) : text.index("</details>", text.index(heading))]
    assert re.findall(r'<li><a href="#row-([^"]+)">', section) == ["wire.b"]  # wire.a moved earlier
    assert "✅ holds → ❌ differs: " in section and "(1 moved)" in section
    same = render_html(from_reports([older, report("0.2.10", {"wire.a": "holds", "wire.b": "holds"})]))
    assert "Upgrading from 0.2.9 to 0.2.10</h2> nothing moved" not in same  # wire.c only in 0.2.9
    assert "<code>wire.c</code> only in 0.2.9" in same
    assert "Upgrading" not in render_html(from_reports([older]))
    assert f'<details class="changes" open><summary>{heading}' in text  # one move: unfolded


def test_a_long_upgrade_folds_so_the_table_stays_on_the_first_screen():
    from sdkprobe.report.grid import from_reports
    from sdkprobe.report.html.matrix import UPGRADE_UNFOLDED_UP_TO, render_html

    ids = [f"wire.m{n}" for n in range(UPGRADE_UNFOLDED_UP_TO + 1)]
    older = sample.report([sample.result(bid, "holds") for bid in ids], sample.info("0.2.9", "2.1.9"))
    newest = sample.report([sample.result(bid, "differs") for bid in ids], sample.info("0.2.10", "2.1.9"))
    text = render_html(from_reports([older, newest]))
    heading = '<h2 id="upgrade">Upgrading from 0.2.9 to 0.2.10</h2>'
    assert f'<details class="changes"><summary>{heading} <span class="count">({len(ids)} moved)</span>' in text


def test_sources_link_to_their_url_or_the_projects_page_on_them(page):
    # in the row's folded part (a column of their own took 400 px of a laptop's width)
    text = page.read_text()
    linked, named = (
        re.search(rf'id="row-{re.escape(order(s)[0])}">.*?</tr>', text).group(0) for s in (LINKED, set(PLAN) - LINKED)
    )
    assert (
        f'<p class="source"><a href="{sample.ISSUE_URL}" title="claude-agent-sdk-python issue #362">py#362</a> · '
        in linked
    )
    # a design document, cited by a report written before pages were: the registry's page
    assert (
        f'<p class="source"><a href="../docs/sources/003.md#quick-answer" title="{sample.DOC_TITLE}">'
        "003 § Quick answer</a> · " in named
    )
    assert 'class="source"' not in re.sub(r'<div class="more">.*?</div>', "", linked)


def test_areas_in_declared_order_with_their_titles(page):
    headings = re.findall(
        rf'<tr class="area"><th colspan="{len(VERSIONS) + 1}" scope="rowgroup"><span>([^<]+)</span></th></tr>',
        page.read_text(),
    )
    assert headings == [f"{a.name} — {a.title}" for a in AREAS]


# --- in a browser -----------------------------------------------------------------------


def visible_rows(tmp_path: Path, url: str) -> tuple[list[str], str]:
    """Ids of the rows the page's script left visible, and the row count it shows."""
    dom = browser(tmp_path, "--dump-dom", url).stdout
    assert 'id="count"' in dom, "chromium did not dump the page"
    hidden_areas = set(re.findall(r'<tbody class="area-group" data-area="([^"]+)" hidden', dom))
    rows = re.findall(r'<tr class="behaviour-row" data-id="([^"]+)" data-area="([^"]+)"([^>]*)>', dom)
    shown = [rid for rid, area, rest in rows if " hidden" not in rest and area not in hidden_areas]
    count = re.search(r'id="count"[^>]*>([^<]*)<', dom).group(1)
    return shown, count


@needs_chromium
def test_filters_apply_in_a_real_browser(page, tmp_path):
    url = page.resolve().as_uri()
    every = order(PLAN)
    ids = list(PLAN)
    with_error, ever_differs = order([ids[10]]), order(b for b in PLAN if D in PLAN[b])
    wire = [b for b in every if b.startswith("wire.")]
    assert visible_rows(tmp_path, url) == (every, f"{ROWS} of {ROWS} behaviours")
    assert visible_rows(tmp_path, url + "#changed=1") == (order(CHANGING), f"7 of {ROWS} behaviours")
    assert visible_rows(tmp_path, url + "?q=wire") == (wire, f"{len(wire)} of {ROWS} behaviours")
    results = [b for b in every if b.startswith("results.")]
    assert visible_rows(tmp_path, url + "#q=results") == (results, f"{len(results)} of {ROWS} behaviours")
    assert visible_rows(tmp_path, url + "#verdict=error") == (with_error, f"1 of {ROWS} behaviours")
    assert visible_rows(tmp_path, url + "#verdict=differs") == (
        ever_differs,
        f"{len(ever_differs)} of {ROWS} behaviours",
    )
    both = order(set(ever_differs) & set(CHANGING))
    assert ids[32] in ever_differs and ids[32] not in both  # always differs: not a change
    assert visible_rows(tmp_path, url + "#verdict=differs&changed=1") == (both, f"{len(both)} of {ROWS} behaviours")
    # a link made when "changed" was a verdict choice still works
    assert visible_rows(tmp_path, url + "#verdict=changed") == (order(CHANGING), f"7 of {ROWS} behaviours")
    assert visible_rows(tmp_path, url + "#q=nothing-matches") == ([], f"0 of {ROWS} behaviours")


@needs_chromium
def test_the_changed_checkbox_filters_and_goes_into_the_link(page, tmp_path):
    out = in_frame(
        tmp_path,
        page,
        1280,
        800,
        """
        var box = d.getElementById('changed');
        out.before = [box.checked, d.getElementById('count').textContent];
        box.click();
        out.hash = w.location.hash;
        out.count = d.getElementById('count').textContent;
        out.shown = Array.prototype.filter.call(d.querySelectorAll('tr.behaviour-row'),
          function (r) { return r.getClientRects().length > 0; }).map(function (r) { return r.dataset.id; });
        box.click();
        out.after = [w.location.hash, d.getElementById('count').textContent];
        """,
    )
    assert out["before"] == [False, f"{ROWS} of {ROWS} behaviours"]
    assert (out["hash"], out["count"]) == ("#changed=1", f"7 of {ROWS} behaviours")
    assert out["shown"] == order(CHANGING)
    assert out["after"] == ["", f"{ROWS} of {ROWS} behaviours"]


LAYOUT = """
    var s = d.querySelector('.scroll'), t = s.querySelector('table'), root = d.documentElement;
    // checkVisibility: closed <details> hide their content with content-visibility, which
    // leaves boxes that getClientRects still reports
    function shown(el) { return el.checkVisibility() && el.getClientRects().length > 0; }
    function all(sel) { return Array.prototype.slice.call(d.querySelectorAll(sel)); }
    var rows = all('tr.behaviour-row'), claims = all('.claim'), box = s.getBoundingClientRect();
    out.width = w.innerWidth;
    out.page = [root.scrollWidth, root.clientWidth];
    out.table = [t.scrollWidth, s.clientWidth, s.scrollWidth];
    out.rows = rows.filter(shown).length;
    out.short = all('summary.short').filter(shown).length;
    out.claims = claims.filter(shown).length;
    out.changes = all('td.behaviour .change').filter(shown).length;
    out.sources = all('.source').filter(shown).length;
    out.newest = all('thead th.v').slice(0, 2).map(function (h) {
      return h.getBoundingClientRect().right <= box.right;
    });
    out.heights = {};
    rows.forEach(function (r) { out.heights[r.dataset.id] = r.getBoundingClientRect().height; });
    rows[0].querySelector('details').open = true;  // unfolding one claim shows it: the count can move
    out.unfolded = claims.filter(shown).length;
    out.unfolded_sources = all('.source').filter(shown).length;
"""


@needs_chromium
@pytest.mark.parametrize(("width", "height", "fits"), [(360, 740, False), (1280, 800, True)])
def test_every_row_and_version_fits_with_claims_folded(page, tmp_path, width, height, fits):
    out = in_frame(tmp_path, page, width, height, LAYOUT)
    assert out["width"] == width
    assert out["page"][0] <= out["page"][1], "the page scrolls sideways"
    table, box, box_scroll = out["table"]
    # a laptop holds every version; on a phone the older ones scroll inside the table's box
    # under the pinned behaviour column (they used to fit at 11 px a column, footnote
    # numbers running together), the two newest in view
    assert (table <= box and box_scroll <= box) == fits, f"the table is {table} px in a {box} px box"
    assert out["newest"] == [True, True]
    assert out["rows"] == out["short"] == ROWS and out["changes"] == len(CHANGING)
    assert out["claims"] == 0 and out["unfolded"] == 1
    assert out["sources"] == 0 and out["unfolded_sources"] == 1  # the source is in the folded part
    # a change adds its words under the short claim
    short = [b for b in PLAN if len(b) <= 15]
    assert max(out["heights"][b] for b in short if b not in CHANGING) < min(
        out["heights"][b] for b in short if b in CHANGING
    )


# --- the committed matrix, in a browser -------------------------------------------------

COMMITTED = Path(__file__).resolve().parent.parent / "reports"

FIRST_SCREEN = """
    var root = d.documentElement, vw = root.clientWidth, vh = root.clientHeight;
    function box(el) { var r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
    function inView(el) { var b = box(el); return b[0] >= 0 && b[1] >= 0 && b[2] <= vw && b[3] <= vh; }
    var heads = Array.prototype.slice.call(d.querySelectorAll('thead th.v'));
    out.view = [vw, vh];
    out.page = [root.scrollWidth, root.clientWidth];
    out.heads = heads.map(function (h) { return [h.title.split(',')[0], inView(h), box(h)]; });
    out.filter = [inView(d.getElementById('q')), box(d.getElementById('q'))];
    // footnote numbers: each inside its own cell, never touching the next one in its row
    out.badges = 0;
    out.loose = [];
    Array.prototype.forEach.call(d.querySelectorAll('tr.behaviour-row'), function (r) {
      var last = null;
      Array.prototype.forEach.call(r.querySelectorAll('a.fn'), function (a) {
        var b = box(a), c = box(a.parentNode);
        out.badges++;
        if (b[0] < c[0] || b[2] > c[2] || (last && b[0] - last[2] < 2 && b[1] < last[3] && last[1] < b[3]))
          out.loose.push(r.dataset.id + ' ' + a.textContent);
        last = b;
      });
    });
"""


@pytest.fixture(scope="module")
def committed(tmp_path_factory) -> Path:
    """The matrix of the committed reports (and history), rendered by this code into a copy:
    the committed compatibility.html may be older than the code."""
    out = tmp_path_factory.mktemp("committed") / "reports"
    shutil.copytree(COMMITTED, out, ignore=shutil.ignore_patterns("*.md", "*.html", "cli-axis"))
    return render_matrix(out)[1]


def test_the_committed_matrix_has_no_markdown_backticks(committed):
    text = committed.read_text()
    assert "`" not in text
    assert "written by <code>sdkprobe history</code>" in text  # EXACT_NOTE's code span, as code


@needs_chromium
@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_the_committed_matrix_shows_the_newest_versions_and_the_filter_first(committed, tmp_path, width, height):
    out = in_frame(tmp_path, committed, width, height, FIRST_SCREEN)
    assert out["page"][0] <= out["page"][1], f"the page scrolls sideways: {out['page']}"
    versions = sorted(
        (json.loads(p.read_text())["sdk_version"] for p in COMMITTED.glob("*.json")),
        key=lambda v: tuple(int(x) for x in v.split(".")),
    )
    heads = {h[0]: h for h in out["heads"]}
    newest = [heads[v] for v in versions[-2:]]
    assert all(h[1] for h in newest), f"the newest versions are outside {out['view']}: {newest}"
    assert out["filter"][0], f"the filter is outside {out['view']}: {out['filter'][1]}"
    assert out["badges"] > 0 and out["loose"] == [], out["loose"][:5]


@needs_chromium
def test_a_link_to_the_changes_unfolds_them(page, tmp_path):
    url = page.resolve().as_uri()
    folded = browser(tmp_path, "--dump-dom", url).stdout
    assert '<details class="changes"><summary>' in folded
    dom = browser(tmp_path, "--dump-dom", url + "#changes").stdout
    assert '<details class="changes" open=""><summary>' in dom
    assert re.search(r'id="count"[^>]*>([^<]*)<', dom).group(1) == f"{ROWS} of {ROWS} behaviours"  # not a filter
