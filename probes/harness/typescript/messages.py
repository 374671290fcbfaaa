"""The messages the TypeScript SDK yields, as the harness hands messages to probes.

A probe reads messages through one set of types whichever SDK ran: the message classes of
the installed `claude-agent-sdk` (AssistantMessage, ResultMessage, ...), which is what the
harness has always handed out. A TypeScript message is the CLI's JSON; it is read into
those classes by the Python package's own reader, and every message that reader does not
know, or cannot read, is kept as a `TsMessage` of its type, never dropped: what the
TypeScript SDK yields is exactly what the probe sees, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class TsMessage:
    """A message the TypeScript SDK yielded that the shared message types do not model;
    `type` and `subtype` as the SDK gave them, `data` the whole message."""

    type: str
    subtype: str | None
    data: dict[str, Any]


def neutral(raw: dict[str, Any]) -> Any:
    try:
        from claude_agent_sdk._internal.message_parser import parse_message

        parsed = parse_message(raw)
    except Exception:  # a shape the Python types do not take: kept whole
        parsed = None
    if parsed is None:
        return TsMessage(str(raw.get("type")), raw.get("subtype"), raw)
    return parsed
