"""Area `messages`, reported: how a tool call cut short by interrupt() is told to the model."""

from __future__ import annotations

import asyncio
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import MAIN, CliRun, Conversation, Harness, Script, reply, result_text, tool_use

# --- messages.interrupted-tool-wording -----------------------------------------------------

_BASH_ID = "toolu_double_slowbash"
_STARTED = "bash-started"  # the file the scripted command makes before it sleeps
_START_WAIT = 20.0  # a ceiling only a command that never started reaches
_REFUSAL = ("rejected", "doesn't want to proceed", "denied")


def _said(text: str) -> str:
    """A tool_result text as an observation: its first 160 characters, one line."""
    line = " ".join(text.split())
    return line if len(line) <= 160 else line[:160] + "..."


def _wording(text: str | None, beside: list[str]) -> dict[str, Any]:
    """What the tool_result says of the cut-off call (whether it speaks of a refusal), and
    whether it or the texts of the message carrying it speak of an interrupt."""
    low = (text or "").lower()
    return {
        "text": None if text is None else _said(text),
        "beside it": [_said(t) for t in beside],
        "says interrupted": any("interrupt" in t.lower() for t in [low, *beside]),
        "says refused": any(word in low for word in _REFUSAL),
    }


def _host_side(messages: list[Any]) -> tuple[str | None, list[str]]:
    """The content of the ToolResultBlock the SDK yielded for the cut-off Bash call, and the
    texts of the user messages it yielded (where a CLI may put its interrupt notice);
    (None, texts) when no such block came."""
    found: str | None = None
    texts: list[str] = []
    for m in messages:
        if type(m).__name__ != "UserMessage":
            continue
        content = getattr(m, "content", None)
        blocks: list[Any] = content if isinstance(content, list) else []
        texts += [content] if isinstance(content, str) else []
        texts += [str(b.text) for b in blocks if isinstance(getattr(b, "text", None), str)]
        for block in blocks:
            if getattr(block, "tool_use_id", None) == _BASH_ID:
                found = _content_text(getattr(block, "content", None))
    return found, texts


def _content_text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(str(c.get("text", "")) for c in content if isinstance(c, dict))
    return "" if content is None else str(content)


def _model_side(run: CliRun) -> tuple[dict[str, Any] | None, list[str]]:
    """The tool_result block the model got for the cut-off call, and the text blocks of the
    user message that carries it (where a CLI may put its interrupt notice instead)."""
    for r in run.on(MAIN):
        for m in r.messages:
            content = m.get("content")
            blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
            for b in blocks:
                if b.get("type") == "tool_result" and b.get("tool_use_id") == _BASH_ID:
                    return b, [str(x.get("text", "")) for x in blocks if x.get("type") == "text"]
    return None, []


async def _started(h: Harness) -> bool:
    """Whether the scripted command began (made its file) within the ceiling."""
    for _ in range(int(_START_WAIT * 10)):
        if (h.cwd / _STARTED).exists():
            return True
        await asyncio.sleep(0.1)
    return False


@behaviour(
    id="messages.interrupted-tool-wording",
    claim=(
        "When ClaudeSDKClient.interrupt() cuts a running tool call short, the next turn's request tells the "
        "model that call was interrupted (in its tool_result or in the message carrying it), and its tool_result "
        "does not say the user rejected it; the ToolResultBlock and UserMessages the host is given do the same."
    ),
    summary="A tool call cut off by interrupt() reaches the model as interrupted, not rejected",
    source=("cc#86001", "report"),
    tier="cli",
    checks=("model-told-interrupted", "host-told-interrupted"),
    requires=("api:ClaudeSDKClient.interrupt", "option:allowed_tools"),
    pins={"model-told-interrupted": ("client:interrupt",), "host-told-interrupted": ("client:interrupt",)},
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.interrupt",
    timeout=120,
)
async def interrupted_tool_wording(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def steps(c: Conversation) -> None:
        await c.send("run the slow command")
        seen["command started"] = await _started(h)
        await c.interrupt()
        await c.response()
        await c.send("what happened to the command?")
        await c.response()

    bash = tool_use("Bash", {"command": f"touch {_STARTED} && sleep 30", "description": "slow"}, _BASH_ID)
    run = await h.converse(
        steps,
        script=Script(main=[reply(bash), "after"], fallback=reply("after")),
        allowed_tools=["Bash"],
        timeout=90,
    )
    block, beside = _model_side(run)
    seen["model"] = {
        **_wording(None if block is None else result_text(block), beside),
        "is_error": (block or {}).get("is_error"),
    }
    seen["host"] = _wording(*_host_side(run.messages))
    seen["error"] = run.error_line
    observed: dict[str, Any] = h.observe(seen)
    return observed


@interrupted_tool_wording.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def told(side: str, who: str) -> Check:
        s = seen[side]
        return check(
            seen["command started"] and s["text"] is not None and s["says interrupted"] and not s["says refused"],
            f"{who} for the cut-off Bash call: {s['text']!r}, beside it {s['beside it']} (an interrupt named: "
            f"{s['says interrupted']}; a refusal named: {s['says refused']}); the command had started: "
            f"{seen['command started']} "
            f"(error {seen['error']})",
        )

    return {
        "model-told-interrupted": told("model", "the next request's tool_result"),
        "host-told-interrupted": told("host", "the ToolResultBlock yielded (beside it: the UserMessages' texts)"),
    }


_REJECTION = {"text": "User rejected tool use", "beside it": [], "says interrupted": False, "says refused": True}

interrupted_tool_wording.differs_on(
    {"command started": True, "model": {**_REJECTION, "is_error": True}, "host": _REJECTION, "error": None}
)
