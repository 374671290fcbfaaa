"""Finds what must never be published in a report: machine paths and API keys.

The runner normalises observations already; this is the second lock on the door, so a
probe that forgets to name one of its paths stops the writer instead of leaking a home
directory into a committed file. Authored text (claim, summary, source) is not machine output
and is not scanned.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_LEAK = re.compile(r"(?:/tmp/|/root/|/home/|/Users/|/private/var/|/var/folders/|[A-Za-z]:\\Users\\|sk-ant-)")
_AUTHORED = {"claim", "summary", "source", "security"}


def find_leaks(report: dict[str, Any]) -> list[str]:
    """Where the report holds a path or key, as 'location: snippet' strings (empty if none)."""
    found: list[str] = []
    for key, value in report.items():
        if key == "behaviours" and isinstance(value, list):
            for b in value:
                bid = b.get("id", "?") if isinstance(b, dict) else "?"
                for k, v in b.items() if isinstance(b, dict) else ():
                    if k not in _AUTHORED:
                        found += _scan(v, f"{bid}.{k}")
        else:
            found += _scan(value, key)
    return found


def _scan(value: Any, where: str) -> list[str]:
    return [f"{loc}: {snippet}" for loc, snippet in _walk(value, where)]


def _walk(value: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(str(k), f"{where} (key)")
            yield from _walk(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{where}[{i}]")
    elif isinstance(value, str):
        m = _LEAK.search(value)
        if m:
            yield where, value[m.start() : m.start() + 40]
