"""The public surface of the SDK under test, found by introspection, and what names its items.

An upgrade gate can only warn about a contract some behaviour pins; to know which
contracts none pins, the surface is enumerated from the SDK itself (its dataclasses,
TypedDicts, Literals, `__all__`), never from a hand-kept list, so a release that adds an
option shows up as an item no behaviour covers. Each item is `kind:name`:

    option:NAME                  a ClaudeAgentOptions field
    client:NAME                  a public ClaudeSDKClient method
    function:NAME                a function in claude_agent_sdk.__all__
    hook-event:NAME              a value of the HookEvent Literal
    hook-output:TYPE.KEY         a key of a hook output TypedDict (the common sync/async
                                 outputs and every hook-specific output they accept)
    hook-matcher:NAME            a HookMatcher field
    permission:CLASS[.FIELD]     a permission result class and its fields, and the fields
                                 of ToolPermissionContext
    permission-update:NAME       a PermissionUpdate field; `type=VALUE` for each update type
    agent:NAME                   an AgentDefinition field
    message:CLASS                a message class (with its exported subclasses) or a
                                 content block class
    error:CLASS                  an exported subclass of ClaudeSDKError

A kind the SDK version lacks (0.1.x has no hook-specific outputs) gives no items; nothing
here raises on an old SDK. This module knows no behaviour: the catalogue computes coverage
from what behaviours declare (`pins`; `requires` only names items, with `named_by` below).
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import types
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sdkprobe.requirements import Requirement

# in listing order; query, class, hook-input and value are the TypeScript SDK's own (ts_surface.py)
KINDS = (
    "option",
    "client",
    "query",
    "function",
    "class",
    "hook-event",
    "hook-input",
    "hook-output",
    "hook-matcher",
    "permission",
    "permission-update",
    "agent",
    "message",
    "error",
    "value",
)
# a name is one line, no space at either end (a union member may be '/login managed key')
_ITEM = re.compile(r"^(?P<kind>[a-z]+(?:-[a-z]+)*):(?P<name>\S(?:[^\n]*\S)?)$")

# The keys that only route a hook output (its event's name, the slot of the specific
# output): they are the event and the specific output's own items, not contracts of their own.
_ROUTING_KEYS = ("hookEventName", "hookSpecificOutput")
# What marks a TypedDict key optional or required (Python 3.11 on; 3.10 has neither).
_WRAPPERS = tuple(w for w in (getattr(typing, n, None) for n in ("NotRequired", "Required")) if w is not None)
# A dataclass field that only tags which class a value is (`behavior="allow"`).
_TAG_FIELDS = ("behavior",)
# The classes whose fields are `permission:` items; the results also as items themselves.
_PERMISSION_RESULTS = ("PermissionResultAllow", "PermissionResultDeny")
_PERMISSION_CONTEXT = "ToolPermissionContext"
# A requirement `field:CLASS.NAME` names the item of that field in this kind.
_FIELD_KINDS = {"ClaudeAgentOptions": "option", "AgentDefinition": "agent", "HookMatcher": "hook-matcher"}


@dataclass(frozen=True, order=True)
class Item:
    """One public item: its kind, its name within the kind, and where the SDK defines it
    (module.qualname, a field or key appended)."""

    kind: str
    name: str
    origin: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"


def parse_item(text: str) -> tuple[str, str]:
    """(kind, name) of an item's `kind:name`; ValueError naming the kinds otherwise."""
    m = _ITEM.match(text) if isinstance(text, str) else None
    if not m or m.group("kind") not in KINDS:
        raise ValueError(f"surface item {text!r} is not KIND:NAME with KIND one of {', '.join(KINDS)}")
    return m.group("kind"), m.group("name")


def surface(sdk: Any = None) -> list[Item]:
    """Every public item of `sdk` (the installed claude_agent_sdk by default), in kind order
    and then by name: the same SDK gives the same list."""
    if sdk is None:
        import claude_agent_sdk as sdk
    found: dict[str, Item] = {}
    for finder in _FINDERS:
        try:
            items = list(finder(sdk))
        except Exception:  # an SDK shaped unlike any seen: that kind is skipped, never a crash
            continue
        for item in items:
            found.setdefault(str(item), item)
    return sorted(found.values(), key=lambda i: (KINDS.index(i.kind), i.name))


