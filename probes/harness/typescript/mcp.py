"""In-process (sdk) MCP servers a probe built with the Python API, served to a TypeScript run.

A probe builds its in-process server once, with `create_sdk_mcp_server(name, tools=[...])`.
For a TypeScript run the driver builds the TypeScript SDK's own server from it —
`createSdkMcpServer({name, version, tools: [tool(name, description, shape, handler)]})`, a
zod shape made from each tool's JSON schema — so what the CLI sees of the server (its
handshake, its tool list and schemas) is the TypeScript SDK's. Only the tool handlers stay
in Python: each call is relayed here and run by the probe's own handler through the Python
server the probe built (its tools/call), whose CallToolResult (with its `isError`) the
TypeScript tool returns as it is.
"""

from __future__ import annotations

import itertools
from typing import Any

_ids = itertools.count(1)


class PythonServer:
    """The probe's Python MCP server, spoken to as its JSON-RPC peer."""

    def __init__(self, name: str, server: Any) -> None:
        from claude_agent_sdk._internal.sdk_mcp_bridge import SdkMcpBridge

        self.name = name
        self._bridge = SdkMcpBridge(name, server)
        self._ready = False
        self.version: str | None = None

    async def _request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if not self._ready:
            self._ready = True
            hello = {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "sdkprobe", "version": "1"},
            }
            greeted = await self._request("initialize", hello)
            self.version = (greeted.get("serverInfo") or {}).get("version")
            await self._bridge.handle({"jsonrpc": "2.0", "method": "notifications/initialized"})
        answer = await self._bridge.handle({"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": params})
        if answer is None or "error" in answer:
            raise RuntimeError(f"the Python MCP server {self.name!r} answered {method} with {answer}")
        result: dict[str, Any] = answer.get("result") or {}
        return result

    async def tools(self) -> list[dict[str, Any]]:
        """Each tool as the driver builds it: name, description, inputSchema, annotations."""
        listed = await self._request("tools/list", {})
        return [
            {k: t[k] for k in ("name", "description", "inputSchema", "annotations", "_meta") if k in t}
            for t in listed.get("tools", [])
        ]

    async def call(self, tool: str, arguments: Any) -> dict[str, Any]:
        """The probe's handler run on `arguments`: the CallToolResult as the Python server framed it."""
        return await self._request("tools/call", {"name": tool, "arguments": arguments or {}})

    async def aclose(self) -> None:
        await self._bridge.aclose()


async def serve(options: dict[str, Any], servers: dict[str, Any], answers: dict[str, Any]) -> list[PythonServer]:
    """Put each in-process server into the TypeScript options as the driver builds it
    (`{"type": "sdk", "name", "$tools": [...]}`), its tool calls answered by the probe's
    handlers; the Python servers, to close when the run ends."""
    opened = []
    for key, (name, instance) in servers.items():
        server = PythonServer(name, instance)
        opened.append(server)
        tools = await server.tools()
        for t in tools:
            answers[f"mcp:{key}:{t['name']}"] = _caller(server, t["name"])
        described = {"type": "sdk", "name": name, "$tools": tools, "$key": key}
        if server.version is not None:
            described["version"] = server.version
        options["mcpServers"][key] = described
    return opened


def _caller(server: PythonServer, tool: str) -> Any:
    async def call(args: list[Any]) -> Any:
        return await server.call(tool, args[0] if args else {})

    return call
