"""Stdio MCP servers with a process tree, a recorded environment and elicitations
(probes/harness/mcp_servers.py): each capability notices what it exists to notice."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import signal
import subprocess

from sdkprobe.harness import Elicitation, McpTool, processes, stdio_mcp_server

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
        tree = await server.wait_tree(120)
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


async def test_the_wait_for_the_server_alone_ends_with_it_and_a_settle_ends_when_the_tree_is_gone(space):
    """Waiting on the server returns once it is gone, whoever else still runs; waiting on the
    whole tree returns as soon as the last of it is gone, long before its ceiling. Each step
    is started before the kill it waits for, so the order, not a delay, decides."""
    server = stdio_mcp_server(space.path("mcp"), "t", [McpTool("x")], descendants=True)
    proc = start(server)
    try:
        tree = await server.wait_tree(120)
        assert await server.wait_gone(0.5) == ["child", "grandchild", "server"]  # nothing was ended yet
        for_server = asyncio.create_task(server.wait_gone(60, ("server",)))
        await asyncio.sleep(0)
        proc.kill()
        await asyncio.to_thread(proc.wait)
        assert await for_server == []
        assert server.alive() == ["child", "grandchild"]  # the wait on the server alone left them
        loop = asyncio.get_running_loop()
        for_tree = asyncio.create_task(server.wait_gone(60))
        await asyncio.sleep(0)
        began = loop.time()
        for role in ("child", "grandchild"):
            os.kill(tree[role], signal.SIGKILL)
        assert await for_tree == []
        assert loop.time() - began < 30  # it ended with the tree, not at its ceiling
    finally:
        end_tree(server, proc)


async def test_a_process_is_known_by_pid_and_start_time_not_by_its_command_line(space):
    """The tree is what each process wrote of itself: a pid now held by another process
    (here: this test's own, with another start time) is not alive, nor is a zombie."""
    server = stdio_mcp_server(space.path("mcp"), "t", [McpTool("x")])
    me = {"pid": os.getpid(), "start": processes.start_time(os.getpid())}
    reused = {"pid": os.getpid(), "start": me["start"] - 1, "ppid": os.getpid(), "parent start": me["start"] - 1}
    (server.directory / "tree.json").write_text(json.dumps({"server": reused, "child": me, "grandchild": me}))
    assert server.alive() == ["child", "grandchild"] and not server.parent_alive()
    zombie = subprocess.Popen(["true"])
    while processes.start_time(zombie.pid) is not None:  # exited, not yet waited for
        await asyncio.sleep(0.01)
    assert not processes.same_process(zombie.pid, me["start"])
    zombie.wait()


async def test_the_servers_parent_is_the_process_that_started_it(space):
    """`parent_alive` names the client (here: a shell standing in for the CLI), and
    `wait_parent_gone` returns once that client has ended."""
    server = stdio_mcp_server(space.path("mcp"), "t", [McpTool("x")], descendants=True)
    argv = " ".join(shlex.quote(a) for a in (server.command, *server.args))
    # the server reads the shell's stdin (fd 3: an asynchronous list's own stdin is /dev/null)
    script = f"exec 3<&0; {argv} <&3 3<&- > /dev/null & wait"
    client = subprocess.Popen(["sh", "-c", script], stdin=subprocess.PIPE)
    try:
        tree = await server.wait_tree(120)
        assert tree and server.parent_alive() and server.alive() == ["child", "grandchild", "server"]
        assert not await server.wait_parent_gone(0.3)
        client.kill()
        client.wait()
        assert await server.wait_parent_gone(60)
        assert "server" in server.alive()  # orphaned, its stdin still open
    finally:
        for pid in server.tree().values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        client.kill()
        client.wait()
        client.stdin.close()


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


def test_a_server_of_an_older_protocol_refuses_discovery_and_answers_its_own_version(space):
    """A 2026-07-28 client first tries `server/discover`; a server of an older protocol
    refuses it, answers `initialize` with its version, and asks by `elicitation/create`."""
    server = stdio_mcp_server(
        space.path("mcp"), "e", [McpTool("ask", elicit=Elicitation("Name?"))], protocol="2025-06-18"
    )
    proc = start(server)
    try:
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
        send(proc, {"jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": {"_meta": meta}})
        assert read(proc) == {"jsonrpc": "2.0", "id": "d", "error": {"code": -32601, "message": "Method not found"}}
        send(proc, {**INIT, "params": {**INIT["params"], "protocolVersion": "2025-11-25"}})
        assert read(proc)["result"]["protocolVersion"] == "2025-06-18"
        send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask", "arguments": {}}})
        asked = read(proc)
        assert asked["method"] == "elicitation/create"
        send(proc, {"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "decline"}})
        assert read(proc)["id"] == 3
    finally:
        proc.stdin.close()
        proc.wait(30)
    assert server.handshake() == {"discover refused": True, "client proposed": "2025-11-25", "answered": "2025-06-18"}
    assert [e.get("action") for e in server.elicitations()] == ["decline"]
