"""The cli tier end to end: the SDK, the CLI bundled in its wheel, and the model double."""

from __future__ import annotations

import pytest

from sdkprobe.harness import AUX, MAIN, SUBAGENT, http_error, real_cli, reply, sdk, tool_use
from sdkprobe.harness.model_double import result_text

pytestmark = pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")


async def test_text_reply_gives_assistant_and_result(space):
    run = await real_cli.cli_run(space, "hi", script=["hello from the double"])
    texts = [b.text for m in run.of_type("AssistantMessage") for b in m.content if hasattr(b, "text")]
    assert texts == ["hello from the double"]
    assert run.result.subtype == "success" and run.result.is_error is False
    assert run.error is None and not run.unscripted
    assert [r.route for r in run.requests] == [MAIN]
    assert run.requests[0].texts("user")[-1] == "hi"
    assert run.cli_version == sdk.bundled_cli_version() and run.sdk_version == sdk.sdk_version()
    assert run.init["cwd"] == str(space.cwd)


async def test_bash_tool_use_runs_in_the_space_and_its_result_comes_back(space):
    run = await real_cli.cli_run(
        space,
        "make the marker",
        script=[reply("on it", tool_use("Bash", {"command": "touch marker && pwd", "description": "mark"})), "done"],
        allowed_tools=["Bash"],
    )
    assert (space.cwd / "marker").exists()
    first, second = run.requests
    assert first.tool_results == []
    [block] = second.tool_results
    assert block["tool_use_id"] == "toolu_double000001" and not block.get("is_error")
    assert result_text(block).strip() == str(space.cwd)
    assert run.result.is_error is False and not run.unscripted


async def test_error_envelope_gives_an_error_result(space):
    run = await real_cli.cli_run(space, "hi", script=[http_error(500, "backend on fire")])
    assert run.result.is_error is True and run.result.api_error_status == 500
    assert "backend on fire" in run.result.result
    assert len(run.requests) == 1  # retries are bounded: one error, one request


async def test_subagent_requests_are_routed_apart(space):
    agent_call = tool_use(
        "Agent", {"description": "look", "prompt": "Find the marker", "subagent_type": "general-purpose"}
    )
    run = await real_cli.cli_run(
        space,
        "delegate",
        script={"main": [reply(agent_call), "main done"], "subagent": ["sub done"]},
        allowed_tools=["Agent"],
    )
    sub = run.on(SUBAGENT)
    assert len(sub) == 1 and "Find the marker" in sub[0].texts("user")[-1]
    assert sub[0].system_text != run.on(MAIN)[0].system_text
    assert "Agent" in run.on(MAIN)[0].tool_names
    assert not run.on(AUX)
    subagent_texts = [m for m in run.of_type("AssistantMessage") if m.parent_tool_use_id == "toolu_double000001"]
    assert [b.text for m in subagent_texts for b in m.content] == ["sub done"]


async def test_interrupt_ends_a_slow_stream(space):
    async def drive(client, out, double):
        await client.query("take your time")
        await double.wait_for(1)
        await client.interrupt()
        async for message in client.receive_response():
            out.messages.append(message)

    run = await real_cli.cli_run(
        space, None, client=True, drive=drive, script=[reply("never", "finished", gap=30)], timeout=20
    )
    assert run.result is not None and run.result.subtype == "error_during_execution"
    assert not any(getattr(b, "text", "") == "finished" for m in run.of_type("AssistantMessage") for b in m.content)


async def test_callbacks_are_recorded(space):
    async def allow(name, tool_input, context):
        from claude_agent_sdk import PermissionResultAllow

        return PermissionResultAllow()

    run = await real_cli.cli_run(
        space,
        "write",
        script=[reply(tool_use("Bash", {"command": "touch asked", "description": "write"})), "ok"],
        can_use_tool=allow,
    )
    assert [(c["kind"], c["tool"]) for c in run.callbacks] == [("can_use_tool", "Bash")]


@pytest.mark.parametrize(
    "env",
    [
        {"ANTHROPIC_BASE_URL": "https://api.anthropic.com"},
        {"ANTHROPIC_BASE_URL": "http://localhost:1"},
        {"CLAUDE_CODE_USE_BEDROCK": "1"},
    ],
)
async def test_refuses_anything_but_loopback(space, env):
    with pytest.raises(real_cli.RefusedNetwork):
        await real_cli.cli_run(space, "hi", env=env)


async def test_the_callers_own_variables_do_not_reach_the_cli(space, monkeypatch):
    canaries = {
        "ANTHROPIC_API_KEY": "sk-ant-" + "api03-canaryCANARYcanary000000",
        "ANTHROPIC_AUTH_TOKEN": "canary-auth-token",
        "ANTHROPIC_BASE_URL": "http://canary.invalid",
        "CLAUDE_CODE_USE_VERTEX": "1",
        "IS_SANDBOX": "yes",  # a container's own; the CLI reads it (root and bypassPermissions)
    }
    for k, v in canaries.items():
        monkeypatch.setenv(k, v)
    run = await real_cli.cli_run(
        space,
        "dump",
        script=[reply(tool_use("Bash", {"command": "env > env.txt", "description": "env"})), "ok"],
        allowed_tools=["Bash"],
    )
    assert run.result.is_error is False and len(run.requests) == 2  # the double, not the canary URL, was asked
    dumped = (space.cwd / "env.txt").read_text()
    for name, value in canaries.items():
        assert f"{name}={value}" not in dumped, dumped
    assert f"ANTHROPIC_API_KEY={real_cli.DUMMY_KEY}" in dumped
    assert all("authorization" not in h for h in (r.headers for r in run.requests))
