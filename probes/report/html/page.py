"""The one HTML page shell, its one stylesheet and the one escape helper: every page sdkprobe
writes (the matrix, a behaviour's story, the SDK-differences page, the site's own pages) is
built here, so they look alike and escape alike.

A page is self-contained: the stylesheet is inline, nothing is fetched, so a page reads from
the file system, inside a site or on its own. It follows the reader's light or dark scheme.
"""

from __future__ import annotations

from html import escape

# Every page's look; a rule for one page's parts names them by class (table.matrix, dl.facts).
STYLESHEET = """
:root { --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa;
  --holds: #eefbf1; --differs: #ffebe9; --error: #fff8c5; --mark: #0969da; --badge: #eaeef2; --target: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0;
  --line: #30363d; --head: #161b22; --holds: #0f2a1a; --differs: #3d1d20; --error: #3b2e00; --mark: #4493f8;
  --badge: #30363d; --target: #3b2e00; } }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 1rem; max-width: 70rem;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
body.wide { max-width: none; }
h1 { font-size: 1.3rem; margin: .5rem 0 .4rem; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
h3 { font-size: 1rem; }
a { color: var(--mark); }
code { font-size: .9em; }
p.muted, p.meta, .legend, body.wide p { color: var(--muted); }
body.wide p { margin: .3rem 0; }
nav.site { display: flex; flex-wrap: wrap; gap: .2rem .9rem; padding-bottom: .4rem; margin-bottom: .6rem;
  border-bottom: 1px solid var(--line); font-size: .9em; }
details > summary { cursor: pointer; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { background: var(--head); font-weight: 600; white-space: nowrap; }
thead th small { display: block; font-weight: 400; color: var(--muted); }
td.v-holds { background: var(--holds); }
td.v-differs { background: var(--differs); }
td.v-error { background: var(--error); }
div.note { color: var(--muted); font-size: .85em; overflow-wrap: anywhere; }
ol.notes, ul.sources { padding-left: 1.5rem; overflow-wrap: anywhere; }
ol.notes li:target { background: var(--target); }

/* the matrix: a filter, the lists of what changed, a table whose behaviour column stays pinned */
.controls { display: flex; flex-wrap: wrap; gap: .5rem; margin: .6rem 0; align-items: center; }
.controls input[type=search], .controls select { font: inherit; padding: .35rem .5rem;
  border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
.controls input[type=search] { flex: 1 1 12rem; min-width: 0; }
.controls label { white-space: nowrap; }
details.changes { margin: .4rem 0 .6rem; }
details.changes > summary h2 { display: inline; font-size: 1rem; margin: 0; }
details.changes > summary .count { color: var(--muted); }
ul.changes { margin: .3rem 0; padding-left: 1.2rem; overflow-wrap: anywhere; }
ul.changes li { margin: .15rem 0; }
ul.changes .change { color: var(--muted); }
table.matrix { border-collapse: separate; border-spacing: 0; }
table.matrix th, table.matrix td { padding: .3rem .45rem; text-align: center; }
table.matrix thead th { vertical-align: bottom; }
th.behaviour, td.behaviour { position: sticky; left: 0; z-index: 1; background: var(--bg); text-align: left;
  width: 100%; min-width: 12rem; overflow-wrap: anywhere; border-right: 1px solid var(--line); }
table.matrix th.behaviour, table.matrix td.behaviour { text-align: left; }
thead th.behaviour { background: var(--head); z-index: 2; }
td.behaviour a.id { text-decoration: none; }
td.behaviour a.id code { font-size: .85em; }
td.behaviour summary { font-size: .9em; line-height: 1.35; }
td.behaviour .more { color: var(--muted); font-size: .8em; margin: .2rem 0 .1rem; }
td.behaviour .more p, td.behaviour .more ul { margin: 0 0 .25rem; }
td.behaviour .more ul { padding-left: 1rem; }
td.behaviour .more .claim { color: var(--fg); }
td.behaviour .change { display: block; color: var(--muted); font-size: .75em; line-height: 1.3; }
/* A version column is as wide as its symbol; its header (SDK version, then CLI) reads
   bottom to top, and a footnote number is a badge on its own line under the symbol. */
th.v, td.v { width: 1px; }
thead th.v > span { display: inline-block; writing-mode: vertical-rl; transform: rotate(180deg); }
thead th.v small { display: inline; font-size: .8em; }
table.matrix td.v { white-space: nowrap; padding: .3rem .2rem; line-height: 1.2; }
td.v a.fn { display: block; width: max-content; min-width: 1.3em; margin: .15rem auto 0; padding: 0 .2rem;
  border-radius: 4px; background: var(--badge);
  color: var(--fg); font-size: .65em; line-height: 1.4; text-decoration: none; font-variant-numeric: tabular-nums; }
table.matrix tr.area th { text-align: left; background: var(--head); font-weight: 600; }
tr.area th span { position: sticky; left: .45rem; }
tr.behaviour-row:target td.behaviour { box-shadow: inset 3px 0 0 var(--mark); }

/* a behaviour's story: its facts, what moved, its declaration's text by line */
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ul.moved li { margin: .2rem 0; }
pre.code { margin: 0; padding: .5rem 0; font-size: .85em; line-height: 1.4; overflow-x: auto; }
pre.code .line:target { background: var(--target); }
pre.code a.ln { display: inline-block; width: 4.5em; padding-right: 1em; text-align: right;
  color: var(--muted); text-decoration: none; user-select: none; }

/* the site's own pages: both SDKs side by side, a release's note */
div.sdks { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 28rem), 1fr)); gap: 1rem;
  margin: 1rem 0; }
section.sdk { min-width: 0; border: 1px solid var(--line); border-radius: 6px; padding: .2rem .9rem .6rem; }
ul.releases { padding-left: 1.2rem; columns: 14rem; }
p.meta, .moved-in { overflow-wrap: anywhere; }

@media (max-width: 600px) {
  body { padding: .5rem; font-size: 14px; }
  h1 { font-size: 1.15rem; }
  p.exact { font-size: .85em; }
  td.behaviour summary { font-size: .85em; }
  th, td, table.matrix th, table.matrix td { padding: .25rem .2rem; }
  /* the behaviour column stays pinned; older versions scroll under it */
  th.behaviour, td.behaviour { width: 11.5rem; min-width: 11.5rem; max-width: 11.5rem; }
  td.behaviour .change { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3;
    overflow: hidden; }
  thead th.v small { display: none; }
  thead th.v { padding: .25rem .1rem; line-height: 1; }
  thead th.v .ver { font-size: .75em; }
  table.matrix td.v { font-size: 12px; padding: .3rem .1rem; }
  td.v a.fn { font-size: 9px; padding: 0 .1rem; }
}
"""


def esc(text: object) -> str:
    """Text (any value, as str) safe in HTML content and in a quoted attribute."""
    return escape(str(text), quote=True)


def page(title: str, body: str, *, top: str = "", head: str = "", script: str = "", wide: bool = False) -> str:
    """A whole page: `body` under `top` (the site's links, when in a site), `head` put in the
    head before the stylesheet, `script` run at the end; `wide` for a page as wide as the screen
    (the matrix), where prose pages keep to a readable width."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
{head}<style>{STYLESHEET}</style>
</head>
<body{' class="wide"' if wide else ""}>
{top}{body}
{f"<script>{script}</script>{chr(10)}" if script else ""}</body>
</html>
"""
