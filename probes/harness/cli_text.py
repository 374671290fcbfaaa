"""What the CLI under test prints for a command line of its own (`--help`, `-v`): text, not a session.

A claim can rest on what the CLI itself documents. The CLI runs in the probe's space
(HOME, config dir, cwd, TMPDIR), with none of the caller's environment but PATH, its API
pointed at a closed loopback port, and every process it starts gone when it returns.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from sdkprobe.harness import processes
from sdkprobe.harness.isolation import Space
from sdkprobe.harness.sdk import ProbeTimeout

# Nothing listens on the discard port: a CLI that tried to reach its API here would fail, not leave.
_NOWHERE = "http://127.0.0.1:9"


async def cli_output(space: Space, cli: Path, args: Sequence[str], timeout: float = 30.0) -> str:
    """stdout and stderr (in the order written) of `cli args...`; ProbeTimeout past `timeout`."""
    token = secrets.token_hex(8)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(space.home),
        "CLAUDE_CONFIG_DIR": str(space.config),
        "TMPDIR": str(space.tmp),
        "ANTHROPIC_BASE_URL": _NOWHERE,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "NO_COLOR": "1",
        processes.MARKER: token,
    }
    # Into a file, not a pipe: the CLI's own exit is what is waited on, and a child it left
    # behind holding the output is ended with it rather than waited for.
    written = space.path("cli-output") / "out"
    with written.open("wb") as sink:
        proc = await asyncio.create_subprocess_exec(
            str(cli),
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=sink,
            stderr=asyncio.subprocess.STDOUT,
            cwd=space.cwd,
            env=env,
            start_new_session=True,  # its session id finds what it started after it exits
        )
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except asyncio.TimeoutError:
        raise ProbeTimeout(f"{cli.name} {' '.join(args)} did not finish within {timeout:g} s") from None
    finally:
        # by the run's marker and its session (and its pid while it still runs: an exited pid
        # may already be another's, while its session's id is not reused before the session ends)
        running = proc.returncode is None
        processes.reap(token, [proc.pid] if running else [], sessions=[proc.pid])
        if running:
            await proc.wait()
    return written.read_bytes().decode(errors="replace")
