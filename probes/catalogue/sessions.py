"""Area `sessions`: resuming, session files, session stores, streaming input."""

from __future__ import annotations

from typing import Any

from probes.behaviour import Check, behaviour, check
from probes.harness import Harness, Scenario

_FIRST = {
    "type": "user",
    "message": {"role": "user", "content": "first"},
    "parent_tool_use_id": None,
    "session_id": "default",
}
_NOT_READY = "ProcessTransport is not ready for writing"


def _first_line(error: str | None) -> str | None:
    """An error's first line: enough to name it, and a note stays one line."""
    return None if error is None else (error.splitlines() or [""])[0]


def _two_turns() -> Scenario:
    """A CLI that answers a first and, if it comes, a second user message."""
    return (
        Scenario()
        .wait_for_user()
        .init()
        .assistant("one")
        .result(result="one")
        .wait_for_user()
        .assistant("two")
        .result(result="two")
    )


@behaviour(
    id="sessions.prompt-iterable-must-stay-open",
    claim=(
        "A multi-turn session needs its prompt iterable to stay open: once the iterable ends "
        "the SDK closes the CLI's input, and the next message fails with 'ProcessTransport is "
        "not ready for writing'; a client connected without a prompt takes several queries."
    ),
    source=("000", "Messages and results"),
    tier="wire",
    checks=("iterable-end-closes-stdin", "next-query-fails-not-ready", "open-client-takes-second-query"),
    sdk_ref="claude_agent_sdk._internal.query.Query.stream_input",
)
async def prompt_iterable_must_stay_open(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def after_iterable(client: Any, out: Any) -> None:
        async for m in client.receive_response():
            out.messages.append(m)
        try:
            await client.query("second")
            seen["second_query"] = None
        except Exception as exc:  # what the SDK raises is the finding
            seen["second_query"] = _first_line(f"{type(exc).__name__}: {exc}")

    closed = await h.wire([_FIRST], scenario=_two_turns(), client=True, connect_prompt=True, drive=after_iterable)

    async def two_queries(client: Any, out: Any) -> None:
        for prompt in ("first", "second"):
            await client.query(prompt)
            async for m in client.receive_response():
                out.messages.append(m)

    kept = await h.wire(None, scenario=_two_turns(), client=True, drive=two_queries)
    return {
        "iterable prompt": {
            # what the SDK wrote to the CLI, and when it closed its input
            "stdin": [t for t in closed.timeline() if t.startswith("in:") or t == "eof"],
            "results": len(closed.of_type("ResultMessage")),
            "second query": seen.get("second_query"),
            "error": _first_line(closed.error),
        },
        "no prompt, two queries": {
            "user lines": len(kept.user_messages),
            "results": [getattr(r, "result", None) for r in kept.of_type("ResultMessage")],
            "error": _first_line(kept.error),
        },
    }


@prompt_iterable_must_stay_open.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    it, kept = seen["iterable prompt"], seen["no prompt, two queries"]
    stdin = [t for t in it["stdin"] if not t.startswith("in:control_")]
    second = it["second query"]
    return {
        "iterable-end-closes-stdin": check(
            stdin[:2] == ["in:user", "eof"], f"after the iterable's one message the CLI's stdin saw {stdin}"
        ),
        "next-query-fails-not-ready": check(
            it["results"] == 1 and second is not None and _NOT_READY in second,
            f"the first turn gave {it['results']} result(s); the next query() raised {second or 'nothing'}",
        ),
        "open-client-takes-second-query": check(
            kept["user lines"] == 2 and kept["results"] == ["one", "two"] and kept["error"] is None,
            f"connected without a prompt: {kept['user lines']} user line(s) sent, results {kept['results']}, "
            f"error {kept['error']}",
        ),
    }


prompt_iterable_must_stay_open.differs_on(
    {
        "iterable prompt": {
            "stdin": ["in:control_request/initialize", "in:user", "in:user"],
            "results": 1,
            "second query": None,
            "error": None,
        },
        "no prompt, two queries": {"user lines": 1, "results": ["one"], "error": "CLIConnectionError: closed"},
    }
)
