"""The model double answers a compaction: the CLI's summary request has a route of its own
(COMPACT) with a default summary, spends no main reply, and the compacted main conversation
that follows is main again, not a subagent's."""

from __future__ import annotations

import json
import urllib.request

import pytest

from sdkprobe.harness import COMPACT, MAIN, SUBAGENT, Harness, Script, Space, reply, sdk, tool_use
from sdkprobe.harness.model_double.compaction import ASKS_FOR_SUMMARY, CONTINUED, SUMMARY_MARK

needs_cli = pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")

FIRST = [{"role": "user", "content": [{"type": "text", "text": "hello"}]}]
ASKED = [*FIRST, {"role": "assistant", "content": "hi"}, {"role": "user", "content": f"{ASKS_FOR_SUMMARY}, please."}]
CONTINUATION = [{"role": "user", "content": [{"type": "text", "text": f"{CONTINUED}. Summary.\nafter"}]}]


def post(d, messages):
    body = {"model": "m", "max_tokens": 32000, "stream": False, "messages": messages, "tools": [{"name": "Bash"}]}
    req = urllib.request.Request(d.base_url + "/v1/messages", json.dumps(body).encode(), {"content-type": "x/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())["content"][0].get("text")


def test_a_summary_request_is_compact_answered_with_a_summary_and_the_continuation_is_main(double):
    d = double(Script(main=["one", "two"]))
    assert post(d, FIRST) == "one"
    answer = post(d, ASKED)
    assert SUMMARY_MARK in answer and "<summary>" in answer  # the default summary, not "two"
    assert post(d, CONTINUATION) == "two"
    assert [r.route for r in d.messages_requests] == [MAIN, COMPACT, MAIN]
    assert not d.unscripted


def test_a_scripted_compaction_reply_is_served_and_fallback_does_not_answer_it(double):
    d = double(Script(compact=["<summary>mine</summary>"], fallback=reply("fell back")))
    post(d, FIRST)
    assert post(d, ASKED) == "<summary>mine</summary>"
    assert SUMMARY_MARK in post(d, ASKED)  # queue spent: the double's own summary, not the fallback


def test_a_subagent_compaction_leaves_the_main_conversation_alone(double):
    d = double(Script(main=[reply(tool_use("Agent", {"prompt": "dig", "subagent_type": "general-purpose"}))]))
    post(d, FIRST)
    dig = [{"role": "user", "content": "dig"}]
    post(d, dig)
    post(d, [*dig, {"role": "assistant", "content": "x"}, {"role": "user", "content": ASKS_FOR_SUMMARY}])
    post(d, CONTINUATION)  # a subagent's continuation: the main conversation was not compacted
    assert [r.route for r in d.messages_requests] == [MAIN, SUBAGENT, COMPACT, SUBAGENT]


@needs_cli
async def test_the_bundled_cli_compact_is_answered_and_the_next_turn_is_main():
    async def steps(c):
        for prompt in ("hello", "/compact keep MARK", "after"):
            await c.send(prompt)
            await c.response()

    with Space.create() as space:
        run = await Harness(space).converse(steps, script=Script(main=["first", "third"]), timeout=90)
    assert [r.route for r in run.requests] == [MAIN, COMPACT, MAIN]
    assert run.first(COMPACT).carries("keep MARK") and not run.unscripted
    assert [t[-1].result for t in run.turns if t][-1] == "third"
    assert any(SUMMARY_MARK in str(m) for m in run.messages)  # the CLI took the summary
