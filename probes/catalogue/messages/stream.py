"""The order and timing of the message stream: partial messages, prompt suggestions, system
messages, callbacks answered while nobody reads."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.catalogue.messages.support import delta_type, kind_of, strings
from sdkprobe.harness import (
    MAIN,
    Conversation,
    Harness,
    ProbeTimeout,
    Scenario,
    Script,
    message_fields,
    reply,
    thinking,
    tool_use,
)

# --- messages.unknown-slash-command-system-message -----------------------------------

_COMMAND = "no-such-command-xyz"


class SystemSeen(TypedDict):
    subtype: str | None
    text: str | None  # the first string in the message naming the command (None when none does)


SlashSeen = TypedDict(
    "SlashSeen",
    {
        "system messages": list[SystemSeen],  # all but system/init
        "assistant texts": list[str],
        "result": str | None,
        "model requests with the command": int,
        "error": str | None,
    },
)


@behaviour(
    id="messages.unknown-slash-command-system-message",
    claim=(
        "A prompt naming an unknown slash command never reaches the model; the CLI answers it "
        "with a system message saying so instead of assistant text, so a host that ignores "
        "system messages shows nothing."
    ),
    summary="An unknown slash command gets a system message, not a model answer",
    source=("000", "Messages and results"),
    tier="cli",
    checks=("system-message-names-the-command", "prompt-not-sent-to-model"),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
)
async def unknown_slash_command(h: Harness) -> SlashSeen:
    run = await h.cli(f"/{_COMMAND}")
    system: list[SystemSeen] = [
        {"subtype": getattr(m, "subtype", None), "text": _mentioning(message_fields(m).get("data"))}
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
def _(seen: SlashSeen) -> dict[str, Check]:
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


# --- messages.prompt-suggestions-after-result -----------------------------------------

_SUGGESTION = "Run the tests next"

SuggestionSeen = TypedDict(
    "SuggestionSeen",
    {
        "cli stdout": list[str],  # the types of its assistant, result and prompt_suggestion lines, in order
        "suggestions sent": list[str | None],
        "sdk yielded with the suggestion": list[str],  # the kinds of message
        "model requests": int,
        "error": str | None,
    },
)


@behaviour(
    id="messages.prompt-suggestions-after-result",
    claim=(
        "With prompt suggestions on, the CLI sends a predicted next prompt after a turn, and it "
        "arrives after that turn's result; a host must keep reading past the result to get it."
    ),
    summary="A prompt suggestion arrives after its turn's result",
    source=("000", "Messages and results"),
    tier="cli",
    checks=("suggestion-follows-its-result", "sdk-yields-suggestion"),
    requires=("option:extra_args",),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
    timeout=120.0,
)
async def prompt_suggestions_after_result(h: Harness) -> SuggestionSeen:
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
            {kind_of(m) for m in run.messages if any(_SUGGESTION in s for s in strings(message_fields(m)))}
        ),
        "model requests": len(run.on(MAIN)),
        "error": run.error_line,
    }


@prompt_suggestions_after_result.decide
def _(seen: SuggestionSeen) -> dict[str, Check]:
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

DeltaSeen = TypedDict(
    "DeltaSeen",
    {
        "delta kinds": dict[str, int],  # delta type: how many
        "input_json chunks": int,
        "file_path complete after chunk": int | None,
        "chunks joined parse": bool,
        "error": str | None,
    },
)


@behaviour(
    id="messages.partial-message-delta-kinds",
    claim=(
        "With include_partial_messages the SDK yields stream events carrying text_delta, "
        "thinking_delta and input_json_delta; the tool input's JSON arrives in pieces, so a "
        "Write's file_path is known before its block ends."
    ),
    summary="Partial messages yield text, thinking and tool-input JSON deltas, input in pieces",
    source=("004", "Watching live with includePartialMessages"),
    tier="cli",
    checks=("text-delta", "thinking-delta", "input-json-delta", "file-path-before-block-end"),
    requires=("option:include_partial_messages",),
    pins={
        "text-delta": ("message:StreamEvent",),
        "thinking-delta": ("message:StreamEvent",),
        "input-json-delta": ("message:StreamEvent",),
        "file-path-before-block-end": ("message:StreamEvent",),
    },
    sdk_ref="claude_agent_sdk.types.StreamEvent",
)
async def partial_message_delta_kinds(h: Harness) -> DeltaSeen:
    target = h.cwd / "index.html"
    write = tool_use("Write", {"file_path": str(target), "content": "<html>" + "x" * 600 + "</html>\n"})
    run = await h.cli(
        "write the page",
        script=[reply(thinking("plan the page"), "Writing it now.", write, input_chunks=_WRITE_CHUNKS), "done"],
        include_partial_messages=True,
        allowed_tools=["Write"],
    )
    kinds: dict[str, int] = {}
    chunks: list[str] = []
    for m in run.messages:
        kind = delta_type(m)
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
def _(seen: DeltaSeen) -> dict[str, Check]:
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
_TEXT_CHUNKS = 5  # text_delta pieces per block: a block has a first and a final delta
_REPEATS = 20  # turns per spacing; the catalogue asks for at least 20, the order may be racy
# seconds between SSE events
_SPACINGS: tuple[tuple[Literal["burst", "spaced"], float], ...] = (("burst", 0.0), ("spaced", 0.02))

# One spacing's turns: how many, and the distinct orders they showed (a race shows as more than one).
Spaced = TypedDict("Spaced", {"turns": int, "orders seen": list[str]})


class _Errored(TypedDict):
    error: str | None


class OrdersSeen(_Errored, total=False):  # a key per spacing of _SPACINGS, each added once its turns ran
    burst: Spaced
    spaced: Spaced


@behaviour(
    id="messages.assistant-before-final-deltas",
    claim=(
        "With partial messages on, the AssistantMessage holding a content block can arrive before "
        "that block's final stream events (its last content_block_delta or its content_block_stop), "
        "so a host that renders deltas must reconcile its delta buffer with the full block when it arrives."
    ),
    summary="With partial messages, a block's full message can arrive before its final deltas",
    source=("004", "Watching live with includePartialMessages"),
    tier="cli",
    checks=("text-streamed-in-pieces", "assistant-before-final-delta-or-stop"),
    controls=("text-streamed-in-pieces",),
    requires=("option:include_partial_messages",),
    sdk_ref="claude_agent_sdk._internal.query.Query._read_messages",
    timeout=180.0,
)
async def assistant_before_final_deltas(h: Harness) -> OrdersSeen:
    # One client, the same two text blocks streamed (each in several text_delta pieces)
    # turn after turn, in one burst and with the events spaced out: the order the SDK
    # yields is recorded per block; the spacing only changes what the CLI reads at once.
    replies = [reply(*_BLOCKS, gap=gap, text_chunks=_TEXT_CHUNKS) for _, gap in _SPACINGS for _ in range(_REPEATS)]

    async def steps(c: Conversation) -> None:
        for _ in replies:
            await c.send("say two things")
            await c.response()

    run = await h.converse(steps, script=replies, include_partial_messages=True, timeout=170.0)
    seen: OrdersSeen = {"error": run.error_line}
    for n, (name, _) in enumerate(_SPACINGS):
        turns = run.turns[n * _REPEATS : (n + 1) * _REPEATS]
        orders = [" ".join(_block_orders(t)) or "nothing" for t in turns]
        # what each turn showed, as the distinct orders (a race shows as more than one)
        seen[name] = {"turns": len(turns), "orders seen": sorted(set(orders))}
    return seen


def _block_orders(messages: list[Any]) -> list[str]:
    """For each content block of one turn's model message, the order of what arrived for it:
    d = a content_block_delta, A = the AssistantMessage holding it, s = content_block_stop."""
    orders: dict[int, str] = {}
    for m in messages:
        kind = kind_of(m)
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


def _arrived_early(order: str) -> bool:
    """Whether the AssistantMessage came before the block's last delta or its stop."""
    return "A" in order and any(x in order[order.index("A") :] for x in "ds")


