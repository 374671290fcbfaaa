"""The public surface of a TypeScript SDK release, decided from its declarations alone.

The TypeScript SDK declares more than the Python one has (35 hook events, 40 message
kinds, the string unions a host branches on), so its surface is read from its own
`sdk.d.ts` (releases/declarations.py), not projected from Python's. Each item is
`kind:name`, in the kinds of sdkprobe.surface and a few of TypeScript's own:

    option:NAME                   an `Options` field
    query:NAME                    a `Query` method
    function:NAME                 an exported function
    class:NAME                    an exported class that is no error
    error:NAME                    an exported class deriving from Error
    hook-event:NAME               a member of `HOOK_EVENTS` (else of the `HookEvent` union)
    hook-input:FIELD              a field of `BaseHookInput` (every hook input has it)
    hook-input:EVENT.FIELD        a field of that event's input (the `HookInput` member whose
                                  `hook_event_name` is EVENT), the base fields left out
    hook-output:TYPE.KEY          a key of a `HookJSONOutput` member, and of each
                                  hook-specific output its `hookSpecificOutput` accepts
    hook-matcher:NAME             a `HookCallbackMatcher` field
    permission:BEHAVIOR[.FIELD]   a `PermissionResult` member by its `behavior`, and its fields
    permission:CanUseTool.PARAM.FIELD  a field of an object the permission callback is handed
    permission-update:type=TYPE   a `PermissionUpdate` member by its `type`
    permission-update:TYPE.FIELD  and its fields
    agent:NAME                    an `AgentDefinition` field
    message:TYPE[/SUBTYPE]        an `SDKMessage` member by its `type` and `subtype` (one item
                                  per subtype when a member has several)
    message:TYPE[/SUBTYPE].FIELD  and its fields
    value:UNION=MEMBER            a member of an exported string-literal union (PermissionMode,
                                  PermissionDecisionClassification, SDKStartupFailureReason, ...)

The field a union member is told apart by (`type` and `subtype`, `behavior`,
`hook_event_name`, a hook output's `hookEventName` and `hookSpecificOutput`) is that
member's own item, not an item of its own.
A release that lacks a declaration gives no items of that kind; the list is sorted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sdkprobe.releases.declarations import Declarations
from sdkprobe.surface import KINDS, Item

# a hook output's keys that only route it: its event's name, the slot of the specific output
_ROUTING = ("hookEventName", "hookSpecificOutput")
# unions whose members are already items of a kind of their own
_UNIONS_ELSEWHERE = ("HookEvent",)


def surface(decls: Declarations) -> list[Item]:
    """Every public item the declarations give, in kind order and then by name."""
    found: dict[str, Item] = {}
    for finder in _FINDERS:
        for item in finder(decls):
            found.setdefault(str(item), item)
    return sorted(found.values(), key=lambda i: (KINDS.index(i.kind), i.name))


def names(decls: Declarations) -> list[str]:
    """The surface as sorted `kind:name` strings: what a TypeScript report records."""
    return sorted(str(i) for i in surface(decls))


def _options(d: Declarations) -> Iterator[Item]:
    yield from _fields_of(d, "option", "Options")


def _query(d: Declarations) -> Iterator[Item]:
    for method in d.methods("Query"):
        yield Item("query", method, f"Query.{method}")


def _functions(d: Declarations) -> Iterator[Item]:
    for name in d.of_kind("function"):
        yield Item("function", name, name)


def _classes(d: Declarations) -> Iterator[Item]:
    for name in d.of_kind("class"):
        yield Item("error" if (d.entry(name) or {}).get("error") else "class", name, name)


def _hook_events(d: Declarations) -> Iterator[Item]:
    where = "HOOK_EVENTS" if _literals(d, "HOOK_EVENTS") else "HookEvent"
    for event in _literals(d, where):
        yield Item("hook-event", event, where)


def _hook_inputs(d: Declarations) -> Iterator[Item]:
    base = d.fields("BaseHookInput") or {}
    yield from _fields_of(d, "hook-input", "BaseHookInput")
    for member in _members(d.entry("HookInput")):
        for event, keys in _tagged(member, "hook_event_name"):
            for key in keys:
                if key not in base:
                    yield Item("hook-input", f"{event}.{key}", f"{member.get('name')}.{key}")


def _hook_outputs(d: Declarations) -> Iterator[Item]:
    for output in _members(d.entry("HookJSONOutput")):
        yield from _keys("hook-output", output)
        for specific in _members(output["fields"].get("hookSpecificOutput")):
            yield from _keys("hook-output", specific)


def _hook_matcher(d: Declarations) -> Iterator[Item]:
    yield from _fields_of(d, "hook-matcher", "HookCallbackMatcher")


def _permissions(d: Declarations) -> Iterator[Item]:
    for member in _members(d.entry("PermissionResult")):
        for behavior, keys in _tagged(member, "behavior"):
            yield Item("permission", behavior, f"PermissionResult.{behavior}")
            yield from (Item("permission", f"{behavior}.{k}", f"PermissionResult.{behavior}.{k}") for k in keys)
    for parameter in (d.entry("CanUseTool") or {}).get("parameters", []):
        for key in parameter["fields"]:
            name = f"CanUseTool.{parameter['name']}.{key}"
            yield Item("permission", name, name)


def _permission_updates(d: Declarations) -> Iterator[Item]:
    for member in _members(d.entry("PermissionUpdate")):
        for kind, keys in _tagged(member, "type"):
            yield Item("permission-update", f"type={kind}", f"PermissionUpdate.{kind}")
            yield from (Item("permission-update", f"{kind}.{k}", f"PermissionUpdate.{kind}.{k}") for k in keys)


def _agent(d: Declarations) -> Iterator[Item]:
    yield from _fields_of(d, "agent", "AgentDefinition")


def _messages(d: Declarations) -> Iterator[Item]:
    for member in _members(d.entry("SDKMessage")):
        where = member.get("name") or "SDKMessage"
        for kind, keys in _tagged(member, "type", "subtype"):
            subtypes = (member["fields"].get("subtype") or {}).get("literals") or [None]
            for subtype in subtypes:
                label = kind if subtype is None else f"{kind}/{subtype}"
                yield Item("message", label, where)
                yield from (Item("message", f"{label}.{k}", f"{where}.{k}") for k in keys)


def hook_input_values(decls: Declarations) -> dict[str, dict[str, list[str]]]:
    """The string values each hook event's input declares a field takes (a union of string
    literals), by event and field, BaseHookInput's fields included; events with none left out."""
    base = {k: list(f["literals"]) for k, f in (decls.fields("BaseHookInput") or {}).items() if f.get("literals")}
    found: dict[str, dict[str, list[str]]] = {}
    for member in _members(decls.entry("HookInput")):
        for event, keys in _tagged(member, "hook_event_name"):
            own = {k: list(member["fields"][k]["literals"]) for k in keys if member["fields"][k].get("literals")}
            if base or own:
                found[event] = dict(sorted({**base, **own}.items()))
    return dict(sorted(found.items()))


