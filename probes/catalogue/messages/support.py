"""What several of the messages behaviours share; declares no behaviour."""

from __future__ import annotations

from typing import Any


def kind_of(m: Any) -> str:
    return type(m).__name__


def delta_type(m: Any) -> str | None:
    """The delta type of a StreamEvent's content_block_delta, else None."""
    event = getattr(m, "event", None) if kind_of(m) == "StreamEvent" else None
    if not isinstance(event, dict) or event.get("type") != "content_block_delta":
        return None
    return str((event.get("delta") or {}).get("type"))


def strings(value: Any) -> list[str]:
    """Every string inside `value`, through dicts, lists and tuples."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []
