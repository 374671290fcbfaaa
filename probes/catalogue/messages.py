"""Area `messages`: the message stream: system messages, partial messages, their order."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from probes.behaviour import Check, behaviour, check
from probes.harness import MAIN, Conversation, Harness, Script, reply, thinking, tool_use


def _kind(m: Any) -> str:
    return type(m).__name__


def _delta_type(m: Any) -> str | None:
    """The delta type of a StreamEvent's content_block_delta, else None."""
    event = getattr(m, "event", None) if _kind(m) == "StreamEvent" else None
    if not isinstance(event, dict) or event.get("type") != "content_block_delta":
        return None
    return str((event.get("delta") or {}).get("type"))


def _fields(m: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(m) and not isinstance(m, type):
        return {f.name: getattr(m, f.name) for f in dataclasses.fields(m)}
    return dict(vars(m)) if hasattr(m, "__dict__") else {}


# --- messages.unknown-slash-command-system-message -----------------------------------

_COMMAND = "no-such-command-xyz"


@behaviour(
    id="messages.unknown-slash-command-system-message",
    claim=(
        "A prompt naming an unknown slash command never reaches the model; the CLI answers it "
        "with a system message saying so instead of assistant text, so a host that ignores "
        "system messages shows nothing."
    ),
    source=("000", "Messages and results"),
    tier="cli",
    checks=("system-message-names-the-command", "prompt-not-sent-to-model"),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
)
async def unknown_slash_command(h: Harness) -> dict[str, Any]:
    run = await h.session(f"/{_COMMAND}")
    system = [
        {"subtype": getattr(m, "subtype", None), "text": _mentioning(_fields(m).get("data"))}
        for m in run.of_type("SystemMessage")
        if getattr(m, "subtype", None) != "init"
    ]
    result = run.result
    return {
        "system messages": system,
        "assistant texts": [getattr(b, "text", "") for m in run.of_type("AssistantMessage") for b in m.content],
        "result": getattr(result, "result", None),
        # only requests carrying the command: old CLIs also send warm-up requests of their own
        "model requests with the command": sum(_COMMAND in r.context_text for r in run.requests),
        "error": run.error_line,
    }


def _mentioning(data: Any) -> str | None:
    """The first string in `data` that mentions the command (None when none does)."""
    if isinstance(data, str):
        return data if _COMMAND in data else None
    values = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    for v in values:
        found = _mentioning(v)
        if found:
            return found
    return None


@unknown_slash_command.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    named = [s for s in seen["system messages"] if s["text"]]
    sent = seen["model requests with the command"]
    return {
        "system-message-names-the-command": check(
            bool(named),
            f"no system message named the command; system messages {[s['subtype'] for s in seen['system messages']]}, "
            f"assistant texts {seen['assistant texts']}, result {seen['result']!r}",
        ),
        "prompt-not-sent-to-model": check(sent == 0, f"{sent} model request(s) carried the command"),
    }


unknown_slash_command.differs_on(
    {
        "system messages": [],
        "assistant texts": ["ok"],
        "result": "ok",
        "model requests with the command": 1,
        "error": None,
    }
)


# --- messages.interrupt-ede-diagnostic ------------------------------------------------

_EDE = "[ede_diagnostic]"


@behaviour(
    id="messages.interrupt-ede-diagnostic",
    claim=(
        "A turn interrupted mid-answer ends with a result that carries an internal "
        "'[ede_diagnostic]' error line, which a host has to filter out."
    ),
    source=("000", "Messages and results"),
    tier="cli",
    checks=("cli-result-carries-ede-diagnostic", "sdk-yields-ede-diagnostic"),
    requires=("option:include_partial_messages", "api:ClaudeSDKClient.interrupt"),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.interrupt",
)
async def interrupt_ede_diagnostic(h: Harness) -> dict[str, Any]:
    async def steps(c: Conversation) -> None:
        await c.send("tell me a long story")
        # The double holds the stream after its first text delta: the interrupt comes while
        # the model is provably mid-answer, once the SDK has shown that delta.
        if await c.until(lambda m: _delta_type(m) == "text_delta") is not None:
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
        "sdk yielded": sorted({f"{_kind(m)}.{k}: {t}" for m in run.messages for k, t in _ede_lines(_fields(m))}),
        "error": run.error_line,
    }


