"""A probe's Python callbacks, answering what the TypeScript SDK asks through the driver.

The TypeScript SDK calls `canUseTool(toolName, input, options)`, a hook callback
`(input, toolUseID, {signal})` and a sessionStore's methods; the driver relays each call's
JSON here. A probe's callback is the same function it gives the Python SDK (its store the
same object). What the TypeScript SDK passed reaches it under the harness's names and
nothing more: canUseTool's options as a `PermissionContext` whose fields are snake_cased
(`blockedPath` -> `blocked_path`) and whose suggestions are the JSON objects the SDK gave,
never parsed by the Python SDK. Its answer is written back as a TypeScript caller writes
one (`{behavior: 'allow', updatedInput}`, a hook output's `async_`/`continue_` as the keys
`async`/`continue`), from the harness's types (given.py), never the Python SDK's. Nothing is
added or defaulted: an answer the probe leaves out is left out.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from sdkprobe.harness.given import Given
from sdkprobe.harness.typescript.names import camel, snake

Answer = Callable[[list[Any]], Awaitable[Any]]  # a callback's JSON args -> its JSON answer

# TypeScript's name for each field of canUseTool's options -> the harness's.
_CONTEXT = {
    "suggestions": "suggestions",
    "blockedPath": "blocked_path",
    "decisionReason": "decision_reason",
    "toolUseID": "tool_use_id",
    "agentID": "agent_id",
    "title": "title",
    "displayName": "display_name",
    "description": "description",
}


@dataclasses.dataclass
class PermissionContext:
    """canUseTool's options as the TypeScript SDK passed them: a field it left out is None
    (suggestions too: no empty list is made up), its suggestions the objects it gave (the
    CLI's PermissionUpdate JSON)."""

    suggestions: list[Any] | None = None
    blocked_path: str | None = None
    decision_reason: str | None = None
    tool_use_id: str | None = None
    agent_id: str | None = None
    title: str | None = None
    display_name: str | None = None
    description: str | None = None


def can_use_tool(fn: Any) -> Answer:
    async def answer(args: list[Any]) -> Any:
        tool_name, tool_input, given = args[0], args[1], (args[2] if len(args) > 2 else None) or {}
        context = PermissionContext(**{py: given[ts] for ts, py in _CONTEXT.items() if ts in given})
        result = await fn(tool_name, tool_input, context)
        return permission_result(result)

    return answer


def permission_result(result: Any) -> Any:
    """A PermissionResultAllow/Deny as the TypeScript PermissionResult (decision_classification
    as decisionClassification); anything else (a dict, None) as it is, for the TypeScript SDK to
    make of it what it makes of such an answer."""
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        return result
    fields = fields_of(result)
    out: dict[str, Any] = {"behavior": fields.get("behavior")}
    for name, value in fields.items():
        if name == "behavior" or value is None:
            continue
        if name == "updated_permissions":
            value = [permission_update(u) for u in value]
        if name == "interrupt" and value is False:
            continue
        out[camel(name)] = value
    return out


def permission_update(update: Any) -> Any:
    """A PermissionUpdate as the JSON a TypeScript caller writes: its fields camelCased, None
    ones left out, its rules as {toolName, ruleContent}. Not checked: the TypeScript SDK
    decides what to make of an update the Python one would refuse."""
    if not dataclasses.is_dataclass(update):
        return update
    out: dict[str, Any] = {}
    for name, value in fields_of(update).items():
        if value is None:
            continue
        if name == "rules":
            value = [_rule(rule) for rule in value]
        out[camel(name)] = value
    return out


def _rule(rule: Any) -> Any:
    if not dataclasses.is_dataclass(rule):
        return rule
    return {camel(k): v for k, v in fields_of(rule).items() if v is not None}


def fields_of(value: Any) -> dict[str, Any]:
    """A harness type's fields (its `extra` ones after the others); any other dataclass's (one
    a probe built of the Python SDK's classes on purpose) its attributes, as they are."""
    return value.fields() if isinstance(value, Given) else dict(vars(value))


def hook(fn: Any) -> Answer:
    async def answer(args: list[Any]) -> Any:
        hook_input, tool_use_id = args[0], (args[1] if len(args) > 1 else None)
        output = await fn(hook_input, tool_use_id, {"signal": None})
        return hook_output(output)

    return answer


# A hook output's keys a probe spells as Python must -> the JSON keys a TypeScript caller writes.
OUTPUT_KEYS = {"async_": "async", "continue_": "continue"}


def hook_output(output: Any) -> Any:
    """The Python spellings `async_` and `continue_` as their JSON keys."""
    if not isinstance(output, dict):
        return output
    return {OUTPUT_KEYS.get(k, k): v for k, v in output.items()}


# A SessionStore's methods: the TypeScript SDK's name -> the Python SDK's.
STORE_METHODS = {
    "append": "append",
    "load": "load",
    "listSessions": "list_sessions",
    "listSessionSummaries": "list_session_summaries",
    "delete": "delete",
    "listSubkeys": "list_subkeys",
}


def store_method(store: Any, ts_method: str) -> Answer:
    """One method of a probe's session store, called as the TypeScript SDK calls it: a
    SessionKey `{projectKey, sessionId, subpath}` reaches the store as the Python SDK's
    `{project_key, session_id, subpath}`; entries pass as they are (both are the CLI's
    transcript lines); a listing comes back with its keys camelCased."""
    method = getattr(store, STORE_METHODS[ts_method])

    async def answer(args: list[Any]) -> Any:
        given = [_python_key(a) if isinstance(a, dict) and "sessionId" in a else a for a in args]
        result = method(*given)
        if inspect.isawaitable(result):
            result = await result
        if ts_method in ("listSessions", "listSessionSummaries") and isinstance(result, list):
            return [{camel(k): v for k, v in row.items()} if isinstance(row, dict) else row for row in result]
        return result

    return answer


def _python_key(key: dict[str, Any]) -> dict[str, Any]:
    return {snake(k): v for k, v in key.items()}
