"""The wire harness notices what it exists to notice: flags, answers, crashes, EOF."""

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdkprobe.fake_cli.blocks import tool_use
from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import sdk, wire
from sdkprobe.harness.sdk import Outcome
from sdkprobe.harness.wire import EVERY_HOST_VARIABLE, WireRun

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
tool_names = st.lists(st.from_regex(r"[A-Z][A-Za-z]{0,11}", fullmatch=True), min_size=1, max_size=5)


async def test_plain_query_round_trip(space):
    run = await wire.capture(space.path("w"))
    assert run.argv[:2] == ["--output-format", "stream-json"]
    assert run.initialize["subtype"] == "initialize"
    assert [m["message"]["content"] for m in run.user_messages] == ["hi"]
    assert [type(m).__name__ for m in run.messages] == ["SystemMessage", "AssistantMessage", "ResultMessage"]
    assert run.error is None


@FAST
@given(names=tool_names)
async def test_tools_option_shows_in_argv(space, names):
    run = await wire.capture(space.path("w"), tools=names)
    assert run.flag("--tools") == ",".join(names)
    assert not run.has_flag("--disallowedTools")  # a flag the options did not add


@FAST
@given(turns=st.integers(min_value=1, max_value=10_000))
async def test_max_turns_shows_in_argv(space, turns):
    run = await wire.capture(space.path("w"), max_turns=turns)
    assert run.flag("--max-turns") == str(turns)


async def test_flag_absent_without_option(space):
    run = await wire.capture(space.path("w"))
    assert run.flag("--tools") is None
    assert run.flag("--max-turns") is None


async def test_env_option_reaches_cli(space):
    run = await wire.capture(space.path("w"), env={"SDKPROBE_MARK": "on"})
    assert run.env_added["SDKPROBE_MARK"] == "on"
    assert "SDKPROBE_MARK" not in os.environ


async def test_unknown_option_is_not_applicable(space):
    with pytest.raises(sdk.OptionMissing, match="no_such_field"):
        await wire.capture(space.path("w"), no_such_field=1)


async def test_unanswered_request_is_recorded_unanswered(space):
    # query() without callbacks closes stdin after the prompt, so a later can_use_tool
    # request from the CLI can never be answered.
    scenario = (
        Scenario()
        .wait_for_user()
        .wait_for_eof()
        .init()
        .request("can_use_tool", tool_name="Bash", input={}, tool_use_id="toolu_fake_1")
        .result()
    )
    run = await wire.capture(space.path("w"), scenario)
    assert run.answers == {"fake_req_1": None}


async def test_answered_request_is_recorded(space):
    async def allow(name, input, ctx):
        from claude_agent_sdk import PermissionResultAllow

        return PermissionResultAllow()

    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .assistant(tool_use("Bash", {"command": "ls"}))
        .request("can_use_tool", tool_name="Bash", input={"command": "ls"}, tool_use_id="toolu_fake_1")
        .result()
    )
    run = await wire.capture(space.path("w"), scenario, can_use_tool=allow)
    answer = run.answers["fake_req_1"]
    assert answer["subtype"] == "success"
    assert answer["response"]["behavior"] == "allow"
    assert run.flag("--permission-prompt-tool") == "stdio"


async def test_unsupported_subtype_gets_an_error_answer(space):
    async def allow(*a):  # keeps stdin open until the result
        raise AssertionError("not called")

    scenario = Scenario().wait_for_user().init().request("elicitation", message="?").result()
    run = await wire.capture(space.path("w"), scenario, can_use_tool=allow)
    assert run.answers["fake_req_1"]["subtype"] == "error"


async def test_stdin_closes_right_after_prompt_without_callbacks(space):
    # The fake waits for EOF before it says anything: if the SDK kept stdin open the
    # run would time out instead of finishing.
    scenario = Scenario().wait_for_user().wait_for_eof().init().assistant("late").result()
    run = await wire.capture(space.path("w"), scenario, timeout=5)
    assert run.error is None
    assert run.timeline().index("eof") < run.timeline().index("out:system/init")


async def test_a_ceilinged_wait_for_eof_goes_on_and_the_late_close_shows_after_the_result(space):
    """A close the SDK keeps back (a callback holds stdin open until the result) lands after the
    result the fake writes once its ceiling is reached; an early close lands before it."""

    async def allow(*a):
        raise AssertionError("not called")

    held = Scenario().wait_for_user().init().wait_for_eof(ceiling=0.5).result()
    line = (await wire.capture(space.path("held"), held, can_use_tool=allow)).timeline()
    assert line.index("out:result") < line.index("eof")
    early = Scenario().wait_for_user().init().wait_for_eof(ceiling=30).result()
    line = (await wire.capture(space.path("early"), early)).timeline()
    assert line.index("eof") < line.index("out:result")


async def test_stdin_stays_open_until_result_with_callback(space):
    async def allow(*a):
        raise AssertionError("not called")

    scenario = Scenario().turn().wait_for_eof()
    run = await wire.capture(space.path("w"), scenario, can_use_tool=allow)
    line = run.timeline()
    assert line.index("out:result") < line.index("eof")


