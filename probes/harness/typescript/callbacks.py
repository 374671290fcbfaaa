"""A probe's Python callbacks, answering what the TypeScript SDK asks through the driver.

The TypeScript SDK calls `canUseTool(toolName, input, options)`, a hook callback
`(input, toolUseID, {signal})` and a sessionStore's methods; the driver relays each call's
JSON here. A probe's callback is the same function it gives the Python SDK (its store the
same object), so its arguments are built as the Python API spells them (a
ToolPermissionContext, a HookContext, a SessionKey) and its answer is written back as the
TypeScript SDK expects it (`{behavior: 'allow', updatedInput}`, a hook output whose
`async_`/`continue_` are the JSON keys `async`/`continue`). Nothing is added or defaulted:
an answer the probe leaves out is left out.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from sdkprobe.harness.typescript.names import camel, snake

Answer = Callable[[list[Any]], Awaitable[Any]]  # a callback's JSON args -> its JSON answer

# TypeScript's name for each field of the context canUseTool gets -> the Python SDK's.
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


def can_use_tool(fn: Any) -> Answer:
    async def answer(args: list[Any]) -> Any:
        tool_name, tool_input, given = args[0], args[1], (args[2] if len(args) > 2 else None) or {}
        result = await fn(tool_name, tool_input, _permission_context(given))
        return permission_result(result)

    return answer


def _permission_context(given: dict[str, Any]) -> Any:
    import claude_agent_sdk as sdk

    known = {f.name for f in dataclasses.fields(sdk.ToolPermissionContext)}
    kwargs: dict[str, Any] = {}
    for ts_name, py_name in _CONTEXT.items():
        if ts_name in given and py_name in known:
            kwargs[py_name] = given[ts_name]
    if "suggestions" in kwargs:
        from_dict = getattr(sdk.PermissionUpdate, "from_dict", None)
        kwargs["suggestions"] = [from_dict(s) if from_dict else s for s in kwargs["suggestions"] or []]
    return sdk.ToolPermissionContext(**kwargs)


def permission_result(result: Any) -> Any:
    """A PermissionResultAllow/Deny as the TypeScript PermissionResult; anything else (a dict,
    None) as it is, for the TypeScript SDK to make of it what it makes of such an answer."""
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        return result
    behavior = getattr(result, "behavior", None)
    out: dict[str, Any] = {"behavior": behavior}
    for field in dataclasses.fields(result):
        value = getattr(result, field.name)
        if field.name == "behavior" or value is None:
            continue
        if field.name == "updated_permissions":
            value = [permission_update(u) for u in value]
        if field.name == "interrupt" and value is False:
            continue
        out[camel(field.name)] = value
    return out


def permission_update(update: Any) -> Any:
    """A PermissionUpdate as the JSON a TypeScript caller writes: its fields camelCased, None
    ones left out, its rules as {toolName, ruleContent}. Not checked: the TypeScript SDK
    decides what to make of an update the Python one would refuse."""
    if not dataclasses.is_dataclass(update):
        return update
    out: dict[str, Any] = {}
    for field in dataclasses.fields(update):
        value = getattr(update, field.name)
        if value is None:
            continue
        if field.name == "rules":
            value = [_rule(rule) for rule in value]
        out[camel(field.name)] = value
    return out


def _rule(rule: Any) -> Any:
    if not dataclasses.is_dataclass(rule):
        return rule
    return {camel(k): v for k, v in vars(rule).items() if v is not None}


def hook(fn: Any) -> Answer:
    async def answer(args: list[Any]) -> Any:
        hook_input, tool_use_id = args[0], (args[1] if len(args) > 1 else None)
        output = await fn(hook_input, tool_use_id, {"signal": None})
        return hook_output(output)

    return answer


def hook_output(output: Any) -> Any:
    """The Python spellings `async_` and `continue_` as their JSON keys."""
    if not isinstance(output, dict):
        return output
    return {{"async_": "async", "continue_": "continue"}.get(k, k): v for k, v in output.items()}


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
