"""`tool_use_offered`: a scripted tool_use names whichever of several names the request
it answers offers, so one script drives CLIs that call the agent tool Task or Agent."""

from __future__ import annotations

import json
import urllib.request

import pytest

from sdkprobe.harness import tool_use_offered
from sdkprobe.harness.model_double import ModelDouble, Script, reply


def served_tool_names(tools: list[str], *, stream: bool, deferred: str = "") -> list[str]:
    call = tool_use_offered(["Agent", "Task"], {"description": "d", "prompt": "p"})
    messages = [{"role": "user", "content": deferred or "hi"}]
    body = {"model": "m", "max_tokens": 32000, "stream": stream, "messages": messages}
    body["tools"] = [{"name": t, "input_schema": {"type": "object"}} for t in tools]
    with ModelDouble(Script(main=[reply(call)])) as d:
        req = urllib.request.Request(
            d.base_url + "/v1/messages",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            text = resp.read().decode()
    if not stream:
        content = json.loads(text)["content"]
        assert all(not k.startswith("_") for b in content for k in b)  # the private key is never sent
        return [b["name"] for b in content if b["type"] == "tool_use"]
    starts = [json.loads(chunk.split("data: ", 1)[1]) for chunk in text.split("\n\n") if "content_block_start" in chunk]
    return [s["content_block"]["name"] for s in starts if s["content_block"]["type"] == "tool_use"]


@pytest.mark.parametrize("stream", [True, False])
def test_names_the_offered_one(stream):
    assert served_tool_names(["Read", "Task"], stream=stream) == ["Task"]
    assert served_tool_names(["Agent", "Read"], stream=stream) == ["Agent"]


def test_first_given_name_wins_when_both_or_neither_are_offered():
    assert served_tool_names(["Task", "Agent"], stream=True) == ["Agent"]
    assert served_tool_names(["Read"], stream=True) == ["Agent"]


def test_a_deferred_tool_counts_as_offered():
    listing = "The following deferred tools are now available via ToolSearch:\nTask\n"
    assert served_tool_names(["Read"], stream=True, deferred=listing) == ["Task"]


def test_needs_a_name():
    with pytest.raises(ValueError):
        tool_use_offered([], {})
