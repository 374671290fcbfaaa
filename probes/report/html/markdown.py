"""Markdown as HTML, for the site's pages: a release note, a version's report page.

Those are written as Markdown once (by `update` and `run`) and read on GitHub as they are;
the site shows the same text as HTML through markdown-it (CommonMark with tables), never a
converter of sdkprobe's own. Raw HTML in the text stays text, so a note's `<TMP>` can never
become a tag; headings move down under the page's own, and a table scrolls in its own box
rather than widening a phone's page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

_SCROLL = '<div class="scroll">'


def to_html(text: str, below: int = 0) -> str:
    """`text` as HTML, each heading `below` levels lower (an h1 under the page's h1 as h2 with
    below=1; never lower than h6)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def heading(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        token.tag = f"h{min(6, int(token.tag[1:]) + below)}"
        return str(self.renderToken(tokens, idx, options, env))

    def table_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return _SCROLL + str(self.renderToken(tokens, idx, options, env))

    def table_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        return str(self.renderToken(tokens, idx, options, env)) + "</div>\n"

    for name, rule in (
        ("heading_open", heading),
        ("heading_close", heading),
        ("table_open", table_open),
        ("table_close", table_close),
    ):
        md.add_render_rule(name, rule)
    return str(md.render(text))
