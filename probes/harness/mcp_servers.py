"""Stdio MCP servers written with the `mcp` package, made to order for one probe.

A probe that needs a real out-of-process MCP server says which tools it offers
(`McpTool`: name, description, input schema verbatim, the text a call returns);
`stdio_mcp_server` writes the server's spec beside a small script into a directory of
the probe's space and returns a `StdioMcpServer`: its `config` is the `mcp_servers`
entry (or a plugin's `.mcp.json` entry) that starts it with this Python, and `calls()`
reads back every tools/call it served, so a probe can tell "blocked before the server"
from "ran". The script speaks through the `mcp` package's low-level server, whose API
changed between mcp 1.x (decorators) and 2.x (constructor handlers); both are handled.
The CLI starts the server; the session's reaping ends it with the CLI's tree.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe.harness import processes

EMPTY_OBJECT: dict[str, Any] = {"type": "object", "properties": {}}
NAME_FORM: dict[str, Any] = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


@dataclass(frozen=True)
class Elicitation:
    """An `elicitation/create` the server sends its client (the CLI), and how long it
    waits for the answer; each outcome is kept (`StdioMcpServer.elicitations`)."""

    message: str
    schema: dict[str, Any] = field(default_factory=lambda: dict(NAME_FORM))
    wait: float = 20.0

    def spec(self) -> dict[str, Any]:
        return {"message": self.message, "schema": self.schema, "wait": self.wait}


@dataclass(frozen=True)
class McpTool:
    """One tool of a stdio server: its schema is listed exactly as given."""

    name: str
    description: str = "A tool of a probe's MCP server."
    input_schema: dict[str, Any] = field(default_factory=lambda: dict(EMPTY_OBJECT))
    result: str = "ok"
    is_error: bool = False
    annotations: dict[str, Any] | None = None
    elicit: Elicitation | None = None  # asked of the client when called, before answering

    def spec(self) -> dict[str, Any]:
        return {
            "elicit": self.elicit.spec() if self.elicit else None,
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "result": self.result,
            "isError": self.is_error,
            "annotations": self.annotations,
        }


@dataclass(frozen=True)
class StdioMcpServer:
    """A written server: how to start it, and what it was asked to do."""

    name: str
    directory: Path
    command: str
    args: tuple[str, ...]

    @property
    def config(self) -> dict[str, Any]:
        """The server's entry for `mcp_servers={name: config}` or a `.mcp.json`."""
        return {"type": "stdio", "command": self.command, "args": list(self.args)}

    @property
    def calls_file(self) -> Path:
        return self.directory / "calls.jsonl"

    def calls(self) -> list[dict[str, Any]]:
        """Every tools/call the server served, in order: {"tool": name, "arguments": {...}}."""
        if not self.calls_file.exists():
            return []
        return [
            {k: v for k, v in json.loads(line).items() if k != "pid"}
            for line in self.calls_file.read_text(encoding="utf-8").splitlines()
            if line
        ]

    def served_by(self) -> list[int]:
        """The pid of the server process that served each call of `calls()`, in order."""
        if not self.calls_file.exists():
            return []
        lines = self.calls_file.read_text(encoding="utf-8").splitlines()
        return [int(json.loads(line)["pid"]) for line in lines if line]

    @property
    def started(self) -> bool:
        """Whether any process ever started this server (it marks its directory at start)."""
        return (self.directory / "started").exists()

    @property
    def setting_file(self) -> Path:
        """A file each server process reads once, as it starts (see `starts`): what a
        probe changes on disk to tell a restarted server from one still running."""
        return self.directory / "setting.txt"

    def starts(self) -> list[dict[str, Any]]:
        """Every process start of this server, in order: {"pid": n, "setting": the text of
        `setting_file` at that start, or None}."""
        return [{"pid": s["pid"], "setting": s["setting"]} for s in self._starts()]

    def _starts(self) -> list[dict[str, Any]]:
        log = self.directory / "starts.jsonl"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]

    def running(self) -> list[int]:
        """The pids among `starts()` that still run this server now: the process that
        recorded itself, by pid and start time (a zombie, or a pid since reused, does not count)."""
        return [s["pid"] for s in self._starts() if processes.same_process(int(s["pid"]), s.get("start"))]

    def release(self) -> None:
        """Let a server written with `start_delay` answer at once, however long is left."""
        (self.directory / "release").touch()

    def _tree(self) -> dict[str, dict[str, int]]:
        f = self.directory / "tree.json"
        return dict(json.loads(f.read_text(encoding="utf-8"))) if f.exists() else {}

    def tree(self) -> dict[str, int]:
        """With `descendants`: the pids of the last server process started and of what it
        started, {"server", "child", "grandchild"} ({} until all three run). Each process
        wrote its own identity once it ran its final program."""
        return {role: int(me["pid"]) for role, me in self._tree().items()}

    def alive(self) -> list[str]:
        """Which of `tree()` still run, by role, sorted: by pid and start time, as each
        process recorded itself (a zombie, or a pid since reused, does not count)."""
        return sorted(role for role, me in self._tree().items() if processes.same_process(me["pid"], me["start"]))

    def parent_alive(self) -> bool:
        """Whether the process that started the server of `tree()` (the client: the CLI)
        still runs; False before the tree was written."""
        server = self._tree().get("server")
        return server is not None and processes.same_process(server["ppid"], server["parent start"])

    async def wait_tree(self, timeout: float = 120.0) -> dict[str, int]:
        """Wait until a server written with `descendants` has started its child and
        grandchild; their pids ({} if that did not happen within `timeout`)."""
        tree: dict[str, int] = await processes.until(self.tree, timeout)
        return tree

    async def wait_gone(self, timeout: float, roles: Sequence[str] = ("server", "child", "grandchild")) -> list[str]:
        """Wait until none of `roles` of `tree()` runs; those still running after `timeout`.

        Give a ceiling only a hang reaches when waiting for a process that is to end (the
        server once its client ended it); a settle when asking who survives: the answer
        is the same however long it took them to go, and it ends early once they have."""
        await processes.until(lambda: not set(roles) & set(self.alive()), timeout)
        return [role for role in self.alive() if role in roles]

    async def wait_parent_gone(self, timeout: float) -> bool:
        """Wait until the server's parent (the CLI) has ended; whether it did within `timeout`."""
        gone: bool = await processes.until(lambda: bool(self._tree()) and not self.parent_alive(), timeout)
        return gone

    def environment(self) -> dict[str, str | None]:
        """With `record_env`: those variables as the last server process started saw them
        (None: unset); {} if it never started."""
        f = self.directory / "env.json"
        return dict(json.loads(f.read_text(encoding="utf-8"))) if f.exists() else {}

    async def wait_environment(self, timeout: float = 30.0) -> dict[str, str | None]:
        """`environment()` once a server process has started and written it ({} after `timeout`)."""
        env: dict[str, str | None] = await processes.until(self.environment, timeout)
        return env

    def client_capabilities(self) -> dict[str, Any] | None:
        """The `capabilities` the client sent in `initialize`, as JSON (None until the
        client first listed the tools)."""
        f = self.directory / "client.json"
        return dict(json.loads(f.read_text(encoding="utf-8"))) if f.exists() else None

    def handshake(self) -> dict[str, Any] | None:
        """With `protocol`: {"discover refused": whether the client first tried the
        2026-07-28 `server/discover`, "client proposed": the version its `initialize`
        asked for, "answered": `protocol`}; None until an `initialize` came."""
        f = self.directory / "handshake.json"
        return dict(json.loads(f.read_text(encoding="utf-8"))) if f.exists() else None

    def elicitations(self) -> list[dict[str, Any]]:
        """Every elicitation the server sent, in order: {"during": "tools/list" or the tool,
        "message", and "action" + "content" (the client's answer), or "error" (a JSON-RPC
        error: {"code", "message"}), or "unanswered": the seconds waited in vain}."""
        f = self.directory / "elicitations.jsonl"
        if not f.exists():
            return []
        return [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line]


