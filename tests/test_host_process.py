"""A host in a process of its own (probes/harness/host_process.py): the harness sees how
the CLI ends when its host returns or is SIGKILLed, and leaves nothing running."""

from __future__ import annotations

from fake_cli import launcher
from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import host_process, processes


def fake_cli(space, scenario: Scenario) -> str:
    cli, _ = launcher.install(space.path("fake"), scenario.to_json())
    return str(cli)


def answered() -> Scenario:
    return Scenario().turn()


async def test_a_killed_hosts_cli_that_exits_on_eof_is_seen_to_exit_with_its_own_code(space):
    cli = fake_cli(space, answered().wait_for_eof().exit(3))
    run = await host_process.host_run(space, ending="sigkill", cli_path=cli, timeout=120)
    assert run.result_seen and run.error is None and run.cli_started
    assert run.cli_end == "exit 3"  # read by the supervisor: the CLI was orphaned to it
    assert run.host_end == "signal 9" and run.leftovers == []


async def test_a_killed_hosts_cli_that_ignores_eof_is_still_running_and_then_ended(space):
    cli = fake_cli(space, answered().wait_for_eof().sleep(600))
    run = await host_process.host_run(space, ending="sigkill", cli_path=cli, timeout=120, cli_gone_within=2)
    assert run.result_seen and run.cli_end == host_process.STILL_RUNNING and run.host_end == "signal 9"
    assert len(run.leftovers) == 1  # the CLI, orphaned, until the harness reaped it
    assert processes.start_time(run.leftovers[0]) is None


async def test_a_host_that_returns_without_disconnect_ends_and_its_cli_is_gone(space):
    cli = fake_cli(space, answered())  # the fake exits 0 once its stdin closes
    run = await host_process.host_run(space, ending="return", cli_path=cli, timeout=120)
    assert run.result_seen and run.host_end == "exit 0"
    assert run.cli_end not in (host_process.STILL_RUNNING,) and run.leftovers == []


async def test_an_unknown_ending_is_refused_before_anything_starts(space):
    try:
        await host_process.host_run(space, ending="exit", cli_path="/nonexistent")
    except ValueError as exc:
        assert "ending is one of" in str(exc)
    else:
        raise AssertionError("an unknown ending was accepted")
