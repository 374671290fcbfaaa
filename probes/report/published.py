"""When each recorded release was published, kept beside its reports (DIR/notes/published.json).

A report says what a release does, not when it came out; the release notes, the site's pages
and its feed date a release by when its registry first had it, never by when sdkprobe ran, so
two builds of the same reports are the same bytes. `sdkprobe update` adds the date of each
release it records (and of any recorded release that lacks one).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path

from sdkprobe.releases.versions import version_key
from sdkprobe.report.errors import ReportError
from sdkprobe.report.files import write_atomic

NOTES = Path("notes")  # inside a reports folder: <version>.md, one release note each
PUBLISHED_PATH = NOTES / "published.json"


def normalised(stamp: str) -> str:
    """An index's time stamp (PyPI's `2025-09-01T12:00:00.123456Z`, npm's `...+00:00`) as
    `YYYY-MM-DDTHH:MM:SSZ` in UTC, the one form sdkprobe writes."""
    moment = datetime.fromisoformat(stamp.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def load(reports_dir: Path) -> dict[str, str]:
    """Version -> publish time for a reports folder ({} when it records none); ReportError when
    the file is not such a mapping."""
    path = Path(reports_dir) / PUBLISHED_PATH
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ReportError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ReportError(f"{path}: not a mapping of version to publish time")
    return data


def dated(reports_dir: Path, on_index: Mapping[str, str | None]) -> dict[str, str]:
    """The folder's publish times, with the index's (version -> its stamp) added for each of the
    SDK's own reports that has none yet (a custom CLI's report, 0.2.189+cli-2.1.300, is no release)."""
    times = load(reports_dir)
    for path in Path(reports_dir).glob("*.json"):
        stamp = on_index.get(path.stem)
        if "+" not in path.stem and path.stem not in times and stamp:
            times[path.stem] = normalised(stamp)
    return times


def save(reports_dir: Path, times: Mapping[str, str]) -> Path:
    """Write the mapping, oldest release first (so a new release is one added line in a diff)."""
    path = Path(reports_dir) / PUBLISHED_PATH
    ordered = {v: times[v] for v in sorted(times, key=version_key)}
    write_atomic(path, (json.dumps(ordered, indent=2) + "\n").encode("utf-8"))
    return path
