"""Process hygiene for the cli tier: every process a session starts is gone when it ends.

The SDK starts the CLI and stops only the CLI; what the CLI starts (MCP servers, shells,
their children) may outlive it. So the SDK is given a tiny launcher instead of the CLI:
it records its pid, drops the caller's inherited Anthropic/Claude variables, refuses a
non-loopback API when asked to, and execs the CLI in a session of its own (setsid, same
pid). Afterwards `reap` finds the tree three ways — a marker variable every descendant
inherits, the session id, the parent chain — and kills it.

The SDK's CLI is a child of this process, started with anyio.open_process, so asyncio's
child watcher is what waits for it and hands its exit status to the SDK. `track_exits`
makes that watcher the only waiter (see there) and lets a session read the statuses of
the processes it started (`exits`).
"""

from __future__ import annotations

import asyncio
import asyncio.base_subprocess
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sdkprobe import scope as invocation

MARKER = "SDKPROBE_RUN"
REFUSED_EXIT = 97


def write_launcher(
    directory: Path, cli: str | Path, token: str, *, drop: Iterable[str] = (), require_loopback: bool = True
) -> tuple[Path, Path]:
    """Write the launcher the SDK runs as `cli_path`; return (launcher, pid file)."""
    directory.mkdir(parents=True, exist_ok=True)
    launcher, pidfile = directory / "claude", directory / "pids"
    pidfile.write_text("")
    unset = " ".join(f"-u {shlex.quote(n)}" for n in sorted(set(drop)))
    guard = ""
    if require_loopback:
        guard = (
            'case "$ANTHROPIC_BASE_URL" in http://127.0.0.1:*) ;; *)\n'
            '  echo "sdkprobe: refusing to start the CLI: ANTHROPIC_BASE_URL is not 127.0.0.1" >&2\n'
            f"  exit {REFUSED_EXIT};;\nesac\n"
        )
    launcher.write_text(
        "#!/bin/sh\n"
        f'[ "${MARKER}" = {shlex.quote(token)} ] || exit {REFUSED_EXIT}\n'
        f"echo $$ >> {shlex.quote(str(pidfile))}\n"
        f"{guard}"
        f'exec /usr/bin/env {unset} /usr/bin/setsid {shlex.quote(str(cli))} "$@"\n'
    )
    launcher.chmod(0o755)
    return launcher, pidfile


def launched_pids(pidfile: Path) -> list[int]:
    try:
        return [int(x) for x in pidfile.read_text().split()]
    except (OSError, ValueError):
        return []


def start_time(pid: int, *, zombie_too: bool = False) -> int | None:
    """When a live (non-zombie) process started, in clock ticks since boot (None if gone;
    with `zombie_too`, a zombie not yet reaped is not gone).

    A pid with its start time names one process: a later process given the same pid
    starts later. A process that records `(pid, start)` once it runs what it claims to
    (see `same_process`) is then told apart by identity, not by what its command line says."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()
    return None if fields[0] == "X" or (fields[0] == "Z" and not zombie_too) else int(fields[19])


def same_process(pid: int, start: int | None) -> bool:
    """Whether the process that recorded `(pid, start)` still runs (a zombie does not)."""
    return start is not None and start_time(pid) == start


def _has_marker(pid: int, needle: bytes) -> bool:
    try:
        return needle in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def tree(token: str, roots: Iterable[int] = (), sessions: Iterable[int] = ()) -> set[int]:
    """Live (non-zombie) processes of one session: marked, roots (pids known to be still
    ours), members of the roots' sessions or of `sessions`, or below any of them.

    A session id names its session for as long as one member lives (Linux does not give
    the number to a new process before then), so a process found by it is ours even when
    its leader has exited, and even while it is between fork and exec, when its environment
    cannot be read and its marker is not seen."""
    roots = set(roots)
    sessions = roots | set(sessions)
    needle = f"{MARKER}={token}".encode()
    table = invocation.process_table()
    found = {pid for pid, (_, sid) in table.items() if sid in sessions or pid in roots}
    found |= {pid for pid in table if _has_marker(pid, needle)}
    return invocation.with_descendants(found, table)


def reap(token: str, roots: Iterable[int] = (), timeout: float = 5.0, sessions: Iterable[int] = ()) -> list[int]:
    """Kill a session's whole tree (see `tree`) and wait until it is gone; return the pids that were alive."""
    roots, sessions = list(roots), list(sessions)
    alive = tree(token, roots, sessions)
    killed = set(alive)
    deadline = time.monotonic() + timeout
    while alive:
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"processes survived SIGKILL: {sorted(alive)}")
        time.sleep(0.01)  # polling the kill, not synchronising on a guess
        alive = tree(token, roots, sessions)
        killed |= alive
    return sorted(killed)


def strays(scope: str | None = None) -> list[int]:
    """Live processes a probe of this invocation (or of `scope`) started and left behind:
    cli-tier trees carry the marker variable, fake CLIs run from a probe's `sdkprobe-*` space;
    either counts only with a SDKPROBE_SCOPE value within the scope (see sdkprobe.scope), so
    another run on the same machine is none of ours."""
    wanted = scope or invocation.current()
    found = []
    for pid in invocation.members(wanted):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if f"\0{MARKER}=".encode() in b"\0" + environ or (b"/sdkprobe-" in cmdline and b"/fake/claude" in cmdline):
            found.append(pid)
    return sorted(found)


# Processes that host an SDK for this one (the TypeScript driver): their children count as ours.
hosts: set[int] = set()


