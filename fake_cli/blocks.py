"""Content blocks, one vocabulary for both doubles: fake-CLI scenarios and model-double scripts.

Standard library only, so the fake CLI and the harness can both import it. A tool_use
block without an id gets one from whoever plays it (numbered, the same on every run).
"""

from __future__ import annotations

from typing import Any


def text(s: str) -> dict[str, Any]:
    return {"type": "text", "text": s}


def tool_use(name: str, input: dict[str, Any], id: str | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "id": id, "name": name, "input": input}


def thinking(s: str, signature: str = "sig-double") -> dict[str, Any]:
    return {"type": "thinking", "thinking": s, "signature": signature}


def redacted_thinking(data: str = "redacted-double") -> dict[str, Any]:
    """Thinking the API returns encrypted: the client sees only an opaque `data` string."""
    return {"type": "redacted_thinking", "data": data}


def image(data: str, media_type: str = "image/png") -> dict[str, Any]:
    """An image block with base64 `data` (as a tool result or user content carries one)."""
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}


def server_tool_use(name: str, input: dict[str, Any], id: str) -> dict[str, Any]:
    """A tool the API runs itself (web_search, ...): the model calls it, no client runs it."""
    return {"type": "server_tool_use", "id": id, "name": name, "input": input}


def web_search_tool_result(tool_use_id: str, content: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The API's result for a server_tool_use web_search call."""
    return {"type": "web_search_tool_result", "tool_use_id": tool_use_id, "content": content or []}


def as_block(b: dict[str, Any] | str) -> dict[str, Any]:
    """A block as given, or a text block for a plain string."""
    return text(b) if isinstance(b, str) else b