def stdio_mcp_server(
    directory: Path,
    name: str,
    tools: Sequence[McpTool],
    *,
    start_delay: float = 0.0,
    descendants: bool = False,
    record_env: Sequence[str] = (),
    elicit_at_start: Elicitation | None = None,
    protocol: str | None = None,
) -> StdioMcpServer:
    """Write a stdio MCP server offering `tools` into `directory` (a fresh folder of the
    probe's, `h.workdir("mcp")`) and return it; nothing is started here. With
    `start_delay`, each process reads nothing from stdin (so answers no `initialize`)
    until that many seconds passed or `release()` was called: a server still starting,
    for as long as a probe needs it to be.

    With `descendants` each process starts a child that starts a grandchild (both
    sleeping Pythons, in the server's session and process group), and writes the three
    identities (`tree()`). `record_env`
    names variables it writes down as it starts (`environment()`). `elicit_at_start`
    is sent while the client's first tools/list waits, i.e. while the server is still
    being connected; the client's capabilities are written down then too.

    With `protocol` (e.g. "2025-06-18") the server is one of that older protocol: it
    refuses the 2026-07-28 `server/discover` as an unknown method, so a client falls
    back to the `initialize` handshake, which it answers with `protocol` (`handshake()`);
    then server-to-client requests such as `elicitation/create` are the protocol's way."""
    if not tools:
        raise ValueError("a server offers at least one tool")
    names = [t.name for t in tools]
    if len(set(names)) != len(names):
        raise ValueError(f"tool names must be distinct, not {names}")
    directory.mkdir(parents=True, exist_ok=True)
    spec = directory / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "name": name,
                "tools": [t.spec() for t in tools],
                "startDelay": start_delay,
                "descendants": descendants,
                "recordEnv": list(record_env),
                "elicitAtStart": elicit_at_start.spec() if elicit_at_start else None,
                "protocol": protocol,
            }
        ),
        encoding="utf-8",
    )
    script = directory / "server.py"
    script.write_text(_SCRIPT, encoding="utf-8")
    (directory / "descendant.py").write_text(_DESCENDANT, encoding="utf-8")
    return StdioMcpServer(name, directory, sys.executable, (str(script), str(spec), str(directory)))


