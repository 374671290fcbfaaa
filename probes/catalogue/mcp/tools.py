"""MCP tools as the model sees them: in-process @tool definitions, deferred loading, and the limits
on output and descriptions."""

from __future__ import annotations

import asyncio
import re
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Conversation,
    Harness,
    McpTool,
    Scenario,
    in_process_server,
    in_process_tool,
    reply,
    result_text,
    stdio_mcp_server,
    tool_use,
)

_BIG, _IO = "big", "io"  # the in-process server (12 tools) and the stdio one (3)
_BIG_TOOLS = tuple(f"t{n:02d}" for n in range(1, 13))
_IO_TOOLS = ("alpha", "beta", "gamma")
_SEARCHED = f"mcp__{_BIG}__t07"
_TOOL_SEARCH_ENVS: dict[str, dict[str, str]] = {
    "ENABLE_TOOL_SEARCH unset": {},
    "ENABLE_TOOL_SEARCH=true": {"ENABLE_TOOL_SEARCH": "true"},
    "ENABLE_TOOL_SEARCH=auto:1": {"ENABLE_TOOL_SEARCH": "auto:1"},
    # the control: with tool search off every tool is loaded, so the placement measure can tell the two apart
    "ENABLE_TOOL_SEARCH=false": {"ENABLE_TOOL_SEARCH": "false"},
}
# auto:N defers once MCP tool definitions pass N% of the context window: descriptions long
# enough that 1% of even a 1M-token window is passed, so auto:1 has to defer.
_LONG = " ".join(["This sentence pads the description of a probe's MCP tool to a realistic length."] * 50)


def _big_server(ran: list[str]) -> Any:
    """An in-process server `big` with twelve tools; each call is appended to `ran`."""

    def make(name: str) -> Any:
        @in_process_tool(
            name, f"Tool {name} of the probe's in-process server. {_LONG}", {"type": "object", "properties": {}}
        )
        async def handler(args: dict[str, Any]) -> dict[str, Any]:
            ran.append(name)
            return {"content": [{"type": "text", "text": f"{name} ran"}]}

        return handler

    return in_process_server(_BIG, tools=[make(n) for n in _BIG_TOOLS])


def _placement(request: Any, names: list[str]) -> dict[str, int]:
    """How many of `names` a request loads in `tools`, only names as deferred, or leaves out."""
    counts = {"loaded": 0, "deferred": 0, "absent": 0}
    loaded, listed = set(request.loaded_tools), set(request.tool_names) | set(request.deferred_tools)
    for n in names:
        counts["loaded" if n in loaded else "deferred" if n in listed else "absent"] += 1
    return counts


# One case's first main request: the servers connected as the turn started, how each
# server's tools were placed (_placement; None: no request), ToolSearch and the tool betas.
_Offer = TypedDict(
    "_Offer",
    {
        "connected before the turn": list[str],
        "placement": dict[str, dict[str, int]] | None,
        "ToolSearch offered": bool,
        "tool betas": list[str],
    },
)
_Searched = TypedDict("_Searched", {"after ToolSearch": dict[str, bool]}, total=False)


class Offer(_Offer, _Searched):
    """A case's offer; "after ToolSearch" (whether the searched tool ran) only in the case that searches."""