def children_in(cwd: str | Path) -> int | None:
    """How many live (not zombie) children of this process (or of an SDK host it runs, see
    `hosts`) run in `cwd`: a client's CLI started there, seen to end when the client says
    it ended it. None on a host without /proc."""
    if not os.path.isdir("/proc/self"):
        return None
    wanted, count = os.path.realpath(cwd), 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
            state, ppid = raw[raw.rindex(")") + 2 :].split()[:2]
            if (
                (int(ppid) == os.getpid() or int(ppid) in hosts)
                and state != "Z"
                and os.readlink(f"/proc/{entry}/cwd") == wanted
            ):
                count += 1
        except (OSError, ValueError):  # a process that ended while read
            continue
    return count


async def until(found: Callable[[], Any], timeout: float) -> Any:
    """`found()` once it is truthy, or its last (falsy) value after `timeout`: for waiting on
    files a process writes and on /proc, where there is no event to wait for."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (value := found()) and loop.time() < deadline:
        await asyncio.sleep(0.02)  # polling files and /proc, not a guess at a duration
    return value


# --- exit statuses of the SDK's children ------------------------------------------------
#
# Before Python 3.13, asyncio's subprocess transport sends terminate()/kill()/send_signal()
# through subprocess.Popen.send_signal, which first calls Popen.poll(): a waitpid(pid,
# WNOHANG) in the loop's thread. When the child has exited but the child watcher's thread
# (blocked in its own waitpid on the pid) has not reaped it yet, that poll reaps it first:
# the watcher gets ECHILD, logs "Unknown child process pid N, will report returncode 255"
# and hands the SDK 255 instead of the real status (CPython gh-87744, fixed in 3.13 by
# signalling with os.kill). The SDK terminates children that may just have exited: up to
# 0.2.180 it runs `claude -v` and terminates it after reading one chunk (the launcher ends
# an unmarked `-v` at once with REFUSED_EXIT, so that race was lost in about a third of
# the sessions), and closing a session terminates a CLI that may be exiting on its own.

_watched: dict[str, Exits] = {}
_tracking = False


def _send_signal(self: Any, sig: int) -> None:
    """BaseSubprocessTransport.send_signal as in Python 3.13: a signal, never a wait."""
    self._check_proc()
    try:
        os.kill(self._proc.pid, sig)
    except ProcessLookupError:
        pass


def _terminate(self: Any) -> None:
    self.send_signal(signal.SIGTERM)


def _kill(self: Any) -> None:
    self.send_signal(signal.SIGKILL)


def _argv(proc: Any) -> list[str]:
    """The argv a Popen was started with ([] if unknown)."""
    args: Any = getattr(proc, "args", None)
    if isinstance(args, (str, bytes, os.PathLike)):
        return [os.fsdecode(args)]
    try:
        return [os.fsdecode(a) for a in args]
    except TypeError:
        return []


def _watcher_of(transport: Any) -> Exits | None:
    argv = _argv(getattr(transport, "_proc", None))
    return _watched.get(argv[0]) if argv else None


def track_exits() -> None:
    """Make asyncio's child watcher the only waiter on this process's children, and tell
    whoever watches a child's program (`exits`) when it starts and the status it ended
    with. Idempotent.

    On POSIX Pythons before 3.13 the subprocess transport's send_signal, terminate and kill
    are replaced by those of 3.13 (os.kill on the pid, no Popen.poll); the SDK then sees
    the same exit statuses on every Python.
    """
    global _tracking
    if _tracking:
        return
    _tracking = True
    transport: Any = asyncio.base_subprocess.BaseSubprocessTransport
    if sys.version_info < (3, 13) and os.name == "posix":
        transport.send_signal = _send_signal
        transport.terminate = _terminate
        transport.kill = _kill
    init, process_exited = transport.__init__, transport._process_exited

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        watcher = _watcher_of(self)
        if watcher is not None:
            watcher.started.append((self.get_pid(), _argv(self._proc)[1:]))

    def _process_exited(self: Any, returncode: int) -> None:
        watcher, pid = _watcher_of(self), self.get_pid()
        try:
            process_exited(self, returncode)
        finally:
            if watcher is not None:
                watcher.exited(pid, returncode)

    transport.__init__ = __init__
    transport._process_exited = _process_exited


class Exits:
    """The children started as one program while it is watched: `started` (pid, argv
    after the program) in start order, and `statuses`, pid -> the returncode asyncio's
    watcher read (the exit code, or -N for a death by signal N)."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.started: list[tuple[int, list[str]]] = []
        self.statuses: dict[int, int] = {}
        self._waiters: dict[int, asyncio.Future[int]] = {}

    def exited(self, pid: int, returncode: int) -> None:
        self.statuses[pid] = returncode
        waiter = self._waiters.pop(pid, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(returncode)

    async def of(self, pid: int, timeout: float = 5.0) -> int | None:
        """The status of `pid`, once the watcher has handed it over; None if it does not
        come within `timeout` (still running, or not a child started as this program)."""
        if pid in self.statuses:
            return self.statuses[pid]
        waiter = self._waiters.get(pid)
        if waiter is None:
            waiter = self._waiters[pid] = asyncio.get_running_loop().create_future()
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except asyncio.TimeoutError:
            return None


@contextmanager
def exits(program: str | os.PathLike[str]) -> Iterator[Exits]:
    """Note every child started as `program` (its argv[0]) while inside, and how it ended."""
    track_exits()
    watched = Exits(os.fspath(program))
    if watched.program in _watched:
        raise RuntimeError(f"{watched.program} is already watched")
    _watched[watched.program] = watched
    try:
        yield watched
    finally:
        del _watched[watched.program]
