"""Every HTML page comes from one shell with one stylesheet and one escape helper
(report/html/page.py): a second shell, stylesheet or escape in the package is noticed."""

from __future__ import annotations

import re
from pathlib import Path

from sdkprobe.report.html.page import STYLESHEET, esc, page

PACKAGE = Path(__file__).resolve().parents[1] / "probes"
SHELL = PACKAGE / "report" / "html" / "page.py"
# what only the shell may hold: a page's start, a stylesheet, the standard library's HTML escape
OWN = re.compile(r"<!DOCTYPE|<style|from html import|html\.escape\(")


def outside_the_shell(root: Path) -> list[str]:
    """file:line of each place under `root`, other than the shell, that starts a page, holds a
    stylesheet or escapes HTML by itself."""
    return [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py"))
        if path != SHELL
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OWN.search(line)
    ]


def test_no_module_but_the_shell_builds_a_page_or_escapes_html():
    assert outside_the_shell(PACKAGE) == []


def test_a_second_shell_is_noticed(tmp_path):
    (tmp_path / "mine.py").write_text('from html import escape\nPAGE = "<!DOCTYPE html><style>p {}</style>"\n')
    assert outside_the_shell(tmp_path) == ["mine.py:1", "mine.py:2"]


def test_a_page_is_whole_self_contained_and_escaped():
    text = page('a <b> & "c"', "<p>body</p>", top="<nav>n</nav>\n", head='<meta name="x">\n', script="run()")
    assert text.startswith("<!DOCTYPE html>\n") and text.endswith("</html>\n")
    assert "<title>a &lt;b&gt; &amp; &quot;c&quot;</title>" in text
    assert text.count(STYLESHEET) == 1 and not re.search(r"<link|@import|url\(|\bsrc=", text)
    assert text.index('<meta name="x">') < text.index("<style>") and "<body>\n<nav>n</nav>\n<p>body</p>" in text
    assert "<script>run()</script>\n</body>" in text
    assert '<body class="wide">' in page("t", "", wide=True) and "<script>" not in page("t", "")
    assert esc("<'\"&>") == "&lt;&#x27;&quot;&amp;&gt;" and esc(3) == "3"
