"""In-process MCP servers a probe described (harness.in_process), built by the TypeScript SDK.

The driver builds each server with the release's own `createSdkMcpServer({name, version,
tools})` and each tool with its own `tool(name, description, shape, handler, {annotations})`,
the zod shape made from the tool's JSON schema. So the handshake, the listed schemas, the
checking of a call's arguments and the framing of a handler's result or exception are the
TypeScript SDK's. A call's arguments, as that SDK passed them, reach the probe's handler
here; its result goes back as the CallToolResult a TypeScript handler returns
(in_process.call_tool_result), and an exception it raised is thrown by the TypeScript handler.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.harness.in_process import InProcessServer, InProcessTool, call_tool_result


def serve(options: dict[str, Any], servers: dict[str, InProcessServer], answers: dict[str, Any]) -> None:
    """Put each in-process server into the TypeScript options as the driver builds it
    (`{"type": "sdk", "name", "version", "$tools": [...], "$key"}`), each tool's calls answered
    by the probe's handler."""
    for key, server in servers.items():
        tools = []
        for t in server.tools:
            described: dict[str, Any] = {"name": t.name, "description": t.description, "inputSchema": t.json_schema()}
            if t.annotations is not None:
                described["annotations"] = dict(t.annotations)
            tools.append(described)
            answers[f"mcp:{key}:{t.name}"] = _handler(t)
        options["mcpServers"][key] = {
            "type": "sdk",
            "name": server.name,
            "version": server.version,
            "$tools": tools,
            "$key": key,
        }


def _handler(tool: InProcessTool) -> Any:
    async def call(args: list[Any]) -> Any:
        return call_tool_result(await tool.handler(args[0] if args else {}))

    return call
