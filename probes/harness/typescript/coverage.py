"""Which behaviours cover an item of a TypeScript release's surface.

Behaviours pin what they cover in the Python SDK's item names (`option:add_dirs`,
`client:set_model`, `permission:ToolPermissionContext.tool_use_id`), and may pin a
TypeScript item directly (`hook-event:Interrupt`). A TypeScript item is pinned by what pins
it and what pins its Python counterpart, found through the same tables the harness
translates options, methods and functions with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from sdkprobe.harness.typescript.client import METHODS
from sdkprobe.harness.typescript.functions import TABLE as FUNCTIONS
from sdkprobe.harness.typescript.options import TABLE as OPTIONS

_OPTION = {row.ts: py for py, row in OPTIONS.items() if row.ts}
_METHOD = {ts: py for py, ts in METHODS.items()}
_FUNCTION = {f.ts_name: py for py, f in FUNCTIONS.items()} | {"createSdkMcpServer": "create_sdk_mcp_server"}
# kinds whose names both SDKs spell alike
_ALIKE = ("hook-event", "agent", "permission-update")
_RESULTS = {"allow": "PermissionResultAllow", "deny": "PermissionResultDeny"}
_KEYWORDS = ("continue", "async")  # hook output keys Python spells with a trailing _


def python_item(item: str) -> str | None:
    """The Python SDK's item for TypeScript item `item`, or None when it has none."""
    kind, _, name = item.partition(":")
    if kind == "option":
        return f"option:{_OPTION[name]}" if name in _OPTION else None
    if kind == "query":
        return f"client:{_METHOD[name]}" if name in _METHOD else None
    if kind == "function":
        return f"function:{_FUNCTION.get(name, _snake(name))}"
    if kind == "hook-output":
        head, _, key = name.rpartition(".")
        return f"hook-output:{head}.{key}_" if key in _KEYWORDS else item
    if kind == "permission":
        head, _, key = name.rpartition(".")
        if not head:
            return f"permission:{_RESULTS[name]}" if name in _RESULTS else None
        if head in _RESULTS:
            return f"permission:{_RESULTS[head]}.{_snake(key)}"
        return f"permission:ToolPermissionContext.{_snake(key)}" if head.startswith("CanUseTool.") else None
    if kind == "permission-update" and not name.startswith("type="):
        return f"permission-update:{name.rpartition('.')[2]}"
    if kind == "hook-matcher":  # a HookCallbackMatcher field is the HookMatcher field of its name snake_cased
        return f"hook-matcher:{_snake(name)}"
    return item if kind in _ALIKE else None


def pinned(pinning: Mapping[str, Mapping[str, Sequence[str]]], items: Iterable[str]) -> dict[str, dict[str, list[str]]]:
    """TypeScript item -> {id: the sub-checks pinning it}, for each of `items`, given the
    catalogue's pinning (item -> {id: sub-checks}, in either SDK's names)."""
    found: dict[str, dict[str, list[str]]] = {}
    for item in items:
        twin = python_item(item)
        by = {**(dict(pinning.get(twin, {})) if twin else {}), **pinning.get(item, {})}
        if by:
            found[item] = {bid: list(by[bid]) for bid in sorted(by)}
    return found


def _snake(name: str) -> str:
    """toolUseID -> tool_use_id, blockedPath -> blocked_path."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name.replace("ID", "Id")).lower()
