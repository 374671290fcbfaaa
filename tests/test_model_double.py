"""The model double on its own: it speaks the Messages API's shapes and notices what it
exists to notice (unknown paths, unscripted requests, credentials it must not keep)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from sdkprobe.harness import thinking, tool_use
from sdkprobe.harness.model_double import (
    AUX,
    MAIN,
    SUBAGENT,
    ModelDouble,
    Script,
    http_error,
    reply,
    stream_error,
)


def post(double: ModelDouble, path: str, body: dict, headers: dict | None = None) -> tuple[int, str]:
    req = urllib.request.Request(
        double.base_url + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def events(sse: str) -> list[tuple[str, dict]]:
    out = []
    for chunk in sse.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def body(text: str = "hi", *, stream: bool = True, tools: bool = True, **extra) -> dict:
    b = {"model": "m", "max_tokens": 32000, "stream": stream, "messages": [{"role": "user", "content": text}]}
    if tools:
        b["tools"] = [{"name": "Bash", "input_schema": {"type": "object"}}]
    return {**b, **extra}


def test_stream_has_the_messages_api_event_order(double):
    d = double(
        Script(
            main=[reply(thinking("hmm", "sig1"), "look:", tool_use("Bash", {"command": "ls -la /"}), input_chunks=4)]
        )
    )
    status, text = post(d, "/v1/messages?beta=true", body())
    assert status == 200
    names = [name for name, _ in events(text)]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    starts = [data["content_block"]["type"] for name, data in events(text) if name == "content_block_start"]
    assert starts == ["thinking", "text", "tool_use"]
    deltas = [data["delta"] for name, data in events(text) if name == "content_block_delta"]
    assert {"type": "signature_delta", "signature": "sig1"} in deltas
    pieces = [x["partial_json"] for x in deltas if x["type"] == "input_json_delta"]
    assert len(pieces) >= 3 and json.loads("".join(pieces)) == {"command": "ls -la /"}
    final = dict(events(text))["message_delta"]
    assert final["delta"]["stop_reason"] == "tool_use" and "output_tokens" in final["usage"]
    assert d.requests[0].query == "beta=true"


def test_a_text_block_streams_in_the_pieces_asked_for(double):
    d = double(Script(main=[reply("one two three four five", "six", text_chunks=4), reply("whole")]))
    _, text = post(d, "/v1/messages", body())
    per_block: dict[int, list[str]] = {}
    for name, data in events(text):
        if name == "content_block_delta":
            per_block.setdefault(data["index"], []).append(data["delta"]["text"])
    assert len(per_block[0]) == 4 and "".join(per_block[0]) == "one two three four five"
    assert per_block[1] == ["s", "i", "x"]  # never more pieces than characters
    _, text = post(d, "/v1/messages", body())
    assert [data["delta"] for name, data in events(text) if name == "content_block_delta"] == [
        {"type": "text_delta", "text": "whole"}
    ]  # the default: a block's text in one delta, as before


def test_text_chunks_must_be_at_least_one():
    with pytest.raises(ValueError, match="text_chunks"):
        reply("x", text_chunks=0)


def test_json_reply_when_not_streaming(double):
    d = double(Script(main=["plain"]))
    status, text = post(d, "/v1/messages", body(stream=False))
    msg = json.loads(text)
    assert status == 200 and msg["type"] == "message" and msg["content"] == [{"type": "text", "text": "plain"}]
    assert msg["stop_reason"] == "end_turn"


@pytest.mark.parametrize(
    "status,kind",
    [
        (400, "invalid_request_error"),
        (401, "authentication_error"),
        (403, "permission_error"),
        (429, "rate_limit_error"),
        (500, "api_error"),
        (529, "overloaded_error"),
    ],
)
def test_http_errors_use_the_error_envelope(double, status, kind):
    d = double(Script(main=[http_error(status, "nope")]))
    got, text = post(d, "/v1/messages", body())
    assert got == status
    assert json.loads(text) == {"type": "error", "error": {"type": kind, "message": "nope"}}
    assert d.requests[0].status == status


def test_sse_error_event_mid_stream(double):
    d = double(Script(main=[stream_error("partial", error_type="overloaded_error", message="busy")]))
    _, text = post(d, "/v1/messages", body())
    names = [name for name, _ in events(text)]
    assert names[-1] == "error" and "message_stop" not in names and "content_block_stop" in names
    assert events(text)[-1][1] == {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}


def test_unknown_path_is_404_and_recorded(double):
    d = double()
    status, text = post(d, "/v1/files", {})
    assert status == 404 and json.loads(text)["type"] == "error"
    assert [r.path for r in d.not_found] == ["/v1/files"]


def test_unscripted_request_gets_default_text_and_is_flagged(double):
    d = double(Script(main=["scripted"]))
    post(d, "/v1/messages", body())
    _, text = post(d, "/v1/messages", body())
    assert [r.unscripted for r in d.messages_requests] == [False, True]
    assert d.unscripted == [d.messages_requests[1]]
    assert any(data.get("delta", {}).get("text") == "ok" for _, data in events(text))


def test_credentials_are_not_recorded(double):
    d = double()
    post(
        d, "/v1/messages", body(), {"x-api-key": "sk-ant-secret-1", "Authorization": "Bearer secret-2", "x-app": "cli"}
    )
    post(d, "/v1/messages/count_tokens", body(), {"x-api-key": "sk-ant-secret-1"})
    recorded = json.dumps([r.headers for r in d.requests])
    assert "secret" not in recorded and "x-api-key" not in recorded and "authorization" not in recorded.lower()
    assert d.requests[0].headers["x-app"] == "cli"


def test_routes_main_subagent_and_aux(double):
    script = Script(
        main=[reply(tool_use("Agent", {"prompt": "dig here", "subagent_type": "general-purpose"})), "main 2"],
        subagent=["from the subagent"],
        aux=["a title"],
    )
    d = double(script)
    post(d, "/v1/messages", body("hello"))  # main, hands out an Agent prompt
    post(d, "/v1/messages", body("x", tools=False, max_tokens=512))  # side call without tools
    post(d, "/v1/messages", body("dig here"))  # the subagent's own thread
    post(
        d,
        "/v1/messages",
        {**body("hello"), "messages": [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "..."}]},
    )
    assert [r.route for r in d.messages_requests] == [MAIN, AUX, SUBAGENT, MAIN]
    assert not d.unscripted and script.remaining() == {}


def test_a_json_side_query_before_the_main_request_is_aux(double):
    """CLI 2.1.105 may ask for a session title (tool-less, JSON output, max_tokens 32000)
    before the main conversation's first request; taken for main, it would make the real
    main request look like a subagent's."""
    script = Script(main=["main reply"], aux=["a title"])
    d = double(script)
    title = {**body("hello", tools=False, max_tokens=32000), "output_config": {"format": {"type": "json_schema"}}}
    post(d, "/v1/messages", title)
    post(d, "/v1/messages", body("<system-reminder>skills</system-reminder>\nhello"))
    assert [r.route for r in d.messages_requests] == [AUX, MAIN]
    # a tool-less request with a large max_tokens and no JSON format is still main (tools=[])
    d2 = double(Script(main=["main reply"]))
    post(d2, "/v1/messages", body("hello", tools=False, max_tokens=32000))
    assert [r.route for r in d2.messages_requests] == [MAIN]


