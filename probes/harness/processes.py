"""Process hygiene for the cli tier: every process a session starts is gone when it ends.

The SDK starts the CLI and stops only the CLI; what the CLI starts (MCP servers, shells,
their children) may outlive it. So the SDK is given a tiny launcher instead of the CLI:
it records its pid, drops the caller's inherited Anthropic/Claude variables, refuses a
non-loopback API when asked to, and execs the CLI in a session of its own (setsid, same
pid). Afterwards `reap` finds the tree three ways — a marker variable every descendant
inherits, the session id, the parent chain — and kills it.
"""

from __future__ import annotations

import os
import shlex
import signal
import time
from collections.abc import Iterable
from pathlib import Path

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


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, session id) of a live process, None if gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[3])


def _has_marker(pid: int, needle: bytes) -> bool:
    try:
        return needle in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def tree(token: str, roots: Iterable[int] = ()) -> set[int]:
    """Live (non-zombie) processes of one session: marked, in the roots' sessions, or below them."""
    roots = set(roots)
    needle = f"{MARKER}={token}".encode()
    me = os.getpid()
    table: dict[int, tuple[str, int, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != me:
            st = _stat(int(entry))
            if st is not None and st[0] != "Z":
                table[int(entry)] = st
    found = {pid for pid, (_, _, sid) in table.items() if sid in roots or pid in roots}
    found |= {pid for pid in table if _has_marker(pid, needle)}
    grew = True
    while grew:
        below = {pid for pid, (_, ppid, _) in table.items() if ppid in found and pid not in found}
        found |= below
        grew = bool(below)
    return found


def reap(token: str, roots: Iterable[int] = (), timeout: float = 5.0) -> list[int]:
    """Kill a session's whole tree and wait until it is gone; return the pids that were alive."""
    roots = list(roots)
    alive = tree(token, roots)
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
        alive = tree(token, roots)
        killed |= alive
    return sorted(killed)


def strays() -> list[int]:
    """Live processes that any sdkprobe run started and left behind: cli-tier trees carry
    the marker variable, fake CLIs run from a probe's `sdkprobe-*` space."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        pid = int(entry)
        st = _stat(pid)
        if st is None or st[0] == "Z":
            continue
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if f"\0{MARKER}=".encode() in b"\0" + environ or (b"/sdkprobe-" in cmdline and b"/fake/claude" in cmdline):
            found.append(pid)
    return sorted(found)
