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

EMPTY_OBJECT: dict[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class McpTool:
    """One tool of a stdio server: its schema is listed exactly as given."""

    name: str
    description: str = "A tool of a probe's MCP server."
    input_schema: dict[str, Any] = field(default_factory=lambda: dict(EMPTY_OBJECT))
    result: str = "ok"
    is_error: bool = False
    annotations: dict[str, Any] | None = None

    def spec(self) -> dict[str, Any]:
        return {
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
        return [json.loads(line) for line in self.calls_file.read_text(encoding="utf-8").splitlines() if line]

    @property
    def started(self) -> bool:
        """Whether any process ever started this server (it marks its directory at start)."""
        return (self.directory / "started").exists()


def stdio_mcp_server(directory: Path, name: str, tools: Sequence[McpTool]) -> StdioMcpServer:
    """Write a stdio MCP server offering `tools` into `directory` (a fresh folder of the
    probe's, `h.workdir("mcp")`) and return it; nothing is started here."""
    if not tools:
        raise ValueError("a server offers at least one tool")
    names = [t.name for t in tools]
    if len(set(names)) != len(names):
        raise ValueError(f"tool names must be distinct, not {names}")
    directory.mkdir(parents=True, exist_ok=True)
    spec = directory / "spec.json"
    spec.write_text(json.dumps({"name": name, "tools": [t.spec() for t in tools]}), encoding="utf-8")
    script = directory / "server.py"
    script.write_text(_SCRIPT, encoding="utf-8")
    return StdioMcpServer(name, directory, sys.executable, (str(script), str(spec), str(directory)))


_SCRIPT = r'''"""A stdio MCP server written by sdkprobe: tools from spec.json, calls logged to calls.jsonl."""
import json
import sys
from pathlib import Path

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
home = Path(sys.argv[2])
(home / "started").touch()
by_name = {t["name"]: t for t in spec["tools"]}


LISTED = ("name", "description", "inputSchema", "annotations")


def listed():
    return [types.Tool.model_validate({k: t[k] for k in LISTED if t[k] is not None}) for t in spec["tools"]]


def called(name, arguments):
    with (home / "calls.jsonl").open("a", encoding="utf-8") as log:
        log.write(json.dumps({"tool": name, "arguments": arguments or {}}) + "\n")
    tool = by_name.get(name)
    text, error = (tool["result"], tool["isError"]) if tool else (f"no tool {name}", True)
    return types.CallToolResult.model_validate({"content": [{"type": "text", "text": text}], "isError": error})


try:  # mcp 2.x: handlers are given to the constructor
    async def on_list_tools(ctx, params):
        return types.ListToolsResult(tools=listed())

    async def on_call_tool(ctx, params):
        return called(params.name, params.arguments)

    server = Server(spec["name"], on_list_tools=on_list_tools, on_call_tool=on_call_tool)
except TypeError:  # mcp 1.x: handlers are registered with decorators
    server = Server(spec["name"])

    @server.list_tools()
    async def list_tools():
        return listed()

    @server.call_tool(validate_input=False)
    async def call_tool(name, arguments):
        return called(name, arguments)


async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
'''
