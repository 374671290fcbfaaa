"""The HTML matrix: self-contained, escaped, and its filter works in a real browser.

The browser tests need Debian's chromium (apt-get install -y chromium
fonts-noto-color-emoji); without it they skip and say so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sample_reports as sample

from probes.report import build, render_matrix, write

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium fonts-noto-color-emoji)"
)


@pytest.fixture
def page(tmp_path) -> Path:
    def result(bid, verdict="holds", note=""):
        return sample.result(bid, verdict, note, claim=f"claim of {bid} <b>bold</b>")

    versions = ["0.2.9", "0.2.10", "0.2.100", "0.2.150", "0.2.180", "0.2.189"]
    for n, v in enumerate(versions):
        rs = [
            result("wire.tools-option-to-flag", "differs" if n >= 4 else "holds", "sent <TMP> & a|b"),
            result("wire.setting-sources"),
            result("hooks.pre-tool-use-fires", "error" if n == 2 else "holds", "probe broke"),
            result("mcp.sdk-server-tools", "needs-live", "needs --live"),
            result(
                "tools.allowed-tools-does-not-restrict", "not-applicable" if n < 3 else "differs", "every tool offered"
            ),
        ]
        write(build(rs, sample.info(v, f"2.1.{n}")), tmp_path)
    return render_matrix(tmp_path)[1]


def test_page_is_self_contained_and_escaped(page):
    html = page.read_text()
    # no external assets; the only links are in-page ones and each behaviour's declaration
    assert not re.search(r"<link|@import|url\(|\bsrc=|href=\"(?!#|\.\./probes/catalogue/\w+\.py\")", html)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold" not in html
    assert "sent &lt;TMP&gt; &amp; a|b" in html
    assert html.count('class="behaviour-row"') == 5


def browser(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


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
    every = [
        "hooks.pre-tool-use-fires",
        "mcp.sdk-server-tools",
        "tools.allowed-tools-does-not-restrict",
        "wire.setting-sources",
        "wire.tools-option-to-flag",
    ]
    assert visible_rows(tmp_path, url) == (every, "5 of 5 behaviours")
    assert visible_rows(tmp_path, url + "?q=wire") == (every[3:], "2 of 5 behaviours")
    assert visible_rows(tmp_path, url + "#q=tools") == (every[1:3] + every[4:], "3 of 5 behaviours")
    assert visible_rows(tmp_path, url + "#verdict=differs") == (every[2:3] + every[4:], "2 of 5 behaviours")
    assert visible_rows(tmp_path, url + "#q=wire&verdict=differs") == (every[4:], "1 of 5 behaviours")
    assert visible_rows(tmp_path, url + "#verdict=error") == (every[:1], "1 of 5 behaviours")
    assert visible_rows(tmp_path, url + "#verdict=changed") == (
        every[0:1] + every[2:3] + every[4:],
        "3 of 5 behaviours",
    )
    assert visible_rows(tmp_path, url + "#q=nothing-matches") == ([], "0 of 5 behaviours")


@needs_chromium
def test_renders_at_phone_width(page, tmp_path):
    shot = tmp_path / "phone.png"
    done = browser(tmp_path, "--window-size=390,844", f"--screenshot={shot}", page.resolve().as_uri())
    assert shot.exists(), done.stderr[-500:]
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (390, 844)
    # The page must not scroll sideways; the table scrolls inside its own box. (Headless
    # --dump-dom lays out at least 500 px wide, still under the 600 px phone breakpoint.)
    probe = tmp_path / "probe.html"
    probe.write_text(
        page.read_text().replace(
            "</body>",
            (
                "<script>var s=document.querySelector('.scroll');document.title=['W',innerWidth,"
                "document.documentElement.scrollWidth,document.documentElement.clientWidth,"
                "s.scrollWidth,s.clientWidth].join(' ');"
                "</script></body>"
            ),
        )
    )
    dom = browser(tmp_path, "--window-size=390,844", "--dump-dom", probe.resolve().as_uri()).stdout
    inner, page_scroll, page_client, box_scroll, box_client = map(
        int, re.search(r"<title>W ([\d ]+)</title>", dom).group(1).split()
    )
    assert inner < 600
    assert page_scroll <= page_client
    assert box_scroll > box_client  # six versions do not fit: the box scrolls, the page does not
