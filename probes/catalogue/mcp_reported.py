"""Area `mcp`, reported: the CLI's limits on MCP tool output, call time and descriptions, set in `env`."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Conversation,
    Harness,
    McpTool,
    reply,
    result_text,
    stdio_mcp_server,
    tool_use,
)

# --- mcp.output-and-description-caps ----------------------------------------------------

_SERVER, _SDK_SERVER = "caps", "insdk"
_BIG = "".join(f"probe output line {i:06d}\n" for i in range(8000))  # 200 000 chars: over the 25 000-token default
_MEDIUM = _BIG[:20000]  # about 5 000 tokens: under the default cap, over a cap of 1 000
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


def _result(run: CliRun, name: str, full: str) -> dict[str, Any]:
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
        if t.get("name") == f"mcp__{_SERVER}__described":
            return len(str(t.get("description") or ""))
    return None


async def _caps_session(h: Harness, env: dict[str, str]) -> dict[str, Any]:
    import claude_agent_sdk as sdk

    stdio = stdio_mcp_server(
        h.workdir("mcp"),
        _SERVER,
        [McpTool("big", result=_BIG), McpTool("medium", result=_MEDIUM), McpTool("described", _DESCRIPTION)],
    )

    @sdk.tool("slow", "A tool that takes its time.", {"type": "object", "properties": {}})
    async def slow(args: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(_SLEEP)
        return {"content": [{"type": "text", "text": "slow finished"}]}

    calls = [
        tool_use(f"mcp__{_SERVER}__big", {}, _IDS["big"]),
        tool_use(f"mcp__{_SERVER}__medium", {}, _IDS["medium"]),
        tool_use(f"mcp__{_SDK_SERVER}__slow", {}, _IDS["slow"]),
    ]
    connected: list[str] = []

    async def steps(c: Conversation) -> None:
        connected.extend(await c.mcp_connected({_SERVER, _SDK_SERVER}))
        await c.send("use the tools")
        await c.response()

    run = await h.converse(
        steps,
        script=[reply(*calls), "done"],
        mcp_servers={_SERVER: stdio.config, _SDK_SERVER: sdk.create_sdk_mcp_server(_SDK_SERVER, tools=[slow])},
        allowed_tools=[f"mcp__{_SERVER}", f"mcp__{_SDK_SERVER}"],
        env={"ENABLE_TOOL_SEARCH": "false", **env},
        timeout=90,
    )
    return {
        "big": _result(run, "big", _BIG),
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
    pins={
        "default-cap-gives-notice": ("option:env",),
        "output-cap-variable-applies": ("option:env",),
        "timeout-variable-applies": ("option:env",),
        "description-cap-variable-applies": ("option:env",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.env",
    timeout=200,
)
async def output_and_description_caps(h: Harness) -> dict[str, Any]:
    return {"defaults": await _caps_session(h, {}), "limits set": await _caps_session(h, _LIMITS)}


def _shown(r: dict[str, Any]) -> str:
    return (
        f"whole {r['whole']}, shorter {r['shorter']}, notice {r['notice']}, is_error {r['is_error']}, "
        f"begins {r['head']!r}"
    )


@output_and_description_caps.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    d, s = seen["defaults"], seen["limits set"]
    capped = s["medium"]
    wide, narrow = d["description length"], s["description length"]
    return {
        "default-cap-gives-notice": check(
            d["big"]["came back"] and not d["big"]["whole"] and d["big"]["notice"],
            f"a {len(_BIG)}-char result under the default cap: {_shown(d['big'])} (servers connected before the "
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


def _came(whole: bool, notice: bool = False, timed_out: bool = False) -> dict[str, Any]:
    return {
        "came back": True,
        "whole": whole,
        "shorter": not whole,
        "notice": notice,
        "timed out": timed_out,
        "is_error": False,
        "head": "probe output line 000000 ...",
    }


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
