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


def as_block(b: dict[str, Any] | str) -> dict[str, Any]:
    """A block as given, or a text block for a plain string."""
    return text(b) if isinstance(b, str) else b
