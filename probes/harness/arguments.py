"""How a probe writes an argument of an SDK method that JSON alone cannot carry: a TypeScript
Query method's (`TsClient.query_method`), which the Node driver (typescript/driver.mjs) makes
into the value the method takes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def iterable(items: Iterable[Any]) -> dict[str, Any]:
    """An argument the method gets as an async iterable of `items` (streamInput's stream)."""
    return {"$iterable": list(items)}
