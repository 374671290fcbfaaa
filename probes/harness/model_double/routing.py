"""Who sent a request: the main conversation, a subagent, or an auxiliary call."""

from __future__ import annotations

from typing import Any

from sdkprobe.harness.model_double.compaction import COMPACT, is_compaction, is_continuation
from sdkprobe.harness.model_double.script import AUX, MAIN, SUBAGENT, Reply


class Router:
    """Tells main conversation, subagents and auxiliary calls apart.

    - A request whose first user message holds a prompt the double itself handed to an
      Agent/Task tool_use is a subagent's.
    - A request without tools is auxiliary (titles, summaries, classifiers) when its
      first user message differs from the main conversation's, or, before any main
      request was seen, when its max_tokens is at most AUX_MAX_TOKENS. A tool-less
      request with a larger max_tokens that comes first is taken as the main
      conversation (a session run with `tools=[]` has no tools at all).
    - Otherwise the first request seen starts the main conversation; later ones with
      the same first user message are main, others a subagent's.
    - A request whose only user text is WARMUP is auxiliary: old CLIs (2.1.1) warm each
      agent up with it before the real first request, with tools, so it would otherwise
      be taken for the main conversation.
    - A tool-less request that asks for a JSON answer (`output_config.format`) is
      auxiliary: CLI 2.1.105 asks for a session title that way with a large max_tokens,
      sometimes before the main conversation's first request.
    - A tool-less request whose first user message is a `<transcript>` is auxiliary: CLI
      2.1.300's auto-mode classifier grades a tool call that way, quoting the Agent call's
      prompt, which would otherwise make it look like the subagent's own request.
    - A request asking for a summary of its conversation is a compaction (COMPACT); the
      continuation of the main conversation it compacted is main (see compaction.py).
    """

    AUX_MAX_TOKENS = 4096
    WARMUP = "Warmup"
    TRANSCRIPT = "<transcript>"

    def __init__(self) -> None:
        self.main_first: str | None = None
        self.agent_prompts: list[str] = []
        self.compacting_main = False  # the last compaction request was the main conversation's

    def route(self, body: Any) -> str:
        if not isinstance(body, dict):
            return AUX
        messages = body.get("messages") or []
        first = _first_user_text(messages)
        if is_compaction(messages):
            self.compacting_main = self.main_first is not None and first == self.main_first
            return COMPACT
        if self.compacting_main and is_continuation(first):
            self.main_first, self.compacting_main = first, False
            return MAIN
        if first == self.WARMUP:
            return AUX
        if not body.get("tools") and (
            (body.get("output_config") or {}).get("format") or first.lstrip().startswith(self.TRANSCRIPT)
        ):
            return AUX
        if any(p and p in first for p in self.agent_prompts):
            return SUBAGENT
        if not body.get("tools") and (
            self.main_first is not None or (body.get("max_tokens") or 0) <= self.AUX_MAX_TOKENS
        ):
            if first != self.main_first:
                return AUX
        if self.main_first is None:
            self.main_first = first
            return MAIN
        return MAIN if first == self.main_first else SUBAGENT

    def served(self, r: Reply) -> None:
        for b in r.blocks:
            if b.get("type") == "tool_use" and isinstance(b.get("input"), dict):
                prompt = b["input"].get("prompt")
                if isinstance(prompt, str) and prompt:
                    self.agent_prompts.append(prompt)


def _first_user_text(messages: list[dict[str, Any]]) -> str:
    for m in messages:
        if m.get("role") != "user":
            continue
        content = m.get("content")
        if isinstance(content, str):
            return content
        return "\n".join(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")
    return ""
