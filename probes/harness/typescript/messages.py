"""The messages the TypeScript SDK yields, read by sdkprobe itself into the harness's names.

Probes are written once and read a message by its kind's name (`ResultMessage`,
`AssistantMessage`, ...) and attributes (`m.result`, `m.content`, `block.name`). For a
TypeScript run those names are given here, by a table of sdkprobe's own, to the JSON the
TypeScript SDK yielded; no code of the Python SDK reads it, so what the Python package
installed beside the release makes of a message decides nothing on TypeScript.

What the reader does, and nothing else:
- a message's kind is named from its `type` (and, for `system`, its `subtype`) by `KINDS`;
  a `type` the table does not name is a `TsMessage`;
- every field the message has is an attribute under its own name; a field it lacks reads as
  None, as it reads `undefined` in TypeScript;
- the few names probes use for what lies one level down are read there (`ALIASES`): an
  assistant's or user's `content`, `model`, `usage` are those of its `message`, a result's
  `model_usage` is its `modelUsage`, a task update's `status` is its patch's;
- a content block is named from its `type` (`tool_use` -> `ToolUseBlock`), its fields
  attributes as they are; a system message's (or a `TsMessage`'s) `data` is the whole message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (type, subtype or None for any) -> the name probes know the kind by
KINDS: dict[tuple[str, str | None], str] = {
    ("assistant", None): "AssistantMessage",
    ("user", None): "UserMessage",
    ("result", None): "ResultMessage",
    ("stream_event", None): "StreamEvent",
    ("rate_limit_event", None): "RateLimitEvent",
    ("conversation_reset", None): "ConversationResetMessage",
    ("system", "task_started"): "TaskStartedMessage",
    ("system", "task_progress"): "TaskProgressMessage",
    ("system", "task_notification"): "TaskNotificationMessage",
    ("system", "task_updated"): "TaskUpdatedMessage",
    ("system", "hook_started"): "HookEventMessage",
    ("system", "hook_response"): "HookEventMessage",
    ("system", "mirror_error"): "MirrorErrorMessage",
    ("system", None): "SystemMessage",
}


def _inner(key: str) -> Callable[[dict[str, Any]], Any]:
    def read(raw: dict[str, Any]) -> Any:
        inner = raw.get("message")
        return inner.get(key) if isinstance(inner, dict) else None

    return read


def _content(raw: dict[str, Any]) -> Any:
    """A message's content: a list of blocks, each named by its type; text as it is."""
    content = _inner("content")(raw)
    if not isinstance(content, list):
        return content
    return [_named(_block_name(b.get("type")))(b, {}) if isinstance(b, dict) else b for b in content]


def _patch_status(raw: dict[str, Any]) -> Any:
    patch = raw.get("patch")
    return patch.get("status") if isinstance(patch, dict) else None


def _hook_event_name(raw: dict[str, Any]) -> Any:
    return raw.get("hook_event") or raw.get("hook_name") or raw.get("hook_event_name") or ""


def _whole(raw: dict[str, Any]) -> Any:
    return raw


# kind -> attribute -> where it is read from (a field of the message's own otherwise)
ALIASES: dict[str, dict[str, Callable[[dict[str, Any]], Any]]] = {
    "AssistantMessage": {
        "content": _content,
        "model": _inner("model"),
        "usage": _inner("usage"),
        "message_id": _inner("id"),
        "stop_reason": _inner("stop_reason"),
    },
    "UserMessage": {"content": _content},
    "ResultMessage": {"model_usage": lambda raw: raw.get("modelUsage")},
    "TaskUpdatedMessage": {"status": _patch_status},
    "HookEventMessage": {"hook_event_name": _hook_event_name},
}
_SYSTEM = {"data": _whole}


class TsMessage:
    """One message (or content block) as the TypeScript SDK yielded it, under the name
    `KINDS` gives its kind; `raw` is the JSON exactly as yielded."""

    def __init__(self, raw: dict[str, Any], aliases: dict[str, Callable[[dict[str, Any]], Any]]) -> None:
        self.raw = raw
        self._aliases = aliases

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "raw":
            raise AttributeError(name)
        read = self._aliases.get(name)
        return read(self.raw) if read is not None else self.raw.get(name)

    def as_fields(self) -> dict[str, Any]:
        """Its fields as yielded, with the names `ALIASES` reads one level down over them."""
        return {**self.raw, **{name: read(self.raw) for name, read in self._aliases.items()}}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.raw!r})"


_CLASSES: dict[str, type[TsMessage]] = {"TsMessage": TsMessage}


def _named(name: str) -> type[TsMessage]:
    """The class a kind is known by, made once: `type(m).__name__` is the kind's name."""
    if name not in _CLASSES:
        _CLASSES[name] = type(name, (TsMessage,), {"__doc__": f"A {name} the TypeScript SDK yielded."})
    return _CLASSES[name]


def kind(raw: dict[str, Any]) -> str:
    """The name a message is known by to probes (`TsMessage` for a type `KINDS` lacks)."""
    typ, subtype = str(raw.get("type")), raw.get("subtype")
    return KINDS.get((typ, subtype)) or KINDS.get((typ, None)) or "TsMessage"


def neutral(raw: dict[str, Any]) -> TsMessage:
    """A message the TypeScript SDK yielded, as probes read it (see the module's docstring)."""
    name = kind(raw)
    aliases = dict(ALIASES.get(name, {}))
    if raw.get("type") == "system" or name == "TsMessage":
        aliases.update(_SYSTEM)
    return _named(name)(raw, aliases)


def _block_name(typ: Any) -> str:
    return "".join(part.capitalize() for part in str(typ).split("_")) + "Block"
