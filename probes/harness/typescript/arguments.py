"""How a probe writes an argument of a TypeScript Query method that JSON alone cannot carry
(`TsClient.query_method`): the driver (driver.mjs) makes the value the method takes of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def iterable(items: Iterable[Any]) -> dict[str, Any]:
    """An argument the method gets as an async iterable of `items` (streamInput's stream)."""
    return {"$iterable": list(items)}
