"""h.cli_output: the CLI's own text for a command line, isolated, bounded, and leaving nothing running."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sdkprobe.harness import Harness, ProbeTimeout, TierError, cli_text, sdk


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "claude"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


async def test_it_runs_in_the_probes_space_with_none_of_the_callers_environment(space, tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-caller-own")
    cli = _script(
        tmp_path,
        'echo "args=$*"; echo "home=$HOME"; echo "cwd=$(pwd)"; echo "base=$ANTHROPIC_BASE_URL"; '
        'echo "key=${ANTHROPIC_API_KEY:-none}"; echo "to stderr" >&2\n',
    )
    out = await cli_text.cli_output(space, cli, ["--help", "x y"])
    assert out.splitlines() == [
        "args=--help x y",
        f"home={space.home}",
        f"cwd={space.cwd}",
        "base=http://127.0.0.1:9",
        "key=none",
        "to stderr",
    ]


async def test_what_it_started_is_gone_when_it_returns(space, tmp_path):
    cli = _script(tmp_path, f'sleep 600 & echo "$!" > {tmp_path}/child; echo started\n')
    assert (await cli_text.cli_output(space, cli, [])).strip() == "started"
    child = int((tmp_path / "child").read_text())
    state = Path(f"/proc/{child}/stat")
    assert not state.exists() or state.read_text().rsplit(")", 1)[1].split()[0] == "Z"


async def test_what_it_started_without_the_marker_is_gone_too(space, tmp_path):
    """Found by the CLI's session after the CLI has exited, not by the run's marker (which a
    process between fork and exec, or one started with a clean environment, does not show)."""
    cli = _script(tmp_path, f'env -i /bin/sleep 600 & echo "$!" > {tmp_path}/child; echo started\n')
    assert (await cli_text.cli_output(space, cli, [])).strip() == "started"
    child = int((tmp_path / "child").read_text())
    state = Path(f"/proc/{child}/stat")
    assert not state.exists() or state.read_text().rsplit(")", 1)[1].split()[0] == "Z"


async def test_a_cli_that_does_not_finish_is_a_probe_timeout_and_is_ended(space, tmp_path):
    cli = _script(tmp_path, f'echo "$$" > {tmp_path}/pid; exec sleep 600\n')
    # 10 s: long enough that even a loaded machine's shell has written its pid by then
    with pytest.raises(ProbeTimeout, match="did not finish within 10 s"):
        await cli_text.cli_output(space, cli, ["--help"], timeout=10)
    pid = int((tmp_path / "pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_a_wire_behaviour_may_not_start_the_real_cli(space):
    with pytest.raises(TierError):
        await Harness(space, tier="wire").cli_output("--help")


@pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")
async def test_the_bundled_cli_documents_its_flags(space):
    assert "--tools <tools...>" in await Harness(space, tier="cli").cli_output("--help")
