"""Where claims come from: one registry, cited by key from every behaviour.

The four design documents are named by their short number (they have no public URL);
upstream issues and documentation pages by URL, so the matrix can link a reader from a
verdict to the report behind it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    url: str | None = None


# The three issue trackers CATALOGUE-3 cites: py# the Python SDK, ts# the TypeScript SDK,
# cc# Claude Code.
_TRACKERS = {"py": "claude-agent-sdk-python", "ts": "claude-agent-sdk-typescript", "cc": "claude-code"}


def _issue(key: str) -> Source:
    tracker, number = key.split("#")
    repo = f"anthropics/{_TRACKERS[tracker]}"
    return Source(key, f"{repo} issue #{number}", f"https://github.com/{repo}/issues/{number}")


_REPORTED = (
    "cc#8069",
    "cc#18911",
    "cc#24605",
    "cc#30304",
    "cc#40580",
    "cc#41143",
    "cc#44446",
    "cc#45602",
    "cc#46985",
    "cc#79321",
    "cc#82747",
    "cc#95726",
    "py#27",
    "py#98",
    "py#123",
    "py#159",
    "py#362",
    "py#599",
    "py#766",
    "py#779",
    "py#800",
    "py#1105",
    "py#1203",
    "ts#47",
    "ts#170",
    "ts#172",
    "ts#277",
    "ts#356",
    "ts#425",
    "ts#427",
)

SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source("000", "SDK behaviors (design document 000)"),
        Source("001", "Comportamientos del SDK (design document 001, a translation of 000)"),
        Source("003", "tools vs allowedTools, and what a subagent definition silently accepts (design document 003)"),
        Source("004", "Approvals and auto mode (design document 004)"),
        # What users reported (CATALOGUE-3), cited by tracker and number.
        *(_issue(key) for key in _REPORTED),
    )
}


def declare_source(key: str, title: str, url: str | None = None) -> Source:
    """Add a source of a team's own claims (its design note, an issue of its own tracker).
    Declaring it again with the same title and URL is a no-op; otherwise a ValueError."""
    source = Source(key, title, url)
    if not key or not title.strip():
        raise ValueError("a source has a key and a title")
    if SOURCES.get(key, source) != source:
        raise ValueError(f"source {key!r} is declared already, as {SOURCES[key]}")
    SOURCES[key] = source
    return source


def cite(key: str, section: str) -> dict[str, str | None]:
    """A behaviour's citation as a report stores it; KeyError names the unknown key."""
    try:
        source = SOURCES[key]
    except KeyError:
        raise KeyError(f"no source {key!r} in probes/sources.py (known: {', '.join(sorted(SOURCES))})") from None
    return {"key": source.key, "title": source.title, "section": section, "url": source.url}
