"""A TypeScript query() with a streaming prompt, offered to probes as the client they drive.

The TypeScript SDK has no ClaudeSDKClient: a session of several turns is one query() whose
prompt is an async iterable kept open, and the client's control calls are methods of the
Query it returns. `TsClient` is that, under the Python client's method names, so a probe's
`drive` or `Conversation` steps run on either SDK. `METHODS` is the one table of which
Query method stands for which client method; a client method not in it (or a Query of the
release under test lacking it) is what `api:ClaudeSDKClient.NAME` requirements name.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Callable
from typing import Any

from sdkprobe.harness.arguments import iterable as iterable
from sdkprobe.harness.typescript.messages import neutral
from sdkprobe.harness.typescript.names import camel
from sdkprobe.harness.typescript.relay import Relay, TsError

# ClaudeSDKClient method -> the TypeScript Query method that does its job.
METHODS = {
    "interrupt": "interrupt",
    "set_permission_mode": "setPermissionMode",
    "set_model": "setModel",
    "rewind_files": "rewindFiles",
    "reconnect_mcp_server": "reconnectMcpServer",
    "toggle_mcp_server": "toggleMcpServer",
    "stop_task": "stopTask",
    "get_mcp_status": "mcpServerStatus",
    "get_context_usage": "getContextUsage",
    "get_server_info": "initializationResult",
}
# Raw control requests a probe sends (Conversation.control) -> the Query method that sends
# that request, and how the request's fields become its arguments.
CONTROLS: dict[str, tuple[str, Callable[[dict[str, Any]], list[Any]]]] = {
    "reload_plugins": ("reloadPlugins", lambda r: [_fields(r)] if _fields(r) else []),
    "mcp_set_servers": ("setMcpServers", lambda r: [r.get("servers", {})]),
}


def _fields(request: dict[str, Any]) -> dict[str, Any]:
    """A request's fields other than its subtype, as the method's options spell them (add_plugins -> addPlugins)."""
    return {camel(k): v for k, v in request.items() if k != "subtype"}


# The client's own stream methods, which the streaming prompt and the message stream serve.
STREAM = ("connect", "query", "receive_messages", "receive_response", "disconnect")


class TsClient:
    def __init__(self, relay: Relay) -> None:
        self._relay = relay
        self._stream: AsyncIterator[dict[str, Any]] | None = None

    async def query(self, prompt: str | AsyncIterable[dict[str, Any]], session_id: str | None = None) -> None:
        """One user turn into the prompt stream (each message of an iterable as it is)."""
        if isinstance(prompt, str):
            message: dict[str, Any] = {
                "type": "user",
                "message": {"role": "user", "content": prompt},
                "parent_tool_use_id": None,
            }
            if session_id is not None:
                message["session_id"] = session_id
            self._relay.send_user(message)
            return
        async for item in prompt:
            self._relay.send_user(item)

    async def receive_messages(self) -> AsyncIterator[Any]:
        if self._stream is None:
            self._stream = self._relay.messages().__aiter__()
        async for raw in self._stream:
            yield neutral(raw)
        if self._relay.error is not None:
            raise self._relay.error

    async def receive_response(self) -> AsyncIterator[Any]:
        """Messages up to and including the next result."""
        async for message in self.receive_messages():
            yield message
            if type(message).__name__ == "ResultMessage":
                return

    async def disconnect(self) -> None:
        """The prompt stream ended and the Query closed (`close()`), then the CLI's end awaited,
        as the Python client's disconnect() awaits it: what a probe does next follows it by order."""
        self._relay.end_input()
        try:
            await self._relay.call("close")
        except TsError:
            pass  # a release without close(): the ended prompt stream is all there is
        await self._relay.children_ended()

    async def control(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """A raw control request, sent by the Query method that sends it: the CLI's answer
        as `Conversation.control` gives it. A subtype no Query method sends is a RuntimeError,
        as a Python client without a control channel gives."""
        subtype = str(request.get("subtype"))
        if subtype not in CONTROLS:
            raise RuntimeError(f"the TypeScript SDK's Query has no method sending a {subtype!r} control request")
        method, arguments = CONTROLS[subtype]
        try:
            response = await asyncio.wait_for(self._relay.call(method, *arguments(request)), timeout)
        except asyncio.TimeoutError:
            raise RuntimeError(f"no answer to control request {subtype!r} within {timeout:g} s") from None
        except TsError as exc:
            return {"subtype": "error", "error": str(exc)}
        return {"subtype": "success", "response": dict(response or {})}

    # --- the Query itself, by its TypeScript names ------------------------------------------
    async def query_method(self, method: str, *args: Any) -> Any:
        """Query.`method`(*args) by its TypeScript name, the arguments as JSON (`iterable(...)`
        for one the method iterates): what its promise resolved to, or its rejection raised as a
        TsError (a method the Query lacks: a TsError too)."""
        return await self._relay.call(method, *args)

    def abort(self) -> None:
        """abort() the AbortController the query was given, as a host aborts the one it passed."""
        self._relay.abort()

    async def processes_ended(self, ceiling: float = 10.0) -> list[dict[str, Any]]:
        """Each process the SDK spawned ({pid, argv, returncode}), once all have ended or the
        ceiling (a hang's bound only) passed: a returncode None is one still running then."""
        await self._relay.children_ended(ceiling)
        return [dict(child) for child in self._relay.children]

    def __getattr__(self, name: str) -> Any:
        method = METHODS.get(name)
        if method is None:
            raise AttributeError(f"the TypeScript SDK's Query has no counterpart of ClaudeSDKClient.{name}")

        async def call(*args: Any) -> Any:
            value = await self._relay.call(method, *args)
            if name == "get_mcp_status" and isinstance(value, list):
                return {"mcpServers": value}  # the Python client's shape of the same list
            return value

        return call
