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


SOURCES: dict[str, Source] = {
    s.key: s
    for s in (
        Source("000", "SDK behaviors (design document 000)"),
        Source("001", "Comportamientos del SDK (design document 001, a translation of 000)"),
        Source("003", "tools vs allowedTools, and what a subagent definition silently accepts (design document 003)"),
        Source("004", "Approvals and auto mode (design document 004)"),
    )
}


def cite(key: str, section: str) -> dict[str, str | None]:
    """A behaviour's citation as a report stores it; KeyError names the unknown key."""
    try:
        source = SOURCES[key]
    except KeyError:
        raise KeyError(f"no source {key!r} in probes/sources.py (known: {', '.join(sorted(SOURCES))})") from None
    return {"key": source.key, "title": source.title, "section": section, "url": source.url}
