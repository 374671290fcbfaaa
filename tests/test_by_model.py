"""`ByModel`: the double answers each request from the script of the model it names, so a
probe sees which model a session talked to (fallback, set_model, a subagent's model)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from sdkprobe.harness import ByModel, Script, http_error, reply, tool_use
from sdkprobe.harness.model_double import ModelDouble


def ask(double: ModelDouble, model: str | None, text: str = "hi") -> tuple[int, dict]:
    body = {"max_tokens": 32000, "stream": False, "messages": [{"role": "user", "content": text}]}
    body["tools"] = [{"name": "Bash", "input_schema": {"type": "object"}}]
    if model is not None:
        body["model"] = model
    req = urllib.request.Request(
        double.base_url + "/v1/messages",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def said(answer: dict) -> str:
    return " ".join(b.get("text", "") for b in answer.get("content", []))


def test_each_model_is_answered_from_its_own_script():
    script = ByModel({"m-main": Script(fallback=http_error(529, "Overloaded")), "m-fb": ["from fb", "fb again"]})
    with ModelDouble(script) as d:
        answers = [ask(d, m) for m in ("m-main", "m-fb", "m-main", "m-fb")]
    assert [status for status, _ in answers] == [529, 200, 529, 200]
    assert answers[0][1]["error"]["type"] == "overloaded_error"
    assert [said(a) for s, a in answers if s == 200] == ["from fb", "fb again"]
    assert [r.model for r in d.messages_requests] == ["m-main", "m-fb", "m-main", "m-fb"]
    assert not d.unscripted


def test_another_model_or_none_is_answered_from_other():
    with ModelDouble(ByModel({"m-one": ["one"]}, other=["other"])) as d:
        _, a = ask(d, "m-two")
        _, b = ask(d, None)
        _, c = ask(d, "m-one")
    assert (said(a), said(c)) == ("other", "one")
    assert said(b) == "ok"  # `other` spent: the default text, flagged
    assert [r.unscripted for r in d.messages_requests] == [False, True, False]


def test_tool_ids_are_unique_across_models_and_remaining_names_the_model():
    script = ByModel({"a": [reply(tool_use("Bash", {"command": "x"}))], "b": [reply(tool_use("Bash", {})), "left"]})
    with ModelDouble(script) as d:
        ids = [ask(d, m)[1]["content"][0]["id"] for m in ("a", "b")]
    assert len(set(ids)) == 2
    assert script.remaining() == {"b:main": 1}


def test_needs_a_model():
    with pytest.raises(ValueError):
        ByModel({})
