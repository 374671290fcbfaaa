"""A hook or can_use_tool callback that blocks until the probe releases it.

Whether the CLI gives up on a callback that has not answered (its `HookMatcher.timeout`
passed) or an interrupt aborts a pending question are claims about order: what the CLI
did while the callback was still pending, and whether the SDK cancelled it. A callback
that sleeps for a time would let the clock decide. A `HeldCallback` instead waits until
`release()` (called at a later step of the probe: after the turn's result, after the
interrupt was answered) or until the SDK cancels it, and records which came first; a
ceiling ends the wait only when nothing else does (a hang), and is recorded as such.

    held = HeldCallback(hold=1)  # the first call blocks, later ones answer at once
    hooks = {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[held.hook({"decision": "block"})])]}
    ...
    await held.asked()           # the callback is now pending
    ... the session goes on (or not) ...
    held.release()
    held.events                  # ["asked 1", "cancelled 1"] or ["asked 1", "released 1"], ...
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

ASKED, RELEASED, CANCELLED, CEILING, ANSWERED = "asked", "released", "cancelled", "ceiling", "answered"


class HeldCallback:
    """Callbacks (`hook()`, `can_use_tool()`) whose first `hold` calls wait for `release()`.

    `events` lists, in order, "asked N" when call N arrives, then how it ended: "released N"
    (the probe let it go, and it answered), "cancelled N" (the SDK cancelled its task: it
    answers nothing), "ceiling N" (nothing released or cancelled it in `ceiling` seconds;
    it answered), or "answered N" for a call past `hold`, answered at once. `calls` keeps
    what each call was given. Build it inside the probe: its events belong to one session.
    """

    def __init__(self, *, hold: int | None = None, ceiling: float = 60.0) -> None:
        if hold is not None and hold < 0:
            raise ValueError("hold counts the calls that wait for release(): 0 or more, or None for all")
        self.hold = hold
        self.ceiling = ceiling
        self.events: list[str] = []
        self.calls: list[dict[str, Any]] = []
        self._released = False
        self._gates: list[asyncio.Event] = []
        self._changed: list[asyncio.Event] = []

    # the callbacks
    def hook(self, answer: Any = None) -> Callable[..., Any]:
        """A hook callback `(input, tool_use_id, context)`; once let go it returns `answer`
        (a hook output dict, or a callable given the call's arguments; default {})."""

        async def held_hook(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
            self.calls.append({"kind": "hook", "input": hook_input, "tool_use_id": tool_use_id})
            await self._wait()
            return await _answer(answer, {}, hook_input, tool_use_id, context)

        return held_hook

    def can_use_tool(self, answer: Any) -> Callable[..., Any]:
        """A can_use_tool callback `(tool_name, input, context)`; once let go it returns
        `answer` (a PermissionResult, or a callable given the call's arguments)."""

        async def held_can_use_tool(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
            self.calls.append({"kind": "can_use_tool", "tool": tool_name, "input": tool_input})
            await self._wait()
            return await _answer(answer, None, tool_name, tool_input, context)

        return held_can_use_tool

    # the probe's side
    @property
    def pending(self) -> int:
        """How many calls are waiting now."""
        return sum(1 for gate in self._gates if not gate.is_set())

    def ended(self, how: str) -> int:
        """How many calls ended `how` (RELEASED, CANCELLED, CEILING, ANSWERED)."""
        return sum(1 for e in self.events if e.split(" ")[0] == how)

    async def asked(self, count: int = 1, timeout: float = 30.0) -> bool:
        """Wait until `count` calls have arrived; False (not an error) if they had not in
        `timeout` seconds: the callback was never asked."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.calls) < count:
            changed = asyncio.Event()
            self._changed.append(changed)
            try:
                await asyncio.wait_for(changed.wait(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                return len(self.calls) >= count
            finally:
                self._changed.remove(changed)
        return True

    def release(self) -> int:
        """Let every waiting call answer, and every later one at once; how many were waiting."""
        self._released = True
        waiting = [gate for gate in self._gates if not gate.is_set()]
        for gate in waiting:
            gate.set()
        return len(waiting)

    async def _wait(self) -> None:
        n = len(self.calls)
        self.events.append(f"{ASKED} {n}")
        for changed in list(self._changed):
            changed.set()
        if self._released or (self.hold is not None and n > self.hold):
            self.events.append(f"{ANSWERED} {n}")
            return
        gate = asyncio.Event()
        self._gates.append(gate)
        try:
            await asyncio.wait_for(gate.wait(), self.ceiling)
        except asyncio.TimeoutError:
            self.events.append(f"{CEILING} {n}")
        except asyncio.CancelledError:
            self.events.append(f"{CANCELLED} {n}")
            raise
        else:
            self.events.append(f"{RELEASED} {n}")
        finally:
            gate.set()


async def _answer(answer: Any, default: Any, *args: Any) -> Any:
    if answer is None:
        return default
    value = answer(*args) if callable(answer) else answer
    return await value if inspect.isawaitable(value) else value
