"""Area `wire`, topic query: the contract of `query()` itself, one string prompt to its end.

What a host relies on when it calls `query(prompt="...")` and iterates: the prompt reaches
the CLI once, as a user message on its stdin; the messages come in the order the CLI wrote
them; the iteration stops after the ResultMessage; the CLI's stdin is closed once the
prompt is written (when no callback needs it open), and by the end the CLI has exited, so
nothing is left running.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import Harness, ProbeTimeout, Scenario

_PROMPT = "what is the plum count?"
_TEXTS = ("first part", "second part")
_RESULT = "plum count: 7"
# what the CLI writes, in order: what query() must yield, in that order
_YIELDS = ["SystemMessage", "AssistantMessage", "AssistantMessage", "ResultMessage"]


_EOF_CEILING = 15.0  # seconds the fake waits for stdin to close before its result: only a close kept back reaches it


def _scenario() -> Scenario:
    """A CLI that waits for the prompt, answers in two assistant messages and a result, then
    waits for its stdin to close before exiting 0. Between the two messages it waits for the
    close too, so a close that comes once the prompt is written lands before the result by
    order; one kept back until the result lands after it (the ceiling lets the run go on)."""
    scenario = Scenario().wait_for_user().init().assistant(_TEXTS[0]).wait_for_eof(ceiling=_EOF_CEILING)
    return scenario.assistant(_TEXTS[1]).result(result=_RESULT)


def _texts(message: Any) -> list[str]:
    return [b.text for b in getattr(message, "content", None) or [] if isinstance(getattr(b, "text", None), str)]


@behaviour(
    id="wire.query-string-prompt-lifecycle",
    claim=(
        "query(prompt='...') sends the prompt to the CLI once, as one user message on its stdin "
        "({'type': 'user', 'message': {'role': 'user', 'content': prompt}}); yields the CLI's messages in "
        "the order the CLI wrote them; ends its iteration after the ResultMessage; closes the CLI's stdin "
        "once the prompt is written (no hook, SDK MCP server or can_use_tool needing it open), and by the "
        "iteration's end the CLI has exited."
    ),
    summary="query() sends the prompt once on stdin, yields in order, ends after the result",
    source=("sdk-py", "query"),
    tier="wire",
    checks=(
        "prompt-one-user-message-on-stdin",
        "messages-yielded-in-order",
        "iteration-ends-after-result",
        "stdin-closed-after-prompt",
        "cli-exited-at-end",
    ),
    pins={
        "prompt-one-user-message-on-stdin": ("function:query",),
        "messages-yielded-in-order": ("function:query",),
        "iteration-ends-after-result": ("function:query",),
        "stdin-closed-after-prompt": ("function:query",),
        "cli-exited-at-end": ("function:query",),
    },
    sdk_ref="claude_agent_sdk.query",
)
async def query_string_prompt_lifecycle(h: Harness) -> dict[str, Any]:
    try:
        run = await h.wire(_PROMPT, scenario=_scenario(), timeout=_EOF_CEILING + 45)
    except ProbeTimeout as exc:  # the iteration never ended: the finding, not a harness failure
        return {"timed out": str(exc)}
    # what crossed the wire, bar the control protocol: user lines, CLI output, eof, exit
    timeline = [t for t in run.timeline() if "control_" not in t]
    return {
        "user lines": [
            {
                "via": m.get("via", "stdin"),
                "type": m.get("type"),
                "role": (m.get("message") or {}).get("role"),
                "content": (m.get("message") or {}).get("content"),
            }
            for m in run.user_messages
        ]
        + [
            # old SDKs pass a string prompt on argv (`--print -- PROMPT`); the fake reads it there
            {"via": "argv", "type": "user", "role": "user", "content": run.argv[run.argv.index("--") + 1]}
            for _ in [0]
            if "--print" in run.argv and "--" in run.argv
        ],
        "yielded": [type(m).__name__ for m in run.messages],
        "texts": [t for m in run.messages for t in _texts(m)],
        "result": getattr(run.result, "result", None),
        # when the CLI's stdin closed and it exited, relative to what the SDK wrote (the CLI's
        # own output races a close that comes at once, so it is not the reference)
        "stdin closed": _closed(timeline),
        "cli exited": [
            f"{t} after stdin closed" if "eof" in timeline[: timeline.index(t)] else t
            for t in timeline
            if t.startswith("exit:")
        ],
        "error": run.error_line,
    }


def _closed(timeline: list[str]) -> str:
    """When the SDK closed the CLI's stdin: after writing the prompt there (before the CLI's
    result or only after it), before any prompt, or never."""
    if "eof" not in timeline:
        return "never"
    before = timeline[: timeline.index("eof")]
    if "in:user" not in before:
        return "with no prompt written"
    return "after the result" if "out:result" in before else "after the prompt, before the result"


@query_string_prompt_lifecycle.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    if "timed out" in seen:
        why = f"the iteration never ended: {seen['timed out']}"
        return {name: check(False, why) for name in query_string_prompt_lifecycle.behaviour.checks}
    users, yielded = seen["user lines"], seen["yielded"]
    claimed_user = {"via": "stdin", "type": "user", "role": "user", "content": _PROMPT}
    return {
        "prompt-one-user-message-on-stdin": check(
            users == [claimed_user], f"the prompt reached the CLI as {users or 'nothing'}"
        ),
        "messages-yielded-in-order": check(
            yielded == _YIELDS and seen["texts"] == list(_TEXTS) and seen["result"] == _RESULT,
            f"query() yielded {yielded} with texts {seen['texts']} and result {seen['result']!r}",
        ),
        "iteration-ends-after-result": check(
            yielded[-1:] == ["ResultMessage"] and seen["error"] is None,
            f"the iteration's last message was {yielded[-1:] or 'none'}, raising {seen['error'] or 'nothing'}",
        ),
        "stdin-closed-after-prompt": check(
            seen["stdin closed"] == "after the prompt, before the result",
            f"the CLI's stdin closed: {seen['stdin closed']}",
        ),
        "cli-exited-at-end": check(
            seen["cli exited"] == ["exit:0 after stdin closed"],
            f"when query() returned the CLI had exited: {seen['cli exited'] or 'not at all'}",
        ),
    }


query_string_prompt_lifecycle.differs_on(
    {
        "user lines": [
            {"via": "argv", "type": "user", "role": "user", "content": _PROMPT},
            {"via": "stdin", "type": "user", "role": "user", "content": _PROMPT},
        ],
        "yielded": ["SystemMessage", "AssistantMessage", "ResultMessage", "AssistantMessage"],
        "texts": ["first part"],
        "result": _RESULT,
        "stdin closed": "never",
        "cli exited": [],
        "error": "CLIConnectionError: the CLI ended",
    }
)
query_string_prompt_lifecycle.differs_on(  # stdin kept open until the run ends, all else as claimed
    {
        "user lines": [{"via": "stdin", "type": "user", "role": "user", "content": _PROMPT}],
        "yielded": _YIELDS,
        "texts": list(_TEXTS),
        "result": _RESULT,
        "stdin closed": "after the result",
        "cli exited": ["exit:0 after stdin closed"],
        "error": None,
    }
)
query_string_prompt_lifecycle.differs_on({"timed out": "the SDK did not finish within 10 s (4 messages received)"})
