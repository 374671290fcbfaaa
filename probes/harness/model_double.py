"""The model double: a scripted Anthropic Messages API on 127.0.0.1 for the cli tier.

The real CLI is pointed at it with ANTHROPIC_BASE_URL. It records every request it gets
(credentials removed) so a probe can read what the CLI sent, and answers each from a
script, so a probe decides what "the model" says: text, streamed tool_use, thinking,
HTTP errors in Anthropic's envelope, an SSE error mid-stream, slow streams.

Requests are routed by who sent them, because one CLI turn may produce requests from
the main conversation, from subagents and auxiliary side calls; a script keeps one
queue of replies per route. A request nothing was scripted for gets a short default
text and is flagged `unscripted`, so a probe can tell its script was not followed.

The server is uvicorn running in a thread of its own with its own loop: it keeps
serving while the probe's loop is busy, and scripted delays never block the probe.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import itertools
import json
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

MAIN, SUBAGENT, AUX = "main", "subagent", "aux"
ROUTES = (MAIN, SUBAGENT, AUX)
DEFAULT_TEXT = "ok"
MODEL = "claude-double"
_CREDENTIAL_HEADERS = {"x-api-key", "authorization", "proxy-authorization", "cookie"}
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
_DEFERRED_MARK = "deferred tools are now available via ToolSearch"


# --- what a script is made of ------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """One scripted answer to one request.

    `blocks` are Messages content blocks (build them with `text`, `tool_use`, `thinking`).
    `delay` is waited before the first byte, `gap` between SSE events. `status` other than
    200 answers with Anthropic's error envelope instead; `stream_error` sends an SSE
    `error` event after `error_after` content blocks.
    """

    blocks: tuple[dict[str, Any], ...] = ()
    stop_reason: str | None = None
    usage: dict[str, int] = field(default_factory=lambda: {"input_tokens": 10, "output_tokens": 5})
    delay: float = 0.0
    gap: float = 0.0
    status: int = 200
    error_type: str | None = None
    message: str = ""
    stream_error: dict[str, str] | None = None
    error_after: int = 0
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason:
            return self.stop_reason
        return "tool_use" if any(b["type"] == "tool_use" for b in self.blocks) else "end_turn"


def text(s: str) -> dict[str, Any]:
    return {"type": "text", "text": s}


def tool_use(name: str, input: dict[str, Any], id: str | None = None, chunks: int = 3) -> dict[str, Any]:
    """A tool_use block; its input is streamed as `chunks` input_json_delta pieces.

    Without `id` the Script numbers it (toolu_double000001, ...), the same on every run.
    """
    return {
        "type": "tool_use",
        "id": id,
        "name": name,
        "input": input,
        "_chunks": max(1, chunks),
    }


def thinking(s: str, signature: str = "sig-double") -> dict[str, Any]:
    return {"type": "thinking", "thinking": s, "signature": signature}


def reply(*blocks: dict[str, Any] | str, **kw: Any) -> Reply:
    """A reply of several blocks; plain strings become text blocks."""
    return Reply(tuple(text(b) if isinstance(b, str) else b for b in blocks), **kw)


def http_error(status: int, message: str, error_type: str | None = None, **kw: Any) -> Reply:
    """An HTTP error answered with `{"type":"error","error":{"type":...,"message":...}}`."""
    return Reply(status=status, error_type=error_type or _ERROR_TYPES.get(status, "api_error"), message=message, **kw)


def stream_error(
    *blocks: dict[str, Any] | str, error_type: str = "overloaded_error", message: str = "Overloaded", **kw: Any
) -> Reply:
    """A 200 stream that sends `blocks`, then an SSE `error` event, and ends."""
    base = reply(*blocks, **kw)
    return dataclasses.replace(
        base, stream_error={"type": error_type, "message": message}, error_after=len(base.blocks)
    )


class Script:
    """Replies per route, served in order; `fallback` answers a route once its queue is empty.

    `Script(main=[...], subagent=[...], aux=[...])`; each entry a Reply, or a string for
    a plain text reply.
    """

    def __init__(self, *, fallback: Reply | None = None, **routes: Iterable[Reply | str]) -> None:
        unknown = set(routes) - set(ROUTES)
        if unknown:
            raise ValueError(f"unknown routes {sorted(unknown)}; routes are {ROUTES}")
        ids = itertools.count(1)
        self.queues = {r: [_numbered(_as_reply(x), ids) for x in routes.get(r, ())] for r in ROUTES}
        self.fallback = fallback

    def next(self, route: str) -> tuple[Reply, bool]:
        """The reply for a request on `route`, and whether the script said so."""
        queue = self.queues[route]
        if queue:
            return queue.pop(0), True
        if self.fallback is not None:
            return self.fallback, True
        return reply(DEFAULT_TEXT), False

    def remaining(self) -> dict[str, int]:
        return {r: len(q) for r, q in self.queues.items() if q}


def _as_reply(x: Reply | str) -> Reply:
    return reply(x) if isinstance(x, str) else x


def _numbered(r: Reply, ids: Iterator[int]) -> Reply:
    blocks = tuple(
        {**b, "id": f"toolu_double{next(ids):06d}"} if b["type"] == "tool_use" and not b.get("id") else b
        for b in r.blocks
    )
    return dataclasses.replace(r, blocks=blocks)


# --- what was recorded ---------------------------------------------------------------


@dataclass
class Recorded:
    """One request the double received, in arrival order."""

    index: int
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any
    route: str | None = None
    scripted: bool = True
    status: int = 200

    @property
    def unscripted(self) -> bool:
        return not self.scripted

    @property
    def is_messages(self) -> bool:
        return self.path == "/v1/messages"

    @property
    def tools(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("tools") or []) if isinstance(self.body, dict) else []

    @property
    def tool_names(self) -> list[str]:
        return [t.get("name") for t in self.tools]

    def tool_schema(self, name: str) -> dict[str, Any] | None:
        for t in self.tools:
            if t.get("name") == name:
                return t.get("input_schema")
        return None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or []) if isinstance(self.body, dict) else []

    @property
    def system_text(self) -> str:
        """The `system` parameter as one string (blocks joined by newlines)."""
        system = self.body.get("system") if isinstance(self.body, dict) else None
        if isinstance(system, str):
            return system
        return "\n".join(b.get("text", "") for b in system or [] if isinstance(b, dict))

    def texts(self, role: str | None = None) -> list[str]:
        """Every text in the messages (string contents and text blocks), optionally of one role."""
        out = []
        for m in self.messages:
            if role and m.get("role") != role:
                continue
            content = m.get("content")
            if isinstance(content, str):
                out.append(content)
            else:
                out.extend(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")
        return out

    @property
    def context_text(self) -> str:
        """System text and every message text, for "is X mentioned anywhere" checks."""
        return "\n".join([self.system_text, *self.texts()])

    @property
    def deferred_tools(self) -> list[str]:
        """Tool names the CLI announced as deferred (reachable only through ToolSearch)."""
        for t in self.texts():
            at = t.find(_DEFERRED_MARK)
            if at < 0:
                continue
            names = []
            for line in t[at:].splitlines()[1:]:
                line = line.strip()
                if not line or line.startswith("<"):
                    if names:
                        break
                    continue
                names.append(line.split()[0].lstrip("-*").strip())
            return [n for n in names if n]
        return []

    @property
    def loaded_tools(self) -> list[str]:
        """Names in `tools` the API loads into context (not marked `defer_loading`)."""
        return [t.get("name") for t in self.tools if not t.get("defer_loading")]

    @property
    def offered_tools(self) -> list[str]:
        """Tools the model can see or load by name: loaded tools plus the deferred list.

        A `defer_loading` entry that the deferred list does not name (the CLI's
        DeferredToolPlaceholder) is machinery, not an offer, and is left out.
        """
        loaded = self.loaded_tools
        return loaded + [n for n in self.deferred_tools if n not in loaded]

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        """tool_result blocks of the last user message (what the previous tool_use gave)."""
        for m in reversed(self.messages):
            if m.get("role") == "user" and isinstance(m.get("content"), list):
                return [b for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
        return []

    def tool_result(self, tool_use_id: str) -> dict[str, Any] | None:
        for m in self.messages:
            for b in m.get("content") if isinstance(m.get("content"), list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id:
                    return b
        return None

    def summary(self) -> dict[str, Any]:
        """A small dict for debugging and observations (no bodies)."""
        return {"path": self.path, "route": self.route, "scripted": self.scripted, "status": self.status}


def result_text(block: dict[str, Any] | None) -> str:
    """The text of a tool_result block, whatever shape its content has."""
    if not block:
        return ""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(c.get("text", "") for c in content or [] if isinstance(c, dict))


# --- routing -------------------------------------------------------------------------


class Router:
    """Tells main conversation, subagents and auxiliary calls apart.

    The main conversation is the thread whose first user message the first tool-bearing
    request had; a request whose first message differs, or that carries a prompt the
    double itself handed to an Agent/Task tool_use, is a subagent's. A request without
    tools (and with a small max_tokens, or no main yet) is an auxiliary call.
    """

    AUX_MAX_TOKENS = 4096

    def __init__(self) -> None:
        self.main_first: str | None = None
        self.agent_prompts: list[str] = []

    def route(self, body: Any) -> str:
        if not isinstance(body, dict):
            return AUX
        messages = body.get("messages") or []
        first = _first_user_text(messages)
        if any(p and p in first for p in self.agent_prompts):
            return SUBAGENT
        if not body.get("tools") and (
            self.main_first is not None or (body.get("max_tokens") or 0) <= self.AUX_MAX_TOKENS
        ):
            if first != self.main_first:
                return AUX
        if self.main_first is None:
            self.main_first = first
            return MAIN
        return MAIN if first == self.main_first else SUBAGENT

    def served(self, r: Reply) -> None:
        for b in r.blocks:
            if b.get("type") == "tool_use" and isinstance(b.get("input"), dict):
                prompt = b["input"].get("prompt")
                if isinstance(prompt, str) and prompt:
                    self.agent_prompts.append(prompt)


def _first_user_text(messages: list[dict[str, Any]]) -> str:
    for m in messages:
        if m.get("role") != "user":
            continue
        content = m.get("content")
        if isinstance(content, str):
            return content
        return "\n".join(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")
    return ""


# --- the server ----------------------------------------------------------------------


class ModelDouble:
    """The scripted API. Use as a context manager (`with ModelDouble(script) as d:`)."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script()
        self.requests: list[Recorded] = []
        self._router = Router()
        self._lock = threading.Lock()
        self._watchers: list[Callable[[], None]] = []
        self._msg_ids = itertools.count(1)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self.port = 0

    # lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ModelDouble:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        self._sock, self.port = sock, sock.getsockname()[1]
        config = uvicorn.Config(
            self._app(),
            log_level="critical",
            lifespan="off",
            access_log=False,
            timeout_graceful_shutdown=0,
            loop="asyncio",
            http="h11",
        )
        started = threading.Event()
        server = _Server(config, started)
        self._server = server
        self._thread = threading.Thread(target=server.run_until_stopped, args=(sock,), name="model-double", daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("the model double did not start within 10 s")
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.halt()
        if self._thread is not None:
            self._thread.join(10)
        if self._sock is not None:
            self._sock.close()
        self._server = self._thread = self._sock = None

    def __enter__(self) -> ModelDouble:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

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
        """Wait until `count` messages requests (on `route`) have arrived; return the last.

        The server thread wakes the waiting loop on every request, so nothing polls and
        nothing blocks a thread that a cancelled probe would leave behind.
        """
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(changed.set)

        def ready() -> list[Recorded]:
            rs = self.messages_requests if route is None else self.on(route)
            return rs if len(rs) >= count else []

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
                        raise TimeoutError(
                            f"{count} request(s) on {route or 'any route'} did not arrive in {timeout:g} s"
                        ) from None
            return ready()[count - 1]
        finally:
            with self._lock:
                self._watchers.remove(wake)

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
        with self._lock:
            r, rec.scripted = self.script.next(rec.route or MAIN)
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
                _sse(r, msg_id, model),
                media_type="text/event-stream",
                headers={"cache-control": "no-cache", "request-id": f"req_double{rec.index}", **r.headers},
            )
        if r.delay:
            await asyncio.sleep(r.delay)
        return JSONResponse(
            _whole_message(r, msg_id, model), headers={"request-id": f"req_double{rec.index}", **r.headers}
        )


