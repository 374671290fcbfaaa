"""How a verdict, a note, a source and an area look when rendered; shared by every renderer.

The Markdown matrix, the HTML matrix, the per-version page and the gate all take their
symbols, labels and tables from here, so one behaviour reads the same everywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from tabulate import tabulate

from sdkprobe.areas import BY_NAME
from sdkprobe.behaviour import DIFFERS, ERROR, HOLDS, NEEDS_LIVE, NOT_APPLICABLE, VERDICTS
from sdkprobe.report.declared import PROJECT, area_home
from sdkprobe.report.declared import find as find_declaration
from sdkprobe.sources import anchor, page_of

SYMBOLS: dict[str, str] = {HOLDS: "✅", DIFFERS: "❌", NOT_APPLICABLE: "➖", NEEDS_LIVE: "🔑", ERROR: "💥"}
ABSENT = "—"  # the behaviour is not in that version's report
LEGEND: list[tuple[str, str]] = [(SYMBOLS[v], v) for v in SYMBOLS] + [(ABSENT, "not probed on that version")]
# Beside a behaviour's id: its declaration marks the contract security-relevant.
SECURITY_MARK = "🔒"
SECURITY_LEGEND = f"{SECURITY_MARK} a contract a host's safety rests on (a deny honoured, a value never read as a flag)"
# Verdicts whose note says something worth a footnote (needs-live's note is boilerplate).
FOOTNOTED = (DIFFERS, ERROR, NOT_APPLICABLE)
# What a Markdown link target may keep as is: not ( ) < > | or whitespace, which would end
# the link, split the table cell or open a tag.
_URL_SAFE = ":/?#[]@!$&'*+,;=%~-._"
SHORT_CLAIM = 90  # characters a claim beside its verdicts may take, "…" included


class Claimed(Protocol):
    """A matrix row: its claim and its report entry's summary ("" when it has none)."""

    claim: str
    summary: str


def short_claim(entry_or_row: Mapping[str, Any] | Claimed) -> str:
    """The one line a page shows beside a behaviour's verdicts: its `summary` when the entry
    (or row) has one, else the claim cut at a word boundary to at most SHORT_CLAIM characters
    with "…", never inside a `code span` (an unpaired backtick would show as a backtick)."""
    if isinstance(entry_or_row, Mapping):
        summary, claim = str(entry_or_row.get("summary") or ""), str(entry_or_row["claim"])
    else:
        summary, claim = entry_or_row.summary, entry_or_row.claim
    text = " ".join((summary or claim).split())
    if len(text) <= SHORT_CLAIM:
        return text
    cut = text[: SHORT_CLAIM - 1]
    if " " in cut and text[SHORT_CLAIM - 1] != " ":
        cut = cut[: cut.rindex(" ")]
    while cut.count("`") % 2:
        cut = cut[: cut.rindex("`")]
    if not cut.strip():  # one code span longer than the line: its text, unquoted
        cut = text.replace("`", "")[: SHORT_CLAIM - 1]
    return cut.rstrip(" ,;:—–-(") + "…"


def symbol(verdict: str | None) -> str:
    return ABSENT if verdict is None else SYMBOLS.get(verdict, "?")


def md(text: object) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped, no raw HTML.

    Notes hold placeholders like <TMP>; unescaped, GitHub would swallow them as tags.
    """
    s = " ".join(str(text).split())
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")


def text_table(rows: list[list[str]], headers: list[str], fmt: str = "github", **kw: Any) -> str:
    # disable_numparse: a version such as "1.10" is text, not the number 1.1
    table: str = tabulate(rows, headers=headers, tablefmt=fmt, disable_numparse=True, **kw)
    return table


def counts(verdicts: Iterable[str | None]) -> str:
    """'3 holds, 1 differs' in the fixed verdict order, skipping zeros (and absent cells)."""
    c = Counter(v for v in verdicts if v is not None)
    return ", ".join(f"{c[v]} {v}" for v in VERDICTS if c[v]) or "none"


def area_heading(area: str) -> str:
    """'tools — Tools offered' for a declared area; an undeclared one (an old report's) by name."""
    declared = BY_NAME.get(area)
    return f"{area} — {declared.title}" if declared else area


def source_label(source: Mapping[str, Any]) -> str:
    """The short name a cell shows: '003 § Quick answer', or 'py#362' for an issue cited whole."""
    key, section = str(source["key"]), str(source.get("section") or "")
    return f"{key} § {section}" if section else key


def source_url(source: Mapping[str, Any]) -> str | None:
    """The source's link target, only when it is an https URL (the schema's promise, kept here
    too so a renderer can never emit a javascript: or relative link from report data)."""
    url = source.get("url")
    return url if isinstance(url, str) and url.startswith("https://") else None


def source_link(source: Mapping[str, Any], project: str = "..") -> str | None:
    """Where a citation leads from a folder whose way to the project's root is `project`:
    its https URL, else the project's page on the source at the section's anchor
    (`../docs/sources/004.md#auto-mode`), else nowhere (None)."""
    url = source_url(source)
    if url is not None:
        return url
    page = page_of(source)
    if page is None:
        return None
    section = anchor(str(source.get("section") or ""))
    return f"{project}/{page}" + (f"#{section}" if section else "")


def source_md(source: Mapping[str, Any], project: str = "..") -> str:
    """A Markdown table cell: the label linked to where the source leads (see
    `source_link`), or the bare label when it leads nowhere."""
    label, link = md(source_label(source)), source_link(source, project)
    if link is None:
        return label
    return f"[{label}]({quote(link, safe=_URL_SAFE)})"


def cited(sources: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each source once, by key and without a section, in key order: the list a page ends
    with, so a design document's short number is explained by its title."""
    seen: dict[str, dict[str, Any]] = {}
    for s in sources:
        seen.setdefault(str(s["key"]), {**s, "section": ""})
    return [seen[k] for k in sorted(seen)]


def sources_md(sources: Iterable[Mapping[str, Any]], project: str = "..") -> list[str]:
    """A '## Sources' section (no lines at all when nothing is cited)."""
    items = [f"- {source_md(s, project)}: {md(s['title'])}" for s in cited(sources)]
    return ["", "## Sources", "", *items] if items else []


def declaration(bid: str, project: str = "..") -> str:
    """Where a behaviour is declared, as a link from a folder whose way to the project's root
    is `project`: the module that declares it, as the registry knows it (`mcp/oauth.py`), at
    the line of its `@behaviour(` (`#L123`, which a repository's file view scrolls to); an id
    no module declares any more (an old report's) links to its area's package.
    """
    found = find_declaration(bid)
    if found is None or not found.in_project:  # a team's module is not in sdkprobe's repository
        return f"{project}/{area_home(bid.split('.', 1)[0])}"
    return f"{project}/{found.relative}#L{found.line}"


def project_from(folder: Path) -> str:
    """The project's root as a relative link from `folder` when the folder lies inside the
    project (reports/ gives "..", reports/cli-axis/ "../.."); ".." for a folder elsewhere,
    whose links are then as they would be from reports/, never a path of this machine."""
    root = PROJECT
    try:
        depth = len(Path(folder).resolve().relative_to(root).parts)
    except ValueError:
        return ".."
    return "/".join([".."] * depth) if depth else "."


def checks_text(checks: dict[str, str]) -> str:
    """'✅ empty · ❌ list' for a behaviour's sub-checks, by name (stored reports sort keys)."""
    return " · ".join(f"{symbol(checks[name])} {name}" for name in sorted(checks))
