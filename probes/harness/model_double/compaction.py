"""Compaction requests: what the CLI sends when it summarises a conversation, and the
double's answer to it.

On `/compact` (or an automatic compaction) the CLI asks the Messages API for a summary
of the conversation so far: the conversation's own messages with a last user message
asking for "an <analysis> block followed by a <summary> block". Sent on the main route,
it would spend the reply a probe scripted for the main conversation's next turn, and a
reply without <summary> makes CLI 2.1.332 ask again; once compacted, the conversation's
first user message is the summary ("This session is being continued ..."), so the next
main request would look like a subagent's. The double routes a compaction request to
COMPACT (a queue of its own, `Script(compact=[...])`), answers it with SUMMARY when
nothing was scripted there, and takes the continuation of a compacted main conversation
as the main conversation again. Seen in CLI 2.1.1, 2.1.142 and 2.1.332.
"""

from __future__ import annotations

from typing import Any

COMPACT = "compact"
# The CLI's summary instruction (2.1.1 ... 2.1.332): in the last user message of a compaction request.
ASKS_FOR_SUMMARY = "Your task is to create a detailed summary of the conversation so far"
# How a compacted conversation's first user message begins (2.1.1 ... 2.1.332).
CONTINUED = "This session is being continued from a previous conversation"
SUMMARY_MARK = "SDKPROBE-COMPACT-SUMMARY"
SUMMARY = f"<analysis>The double's analysis.</analysis>\n<summary>{SUMMARY_MARK}: the conversation so far.</summary>"


def is_compaction(messages: list[dict[str, Any]]) -> bool:
    """Whether a request with these messages asks for a summary of the conversation."""
    users = [m for m in messages if m.get("role") == "user"]
    return bool(users) and ASKS_FOR_SUMMARY in _text(users[-1].get("content"))


def is_continuation(first_user_text: str) -> bool:
    """Whether a conversation's first user message is a compaction's summary."""
    return CONTINUED in first_user_text


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")
