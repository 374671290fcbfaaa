"""Harness capabilities for multi-step sessions: a held model stream, a raw stdout
recording, a Conversation driving several turns or an interrupt, connect(prompt)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from types import SimpleNamespace

import pytest

from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import Conversation, Harness, StdinRecording, StdoutRecording, reply, sdk
from sdkprobe.harness.model_double import ModelDouble, Script

needs_cli = pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")


def _stream(d: ModelDouble) -> list[str]:
    body = {"model": "m", "max_tokens": 32000, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    req = urllib.request.Request(
        d.base_url + "/v1/messages", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        return [line[len("event: ") :] for line in resp.read().decode().splitlines() if line.startswith("event: ")]


async def test_a_held_stream_waits_for_release_and_then_finishes():
    with ModelDouble(Script(main=[reply("a", "b", hold_after=3)])) as d:
        reading = asyncio.create_task(asyncio.to_thread(_stream, d))
        await d.wait_held(1, timeout=10)
        assert d.holds == 1
        # held: the response cannot finish, whatever time passes, until released
        done, _ = await asyncio.wait({reading}, timeout=0.5)
        assert not done
        assert d.release() == 1
        events = await asyncio.wait_for(reading, 10)
    assert events[:3] == ["message_start", "content_block_start", "content_block_delta"]
    assert events[-1] == "message_stop" and events.count("content_block_stop") == 2


async def test_after_stop_holding_a_hold_point_no_longer_stops_a_stream():
    with ModelDouble(Script(main=[reply("a", hold_after=2), reply("b", hold_after=2)])) as d:
        reading = asyncio.create_task(asyncio.to_thread(_stream, d))
        await d.wait_held(1, timeout=10)
        assert d.stop_holding() == 1
        assert (await asyncio.wait_for(reading, 10))[-1] == "message_stop"
        # a stream reaching its hold point later goes on at once (counted, never held)
        events = await asyncio.wait_for(asyncio.to_thread(_stream, d), 10)
    assert events[-1] == "message_stop" and d.holds == 2 and d.release() == 0


async def test_waiting_for_a_hold_that_never_comes_times_out():
    with ModelDouble(Script(main=[reply("a")])) as d:
        await asyncio.to_thread(_stream, d)
        with pytest.raises(TimeoutError):
            await d.wait_held(1, timeout=0.2)
        assert d.release() == 0


def test_hold_after_must_count_at_least_one_event():
    with pytest.raises(ValueError):
        reply("a", hold_after=0)


async def test_stdout_recording_keeps_exit_status_and_complete_lines(tmp_path):
    target = tmp_path / "cli"
    target.write_text('#!/bin/sh\necho \'{"type": "x"}\'\nprintf "not json\\n"\nprintf "half"\nexit 3\n')
    target.chmod(0o755)
    rec = StdoutRecording(tmp_path / "rec")
    proc = await asyncio.create_subprocess_exec(str(rec.wrap(target)), stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    assert proc.returncode == 3  # the SDK sees the CLI's own exit code
    assert out.decode() == '{"type": "x"}\nnot json\nhalf'  # passed through unchanged
    assert rec.lines() == [{"type": "x"}, "not json"]  # the unfinished line is not reported
    assert await rec.wait_for(lambda line: line == "not json", timeout=5) == "not json"
    with pytest.raises(RuntimeError):
        await rec.wait_for(lambda line: line == "never", timeout=0.2)


async def test_stdin_recording_passes_lines_on_first_and_keeps_exit_status(tmp_path):
    target = tmp_path / "cli"
    # the CLI stand-in answers each line it reads by whether the recording already holds it
    rec = StdinRecording(tmp_path / "rec")
    target.write_text('#!/bin/sh\nwhile read -r line; do echo "got $line"; done\nexit 4\n')
    target.chmod(0o755)
    proc = await asyncio.create_subprocess_exec(
        str(rec.wrap(target)), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b'{"n": 1}\n')
    await proc.stdin.drain()
    assert await asyncio.wait_for(proc.stdout.readline(), 10) == b'got {"n": 1}\n'
    assert await rec.wait_for(lambda line: line == {"n": 1}, timeout=10) == {"n": 1}
    proc.stdin.write(b"plain\n")
    proc.stdin.close()
    assert await asyncio.wait_for(proc.stdout.read(), 10) == b"got plain\n"
    assert await asyncio.wait_for(proc.wait(), 10) == 4
    assert rec.lines() == [{"n": 1}, "plain"]


@needs_cli
async def test_a_session_records_what_the_sdk_wrote_to_the_cli(harness: Harness, tmp_path):
    rec = StdinRecording(tmp_path / "stdin")
    run = await harness.cli("hello there", script=["hi"], record_stdin=rec)
    assert run.result is not None and run.result.result == "hi"
    kinds = [line.get("type") for line in run.stdin if isinstance(line, dict)]
    assert kinds[0] == "control_request" and "user" in kinds
    assert any("hello there" in json.dumps(line) for line in run.stdin)


async def test_connect_prompt_gives_the_iterable_to_connect(harness: Harness):
    scenario = Scenario().wait_for_user().init().assistant("one").result(result="one")
    first = {"type": "user", "message": {"role": "user", "content": "first"}, "parent_tool_use_id": None}
    run = await harness.wire([first], scenario=scenario, client=True, connect_prompt=True)
    assert [m["message"]["content"] for m in run.user_messages] == ["first"]
    assert [t for t in run.timeline() if t in ("in:user", "eof")] == ["in:user", "eof"]
    assert run.result is not None and run.result.result == "one"


@needs_cli
async def test_conversation_keeps_turns_apart(harness: Harness):
    async def steps(c: Conversation) -> None:
        for prompt in ("first", "second"):
            await c.send(prompt)
            await c.response()

    run = await harness.converse(steps, script=["one", "two"])
    assert len(run.turns) == 2 and run.error is None
    texts = [[b.text for m in t if type(m).__name__ == "AssistantMessage" for b in m.content] for t in run.turns]
    assert texts == [["one"], ["two"]]
    assert [label for _, label in run.marks] == ["send 1", "send 2"]
    assert [r.texts("user")[-1] for r in run.requests] == ["first", "second"]


@needs_cli
async def test_conversation_interrupts_a_held_stream_and_records_raw_stdout(harness: Harness):
    async def steps(c: Conversation) -> None:
        await c.send("go")
        await c.held(1)  # the model is mid-answer, by the double's own account
        await c.interrupt()
        await c.response()
        await c.stdout_line(lambda line: isinstance(line, dict) and line.get("type") == "result")

    run = await harness.converse(
        steps, script=[reply("never", "finished", hold_after=3)], record_stdout=True, timeout=60
    )
    assert run.result is not None and run.result.subtype == "error_during_execution"
    assert [label for _, label in run.marks][:2] == ["send 1", "interrupt"]
    assert any(isinstance(line, dict) and line.get("type") == "result" for line in run.stdout)
    assert not any("finished" in json.dumps(line) for line in run.stdout)


def _is_result(m: object) -> bool:
    return type(m).__name__ == "ResultMessage"


@needs_cli
async def test_until_or_release_lets_a_turn_waiting_on_a_held_stream_go(harness: Harness):
    seen: list[bool] = []

    async def steps(c: Conversation) -> None:
        await c.send("first")  # its answer is held: the turn ends only once it is released
        result, released = await c.until_or_release(_is_result, ceiling=1.0)
        seen.append(released and result is not None)
        await c.send("second")  # not held: read to its result without any release
        result, released = await c.until_or_release(_is_result, ceiling=30.0)
        seen.append(not released and result is not None)

    run = await harness.converse(steps, script=[reply("held", hold_after=1), "free"], timeout=60)
    assert seen == [True, True] and run.error is None
    assert [label for _, label in run.marks] == ["send 1", "stop holding", "send 2"]
    texts = [b.text for m in run.of_type("AssistantMessage") for b in m.content]
    assert texts == ["held", "free"]


@needs_cli
async def test_a_query_run_can_release_a_held_stream_at_a_message(harness: Harness):
    seen: list[str] = []

    def at_init(message: object, double: ModelDouble | None) -> None:
        seen.append(type(message).__name__)
        if seen.count("SystemMessage") == 1 and seen[-1] == "SystemMessage" and double is not None:
            double.stop_holding()  # whether the request has reached its hold point yet or not

    # the held answer can finish only because the init message let it go
    run = await harness.cli("go", script=[reply("late", hold_after=1)], on_message=at_init, timeout=60)
    assert run.result is not None and run.result.result == "late"
    assert seen[0] == "SystemMessage" and seen[-1] == "ResultMessage"


async def test_on_message_is_refused_for_a_client_session(harness: Harness):
    with pytest.raises(ValueError, match="on_message"):
        await harness.cli("go", client=True, on_message=lambda m, d: None)


class _ServersComingUp:
    """A client whose get_mcp_status() lists one more server connected at each call."""

    def __init__(self, names: list[str]) -> None:
        self.names, self.asked = names, 0

    async def get_mcp_status(self) -> dict:
        self.asked += 1
        up = self.names[: self.asked - 1]
        return {"mcpServers": [{"name": n, "status": "connected" if n in up else "pending"} for n in self.names]}


async def test_mcp_connected_waits_until_every_server_is_up_and_says_who_is_at_the_bound():
    client = _ServersComingUp(["a", "b"])
    c = Conversation(client, outcome=SimpleNamespace(messages=[]), double=None)  # type: ignore[arg-type]
    assert await c.mcp_connected({"a", "b"}) == ["a", "b"]
    assert client.asked == 3  # asked again until both were connected, not once
    never = Conversation(_ServersComingUp(["a", "b"]), outcome=SimpleNamespace(messages=[]), double=None)  # type: ignore[arg-type]
    assert await never.mcp_connected({"a", "z"}, bound=0.3) == ["a"]  # z never comes: the bound ends it
