"""A CLI's exit status reaches the SDK and the probe as the CLI gave it.

The SDK starts its CLI with anyio.open_process; asyncio's child watcher waits for the pid
and hands the status over. Before Python 3.13, terminating a child that has just exited
made subprocess.Popen.poll() reap it first: the watcher logged "Unknown child process pid
N, will report returncode 255" and the SDK was told 255 (CPython gh-87744). The SDK does
exactly that with `claude -v` up to 0.2.180, which the harness launcher ends at once.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
from subprocess import PIPE

import anyio
import pytest

from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import processes, real_cli, wire
from sdkprobe.harness import sdk as sdk_info
from sdkprobe.harness.model_double import Script, http_error

needs_cli = pytest.mark.skipif(sdk_info.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")


def child_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What asyncio logged about a child process (a lost status, a closed loop)."""
    return [r.getMessage() for r in caplog.records if r.name == "asyncio" and "pid" in r.getMessage()]


@pytest.fixture
def asyncio_log(caplog):
    caplog.set_level(logging.WARNING, logger="asyncio")
    return caplog


async def test_signalling_a_child_never_waits_for_it(monkeypatch):
    """The cause itself: the transport's terminate() must not poll (waitpid) the child."""
    processes.track_exits()
    polled: list[int] = []
    poll = subprocess.Popen._internal_poll

    def spy(self, *args, **kwargs):
        polled.append(self.pid)
        return poll(self, *args, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "_internal_poll", spy)
    proc = await anyio.open_process([sys.executable, "-c", "import sys; sys.stdin.read()"])
    try:
        proc.terminate()
        assert await proc.wait() == -signal.SIGTERM
    finally:
        await proc.aclose()
    assert proc.pid not in polled


async def test_the_sdk_version_check_pattern_keeps_the_status(tmp_path, asyncio_log):
    """What the SDK's `claude -v` check does with the launcher, many times over: the
    unmarked run exits at once, the SDK reads to EOF, terminates it and waits. Each round
    lost the race with some probability before the fix; now none may."""
    processes.track_exits()
    launcher, _ = processes.write_launcher(tmp_path / "launcher", "/bin/true", "token")
    codes = []
    for _ in range(100):
        proc = await anyio.open_process([str(launcher), "-v"], stdout=PIPE, stderr=PIPE)
        try:
            try:
                await proc.stdout.receive()
            except anyio.EndOfStream:
                pass
            try:
                proc.terminate()
            except ProcessLookupError:  # the transport already saw the exit
                pass
            codes.append(await proc.wait())
        finally:
            await proc.aclose()
    assert child_warnings(asyncio_log) == []
    assert set(codes) == {processes.REFUSED_EXIT}


async def test_exits_notes_only_the_watched_program(tmp_path):
    watched = tmp_path / "watched.sh"
    watched.write_text("#!/bin/sh\nexit 7\n")
    watched.chmod(0o755)
    with processes.exits(watched) as exits:
        proc = await anyio.open_process([str(watched), "arg"])
        other = await anyio.open_process(["/bin/sh", "-c", "exit 5"])
        assert await proc.wait() == 7 and await other.wait() == 5
        await proc.aclose()
        await other.aclose()
        assert exits.started == [(proc.pid, ["arg"])]
        assert await exits.of(proc.pid) == 7
        assert exits.statuses == {proc.pid: 7}
        assert await exits.of(other.pid, timeout=0.01) is None
    with pytest.raises(RuntimeError), processes.exits(watched), processes.exits(watched):
        pass


async def test_the_fake_cli_exit_code_is_in_the_wire_capture(tmp_path, asyncio_log):
    scenario = Scenario().wait_for_user().init().exit(3)
    run = await wire.capture(tmp_path, scenario)
    assert run.timeline()[-1] == "exit:3"
    assert [e["code"] for e in run.events if e["event"] == "exit"] == [3]
    assert "exit code 3" in (run.error or "")  # what the SDK was told is that code, not 255
    assert child_warnings(asyncio_log) == []


@needs_cli
async def test_a_session_that_ends_well_exits_0(space, asyncio_log):
    run = await real_cli.cli_run(space, "hi", script=["hello"])
    assert run.result is not None and run.result.is_error is False
    assert run.exit_code == 0 and run.exit_codes == [0]
    assert child_warnings(asyncio_log) == []


@needs_cli
async def test_an_unknown_flag_exits_1(space, asyncio_log):
    run = await real_cli.cli_run(space, "hi", extra_args={"sdkprobe-no-such-flag": None})
    assert run.exit_code == 1 and not run.requests
    assert run.exception is not None
    assert child_warnings(asyncio_log) == []


@needs_cli
async def test_an_api_error_exits_1(space, asyncio_log):
    run = await real_cli.cli_run(space, "hi", script=Script(fallback=http_error(500, "backend on fire")))
    assert run.result is not None and run.result.is_error is True
    assert run.exit_code == 1
    assert child_warnings(asyncio_log) == []
