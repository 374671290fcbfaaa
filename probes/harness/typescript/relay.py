"""The Node driver as a Python object: one query() of the TypeScript SDK, spoken to in JSON lines.

`Relay.start` launches `node driver.mjs` and hands it the TypeScript options and the
prompt; `messages()` yields what query() yields (as the JSON the SDK gave), `call` runs a
Query method (interrupt, setModel, ...), `send_user`/`end_input` feed a streaming prompt,
and each callback the SDK calls is answered by the Python function registered for it. The
driver's own protocol is described at the top of driver.mjs.

The driver is started in a session of its own and killed with everything under it when the
relay closes, so a run leaves no Node or CLI process behind.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sdkprobe.harness import processes
from sdkprobe.harness.typescript.options import Translated

DRIVER = Path(__file__).with_name("driver.mjs")
_END = object()


class DriverError(RuntimeError):
    """The driver could not run (no node, a broken protocol line)."""


class TsError(Exception):
    """What the TypeScript SDK threw, named as it named it (`name: message`); `exported` is
    the name of the error class the SDK exports that made it (`AbortError`), None when none did."""

    def __init__(self, name: str, message: str, exported: str | None = None) -> None:
        super().__init__(message)
        self.ts_name = name
        self.exported = exported


def ts_exception(error: dict[str, Any]) -> TsError:
    """A TsError whose class name is the thrown error's own, so `Type: message` reads as in Node."""
    name = str(error.get("name") or "Error")
    cls: type[TsError] = type(name if name.isidentifier() else "Error", (TsError,), {})
    exported = error.get("exported")
    return cls(name, str(error.get("message", "")), str(exported) if exported else None)


def node() -> str:
    found = shutil.which("node")
    if found is None:
        raise DriverError("the TypeScript SDK needs Node.js (node on PATH, >= 18.14)")
    return found


