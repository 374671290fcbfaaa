"""Fake-CLI scenario features for what a real CLI may put on stdout that a plain turn never
does: hundreds of lines at once, rate_limit_event and unknown message types, content blocks
the SDK may not model (redacted_thinking, image, server tools), a line over 1 MiB, and a
crash with a diagnostic on stderr. Each test shows the feature reaches the SDK as built."""

from __future__ import annotations

from sdkprobe.fake_cli.blocks import image, redacted_thinking, server_tool_use, web_search_tool_result
from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import wire


async def test_emit_times_sends_the_same_line_that_many_times(space):
    content = [{"type": "text", "text": "x"}]
    line = {"type": "assistant", "message": {"role": "assistant", "model": "m", "content": content}}
    scenario = Scenario().wait_for_user().init().emit(line, times=150)
    run = await wire.capture(space.path("w"), scenario.result())
    assert len(run.of_type("AssistantMessage")) == 150
    assert run.timeline().count("out:assistant") == 150
    assert len(Scenario().emit({"type": "x"}, times=150).steps) == 1  # one step, not 150


async def test_rate_limit_event_and_unknown_types_are_emitted_as_built(space):
    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .rate_limit_event()
        .rate_limit_event(omit=("uuid",))
        .emit({"type": "future_thing"})
        .result()
    )
    run = await wire.capture(space.path("w"), scenario)
    out = [e["message"] for e in run.events if e["event"] == "out"]
    events = [m for m in out if m.get("type") == "rate_limit_event"]
    assert [("uuid" in m, m["rate_limit_info"]["status"]) for m in events] == [
        (True, "allowed_warning"),
        (False, "allowed_warning"),
    ]
    assert {"type": "future_thing"} in out


async def test_unmodelled_blocks_reach_the_wire_verbatim(space):
    blocks = [
        redacted_thinking("opaque"),
        "hello",
        image("aGk="),
        server_tool_use("web_search", {"query": "q"}, "srvtoolu_1"),
        web_search_tool_result("srvtoolu_1"),
    ]
    scenario = Scenario().wait_for_user().init().assistant(*blocks).user("see", image("aGk=")).result()
    run = await wire.capture(space.path("w"), scenario)
    out = {e["message"]["type"]: e["message"] for e in run.events if e["event"] == "out"}
    assert [b["type"] for b in out["assistant"]["message"]["content"]] == [
        "redacted_thinking",
        "text",
        "image",
        "server_tool_use",
        "web_search_tool_result",
    ]
    assert out["assistant"]["message"]["content"][0] == {"type": "redacted_thinking", "data": "opaque"}
    assert [b["type"] for b in out["user"]["message"]["content"]] == ["text", "image"]
    assert run.error is None and run.result is not None


async def test_a_line_over_one_mib_goes_out_as_one_line(space):
    big = "y" * (1024 * 1024 + 200_000)
    scenario = Scenario().wait_for_user().init().assistant("before").assistant(big).assistant("after").result()
    run = await wire.capture(space.path("w"), scenario, max_buffer_size=4 * 1024 * 1024)
    lines = [e["text"] for e in run.events if e["event"] == "out"]
    assert max(len(t) for t in lines) > 1024 * 1024 and all(t.count("\n") == 1 for t in lines)
    assert [b.text[:6] for m in run.of_type("AssistantMessage") for b in m.content] == ["before", "y" * 6, "after"]


async def test_exit_with_stderr_reaches_a_stderr_callback_and_the_exit_code(space):
    lines: list[str] = []
    scenario = Scenario().wait_for_user().init().stderr("diag-XYZ\n").exit(7)
    run = await wire.capture(space.path("w"), scenario, stderr=lines.append)
    assert [x.strip() for x in lines] == ["diag-XYZ"]
    assert run.timeline()[-1] == "exit:7"
    assert run.exception is not None and getattr(run.exception, "exit_code", None) == 7