@assistant_before_final_deltas.decide
def _(seen: OrdersSeen) -> dict[str, Check]:
    runs = {name: seen[name] for name, _ in _SPACINGS}
    said = "; ".join(f"{name}: {r['turns']} turns, orders {r['orders seen']}" for name, r in runs.items())
    said += " (per block: d delta, A assistant message, s block stop)"
    blocks = [o for r in runs.values() for turn in r["orders seen"] for o in turn.split(" ")]
    streamed = all(r["turns"] == _REPEATS for r in runs.values()) and all(
        o.count("d") == _TEXT_CHUNKS and o.count("A") == 1 and o.count("s") == 1 for o in blocks
    )
    return {
        "text-streamed-in-pieces": check(
            streamed, f"{said}; expected {_REPEATS} turns each, every block {_TEXT_CHUNKS} deltas, one A, one s"
        ),
        "assistant-before-final-delta-or-stop": check(any(_arrived_early(o) for o in blocks), said),
    }


_AFTER = " ".join(["d" * _TEXT_CHUNKS + "sA"] * len(_BLOCKS))
assistant_before_final_deltas.differs_on(
    {
        "error": None,
        "burst": {"turns": _REPEATS, "orders seen": [_AFTER]},
        "spaced": {"turns": _REPEATS, "orders seen": [_AFTER]},
    }
)
assistant_before_final_deltas.differs_on(  # the setup failed: one delta per block, turns missing
    {
        "error": None,
        "burst": {"turns": 3, "orders seen": ["dAs dAs"]},
        "spaced": {"turns": 3, "orders seen": ["dAs dAs"]},
    }
)