def node_version() -> str:
    """`node --version` without its v: 20.19.1."""
    import subprocess

    done = subprocess.run([node(), "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip().lstrip("v")


def _spawn(entry: Path) -> subprocess.Popen[bytes]:
    """A driver that starts loading `entry` (the SDK's module) at once and then waits for its
    start line; in a session of its own, so its tree can be killed as one."""
    return subprocess.Popen(
        [node(), str(DRIVER), str(entry)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


# Warm drivers per SDK module, each loaded while the runs before it went on: Node's start and
# the SDK's import (about 0.15-0.4 s) are then off each run's path. Two are kept, so that runs
# which follow each other faster than one import (a wire capture takes less) still find one
# loaded. A spare holds no state of a run: the start line gives it the run's environment and
# working directory.
SPARES = 2
_spares: dict[Path, list[subprocess.Popen[bytes]]] = {}


def end_spares() -> None:
    """Kill the warm drivers waiting for a run (at exit; each would also end once this
    process's end closes its stdin)."""
    while _spares:
        _, waiting = _spares.popitem()
        for spare in waiting:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(spare.pid, signal.SIGKILL)
            spare.wait()


atexit.register(end_spares)


def _driver(entry: Path) -> subprocess.Popen[bytes]:
    """The oldest live spare for `entry` (else a new driver), the spares topped up again."""
    waiting = _spares.setdefault(entry, [])
    proc = None
    while waiting and proc is None:
        spare = waiting.pop(0)
        proc = spare if spare.poll() is None else None
    proc = proc or _spawn(entry)
    while len(waiting) < SPARES:
        waiting.append(_spawn(entry))
    return proc


def _warmed(warmed: Any) -> Any:
    async def answer(args: list[Any]) -> None:
        warmed()

    return answer


class Relay:
    def __init__(self, translated: Translated) -> None:
        self._translated = translated
        self._proc: subprocess.Popen[bytes] | None = None
        self._stdin: asyncio.StreamWriter | None = None
        self._messages: asyncio.Queue[Any] = asyncio.Queue()
        self._returns: dict[int, asyncio.Future[Any]] = {}
        self._asked: dict[int, asyncio.Task[None]] = {}
        self._calls = 0
        self._reader: asyncio.Task[None] | None = None
        self._stderr: asyncio.Task[None] | None = None
        self.error: TsError | None = None
        self.children: list[dict[str, Any]] = []  # each process the SDK spawned: pid, argv, returncode
        self._exited = asyncio.Event()
        self.log: list[str] = []  # what the SDK (or Node) wrote to the driver's stderr: its console.warn/error
        self.yielded: list[dict[str, Any]] = []  # every message query() yielded, as its JSON, read or not
        self.ended = False
        self.finished = False  # the query's iteration ended without an error

    async def start(
        self, entry: Path, prompt: str | None, startup: dict[str, Any] | None = None, warmed: Any = None
    ) -> None:
        """Take a driver for `entry` and start its query() with this process's environment and
        working directory, as an SDK imported here would have them. With `startup` (startup()'s
        parameters but its options), the CLI is pre-warmed by startup() first, and `warmed()`
        is called once that has resolved, before the WarmQuery's query() starts (the driver
        waits for it)."""
        if warmed is not None:
            self._translated.answers["$warmed"] = _warmed(warmed)
        self._proc = proc = _driver(entry)
        processes.hosts.add(proc.pid)
        loop = asyncio.get_running_loop()
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        out, err = asyncio.StreamReader(limit=64 * 1024 * 1024), asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(out), proc.stdout)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(err), proc.stderr)
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, proc.stdin)
        self._stdin = asyncio.StreamWriter(transport, protocol, None, loop)
        self._reader = asyncio.ensure_future(self._read(out))
        self._stderr = asyncio.ensure_future(self._read_stderr(err))
        self._send(
            {
                "start": {
                    "sdk": str(entry),
                    "options": self._translated.options,
                    "prompt": prompt,
                    "env": dict(os.environ),
                    "cwd": os.getcwd(),
                    **({"startup": startup} if startup is not None else {}),
                }
            }
        )

    # --- what Python sends --------------------------------------------------------
    def _send(self, obj: dict[str, Any]) -> None:
        if self._stdin is None or self._stdin.is_closing():
            return
        self._stdin.write((json.dumps(obj) + "\n").encode())

    def send_user(self, message: dict[str, Any]) -> None:
        self._send({"user": message})

    def end_input(self) -> None:
        self._send({"end_input": True})

    def abort(self) -> None:
        """abort() the query's AbortController, as a host aborts the one it passed."""
        self._send({"abort": True})

    async def call(self, method: str, *args: Any) -> Any:
        """Query.`method`(*args) in the driver; what it returned, or its error raised."""
        self._calls += 1
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._returns[self._calls] = waiter
        self._send({"call": self._calls, "method": method, "args": list(args)})
        return await waiter

    # --- what the driver sends ------------------------------------------------------
    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        """Each message query() yields, until its iteration ends (its error then in `error`)."""
        while True:
            item = await self._messages.get()
            if item is _END:
                self._messages.put_nowait(_END)  # a second reader ends too
                return
            yield item

    async def _read(self, stdout: asyncio.StreamReader) -> None:
        try:
            async for line in stdout:
                if line.strip():
                    self._dispatch(json.loads(line))
        finally:
            self.ended = True
            self._messages.put_nowait(_END)
            for waiter in self._returns.values():
                if not waiter.done():
                    waiter.set_exception(DriverError("the driver ended before the call returned"))

    async def _read_stderr(self, stderr: asyncio.StreamReader) -> None:
        async for line in stderr:
            text = line.decode(errors="replace").rstrip()
            if text:
                self.log.append(text)

    def _dispatch(self, msg: dict[str, Any]) -> None:
        if "message" in msg:
            self.yielded.append(msg["message"])
            self._messages.put_nowait(msg["message"])
        elif "ask" in msg:
            self._asked[msg["ask"]] = asyncio.ensure_future(self._answer(msg["ask"], msg["callback"], msg["args"]))
        elif "aborted" in msg:
            task = self._asked.get(msg["aborted"])
            if task is not None and not task.done():
                task.cancel()  # as the Python SDK cancels a callback the CLI cancelled
        elif "notify" in msg:
            notify = self._translated.notifies.get(msg["notify"])
            if notify is not None:
                notify(msg["args"])
        elif "spawned" in msg:
            self.children.append({"pid": msg["spawned"], "argv": msg["argv"], "returncode": None})
        elif "exited" in msg:
            for child in self.children:
                if child["pid"] == msg["exited"]:
                    signum = getattr(signal, str(msg.get("signal")), None)
                    child["returncode"] = msg["code"] if msg.get("code") is not None else -int(signum or 0)
            self._exited.set()
        elif "returned" in msg:
            waiter = self._returns.pop(msg["returned"], None)
            if waiter is not None and not waiter.done():
                if "error" in msg:
                    waiter.set_exception(ts_exception(msg["error"]))
                else:
                    waiter.set_result(msg.get("value"))
        elif "end" in msg:
            self.finished = True
            self._messages.put_nowait(_END)
        elif "error" in msg:
            self.error = ts_exception(msg["error"])
            self._messages.put_nowait(_END)

    async def _answer(self, ask: int, name: str, args: list[Any]) -> None:
        try:
            value = await self._translated.answers[name](args)
        except asyncio.CancelledError:
            self._send({"answer": ask, "error": "cancelled"})
            return
        except Exception as exc:  # the probe's callback raised: the SDK sees it throw
            self._send({"answer": ask, "error": f"{type(exc).__name__}: {exc}"})
            return
        finally:
            self._asked.pop(ask, None)
        self._send({"answer": ask, "value": value})

    async def children_ended(self, ceiling: float = 10.0) -> None:
        """Wait until every process the SDK spawned has ended (`ceiling` only stops a hang)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ceiling
        while any(c["returncode"] is None for c in self.children) and not self.ended:
            self._exited.clear()
            try:
                await asyncio.wait_for(self._exited.wait(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                return

    # --- the end --------------------------------------------------------------------
    async def close(self) -> None:
        """Close the driver's stdin, give it a moment to end its query, then kill what is left."""
        proc = self._proc
        if proc is None:
            return
        for task in list(self._asked.values()):
            task.cancel()
        if self._stdin is not None and not self._stdin.is_closing():
            self._stdin.close()
        loop = asyncio.get_running_loop()
        # A query that ended with every process it spawned gone leaves the driver nothing to
        # end: it is killed at once. Otherwise it ends its query once its stdin closes.
        settled = self.finished and all(c["returncode"] is not None for c in self.children)
        with contextlib.suppress(asyncio.TimeoutError):
            if not settled:
                await asyncio.wait_for(asyncio.shield(loop.run_in_executor(None, proc.wait)), 5.0)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        await loop.run_in_executor(None, proc.wait)
        processes.hosts.discard(proc.pid)
        for reader in (self._reader, self._stderr):
            if reader is not None:
                with contextlib.suppress(Exception):
                    await reader
