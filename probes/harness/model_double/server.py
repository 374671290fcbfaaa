"""The HTTP side: uvicorn in a thread of its own serving the Messages API from a script."""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from sdkprobe.harness.loopback import LoopbackService
from sdkprobe.harness.model_double.recorded import Recorded
from sdkprobe.harness.model_double.routing import Router
from sdkprobe.harness.model_double.script import Reply, Script, named_for

MODEL = "claude-double"
_CREDENTIAL_HEADERS = {"x-api-key", "authorization", "proxy-authorization", "cookie"}


class ModelDouble(LoopbackService):
    """The scripted API. Use as a context manager (`with ModelDouble(script) as d:`)."""

    service_name = "model double"

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script()
        self.requests: list[Recorded] = []
        self._router = Router()
        self._lock = threading.Lock()
        self._watchers: list[Callable[[], None]] = []
        self._held: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self.holds = 0  # streams that reached their `hold_after` point, released or not
        self._holding = True  # False after stop_holding(): a hold point no longer stops a stream
        self.abandoned = 0  # streams whose client went away before their last event
        self._msg_ids = itertools.count(1)

    # reading the record
    @property
    def messages_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.is_messages]

    def on(self, route: str) -> list[Recorded]:
        return [r for r in self.messages_requests if r.route == route]

    @property
    def unscripted(self) -> list[Recorded]:
        return [r for r in self.messages_requests if r.unscripted]

    @property
    def not_found(self) -> list[Recorded]:
        return [r for r in self.requests if r.status == 404]

    async def wait_for(self, count: int = 1, route: str | None = None, timeout: float = 30.0) -> Recorded:
        """Wait until `count` messages requests (on `route`) have arrived; return the last."""

        def arrived() -> list[Recorded]:
            return self.messages_requests if route is None else self.on(route)

        await self._until(lambda: len(arrived()) >= count, f"{count} request(s) on {route or 'any route'}", timeout)
        return arrived()[count - 1]

    # holding a stream open (Reply.hold_after)
    def release(self) -> int:
        """Let every stream now held go on; return how many were released."""
        with self._lock:
            held, self._held = self._held, []
        for loop, event in held:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # the server already stopped
                pass
        return len(held)

    def stop_holding(self) -> int:
        """Release every stream now held and let any that reaches its hold point later go
        on at once (for a release tied to a point of the session, not to a hold already
        reached); how many were held."""
        with self._lock:
            self._holding = False
        return self.release()

    async def wait_held(self, count: int = 1, timeout: float = 30.0) -> None:
        """Wait until `count` streams have reached their hold point (whether released since or not)."""
        await self._until(lambda: self.holds >= count, f"{count} held stream(s)", timeout)

    async def wait_abandoned(self, count: int = 1, timeout: float = 30.0) -> None:
        """Wait until the client has closed `count` streams before their last event (an
        aborted request: the CLI gave up on the answer mid-stream, e.g. on an interrupt)."""
        await self._until(lambda: self.abandoned >= count, f"{count} abandoned stream(s)", timeout)

    def _abandon(self) -> None:
        with self._lock:
            self.abandoned += 1
        self._notify()

    async def _until(self, ready: Callable[[], bool], what: str, timeout: float) -> None:
        """Wait until `ready()`: the server thread wakes the waiting loop on every change,
        so nothing polls and nothing blocks a thread a cancelled probe would leave behind."""
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(changed.set)

        with self._lock:
            self._watchers.append(wake)
        deadline = loop.time() + timeout
        try:
            while not ready():
                changed.clear()
                try:
                    await asyncio.wait_for(changed.wait(), max(0.0, deadline - loop.time()))
                except asyncio.TimeoutError:
                    if not ready():
                        raise TimeoutError(f"{what} did not happen in {timeout:g} s") from None
        finally:
            with self._lock:
                self._watchers.remove(wake)

    async def _hold(self) -> None:
        """Runs in the server's loop: count the hold, wake waiters, wait for `release`."""
        event = asyncio.Event()
        with self._lock:
            self.holds += 1
            holding = self._holding
            if holding:
                self._held.append((asyncio.get_running_loop(), event))
        self._notify()
        if holding:
            await event.wait()

    # serving
    def _app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/v1/messages", self._messages, methods=["POST"]),
                Route("/v1/messages/count_tokens", self._count_tokens, methods=["POST"]),
                Route("/{path:path}", self._not_found, methods=["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"]),
            ]
        )

    async def _record(self, request: Request, **kw: Any) -> Recorded:
        raw = await request.body()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _CREDENTIAL_HEADERS}
        with self._lock:
            rec = Recorded(len(self.requests), request.method, request.url.path, request.url.query, headers, body, **kw)
            if rec.is_messages:
                rec.route = self._router.route(body)
            self.requests.append(rec)
        return rec

    def _notify(self) -> None:
        with self._lock:
            watchers = list(self._watchers)
        for wake in watchers:
            try:
                wake()
            except RuntimeError:  # that probe's loop has closed
                pass

    async def _not_found(self, request: Request) -> Response:
        await self._record(request, status=404, scripted=False)
        self._notify()
        return _error_response(404, "not_found_error", f"Not found: {request.url.path}")

    async def _count_tokens(self, request: Request) -> Response:
        rec = await self._record(request)
        self._notify()
        size = len(json.dumps(rec.body)) if rec.body is not None else 0
        return JSONResponse({"input_tokens": max(1, size // 4)})

    async def _messages(self, request: Request) -> Response:
        rec = await self._record(request)
        unanswered = rec.unanswered_tool_uses if self.script.check_tool_results else []
        if unanswered:  # refused before the model would answer: no scripted reply is spent
            rec.status = 400
            self._notify()
            return _error_response(
                400,
                "invalid_request_error",
                f"`tool_use` ids were found without `tool_result` blocks immediately after: {', '.join(unanswered)}. "
                "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
            )
        with self._lock:
            r, rec.scripted = self.script.answer(rec)
            r = named_for(r, rec.offered_tools)
            rec.status = r.status
            self._router.served(r)
        self._notify()
        body = rec.body if isinstance(rec.body, dict) else {}
        model = body.get("model") or MODEL
        msg_id = f"msg_double{next(self._msg_ids):06d}"
        if r.status != 200:
            if r.delay:
                await asyncio.sleep(r.delay)
            return _error_response(r.status, r.error_type or "api_error", r.message, r.headers)
        if body.get("stream"):
            return StreamingResponse(
                _sse(r, msg_id, model, self._hold, self._abandon),
                media_type="text/event-stream",
                headers={"cache-control": "no-cache", "request-id": f"req_double{rec.index}", **r.headers},
            )
        if r.delay:
            await asyncio.sleep(r.delay)
        return JSONResponse(
            _whole_message(r, msg_id, model), headers={"request-id": f"req_double{rec.index}", **r.headers}
        )


def _error_response(status: int, error_type: str, message: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse(
        {"type": "error", "error": {"type": error_type, "message": message}},
        status_code=status,
        headers={"request-id": "req_double_error", **(headers or {})},
    )


def _public(block: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in block.items() if not k.startswith("_")}


def _whole_message(r: Reply, msg_id: str, model: str) -> dict[str, Any]:
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [_public(b) for b in r.blocks],
        "stop_reason": r.effective_stop_reason,
        "stop_sequence": None,
        "usage": dict(r.usage),
    }


def _event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


def _pieces(s: str, n: int) -> list[str]:
    """`s` cut into at most `n` consecutive non-empty pieces (one piece for an empty `s`)."""
    size = max(1, -(-len(s) // n))
    return [s[i : i + size] for i in range(0, len(s), size)] or [s]


def _block_events(index: int, block: dict[str, Any], r: Reply) -> list[bytes]:
    kind = block["type"]

    def delta(d: dict[str, Any]) -> bytes:
        return _event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})

    start: dict[str, Any]
    if kind == "text":
        start = {"type": "text", "text": ""}
        deltas = [delta({"type": "text_delta", "text": piece}) for piece in _pieces(block["text"], r.text_chunks)]
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": ""}
        deltas = [
            delta({"type": "thinking_delta", "thinking": block["thinking"]}),
            delta({"type": "signature_delta", "signature": block["signature"]}),
        ]
    elif kind == "tool_use":
        start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        payload = json.dumps(block["input"])
        deltas = [
            delta({"type": "input_json_delta", "partial_json": piece}) for piece in _pieces(payload, r.input_chunks)
        ]
    else:
        start = copy.deepcopy(_public(block))
        deltas = []
    return [
        _event("content_block_start", {"type": "content_block_start", "index": index, "content_block": start}),
        *deltas,
        _event("content_block_stop", {"type": "content_block_stop", "index": index}),
    ]


async def _sse(
    r: Reply,
    msg_id: str,
    model: str,
    hold: Callable[[], Awaitable[None]] | None = None,
    abandoned: Callable[[], None] | None = None,
) -> AsyncIterator[bytes]:
    """The SSE events of one reply, in the order the Messages API sends them; with
    `hold_after`, `hold()` is awaited before the event of that index. `abandoned()` is
    called when the client goes away (the stream is cancelled or closed) before the last
    event was handed over."""
    if r.delay:
        await asyncio.sleep(r.delay)
    start_usage = {"input_tokens": r.usage.get("input_tokens", 0), "output_tokens": 1}
    for k in ("cache_creation_input_tokens", "cache_read_input_tokens"):
        if k in r.usage:
            start_usage[k] = r.usage[k]
    message: dict[str, Any] = {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": start_usage,
    }
    events = [_event("message_start", {"type": "message_start", "message": message})]
    for i, block in enumerate(r.blocks):
        if r.stream_error is not None and i == r.error_after:
            break
        events.extend(_block_events(i, block, r))
    if r.stream_error is not None:
        events.append(_event("error", {"type": "error", "error": r.stream_error}))
    else:
        events.append(
            _event(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": r.effective_stop_reason, "stop_sequence": None},
                    "usage": {"output_tokens": r.usage.get("output_tokens", 0)},
                },
            )
        )
        events.append(_event("message_stop", {"type": "message_stop"}))
    handed = 0
    try:
        for n, e in enumerate(events):
            if hold is not None and n == r.hold_after:
                await hold()
            if n and r.gap:
                await asyncio.sleep(r.gap)
            handed = n + 1
            yield e
    finally:
        if handed < len(events) and abandoned is not None:
            abandoned()