def _ede_lines(fields: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, text) for every string in `fields` (nested) that holds the diagnostic."""
    found = []
    for name, value in fields.items():
        for text in _strings(value):
            if _EDE in text:
                found.append((name, text))
    return found


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


@interrupt_ede_diagnostic.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


# --- messages.prompt-suggestions-after-result -----------------------------------------

_SUGGESTION = "Run the tests next"


@behaviour(
    id="messages.prompt-suggestions-after-result",
    claim=(
        "With prompt suggestions on, the CLI sends a predicted next prompt after a turn, and it "
        "arrives after that turn's result; a host must keep reading past the result to get it."
    ),
    source=("000", "Messages and results"),
    tier="cli",
    checks=("suggestion-follows-its-result", "sdk-yields-suggestion"),
    requires=("option:extra_args",),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
    timeout=120.0,
)
async def prompt_suggestions_after_result(h: Harness) -> dict[str, Any]:
    async def steps(c: Conversation) -> None:
        # The CLI suggests nothing after a session's first turn: two turns, then wait for the
        # raw line (the SDK may never show it) before the session closes.
        for prompt in ("hello", "and now?"):
            await c.send(prompt)
            await c.response()
        try:
            await c.stdout_line(lambda line: isinstance(line, dict) and line.get("type") == "prompt_suggestion")
        except RuntimeError:
            pass  # none came: the observation says so

    run = await h.converse(
        steps,
        # the suggestion request shares the main conversation's first message, so it is main
        script=Script(main=["first answer", "second answer", _SUGGESTION]),
        extra_args={"prompt-suggestions": "true"},
        record_stdout=True,
        timeout=110,
    )
    order = [
        line["type"]
        for line in run.stdout
        if isinstance(line, dict) and line.get("type") in ("assistant", "result", "prompt_suggestion")
    ]
    return {
        "cli stdout": order,
        "suggestions sent": [
            line.get("suggestion")
            for line in run.stdout
            if isinstance(line, dict) and line.get("type") == "prompt_suggestion"
        ],
        "sdk yielded with the suggestion": sorted(
            {_kind(m) for m in run.messages if any(_SUGGESTION in s for s in _strings(_fields(m)))}
        ),
        "model requests": len(run.on(MAIN)),
        "error": run.error_line,
    }


@prompt_suggestions_after_result.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    order = seen["cli stdout"]
    at = order.index("prompt_suggestion") if "prompt_suggestion" in order else -1
    follows = at > 0 and order[at - 1] == "result"
    return {
        "suggestion-follows-its-result": check(
            follows, f"the CLI's stdout ran {' > '.join(order) or 'empty'} (error {seen['error']})"
        ),
        "sdk-yields-suggestion": check(
            bool(seen["sdk yielded with the suggestion"]),
            f"the CLI sent suggestions {seen['suggestions sent']}; no message the SDK yielded carried one",
        ),
    }


prompt_suggestions_after_result.differs_on(
    {
        "cli stdout": ["assistant", "result", "assistant", "prompt_suggestion", "result"],
        "suggestions sent": [_SUGGESTION],
        "sdk yielded with the suggestion": [],
        "model requests": 3,
        "error": None,
    }
)


# --- messages.partial-message-delta-kinds ---------------------------------------------

_WRITE_CHUNKS = 6


@behaviour(
    id="messages.partial-message-delta-kinds",
    claim=(
        "With include_partial_messages the SDK yields stream events carrying text_delta, "
        "thinking_delta and input_json_delta; the tool input's JSON arrives in pieces, so a "
        "Write's file_path is known before its block ends."
    ),
    source=("004", "Live meekijken met includePartialMessages"),
    tier="cli",
    checks=("text-delta", "thinking-delta", "input-json-delta", "file-path-before-block-end"),
    requires=("option:include_partial_messages",),
    sdk_ref="claude_agent_sdk.types.StreamEvent",
)
async def partial_message_delta_kinds(h: Harness) -> dict[str, Any]:
    target = h.cwd / "index.html"
    write = tool_use("Write", {"file_path": str(target), "content": "<html>" + "x" * 600 + "</html>\n"})
    run = await h.session(
        "write the page",
        script=[reply(thinking("plan the page"), "Writing it now.", write, input_chunks=_WRITE_CHUNKS), "done"],
        include_partial_messages=True,
        allowed_tools=["Write"],
    )
    kinds: dict[str, int] = {}
    chunks: list[str] = []
    for m in run.messages:
        kind = _delta_type(m)
        if kind is None:
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind == "input_json_delta":
            chunks.append(str(m.event["delta"].get("partial_json", "")))
    return {
        "delta kinds": dict(sorted(kinds.items())),
        "input_json chunks": len(chunks),
        # after how many chunks the concatenated JSON holds the whole file_path value
        "file_path complete after chunk": _first_complete(chunks, "file_path"),
        "chunks joined parse": _parses("".join(chunks)),
        "error": run.error_line,
    }


def _first_complete(chunks: list[str], key: str) -> int | None:
    pattern = re.compile(rf'"{key}"\s*:\s*"(?:[^"\\]|\\.)*"')
    for n in range(1, len(chunks) + 1):
        if pattern.search("".join(chunks[:n])):
            return n
    return None


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@partial_message_delta_kinds.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    kinds, n, at = seen["delta kinds"], seen["input_json chunks"], seen["file_path complete after chunk"]
    said = f"delta kinds seen {kinds or 'none'} (error {seen['error']})"
    return {
        "text-delta": check("text_delta" in kinds, said),
        "thinking-delta": check("thinking_delta" in kinds, said),
        "input-json-delta": check("input_json_delta" in kinds, said),
        "file-path-before-block-end": check(
            at is not None and at < n, f"file_path was complete after chunk {at} of {n} input_json_delta chunks"
        ),
    }


partial_message_delta_kinds.differs_on(
    {
        "delta kinds": {"signature_delta": 1},
        "input_json chunks": 1,
        "file_path complete after chunk": 1,
        "chunks joined parse": True,
        "error": None,
    }
)


# --- messages.assistant-before-final-deltas -------------------------------------------


_BLOCKS = (" ".join(["alpha"] * 20), " ".join(["beta"] * 20))


@behaviour(
    id="messages.assistant-before-final-deltas",
    claim=(
        "With partial messages on, the complete assistant message for a block can arrive before "
        "that block's last stream events, so a host that keeps appending deltas after it shows "
        "the text twice unless it flushes its delta buffer when the full block arrives."
    ),
    source=("004", "Live meekijken met includePartialMessages"),
    tier="cli",
    checks=("assistant-before-last-delta", "assistant-before-block-stop"),
    requires=("option:include_partial_messages",),
    sdk_ref="claude_agent_sdk._internal.query.Query._read_messages",
)
async def assistant_before_final_deltas(h: Harness) -> dict[str, Any]:
    seen = {}
    # The same two text blocks streamed in one burst and with the events spaced out: the
    # order the SDK yields is recorded either way; the spacing only changes what the CLI
    # reads at once, never what is decided.
    for name, gap in (("burst", 0.0), ("spaced", 0.05)):
        run = await h.session(
            "say two things",
            script=[reply(*_BLOCKS, gap=gap)],
            include_partial_messages=True,
        )
        seen[name] = {"per block": _block_orders(run.messages), "error": run.error_line}
    return seen


def _block_orders(messages: list[Any]) -> list[str]:
    """For each content block of the first model message, the order of what arrived for it:
    d = a content_block_delta, A = the AssistantMessage holding it, s = content_block_stop."""
    orders: dict[int, str] = {}
    for m in messages:
        kind = _kind(m)
        if kind == "StreamEvent" and isinstance(m.event, dict):
            e = m.event
            if e.get("type") == "message_stop":
                break
            index = e.get("index")
            if not isinstance(index, int):
                continue
            if e.get("type") == "content_block_delta":
                orders[index] = orders.get(index, "") + "d"
            elif e.get("type") == "content_block_stop":
                orders[index] = orders.get(index, "") + "s"
        elif kind == "AssistantMessage":
            for b in m.content:
                text = str(getattr(b, "text", "")).strip()
                if text in _BLOCKS:
                    index = _BLOCKS.index(text)
                    orders[index] = orders.get(index, "") + "A"
    return [orders[i] for i in sorted(orders)]


@assistant_before_final_deltas.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    runs = {name: seen[name]["per block"] for name in ("burst", "spaced")}
    said = "; ".join(f"{name}: {' '.join(o) or 'nothing'}" for name, o in runs.items())
    said += " (per block: d delta, A assistant message, s block stop)"
    orders = [o for blocks in runs.values() for o in blocks]
    return {
        "assistant-before-last-delta": check(any("A" in o and "d" in o[o.index("A") :] for o in orders), said),
        "assistant-before-block-stop": check(any("A" in o and "s" in o[o.index("A") :] for o in orders), said),
    }


assistant_before_final_deltas.differs_on(
    {"burst": {"per block": ["dsA", "dsA"], "error": None}, "spaced": {"per block": ["dsA", "dsA"], "error": None}}
)
