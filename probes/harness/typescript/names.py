"""Python names as the TypeScript SDK spells them, and back: session_id <-> sessionId."""

from __future__ import annotations

import re


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def snake(name: str) -> str:
    """camel's inverse: sessionId -> session_id."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