_DESCENDANT = r'''"""A server's child (which starts the grandchild) or grandchild: it writes its own
identity once it runs, then sleeps until it is ended."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

home, role = Path(sys.argv[1]), sys.argv[2]
if role == "child":
    quiet = subprocess.DEVNULL
    subprocess.Popen([sys.executable, __file__, str(home), "grandchild"], stdin=quiet, stdout=quiet, stderr=quiet)
fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
me = {"pid": os.getpid(), "start": int(fields[19])}
(home / f"{role}.new").write_text(json.dumps(me))
(home / f"{role}.new").replace(home / f"{role}.json")
time.sleep(600)
'''


_SCRIPT = r'''"""A stdio MCP server written by sdkprobe: tools from spec.json, calls logged to calls.jsonl."""
import json
import os
import sys
import time
from pathlib import Path

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


def started(pid):
    """When process `pid` started (clock ticks since boot), None if it is gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def identity():
    """This process as the harness tells it apart: its pid and start time (a later process
    reusing the pid starts later), and its parent's (the client that started it)."""
    ppid = os.getppid()
    return {"pid": os.getpid(), "start": started("self"), "ppid": ppid, "parent start": started(ppid)}


spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
home = Path(sys.argv[2])
(home / "started").touch()
setting = home / "setting.txt"
with (home / "starts.jsonl").open("a", encoding="utf-8") as log:
    start = {**identity(), "setting": setting.read_text(encoding="utf-8") if setting.exists() else None}
    log.write(json.dumps(start) + "\n")
deadline = time.monotonic() + spec.get("startDelay", 0)
while time.monotonic() < deadline and not (home / "release").exists():
    time.sleep(0.02)
by_name = {t["name"]: t for t in spec["tools"]}
if spec.get("recordEnv"):
    (home / "env.json").write_text(json.dumps({k: os.environ.get(k) for k in spec["recordEnv"]}))
if spec.get("descendants"):  # a child that starts a grandchild, both in this server's session
    import subprocess

    quiet = subprocess.DEVNULL  # no inherited stdio pipe: the client must see this server's EOF
    # Each descendant writes its own identity once it runs its final program (this
    # Python), then sleeps: the tree names processes that are what they claim to be.
    descendant = [sys.executable, str(home / "descendant.py"), str(home), "child"]
    subprocess.Popen(descendant, stdin=quiet, stdout=quiet, stderr=quiet)
    waited = time.monotonic() + 300  # a ceiling only a hang reaches: starting Python is slow under load
    roles = {"child": home / "child.json", "grandchild": home / "grandchild.json"}
    while not all(f.exists() for f in roles.values()) and time.monotonic() < waited:
        time.sleep(0.01)
    if all(f.exists() for f in roles.values()):  # else no tree: wait_tree() says so
        tree = {"server": identity(), **{role: json.loads(f.read_text()) for role, f in roles.items()}}
        (home / "tree.new").write_text(json.dumps(tree))
        (home / "tree.new").replace(home / "tree.json")


def noted(entry):
    with (home / "elicitations.jsonl").open("a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")


def modern(ctx):
    """A 2026-07-28+ connection, where a server asks through an InputRequiredResult
    (the client answers by calling again) instead of an elicitation/create request."""
    version = getattr(ctx, "protocol_version", None)
    return bool(version) and version >= "2026-07-28" and hasattr(types, "InputRequiredResult")


def input_required(ctx, name, params):
    """The modern round trip: None once the client has answered (noted), else the question."""
    ask = (by_name.get(name) or {}).get("elicit")
    if not ask or not modern(ctx):
        return None
    entry = {"during": name, "message": ask["message"], "via": "input_required"}
    answer = (getattr(params, "input_responses", None) or {}).get("ask")
    if answer is None:
        noted({**entry, "asked": True})
        form = types.ElicitRequestFormParams(message=ask["message"], requested_schema=ask["schema"])
        return types.InputRequiredResult(input_requests={"ask": types.ElicitRequest(params=form)}, request_state="ask")
    answer = answer if isinstance(answer, dict) else answer.model_dump(mode="json", exclude_none=True)
    noted({**entry, "action": answer.get("action"), "content": answer.get("content")})
    return None


async def elicit(session, request_id, ask, during):
    """Ask the client, and write down what came back (or that nothing did)."""
    entry = {"during": during, "message": ask["message"], "via": "elicitation/create"}
    try:
        with anyio.fail_after(ask["wait"]):
            answer = await session.elicit(ask["message"], ask["schema"], request_id)
        entry.update(action=answer.action, content=answer.content)
    except TimeoutError:
        entry["unanswered"] = ask["wait"]
    except Exception as exc:  # the client's JSON-RPC error
        error = getattr(exc, "error", None)
        entry["error"] = {"code": getattr(error, "code", None), "message": getattr(error, "message", str(exc))}
    noted(entry)


async def met(session, request_id, ctx=None):
    """On the first tools/list: the client's capabilities, and the elicitation at start."""
    if (home / "client.json").exists():
        return
    params = getattr(session, "client_params", None)
    caps = getattr(session, "client_capabilities", None) or getattr(params, "capabilities", None)
    dumped = caps.model_dump(mode="json", by_alias=True, exclude_none=True) if caps is not None else {}
    (home / "client.json").write_text(json.dumps(dumped))
    if spec.get("elicitAtStart") and modern(ctx):
        noted({"during": "tools/list", "message": spec["elicitAtStart"]["message"], "via": "none: 2026-07-28"})
    elif spec.get("elicitAtStart"):
        await elicit(session, request_id, spec["elicitAtStart"], "tools/list")


async def asked(name, session, request_id):
    ask = (by_name.get(name) or {}).get("elicit")
    if ask:
        await elicit(session, request_id, ask, name)


LISTED = ("name", "description", "inputSchema", "annotations")


def listed():
    return [types.Tool.model_validate({k: t[k] for k in LISTED if t[k] is not None}) for t in spec["tools"]]


def called(name, arguments):
    with (home / "calls.jsonl").open("a", encoding="utf-8") as log:
        log.write(json.dumps({"tool": name, "arguments": arguments or {}, "pid": os.getpid()}) + "\n")
    tool = by_name.get(name)
    text, error = (tool["result"], tool["isError"]) if tool else (f"no tool {name}", True)
    return types.CallToolResult.model_validate({"content": [{"type": "text", "text": text}], "isError": error})


try:  # mcp 2.x: handlers are given to the constructor
    async def on_list_tools(ctx, params):
        await met(ctx.session, ctx.request_id, ctx)
        return types.ListToolsResult(tools=listed())

    async def on_call_tool(ctx, params):
        question = input_required(ctx, params.name, params)
        if question is not None:
            return question
        if not modern(ctx):
            await asked(params.name, ctx.session, ctx.request_id)
        return called(params.name, params.arguments)

    server = Server(spec["name"], on_list_tools=on_list_tools, on_call_tool=on_call_tool)
except TypeError:  # mcp 1.x: handlers are registered with decorators
    server = Server(spec["name"])

    @server.list_tools()
    async def list_tools():
        await met(server.request_context.session, server.request_context.request_id)
        return listed()

    @server.call_tool(validate_input=False)
    async def call_tool(name, arguments):
        await asked(name, server.request_context.session, server.request_context.request_id)
        return called(name, arguments)


class HandshakeEra:
    """stdin as a server of an older protocol reads it: a 2026-07-28 `server/discover` is
    refused as an unknown method (so the client falls back to `initialize`, as it must
    with any older server), and `initialize` is answered with `protocol`, not what the
    client proposed. Both are written down (handshake.json)."""

    def __init__(self, lines, out, protocol):
        self.lines, self.out, self.protocol = lines, out, protocol
        self.seen = {"discover refused": False, "client proposed": None, "answered": protocol}

    def __aiter__(self):
        return self.filtered()

    async def filtered(self):
        async for line in self.lines:
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            method = message.get("method") if isinstance(message, dict) else None
            if method == "server/discover":
                self.seen["discover refused"] = True
                unknown = {"code": -32601, "message": "Method not found"}
                refusal = {"jsonrpc": "2.0", "id": message.get("id"), "error": unknown}
                await self.out.write(json.dumps(refusal) + "\n")
                await self.out.flush()
                continue
            if method == "initialize":
                params = message.setdefault("params", {})
                self.seen["client proposed"] = params.get("protocolVersion")
                params["protocolVersion"] = self.protocol
                line = json.dumps(message) + "\n"
                (home / "handshake.json").write_text(json.dumps(self.seen))
            yield line


async def main():
    streams = stdio_server()
    if spec.get("protocol"):
        import io

        stdin = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
        stdout = anyio.wrap_file(io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8"))
        streams = stdio_server(HandshakeEra(stdin, stdout, spec["protocol"]), stdout)
    async with streams as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
'''
