"""Values a probe gives for options only the TypeScript SDK has that no Python function can stand
for, so the Node driver makes them (typescript/options.py hands them over): a spawner that must
return the process at once, and an AbortController the probe aborts."""

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
