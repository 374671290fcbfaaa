"""Orders SDK versions the way people read them: 0.2.9 < 0.2.10 < 0.2.189."""

from __future__ import annotations

import re
from typing import Any

from packaging.version import InvalidVersion, Version


def version_key(version: str) -> tuple[Any, ...]:
    """A sort key; PEP 440 versions by packaging, anything else after them, piecewise."""
    try:
        return (0, Version(version), ())
    except InvalidVersion:
        return (1, 0, _pieces(version))


def _pieces(version: str) -> tuple[tuple[int, int, str], ...]:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.+_-]", version))