class _Server(uvicorn.Server):
    """uvicorn that says when it listens and stops at once when halted.

    uvicorn notices `should_exit` only on its 0.1 s tick; cancelling its task from the
    probe's thread ends it (and any stream still open) without waiting for the tick.
    """

    def __init__(self, config: uvicorn.Config, started: threading.Event) -> None:
        super().__init__(config)
        self._started = started
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None

    def run_until_stopped(self, sock: socket.socket) -> None:
        async def serve() -> None:
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
            try:
                await self.serve(sockets=[sock])
            except asyncio.CancelledError:
                pass

        asyncio.run(serve())

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        self._started.set()

    def halt(self) -> None:
        self.should_exit = self.force_exit = True
        if self._loop is not None and self._task is not None:
            try:
                self._loop.call_soon_threadsafe(self._task.cancel)
            except RuntimeError:  # the loop already ended
                pass

    def install_signal_handlers(self) -> None:  # uvicorn < 0.29
        pass


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


def _block_events(index: int, block: dict[str, Any]) -> list[bytes]:
    kind = block["type"]
    delta = lambda d: _event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})  # noqa: E731
    if kind == "text":
        start = {"type": "text", "text": ""}
        deltas = [delta({"type": "text_delta", "text": block["text"]})]
    elif kind == "thinking":
        start = {"type": "thinking", "thinking": ""}
        deltas = [
            delta({"type": "thinking_delta", "thinking": block["thinking"]}),
            delta({"type": "signature_delta", "signature": block["signature"]}),
        ]
    elif kind == "tool_use":
        start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
        payload = json.dumps(block["input"])
        n = block.get("_chunks", 3)
        size = max(1, -(-len(payload) // n))
        deltas = [
            delta({"type": "input_json_delta", "partial_json": payload[i : i + size]})
            for i in range(0, len(payload), size)
        ]
    else:
        start = copy.deepcopy(_public(block))
        deltas = []
    return [
        _event("content_block_start", {"type": "content_block_start", "index": index, "content_block": start}),
        *deltas,
        _event("content_block_stop", {"type": "content_block_stop", "index": index}),
    ]


async def _sse(r: Reply, msg_id: str, model: str):
    """The SSE events of one reply, in the order the Messages API sends them."""
    if r.delay:
        await asyncio.sleep(r.delay)
    start_usage = {"input_tokens": r.usage.get("input_tokens", 0), "output_tokens": 1}
    for k in ("cache_creation_input_tokens", "cache_read_input_tokens"):
        if k in r.usage:
            start_usage[k] = r.usage[k]
    message = {
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
        events.extend(_block_events(i, block))
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
    for n, e in enumerate(events):
        if n and r.gap:
            await asyncio.sleep(r.gap)
        yield e