@behaviour(
    id="mcp.sdk-tools-deferred-by-default",
    claim=(
        "With tool search on (the default, or ENABLE_TOOL_SEARCH=true or auto:1), the tools of in-process and "
        "stdio MCP servers are deferred: only their names reach the model until it loads one with ToolSearch."
    ),
    summary="With tool search on, MCP tools reach the model as names only until loaded",
    source=("ts#356", "report"),
    tier="cli",
    checks=(
        "deferred-by-default",
        "deferred-with-true",
        "deferred-with-auto-1",
        "searched-tool-callable",
        "loaded-with-false",
    ),
    controls=("loaded-with-false",),
    requires=("option:mcp_servers", "option:allowed_tools", "api:create_sdk_mcp_server", "package:mcp"),
    sdk_ref="claude_agent_sdk.create_sdk_mcp_server",
    timeout=200,
)
async def sdk_tools_deferred_by_default(h: Harness) -> dict[str, Offer]:
    io = stdio_mcp_server(
        h.workdir("mcp"), _IO, [McpTool(n, f"Tool {n} of the probe's stdio server. {_LONG}") for n in _IO_TOOLS]
    )
    names = {_BIG: [f"mcp__{_BIG}__{n}" for n in _BIG_TOOLS], _IO: [f"mcp__{_IO}__{n}" for n in _IO_TOOLS]}
    seen: dict[str, Offer] = {}
    connected: list[str] = []  # the servers the CLI listed connected as the turn started

    async def steps(c: Conversation) -> None:
        # Order, not clock: the turn starts once the CLI lists both servers connected (CLI
        # 2.1.97 stops waiting for them after 5 s, which a loaded machine can pass starting io)
        connected[:] = await c.mcp_connected(set(names))
        await c.send("use the tools")
        await c.response()

    for case, env in _TOOL_SEARCH_ENVS.items():
        ran: list[str] = []
        searching = case == "ENABLE_TOOL_SEARCH unset"
        # a client session (streaming mode): old SDKs connect in-process servers only with a streamed prompt
        run = await h.converse(
            steps,
            script=[
                reply(tool_use("ToolSearch", {"query": f"select:{_SEARCHED}", "max_results": 5})),
                reply(tool_use(_SEARCHED, {})),
                "done",
            ]
            if searching
            else ["hi"],
            mcp_servers={_BIG: _big_server(ran), _IO: io.config},
            allowed_tools=[_SEARCHED],
            env=env,
        )
        first = run.first(MAIN)
        betas = (first.headers.get("anthropic-beta", "") if first else "").split(",")
        seen[case] = {
            "connected before the turn": list(connected),
            "placement": {server: _placement(first, n) for server, n in names.items()} if first else None,
            "ToolSearch offered": first is not None and "ToolSearch" in first.offered_tools,
            "tool betas": sorted(b.strip() for b in betas if "tool" in b),
        }
        if searching:
            seen[case]["after ToolSearch"] = {f"{_SEARCHED} ran": _SEARCHED.rsplit("__", 1)[1] in ran}
    return seen


@sdk_tools_deferred_by_default.decide
def _(seen: dict[str, Offer]) -> dict[str, Check]:
    def deferred(case: str) -> Check:
        p = seen[case]["placement"]
        return check(
            bool(p) and all(c["loaded"] == 0 and c["absent"] == 0 for c in (p or {}).values()),
            f"{case}: {p} (ToolSearch offered {seen[case]['ToolSearch offered']}; connected before the turn "
            f"{seen[case]['connected before the turn']})",
        )

    after = seen["ENABLE_TOOL_SEARCH unset"]["after ToolSearch"]
    return {
        "deferred-by-default": deferred("ENABLE_TOOL_SEARCH unset"),
        "deferred-with-true": deferred("ENABLE_TOOL_SEARCH=true"),
        "deferred-with-auto-1": deferred("ENABLE_TOOL_SEARCH=auto:1"),
        "searched-tool-callable": check(after[f"{_SEARCHED} ran"], f"after a ToolSearch for {_SEARCHED}: {after}"),
        "loaded-with-false": check(
            seen[_OFF]["placement"] == _ALL_LOADED,
            f"{_OFF}: {seen[_OFF]['placement']} (connected before the turn {seen[_OFF]['connected before the turn']})",
        ),
    }


_OFF = "ENABLE_TOOL_SEARCH=false"
_ALL_LOADED = {_BIG: {"loaded": 12, "deferred": 0, "absent": 0}, _IO: {"loaded": 3, "deferred": 0, "absent": 0}}
_ALL_DEFERRED = {_BIG: {"loaded": 0, "deferred": 12, "absent": 0}, _IO: {"loaded": 0, "deferred": 3, "absent": 0}}


def _wrong_offer(case: str, env: dict[str, str]) -> Offer:
    """A counterexample's case: loaded where the claim says deferred, deferred where loaded."""
    offer: Offer = {
        "connected before the turn": [_BIG, _IO],
        "placement": _ALL_DEFERRED if case == _OFF else _ALL_LOADED,
        "ToolSearch offered": False,
        "tool betas": [],
    }
    if not env:
        offer["after ToolSearch"] = {f"{_SEARCHED} ran": False}
    return offer


