"""An in-process tool as a probe describes it is built by each SDK's own functions."""

from __future__ import annotations

import asyncio
from typing import Any

import claude_agent_sdk
import pytest

from sdkprobe.harness import in_process_server, in_process_tool
from sdkprobe.harness.in_process import call_tool_result
from sdkprobe.harness.python_sdk import PythonSdk


@in_process_tool("count", "Counts.", {"word": str, "times": int, "ratio": float, "loud": bool})
async def _count(args: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": args["word"] * args["times"]}]}


def test_the_short_schema_is_spelt_out_and_a_json_schema_kept_as_given() -> None:
    assert _count.json_schema() == {
        "type": "object",
        "properties": {
            "word": {"type": "string"},
            "times": {"type": "integer"},
            "ratio": {"type": "number"},
            "loud": {"type": "boolean"},
        },
        "required": ["word", "times", "ratio", "loud"],
    }
    given = {"type": "object", "properties": {"x": {"type": "array"}}, "additionalProperties": False}
    assert in_process_tool("t", "d", given)(_count.handler).json_schema() == given
    with pytest.raises(ValueError, match=r"\['when'\] are not str"):
        in_process_tool("t", "d", {"when": list})(_count.handler).json_schema()


def test_only_the_python_spelling_of_is_error_is_renamed() -> None:
    assert call_tool_result({"content": [], "is_error": True, "_meta": {"k": 1}}) == {
        "content": [],
        "isError": True,
        "_meta": {"k": 1},
    }
    assert call_tool_result({"content": []}) == {"content": []}  # nothing is added
    assert call_tool_result("not a dict") == "not a dict"


def test_the_python_sdk_builds_it_with_its_own_tool_and_create_sdk_mcp_server() -> None:
    hinted = in_process_tool("peek", "Peeks.", {}, annotations={"readOnlyHint": True})(_count.handler)
    options = PythonSdk(claude_agent_sdk).build_options(
        {"mcp_servers": {"key": in_process_server("srv", [_count, hinted], version="2.0.0")}}
    )
    built = options.mcp_servers["key"]
    assert (built["type"], built["name"]) == ("sdk", "srv")
    from claude_agent_sdk._internal.sdk_mcp_bridge import SdkMcpBridge

    async def listed() -> list[dict[str, Any]]:
        bridge = SdkMcpBridge("srv", built["instance"])
        try:
            hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
            await bridge.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
            answer = await bridge.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
            return list((answer or {})["result"]["tools"])
        finally:
            await bridge.aclose()

    tools = {t["name"]: t for t in asyncio.run(listed())}
    assert tools["count"]["inputSchema"]["properties"]["times"] == {"type": "integer"}
    assert tools["peek"]["annotations"]["readOnlyHint"] is True