def test_a_classifier_quoting_an_agent_prompt_is_aux_not_the_subagent(double):
    """CLI 2.1.300's auto-mode classifier grades an Agent call in a tool-less request whose
    first message is a <transcript> quoting the call's prompt; the subagent's own request
    (with tools) that follows is still the subagent's."""
    script = Script(main=[reply(tool_use("Agent", {"prompt": "run it", "subagent_type": "runner"}))])
    d = double(script)
    post(d, "/v1/messages", body("delegate"))
    graded = '<transcript>\n{"user":"delegate"}\n{"Agent":"(runner): run it"}\n</transcript>\nRespond with <severity>N'
    post(d, "/v1/messages", body(graded, tools=False, max_tokens=64))
    post(d, "/v1/messages", body("run it"))
    assert [r.route for r in d.messages_requests] == [MAIN, AUX, SUBAGENT]


def test_accessors_read_tools_deferred_list_and_results(double):
    d = double()
    deferred = (
        "The following deferred tools are now available via ToolSearch. Load them first:\n"
        "CronCreate\nWebFetch\n\nAvailable agent types: ..."
    )
    post(
        d,
        "/v1/messages",
        {
            "model": "m",
            "max_tokens": 32000,
            "system": [{"type": "text", "text": "You are a probe."}],
            "tools": [
                {"name": "Read", "input_schema": {"type": "object", "properties": {"file_path": {}}}},
                {"name": "DeferredToolPlaceholder", "input_schema": {}, "defer_loading": True},
            ],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "go"}]},
                {"role": "system", "content": [{"type": "text", "text": deferred}]},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "data"}]},
            ],
        },
    )
    r = d.messages_requests[0]
    assert r.tool_names == ["Read", "DeferredToolPlaceholder"]
    assert r.deferred_tools == ["CronCreate", "WebFetch"]
    assert r.offered_tools == ["Read", "CronCreate", "WebFetch"]
    assert r.tool_schema("Read")["properties"] == {"file_path": {}}
    assert r.system_text == "You are a probe."
    assert r.tool_result("t1")["content"] == "data" and r.tool_results == [r.tool_result("t1")]


def test_a_run_finds_the_first_request_of_a_route_carrying_a_text(double):
    from sdkprobe.harness import CliRun
    from sdkprobe.harness.sdk import Outcome

    script = Script(
        main=[reply(tool_use("Agent", {"prompt": "task 7", "subagent_type": "a"})), "main 2"],
        subagent=["first", "second"],
    )
    d = double(script)
    post(d, "/v1/messages", body("hello"))
    post(d, "/v1/messages", body("task 7"))  # the subagent's first request
    post(  # its second: the prompt again, with a reply in between
        d,
        "/v1/messages",
        {**body("task 7"), "messages": [*body("task 7")["messages"], {"role": "assistant", "content": "first"}]},
    )
    run = CliRun(Outcome(), d)
    sub = d.on(SUBAGENT)
    assert [r.route for r in d.messages_requests] == [MAIN, SUBAGENT, SUBAGENT]
    assert sub[0].carries("task 7") and not sub[0].carries("task 7", role="assistant")
    assert run.first(MAIN) is d.on(MAIN)[0] and run.first(SUBAGENT, carrying="task 7") is sub[0]
    assert run.on(SUBAGENT, carrying="task 7") == sub and run.on(SUBAGENT, carrying="task 8") == []
    assert run.first(SUBAGENT, carrying="hello") is None and run.first(AUX) is None
    assert CliRun(Outcome(), None).first(MAIN) is None  # live: no double, no requests


async def test_wait_for_a_request(double):
    d = double()
    import asyncio

    waiting = asyncio.create_task(d.wait_for(1, timeout=10))
    await asyncio.to_thread(post, d, "/v1/messages", body())
    assert (await waiting).path == "/v1/messages"
    with pytest.raises(TimeoutError):
        await d.wait_for(2, timeout=0.2)
