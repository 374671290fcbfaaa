"""What `sdkprobe update` keeps beside a folder's reports about each release: when its index
published it (released.json) and its release note (notes/<version>.md).

Read by the site: a release's page shows its note, and the Atom feed dates each entry by
the publish time, never by the clock of the build, so two builds are the same bytes. Both
files are optional: a folder recorded before `update` existed has neither.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sdkprobe.report.errors import ReportError

RELEASED = "released.json"  # {"<version>": "<ISO 8601 publish time>", ...}
NOTES = "notes"  # notes/<version>.md


@dataclass(frozen=True)
class Published:
    times: dict[str, datetime]  # version -> when its index published it (aware, UTC)
    notes: dict[str, str]  # version -> its release note (Markdown)

    def when(self, version: str) -> str | None:
        """The publish time as RFC 3339 in UTC ('2026-12-03T18:12:15Z'), None when not recorded."""
        time = self.times.get(version)
        return time.strftime("%Y-%m-%dT%H:%M:%SZ") if time else None


def load(folder: Path) -> Published:
    """What the folder records; ReportError naming the file when released.json is not an object
    of versions to ISO 8601 times with their offset, or a note cannot be read."""
    folder = Path(folder)
    path = folder / RELEASED
    times: dict[str, datetime] = {}
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ReportError(f"{path}: cannot be read as JSON: {exc}") from None
        if not isinstance(data, dict):
            raise ReportError(f"{path}: not an object of versions to publish times")
        times = {str(version): _time(path, str(version), value) for version, value in data.items()}
    notes: dict[str, str] = {}
    for note in sorted((folder / NOTES).glob("*.md")):
        try:
            notes[note.stem] = note.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ReportError(f"{note}: cannot be read: {exc}") from None
    return Published(times, notes)


def _time(path: Path, version: str, value: object) -> datetime:
    try:
        # "Z" as well as "+00:00": Python 3.10's fromisoformat takes only the latter
        time = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        time = None
    if not isinstance(value, str) or time is None or time.tzinfo is None:
        raise ReportError(f"{path}: {version}'s publish time {value!r} is not an ISO 8601 time with its offset")
    return time.astimezone(timezone.utc)
