"""A cli-tier session leaves nothing behind: no process (the CLI, MCP servers, their
children, whatever a tool started) and no file outside its space, however it ends."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sdkprobe.harness import processes, real_cli, reply, sdk, tool_use
from sdkprobe.harness.model_double import result_text
from sdkprobe.harness.sdk import ProbeTimeout

MCP_SERVER = Path(__file__).with_name("mcp_child_server.py")
needs_cli = pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def processes_of(space) -> list[str]:
    """Live processes that run with this space's HOME or inside it (any session, any parent)."""
    found = []
    needle = f"HOME={space.home}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or not alive(int(entry)):
            continue
        try:
            env = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if needle in env or cwd.startswith(str(space.root)):
            found.append(Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
    return found


@pytest.fixture
def clean(space):
    """The space, checked after the test for surviving processes."""
    yield space
    assert processes_of(space) == []


def kid_server(pidfile: Path) -> dict:
    return {"kid": {"type": "stdio", "command": sys.executable, "args": [str(MCP_SERVER), str(pidfile)]}}


@needs_cli
async def test_mcp_server_and_its_child_end_with_the_session(clean):
    pidfile = clean.root / "kid.pids"
    run = await real_cli.cli_run(
        clean,
        "ask the server",
        script=[reply(tool_use("mcp__kid__pids", {})), "ok"],
        mcp_servers=kid_server(pidfile),
        allowed_tools=["mcp__kid__pids"],
        env={"ENABLE_TOOL_SEARCH": "false"},
    )
    [block] = run.requests[1].tool_results
    pids = [int(p) for p in re.findall(r"\d+", result_text(block))]
    assert pids == [int(p) for p in pidfile.read_text().split()]  # the server answered through the CLI
    assert len(pids) == 2 and not any(alive(p) for p in pids)


@needs_cli
async def test_a_timed_out_session_still_ends_everything(clean):
    """The claim needs the MCP server and its child up before the deadline. On a machine loaded
    enough that they are not (seen once: three heavy jobs beside the suite, and 10 s passed
    before the CLI started them), the session is tried again with a longer deadline, so the
    check is always made on a timeout that came after both were running."""
    for attempt, deadline in enumerate((10, 40, 160)):
        pidfile = clean.root / f"kid-{attempt}.pids"

        def started(pidfile: Path = pidfile) -> list[int]:
            return [int(p) for p in pidfile.read_text().split()] if pidfile.exists() else []

        async def hang_once_the_server_runs(client, outcome, double, started=started):
            await client.query("hang")
            while len(started()) < 2:
                await asyncio.sleep(0.05)
            await asyncio.Event().wait()  # until the deadline

        with pytest.raises(ProbeTimeout):
            await real_cli.cli_run(
                clean,
                script=[reply("late", delay=60)],
                mcp_servers=kid_server(pidfile),
                client=True,
                drive=hang_once_the_server_runs,
                timeout=deadline,
            )
        pids = started()
        if len(pids) == 2:
            break
    assert len(pids) == 2 and not any(alive(p) for p in pids)


@needs_cli
async def test_detached_tool_processes_are_ended(clean):
    command = "(setsid sleep 600 >/dev/null 2>&1 &); (nohup sleep 601 >/dev/null 2>&1 &); echo started"
    run = await real_cli.cli_run(
        clean,
        "spawn",
        script=[reply(tool_use("Bash", {"command": command, "description": "spawn"})), "ok"],
        allowed_tools=["Bash"],
    )
    assert result_text(run.requests[1].tool_results[0]).strip() == "started"
    assert run.leftovers  # alive when the SDK finished; `clean` checks the harness ended them


@needs_cli
async def test_the_cli_writes_nothing_outside_the_space(clean):
    def outside() -> dict[str, float | None]:
        watched = [Path(p) for p in ("/tmp", "/var/tmp")]
        seen = {
            str(e): e.stat().st_mtime for d in watched if d.exists() for e in d.iterdir() if e.name.startswith("claude")
        }
        for p in (Path.home() / ".claude", Path.home() / ".claude.json", Path.home() / ".config" / "claude"):
            seen[str(p)] = p.stat().st_mtime if p.exists() else None
        return seen

    before = outside()
    await real_cli.cli_run(
        clean,
        "work",
        script=[reply(tool_use("Bash", {"command": "echo hi > f", "description": "w"})), "ok"],
        allowed_tools=["Bash"],
    )
    assert outside() == before
    assert (clean.tmp / f"claude-{os.getuid()}").is_dir()  # the CLI's temp files went to the space


def test_the_launcher_refuses_a_remote_api(tmp_path):
    fake = tmp_path / "cli"
    fake.write_text("#!/bin/sh\necho ran\n")
    fake.chmod(0o755)
    launcher, pidfile = processes.write_launcher(tmp_path / "l", fake, "tok", drop=["CANARY"])
    env = {"PATH": os.environ["PATH"], processes.MARKER: "tok", "CANARY": "x"}
    remote = subprocess.run(
        [launcher], env={**env, "ANTHROPIC_BASE_URL": "https://api.anthropic.com"}, capture_output=True, text=True
    )
    assert remote.returncode == processes.REFUSED_EXIT and "refusing" in remote.stderr
    unmarked = subprocess.run([launcher], env={"ANTHROPIC_BASE_URL": "http://127.0.0.1:1"}, capture_output=True)
    assert unmarked.returncode == processes.REFUSED_EXIT
    local = subprocess.run(
        [launcher], env={**env, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}, capture_output=True, text=True
    )
    assert local.returncode == 0 and local.stdout == "ran\n"
    assert len(processes.launched_pids(pidfile)) == 2


def test_reap_ends_a_process_tree_in_its_own_session(tmp_path):
    token = "t" * 8
    child = subprocess.Popen(
        ["setsid", "sh", "-c", "sleep 600 & sleep 601 & echo up; wait"],
        env={**os.environ, processes.MARKER: token},
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout.readline() == b"up\n"
        found = processes.tree(token, [child.pid])
        assert child.pid in found and len(found) >= 3
        killed = processes.reap(token, [child.pid])
        assert set(found) <= set(killed)
        assert processes.tree(token, [child.pid]) == set()
    finally:
        child.kill()
        child.wait()
        child.stdout.close()


def test_strays_counts_only_this_invocations_processes(tmp_path):
    """A marked process or a fake CLI of this invocation's scope is a stray; the same of
    another invocation on the machine (another sdkprobe run, another pytest) is not."""
    import os
    import signal
    import subprocess

    from sdkprobe import scope
    from sdkprobe.harness.processes import MARKER, strays

    fake = tmp_path / "sdkprobe-x" / "fake" / "claude"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\nsleep 30\n")
    fake.chmod(0o755)
    ours, other = scope.current(), "someone-elses-run"
    started = {
        (kind, whose): subprocess.Popen(
            argv,
            env={"PATH": "/usr/bin:/bin", scope.VARIABLE: value, **({MARKER: "t"} if kind == "marked" else {})},
            start_new_session=True,
        )
        for kind, argv in (("marked", ["sleep", "30"]), ("fake", ["/bin/sh", str(fake)]))
        for whose, value in (("ours", f"{ours}/below"), ("other", other))
    }
    try:
        found = strays()
        counted = {key for key, child in started.items() if child.pid in found}
        assert counted == {("marked", "ours"), ("fake", "ours")}
        assert {key for key, child in started.items() if child.pid in strays(other)} == {
            ("marked", "other"),
            ("fake", "other"),
        }
    finally:
        for child in started.values():
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert not set(strays()) & {c.pid for c in started.values()}
    assert os.environ[scope.VARIABLE] == ours


def test_children_in_counts_live_children_in_one_folder_only(tmp_path):
    """A child running in the folder counts, one elsewhere does not, and an ended (even
    unreaped, zombie) child no longer counts."""
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    assert processes.children_in(here) == 0
    inside = subprocess.Popen(["sleep", "60"], cwd=here)
    outside = subprocess.Popen(["sleep", "60"], cwd=elsewhere)
    try:
        assert processes.children_in(here) == 1
        inside.kill()
        os.waitid(os.P_PID, inside.pid, os.WEXITED | os.WNOWAIT)  # ended, still a zombie
        assert processes.children_in(here) == 0
    finally:
        for child in (inside, outside):
            child.kill()
            child.wait()