sdk_tools_deferred_by_default.differs_on({case: _wrong_offer(case, env) for case, env in _TOOL_SEARCH_ENVS.items()})

# --- mcp.output-and-description-caps ----------------------------------------------------

_CAPS_SERVER, _SDK_SERVER = "caps", "insdk"
_OVER_CAP = "".join(f"probe output line {i:06d}\n" for i in range(8000))  # 200 000 chars: over the 25 000-token default
_MEDIUM = _OVER_CAP[:20000]  # about 5 000 tokens: under the default cap, over a cap of 1 000
_DESCRIPTION = "".join(f"describing word {i:05d}. " for i in range(800))  # 18 400 chars
_SLEEP = 8.0  # the slow tool's call, longer than MCP_TOOL_TIMEOUT=3000 ms
_LIMITS = {"MAX_MCP_OUTPUT_TOKENS": "1000", "MCP_TOOL_TIMEOUT": "3000", "CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH": "500"}
_NOTICE = ("exceed", "too large", "truncat", "maximum", "limit")
_TIMED_OUT = ("timed out", "timeout", "time out")
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f-]{27,}|[0-9a-f]{16,}|\d{10,}")  # ids and stamps a notice may name
_IDS = {name: f"toolu_double_caps_{name}" for name in ("big", "medium", "slow")}


def _said(text: str, limit: int = 80) -> str:
    """A text as an observation: one line, its ids masked, cut to `limit` characters."""
    line = _ID.sub("<ID>", " ".join(text.split()))
    return line if len(line) <= limit else line[:limit] + "..."


# What the model got back for one scripted call (_result).
Came = TypedDict(
    "Came",
    {
        "came back": bool,
        "whole": bool,
        "shorter": bool,
        "notice": bool,
        "timed out": bool,
        "is_error": bool,
        "head": str,
    },
)
# One session of the caps probe (_caps_session): each call's result, the long description's length.
CapsRun = TypedDict(
    "CapsRun",
    {
        "big": Came,
        "medium": Came,
        "slow": Came,
        "description length": int | None,
        "connected before the turn": list[str],
        "error": str | None,
    },
)
CapsSeen = TypedDict("CapsSeen", {"defaults": CapsRun, "limits set": CapsRun})


def _result(run: CliRun, name: str, full: str) -> Came:
    """What the model got back for one scripted call: whole, cut, with a notice, an error."""
    block = next((r.tool_result(_IDS[name]) for r in run.on(MAIN) if r.tool_result(_IDS[name])), None)
    text = result_text(block)
    low = text.lower()
    return {
        "came back": block is not None,
        "whole": full in text,
        "shorter": len(text) < len(full),
        "notice": any(w in low for w in _NOTICE),
        "timed out": any(w in low for w in _TIMED_OUT),
        "is_error": bool((block or {}).get("is_error")),
        "head": _said(text),
    }


def _description_length(run: CliRun) -> int | None:
    """The length of the long-described tool's description in the first main request."""
    first = run.first(MAIN)
    for t in first.tools if first else []:
        if t.get("name") == f"mcp__{_CAPS_SERVER}__described":
            return len(str(t.get("description") or ""))
    return None


