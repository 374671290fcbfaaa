"""The site's Atom feed (RFC 4287): one entry per recorded release, so a reader subscribed to
it hears of each release sdkprobe has recorded, with what moved in it.

An entry's `updated` is the release's publish time on its index (notes/published.json), the feed's
the newest of them: nothing is dated by the build, so two builds are the same bytes. Ids are
name-based UUIDs of the package and version, the same on every build and every copy of the
site. Links are relative to the feed, as the pages' are, so the site can live under any URL.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

ATOM = "http://www.w3.org/2005/Atom"
NAME = "feed.xml"
_IDS = uuid.uuid5(uuid.NAMESPACE_URL, "sdkprobe:site")  # every id of the feed is named under this
# A feed with no dated release has no newest time; it says the epoch rather than the build's clock.
NO_TIME = "1970-01-01T00:00:00Z"


@dataclass(frozen=True)
class Entry:
    package: str
    version: str
    updated: str  # RFC 3339, UTC
    link: str  # the release's page, relative to the feed
    summary: str  # one line
    content: str  # HTML: what moved in it

    @property
    def id(self) -> str:
        return f"urn:uuid:{uuid.uuid5(_IDS, f'{self.package}@{self.version}')}"


def render(title: str, subtitle: str, home: str, entries: Sequence[Entry]) -> str:
    """The feed, newest entry first (ties by package and version, so the order is fixed)."""
    ordered = sorted(entries, key=lambda e: (e.package, e.version))
    ordered.sort(key=lambda e: e.updated, reverse=True)
    updated = ordered[0].updated if ordered else NO_TIME
    items = "".join(
        f"""<entry>
<id>{e.id}</id>
<title>{escape(f"{e.package} {e.version}")}</title>
<updated>{e.updated}</updated>
<link rel="alternate" type="text/html" href={quoteattr(e.link)}/>
<summary>{escape(e.summary)}</summary>
<content type="html">{escape(e.content)}</content>
</entry>
"""
        for e in ordered
    )
    return f"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="{ATOM}">
<id>urn:uuid:{_IDS}</id>
<title>{escape(title)}</title>
<subtitle>{escape(subtitle)}</subtitle>
<updated>{updated}</updated>
<author><name>sdkprobe</name></author>
<generator>sdkprobe site</generator>
<link rel="self" type="application/atom+xml" href="{NAME}"/>
<link rel="alternate" type="text/html" href={quoteattr(home)}/>
{items}</feed>
"""
