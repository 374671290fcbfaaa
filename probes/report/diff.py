"""Says in a few words where two observations differ, for the gate and the release notes."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

_MISSING = object()


def differences(a: Any, b: Any, path: str = "observed", width: int = 40) -> list[str]:
    """Every leaf that differs, as 'path: old → new' (absent leaves shown as 'absent'), each
    value cut to `width` characters."""
    return list(_walk(a, b, path, width))


def in_short(found: list[str], limit: int = 3, each: Callable[[str], str] = str) -> str:
    """At most `limit` of the differences found, each as `each` says it, with a count of the rest."""
    more = f" (+{len(found) - limit} more)" if len(found) > limit else ""
    return "; ".join(each(d) for d in found[:limit]) + more


def _walk(a: Any, b: Any, path: str, width: int = 40) -> Iterator[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            yield from _walk(a.get(k, _MISSING), b.get(k, _MISSING), f"{path}.{k}", width)
    elif isinstance(a, list) and isinstance(b, list) and _names_moved(a, b):
        # A list of names that shifted (tools offered) reads best as what came and went.
        added = [x for x in b if x not in a]
        removed = [x for x in a if x not in b]
        if added or removed:
            parts = [f"+{_show(x, width)}" for x in added] + [f"-{_show(x, width)}" for x in removed]
            yield f"{path}: " + " ".join(parts)
        else:
            yield f"{path}: reordered"
    elif isinstance(a, list) and isinstance(b, list):
        for i in range(max(len(a), len(b))):
            yield from _walk(a[i] if i < len(a) else _MISSING, b[i] if i < len(b) else _MISSING, f"{path}[{i}]", width)
    elif a != b or type(a) is not type(b):
        yield f"{path}: {_show(a, width)} → {_show(b, width)}"


def _names_moved(a: list[Any], b: list[Any]) -> bool:
    """Lists of scalars that differ in length or in more than two places."""
    if a == b or not all(isinstance(x, (str, int, float, bool)) or x is None for x in a + b):
        return False
    return len(a) != len(b) or sum(x != y for x, y in zip(a, b, strict=True)) > 2


def _show(v: Any, width: int = 40) -> str:
    if v is _MISSING:
        return "absent"
    s = json.dumps(v, ensure_ascii=False, sort_keys=True)
    return s if len(s) <= width else s[: width - 1] + "…"
