"""interrupt(): how a turn stops, what result it ends with, and what the model is told of a cut-off
tool call."""

from __future__ import annotations

import asyncio
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.catalogue.messages.support import delta_type, kind_of, strings
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Conversation,
    Harness,
    Script,
    message_fields,
    reply,
    result_text,
    tool_use,
)

# --- messages.interrupt-ede-diagnostic ------------------------------------------------

_EDE = "[ede_diagnostic]"


class Ended(TypedDict):
    subtype: str
    is_error: bool


EdeSeen = TypedDict(
    "EdeSeen",
    {
        "result": Ended | None,
        "cli sent": list[str],  # "result.FIELD: TEXT" for each string of the CLI's result lines holding _EDE
        "sdk yielded": list[str],  # "MessageKind.FIELD: TEXT" likewise, of the messages the SDK yielded
        "error": str | None,
    },
)


@behaviour(
    id="messages.interrupt-ede-diagnostic",
    claim=(
        "A turn interrupted mid-answer ends with a result that carries an internal "
        "'[ede_diagnostic]' error line, which a host has to filter out."
    ),
    summary="An interrupted turn's result carries an internal [ede_diagnostic] error line",
    source=("000", "Messages and results"),
    tier="cli",
    checks=("cli-result-carries-ede-diagnostic", "sdk-yields-ede-diagnostic"),
    requires=("option:include_partial_messages", "api:ClaudeSDKClient.interrupt"),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.interrupt",
)
async def interrupt_ede_diagnostic(h: Harness) -> EdeSeen:
    async def steps(c: Conversation) -> None:
        await c.send("tell me a long story")
        # The double holds the stream after its first text delta: the interrupt comes while
        # the model is provably mid-answer, once the SDK has shown that delta.
        if await c.until(lambda m: delta_type(m) == "text_delta") is not None:
            await c.interrupt()
            await c.response()

    run = await h.converse(
        steps,
        script=[reply("Once upon a time", "the end", hold_after=3)],
        include_partial_messages=True,
        record_stdout=True,
        timeout=90,
    )
    raw_results = [line for line in run.stdout if isinstance(line, dict) and line.get("type") == "result"]
    result = run.result
    return {
        "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
        "cli sent": sorted({f"result.{k}: {t}" for line in raw_results for k, t in _ede_lines(line)}),
        "sdk yielded": sorted(
            {f"{kind_of(m)}.{k}: {t}" for m in run.messages for k, t in _ede_lines(message_fields(m))}
        ),
        "error": run.error_line,
    }


