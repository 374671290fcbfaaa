"""Values a probe gives for TypeScript options that no Python function in the Python SDK's terms can
stand for, so the Node driver makes them or hands them over as they are (typescript/options.py): a
spawner that must return the process at once, an AbortController the probe aborts, and a callback
handed the SDK's own JSON arguments."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class NodeSpawn:
    """A `spawnClaudeCodeProcess` the driver answers in Node, as a host would (a spawner must return
    the process at once, which no call to Python can): it starts the command the SDK hands it with
    the args, cwd and environment given, SDKPROBE_HOST_SPAWN set to the option's name, and calls
    `seen` with {command, args, cwd, env} as the SDK gave them."""

    seen: Callable[[dict[str, Any]], None]


class NodeAbort:
    """An `abortController` the driver makes in Node: `abort()` aborts it, as a host calls
    `controller.abort()` (the driver asks for the go-ahead as it makes it; the answer is the abort)."""

    def __init__(self) -> None:
        self._aborted = asyncio.Event()

    def abort(self) -> None:
        self._aborted.set()

    async def wait(self, args: list[Any]) -> None:
        """Returns once `abort()` was called: the driver's go-ahead to abort."""
        await self._aborted.wait()


@dataclass(frozen=True)
class AsGiven:
    """A callback for any option, handed the arguments as the SDK under test gave them and answering
    in its terms: on the TypeScript SDK the JSON its callback was called with (an AbortSignal left
    out), not the Python SDK's types built from it. The Python SDK hands its callbacks its own
    objects, so a run giving one there is not-applicable."""

    fn: Callable[..., Any]
