"""The first Ctrl-C stops a command: nothing queued starts, every process it started ends,
one line is printed, nothing is written, and the exit status is 130.

Each command runs as a user runs it: a subprocess leading its own process group, sent SIGINT
as a terminal sends it (to the whole group), under a scope of its own (sdkprobe.scope) so what
it left behind can be told from what other tests run beside it.
"""

import os
import secrets
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sdkprobe import scope
from sdkprobe.harness.processes import strays

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "0.2.189.json"
# cli-tier behaviours that each take seconds: a Ctrl-C lands while probes run and more are queued
SLOW = [
    "agents.background-by-default",
    "hooks.permission-request-callback-fires",
    "messages.interrupt-settles-with-own-result",
    "mcp.stdio-process-tree-ends",
    "perms.can-use-tool-signal-on-interrupt",
    "tools.mcp-tool-naming",
]
CEILING = 120.0  # only a hang reaches it


def _start(argv, own_scope, **kw):
    env = {**os.environ, scope.VARIABLE: own_scope}
    return subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True, **kw
    )


def _wait_for(condition, what):
    deadline = time.monotonic() + CEILING
    while not condition():
        assert time.monotonic() < deadline, f"never saw {what}"
        time.sleep(0.05)


def _interrupt(proc, own_scope):
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the foreground group gets it
    try:
        out, err = proc.communicate(timeout=CEILING)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        left = scope.members(own_scope)
    for pid in left:  # never leave them to the suite's guard
        os.kill(pid, signal.SIGKILL)
    return out, err, left


def _one_line_only(err, header_lines=()):
    """stderr: the command's own lines, then `sdkprobe: interrupted`, nothing else (no traceback)."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err and "Fatal error" not in err, err
    assert lines and lines[-1] == "sdkprobe: interrupted", err
    assert lines.count("sdkprobe: interrupted") == 1
    return lines[:-1]


def _run_until_interrupted(argv, wait_for, what, **kw):
    own = f"{scope.current()}/interrupt-{secrets.token_hex(4)}"
    proc = _start(argv, own, **kw)
    try:
        _wait_for(lambda: wait_for(own), what)
    except AssertionError:
        proc.kill()
        proc.communicate()
        raise
    out, err, left = _interrupt(proc, own)
    assert proc.returncode == 130, err
    assert left == []
    return out, _one_line_only(err)


@pytest.mark.skipif(not REPORT.exists(), reason="needs the committed 0.2.189 report")
def test_the_first_ctrl_c_stops_a_gates_fresh_run(tmp_path):
    from sdkprobe.harness import sdk

    if sdk.sdk_version() != "0.2.189":
        pytest.skip("the gate's baseline is the installed version's report")
    argv = [sys.executable, "-m", "sdkprobe", "gate", "--baseline", str(REPORT), "-j", "2"]
    out, lines = _run_until_interrupted(argv, strays, "a probe's CLI start")
    assert out == ""  # no comparison printed
    assert all(line.startswith(("claude-agent-sdk ", "[")) for line in lines)


@pytest.mark.skipif(not REPORT.exists(), reason="needs the committed 0.2.189 report")
@pytest.mark.parametrize("jobs", ["2", "1"])
def test_the_first_ctrl_c_stops_a_run_and_writes_nothing(tmp_path, jobs):
    from sdkprobe.harness import sdk

    if sdk.sdk_version() != "0.2.189":
        pytest.skip("the copy of the committed report must be the installed version's")
    out_dir = tmp_path / "reports"
    out_dir.mkdir()
    before = REPORT.read_bytes()
    (out_dir / REPORT.name).write_bytes(before)
    own = f"{scope.current()}/interrupt-{secrets.token_hex(4)}"
    argv = [sys.executable, "-m", "sdkprobe", "run", "--only", *SLOW, "--out", str(out_dir), "--merge", "-j", jobs]
    proc = _start(argv, own)
    try:
        _wait_for(lambda: strays(own), "a probe's CLI start")
    except AssertionError:
        proc.kill()
        raise
    out, err, left = _interrupt(proc, own)
    assert proc.returncode == 130, err
    own_lines = _one_line_only(err)
    assert all(line.startswith(("claude-agent-sdk ", "[")) for line in own_lines), err  # header, progress
    assert len(own_lines) - 1 < len(SLOW)  # not every probe ran: the queue was dropped
    assert out == ""  # no table: the run did not finish
    assert left == []
    assert (out_dir / REPORT.name).read_bytes() == before
    assert sorted(p.name for p in out_dir.iterdir()) == [REPORT.name]  # no temp file, no .md written


DRIVER = """
import sys
from pathlib import Path