def messages(decls: Declarations) -> dict[str, dict[str, dict[str, Any]]]:
    """Each `SDKMessage` member by its `message:` item's name (`system/init`; members sharing
    it, as `user` and its replay, merged), with each field it declares but `type` and
    `subtype`: `{"kinds": [...], "literals": [...]}` (see declarations.mjs), sorted."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for member in _members(decls.entry("SDKMessage")):
        for kind, keys in _tagged(member, "type", "subtype"):
            for subtype in (member["fields"].get("subtype") or {}).get("literals") or [None]:
                fields = found.setdefault(kind if subtype is None else f"{kind}/{subtype}", {})
                for key in keys:
                    declared = member["fields"][key]
                    was = fields.setdefault(key, {"kinds": [], "literals": []})
                    was["kinds"] = sorted({*was["kinds"], *(declared.get("kinds") or [])})
                    was["literals"] += [v for v in declared.get("literals") or [] if v not in was["literals"]]
    return {label: dict(sorted(fields.items())) for label, fields in sorted(found.items())}


def _values(d: Declarations) -> Iterator[Item]:
    for name in d.of_kind("type"):
        if name not in _UNIONS_ELSEWHERE:
            for value in _literals(d, name):
                yield Item("value", f"{name}={value}", name)


_FINDERS = (
    _options,
    _query,
    _functions,
    _classes,
    _hook_events,
    _hook_inputs,
    _hook_outputs,
    _hook_matcher,
    _permissions,
    _permission_updates,
    _agent,
    _messages,
    _values,
)


# --- reading entries ------------------------------------------------------------------------


def _fields_of(d: Declarations, kind: str, type_name: str) -> Iterator[Item]:
    for key in d.fields(type_name) or {}:
        yield Item(kind, key, f"{type_name}.{key}")


def _literals(d: Declarations, name: str) -> list[str]:
    return [str(v) for v in (d.entry(name) or {}).get("literals") or []]


def _members(entry: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The object types a union entry or field is made of (none for anything else)."""
    return list((entry or {}).get("members") or [])


def _tagged(member: Mapping[str, Any], tag: str, *routing: str) -> Iterator[tuple[str, list[str]]]:
    """(each value of the member's `tag` field, its fields but the tag and `routing`);
    nothing when it has no such tag."""
    fields = member["fields"]
    keys = [k for k in fields if k != tag and k not in routing]
    for value in (fields.get(tag) or {}).get("literals") or []:
        yield str(value), keys


def _keys(kind: str, typed: Mapping[str, Any]) -> Iterator[Item]:
    name = typed.get("name")
    if name:
        for key in typed["fields"]:
            if key not in _ROUTING:
                yield Item(kind, f"{name}.{key}", f"{name}.{key}")
