"""The model double as the real API's validator of tool_use/tool_result pairing (a probe of
a denied tool call can only tell "the CLI answered every tool_use" if a request that left
one unanswered is refused, as the real API does); the model a request named; and the
deferred tools a request listed, in every CLI's format."""

from __future__ import annotations

import json

from test_model_double import body, post

from sdkprobe.harness.model_double import Script, reply


def _turn(results: list[str], *, ids: tuple[str, ...] = ("t1", "t2")) -> dict:
    """A follow-up request: the assistant called every id, the user answered `results`."""
    return body(
        messages=[
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": i, "name": "Bash", "input": {}} for i in ids]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": i, "content": "x"} for i in results]},
        ]
    )


def test_unanswered_tool_use_is_refused_with_400_and_spends_no_reply(double):
    script = Script(main=["first", "second"], check_tool_results=True)
    d = double(script)
    status, text = post(d, "/v1/messages", _turn(["t1"]))
    assert status == 400
    error = json.loads(text)["error"]
    assert error["type"] == "invalid_request_error" and "t2" in error["message"] and "t1" not in error["message"]
    assert d.messages_requests[0].status == 400 and d.messages_requests[0].unanswered_tool_uses == ["t2"]
    assert script.remaining() == {"main": 2}  # the refused request took no scripted reply
    status, _ = post(d, "/v1/messages", _turn(["t2", "t1"]))  # any order within the message
    assert status == 200 and script.remaining() == {"main": 1}


def test_results_must_be_in_the_very_next_message(double):
    d = double(Script(check_tool_results=True))
    late = body(
        messages=[
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
            {"role": "user", "content": "an interjection"},
            {"role": "assistant", "content": "..."},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x"}]},
        ]
    )
    assert post(d, "/v1/messages", late)[0] == 400


def test_without_the_check_unanswered_tool_use_is_only_recorded(double):
    d = double(Script(main=["fine"]))
    status, _ = post(d, "/v1/messages", _turn([]))
    assert status == 200
    assert d.messages_requests[0].unanswered_tool_uses == ["t1", "t2"]


def test_a_trailing_assistant_prefill_is_not_unanswered(double):
    d = double(Script(check_tool_results=True))
    prefill = body(
        messages=[
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
        ]
    )
    assert post(d, "/v1/messages", prefill)[0] == 200


def test_the_model_a_request_named_is_recorded(double):
    d = double(Script(main=[reply("a"), reply("b")]))
    post(d, "/v1/messages", body(model="claude-haiku-double"))
    post(d, "/v1/messages", {"messages": [{"role": "user", "content": "no model"}], "max_tokens": 9000})
    assert [r.model for r in d.messages_requests] == ["claude-haiku-double", None]


def test_deferred_tools_are_read_from_the_block_of_cli_2_1_97(double):
    d = double(Script())
    block = "<available-deferred-tools>\nCronCreate\nmcp__big__t01\n</available-deferred-tools>"
    post(d, "/v1/messages", body(messages=[{"role": "user", "content": [{"type": "text", "text": block}]}]))
    r = d.messages_requests[0]
    assert r.deferred_tools == ["CronCreate", "mcp__big__t01"]
    assert r.offered_tools == ["Bash", "CronCreate", "mcp__big__t01"]
