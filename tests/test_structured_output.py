"""The model double's structured-output call: a tool_use of the tool the CLI offers for
--json-schema, which the CLI turns into ResultMessage.structured_output."""

from __future__ import annotations

import json
import urllib.request

import pytest

from sdkprobe.harness import Harness, reply, sdk, structured_output
from sdkprobe.harness.model_double import ModelDouble, Script

_SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_it_is_a_tool_use_of_the_structured_output_tool():
    block = structured_output({"n": 7}, id="toolu_so")
    assert block["type"] == "tool_use" and block["name"] == "StructuredOutput"
    assert block["input"] == {"n": 7} and block["id"] == "toolu_so"


async def test_the_double_streams_it_as_that_tool_call():
    body = {"model": "m", "max_tokens": 100, "stream": False, "messages": [{"role": "user", "content": "hi"}]}
    with ModelDouble(Script(fallback=reply(structured_output({"n": 7})))) as d:  # whatever the route
        req = urllib.request.Request(
            d.base_url + "/v1/messages", json.dumps(body).encode(), {"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as resp:
            message = json.loads(resp.read())
    [block] = message["content"]
    assert block["name"] == "StructuredOutput" and block["input"] == {"n": 7}
    assert message["stop_reason"] == "tool_use" and not any(k.startswith("_") for k in block)


@pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")
@pytest.mark.skipif("output_format" not in sdk.option_fields(), reason="this SDK has no output_format")
async def test_the_cli_returns_it_as_structured_output(harness: Harness):
    run = await harness.cli(
        "count",
        script=[reply(structured_output({"n": 7})), "done"],
        output_format={"type": "json_schema", "schema": _SCHEMA},
    )
    assert run.error is None
    assert run.result.structured_output == {"n": 7}
