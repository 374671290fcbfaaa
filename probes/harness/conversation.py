"""A connected ClaudeSDKClient driven step by step: several turns, an interrupt at a
chosen point of the stream, a held model stream released.

A probe that needs more than one `query()` writes its steps against a `Conversation`
(`h.converse(steps, ...)`) instead of touching the client: every message read is kept
in the run, each turn's messages apart (`CliRun.turns`), and each step the probe took is
marked at its place in the message sequence (`CliRun.marks`), so a decision can say
"after the interrupt" by position, never by time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from sdkprobe.harness.model_double import ModelDouble
from sdkprobe.harness.recording import StdoutRecording
from sdkprobe.harness.sdk import Outcome


class Conversation:
    """One ClaudeSDKClient session, read through a single message iterator."""

    def __init__(
        self, client: Any, outcome: Outcome, double: ModelDouble | None, stdout: StdoutRecording | None = None
    ) -> None:
        self._client = client
        self._outcome = outcome
        self._double = double
        self._stdout = stdout
        self._stream: AsyncIterator[Any] | None = None
        self.turns: list[list[Any]] = []
        self.marks: list[tuple[int, str]] = []

    @property
    def messages(self) -> list[Any]:
        """Every message read so far, in order."""
        return self._outcome.messages

    def mark(self, label: str) -> None:
        """Note `label` at the current position of the message sequence."""
        self.marks.append((len(self._outcome.messages), label))

    async def send(self, prompt: str | list[dict[str, Any]], session_id: str | None = None) -> None:
        """Start a turn: `client.query(prompt)` (a list of message dicts is sent as a stream);
        `session_id` is passed on as query()'s own argument of that name."""
        self.turns.append([])
        self.mark(f"send {len(self.turns)}")
        kw = {} if session_id is None else {"session_id": session_id}
        if isinstance(prompt, list):
            await self._client.query(_iterate(prompt), **kw)
        else:
            await self._client.query(prompt, **kw)

    async def next(self) -> Any:
        """The next message the SDK yields (StopAsyncIteration when the stream ended)."""
        if self._stream is None:
            self._stream = self._client.receive_messages().__aiter__()
        message = await self._stream.__anext__()
        self._outcome.messages.append(message)
        if self.turns:
            self.turns[-1].append(message)
        return message

    async def until(self, predicate: Callable[[Any], bool]) -> Any:
        """Read until a message satisfies `predicate`; return it (None if the stream ended first)."""
        while True:
            try:
                message = await self.next()
            except StopAsyncIteration:
                return None
            if predicate(message):
                return message

    async def until_or_release(self, predicate: Callable[[Any], bool], ceiling: float = 20.0) -> tuple[Any, bool]:
        """Read until a message satisfies `predicate`, as `until` does; if none has by
        `ceiling` seconds, the turn is waiting on a held model stream (the ceiling is one
        only such a wait reaches), so the double stops holding (marked) and reading goes
        on. The message (None if the stream ended) and whether a release was needed. The
        read is never cancelled, so no message is lost on the way."""
        reading = asyncio.ensure_future(self.until(predicate))
        done, _ = await asyncio.wait({reading}, timeout=ceiling)
        if done:
            return reading.result(), False
        self.stop_holding()
        return await reading, True

    async def response(self) -> list[Any]:
        """Read to the end of the current turn (its ResultMessage); return the turn's messages."""
        await self.until(lambda m: type(m).__name__ == "ResultMessage")
        return self.turns[-1] if self.turns else list(self._outcome.messages)

    async def interrupt(self) -> None:
        """Send the interrupt control request and wait for the CLI's answer to it."""
        self.mark("interrupt")
        await self._client.interrupt()

    async def call(self, method: str, *args: Any) -> Any:
        """Call a ClaudeSDKClient method that is not a turn (get_mcp_status, toggle_mcp_server,
        reconnect_mcp_server, ...) between turns, marked by its name; what it returned. A
        method this SDK lacks raises AttributeError: declare requires=('api:ClaudeSDKClient.NAME',)."""
        self.mark(method)
        return await getattr(self._client, method)(*args)

    async def mcp_status(self) -> dict[str, Any]:
        """What get_mcp_status() answers ({"mcpServers": [...]}); on an SDK without that
        method (0.1.19) the `mcp_status` control request it sends, so a probe that only
        needs the CLI's list of servers (e.g. to start a turn once they are connected)
        runs on every version. A refused request gives {"mcpServers": []}."""
        if callable(getattr(self._client, "get_mcp_status", None)):
            answer = await self.call("get_mcp_status")
        else:
            answer = (await self.control({"subtype": "mcp_status"})).get("response")
        return dict(answer) if isinstance(answer, dict) else {"mcpServers": []}

    async def mcp_connected(self, servers: set[str], bound: float = 30.0) -> list[str]:
        """Which of `servers` the CLI lists connected, once all are or after `bound` seconds
        (a bound a sound run never reaches): a turn started then has their tools to call."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + bound
        while True:
            listed = (await self.mcp_status()).get("mcpServers") or []
            up = sorted(
                str(s.get("name")) for s in listed if s.get("name") in servers and s.get("status") == "connected"
            )
            if set(up) == servers or loop.time() > deadline:
                return up
            await asyncio.sleep(0.1)  # polling the CLI's list: it says nothing when a server comes up

    async def control(self, request: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Send a control request the SDK may have no public method for (`reload_plugins`,
        `mcp_set_servers`, ...) through the client's own control channel, as a TypeScript
        `Query` method would, and return the CLI's answer as data: `{"subtype": "success",
        "response": {...}}`, or `{"subtype": "error", "error": "..."}` when the CLI refused it.

        This reaches the SDK's private `_query._send_control_request` (present from 0.1.19
        on): the claims it serves are about the CLI's side of a request Python cannot send.
        On the TypeScript SDK the Query method that sends the request does it (TsClient.control).
        """
        self.mark(f"control {request.get('subtype')}")
        if hasattr(type(self._client), "control"):  # the TypeScript SDK: a Query method sends it
            answer: dict[str, Any] = await self._client.control(dict(request), timeout)
            return answer
        query = getattr(self._client, "_query", None)
        send = getattr(query, "_send_control_request", None)
        if send is None:
            raise RuntimeError("this SDK's client has no control channel to send a raw control request on")
        try:
            response = await send(dict(request), timeout)
        except Exception as exc:  # the SDK raises the CLI's error text as a plain Exception
            if isinstance(exc, TimeoutError) or str(exc).startswith("Control request timeout"):
                raise RuntimeError(f"no answer to control request {request.get('subtype')!r}: {exc}") from None
            return {"subtype": "error", "error": str(exc)}
        return {"subtype": "success", "response": dict(response or {})}

    async def stdout_line(self, predicate: Callable[[Any], bool], timeout: float = 30.0) -> Any:
        """Wait for a raw CLI stdout line (parsed JSON) satisfying `predicate`, even one the
        SDK drops; needs `record_stdout=True`."""
        if self._stdout is None:
            raise RuntimeError("stdout is not recorded in this session (record_stdout=True)")
        line = await self._stdout.wait_for(predicate, timeout)
        self.mark("stdout line")
        return line

    # the model's side (cli tier with the double only). A missed wait raises RuntimeError:
    # a TimeoutError would be taken by the SDK runner for the whole probe's deadline.
    async def requests(self, count: int = 1, route: str | None = None, timeout: float = 30.0) -> None:
        """Wait until the model double has received `count` Messages requests (on `route`)."""
        try:
            await self._model().wait_for(count, route, timeout)
        except TimeoutError as exc:
            raise RuntimeError(str(exc)) from None

    async def abandoned(self, count: int = 1, timeout: float = 30.0) -> bool:
        """Whether the CLI closed `count` model streams before their end (it aborted the
        request) within `timeout`; False, not an error, when it did not."""
        try:
            await self._model().wait_abandoned(count, timeout)
        except TimeoutError:
            return False
        self.mark("abandoned")
        return True

    async def held(self, count: int = 1, timeout: float = 30.0) -> None:
        """Wait until `count` scripted streams have stopped at their `hold_after` point."""
        try:
            await self._model().wait_held(count, timeout)
        except TimeoutError as exc:
            raise RuntimeError(str(exc)) from None

    def release(self) -> int:
        """Let every held stream go on; how many there were."""
        self.mark("release")
        return self._model().release()

    def stop_holding(self) -> int:
        """Let every held stream go on, and any that reaches its hold point later too; how
        many were held."""
        self.mark("stop holding")
        return self._model().stop_holding()

    def _model(self) -> ModelDouble:
        if self._double is None:
            raise RuntimeError("no model double in this session (wire tier or live)")
        return self._double

    async def close(self) -> None:
        if self._stream is not None:
            aclose = getattr(self._stream, "aclose", None)
            self._stream = None
            if aclose is not None:
                await aclose()


Steps = Callable[[Conversation], Awaitable[None]]


async def _iterate(items: list[dict[str, Any]]) -> AsyncIterator[dict[str, Any]]:
    for item in items:
        yield item