def names(sdk: Any = None) -> list[str]:
    """The surface as sorted `kind:name` strings: what a report records of its version."""
    return sorted(str(i) for i in surface(sdk))


def named_by(requirement: Requirement) -> tuple[str, ...]:
    """The surface items a behaviour's requirement (`option:tools`, `api:ClaudeSDKClient.interrupt`,
    `field:AgentDefinition.skills`) names, as `kind:name`; none for `package:` and `cli>=`.

    A requirement is declared before any SDK is at hand, so this reads it alone: `api:NAME`
    is the item its spelling makes it (see `_kind_of_export`)."""
    kind, rest = requirement.kind, requirement.name
    if kind == "option":
        return (f"option:{rest}",)
    if kind == "field":
        cls, _, field = rest.partition(".")
        if cls in _FIELD_KINDS:
            return (f"{_FIELD_KINDS[cls]}:{field}",)
        if cls == "PermissionUpdate":
            return (f"permission-update:{field}",)
        if cls in (*_PERMISSION_RESULTS, _PERMISSION_CONTEXT):
            return (f"permission:{cls}.{field}",)
        return ()
    if kind == "api":
        head, _, method = rest.partition(".")
        if head == "ClaudeSDKClient" and method and "." not in method:
            return (f"client:{method}",)
        if "." not in rest:
            return tuple(f"{k}:{rest}" for k in [_kind_of_export(rest)] if k)
    return ()


def _kind_of_export(name: str) -> str | None:
    """The kind an exported name is an item of, by how the SDK spells each kind's names
    (list_sessions, ProcessError, PermissionResultDeny, TaskStartedMessage, TextBlock,
    StreamEvent); None for a class that is no item (HookMatcher, ToolAnnotations)."""
    if name.islower():
        return "function"
    if name.endswith("Error"):
        return "error"
    if name in _PERMISSION_RESULTS:
        return "permission"
    if name == "SDKMessage":  # TypeScript's union of every message: its members are the items
        return None
    if name.endswith(("Message", "Block", "Event")):
        return "message"
    return None


# --- finders: one per kind, each given the SDK module -----------------------------------


def _options(sdk: Any) -> Iterator[Item]:
    yield from _fields("option", _find(sdk, "ClaudeAgentOptions"))


def _client(sdk: Any) -> Iterator[Item]:
    cls = _find(sdk, "ClaudeSDKClient")
    if not inspect.isclass(cls):
        return
    for name, _ in inspect.getmembers(cls, inspect.isfunction):
        if not name.startswith("_"):
            yield Item("client", name, f"{_where(cls)}.{name}")


def _functions(sdk: Any) -> Iterator[Item]:
    for name in _exported(sdk):
        obj = getattr(sdk, name, None)
        if inspect.isfunction(obj):
            yield Item("function", name, _where(obj))


def _hook_events(sdk: Any) -> Iterator[Item]:
    event = _find(sdk, "HookEvent")
    if event is None:
        return
    where = f"{_home(sdk, 'HookEvent')}.HookEvent"
    for value in _literal_values(event):
        yield Item("hook-event", str(value), where)


def _hook_outputs(sdk: Any) -> Iterator[Item]:
    for output in _typeddicts(_union_members(_find(sdk, "HookJSONOutput"))):
        hints = _hints(output)
        yield from _keys("hook-output", output, hints)
        for specific in _typeddicts(_union_members(hints.get("hookSpecificOutput"))):
            yield from _keys("hook-output", specific, _hints(specific))


def _hook_matcher(sdk: Any) -> Iterator[Item]:
    yield from _fields("hook-matcher", _find(sdk, "HookMatcher"))


def _permissions(sdk: Any) -> Iterator[Item]:
    for name in _PERMISSION_RESULTS:
        cls = _find(sdk, name)
        if dataclasses.is_dataclass(cls):
            yield Item("permission", name, _where(cls))
            yield from _fields("permission", cls, prefix=f"{name}.")
    yield from _fields("permission", _find(sdk, _PERMISSION_CONTEXT), prefix=f"{_PERMISSION_CONTEXT}.")


