"""Stdio MCP servers with a process tree, a recorded environment and elicitations
(probes/harness/mcp_servers.py): each capability notices what it exists to notice."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess

from probes.harness import Elicitation, McpTool, stdio_mcp_server

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def start(server, **env: str) -> subprocess.Popen:
    return subprocess.Popen(
        [server.command, *server.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )


def end_tree(server, proc: subprocess.Popen) -> None:
    """Kill a test server and whatever of its tree is left, so no process outlives the test."""
    for pid in server.tree().values():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.kill()
    proc.wait(10)


def send(proc: subprocess.Popen, message: dict) -> None:
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def read(proc: subprocess.Popen) -> dict:
    return json.loads(proc.stdout.readline())


async def test_a_server_with_descendants_names_its_tree_and_sees_who_survives(space):
    server = stdio_mcp_server(space.path("mcp"), "t", [McpTool("x")], descendants=True, record_env=["TOKEN"])
    proc = start(server, TOKEN="${user_config.KEY}")
    try:
        tree = await server.wait_tree(30)
        assert sorted(tree) == ["child", "grandchild", "server"] and tree["server"] == proc.pid
        assert server.alive() == ["child", "grandchild", "server"]
        assert server.environment() == {"TOKEN": "${user_config.KEY}"}  # as the process saw it
        proc.kill()  # the server alone, as a client that ends only its direct child would
        proc.wait(10)
        assert await server.wait_gone(0.5) == ["child", "grandchild"]  # the rest survive it
        os.kill(tree["child"], signal.SIGKILL)
        os.kill(tree["grandchild"], signal.SIGKILL)
        assert await server.wait_gone(10) == []
    finally:
        end_tree(server, proc)


async def test_the_wait_for_a_tree_can_start_when_the_server_ends(space):
    """A server that ends late (here: killed after 1.5 s, its tree 0.2 s later) is gone with
    its tree within a short bound counted from its own end, not from the call."""
    server = stdio_mcp_server(space.path("mcp"), "t", [McpTool("x")], descendants=True)
    proc = start(server)
    try:
        tree = await server.wait_tree(30)

        async def end_late() -> None:
            await asyncio.sleep(1.5)
            proc.kill()
            await asyncio.sleep(0.2)
            for role in ("child", "grandchild"):
                os.kill(tree[role], signal.SIGKILL)

        ending = asyncio.create_task(end_late())
        assert await server.wait_gone(0.5) == ["child", "grandchild", "server"]  # counted from the call
        assert await server.wait_gone(1.0, server_within=10) == []  # counted from the server's end
        await ending
    finally:
        end_tree(server, proc)


async def test_a_server_without_descendants_has_no_tree(space):
    server = stdio_mcp_server(space.path("mcp"), "t", [McpTool("x")])
    assert server.tree() == {} and server.alive() == [] and await server.wait_tree(0.1) == {}
    assert server.environment() == {} and server.client_capabilities() is None and server.elicitations() == []


def test_elicitations_go_to_the_client_and_each_answer_is_kept(space):
    """Over the handshake protocol: one elicitation during the first tools/list, one when
    `ask` is called; the client's capabilities are written down."""
    server = stdio_mcp_server(
        space.path("mcp"),
        "e",
        [McpTool("ask", elicit=Elicitation("Name?")), McpTool("plain")],
        elicit_at_start=Elicitation("Early?"),
    )
    proc = start(server)
    try:
        send(proc, INIT)
        assert read(proc)["id"] == 1
        send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        early = read(proc)
        assert early["method"] == "elicitation/create" and early["params"]["message"] == "Early?"
        send(proc, {"jsonrpc": "2.0", "id": early["id"], "error": {"code": -32601, "message": "Method not found"}})
        assert read(proc)["id"] == 2  # the list comes once the elicitation was answered
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask", "arguments": {}}})
        asked = read(proc)
        assert asked["params"]["requestedSchema"]["required"] == ["name"]
        send(proc, {"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"name": "Ada"}}})
        assert read(proc)["result"]["content"][0]["text"] == "ok"
    finally:
        proc.stdin.close()
        proc.wait(30)
    assert server.client_capabilities() == {"elicitation": {}}
    assert server.elicitations() == [
        {
            "during": "tools/list",
            "message": "Early?",
            "via": "elicitation/create",
            "error": {"code": -32601, "message": "Method not found"},
        },
        {
            "during": "ask",
            "message": "Name?",
            "via": "elicitation/create",
            "action": "accept",
            "content": {"name": "Ada"},
        },
    ]
    assert server.calls() == [{"tool": "ask", "arguments": {}}]


def test_an_unanswered_elicitation_is_noted_after_its_wait(space):
    server = stdio_mcp_server(space.path("mcp"), "e", [McpTool("ask", elicit=Elicitation("Name?", wait=0.5))])
    proc = start(server)
    try:
        send(proc, INIT)
        read(proc)
        send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask", "arguments": {}}})
        assert read(proc)["method"] == "elicitation/create"  # and never answered
        while (line := read(proc)).get("id") != 3:  # a notifications/cancelled may come first
            assert "method" in line
    finally:
        proc.stdin.close()
        proc.wait(30)
    [noted] = server.elicitations()
    assert noted == {"during": "ask", "message": "Name?", "via": "elicitation/create", "unanswered": 0.5}
