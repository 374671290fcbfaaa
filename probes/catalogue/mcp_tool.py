"""Area `mcp`, topic tool: what `@tool` makes of a tool, as the CLI sees it over the control protocol.

A tool declared with `@tool(name, description, input_schema)` and served by
`create_sdk_mcp_server` is listed to the CLI (MCP tools/list) under its name, with its
description and its input schema as JSON Schema (a JSON Schema dict as given; a
`{name: type}` shorthand converted, every parameter required), and a tools/call the CLI
sends runs the handler with the call's arguments and returns its content to the CLI.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import Harness, Scenario

_SERVER = "probe"
_ECHO_SCHEMA = {
    "type": "object",
    "properties": {"text": {"type": "string", "description": "what to echo"}},
    "required": ["text"],
}
_ECHO_DESCRIPTION = "Echoes the text it is given."
_COUNT_DESCRIPTION = "Counts a word, shorthand schema."
# the {name: type} shorthand's parameters, and the JSON Schema the SDK documents for each
_SHORTHAND = {"word": ("str", {"type": "string"}), "times": ("int", {"type": "integer"})}
_SHORTHAND |= {"ratio": ("float", {"type": "number"}), "loud": ("bool", {"type": "boolean"})}
_SHORTHAND_SCHEMA = {
    "type": "object",
    "properties": {name: schema for name, (_, schema) in _SHORTHAND.items()},
    "required": list(_SHORTHAND),
}
_ECHO_ARGS = {"text": "plum"}
_COUNT_ARGS = {"word": "plum", "times": 3, "ratio": 0.5, "loud": True}
# the fake's requests, in the order it sends them (mcp_handshake: initialize, initialized, tools/list)
_LIST, _CALL_ECHO, _CALL_COUNT = "fake_req_3", "fake_req_4", "fake_req_5"


def _scenario() -> Scenario:
    return (
        Scenario()
        .wait_for_user()
        .init()
        .mcp_handshake(_SERVER)
        .mcp(_SERVER, "tools/call", {"name": "echo", "arguments": _ECHO_ARGS}, id=3)
        .mcp(_SERVER, "tools/call", {"name": "count", "arguments": _COUNT_ARGS}, id=4)
        .result(result="done")
    )


def _server(calls: list[dict[str, Any]]) -> Any:
    """The probe's in-process server: `echo` with a JSON Schema dict, `count` with the shorthand."""
    import claude_agent_sdk as sdk

    @sdk.tool("echo", _ECHO_DESCRIPTION, dict(_ECHO_SCHEMA))
    async def echo(args: dict[str, Any]) -> dict[str, Any]:
        calls.append({"tool": "echo", "args": dict(args)})
        return {"content": [{"type": "text", "text": f"echo: {args.get('text')}"}]}

    @sdk.tool("count", _COUNT_DESCRIPTION, {"word": str, "times": int, "ratio": float, "loud": bool})
    async def count(args: dict[str, Any]) -> dict[str, Any]:
        calls.append({"tool": "count", "args": dict(args)})
        return {"content": [{"type": "text", "text": f"counted {args.get('word')}"}]}

    return sdk.create_sdk_mcp_server(_SERVER, tools=[echo, count])


def _mcp_result(answer: dict[str, Any] | None) -> Any:
    """The JSON-RPC result (or error) inside the SDK's answer to one mcp_message request."""
    if answer is None:
        return {"unanswered": True}
    if answer.get("subtype") != "success":
        return {"control error": answer.get("error")}
    reply = (answer.get("response") or {}).get("mcp_response") or {}
    return reply.get("result", {"error": reply.get("error")})


def _call_seen(answer: dict[str, Any] | None) -> dict[str, Any]:
    result = _mcp_result(answer)
    content = result.get("content") if isinstance(result, dict) else None
    return {
        "texts": [b.get("text") for b in content or [] if isinstance(b, dict)],
        "isError": result.get("isError") if isinstance(result, dict) else None,
        **({} if content is not None else {"reply": result}),
    }


