"""What the double recorded: one request, with accessors for what probes read
(tools offered, the deferred-tool list, system text, tool results)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_DEFERRED_MARK = "deferred tools are now available via ToolSearch"
_DEFERRED_BLOCK = "<available-deferred-tools>"


@dataclass
class Recorded:
    """One request the double received, in arrival order."""

    index: int
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any
    route: str | None = None
    scripted: bool = True
    status: int = 200

    @property
    def unscripted(self) -> bool:
        return not self.scripted

    @property
    def is_messages(self) -> bool:
        return self.path == "/v1/messages"

    @property
    def tools(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("tools") or []) if isinstance(self.body, dict) else []

    @property
    def tool_names(self) -> list[str]:
        return [str(t.get("name")) for t in self.tools]

    def tool_schema(self, name: str) -> dict[str, Any] | None:
        for t in self.tools:
            if t.get("name") == name:
                return t.get("input_schema")
        return None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or []) if isinstance(self.body, dict) else []

    @property
    def model(self) -> str | None:
        """The model the request named (a subagent's request names the subagent's model)."""
        model = self.body.get("model") if isinstance(self.body, dict) else None
        return model if isinstance(model, str) else None

    @property
    def unanswered_tool_uses(self) -> list[str]:
        """Ids of assistant tool_use blocks with no tool_result in the user message right
        after them: what the real API answers 400 for. A trailing assistant message
        (a prefill) is not a turn awaiting results and is not counted."""
        messages = self.messages
        missing: list[str] = []
        for i, m in enumerate(messages[:-1]):
            content = m.get("content")
            if m.get("role") != "assistant" or not isinstance(content, list):
                continue
            ids = [b.get("id") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
            after = messages[i + 1].get("content") if messages[i + 1].get("role") == "user" else None
            blocks = after if isinstance(after, list) else []
            answered = {b.get("tool_use_id") for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result"}
            missing += [str(x) for x in ids if x not in answered]
        return missing

    @property
    def system_text(self) -> str:
        """The `system` parameter as one string (blocks joined by newlines)."""
        system = self.body.get("system") if isinstance(self.body, dict) else None
        if isinstance(system, str):
            return system
        return "\n".join(b.get("text", "") for b in system or [] if isinstance(b, dict))

    def texts(self, role: str | None = None) -> list[str]:
        """Every text in the messages (string contents and text blocks), optionally of one role."""
        out = []
        for m in self.messages:
            if role and m.get("role") != role:
                continue
            content = m.get("content")
            if isinstance(content, str):
                out.append(content)
            else:
                out.extend(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")
        return out

    def carries(self, text: str, role: str = "user") -> bool:
        """Whether a message text of `role` (the user's, by default) contains `text`."""
        return any(text in t for t in self.texts(role))

    @property
    def context_text(self) -> str:
        """System text and every message text, for "is X mentioned anywhere" checks."""
        return "\n".join([self.system_text, *self.texts()])

    @property
    def deferred_tools(self) -> list[str]:
        """Tool names the CLI announced as deferred (reachable only through ToolSearch): in
        a "deferred tools are now available" message, or (CLI 2.1.97) one name a line
        inside <available-deferred-tools>...</available-deferred-tools>."""
        for t in self.texts():
            start = t.find(_DEFERRED_BLOCK)
            if start >= 0:
                body = t[start + len(_DEFERRED_BLOCK) :].split("</available-deferred-tools>", 1)[0]
                return [line.strip() for line in body.splitlines() if line.strip()]
            at = t.find(_DEFERRED_MARK)
            if at < 0:
                continue
            names: list[str] = []
            for line in t[at:].splitlines()[1:]:
                line = line.strip()
                if not line or line.startswith("<"):
                    if names:
                        break
                    continue
                names.append(line.split()[0].lstrip("-*").strip())
            return [n for n in names if n]
        return []

    @property
    def loaded_tools(self) -> list[str]:
        """Names in `tools` the API loads into context (not marked `defer_loading`)."""
        return [str(t.get("name")) for t in self.tools if not t.get("defer_loading")]

    @property
    def offered_tools(self) -> list[str]:
        """Tools the model can see or load by name: loaded tools plus the deferred list.

        A `defer_loading` entry that the deferred list does not name (the CLI's
        DeferredToolPlaceholder) is machinery, not an offer, and is left out.
        """
        loaded = self.loaded_tools
        return loaded + [n for n in self.deferred_tools if n not in loaded]

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        """tool_result blocks of the last user message (what the previous tool_use gave)."""
        for m in reversed(self.messages):
            if m.get("role") == "user" and isinstance(m.get("content"), list):
                return [b for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
        return []

    def tool_result(self, tool_use_id: str) -> dict[str, Any] | None:
        for m in self.messages:
            content = m.get("content")
            for b in content if isinstance(content, list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") == tool_use_id:
                    return b
        return None

    def summary(self) -> dict[str, Any]:
        """A small dict for debugging and observations (no bodies)."""
        return {"path": self.path, "route": self.route, "scripted": self.scripted, "status": self.status}


def result_text(block: dict[str, Any] | None) -> str:
    """The text of a tool_result block, whatever shape its content has."""
    if not block:
        return ""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(c.get("text", "") for c in content or [] if isinstance(c, dict))