def _ede_lines(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, text) for every string in `fields` (nested) that holds the diagnostic."""
    found = []
    for name, value in fields.items():
        for text in strings(value):
            if _EDE in text:
                found.append((name, text))
    return found


@interrupt_ede_diagnostic.decide
def _(seen: EdeSeen) -> dict[str, Check]:
    return {
        "cli-result-carries-ede-diagnostic": check(
            bool(seen["cli sent"]), f"the CLI's result line after the interrupt was {seen['result']} with no {_EDE}"
        ),
        "sdk-yields-ede-diagnostic": check(
            bool(seen["sdk yielded"]),
            f"no message the SDK yielded held {_EDE} (CLI sent {seen['cli sent'] or 'none'}; error {seen['error']})",
        ),
    }


interrupt_ede_diagnostic.differs_on(
    {
        "result": {"subtype": "error_during_execution", "is_error": True},
        "cli sent": [],
        "sdk yielded": [],
        "error": None,
    }
)


# --- messages.interrupt-settles-with-own-result -------------------------------------------

_SETTLE_WAIT = 20.0  # generous: an interrupt that has not returned by then is one that hangs


async def _returns_within(call: Any, seconds: float) -> bool:
    """Whether the awaitable finished within `seconds` (the bound only catches a hang)."""
    try:
        await asyncio.wait_for(call, seconds)
    except asyncio.TimeoutError:
        return False
    return True


class ResultSeen(TypedDict):
    subtype: str | None
    terminal_reason: str | None
    result: str | None
    user_message_uuid: bool  # whether it had one


def _result_seen(m: Any) -> ResultSeen:
    return {
        "subtype": getattr(m, "subtype", None),
        "terminal_reason": getattr(m, "terminal_reason", None),
        "result": getattr(m, "result", None),
        "user_message_uuid": bool(getattr(m, "user_message_uuid", None)),
    }


# Filled in step by step as the two conversations go: a key is missing when its step never came.
SettleSeen = TypedDict(
    "SettleSeen",
    {
        "delta before interrupt": bool,
        "interrupt returned": bool,
        "stream closed by the CLI": bool,
        "reading the next turn ended": bool,
        "results after the next query": list[ResultSeen],
        "turn 3 interrupt returned": bool,
        "turn 3 ended before the held answer was released": bool,
        "turn 3 result": ResultSeen | None,
        "error": str | None,
    },
    total=False,
)


@behaviour(
    id="messages.interrupt-settles-with-own-result",
    claim=(
        "await client.interrupt() returns promptly even while a model request is streaming, the "
        "turn stops, and the next receive_response() yields the next turn's messages; an interrupt "
        "sent right after query(), before system/init, stops that turn too."
    ),
    summary="interrupt() returns promptly and stops the turn; the next turn reads cleanly",
    source=("ts#425", "report"),
    tier="cli",
    checks=(
        "interrupt-returns-mid-stream",
        "interrupted-turn-stops",
        "next-response-is-next-turn",
        "interrupt-right-after-query-stops-turn",
    ),
    requires=("option:include_partial_messages", "api:ClaudeSDKClient.interrupt"),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.interrupt",
    timeout=170,
    pins={
        "interrupt-returns-mid-stream": ("client:interrupt",),
        "interrupt-right-after-query-stops-turn": ("client:interrupt",),
    },
)
async def interrupt_settles_with_own_result(h: Harness) -> SettleSeen:
    seen: SettleSeen = {}

    async def steps(c: Conversation) -> None:
        # turn 1: the double holds its answer after the first text delta and never lets go
        await c.send("tell me a long story")
        seen["delta before interrupt"] = await c.until(lambda m: delta_type(m) == "text_delta") is not None
        seen["interrupt returned"] = await _returns_within(c.interrupt(), _SETTLE_WAIT)
        seen["stream closed by the CLI"] = await c.abandoned(1, timeout=_SETTLE_WAIT)
        # turn 2, read as a caller does who did not drain turn 1: results up to turn 2's own
        await c.send("second")
        results: list[ResultSeen] = []

        async def read() -> None:
            while len(results) < 2 and (not results or results[-1]["result"] != "second-answer"):
                m = await c.until(lambda m: kind_of(m) == "ResultMessage")
                if m is None:
                    return
                results.append(_result_seen(m))

        seen["reading the next turn ended"] = await _returns_within(read(), _SETTLE_WAIT)
        seen["results after the next query"] = results

    async def at_once(c: Conversation) -> None:
        # a fresh session: the interrupt goes right after query(), before system/init. The
        # model's answer is held after its first event, so the turn cannot end by itself
        # before the interrupt is handled: it ends only if the interrupt stopped it.
        await c.send("third")
        seen["turn 3 interrupt returned"] = await _returns_within(c.interrupt(), _SETTLE_WAIT)
        # the held answer is let go only if the turn has not ended by a ceiling only a turn
        # the interrupt did not stop reaches
        result, released = await c.until_or_release(lambda m: kind_of(m) == "ResultMessage", _SETTLE_WAIT)
        seen["turn 3 ended before the held answer was released"] = not released
        seen["turn 3 result"] = _result_seen(result) if result is not None else None

    run = await h.converse(
        steps,
        # old CLIs route a later turn's request apart from the first: every other request
        # gets the second turn's answer
        script=Script(main=[reply("Once upon a time", " the end", hold_after=3)], fallback=reply("second-answer")),
        include_partial_messages=True,
        timeout=90,
    )
    fresh = await h.converse(
        at_once, script=Script(main=[reply("third-answer", hold_after=1)], fallback=reply("third-answer")), timeout=70
    )
    seen["error"] = run.error_line or fresh.error_line
    return seen


@interrupt_settles_with_own_result.decide
def _(seen: SettleSeen) -> dict[str, Check]:
    results = seen.get("results after the next query") or []
    first = results[0] if results else None
    third = seen.get("turn 3 result")
    return {
        "interrupt-returns-mid-stream": check(
            bool(seen.get("delta before interrupt")) and bool(seen.get("interrupt returned")),
            f"a text delta was seen before the interrupt: {seen.get('delta before interrupt')}; interrupt() "
            f"returned within {_SETTLE_WAIT:g} s: {seen.get('interrupt returned')} (error {seen.get('error')})",
        ),
        "interrupted-turn-stops": check(
            bool(seen.get("stream closed by the CLI")) and first is not None and first["subtype"] != "success",
            f"the CLI closed the held model stream: {seen.get('stream closed by the CLI')}; the interrupted "
            f"turn's result {first}",
        ),
        "next-response-is-next-turn": check(
            first is not None and first["result"] == "second-answer",
            f"after query('second') the first ResultMessage read was {first} (all: {results})",
        ),
        "interrupt-right-after-query-stops-turn": check(
            bool(seen.get("turn 3 interrupt returned"))
            and bool(seen.get("turn 3 ended before the held answer was released"))
            and third is not None
            and third["subtype"] != "success",
            f"interrupt() right after query() returned: {seen.get('turn 3 interrupt returned')}; the turn ended "
            f"while the model's answer was held: {seen.get('turn 3 ended before the held answer was released')}; "
            f"its result {third}",
        ),
    }


interrupt_settles_with_own_result.differs_on(
    {
        "delta before interrupt": True,
        "interrupt returned": False,
        "reading the next turn ended": True,
        "stream closed by the CLI": False,
        "results after the next query": [
            {
                "subtype": "success",
                "terminal_reason": None,
                "result": "Once upon a time the end",
                "user_message_uuid": False,
            }
        ],
        "turn 3 interrupt returned": True,
        "turn 3 result": {
            "subtype": "success",
            "terminal_reason": None,
            "result": "third-answer",
            "user_message_uuid": False,
        },
        "turn 3 ended before the held answer was released": False,
        "error": None,
    }
)

# --- messages.interrupted-tool-wording -----------------------------------------------------

_BASH_ID = "toolu_double_slowbash"
_STARTED = "bash-started"  # the file the scripted command makes before it sleeps
_START_WAIT = 20.0  # a ceiling only a command that never started reaches
_REFUSAL = ("rejected", "doesn't want to proceed", "denied")


def _said(text: str) -> str:
    """A tool_result text as an observation: its first 160 characters, one line."""
    line = " ".join(text.split())
    return line if len(line) <= 160 else line[:160] + "..."


# What one side was told of the cut-off call.
Wording = TypedDict(
    "Wording",
    {
        "text": str | None,  # the tool_result's (None: there was none)
        "beside it": list[str],  # the texts of the message carrying it
        "says interrupted": bool,
        "says refused": bool,
    },
)


class ModelWording(Wording):
    is_error: bool | None  # the tool_result's is_error


def _wording(text: str | None, beside: list[str]) -> Wording:
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


# Filled in as the run goes ("command started" first, during it); all there once the probe returns.
WordingSeen = TypedDict(
    "WordingSeen",
    {"command started": bool, "model": ModelWording, "host": Wording, "error": str | None},
    total=False,
)


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
async def interrupted_tool_wording(h: Harness) -> WordingSeen:
    seen: WordingSeen = {}

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
    observed: WordingSeen = h.observe(seen)
    return observed


@interrupted_tool_wording.decide
def _(seen: WordingSeen) -> dict[str, Check]:
    def told(side: Literal["model", "host"], who: str) -> Check:
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


_REJECTION: Wording = {
    "text": "User rejected tool use",
    "beside it": [],
    "says interrupted": False,
    "says refused": True,
}

interrupted_tool_wording.differs_on(
    {"command started": True, "model": {**_REJECTION, "is_error": True}, "host": _REJECTION, "error": None}
)