def _permission_update(sdk: Any) -> Iterator[Item]:
    cls = _find(sdk, "PermissionUpdate")
    if not dataclasses.is_dataclass(cls):
        return
    yield from (i for i in _fields("permission-update", cls) if i.name != "type")
    for value in _literal_values(_hints(cls).get("type")):
        yield Item("permission-update", f"type={value}", f"{_where(cls)}.type")


def _agent(sdk: Any) -> Iterator[Item]:
    yield from _fields("agent", _find(sdk, "AgentDefinition"))


def _messages(sdk: Any) -> Iterator[Item]:
    messages = [c for c in _union_members(_find(sdk, "Message")) if inspect.isclass(c)]
    exported = [getattr(sdk, n, None) for n in _exported(sdk)]
    subclasses = [c for c in exported if inspect.isclass(c) and any(issubclass(c, m) for m in messages)]
    blocks = [c for c in _union_members(_find(sdk, "ContentBlock")) if inspect.isclass(c)]
    for cls in (*messages, *subclasses, *blocks):
        yield Item("message", cls.__name__, _where(cls))


def _errors(sdk: Any) -> Iterator[Item]:
    base = getattr(sdk, "ClaudeSDKError", None)
    if not inspect.isclass(base):
        return
    for name in _exported(sdk):
        obj = getattr(sdk, name, None)
        if inspect.isclass(obj) and issubclass(obj, base):
            yield Item("error", name, _where(obj))


_FINDERS = (
    _options,
    _client,
    _functions,
    _hook_events,
    _hook_outputs,
    _hook_matcher,
    _permissions,
    _permission_update,
    _agent,
    _messages,
    _errors,
)


# --- introspection helpers ----------------------------------------------------------------


def _find(sdk: Any, name: str) -> Any:
    """A name the package exports, or else one its `types` module defines (HookEvent is only there)."""
    found = getattr(sdk, name, None)
    return found if found is not None else getattr(getattr(sdk, "types", None), name, None)


def _home(sdk: Any, name: str) -> str:
    """The module `_find` finds `name` in (a Literal alias knows no module of its own)."""
    holder = sdk if getattr(sdk, name, None) is not None else getattr(sdk, "types", sdk)
    return str(getattr(holder, "__name__", "?"))


def _exported(sdk: Any) -> list[str]:
    """The package's public names: its `__all__`, or (when it has none) every name without a `_`."""
    listed = getattr(sdk, "__all__", None)
    if isinstance(listed, (list, tuple)):
        return [str(n) for n in listed]
    return sorted(n for n in dir(sdk) if not n.startswith("_"))


def _where(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}"


def _fields(kind: str, cls: Any, prefix: str = "") -> Iterator[Item]:
    if not (inspect.isclass(cls) and dataclasses.is_dataclass(cls)):
        return
    for f in dataclasses.fields(cls):
        if f.name not in _TAG_FIELDS:
            yield Item(kind, f"{prefix}{f.name}", f"{_where(cls)}.{f.name}")


def _keys(kind: str, typed: type, hints: dict[str, Any]) -> Iterator[Item]:
    for key in hints:
        if key not in _ROUTING_KEYS:
            yield Item(kind, f"{typed.__name__}.{key}", f"{_where(typed)}.{key}")


def _hints(cls: Any) -> dict[str, Any]:
    """A class's resolved annotations; the raw ones when they cannot be resolved (an old SDK's
    forward reference): the names are what matter, the types only for Literal values."""
    try:
        return dict(typing.get_type_hints(cls))
    except Exception:
        return dict(getattr(cls, "__annotations__", {}) or {})


def _typeddicts(candidates: Iterable[Any]) -> list[type]:
    return [c for c in candidates if inspect.isclass(c) and typing.is_typeddict(c)]


def _union_members(tp: Any) -> list[Any]:
    """The members of a Union (either spelling); a type that is no union is its only member."""
    if tp is None:
        return []
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return [m for arg in typing.get_args(tp) for m in _union_members(arg)]
    return [tp]


def _literal_values(tp: Any) -> list[Any]:
    """Every value of a Literal, through unions of Literals and NotRequired/Optional wrappers."""
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return list(typing.get_args(tp))
    if origin is typing.Annotated:
        return _literal_values(typing.get_args(tp)[0])
    if origin in (typing.Union, types.UnionType, *_WRAPPERS):
        return [v for arg in typing.get_args(tp) for v in _literal_values(arg)]
    return []
