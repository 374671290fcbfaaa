"""Where claims come from: one registry, cited by key from every behaviour.

The four design documents are named by their short number; they have no public URL, so
each has a page of the project's own (docs/sources/<key>.md) saying what each cited
section claims, with an anchor per section. Upstream issues and documentation pages are
cited by URL. Either way the matrix can link a reader from a verdict to where its claim
comes from.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    url: str | None = None
    page: str | None = None  # the project's page on a source with no URL, from the project's root


def anchor(section: str) -> str:
    """A section's anchor on its source's page: its words lower-cased and joined by '-',
    accents dropped ('Auto mode' -> 'auto-mode'). Written into the pages and used to link
    to them, so it depends on no renderer's rules for making ids from headings."""
    plain = unicodedata.normalize("NFKD", section).encode("ascii", "ignore").decode("ascii")
    return "-".join(re.findall(r"[a-z0-9]+", plain.lower()))


# The three issue trackers CATALOGUE-3 cites: py# the Python SDK, ts# the TypeScript SDK,
# cc# Claude Code.
_TRACKERS = {"py": "claude-agent-sdk-python", "ts": "claude-agent-sdk-typescript", "cc": "claude-code"}


def _issue(key: str) -> Source:
    tracker, number = key.split("#")
    repo = f"anthropics/{_TRACKERS[tracker]}"
    return Source(key, f"{repo} issue #{number}", f"https://github.com/{repo}/issues/{number}")


_REPORTED = (
    "cc#8069",
    "cc#8413",
    "cc#9184",
    "cc#13572",
    "cc#13676",
    "cc#18282",
    "cc#18911",
    "cc#19684",
    "cc#24605",
    "cc#29991",
    "cc#30304",
    "cc#34044",
    "cc#40580",
    "cc#40671",
    "cc#41143",
    "cc#42308",
    "cc#43750",
    "cc#44446",
    "cc#45474",
    "cc#45602",
    "cc#46985",
    "cc#52876",
    "cc#53589",
    "cc#54161",
    "cc#77634",
    "cc#79321",
    "cc#82451",
    "cc#82747",
    "cc#84974",
    "cc#85171",
    "cc#86001",
    "cc#95726",
    "py#27",
    "py#98",
    "py#123",
    "py#159",
    "py#362",
    "py#573",
    "py#599",
    "py#609",
    "py#766",
    "py#779",
    "py#800",
    "py#1105",
    "py#1203",
    "py#1220",
    "py#1273",
    "ts#47",
    "ts#118",
    "ts#168",
    "ts#170",
    "ts#172",
    "ts#212",
    "ts#217",
    "ts#230",
    "ts#277",
    "ts#298",
    "ts#356",
    "ts#406",
    "ts#425",
    "ts#427",
    "ts#465",
)

SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source("000", "SDK behaviors (design document 000)", page="docs/sources/000.md"),
        Source(
            "001", "Comportamientos del SDK (design document 001, a translation of 000)", page="docs/sources/001.md"
        ),
        Source(
            "003",
            "tools vs allowedTools, and what a subagent definition silently accepts (design document 003)",
            page="docs/sources/003.md",
        ),
        Source("004", "Approvals and auto mode (design document 004)", page="docs/sources/004.md"),
        # The SDK's own documentation: ClaudeAgentOptions' docstrings and the transport they describe.
        Source(
            "sdk-py",
            "claude-agent-sdk-python: ClaudeAgentOptions and its transport, as documented",
            "https://github.com/anthropics/claude-agent-sdk-python",
        ),
        Source(
            "sdk-ts",
            "@anthropic-ai/claude-agent-sdk: its declarations (sdk.d.ts), as published on npm",
            "https://www.npmjs.com/package/@anthropic-ai/claude-agent-sdk",
        ),
        # What users reported (CATALOGUE-3), cited by tracker and number.
        *(_issue(key) for key in _REPORTED),
        # Reports from outside Anthropic's trackers: an adapter's change that shows a behaviour.
        Source(
            "acp#425",
            "agentclientprotocol/claude-agent-acp pull request #425",
            "https://github.com/agentclientprotocol/claude-agent-acp/pull/425",
        ),
    )
}


def declare_source(key: str, title: str, url: str | None = None, page: str | None = None) -> Source:
    """Add a source of a team's own claims (its design note, an issue of its own tracker).
    Declaring it again with the same title, URL and page is a no-op; otherwise a ValueError."""
    source = Source(key, title, url, page)
    if not key or not title.strip():
        raise ValueError("a source has a key and a title")
    if SOURCES.get(key, source) != source:
        raise ValueError(f"source {key!r} is declared already, as {SOURCES[key]}")
    SOURCES[key] = source
    return source


def cite(key: str, section: str) -> dict[str, str | None]:
    """A behaviour's citation as a report stores it (`page` only for a source that has one);
    KeyError names the unknown key."""
    try:
        source = SOURCES[key]
    except KeyError:
        raise KeyError(f"no source {key!r} in probes/sources.py (known: {', '.join(sorted(SOURCES))})") from None
    cited: dict[str, str | None] = {"key": source.key, "title": source.title, "section": section, "url": source.url}
    if source.page is not None:
        cited["page"] = source.page
    return cited


# A page as the schema allows it: a path from the project's root to a Markdown file.
_PAGE = re.compile(r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\.md$")


def page_of(source: Mapping[str, Any]) -> str | None:
    """The project's page on a cited source: the one its citation names, else (a report
    written before pages were) the registry's page for its key. A page that is not a plain
    path to a Markdown file inside the project (`javascript:...`, `../x`) is none, so no
    renderer can link it."""
    page = source.get("page")
    if isinstance(page, str):
        return page if _PAGE.fullmatch(page) else None
    known = SOURCES.get(str(source.get("key")))
    return known.page if known else None


def unresolved(source: Mapping[str, Any], root: Path) -> str | None:
    """Why a citation leads nowhere, or None when it leads somewhere: an https URL, or a
    page under `root` (the project) that holds the anchor of the cited section."""
    url = source.get("url")
    if isinstance(url, str) and url.startswith("https://"):
        return None
    page, section = page_of(source), str(source.get("section") or "")
    where = f"{source.get('key')} § {section}" if section else str(source.get("key"))
    if page is None:
        return f"{where}: neither an https URL nor a page"
    path = root / page
    if not path.is_file():
        return f"{where}: no page {page}"
    if section and f'id="{anchor(section)}"' not in path.read_text(encoding="utf-8"):
        return f"{where}: {page} has no anchor {anchor(section)!r}"
    return None
