"""A host in a process of its own: what becomes of the CLI when its host goes away.

A cli run's host is normally the probe's own process, which cannot return without
disconnect() or be SIGKILLed and still watch. `host_run` writes a small host program
(the SDK's ClaudeSDKClient: connect, one query, read to the result) into the probe's
space and runs it with this Python, under a supervisor that is a child subreaper: when
the host dies, its orphaned CLI becomes the supervisor's child, and the supervisor reads
how it ended (it notes each status before reaping, so a process that is gone from the
process table has its status written, unless its own host reaped it first). The CLI runs
through the same launcher as `real_cli.cli_run`: isolated space, the model double on 127.0.0.1,
the caller's variables dropped, the whole tree reaped at the end.

The host ends in one of two ways, once it has seen the result: "return" (asyncio.run
returns, no disconnect(), the interpreter exits) or "sigkill" (the harness kills it).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import NotApplicable
from sdkprobe.harness import processes, real_cli, under_test
from sdkprobe.harness.isolation import Space
from sdkprobe.harness.model_double import ModelDouble, Reply, Script

ENDINGS = ("return", "sigkill")
STILL_RUNNING = "still running"
REAPED_BY_HOST = "reaped by its host"


@dataclass
class HostRun:
    """What became of a host process and of its CLI.

    `messages` are the types the host read, in order; `error` what the host raised (its
    last line), if anything. `cli_end` is how the CLI ended, once it was gone: "exit N",
    "signal N", REAPED_BY_HOST (gone while its host still ran and waited for it: the
    status went to the host), or STILL_RUNNING (not gone within the ceiling; the harness
    then killed it). `host_end` is the host's own "exit N" / "signal N" (STILL_RUNNING
    likewise). `leftovers` are the session's processes still running once both were
    settled."""

    ending: str
    messages: list[str] = field(default_factory=list)
    error: str | None = None
    cli_started: bool = False
    cli_end: str = STILL_RUNNING
    host_end: str = STILL_RUNNING
    leftovers: list[int] = field(default_factory=list)

    @property
    def result_seen(self) -> bool:
        return "ResultMessage" in self.messages


async def host_run(
    space: Space,
    prompt: str = "hi",
    *,
    ending: str,
    script: Script | list[Reply | str] | None = None,
    cli_path: str | os.PathLike[str] | None = None,
    timeout: float = 60.0,
    cli_gone_within: float | None = None,
) -> HostRun:
    """Run a host process to the result of one query, end it as `ending` says, and wait
    for its CLI to be gone (`timeout`: a ceiling only a hang reaches, for each wait;
    `cli_gone_within`, if given, for the last one)."""
    if ending not in ENDINGS:
        raise ValueError(f"ending is one of {ENDINGS}, not {ending!r}")
    under = under_test.current()
    gap = under.host_process_gap()
    if gap is not None:
        raise NotApplicable(gap)
    cli = under.cli(cli_path)
    double = ModelDouble(real_cli.as_script(script)).start()
    token = secrets.token_hex(8)
    run = HostRun(ending)
    home = space.path("host")
    try:
        env = real_cli.cli_environment(space, double, token, False, {})
        launcher, pidfile = processes.write_launcher(
            space.path("launcher"), cli, token, drop=real_cli.dropped_variables(env, False)
        )
        events, statuses = home / "events.jsonl", home / "statuses.jsonl"
        options = {"cli_path": str(launcher), "env": env, "cwd": str(space.cwd)}
        (home / "spec.json").write_text(
            json.dumps(
                {"prompt": prompt, "ending": ending, "events": str(events), "pids": str(pidfile), "options": options}
            )
        )
        (home / "host.py").write_text(_HOST)
        (home / "supervisor.py").write_text(_SUPERVISOR)
        with (home / "output.txt").open("wb") as output:  # what the host and its CLI print
            supervisor = await asyncio.create_subprocess_exec(
                sys.executable,
                str(home / "supervisor.py"),
                str(statuses),
                sys.executable,
                str(home / "host.py"),
                str(home / "spec.json"),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=output,
                stderr=output,
            )
        roots = [supervisor.pid]
        try:
            await _observe(run, events, statuses, timeout, timeout if cli_gone_within is None else cli_gone_within)
        finally:
            roots += processes.launched_pids(pidfile)
            run.leftovers = sorted(processes.tree(token, roots) - {supervisor.pid})
            processes.reap(token, roots)
            await supervisor.wait()
    finally:
        double.stop()
    return run


async def _observe(run: HostRun, events: Path, statuses: Path, timeout: float, gone_within: float) -> None:
    def noted() -> list[dict[str, Any]]:
        return _lines(events)

    def ended(pid: int) -> str | None:
        return next((s["ended"] for s in _lines(statuses) if s.get("pid") == pid), None)

    def host_pid() -> int | None:
        return next((int(s["host"]) for s in _lines(statuses) if "host" in s), None)

    # The host has read to the result (or failed, or ended before it did).
    await processes.until(lambda: any("done" in e or "error" in e for e in noted()) or ended(host_pid() or -1), timeout)
    run.messages = [e["message"] for e in noted() if "message" in e]
    run.error = next((e["error"] for e in noted() if "error" in e), None)
    cli, cli_start = next(((int(e["cli"]), e["start"]) for e in noted() if "cli" in e), (None, None))
    run.cli_started = cli is not None
    host = host_pid()
    if run.ending == "sigkill" and host is not None and ended(host) is None:
        os.kill(host, signal.SIGKILL)
    if host is not None:
        await processes.until(lambda: ended(host), timeout)
        run.host_end = ended(host) or STILL_RUNNING
    if cli is None:
        return
    gone = await processes.until(lambda: processes.start_time(cli, zombie_too=True) != cli_start, gone_within)
    if gone:
        run.cli_end = ended(cli) or REAPED_BY_HOST


def _lines(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    return [json.loads(line) for line in text.splitlines() if line.endswith("}")]


_SUPERVISOR = r'''"""Starts the host (argv[2:]) as a child subreaper: every orphan of the host's tree
becomes this process's child. Each child's end is noted (argv[1]) before it is reaped."""
import ctypes
import json
import os
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit(f"prctl(PR_SET_CHILD_SUBREAPER) failed: {os.strerror(ctypes.get_errno())}")
log = open(sys.argv[1], "a", encoding="utf-8")


def note(entry):
    log.write(json.dumps(entry) + "\n")
    log.flush()


note({"host": subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL).pid})
while True:
    try:
        info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)  # its status, still unreaped
    except ChildProcessError:
        break
    if info is None:
        continue
    how = "exit" if info.si_code == os.CLD_EXITED else "signal"
    note({"pid": info.si_pid, "ended": f"{how} {info.si_status}"})
    try:
        os.waitpid(info.si_pid, 0)
    except ChildProcessError:
        pass
'''

_HOST = r'''"""A host of the SDK: connect, one query read to its result, then end as the spec says:
"return" (no disconnect()) or "sigkill" (wait to be killed)."""
import asyncio
import json
import os
import sys

spec = json.loads(open(sys.argv[1], encoding="utf-8").read())
events = open(spec["events"], "a", encoding="utf-8")


def note(**entry):
    events.write(json.dumps(entry) + "\n")
    events.flush()


async def main():
    from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient

    client = ClaudeSDKClient(ClaudeAgentOptions(**spec["options"]))
    await client.connect()
    cli = int(open(spec["pids"], encoding="utf-8").read().split()[-1])  # the launcher's pid is the CLI's
    note(cli=cli, start=int(open(f"/proc/{cli}/stat").read().rsplit(")", 1)[1].split()[19]))
    await client.query(spec["prompt"])
    async for message in client.receive_response():
        note(message=type(message).__name__)
    note(done=os.getpid())
    if spec["ending"] == "sigkill":
        await asyncio.Event().wait()


try:
    asyncio.run(main())
except BaseException as exc:
    note(error=(f"{type(exc).__name__}: {exc}".splitlines() or [""])[0])
    raise
'''
