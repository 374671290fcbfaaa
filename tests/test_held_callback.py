"""HeldCallback: a callback that waits for release() and records whether it was released,
cancelled or reached its ceiling, so a probe judges a pending callback by order."""

from __future__ import annotations

import asyncio

import pytest

from sdkprobe.harness import Harness, HeldCallback, Scenario, Space


async def _settle(rounds: int = 20) -> None:
    for _ in range(rounds):  # let the loop run the task as far as it can go
        await asyncio.sleep(0)


async def test_a_held_hook_answers_only_once_released():
    held = HeldCallback()
    task = asyncio.create_task(held.hook({"decision": "block"})({"hook_event_name": "PreToolUse"}, "t1", None))
    assert await held.asked(1, timeout=5)
    await _settle()
    assert not task.done() and held.pending == 1  # nothing but release() lets it go
    assert held.release() == 1
    assert await task == {"decision": "block"}
    assert held.events == ["asked 1", "released 1"] and held.pending == 0
    assert held.calls == [{"kind": "hook", "input": {"hook_event_name": "PreToolUse"}, "tool_use_id": "t1"}]


async def test_a_cancelled_call_is_recorded_and_answers_nothing():
    held = HeldCallback()
    task = asyncio.create_task(held.can_use_tool(lambda name, inp, ctx: f"allow {name}")("Bash", {}, None))
    await held.asked()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert held.events == ["asked 1", "cancelled 1"] and held.ended("cancelled") == 1
    assert held.release() == 0  # nothing left waiting


async def test_calls_past_hold_and_after_release_answer_at_once():
    held = HeldCallback(hold=1)
    first = asyncio.create_task(held.hook()({}, None, None))
    await held.asked()
    assert await held.hook()({}, None, None) == {}  # the second call is not held
    assert not first.done()
    held.release()
    await first
    assert await held.hook(lambda i, t, c: {"n": 3})({}, None, None) == {"n": 3}
    assert held.events == ["asked 1", "asked 2", "answered 2", "released 1", "asked 3", "answered 3"]


async def test_the_ceiling_ends_a_wait_nothing_released_and_says_so():
    held = HeldCallback(ceiling=0.05)
    assert await held.hook({"ok": True})({}, None, None) == {"ok": True}
    assert held.events == ["asked 1", "ceiling 1"]


async def test_asked_says_false_when_the_callback_never_came():
    assert not await HeldCallback().asked(1, timeout=0.05)
    with pytest.raises(ValueError):
        HeldCallback(hold=-1)


async def test_the_sdk_cancels_a_held_callback_when_the_cli_cancels_its_request():
    held = HeldCallback(ceiling=30)
    request = {"subtype": "can_use_tool", "tool_name": "Bash", "input": {"command": "true"}, "tool_use_id": "t"}
    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .emit({"type": "control_request", "request_id": "perm_1", "request": request})
        .sleep(0.3)
        .emit({"type": "control_cancel_request", "request_id": "perm_1"})
        .sleep(0.3)
        .result()
    )

    async def read(client, out):
        await client.query("go")
        async for message in client.receive_response():
            out.messages.append(message)

    from claude_agent_sdk import PermissionResultAllow

    with Space.create() as space:
        wire = await Harness(space, tier="wire").wire(
            None,
            scenario=scenario,
            client=True,
            drive=read,
            timeout=20,
            can_use_tool=held.can_use_tool(PermissionResultAllow()),
        )
    assert held.events == ["asked 1", "cancelled 1"]  # a clock could not have ended it: the ceiling is 30 s
    assert wire.answers.get("perm_1") is None  # no answer was written to the cancelled request