async def test_crash_mid_stream_is_seen_as_process_error(space):
    scenario = Scenario().wait_for_user().init().raw('{"type":"assistant","mess').exit(3)
    run = await wire.capture(space.path("w"), scenario)
    assert run.error is not None and "exit code 3" in run.error
    assert [type(m).__name__ for m in run.messages] == ["SystemMessage"]


async def test_initialize_error_raises(space):
    run = await wire.capture(space.path("w"), Scenario().fail("initialize", "boom").turn())
    assert run.error == "Exception: boom"


async def test_hung_cli_ends_in_timeout_and_is_killed(space):
    scenario = Scenario().ignore("initialize").turn()
    with pytest.raises(sdk.ProbeTimeout, match="within 1 s"):
        await wire.capture(space.path("w"), scenario, timeout=1)
    pids = [e["pid"] for e in wire._read(space.root / "w-1" / "fake" / "capture.jsonl") if e["event"] == "start"]
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"


async def test_client_control_requests_are_answered_by_the_fake(space):
    async def drive(client, out):
        await client.query("hi")
        async for m in client.receive_response():
            out.messages.append(m)
        await client.set_permission_mode("plan")
        out.messages.append(await client.get_mcp_status())

    scenario = Scenario().answer("mcp_status", {"mcpServers": []}).turn()
    run = await wire.capture(space.path("w"), scenario, prompt=None, client=True, drive=drive)
    assert run.error is None
    assert [r["request"]["subtype"] for r in run.control_requests()] == [
        "initialize",
        "set_permission_mode",
        "mcp_status",
    ]
    assert run.messages[-1] == {"mcpServers": []}


async def test_fake_answers_version_probe(tmp_path):
    import subprocess

    from sdkprobe.fake_cli.launcher import install

    launcher, _ = install(tmp_path, Scenario(cli_version="9.9.9").to_json())
    out = subprocess.run([str(launcher), "-v"], capture_output=True, text=True, timeout=10)
    assert out.stdout.strip() == "9.9.9 (Claude Code)"


async def test_mcp_handshake_with_in_process_server(space):
    from claude_agent_sdk import create_sdk_mcp_server, tool

    @tool("plain", "A plain tool", {"text": str})
    async def plain(args):
        return {"content": [{"type": "text", "text": "echo " + args["text"]}]}

    server = create_sdk_mcp_server("mem", tools=[plain])
    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .mcp_handshake("mem")
        .mcp("mem", "tools/call", {"name": "plain", "arguments": {"text": "x"}}, id=3)
        .mcp("nope", "tools/list", {}, id=4)
        .result()
    )
    run = await wire.capture(space.path("w"), scenario, mcp_servers={"mem": server})
    answers = list(run.answers.values())
    assert all(a["subtype"] == "success" for a in answers)
    replies = [a["response"]["mcp_response"] for a in answers]
    assert replies[0]["result"]["serverInfo"]["name"] == "mem"
    assert [t["name"] for t in replies[2]["result"]["tools"]] == ["plain"]
    assert replies[3]["result"]["content"][0]["text"] == "echo x"
    assert replies[4]["error"]["code"] == -32601
    assert '"type": "sdk"' in run.flag("--mcp-config")


async def test_hook_callback_answer_is_recorded(space):
    from claude_agent_sdk import HookMatcher

    seen = []

    async def hook(input, tool_use_id, ctx):
        seen.append((input["tool_name"], tool_use_id))
        return {"continue_": True, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}

    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .request(
            "hook_callback",
            callback_id="hook_0",
            tool_use_id="toolu_fake_2",
            input={"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo hi"}},
        )
        .result()
    )
    run = await wire.capture(
        space.path("w"), scenario, hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[hook])]}
    )
    assert run.initialize["hooks"]["PreToolUse"][0]["hookCallbackIds"] == ["hook_0"]
    assert seen == [("Bash", "toolu_fake_2")]
    response = run.answers["fake_req_1"]["response"]
    assert response["continue"] is True and "continue_" not in response


async def test_print_mode_prompt_counts_as_the_user_turn(tmp_path):
    import json
    import subprocess

    from sdkprobe.fake_cli.launcher import install

    launcher, _ = install(tmp_path, Scenario().turn("from argv").to_json())
    out = subprocess.run(
        [str(launcher), "--output-format", "stream-json", "--print", "--", "hi"],
        input="",
        capture_output=True,
        text=True,
        timeout=10,
    )
    kinds = [json.loads(line)["type"] for line in out.stdout.splitlines()]
    assert kinds == ["system", "assistant", "result"]


async def test_stderr_reaches_the_sdks_callback_and_removed_env_is_seen(space, monkeypatch):
    monkeypatch.setenv("CLAUDECODE", "1")  # the SDK strips this one from the CLI's environment
    lines = []
    scenario = Scenario().wait_for_user().stderr("fake says hello\n").init().result()
    run = await wire.capture(space.path("w"), scenario, stderr=lines.append)
    assert lines == ["fake says hello"]
    assert "CLAUDECODE" in run.env_removed


