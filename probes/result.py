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
    source: dict[str, Any]  # sdkprobe.sources.cite(): key, title, section, url
    verdict: str
    note: str = ""
    checks: dict[str, str] = field(default_factory=dict)
    observed: Any = None
    seconds: float = field(default=0.0, metadata={"stored": False})  # shown in progress only

    def to_dict(self) -> dict[str, Any]:
        """The report entry: every stored field."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.metadata.get("stored", True)}


STORED_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Result) if f.metadata.get("stored", True))