@behaviour(
    id="mcp.tool-decorator-listed-and-called",
    claim=(
        "A tool made with @tool(name, description, input_schema) and served by create_sdk_mcp_server is "
        "listed to the CLI (MCP tools/list) under that name with that description; a JSON Schema dict "
        "input_schema is sent as given, a {name: type} shorthand as an object schema with str, int, float, "
        "bool as string, integer, number, boolean and every parameter required; and the CLI's tools/call "
        "runs the handler with the call's arguments, its content returned to the CLI."
    ),
    summary="@tool's name, description and schema reach tools/list; tools/call runs the handler",
    source=("sdk-py", "tool"),
    tier="wire",
    checks=(
        "listed-with-name-and-description",
        "dict-schema-sent-as-given",
        "shorthand-schema-converted",
        "call-runs-handler-with-arguments",
    ),
    requires=("option:mcp_servers", "api:create_sdk_mcp_server", "package:mcp"),
    pins={
        "listed-with-name-and-description": ("function:tool",),
        "dict-schema-sent-as-given": ("function:tool",),
        "shorthand-schema-converted": ("function:tool",),
        "call-runs-handler-with-arguments": ("function:tool",),
    },
    sdk_ref="claude_agent_sdk.tool",
)
async def tool_decorator_listed_and_called(h: Harness) -> dict[str, Any]:
    calls: list[dict[str, Any]] = []
    # a client keeps the CLI's stdin open for the answers (old SDKs close it early after a string prompt)
    run = await h.wire("hi", scenario=_scenario(), client=True, mcp_servers={_SERVER: _server(calls)})
    listed = _mcp_result(run.answers.get(_LIST))
    tools = listed.get("tools") if isinstance(listed, dict) else None
    return {
        "listed": [
            {"name": t.get("name"), "description": t.get("description"), "inputSchema": t.get("inputSchema")}
            for t in tools or []
        ]
        if tools is not None
        else listed,
        "handler calls": calls,
        "echo reply": _call_seen(run.answers.get(_CALL_ECHO)),
        "count reply": _call_seen(run.answers.get(_CALL_COUNT)),
        "error": run.error_line,
    }


@tool_decorator_listed_and_called.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    listed = seen["listed"]
    by_name = {t["name"]: t for t in listed} if isinstance(listed, list) else {}
    echo, count = by_name.get("echo", {}), by_name.get("count", {})
    named = {name: t.get("description") for name, t in by_name.items()}
    replies = (seen["echo reply"]["texts"], seen["count reply"]["texts"])
    return {
        "listed-with-name-and-description": check(
            named == {"echo": _ECHO_DESCRIPTION, "count": _COUNT_DESCRIPTION},
            f"tools/list gave {named if isinstance(listed, list) else listed}",
        ),
        "dict-schema-sent-as-given": check(
            echo.get("inputSchema") == _ECHO_SCHEMA, f"echo's inputSchema was {echo.get('inputSchema')}"
        ),
        "shorthand-schema-converted": check(
            count.get("inputSchema") == _SHORTHAND_SCHEMA,
            f"count's inputSchema from {{{', '.join(f'{n!r}: {t}' for n, (t, _) in _SHORTHAND.items())}}} was "
            f"{count.get('inputSchema')}",
        ),
        "call-runs-handler-with-arguments": check(
            seen["handler calls"] == [{"tool": "echo", "args": _ECHO_ARGS}, {"tool": "count", "args": _COUNT_ARGS}]
            and replies == (["echo: plum"], ["counted plum"]),
            f"the handlers were called with {seen['handler calls']}; the CLI got back {list(replies)}",
        ),
    }


tool_decorator_listed_and_called.differs_on(
    {
        "listed": [
            {"name": "probe_echo", "description": "", "inputSchema": {"type": "object", "properties": {}}},
            {
                "name": "count",
                "description": _COUNT_DESCRIPTION,
                "inputSchema": {
                    "type": "object",
                    "properties": {n: {"type": "string"} for n in _SHORTHAND},
                },
            },
        ],
        "handler calls": [{"tool": "count", "args": {"word": "plum", "times": "3", "ratio": "0.5", "loud": "True"}}],
        "echo reply": {"texts": [], "isError": True},
        "count reply": {"texts": ["counted plum"], "isError": None},
        "error": None,
    }
)