def _capture_with_argv(argv: list[str]) -> wire.WireRun:
    """A capture whose session start had this argv (the rest is irrelevant to flag lookups)."""
    start = {"event": "start", "argv": argv, "env": {}, "cwd": "/", "pid": 0}
    return wire.WireRun([start], sdk.Outcome())


def test_flag_reads_both_spellings_and_flag_spelling_tells_them_apart():
    spaced = _capture_with_argv(["--tools", "Bash,Read", "--verbose"])
    joined = _capture_with_argv(["--tools=Bash,Read", "--verbose"])
    assert spaced.flag("--tools") == joined.flag("--tools") == "Bash,Read"
    assert spaced.flag_spelling("--tools") == "--tools Bash,Read"
    assert joined.flag_spelling("--tools") == "--tools=Bash,Read"
    assert spaced.flag_spelling("--verbose") == "--verbose"
    assert spaced.flag_spelling("--tool") is None and spaced.flag("--tool") is None


async def test_harness_calls_take_the_prompt_first_and_refuse_a_wrong_call_in_one_line(harness):
    from sdkprobe.harness import OptionMissing

    run = await harness.wire("hello", tools=["Read"])
    assert [m["message"]["content"] for m in run.user_messages] == ["hello"] and run.flag("--tools") == "Read"
    runs = sorted(harness.space.root.iterdir())
    with pytest.raises(OptionMissing, match=r"ClaudeAgentOptions in claude-agent-sdk .* has no field 'tols'"):
        await harness.wire("hi", tols=["Read"])
    with pytest.raises(OptionMissing, match=r"has no field 'tols'") as raised:
        await harness.cli("hi", tols=["Read"])
    assert raised.value.names == ("tols",)
    assert sorted(harness.space.root.iterdir()) == runs, "refused before anything starts"
    with pytest.raises(TypeError, match=r"h.wire\(\): the prompt is a string"):
        await harness.wire(5)


async def test_one_vocabulary_of_blocks_for_the_fake_cli_and_the_model_double(harness):
    from sdkprobe.harness import reply, text, tool_use

    scenario = Scenario().wait_for_user().init().assistant(text("a"), tool_use("Bash", {"command": "ls"})).result()
    run = await harness.wire("hi", scenario=scenario)
    blocks = run.of_type("AssistantMessage")[0].content
    assert [type(b).__name__ for b in blocks] == ["TextBlock", "ToolUseBlock"]
    assert blocks[1].id == "toolu_fake_2" and blocks[1].input == {"command": "ls"}
    scripted = reply(text("a"), tool_use("Bash", {"command": "ls"}))
    assert [b["type"] for b in scripted.blocks] == ["text", "tool_use"]


def test_error_line_keeps_only_the_first_line_of_what_the_sdk_raised():
    out = sdk.Outcome(exception=RuntimeError("Command failed\nstderr: a long trace"))
    assert out.error == "RuntimeError: Command failed\nstderr: a long trace"
    assert out.error_line == "RuntimeError: Command failed"
    assert sdk.Outcome().error_line is None


def test_a_fake_that_started_too_late_to_record_its_start_is_killed_with_the_rest(tmp_path):
    """The SDK may give up before the fake it spawned has written its start: such a fake is
    found by its launcher's path and killed, so no run leaves one behind."""
    import subprocess
    import sys

    launcher = tmp_path / "fake" / "claude"
    late = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", str(launcher)])
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", str(tmp_path / "other")])
    try:
        # started: its command line is readable (Popen returns while exec may still be setting
        # it up, and a process mid-exec shows an empty one)
        for p, name in ((late, launcher), (other, tmp_path / "other")):
            deadline = time.monotonic() + 10
            while str(name).encode() not in Path(f"/proc/{p.pid}/cmdline").read_bytes():
                assert time.monotonic() < deadline, "the process never showed its command line"
                time.sleep(0.01)
        wire._kill_leftovers([], launcher)
        assert late.wait(timeout=10) == -9
        assert other.poll() is None  # a process of another launcher is left alone
    finally:
        for p in (late, other):
            p.kill()
            p.wait()


@pytest.mark.parametrize(
    "cli_env, removed",
    [
        ({"A": "1", "X": "y"}, ["B"]),  # A inherited: the names of what was dropped
        ({"X": "y"}, [EVERY_HOST_VARIABLE]),  # nothing of the host's: whatever the host had
        ({"A": "other"}, [EVERY_HOST_VARIABLE]),  # A set anew is not inherited either
        ({"A": "1", "B": "2"}, []),
    ],
)
def test_removed_variables_are_named_unless_the_cli_got_none_of_the_hosts(cli_env, removed):
    run = WireRun([{"event": "start", "argv": [], "env": cli_env}], Outcome(), {"A": "1", "B": "2"})
    assert run.env_removed == removed