from sdkprobe import commands

from sdkprobe.releases import envcache

from sdkprobe.releases import index as releases

tmp = Path(sys.argv[1])
env = envcache.Env("0.2.150", tmp / "env")
env.bin.mkdir(parents=True)
# each release's `sdkprobe run`: says it started, then runs as long as a real probe would, with a child
env.sdkprobe.write_text(
    "#!/bin/sh\\n"
    f"echo $$ >> {tmp / 'started'}\\n"
    "sleep 600 &\\n"
    "wait\\n"
)
env.sdkprobe.chmod(0o755)
(env.path / "lib/python3/site-packages/claude_agent_sdk/_bundled").mkdir(parents=True)
(env.path / "lib/python3/site-packages/claude_agent_sdk/_bundled/claude").write_text("")
index = [releases.Release(v, False, True) for v in ("0.2.140", "0.2.150", "0.2.160", "0.2.170", "0.2.175", "0.2.180")]
releases.releases = lambda: index
envcache.EnvCache.ensure = lambda self, version, progress=None: env
envcache.EnvCache.wanted = lambda self, version: {}
sys.exit(commands.main(sys.argv[2:]))
"""


def test_the_first_ctrl_c_stops_a_bisect_and_its_release_runs(tmp_path):
    """`bisect` probes both ends at once, each in a `sdkprobe run` of its own: one Ctrl-C ends both
    runs with what they started, and no further release is probed."""
    driver = tmp_path / "driver.py"
    driver.write_text(textwrap.dedent(DRIVER))
    started = tmp_path / "started"
    own = f"{scope.current()}/interrupt-{secrets.token_hex(4)}"
    argv = [sys.executable, str(driver), str(tmp_path), "bisect", "wire.tools-option-to-flag", "--fresh"]
    proc = _start(argv, own, cwd=ROOT)
    try:
        _wait_for(lambda: started.exists() and len(started.read_text().split()) == 2, "both ends' runs start")
    except AssertionError:
        proc.kill()
        raise
    out, err, left = _interrupt(proc, own)
    assert proc.returncode == 130, err
    _one_line_only(err)
    assert left == []
    assert len(started.read_text().split()) == 2  # no release probed after the Ctrl-C


def test_the_first_ctrl_c_stops_a_history_refresh_and_writes_no_history(tmp_path):
    """`history -j 2` bisects two changes at once; one Ctrl-C ends both, and no history file is written."""
    driver = tmp_path / "driver.py"
    driver.write_text(textwrap.dedent(DRIVER))
    reports = tmp_path / "reports"
    reports.mkdir()
    for v in ("0.2.160", "0.2.180"):  # three behaviours change verdict between these two
        (reports / f"{v}.json").write_bytes((ROOT / "reports" / f"{v}.json").read_bytes())
    started = tmp_path / "started"
    argv = [sys.executable, str(driver), str(tmp_path), "history", "--reports", str(reports), "-j", "2"]
    _run_until_interrupted(
        argv, lambda own: started.exists() and len(started.read_text().split()) == 2, "two release runs start", cwd=ROOT
    )
    assert len(started.read_text().split()) == 2
    assert not (reports / "history").exists()


def test_nothing_follows_the_interrupted_line_not_even_what_is_finalised_at_exit():
    """An interrupted probe's event loop leaves SDK transports that complain from `__del__`
    ("Event loop is closed") once the interpreter exits; after `sdkprobe: interrupted` they
    must go nowhere. Here a command leaves such an object in the interrupt's own frames."""
    driver = textwrap.dedent(
        """
        import sys
        from sdkprobe import commands
        from sdkprobe.commands import list_

        class LateComplaint:
            def __del__(self):
                print("Exception ignored: late complaint", file=sys.stderr)

        def interrupted(args):
            leftover = LateComplaint()  # held by the KeyboardInterrupt's traceback until exit
            raise KeyboardInterrupt

        list_.cmd_list = interrupted  # what `sdkprobe list` runs
        sys.exit(commands.main(["list"]))
        """
    )
    done = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=CEILING, cwd=ROOT)
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines() == ["sdkprobe: interrupted"], done.stderr
