"""In-process MCP tools and servers as a probe describes them, built by the SDK under test.

A probe says what a tool is (name, description, input schema, annotations) and what it does
(its handler, an async function from the call's arguments to its result). The seam builds it
with the SDK under test's own functions: the Python SDK's `tool()` and
`create_sdk_mcp_server()`, the TypeScript SDK's `tool()` and `createSdkMcpServer()`. So what
the CLI is told of a tool (its listed schema), how a call's arguments are checked and how a
handler's result or exception becomes the call's result are that SDK's own doing, never
another SDK's.

A handler's result is given as the Python SDK's tool() takes it (`{"content": [...],
"is_error": True}`); for an SDK whose handlers return MCP's CallToolResult the keys the
Python SDK spells differently are renamed as RESULT_KEYS declares, and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Handler = Callable[[dict[str, Any]], Awaitable[Any]]

# A handler result's key as the Python SDK's tool() reads it -> MCP's CallToolResult key.
RESULT_KEYS = {"is_error": "isError"}

# The Python types a schema given as {argument: type} may name -> their JSON schema types.
_JSON_TYPES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


@dataclass(frozen=True)
class InProcessTool:
    """One tool: `schema` is a JSON schema (an object's) or {argument: str|int|float|bool}, the
    short form both SDKs' tool() accept (every argument required); `annotations` MCP's
    ToolAnnotations as JSON (`{"readOnlyHint": True}`), None for none."""

    name: str
    description: str
    schema: Mapping[str, Any]
    handler: Handler
    annotations: Mapping[str, Any] | None = None

    def json_schema(self) -> dict[str, Any]:
        """The schema as JSON schema: the short form spelt out, a JSON schema as given."""
        given = dict(self.schema)
        if "type" in given or "properties" in given:
            return given
        unknown = sorted(k for k, v in given.items() if v not in _JSON_TYPES)
        if unknown:
            raise ValueError(f"tool {self.name!r}: arguments {unknown} are not str, int, float or bool")
        return {
            "type": "object",
            "properties": {k: {"type": _JSON_TYPES[v]} for k, v in given.items()},
            "required": list(given),
        }


def in_process_tool(
    name: str, description: str, schema: Mapping[str, Any], *, annotations: Mapping[str, Any] | None = None
) -> Callable[[Handler], InProcessTool]:
    """A decorator, as the SDKs' tool() is one: the decorated handler becomes an InProcessTool."""

    def made(handler: Handler) -> InProcessTool:
        return InProcessTool(name, description, schema, handler, annotations)

    return made


@dataclass(frozen=True)
class InProcessServer:
    """A server of in-process tools, given as a value of the `mcp_servers` option."""

    name: str
    tools: tuple[InProcessTool, ...] = field(default=())
    version: str = "1.0.0"


def in_process_server(
    name: str, tools: tuple[InProcessTool, ...] | list[InProcessTool] = (), version: str = "1.0.0"
) -> InProcessServer:
    return InProcessServer(name, tuple(tools), version)


def call_tool_result(result: Any) -> Any:
    """A handler's result as MCP's CallToolResult: RESULT_KEYS renamed, the rest as given."""
    if not isinstance(result, dict):
        return result
    return {RESULT_KEYS.get(k, k): v for k, v in result.items()}
