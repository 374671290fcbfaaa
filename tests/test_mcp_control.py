"""Harness pieces the mcp_control behaviours brought: a stdio server held before it answers
(`start_delay`, `release`), the record of its process starts (`starts`, `setting_file`),
which of them still run (`running`, from the process table), which process served each
call (`served_by`), and `Conversation.call` for client methods between turns."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from sdkprobe.harness import Conversation, McpTool, stdio_mcp_server
from sdkprobe.harness.sdk import Outcome

_INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def _start(server: Any) -> subprocess.Popen[str]:
    return subprocess.Popen([server.command, *server.args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def _answer_within(proc: subprocess.Popen[str], seconds: float) -> dict[str, Any] | None:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    return json.loads(proc.stdout.readline()) if ready else None


def _send(proc: subprocess.Popen[str], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def _until(condition: Any, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_delayed_server_answers_only_once_released(space):
    server = stdio_mcp_server(space.path("mcp"), "slow", [McpTool("t")], start_delay=60)
    proc = _start(server)
    try:
        assert _until(lambda: server.starts() != [])
        _send(proc, _INIT)
        assert _answer_within(proc, 1.0) is None  # held: initialize goes unanswered
        server.release()
        answer = _answer_within(proc, 30)
        assert answer is not None and answer["result"]["serverInfo"]["name"] == "slow"
    finally:
        proc.kill()
        proc.wait()


def test_starts_record_each_process_with_the_setting_it_read_and_running_reads_the_process_table(space):
    server = stdio_mcp_server(space.path("mcp"), "s", [McpTool("t")])
    assert server.starts() == [] and server.running() == []
    server.setting_file.write_text("v1")
    first = _start(server)
    assert _until(lambda: len(server.starts()) == 1)
    server.setting_file.write_text("v2")
    second = _start(server)
    try:
        assert _until(lambda: len(server.starts()) == 2)
        starts = sorted(server.starts(), key=lambda s: s["setting"])
        assert [(s["pid"], s["setting"]) for s in starts] == [(first.pid, "v1"), (second.pid, "v2")]
        assert sorted(server.running()) == sorted([first.pid, second.pid])
        first.send_signal(signal.SIGKILL)
        # not yet waited for: a zombie, still in the process table, but not running
        assert _until(lambda: Path(f"/proc/{first.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z")
        assert server.running() == [second.pid]
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait()
    assert server.running() == []


def test_a_pid_reused_by_another_program_is_not_running(space):
    server = stdio_mcp_server(space.path("mcp"), "s", [McpTool("t")])
    (server.directory / "starts.jsonl").write_text(json.dumps({"pid": os.getpid(), "setting": None}) + "\n")
    assert server.running() == []  # this pytest process is alive, but it is not the server


def test_served_by_names_the_process_of_each_call_and_calls_stay_as_they_were(space):
    server = stdio_mcp_server(space.path("mcp"), "s", [McpTool("t", result="done")])
    proc = _start(server)
    try:
        _send(proc, _INIT)
        assert _answer_within(proc, 30) is not None
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "t", "arguments": {"k": 1}}}
        _send(proc, call)
        assert _answer_within(proc, 30) is not None
    finally:
        proc.kill()
        proc.wait()
    assert server.calls() == [{"tool": "t", "arguments": {"k": 1}}]
    assert server.served_by() == [proc.pid]


class _Client:
    def __init__(self) -> None:
        self.asked: list[tuple[str, tuple[Any, ...]]] = []

    async def toggle_mcp_server(self, name: str, enabled: bool) -> None:
        self.asked.append(("toggle_mcp_server", (name, enabled)))

    async def get_mcp_status(self) -> dict[str, Any]:
        self.asked.append(("get_mcp_status", ()))
        return {"mcpServers": []}


async def test_conversation_call_runs_a_client_method_and_marks_it():
    outcome = Outcome(messages=["m1", "m2"])
    c = Conversation(_Client(), outcome, None)
    assert await c.call("toggle_mcp_server", "a", False) is None
    assert await c.call("get_mcp_status") == {"mcpServers": []}
    assert c._client.asked == [("toggle_mcp_server", ("a", False)), ("get_mcp_status", ())]
    assert c.marks == [(2, "toggle_mcp_server"), (2, "get_mcp_status")]
    try:
        await c.call("set_mcp_servers", {})
    except AttributeError:
        pass
    else:
        raise AssertionError("a method the client lacks must raise AttributeError")
