"""Area `wire`, topic query: the contract of `query()` itself, one string prompt to its end.

What a host relies on when it calls `query(prompt="...")` and iterates: the prompt reaches
the CLI once, as a user message on its stdin; the messages come in the order the CLI wrote
them; the iteration stops after the ResultMessage; and by then the CLI's stdin is closed
and the CLI has exited, so nothing is left running.
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


def _scenario() -> Scenario:
    """A CLI that waits for the prompt, answers in two assistant messages and a result, then
    waits for its stdin to close before exiting 0."""
    return Scenario().wait_for_user().init().assistant(_TEXTS[0]).assistant(_TEXTS[1]).result(result=_RESULT)


def _texts(message: Any) -> list[str]:
    return [b.text for b in getattr(message, "content", None) or [] if isinstance(getattr(b, "text", None), str)]


@behaviour(
    id="wire.query-string-prompt-lifecycle",
    claim=(
        "query(prompt='...') sends the prompt to the CLI once, as one user message on its stdin "
        "({'type': 'user', 'message': {'role': 'user', 'content': prompt}}); yields the CLI's messages in "
        "the order the CLI wrote them; ends its iteration after the ResultMessage; and by then has closed "
        "the CLI's stdin (after the result) and the CLI has exited."
    ),
    summary="query() sends the prompt once on stdin, yields in order, ends after the result",
    source=("sdk-py", "query"),
    tier="wire",
    checks=(
        "prompt-one-user-message-on-stdin",
        "messages-yielded-in-order",
        "iteration-ends-after-result",
        "stdin-closed-after-result",
        "cli-exited-at-end",
    ),
    covers=("function:query",),
    sdk_ref="claude_agent_sdk.query",
)
async def query_string_prompt_lifecycle(h: Harness) -> dict[str, Any]:
    try:
        run = await h.wire(_PROMPT, scenario=_scenario())
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
        "timeline": timeline,
        "error": run.error_line,
    }


def _after(timeline: list[str], first: str, then: str) -> bool:
    """Whether `then` comes in the timeline after `first` (both present)."""
    return first in timeline and then in timeline[timeline.index(first) + 1 :]


@query_string_prompt_lifecycle.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    if "timed out" in seen:
        why = f"the iteration never ended: {seen['timed out']}"
        return {name: check(False, why) for name in query_string_prompt_lifecycle.behaviour.checks}
    users, yielded, timeline = seen["user lines"], seen["yielded"], seen["timeline"]
    claimed_user = {"via": "stdin", "type": "user", "role": "user", "content": _PROMPT}
    exits = [t for t in timeline if t.startswith("exit:")]
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
        "stdin-closed-after-result": check(
            _after(timeline, "out:result", "eof"), f"the CLI's side of the exchange went {timeline}"
        ),
        "cli-exited-at-end": check(
            exits == ["exit:0"] and _after(timeline, "eof", "exit:0"),
            f"when query() returned the CLI had {'exited ' + ', '.join(exits) if exits else 'not exited'} "
            f"(exchange {timeline})",
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
        "timeline": ["eof", "out:system/init", "out:assistant", "out:assistant", "out:result"],
        "error": "CLIConnectionError: the CLI ended",
    }
)
query_string_prompt_lifecycle.differs_on({"timed out": "the SDK did not finish within 10 s (4 messages received)"})
