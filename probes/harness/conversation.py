"""A connected ClaudeSDKClient driven step by step: several turns, an interrupt at a
chosen point of the stream, a held model stream released.

A probe that needs more than one `query()` writes its steps against a `Conversation`
(`h.converse(steps, ...)`) instead of touching the client: every message read is kept
in the run, each turn's messages apart (`CliRun.turns`), and each step the probe took is
marked at its place in the message sequence (`CliRun.marks`), so a decision can say
"after the interrupt" by position, never by time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from probes.harness.model_double import ModelDouble
from probes.harness.recording import StdoutRecording
from probes.harness.sdk import Outcome


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

    async def send(self, prompt: str | list[dict[str, Any]]) -> None:
        """Start a turn: `client.query(prompt)` (a list of message dicts is sent as a stream)."""
        self.turns.append([])
        self.mark(f"send {len(self.turns)}")
        if isinstance(prompt, list):
            await self._client.query(_iterate(prompt))
        else:
            await self._client.query(prompt)

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

    async def response(self) -> list[Any]:
        """Read to the end of the current turn (its ResultMessage); return the turn's messages."""
        await self.until(lambda m: type(m).__name__ == "ResultMessage")
        return self.turns[-1] if self.turns else list(self._outcome.messages)

    async def interrupt(self) -> None:
        """Send the interrupt control request and wait for the CLI's answer to it."""
        self.mark("interrupt")
        await self._client.interrupt()

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
