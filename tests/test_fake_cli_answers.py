"""The fake CLI answers a control request subtype as scripted: with responses in turn, the
last again after them, so a probe tells a fresh answer from a cached one."""

from __future__ import annotations

from typing import Any

from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import wire


async def test_answers_in_turn_are_served_in_order_and_the_last_again(space: Any) -> None:
    async def drive(client: Any, out: Any) -> None:
        await client.query("hi")
        async for m in client.receive_response():
            out.messages.append(m)
        for _ in range(3):
            out.messages.append(await client.get_mcp_status())

    scenario = Scenario().answer_each("mcp_status", {"mcpServers": [1]}, {"mcpServers": [2]}).turn()
    run = await wire.capture(space.path("w"), scenario, prompt=None, client=True, drive=drive)
    assert run.error is None
    assert run.messages[-3:] == [{"mcpServers": [1]}, {"mcpServers": [2]}, {"mcpServers": [2]}]
    answered = [
        e["message"]["response"]["response"]
        for e in run.events
        if e["event"] == "out" and (e.get("message") or {}).get("type") == "control_response"
    ]
    assert answered[-3:] == [{"mcpServers": [1]}, {"mcpServers": [2]}, {"mcpServers": [2]}]