async def _caps_session(h: Harness, env: dict[str, str]) -> CapsRun:

    stdio = stdio_mcp_server(
        h.workdir("mcp"),
        _CAPS_SERVER,
        [McpTool("big", result=_OVER_CAP), McpTool("medium", result=_MEDIUM), McpTool("described", _DESCRIPTION)],
    )

    @in_process_tool("slow", "A tool that takes its time.", {"type": "object", "properties": {}})
    async def slow(args: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(_SLEEP)
        return {"content": [{"type": "text", "text": "slow finished"}]}

    calls = [
        tool_use(f"mcp__{_CAPS_SERVER}__big", {}, _IDS["big"]),
        tool_use(f"mcp__{_CAPS_SERVER}__medium", {}, _IDS["medium"]),
        tool_use(f"mcp__{_SDK_SERVER}__slow", {}, _IDS["slow"]),
    ]
    connected: list[str] = []

    async def steps(c: Conversation) -> None:
        connected.extend(await c.mcp_connected({_CAPS_SERVER, _SDK_SERVER}))
        await c.send("use the tools")
        await c.response()

    run = await h.converse(
        steps,
        script=[reply(*calls), "done"],
        mcp_servers={_CAPS_SERVER: stdio.config, _SDK_SERVER: in_process_server(_SDK_SERVER, tools=[slow])},
        allowed_tools=[f"mcp__{_CAPS_SERVER}", f"mcp__{_SDK_SERVER}"],
        env={"ENABLE_TOOL_SEARCH": "false", **env},
        timeout=90,
    )
    return {
        "big": _result(run, "big", _OVER_CAP),
        "medium": _result(run, "medium", _MEDIUM),
        "slow": _result(run, "slow", "slow finished"),
        "description length": _description_length(run),
        "connected before the turn": connected,
        "error": run.error_line,
    }


@behaviour(
    id="mcp.output-and-description-caps",
    claim=(
        "The CLI limits MCP tools, and the variables in env set the limits for the session: a result over the "
        "output cap (25 000 tokens by default, MAX_MCP_OUTPUT_TOKENS) reaches the model as a notice, never cut "
        "silently; MCP_TOOL_TIMEOUT (ms) ends a call that runs longer; CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH "
        "caps the tool description the model is shown."
    ),
    summary="MCP output, timeout and description limits follow env; an over-cap result says so",
    source=("ts#118", "report"),
    tier="cli",
    checks=(
        "default-cap-gives-notice",
        "output-cap-variable-applies",
        "timeout-variable-applies",
        "description-cap-variable-applies",
    ),
    requires=("option:mcp_servers", "option:env", "option:allowed_tools", "api:create_sdk_mcp_server", "package:mcp"),
    # the default cap's run sets no variable: env's loss is seen where a variable should apply
    pins={
        "output-cap-variable-applies": ("option:env",),
        "timeout-variable-applies": ("option:env",),
        "description-cap-variable-applies": ("option:env",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.env",
    timeout=200,
)
async def output_and_description_caps(h: Harness) -> CapsSeen:
    return {"defaults": await _caps_session(h, {}), "limits set": await _caps_session(h, _LIMITS)}


def _shown(r: Came) -> str:
    return (
        f"whole {r['whole']}, shorter {r['shorter']}, notice {r['notice']}, is_error {r['is_error']}, "
        f"begins {r['head']!r}"
    )


@output_and_description_caps.decide
def _(seen: CapsSeen) -> dict[str, Check]:
    d, s = seen["defaults"], seen["limits set"]
    capped = s["medium"]
    wide, narrow = d["description length"], s["description length"]
    return {
        "default-cap-gives-notice": check(
            d["big"]["came back"] and not d["big"]["whole"] and d["big"]["notice"],
            f"a {len(_OVER_CAP)}-char result under the default cap: {_shown(d['big'])} (servers connected before the "
            f"turn {d['connected before the turn']}, error {d['error']})",
        ),
        "output-cap-variable-applies": check(
            d["medium"]["whole"] and capped["came back"] and not capped["whole"] and capped["notice"],
            f"a {len(_MEDIUM)}-char result: by default {_shown(d['medium'])}; with MAX_MCP_OUTPUT_TOKENS=1000 "
            f"{_shown(capped)} (error {s['error']})",
        ),
        "timeout-variable-applies": check(
            d["slow"]["whole"] and s["slow"]["came back"] and not s["slow"]["whole"] and s["slow"]["timed out"],
            f"an in-process tool sleeping {_SLEEP:g} s: by default {_shown(d['slow'])}; with MCP_TOOL_TIMEOUT=3000 "
            f"{_shown(s['slow'])}",
        ),
        "description-cap-variable-applies": check(
            wide is not None and narrow is not None and narrow < wide and narrow <= 600,
            f"a {len(_DESCRIPTION)}-char tool description was shown {wide} chars long by default and {narrow} with "
            "CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH=500",
        ),
    }


def _came(whole: bool, notice: bool = False, timed_out: bool = False) -> Came:
    return {
        "came back": True,
        "whole": whole,
        "shorter": not whole,
        "notice": notice,
        "timed out": timed_out,
        "is_error": False,
        "head": "probe output line 000000 ...",
    }


_DEFAULTS_SEEN: CapsRun = {  # as 2.1.332 answers with no variable set
    "big": _came(False, notice=True),
    "medium": _came(True),
    "slow": _came(True),
    "description length": 4109,
    "connected before the turn": ["caps", "insdk"],
    "error": None,
}
# env no longer reaching the CLI: the run with the limits set runs as the default one
output_and_description_caps.differs_on({"defaults": _DEFAULTS_SEEN, "limits set": _DEFAULTS_SEEN})
output_and_description_caps.differs_on(
    {
        "defaults": {
            "big": _came(False),  # cut silently
            "medium": _came(True),
            "slow": _came(True),
            "description length": 18400,
            "connected before the turn": ["caps", "insdk"],
            "error": None,
        },
        "limits set": {
            "big": _came(False),
            "medium": _came(True),  # the variable ignored
            "slow": _came(True),  # ran its full time
            "description length": 18400,
            "connected before the turn": ["caps", "insdk"],
            "error": None,
        },
    }
)

_TOOL_SERVER = "probe"
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
        .mcp_handshake(_TOOL_SERVER)
        .mcp(_TOOL_SERVER, "tools/call", {"name": "echo", "arguments": _ECHO_ARGS}, id=3)
        .mcp(_TOOL_SERVER, "tools/call", {"name": "count", "arguments": _COUNT_ARGS}, id=4)
        .result(result="done")
    )


def _server(calls: list[dict[str, Any]]) -> Any:
    """The probe's in-process server: `echo` with a JSON Schema dict, `count` with the shorthand."""

    @in_process_tool("echo", _ECHO_DESCRIPTION, dict(_ECHO_SCHEMA))
    async def echo(args: dict[str, Any]) -> dict[str, Any]:
        calls.append({"tool": "echo", "args": dict(args)})
        return {"content": [{"type": "text", "text": f"echo: {args.get('text')}"}]}

    @in_process_tool("count", _COUNT_DESCRIPTION, {"word": str, "times": int, "ratio": float, "loud": bool})
    async def count(args: dict[str, Any]) -> dict[str, Any]:
        calls.append({"tool": "count", "args": dict(args)})
        return {"content": [{"type": "text", "text": f"counted {args.get('word')}"}]}

    return in_process_server(_TOOL_SERVER, tools=[echo, count])


def _mcp_result(answer: dict[str, Any] | None) -> Any:
    """The JSON-RPC result (or error) inside the SDK's answer to one mcp_message request."""
    if answer is None:
        return {"unanswered": True}
    if answer.get("subtype") != "success":
        return {"control error": answer.get("error")}
    reply = (answer.get("response") or {}).get("mcp_response") or {}
    return reply.get("result", {"error": reply.get("error")})


class _Reply(TypedDict):
    texts: list[Any]
    isError: Any


class CallSeen(_Reply, total=False):
    reply: Any  # the JSON-RPC result or error, only when it had no content


def _call_seen(answer: dict[str, Any] | None) -> CallSeen:
    result = _mcp_result(answer)
    content = result.get("content") if isinstance(result, dict) else None
    seen: CallSeen = {
        "texts": [b.get("text") for b in content or [] if isinstance(b, dict)],
        "isError": result.get("isError") if isinstance(result, dict) else None,
    }
    if content is None:
        seen["reply"] = result
    return seen


# "listed": each tools/list entry's name, description and inputSchema (or the reply when
# there were no tools); "handler calls": {"tool", "args"} per call, in order.
ListedSeen = TypedDict(
    "ListedSeen",
    {
        "listed": Any,
        "handler calls": list[dict[str, Any]],
        "echo reply": CallSeen,
        "count reply": CallSeen,
        "error": str | None,
    },
)


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
async def tool_decorator_listed_and_called(h: Harness) -> ListedSeen:
    calls: list[dict[str, Any]] = []
    # a client keeps the CLI's stdin open for the answers (old SDKs close it early after a string prompt)
    run = await h.wire("hi", scenario=_scenario(), client=True, mcp_servers={_TOOL_SERVER: _server(calls)})
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
def _(seen: ListedSeen) -> dict[str, Check]:
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
