"""The fake CLI's `sleep` step: the SDK gets on with what it was sent before the next step."""

from __future__ import annotations

from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import wire


async def test_sleep_lets_the_sdk_answer_before_the_next_step(space):
    async def allow(name, tool_input, context):
        from claude_agent_sdk import PermissionResultAllow

        return PermissionResultAllow()

    request = {"subtype": "can_use_tool", "tool_name": "Bash", "input": {}, "tool_use_id": "toolu_fake_1"}
    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .emit({"type": "control_request", "request_id": "r1", "request": request})  # sent, not awaited
        .sleep(0.5)
        .result()
    )
    run = await wire.capture(space.path("w"), scenario, can_use_tool=allow)
    line = run.timeline()
    assert line.index("out:control_request/can_use_tool") < line.index("in:control_response/success")
    assert line.index("in:control_response/success") < line.index("out:result")
    assert run.answers["r1"]["response"]["behavior"] == "allow"