# --- messages.callbacks-answered-while-unread -----------------------------------------

# The caller reads nothing until the hook has been asked. An SDK that keeps reading asks
# it within milliseconds; one whose reader is stuck behind the unread messages never does,
# so this ceiling is reached only by that hang (and the order recorded says which it was).
_UNREAD_CEILING = 20.0
_HOOK_REQUEST = {
    "callback_id": "hook_0",  # the SDK numbers its hook callbacks from hook_0 in declaration order
    "input": {
        "hook_event_name": "PreToolUse",
        "session_id": "fake-session",
        "transcript_path": "",
        "cwd": ".",
        "tool_name": "Bash",
        "tool_input": {"command": "true"},
    },
    "tool_use_id": "toolu_unread_1",
}


# One case's run, keyed "client, N unread" (a ClaudeSDKClient whose caller reads nothing until the hook
# is asked) or "query(str), 150 lines"; a run that hung has only "hung" beside what was seen before.
Unread = TypedDict(
    "Unread",
    {
        "order": list[str],  # client: "hook asked" and "caller reads", in the order they happened
        "hook asked": bool,  # query(str)
        "hook answered": bool,  # query(str)
        "assistant messages read": int,  # client
        "assistant messages": int,  # query(str)
        "result": bool,
        "error": str | None,
        "hung": bool,
    },
    total=False,
)


def _flood_then_hook(unread: int) -> Scenario:
    """A turn of `unread` assistant lines, then a PreToolUse hook_callback, then its result."""
    return (
        Scenario()
        .wait_for_user()
        .init()
        .assistant("filler", times=unread)
        .request("hook_callback", **_HOOK_REQUEST)
        .result(result="done")
    )


