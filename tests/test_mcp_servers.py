"""Harness pieces the tools behaviours brought: stdio MCP servers made to order
(probes/harness/mcp_servers.py) and routing of old CLIs' warm-up requests."""

from __future__ import annotations

import json
import subprocess

import pytest

from sdkprobe.harness import McpTool, real_cli, reply, sdk, stdio_mcp_server, tool_use
from sdkprobe.harness.model_double import AUX, MAIN
from sdkprobe.harness.model_double.routing import Router

RECORD = {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {"type": "string"}}
needs_cli = pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")


def rpc(server, *messages: dict) -> list[dict]:
    """Start the server and send JSON-RPC lines, waiting for each request's answer
    before the next (closing stdin early would cut requests still in flight)."""
    proc = subprocess.Popen([server.command, *server.args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    answers = []
    try:
        for m in messages:
            proc.stdin.write(json.dumps(m) + "\n")
            proc.stdin.flush()
            if "id" in m:
                answers.append(json.loads(proc.stdout.readline()))
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    return answers


def handshake() -> list[dict]:
    return [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]


def test_a_server_lists_its_tools_verbatim_and_logs_each_call(space):
    schema = {"type": "object", "properties": {"labels": RECORD}, "required": ["labels"]}
    server = stdio_mcp_server(
        space.path("mcp"),
        "disk",
        [McpTool("plain", result="plain ran"), McpTool("tag", input_schema=schema, result="bad", is_error=True)],
    )
    assert not server.started and server.calls() == []
    answers = rpc(
        server,
        *handshake(),
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "tag", "arguments": {"labels": {"a": "b"}}},
        },
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "plain", "arguments": {}}},
    )
    by_id = {a["id"]: a for a in answers}
    assert by_id[1]["result"]["serverInfo"]["name"] == "disk"
    listed = {t["name"]: t["inputSchema"] for t in by_id[2]["result"]["tools"]}
    assert listed == {"plain": {"type": "object", "properties": {}}, "tag": schema}  # no schema rewritten
    assert by_id[3]["result"]["isError"] is True and by_id[3]["result"]["content"][0]["text"] == "bad"
    assert by_id[4]["result"]["content"][0]["text"] == "plain ran"
    assert server.started
    assert server.calls() == [{"tool": "tag", "arguments": {"labels": {"a": "b"}}}, {"tool": "plain", "arguments": {}}]
    assert server.config == {"type": "stdio", "command": server.command, "args": list(server.args)}


def test_a_server_needs_distinct_tools(space):
    with pytest.raises(ValueError):
        stdio_mcp_server(space.path("mcp"), "x", [])
    with pytest.raises(ValueError):
        stdio_mcp_server(space.path("mcp"), "x", [McpTool("a"), McpTool("a")])


@needs_cli
async def test_the_real_cli_calls_it_by_its_mcp_name(space):
    server = stdio_mcp_server(space.path("mcp"), "disk", [McpTool("peek", result="peeked")])
    run = await real_cli.cli_run(
        space,
        "peek",
        script=[reply(tool_use("mcp__disk__peek", {"path": "x"})), "done"],
        mcp_servers={"disk": server.config},
        allowed_tools=["mcp__disk__peek"],
        env={"ENABLE_TOOL_SEARCH": "false"},
    )
    assert "mcp__disk__peek" in run.offered_tools
    assert server.calls() == [{"tool": "peek", "arguments": {"path": "x"}}]


def _body(text: str, tools: bool = True) -> dict:
    return {
        "model": "m",
        "max_tokens": 32000,
        "tools": [{"name": "Read", "input_schema": {}}] if tools else [],
        "messages": [{"role": "user", "content": [{"type": "text", "text": text}]}],
    }


def test_warmup_requests_of_old_clis_are_aux_not_the_main_conversation():
    router = Router()
    routes = [router.route(_body("Warmup")), router.route(_body("Warmup")), router.route(_body("run it"))]
    assert routes == [AUX, AUX, MAIN]
    assert router.route(_body("run it")) == MAIN
