"""The reports sdkprobe ships: the committed report of every listed SDK version, so that
`gate --baseline 0.2.181` works after a plain `pip install` as it does in a checkout.

A wheel carries the repository's reports/ as `sdkprobe/baselines/`; an editable install
reads reports/ in the checkout itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sdkprobe.report.errors import ReportError
from sdkprobe.report.store import load

_PACKAGE = Path(__file__).resolve().parent.parent
_VERSION = re.compile(r"^\d+(\.\d+)+$")


def shipped_dir() -> Path:
    """Where the shipped reports are: inside the installed package, or the checkout's reports/."""
    inside = _PACKAGE / "baselines"
    return inside if inside.is_dir() else _PACKAGE.parent / "reports"


def shipped_versions(typescript: bool = False) -> list[str]:
    from sdkprobe.releases.versions import version_key

    folder = shipped_dir() / "ts" if typescript else shipped_dir()
    return sorted((p.stem for p in folder.glob("*.json") if _VERSION.match(p.stem)), key=version_key)


def resolve_baseline(given: str, typescript: bool = False) -> dict[str, Any]:
    """The baseline report named by a path or by a listed SDK version (of the TypeScript SDK,
    from the shipped ts/ folder, with `typescript`); ReportError (one line) when it is neither.
    A path wins: a file called `0.2.181` in the working directory is that file."""
    path = Path(given)
    if path.exists() or not _VERSION.match(given):
        return load(path)
    shipped = (shipped_dir() / "ts" if typescript else shipped_dir()) / f"{given}.json"
    if not shipped.is_file():
        versions = shipped_versions(typescript)
        which = "the TypeScript SDK's " if typescript else ""
        raise ReportError(
            f"--baseline {given}: sdkprobe ships no report for {which}that version; it ships "
            f"{', '.join(versions) if versions else 'none'} (or give a report's path)"
        )
    return load(shipped)
