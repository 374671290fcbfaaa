"""One behaviour's result on one version: the entry a report stores, field for field.

These fields are written down here and nowhere else; the report schema is checked
against them by a test, and the report model copies exactly these.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Result:
    id: str
    area: str
    tier: str
    claim: str
    source: dict[str, Any]  # sdkprobe.sources.cite(): key, title, section, url (and page)
    verdict: str
    note: str = ""
    checks: dict[str, str] = field(default_factory=dict)
    observed: Any = None
    summary: str | None = field(default=None, metadata={"optional": True})  # the declaration's one line
    security: str | None = field(default=None, metadata={"optional": True})  # what a change would expose
    seconds: float = field(default=0.0, metadata={"stored": False})  # shown in progress only

    def to_dict(self) -> dict[str, Any]:
        """The report entry: every stored field, an optional one only when it has a value."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name in STORED_FIELDS and (f.name in REQUIRED_FIELDS or getattr(self, f.name) is not None)
        }


STORED_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Result) if f.metadata.get("stored", True))
# What every report entry has; the others (a summary) are left out when absent, so reports
# written before them still load.
REQUIRED_FIELDS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Result) if f.name in STORED_FIELDS and not f.metadata.get("optional", False)
)
