"""What a script is made of: replies (text, streamed tool_use, thinking, HTTP and
stream errors) queued per route."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sdkprobe.fake_cli.blocks import as_block
from sdkprobe.harness.model_double.compaction import COMPACT, SUMMARY
from sdkprobe.harness.model_double.recorded import Recorded

MAIN, SUBAGENT, AUX = "main", "subagent", "aux"
# The agent tool's name in the API: `Task` on CLI 2.1.37 and older, `Agent` by 2.1.97 (for tool_use_offered).
AGENT_TOOL = ("Agent", "Task")
ROUTES = (MAIN, SUBAGENT, AUX, COMPACT)
DEFAULT_TEXT = "ok"
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class Reply:
    """One scripted answer to one request.

    `blocks` are Messages content blocks (build them with `text`, `tool_use`, `thinking`);
    a tool_use block's input is streamed as `input_chunks` input_json_delta pieces, and
    one without an id is numbered by the Script (toolu_double000001, ...). A text block
    is streamed as `text_chunks` text_delta pieces (one by default: a block's text whole),
    so a probe can see what arrives between a block's first and last delta.
    `delay` is waited before the first byte, `gap` between SSE events. `status` other than
    200 answers with Anthropic's error envelope instead; `stream_error` sends an SSE
    `error` event after `error_after` content blocks. `hold_after` stops a stream after
    that many SSE events until `ModelDouble.release()`, so a probe acts while the model is
    provably mid-answer (ordered by events, not by the clock).
    """

    blocks: tuple[dict[str, Any], ...] = ()
    stop_reason: str | None = None
    usage: dict[str, int] = field(default_factory=lambda: {"input_tokens": 10, "output_tokens": 5})
    delay: float = 0.0
    gap: float = 0.0
    status: int = 200
    error_type: str | None = None
    message: str = ""
    stream_error: dict[str, str] | None = None
    error_after: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    input_chunks: int = 3
    text_chunks: int = 1
    hold_after: int | None = None

    def __post_init__(self) -> None:
        if self.input_chunks < 1:
            raise ValueError("input_chunks must be at least 1")
        if self.text_chunks < 1:
            raise ValueError("text_chunks must be at least 1")
        if self.hold_after is not None and self.hold_after < 1:
            raise ValueError("hold_after counts SSE events sent before the hold: at least 1 (message_start)")

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason:
            return self.stop_reason
        return "tool_use" if any(b["type"] == "tool_use" for b in self.blocks) else "end_turn"


def reply(*blocks: dict[str, Any] | str, **kw: Any) -> Reply:
    """A reply of several blocks; plain strings become text blocks."""
    return Reply(tuple(as_block(b) for b in blocks), **kw)


def http_error(status: int, message: str, error_type: str | None = None, **kw: Any) -> Reply:
    """An HTTP error answered with `{"type":"error","error":{"type":...,"message":...}}`."""
    return Reply(status=status, error_type=error_type or _ERROR_TYPES.get(status, "api_error"), message=message, **kw)


def stream_error(
    *blocks: dict[str, Any] | str, error_type: str = "overloaded_error", message: str = "Overloaded", **kw: Any
) -> Reply:
    """A 200 stream that sends `blocks`, then an SSE `error` event, and ends."""
    base = reply(*blocks, **kw)
    return dataclasses.replace(
        base, stream_error={"type": error_type, "message": message}, error_after=len(base.blocks)
    )


def tool_use_offered(names: Sequence[str], input: dict[str, Any], id: str | None = None) -> dict[str, Any]:
    """A tool_use for a tool whose name moved between CLI releases (the agent tool is
    `Task` in the API on CLI 2.1.37 and older, `Agent` by 2.1.97): served, it names the first of
    `names` that the request it answers offers (in `tools` or the deferred list), else
    the first of them. For the model double only; the fake CLI does not resolve it."""
    if not names:
        raise ValueError("tool_use_offered needs at least one tool name")
    return {"type": "tool_use", "id": id, "name": names[0], "input": input, _ANY_OF: list(names)}


def named_for(r: Reply, offered: Collection[str]) -> Reply:
    """`r` with each `tool_use_offered` block named after what the request offers."""
    if not any(_ANY_OF in b for b in r.blocks):
        return r
    blocks = tuple(
        {**b, "name": next((n for n in b[_ANY_OF] if n in offered), b[_ANY_OF][0])} if _ANY_OF in b else b
        for b in r.blocks
    )
    return dataclasses.replace(r, blocks=blocks)


_ANY_OF = "_any_of"  # private key (leading "_": never sent) of a tool_use_offered block

STRUCTURED_OUTPUT_TOOL = "StructuredOutput"  # the tool the CLI offers for --json-schema (2.1.1 ... 2.1.332)


def structured_output(value: dict[str, Any], id: str | None = None) -> dict[str, Any]:
    """The model's structured-output call: a tool_use of the tool the CLI offers when it
    runs with `--json-schema` (output_format), whose input the CLI validates against the
    schema and, when it fits, returns as `ResultMessage.structured_output`. `value` is the
    input verbatim, so a probe can send one that does not fit (wrapped, wrong type)."""
    return tool_use_offered((STRUCTURED_OUTPUT_TOOL,), value, id)


class Script:
    """Replies per route, served in order; `fallback` answers a route once its queue is empty.

    `Script(main=[...], subagent=[...], aux=[...], compact=[...])`; each entry a Reply, or
    a string for a plain text reply. A compaction request nothing was scripted for is
    answered with the double's own summary (compaction.SUMMARY), not `fallback`. With
    `check_tool_results=True` the double refuses, as the real API does, a request in
    which a tool_use has no tool_result right after it: 400 invalid_request_error,
    no scripted reply spent (see `Recorded.unanswered_tool_uses`).
    """

    def __init__(
        self, *, fallback: Reply | None = None, check_tool_results: bool = False, **routes: Iterable[Reply | str]
    ) -> None:
        unknown = set(routes) - set(ROUTES)
        if unknown:
            raise ValueError(f"unknown routes {sorted(unknown)}; routes are {ROUTES}")
        ids = itertools.count(1)
        self.queues = {r: [_numbered(_as_reply(x), ids) for x in routes.get(r, ())] for r in ROUTES}
        self.fallback = fallback
        self.check_tool_results = check_tool_results

    def answer(self, request: Recorded) -> tuple[Reply, bool]:
        """The reply for `request` (what the double calls): by its route here; a subclass
        may read more of it (ByModel: the model it names)."""
        return self.next(request.route or MAIN)

    def next(self, route: str) -> tuple[Reply, bool]:
        """The reply for a request on `route`, and whether the script said so."""
        queue = self.queues[route]
        if queue:
            return queue.pop(0), True
        if route == COMPACT:  # the double knows how to summarise (compaction.py)
            return reply(SUMMARY), True
        if self.fallback is not None:
            return self.fallback, True
        return reply(DEFAULT_TEXT), False

    def remaining(self) -> dict[str, int]:
        return {r: len(q) for r, q in self.queues.items() if q}


def _as_reply(x: Reply | str) -> Reply:
    return reply(x) if isinstance(x, str) else x


def _numbered(r: Reply, ids: Iterator[int]) -> Reply:
    blocks = tuple(
        {**b, "id": f"toolu_double{next(ids):06d}"} if b["type"] == "tool_use" and not b.get("id") else b
        for b in r.blocks
    )
    return dataclasses.replace(r, blocks=blocks)
