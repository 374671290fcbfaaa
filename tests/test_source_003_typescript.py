"""Source 003's own measurements, reproduced on the release it names: what each shape of
`tools` puts on the command line, and what an agent definition with an `allowedTools`
field forwards, on @anthropic-ai/claude-agent-sdk 0.3.274 (source 003, "What each shape
actually sends" and "What the SDK does not catch").

It installs that release from npm into the cache once (about 460 MB), so it runs when
SDKPROBE_TS=1 (set by .ci/run) or the release is already cached."""

from __future__ import annotations

import asyncio
import os
import shutil
from typing import Any

import pytest

from sdkprobe.harness import Harness, Space, under_test
from sdkprobe.releases import ts_sdk

VERSION = "0.3.274"
_WANTED = os.environ.get("SDKPROBE_TS") == "1" or os.environ.get("SDKPROBE_SLOW") == "1"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (_WANTED or ts_sdk.installed(VERSION) is not None),
    reason=f"installs @anthropic-ai/claude-agent-sdk {VERSION} from npm: set SDKPROBE_TS=1",
)

# The document's figures: the --tools value per shape (None: no flag), and the agent as sent.
TOOLS_SENT = {"omitted": None, "array": "Bash,Read", "empty": "", "preset": "default"}
AGENT_SENT = {"description": "d", "prompt": "p", "allowedTools": ["Bash"]}


def test_the_tools_table_and_the_agent_definition_of_source_003(monkeypatch: pytest.MonkeyPatch) -> None:
    ts_sdk.install(VERSION)
    monkeypatch.setenv(under_test.VARIABLE, f"ts@{VERSION}")
    shapes: dict[str, Any] = {
        "omitted": {},
        "array": {"tools": ["Bash", "Read"]},
        "empty": {"tools": []},
        "preset": {"tools": {"type": "preset", "preset": "claude_code"}},
    }

    async def measure() -> tuple[dict[str, Any], Any]:
        with Space.create() as space:
            h = Harness(space, tier="wire")
            sent = {name: (await h.wire("hi", **options)).flag("--tools") for name, options in shapes.items()}
            agent = await h.wire("hi", agents={"reviewer": dict(AGENT_SENT)})
            return sent, ((agent.initialize or {}).get("agents") or {}).get("reviewer")

    sent, reviewer = asyncio.run(measure())
    assert sent == TOOLS_SENT
    assert reviewer == AGENT_SENT


# What source 003 quotes tsc --strict saying of the two misuses ("What TypeScript catches").
TSC_SAID = {
    "allowedTools": (
        "TS2561",
        "'allowedTools' does not exist in type 'AgentDefinition'. Did you mean to write 'disallowedTools'?",
    ),
    "tools preset": ("TS2353", "'type' does not exist in type 'string[]'."),
}


def test_what_the_compiler_catches_of_source_003(monkeypatch: pytest.MonkeyPatch) -> None:
    from sdkprobe.catalogue.agents.definitions import ts_compiler_catches_misuse
    from sdkprobe.releases import ts_compiler

    ts_sdk.install(VERSION)
    ts_compiler.install()
    monkeypatch.setenv(under_test.VARIABLE, f"ts@{VERSION}")

    async def measure() -> Any:
        with Space.create() as space:
            return await ts_compiler_catches_misuse.behaviour.probe(Harness(space, tier="wire"))

    said = asyncio.run(measure())["tsc --strict"]
    for misuse, (code, words) in TSC_SAID.items():
        assert [d["code"] for d in said[misuse]] == [code], said
        assert said[misuse][0]["message"].endswith(words), said
    assert ts_compiler_catches_misuse.behaviour.judge({"tsc --strict": said}).verdict == "holds"


def test_capture_takes_the_typescript_sdk(capsys: pytest.CaptureFixture[str]) -> None:
    """`capture --sdk ts@V`: what that release sends for some options, named as that SDK."""
    import json

    from sdkprobe import commands

    try:
        assert commands.main(["capture", "--sdk", f"ts@{VERSION}", "--options", '{"tools": []}', "--json"]) == 0
    finally:
        os.environ.pop(under_test.VARIABLE, None)  # capture puts the SDK under test for this process
    out = json.loads(capsys.readouterr().out)
    assert (out["sdk"], out["sdk_version"]) == ("@anthropic-ai/claude-agent-sdk", VERSION)
    assert out["added"] == [["--tools", ""]]  # source 003: tools: [] sends an empty value