@behaviour(
    id="messages.callbacks-answered-while-unread",
    renamed_from=("messages.unread-messages-stall-callbacks",),
    claim=(
        "Hook and can_use_tool callbacks are answered promptly even while the caller is not reading the "
        "message stream, however many messages are waiting; and a string-prompt query() with hooks "
        "finishes a long turn."
    ),
    summary="Callbacks are answered promptly even while nobody reads the message stream",
    source=("py#779", "report"),
    tier="wire",
    checks=(
        "hook-answered-behind-50-unread",
        "hook-answered-behind-150-unread",
        "string-prompt-hook-turn-finishes",
    ),
    requires=("option:hooks",),
    sdk_ref="claude_agent_sdk._internal.query.Query._read_messages",
    timeout=150,
)
async def callbacks_answered_while_unread(h: Harness) -> dict[str, Unread]:
    from sdkprobe.harness import HookMatcher

    seen: dict[str, Unread] = {}
    for unread in (50, 150):
        order: list[str] = []
        asked = asyncio.Event()

        async def hook(input: Any, tool_use_id: Any, context: Any, order: list[str] = order, asked: Any = asked) -> Any:
            order.append("hook asked")
            asked.set()
            return {}

        async def query_then_wait(client: Any, out: Any, order: list[str] = order, asked: Any = asked) -> None:
            await client.query("go")
            # Read nothing until the hook has been asked (or the ceiling says it never will); then drain.
            try:
                await asyncio.wait_for(asked.wait(), _UNREAD_CEILING)
            except asyncio.TimeoutError:
                pass
            order.append("caller reads")
            async for message in client.receive_response():
                out.messages.append(message)

        try:
            run = await h.wire(
                None,
                scenario=_flood_then_hook(unread),
                client=True,
                drive=query_then_wait,
                timeout=_UNREAD_CEILING + 20,
                hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[hook])]},
            )
        except ProbeTimeout:  # the fake CLI ends its turn at once: a run this long hung
            seen[f"client, {unread} unread"] = {"order": order, "hung": True}
            continue
        seen[f"client, {unread} unread"] = {
            "order": order,
            "assistant messages read": len(run.of_type("AssistantMessage")),
            "result": run.result is not None,
            "error": run.error_line,
        }

    # py#779: query() with a string prompt and a hook, the caller iterating all along.
    calls: list[str] = []

    async def counting_hook(input: Any, tool_use_id: Any, context: Any) -> Any:
        calls.append("hook asked")
        return {}

    try:
        run = await h.wire(
            "go",
            scenario=_flood_then_hook(150),
            timeout=30,
            hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[counting_hook])]},
        )
        seen["query(str), 150 lines"] = {
            "hook asked": bool(calls),
            "hook answered": run.answers.get("fake_req_1") is not None,
            "assistant messages": len(run.of_type("AssistantMessage")),
            "result": run.result is not None,
            "error": run.error_line,
        }
    except ProbeTimeout:
        seen["query(str), 150 lines"] = {"hook asked": bool(calls), "hung": True}
    return seen


@callbacks_answered_while_unread.decide
def _(seen: dict[str, Unread]) -> dict[str, Check]:
    def prompt(unread: int) -> Check:
        r = seen[f"client, {unread} unread"]
        late = r["order"][:1] == ["caller reads"] and "hook asked" in r["order"]
        when = "only after" if late else "never, even after"
        ending = "the turn hung" if r.get("hung") else f"result {r['result']}, error {r['error']}"
        return check(
            r["order"][:1] == ["hook asked"],
            f"behind {unread} unread messages the hook was asked {when} the caller began reading ({ending})",
        )

    q = seen["query(str), 150 lines"]
    return {
        "hook-answered-behind-50-unread": prompt(50),
        "hook-answered-behind-150-unread": prompt(150),
        "string-prompt-hook-turn-finishes": check(
            not q.get("hung") and q["hook answered"] and q["result"] and q["error"] is None,
            "query(prompt=str) with a hook "
            + (
                "never finished (hung)"
                if q.get("hung")
                else f"ended with hook answered {q['hook answered']}, result {q['result']}, error {q['error']}"
            ),
        ),
    }


_READ_LATE: dict[str, Unread] = {  # the hook asked only once the caller read
    f"client, {n} unread": {
        "order": ["caller reads", "hook asked"],
        "assistant messages read": n,
        "result": True,
        "error": None,
    }
    for n in (50, 150)
}
callbacks_answered_while_unread.differs_on(
    _READ_LATE
    | {
        "query(str), 150 lines": {"hook asked": False, "hung": True},
    }
)
