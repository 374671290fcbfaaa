"""The processes of one invocation (one `sdkprobe` command, one pytest session), told apart
from every other one on the machine, and ended together on Ctrl-C.

An invocation puts a value of SDKPROBE_SCOPE into its environment once, at its start, and
every process it starts inherits it (the SDK hands its own environment on to the CLI, the
CLI to what it starts). A command started inside another one appends a part of its own
(`a1b2/c3d4`), so a value within a scope is that value or one below it: the leftover guard
counts only its own invocation's processes, and ending a scope never reaches its parent's.

`stop()` ends every process of the scope (and every descendant of this one: pool workers
were forked before they could show the variable) and makes `run` refuse to start another,
so no thread of a bisect starts a probe after the first Ctrl-C.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

VARIABLE = "SDKPROBE_SCOPE"
_STOP_CEILING = 10.0  # SIGKILL ends a process at once; only a process stuck in the kernel outlasts this

_spawning = threading.Lock()  # held while a child starts, so `stop()` cannot miss one
_stopped = False


class Stopped(KeyboardInterrupt):
    """A child was to start after the invocation was interrupted."""


def current() -> str:
    """This invocation's scope (one is made when there is none yet)."""
    value = os.environ.get(VARIABLE)
    if not value:
        value = os.environ[VARIABLE] = secrets.token_hex(6)
    return value


def begin() -> str:
    """Enter a scope of this invocation's own, below the inherited one (if any)."""
    before = os.environ.get(VARIABLE)
    value = os.environ[VARIABLE] = f"{before}/{secrets.token_hex(6)}" if before else secrets.token_hex(6)
    return value


@contextmanager
def entered() -> Iterator[str]:
    """`begin()` for the time inside; the inherited scope again after."""
    before = os.environ.get(VARIABLE)
    value = begin()
    try:
        yield value
    finally:
        if before is None:
            os.environ.pop(VARIABLE, None)
        else:
            os.environ[VARIABLE] = before


def within(value: str | None, scope: str) -> bool:
    """Whether a process's scope value lies in `scope` (the same, or below it)."""
    return value is not None and (value == scope or value.startswith(scope + "/"))


def scope_of(pid: int) -> str | None:
    """The SDKPROBE_SCOPE value a live process was started with, None without one (or gone)."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    prefix = f"{VARIABLE}=".encode()
    for item in environ.split(b"\0"):
        if item.startswith(prefix):
            return item[len(prefix) :].decode(errors="replace")
    return None


def process_table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session id) of every live, non-zombie process but this one."""
    table = {}
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            table[int(entry)] = (int(fields[1]), int(fields[3]))
    return table


def with_descendants(found: set[int], table: dict[int, tuple[int, int]]) -> set[int]:
    """`found` and every process of `table` below one of them by the parent chain."""
    found = set(found)
    grew = True
    while grew:
        below = {pid for pid, (ppid, _) in table.items() if ppid in found and pid not in found}
        found |= below
        grew = bool(below)
    return found


def members(scope: str | None = None) -> list[int]:
    """Live processes (not this one) started within `scope` (default: this invocation's)."""
    scope = scope or current()
    return sorted(pid for pid in process_table() if within(scope_of(pid), scope))


def descendants() -> set[int]:
    """Live processes below this one by their parent chain."""
    table = process_table()
    return with_descendants({pid for pid, (ppid, _) in table.items() if ppid == os.getpid()}, table)


def end(scope: str, *, with_descendants: bool = False) -> list[int]:
    """SIGKILL every process of `scope` (and, asked, every descendant of this process) until
    none is left; return the pids that were alive."""

    def alive() -> set[int]:
        return set(members(scope)) | (descendants() if with_descendants else set())

    killed: set[int] = set()
    deadline = time.monotonic() + _STOP_CEILING
    left = alive()
    while left and time.monotonic() < deadline:
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        killed |= left
        time.sleep(0.01)  # polling the kill, not synchronising on a guess
        left = alive()
    return sorted(killed)


def stop(scope: str | None = None) -> list[int]:
    """No child starts from now on (until `interrupts_stop` is left), and every process of this
    invocation (or of `scope`) ends, with every descendant of this process."""
    global _stopped
    with _spawning:
        _stopped = True
    return end(scope or current(), with_descendants=True)


def stopped() -> bool:
    return _stopped


@contextmanager
def interrupts_stop() -> Iterator[None]:
    """While inside, the first SIGINT stops the invocation (`stop()` of the scope current on
    entry) before KeyboardInterrupt is raised: nothing it started goes on, whatever thread or
    event loop was running. Once left, children may start again."""
    global _stopped
    top = current()

    def on_sigint(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while ending changes nothing
        stop(top)
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread: leave SIGINT as it is
        previous = None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        with _spawning:
            _stopped = False


def run(
    command: list[str],
    *,
    env: dict[str, str],
    timeout: float | None = None,
    capture: bool = True,
    stdout_to_stderr: bool = False,
) -> subprocess.CompletedProcess[str]:
    """subprocess.run(command, capture_output=capture, text=True) for a child of this scope: in
    a session of its own (the terminal's Ctrl-C reaches only this process, which ends it), under
    a part of the scope of its own (ended whole on a timeout), and never after `stop()`. With
    `stdout_to_stderr` (and no capture) what the child prints goes to this process's stderr, so
    a command whose own stdout is its result can show a child's output as progress."""
    child = f"{current()}/{secrets.token_hex(6)}"
    piped = subprocess.PIPE if capture else None
    with _spawning:
        if _stopped:
            raise Stopped
        proc = subprocess.Popen(
            command,
            env={**env, VARIABLE: child},
            stdin=subprocess.DEVNULL,
            stdout=piped if capture or not stdout_to_stderr else sys.stderr.fileno(),
            stderr=piped,
            text=True,
            start_new_session=True,
        )
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        proc.kill()
        end(child)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(command, proc.returncode, out, err)
