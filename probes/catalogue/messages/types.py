"""Which class each line of the CLI's output becomes, and that no field, block or unknown kind is
lost on the way."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, TypedDict

from packaging.version import Version

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.messages.support import kind_of
from sdkprobe.harness import (
    MAIN,
    Harness,
    Scenario,
    image,
    published_version,
    redacted_thinking,
    reply,
    sdk_class,
    sdk_name,
    server_tool_use,
    tool_use,
    web_search_tool_result,
)
from sdkprobe.harness import text as text_block

# --- messages.rate-limit-and-unknown-types-survive -------------------------------------

_ODD_LINES: dict[str, tuple[str, Callable[[Scenario], Scenario]]] = {
    # sub-check: (the line the fake puts between the assistant message and the result, how)
    "full-rate-limit-event-survives": ("a rate_limit_event", lambda s: s.rate_limit_event()),
    "unknown-type-survives": ("a 'future_thing' message", lambda s: s.emit({"type": "future_thing"})),
    "rate-limit-event-without-uuid-survives": (
        "a rate_limit_event without uuid",
        lambda s: s.rate_limit_event(omit=("uuid",)),
    ),
}


class Survived(TypedDict):  # one sub-check's run: the kinds yielded (but SystemMessage), what it raised
    yielded: list[str]
    error: str | None


@behaviour(
    id="messages.rate-limit-and-unknown-types-survive",
    claim=(
        "A rate_limit_event line from the CLI, or a line of a message type the SDK does not know, never ends "
        "the query: the turn's result still arrives."
    ),
    summary="A rate_limit_event or an unknown message type never ends the query",
    source=("py#599", "report"),
    tier="wire",
    checks=tuple(_ODD_LINES),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
)
async def rate_limit_and_unknown_types_survive(h: Harness) -> dict[str, Survived]:
    seen: dict[str, Survived] = {}
    for name, (_, odd_line) in _ODD_LINES.items():
        run = await h.wire("hi", scenario=odd_line(Scenario().wait_for_user().init().assistant("a")).result())
        seen[name] = {
            "yielded": [kind_of(m) for m in run.messages if kind_of(m) != "SystemMessage"],
            "error": run.error_line,
        }
    return seen


@rate_limit_and_unknown_types_survive.decide
def _(seen: dict[str, Survived]) -> dict[str, Check]:
    return {
        name: check(
            "ResultMessage" in seen[name]["yielded"] and seen[name]["error"] is None,
            f"after {_ODD_LINES[name][0]} line the SDK yielded {seen[name]['yielded']} "
            f"and raised {seen[name]['error']}",
        )
        for name in _ODD_LINES
    }


rate_limit_and_unknown_types_survive.differs_on(
    {
        name: {"yielded": ["AssistantMessage"], "error": "MessageParseError: Unknown message type: x"}
        for name in _ODD_LINES
    }
)


# --- messages.every-content-block-kept -------------------------------------------------

_OPAQUE = "SDKPROBE-OPAQUE"
_ASSISTANT_BLOCKS = [
    redacted_thinking(_OPAQUE),
    text_block("visible"),
    image("aGk="),
    web_search_tool_result("srvtoolu_probe"),
    server_tool_use("web_search", {"query": "q"}, "srvtoolu_probe"),
]
_USER_BLOCKS = [text_block("look"), image("aGk=")]


def _block_names(m: Any) -> list[str]:
    content = getattr(m, "content", None)
    return [type(b).__name__ for b in content] if isinstance(content, list) else []


CliBlocks = TypedDict(
    "CliBlocks",
    {
        "cli sent": list[str],  # the block types of the CLI's assistant lines
        "sdk yielded": list[str],  # the block classes of the AssistantMessages
        "opaque data yielded": bool,
        "block in the next request": list[str],
        "error": str | None,
    },
)


class BlocksSeen(TypedDict):
    wire: dict[str, Any]  # "assistant sent", "assistant yielded", "user sent", "user yielded" (read by role), "error"
    cli: CliBlocks


@behaviour(
    id="messages.every-content-block-kept",
    renamed_from=("messages.unmodelled-blocks-dropped",),
    claim=(
        "AssistantMessage.content and UserMessage.content hold every content block the CLI sent: "
        "redacted_thinking, image and server tool results included."
    ),
    summary="Message content keeps every block the CLI sent, redacted thinking and images too",
    source=("py#27", "report"),
    tier="cli",
    checks=("assistant-keeps-every-block", "user-keeps-every-block", "cli-redacted-thinking-reaches-caller"),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
)
async def every_content_block_kept(h: Harness) -> BlocksSeen:
    scenario = Scenario().wait_for_user().init().assistant(*_ASSISTANT_BLOCKS).user(*_USER_BLOCKS).result()
    run = await h.wire("hi", scenario=scenario)
    assistant, user = run.of_type("AssistantMessage"), run.of_type("UserMessage")

    # The real CLI, the model answering with redacted thinking, text and a Read (so that a
    # second request shows whether the CLI hands the block back to the API).
    (h.cwd / "note.txt").write_text("a note\n")
    call = tool_use("Read", {"file_path": str(h.cwd / "note.txt")}, "toolu_probe_read")
    session = await h.cli(
        "read the note",
        script=[reply(redacted_thinking(_OPAQUE), text_block("reading"), call), "done"],
        record_stdout=True,
    )
    raw = [
        b.get("type")
        for line in session.stdout
        if isinstance(line, dict) and line.get("type") == "assistant"
        for b in (line.get("message") or {}).get("content") or []
    ]
    main = session.on(MAIN)
    sent_back = [
        b.get("type")
        for m in (main[1].messages if len(main) > 1 else [])
        if m.get("role") == "assistant" and isinstance(m.get("content"), list)
        for b in m["content"]
    ]
    return {
        "wire": {
            "assistant sent": [b["type"] for b in _ASSISTANT_BLOCKS],
            "assistant yielded": [_block_names(m) for m in assistant],
            "user sent": [b["type"] for b in _USER_BLOCKS],
            "user yielded": [_block_names(m) for m in user],
            "error": run.error_line,
        },
        "cli": {
            "cli sent": raw,
            "sdk yielded": [n for m in session.of_type("AssistantMessage") for n in _block_names(m)],
            "opaque data yielded": any(_OPAQUE in repr(m) for m in session.of_type("AssistantMessage")),
            "block in the next request": sent_back,
            "error": session.error_line,
        },
    }


@every_content_block_kept.decide
def _(seen: BlocksSeen) -> dict[str, Check]:
    w, c = seen["wire"], seen["cli"]

    def kept(role: str) -> Check:
        sent, got = w[f"{role} sent"], w[f"{role} yielded"]
        return check(
            len(got) == 1 and len(got[0]) == len(sent),
            f"the {role} line of {sent} was yielded as {got if got else 'nothing'}",
        )

    return {
        "assistant-keeps-every-block": kept("assistant"),
        "user-keeps-every-block": kept("user"),
        "cli-redacted-thinking-reaches-caller": check(
            "redacted_thinking" in c["cli sent"] and c["opaque data yielded"],
            f"the CLI sent blocks {c['cli sent']}; the SDK yielded {c['sdk yielded']} "
            f"(the next request carried {c['block in the next request'] or 'no assistant blocks'}; error {c['error']})",
        ),
    }


every_content_block_kept.differs_on(
    {
        "wire": {
            "assistant sent": [b["type"] for b in _ASSISTANT_BLOCKS],
            "assistant yielded": [["TextBlock", "ServerToolUseBlock"]],
            "user sent": [b["type"] for b in _USER_BLOCKS],
            "user yielded": [["TextBlock"]],
            "error": None,
        },
        "cli": {
            "cli sent": ["redacted_thinking", "text", "tool_use"],
            "sdk yielded": ["TextBlock", "ToolUseBlock"],
            "opaque data yielded": False,
            "block in the next request": ["redacted_thinking", "text", "tool_use"],
            "error": None,
        },
    }
)

_SESSION = "fake-session"
_PARENT = "toolu_probe_parent"
_CLASS = "__class__"  # the key a normalised dataclass carries its class name under


def _uuid(kind: str) -> str:
    return f"sdkprobe-{kind}"


# A documented field some listed Python releases lack: (class, field) -> the first listed release
# seen carrying it. Any other documented field every release with the class has, so its absence
# is a field dropped or renamed, never one older than this SDK.
_SINCE: dict[tuple[str, str], str] = {
    **{("AssistantMessage", f): "0.1.51" for f in ("usage", "message_id", "stop_reason", "session_id", "uuid")},
    ("UserMessage", "tool_use_result"): "0.1.33",
    ("ResultMessage", "deferred_tool_use"): "0.1.81",
    ("ResultMessage", "terminal_reason"): "0.2.139",
    ("ResultMessage", "origin"): "0.2.139",
    **{
        (c, f): "0.2.189"
        for c in ("AssistantMessage", "ResultMessage")
        for f in ("user_message_uuid", "user_message_uuids")
    },
}
_PYTHON = "claude-agent-sdk"


def _expected(cls: str, name: str, sdk: dict[str, str]) -> bool:
    """Whether the SDK under test documents the field: always, but on a Python release older than
    the field's first one (a TypeScript release's messages come as the installed Python types)."""
    since = _SINCE.get((cls, name))
    return since is None or sdk["name"] != _PYTHON or Version(sdk["version"]) >= Version(since)


# --- the lines, as the CLI writes them ---------------------------------------------------

_TEXT = {"type": "text", "text": "sdkprobe-assistant: a text block"}  # the marker, for classes without uuid
_THINKING = {"type": "thinking", "thinking": "sdkprobe thinking", "signature": "sig-probe"}
_TOOL_USE = {"type": "tool_use", "id": "toolu_probe_1", "name": "Bash", "input": {"command": "ls"}}
_SERVER_USE = {"type": "server_tool_use", "id": "srvtoolu_probe_1", "name": "advisor", "input": {"q": "why"}}
_SERVER_RESULT: dict[str, Any] = {
    "type": "advisor_tool_result",
    "tool_use_id": "srvtoolu_probe_1",
    "content": {"type": "advisor_result", "text": "advice"},
}
_TOOL_RESULT = {
    "type": "tool_result",
    "tool_use_id": "toolu_probe_1",
    "content": "sdkprobe-user: file-a",
    "is_error": False,
}
_USAGE = {"input_tokens": 3, "output_tokens": 5}
_TASK_USAGE = {"total_tokens": 120, "tool_uses": 2, "duration_ms": 900}

_ASSISTANT = {
    "type": "assistant",
    "uuid": _uuid("assistant"),
    "session_id": _SESSION,
    "parent_tool_use_id": _PARENT,
    "error": "rate_limit",
    "user_message_uuid": "sdkprobe-prompt",
    "user_message_uuids": ["sdkprobe-prompt"],
    "message": {
        "id": "msg_probe_1",
        "type": "message",
        "role": "assistant",
        "model": "fake-model",
        "content": [_TEXT, _THINKING, _TOOL_USE, _SERVER_USE, _SERVER_RESULT],
        "stop_reason": "tool_use",
        "usage": _USAGE,
    },
}
_USER = {
    "type": "user",
    "uuid": _uuid("user"),
    "session_id": _SESSION,
    "parent_tool_use_id": _PARENT,
    "tool_use_result": {"stdout": "file-a\nfile-b", "stderr": "", "interrupted": False},
    "message": {"role": "user", "content": [_TOOL_RESULT]},
}
_HOOK_STARTED = {
    "type": "system",
    "subtype": "hook_started",
    "hook_id": "hook-probe-1",
    "hook_name": "PreToolUse:Bash",
    "hook_event": "PreToolUse",
    "uuid": _uuid("hook-started"),
    "session_id": _SESSION,
}
_HOOK_RESPONSE = {
    **_HOOK_STARTED,
    "subtype": "hook_response",
    "output": "",
    "stdout": "",
    "stderr": "",
    "exit_code": 0,
    "outcome": "success",
    "uuid": _uuid("hook-response"),
}
_TASK_STARTED = {
    "type": "system",
    "subtype": "task_started",
    "task_id": "task-probe-1",
    "tool_use_id": "toolu_probe_task",
    "description": "probe a task",
    "task_type": "local_agent",
    "uuid": _uuid("task-started"),
    "session_id": _SESSION,
}
_TASK_PROGRESS = {
    "type": "system",
    "subtype": "task_progress",
    "task_id": "task-probe-1",
    "tool_use_id": "toolu_probe_task",
    "description": "probe a task",
    "usage": _TASK_USAGE,
    "last_tool_name": "Read",
    "uuid": _uuid("task-progress"),
    "session_id": _SESSION,
}
_TASK_NOTIFICATION = {
    "type": "system",
    "subtype": "task_notification",
    "task_id": "task-probe-1",
    "tool_use_id": "toolu_probe_task",
    "status": "completed",
    "output_file": "/sdkprobe/tasks/task-probe-1.output",
    "summary": "the task is done",
    "usage": _TASK_USAGE,
    "uuid": _uuid("task-notification"),
    "session_id": _SESSION,
}
_TASK_UPDATED = {
    "type": "system",
    "subtype": "task_updated",
    "task_id": "task-probe-2",
    "patch": {"status": "killed", "end_time": 1700000000000},
    "uuid": _uuid("task-updated"),
    "session_id": _SESSION,
}
# The frame the SDK itself puts in the stream when a SessionStore.append fails
# (Query.report_mirror_error): it goes through the same parser as a CLI line.
_MIRROR_ERROR = {
    "type": "system",
    "subtype": "mirror_error",
    "error": "append failed: sdkprobe store down",
    "key": {"project_key": "sdkprobe-project", "session_id": _SESSION},
    "uuid": _uuid("mirror-error"),
    "session_id": _SESSION,
}
_RATE_LIMIT = {
    "type": "rate_limit_event",
    "uuid": _uuid("rate-limit"),
    "session_id": _SESSION,
    "rate_limit_info": {
        "status": "allowed_warning",
        "resetsAt": 1700003600,
        "rateLimitType": "five_hour",
        "utilization": 0.9,
        "overageStatus": "rejected",
        "overageResetsAt": 1700007200,
        "overageDisabledReason": "out_of_credits",
    },
}
_RESET = {
    "type": "conversation_reset",
    "new_conversation_id": "sdkprobe-new-conversation",
    "uuid": _uuid("conversation-reset"),
    "session_id": _SESSION,
}
_RESULT = {
    "type": "result",
    "subtype": "success",
    "is_error": False,
    "duration_ms": 1234,
    "duration_api_ms": 1000,
    "num_turns": 2,
    "session_id": _SESSION,
    "stop_reason": "end_turn",
    "total_cost_usd": 0.0125,
    "usage": _USAGE,
    "result": "sdkprobe-result: the answer",
    "structured_output": {"answer": "42"},
    "modelUsage": {"fake-model": {"inputTokens": 3, "outputTokens": 5, "costUSD": 0.0125}},
    "permission_denials": [{"tool_name": "Write", "tool_use_id": "toolu_probe_2", "tool_input": {}}],
    "errors": [],
    "uuid": _uuid("result"),
    "terminal_reason": "completed",
    "origin": {"kind": "human"},
    "user_message_uuid": "sdkprobe-prompt",
    "user_message_uuids": ["sdkprobe-prompt"],
}
_INIT_UUID = _uuid("system-init")

# --- what each line must be yielded as ---------------------------------------------------

# sub-check: (class, the marking uuids of its lines, {field: the value it must carry}, the fields
# every version of the class has); "data" stands for the whole line of that uuid
_DATA = "<the whole line>"
_MESSAGES: dict[str, tuple[str, tuple[str, ...], dict[str, Any], tuple[str, ...]]] = {
    "assistant-message": (
        "AssistantMessage",
        (_uuid("assistant"),),
        {
            "model": "fake-model",
            "parent_tool_use_id": _PARENT,
            "error": "rate_limit",
            "usage": _USAGE,
            "message_id": "msg_probe_1",
            "stop_reason": "tool_use",
            "session_id": _SESSION,
            "uuid": _uuid("assistant"),
            "user_message_uuid": "sdkprobe-prompt",
            "user_message_uuids": ["sdkprobe-prompt"],
        },
        ("content", "model"),
    ),
    "user-message": (
        "UserMessage",
        (_uuid("user"),),
        {"uuid": _uuid("user"), "parent_tool_use_id": _PARENT, "tool_use_result": _USER["tool_use_result"]},
        ("content",),
    ),
    "system-message": ("SystemMessage", (_INIT_UUID,), {"subtype": "init", "data": _DATA}, ("subtype", "data")),
    "hook-event-message": (
        "HookEventMessage",
        (_uuid("hook-started"), _uuid("hook-response")),
        {"hook_event_name": "PreToolUse", "data": _DATA, "session_id": _SESSION},
        ("subtype", "data", "hook_event_name"),
    ),
    "task-started-message": (
        "TaskStartedMessage",
        (_uuid("task-started"),),
        {
            "subtype": "task_started",
            "data": _DATA,
            "task_id": "task-probe-1",
            "description": "probe a task",
            "uuid": _uuid("task-started"),
            "session_id": _SESSION,
            "tool_use_id": "toolu_probe_task",
            "task_type": "local_agent",
        },
        ("subtype", "data", "task_id", "description"),
    ),
    "task-progress-message": (
        "TaskProgressMessage",
        (_uuid("task-progress"),),
        {
            "subtype": "task_progress",
            "data": _DATA,
            "task_id": "task-probe-1",
            "description": "probe a task",
            "usage": _TASK_USAGE,
            "uuid": _uuid("task-progress"),
            "session_id": _SESSION,
            "tool_use_id": "toolu_probe_task",
            "last_tool_name": "Read",
        },
        ("subtype", "data", "task_id", "usage"),
    ),
    "task-notification-message": (
        "TaskNotificationMessage",
        (_uuid("task-notification"),),
        {
            "subtype": "task_notification",
            "data": _DATA,
            "task_id": "task-probe-1",
            "status": "completed",
            "output_file": "/sdkprobe/tasks/task-probe-1.output",
            "summary": "the task is done",
            "uuid": _uuid("task-notification"),
            "session_id": _SESSION,
            "tool_use_id": "toolu_probe_task",
            "usage": _TASK_USAGE,
        },
        ("subtype", "data", "task_id", "status", "summary"),
    ),
    "task-updated-message": (
        "TaskUpdatedMessage",
        (_uuid("task-updated"),),
        {
            "subtype": "task_updated",
            "data": _DATA,
            "task_id": "task-probe-2",
            "patch": _TASK_UPDATED["patch"],
            "status": "killed",
            "session_id": _SESSION,
            "uuid": _uuid("task-updated"),
        },
        ("subtype", "data", "task_id", "patch"),
    ),
    "mirror-error-message": (
        "MirrorErrorMessage",
        (_uuid("mirror-error"),),
        {"subtype": "mirror_error", "data": _DATA, "key": _MIRROR_ERROR["key"], "error": _MIRROR_ERROR["error"]},
        ("subtype", "data", "key", "error"),
    ),
    "rate-limit-event": (
        "RateLimitEvent",
        (_uuid("rate-limit"),),
        {
            "uuid": _uuid("rate-limit"),
            "session_id": _SESSION,
            "rate_limit_info": {
                _CLASS: "RateLimitInfo",
                "status": "allowed_warning",
                "resets_at": 1700003600,
                "rate_limit_type": "five_hour",
                "utilization": 0.9,
                "overage_status": "rejected",
                "overage_resets_at": 1700007200,
                "overage_disabled_reason": "out_of_credits",
                "raw": _RATE_LIMIT["rate_limit_info"],
            },
        },
        ("rate_limit_info",),
    ),
    "conversation-reset-message": (
        "ConversationResetMessage",
        (_uuid("conversation-reset"),),
        {
            "new_conversation_id": "sdkprobe-new-conversation",
            "uuid": _uuid("conversation-reset"),
            "session_id": _SESSION,
        },
        ("new_conversation_id",),
    ),
    "result-message": (
        "ResultMessage",
        (_uuid("result"),),
        {
            "subtype": "success",
            "duration_ms": 1234,
            "duration_api_ms": 1000,
            "is_error": False,
            "num_turns": 2,
            "session_id": _SESSION,
            "stop_reason": "end_turn",
            "total_cost_usd": 0.0125,
            "usage": _USAGE,
            "result": "sdkprobe-result: the answer",
            "structured_output": {"answer": "42"},
            "model_usage": _RESULT["modelUsage"],
            "permission_denials": _RESULT["permission_denials"],
            "deferred_tool_use": None,
            "errors": [],
            "uuid": _uuid("result"),
            "terminal_reason": "completed",
            "origin": {"kind": "human"},
            "user_message_uuid": "sdkprobe-prompt",
            "user_message_uuids": ["sdkprobe-prompt"],
        },
        ("subtype", "duration_ms", "is_error", "num_turns", "session_id", "result"),
    ),
}
# sub-check: (class, the message carrying it, the block on the wire, {field: value})
_BLOCKS: dict[str, tuple[str, str, dict[str, Any], dict[str, Any]]] = {
    "text-block": ("TextBlock", "assistant-message", _TEXT, {"text": _TEXT["text"]}),
    "thinking-block": (
        "ThinkingBlock",
        "assistant-message",
        _THINKING,
        {"thinking": _THINKING["thinking"], "signature": _THINKING["signature"]},
    ),
    "tool-use-block": (
        "ToolUseBlock",
        "assistant-message",
        _TOOL_USE,
        {"id": _TOOL_USE["id"], "name": "Bash", "input": _TOOL_USE["input"]},
    ),
    "server-tool-use-block": (
        "ServerToolUseBlock",
        "assistant-message",
        _SERVER_USE,
        {"id": _SERVER_USE["id"], "name": "advisor", "input": _SERVER_USE["input"]},
    ),
    "server-tool-result-block": (
        "ServerToolResultBlock",
        "assistant-message",
        _SERVER_RESULT,
        {"tool_use_id": _SERVER_RESULT["tool_use_id"], "content": _SERVER_RESULT["content"]},
    ),
    "tool-result-block": (
        "ToolResultBlock",
        "user-message",
        _TOOL_RESULT,
        {"tool_use_id": _TOOL_RESULT["tool_use_id"], "content": _TOOL_RESULT["content"], "is_error": False},
    ),
}
_LINES = {
    line["uuid"]: line
    for line in (
        _ASSISTANT,
        _USER,
        _HOOK_STARTED,
        _HOOK_RESPONSE,
        _TASK_STARTED,
        _TASK_PROGRESS,
        _TASK_NOTIFICATION,
        _TASK_UPDATED,
        _MIRROR_ERROR,
        _RATE_LIMIT,
        _RESET,
    )
}


def _json_ready(value: Any) -> Any:
    """`value` as JSON data: a dataclass as a dict of its fields plus its class name."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _json_ready(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {_CLASS: type(value).__name__, **fields}
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return f"<{type(value).__name__}>"


def _record(message: Any) -> dict[str, Any]:
    """A yielded message: its class, whether it is a SystemMessage, its fields."""
    system = sdk_class("SystemMessage")
    fields = _json_ready(message)
    if not isinstance(fields, dict):
        fields = {_CLASS: type(message).__name__}
    return {"is SystemMessage": system is not None and isinstance(message, system), **fields}


LinesSeen = TypedDict(
    "LinesSeen",
    {
        "sdk": dict[str, str],  # its name and version
        "classes the SDK has": list[str],
        "yielded": list[dict[str, Any]],  # each message as _record gives it
        "error": str | None,
    },
)


@behaviour(
    id="messages.every-line-kind-typed",
    claim=(
        "Each stream-json line kind the SDK's parser knows is yielded as its own class with every documented "
        "field carrying the line's value: assistant and user lines as AssistantMessage / UserMessage with "
        "TextBlock, ThinkingBlock, ToolUseBlock, ToolResultBlock, ServerToolUseBlock (server_tool_use) and "
        "ServerToolResultBlock (advisor_tool_result) blocks; system lines as SystemMessage, and its subclasses "
        "HookEventMessage (hook_started / hook_response), TaskStarted/Progress/Notification/UpdatedMessage and "
        "MirrorErrorMessage (the SDK's own mirror_error frame) keeping subtype and the raw line as data; "
        "rate_limit_event as RateLimitEvent with a RateLimitInfo; conversation_reset as "
        "ConversationResetMessage; result as ResultMessage."
    ),
    summary="Every stream-json line kind is yielded as its own class, each field filled",
    source=("sdk-py", "claude_agent_sdk.types Message"),
    tier="wire",
    checks=(*_MESSAGES, *_BLOCKS),
    requires=("api:SystemMessage",),  # the classes a parser fills; a TypeScript release has none
    pins={name: (f"message:{cls}",) for name, (cls, *_) in {**_MESSAGES, **_BLOCKS}.items()},
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
)
async def every_line_kind_typed(h: Harness) -> LinesSeen:
    scenario = Scenario().wait_for_user().init(uuid=_INIT_UUID)
    for line in _LINES.values():
        scenario.emit(line)
    run = await h.wire("hi", scenario=scenario.emit(_RESULT))
    classes = sorted({c for c, *_ in _MESSAGES.values()} | {c for c, *_ in _BLOCKS.values()})
    return {
        "sdk": {"name": sdk_name(), "version": published_version()},
        "classes the SDK has": [c for c in classes if sdk_class(c) is not None],
        "yielded": [_record(m) for m in run.messages],
        "error": run.error_line,
    }


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _carrying(yielded: list[dict[str, Any]], marker: str) -> dict[str, Any] | None:
    """The yielded message carrying the marker of one line (its uuid, or in a text of it)."""
    for record in yielded:
        if any(marker in s for s in _strings(record)):
            return record
    return None


_UNKNOWN_TYPE = re.compile(r"Unknown message type: (\w+)")
# the order the fake writes the lines in (the result last)
_ORDER = [_INIT_UUID, *_LINES, _uuid("result")]


def _never_read(seen: LinesSeen, marker: str) -> Check | None:
    """Not-applicable when the SDK raised on an earlier line of a type it does not know (a finding
    of messages.rate-limit-and-unknown-types-survive): this line was then never read."""
    found = _UNKNOWN_TYPE.search(seen["error"] or "")
    earlier = [m for m in _ORDER[: _ORDER.index(marker)] if _LINES.get(m, {}).get("type") == (found and found.group(1))]
    if found is None or not earlier:
        return None
    return undecidable(f"never read: the SDK raised {seen['error']} on the earlier {found.group(1)} line")


_TIMING = "<T>"  # what a stored observation holds for a timing (duration_ms, ...): any number


def _same(seen: Any, want: Any) -> bool:
    """`seen` is `want` as a report stores it: equal, a timing's number aside."""
    if seen == _TIMING and isinstance(want, (int, float)) and not isinstance(want, bool):
        return True
    if isinstance(seen, dict) and isinstance(want, dict):
        return seen.keys() == want.keys() and all(_same(seen[k], want[k]) for k in seen)
    if isinstance(seen, list) and isinstance(want, list):
        return len(seen) == len(want) and all(_same(a, b) for a, b in zip(seen, want, strict=True))
    return bool(seen == want) and type(seen) is type(want)


def _mismatches(record: dict[str, Any], fields: dict[str, Any], sdk: dict[str, str], marker: str) -> list[str]:
    """Each field that is missing or not the line's value (missing: only one this SDK documents)."""
    cls = str(record[_CLASS])
    wrong = [f"{name} missing" for name in fields if name not in record and _expected(cls, name, sdk)]
    for name, want in fields.items():
        if name not in record:
            continue  # reported above when this SDK documents it
        if want == _DATA and marker == _INIT_UUID:
            data = record[name] if isinstance(record[name], dict) else {}
            if (data.get("type"), data.get("subtype"), data.get("uuid")) != ("system", "init", _INIT_UUID):
                wrong.append(f"data={record[name]!r} (the line: the init line)")
            continue
        if want == _DATA:
            want = _LINES[marker]
        if not _same(record[name], want):
            wrong.append(f"{name}={record[name]!r} (the line: {want!r})")
    return wrong


def _message_check(seen: LinesSeen, name: str) -> Check:
    cls, markers, fields, core = _MESSAGES[name]
    problems: list[str] = []
    for marker in markers:
        record = _carrying(seen["yielded"], marker)
        if cls not in seen["classes the SDK has"]:
            did = "not yielded" if record is None else f"yielded as {record[_CLASS]}"
            return undecidable(f"this SDK has no {cls}; the line was {did} (error {seen['error']})")
        if record is None:
            never = _never_read(seen, marker)
            if never is not None:
                return never
            problems.append(f"the {marker} line was not yielded (error {seen['error']})")
            continue
        if record[_CLASS] != cls:
            problems.append(f"the {marker} line was yielded as {record[_CLASS]}")
            continue
        if _LINES.get(marker, {}).get("type") == "system" and not record["is SystemMessage"]:
            problems.append(f"the {cls} is not a SystemMessage")
        missing_core = [f"{marker}: {name} missing" for name in core if name not in record and name not in fields]
        problems += missing_core + [f"{marker}: {w}" for w in _mismatches(record, fields, seen["sdk"], marker)]
    return check(not problems, "; ".join(problems))


def _block_check(seen: LinesSeen, name: str) -> Check:
    cls, carrier, block, fields = _BLOCKS[name]
    message = _carrying(seen["yielded"], _MESSAGES[carrier][1][0])
    content = message.get("content") if message is not None else None
    blocks = content if isinstance(content, list) else []
    key = "tool_use_id" if "tool_use_id" in fields else "id" if "id" in fields else next(iter(fields))
    found = [b for b in blocks if isinstance(b, dict) and b.get(key) == block[key] and b.get(_CLASS) == cls]
    if cls not in seen["classes the SDK has"]:
        kinds = [b.get(_CLASS) for b in blocks if isinstance(b, dict)]
        return undecidable(f"this SDK has no {cls}; the {block['type']} block left the content as {kinds}")
    if message is None:
        return _never_read(seen, _MESSAGES[carrier][1][0]) or check(
            False, f"the line carrying the {block['type']} block was not yielded (error {seen['error']})"
        )
    if not found:
        shown = [b.get(_CLASS) if isinstance(b, dict) else b for b in blocks] if isinstance(content, list) else content
        return check(False, f"no {cls} for the {block['type']} block; the content was {shown}")
    wrong = [f"{k}={found[0].get(k)!r} (the block: {v!r})" for k, v in fields.items() if not _same(found[0].get(k), v)]
    return check(not wrong, f"the {cls}: " + "; ".join(wrong))


@every_line_kind_typed.decide
def _(seen: LinesSeen) -> dict[str, Check]:
    return {name: _message_check(seen, name) for name in _MESSAGES} | {
        name: _block_check(seen, name) for name in _BLOCKS
    }


def _counterexample(broken: bool) -> LinesSeen:
    """An observation where the parser broke: every line yielded as a bare SystemMessage with no
    blocks (`broken`), or each line as its class with every field but its marker gone to None."""
    yielded = []
    for cls, markers, fields, core in _MESSAGES.values():
        for marker in markers:
            if broken:
                yielded.append({_CLASS: "SystemMessage", "is SystemMessage": True, "uuid": marker, "content": []})
                continue
            record = {name: None for name in {*fields, *core}} | {_CLASS: cls, "is SystemMessage": True}
            record["marker"] = marker
            if cls == "AssistantMessage":
                record["content"] = [{_CLASS: c, **{k: None for k in f}} for c, _, _, f in _BLOCKS.values()]
            if cls == "UserMessage":
                record["content"] = [{_CLASS: "ToolResultBlock", "tool_use_id": _TOOL_RESULT["tool_use_id"]}]
            yielded.append(record)
    classes = sorted({c for c, *_ in _MESSAGES.values()} | {c for c, *_ in _BLOCKS.values()})
    sdk = {"name": _PYTHON, "version": "0.2.189"}
    return {"sdk": sdk, "classes the SDK has": classes, "yielded": yielded, "error": None}


def _holding(dropped: dict[str, tuple[str, ...]]) -> LinesSeen:
    """The newest Python release's observation, each line yielded as its class with the line's
    values, bar the fields `dropped` names per class (a release that lost or renamed them)."""
    yielded = []
    for cls, markers, fields, core in _MESSAGES.values():
        for marker in markers:
            line = _LINES.get(marker, {"type": "system", "subtype": "init", "uuid": _INIT_UUID})
            values = {name: line if want == _DATA else want for name, want in fields.items()}
            record = {name: values.get(name) for name in {*fields, *core} if name not in dropped.get(cls, ())}
            record |= {_CLASS: cls, "is SystemMessage": line.get("type") == "system"}
            if "content" in record:  # the blocks its line carries
                record["content"] = [
                    {_CLASS: c, **f} for c, carrier, _, f in _BLOCKS.values() if carrier == _carrier(cls)
                ]
            yielded.append(record)
    classes = sorted({c for c, *_ in _MESSAGES.values()} | {c for c, *_ in _BLOCKS.values()})
    sdk = {"name": _PYTHON, "version": "0.2.189"}
    return {"sdk": sdk, "classes the SDK has": classes, "yielded": yielded, "error": None}


def _carrier(cls: str) -> str:
    return next(name for name, (c, *_) in _MESSAGES.items() if c == cls)


every_line_kind_typed.differs_on(_counterexample(broken=True))
every_line_kind_typed.differs_on(_counterexample(broken=False))
# ResultMessage and AssistantMessage losing documented fields, the rest as the newest release has it
every_line_kind_typed.differs_on(
    _holding(
        {
            "ResultMessage": ("usage", "total_cost_usd", "model_usage", "structured_output"),
            "AssistantMessage": ("usage", "error", "stop_reason"),
        }
    )
)


# --- messages.every-declared-member-yielded ----------------------------------------------------

# What the TypeScript SDK declares (its SDKMessage union), as of the newest release recorded: the
# items this behaviour pins. A member or field a later release adds is still sent and judged, and
# the gate names it as added with what covers it. Each member's fields but `type`, `subtype` and
# the two every member has (session_id, uuid).
_EVERY_MEMBER = ("session_id", "uuid")
_RESULT_FIELDS = (
    "credential_expires_at duration_api_ms duration_ms fast_mode_disabled_reason fast_mode_state is_error "
    "modelUsage num_turns origin permission_denials queued_turn_count result_index resume_reason stop_reason "
    "terminal_reason total_cost_usd usage user_message_uuid user_message_uuids"
)
_RESULT_ERROR = f"{_RESULT_FIELDS} errors invalid_config_file startup_failure_reason"
_DECLARED_TS = {
    "assistant": (
        "aborted agent_id context_usage error message parent_tool_use_id request_id resume_reason "
        "resumed_from_incomplete_thinking subagent_type supersedes task_description timestamp usage_report "
        "user_message_uuid user_message_uuids"
    ),
    "auth_status": "error isAuthenticating output",
    "conversation_reset": "new_conversation_id timestamp trigger user_message_uuid",
    "prompt_suggestion": "suggestion",
    "rate_limit_event": "rate_limit_info",
    "result/error_during_execution": _RESULT_ERROR,
    "result/error_max_budget_usd": _RESULT_ERROR,
    "result/error_max_structured_output_retries": _RESULT_ERROR,
    "result/error_max_turns": _RESULT_ERROR,
    "result/success": (
        f"{_RESULT_FIELDS} api_error_status deferred_tool_use first_content_frame_ms first_stream_post_ack_ms "
        "first_stream_post_ms first_stream_post_queue_wait_ms first_stream_post_queued_behind "
        "first_stream_post_wall_ms first_text_post_ms first_text_post_queue_wait_ms first_text_post_queued_behind "
        "first_text_post_wall_ms local_command request_sent_wall_ms result structured_output time_origin_ms "
        "time_to_request_from_spawn_ms time_to_request_ms ttft_ms ttft_stream_ms warm_spare_claimed"
    ),
    "stream_event": "event parent_tool_use_id resume_reason ttft_ms user_message_uuid user_message_uuids",
    "system/api_retry": "attempt error error_status max_retries no_response retry_delay_ms",
    "system/background_tasks_changed": "tasks",
    "system/commands_changed": "commands",
    "system/compact_boundary": "compact_metadata",
    "system/control_request_progress": "attempt error_status max_retries request_id retry_delay_ms status",
    "system/elicitation_complete": "elicitation_id mcp_server_name",
    "system/files_persisted": "failed files processed_at",
    "system/hook_progress": "hook_event hook_id hook_name output stderr stdout",
    "system/hook_response": "exit_code hook_event hook_id hook_name outcome output stderr stdout",
    "system/hook_started": "hook_event hook_id hook_name",
    "system/informational": "content level prevent_continuation tag tool_use_id",
    "system/init": (
        "agents apiKeySource betas capabilities claude_code_version cwd effort fast_mode_disabled_reason "
        "fast_mode_state mcp_servers model output_style permissionMode plugin_errors plugins skills slash_commands "
        "terminal_slash_commands tools view_mode"
    ),
    "system/local_command_output": "content",
    "system/memory_recall": "memories mode",
    "system/mirror_error": "error key",
    "system/model_refusal_fallback": (
        "api_refusal_category api_refusal_explanation content direction fallback_model original_model "
        "refused_user_message_uuid request_id retracted_message_uuids scope trigger"
    ),
    "system/model_refusal_no_fallback": (
        "api_refusal_category api_refusal_explanation content original_model refused_user_message_uuid request_id"
    ),
    "system/notification": "color key priority text timeout_ms",
    "system/permission_denied": "agent_id decision_reason decision_reason_type message tool_name tool_use_id",
    "system/plugin_install": "error name status",
    "system/session_state_changed": "state",
    "system/session_writes_lost": "error_code lost transcript_session_ids",
    "system/status": "compact_error compact_result permissionMode status",
    "system/task_notification": (
        "ambient duration_ms output_file reason resource_links run_id skip_transcript status summary task_id "
        "tool_use_id usage"
    ),
    "system/task_progress": "description last_tool_name run_id subagent_type summary task_id tool_use_id usage",
    "system/task_started": (
        "ambient description is_backgrounded parent_task_id prompt run_id skip_transcript spawn_depth "
        "subagent_type task_id task_type tool_use_id workflow_name"
    ),
    "system/task_updated": "patch run_id task_id",
    "system/thinking_tokens": "estimated_tokens estimated_tokens_delta user_message_uuid",
    "system/worker_shutting_down": "reason",
    "tool_progress": (
        "description elapsed_time_seconds heartbeat parent_tool_use_id subagent_retry subagent_type task_id "
        "tool_name tool_use_id"
    ),
    "tool_use_summary": "preceding_tool_use_ids summary",
    "user": (
        "agent_id client_composed file_attachments inline_pastes isReplay isSynthetic message origin "
        "parent_tool_use_id pasted_content priority shouldQuery subagent_type task_description timestamp "
        "tool_use_result"
    ),
}
# The string unions some member's field takes (as of the newest release recorded), each value of which
# is sent in that field: the value items the values sub-check pins.
_FIELD_UNIONS_TS = {
    "ApiKeySource": "user|project|ANTHROPIC_API_KEY|apiKeyHelper|/login managed key|none|org|temporary|oauth",
    "EffortLevel": "low|medium|high|xhigh|max",
    "FastModeDisabledReason": (
        "free|preference|extra_usage_disabled|network_error|unknown|not_first_party|disabled_by_env|"
        "model_not_allowed|sdk_opt_in_required|pending"
    ),
    "FastModeState": "off|cooldown|on",
    "PermissionMode": "default|acceptEdits|bypassPermissions|plan|dontAsk|auto",
    "SDKAssistantMessageError": (
        "unknown|authentication_failed|oauth_org_not_allowed|account_on_hold|verification_required|billing_error|"
        "rate_limit|overloaded|invalid_request|model_not_found|server_error|max_output_tokens|cloud_credential_error"
    ),
    "SDKStartupFailureReason": (
        "org_pin_api_key_conflict|provider_not_allowed|org_verify_failed|org_pin_mismatch|managed_settings_invalid|"
        "remote_settings_required_unavailable|gateway_signin_required|gateway_access_denied|proxy_invalid|"
        "temp_dir_unusable|cwd_unavailable|shell_tool_missing|session_held_by_background|worktree_resume_refused|"
        "worktree_unverified|cli_version_too_old|bypass_root|org_config_required_unavailable|org_config_refused|"
        "sandbox_required_unavailable|initialize_not_first|config_file_invalid|managed_settings_not_delivered|"
        "initialize_fields_not_delivered|sideload_flags_disabled|resume_target_not_found|"
        "consumer_terms_review_in_terminal|consumer_terms_accept_on_web|org_signin_ended"
    ),
    "SDKStatus": "compacting|requesting",
    "TerminalReason": (
        "completed|blocking_limit|rapid_refill_breaker|prompt_too_long|image_error|model_error|api_error|"
        "malformed_tool_use_exhausted|aborted_streaming|aborted_tools|stop_hook_prevented|hook_stopped|"
        "tool_deferred|max_turns|background_requested|budget_exhausted|structured_output_retry_exhausted|"
        "tool_deferred_unavailable|turn_setup_failed"
    ),
}
_MEMBERS = "every-declared-member-yielded"
_FIELDS = "every-declared-field-as-sent"
_VALUES = "every-declared-value-as-sent"
_KIND_ORDER = ("string", "number", "boolean", "object", "array", "any", "function", "null")


def _field_value(label: str, field: str, declared: dict[str, Any], n: int) -> Any:
    """A value of the kind the field declares, telling this field of this member apart: its first
    string value when it declares some, else its name, its position, true, or its name wrapped."""
    if declared.get("literals"):
        return declared["literals"][0]
    name = f"{label}.{field}"
    kind = next((k for k in _KIND_ORDER if k in declared.get("kinds", [])), "any")
    values = {"number": n, "boolean": True, "object": {"field": name}, "array": [name], "null": None}
    return values.get(kind, name)


def _member_line(label: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The line the fake writes for one declared member: its type and subtype, every declared field
    filled, and its uuid (its marker) even where the member declares none."""
    kind, _, subtype = label.partition("/")
    filled = {field: _field_value(label, field, d, n) for n, (field, d) in enumerate(sorted(fields.items()), 1)}
    return {"type": kind, **({"subtype": subtype} if subtype else {}), "uuid": f"{label}.uuid", **filled}


def _value_lines(declared: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per member, what each further line sets beside its member's line: a new uuid and, for each
    field declaring several string values, the next value, until every value was sent once. A field
    (by name and values) several members declare takes its values in the first member only."""
    lines: dict[str, list[dict[str, Any]]] = {}
    done: set[tuple[str, tuple[str, ...]]] = set()
    for label, fields in declared.items():
        varied = {}
        for field, d in fields.items():
            key = (field, tuple(d.get("literals") or ()))
            if len(key[1]) > 1 and key not in done:
                done.add(key)
                varied[field] = key[1][1:]
        for k in range(max((len(v) for v in varied.values()), default=0)):
            lines.setdefault(label, []).append(
                {"uuid": f"{label}.uuid#{k + 1}", **{f: v[k] for f, v in varied.items() if k < len(v)}}
            )
    return lines


def _label(message: dict[str, Any]) -> str:
    subtype = message.get("subtype")
    return f"{message.get('type')}/{subtype}" if isinstance(subtype, str) else str(message.get("type"))


@behaviour(
    id="messages.every-declared-member-yielded",
    claim=(
        "Every member of the SDKMessage union the SDK declares, by type and subtype, is yielded when the CLI "
        "writes it, once, with each field its type declares as the CLI wrote it; and each string value a "
        "field declares (a PermissionMode, a TerminalReason, ...) reaches the host as written."
    ),
    summary="Every declared SDKMessage member is yielded with each declared field as the CLI sent it",
    source=("sdk-ts", "SDKMessage"),
    tier="wire",
    checks=(_MEMBERS, _FIELDS, _VALUES),
    requires=("api:SDKMessage",),
    pins={
        _MEMBERS: tuple(f"message:{label}" for label in _DECLARED_TS),
        _FIELDS: tuple(
            f"message:{label}.{field}"
            for label, fields in _DECLARED_TS.items()
            for field in sorted({*fields.split(), *_EVERY_MEMBER})
        ),
        _VALUES: tuple(
            f"value:{union}={value}" for union, values in _FIELD_UNIONS_TS.items() for value in values.split("|")
        ),
    },
)
async def every_declared_member_yielded(h: Harness) -> dict[str, Any]:
    declared = {
        label: {field: {k: v for k, v in d.items() if v} for field, d in fields.items()}
        for label, fields in h.declared_messages().items()
    }
    further = _value_lines(declared)
    scenario = Scenario().wait_for_user()
    for label in sorted(declared, key=lambda label: (label.startswith("result"), label)):  # results last
        line = _member_line(label, declared[label])
        scenario.emit(line)
        for varied in further.get(label, []):
            scenario.emit({**line, **varied})
    run = await h.wire("go", scenario=scenario)
    yielded: dict[str, list[dict[str, Any]]] = {label: [] for label in declared}
    values: dict[str, list[dict[str, Any]]] = {label: [] for label in further}
    for message in run.yielded_json or []:
        label, uuid = _label(message), message.get("uuid")
        if label in yielded and uuid == f"{label}.uuid":
            yielded[label].append({k: v for k, v in message.items() if k not in ("type", "subtype")})
        for sent in further.get(label, []):
            if uuid == sent["uuid"]:
                values[label].append({k: message.get(k, "<absent>") for k in sent})
    return {"declared": declared, "yielded": yielded, "values": values, "error": run.error_line}


def _few(found: dict[str, Any], limit: int = 6) -> str:
    shown = [f"{k}: {v}" for k, v in list(found.items())[:limit]]
    return "; ".join(shown) + (f"; and {len(found) - limit} more" if len(found) > limit else "")


@every_declared_member_yielded.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    declared: dict[str, dict[str, Any]] = seen["declared"]
    unyielded, wrong, off = {}, {}, {}
    for label, fields in declared.items():
        got, sent = seen["yielded"].get(label, []), _member_line(label, fields)
        if len(got) != 1:
            unyielded[label] = f"yielded {len(got)} times"
        if not got:
            wrong[label] = "not yielded"
            continue
        lost = [f for f in fields if f not in got[0]]
        changed = [
            f"{f}={got[0][f]!r} (sent {sent[f]!r})" for f in fields if f in got[0] and not _same(got[0][f], sent[f])
        ]
        if lost or changed:
            wrong[label] = ", ".join(([f"without {lost}"] if lost else []) + changed)
    for label, lines in _value_lines(declared).items():
        got = seen["values"].get(label, [])
        missing = [line for line in lines if line not in got]
        if missing:
            shown = [{k: v for k, v in line.items() if k != "uuid"} for line in missing[:3]]
            off[label] = f"{len(missing)} of {len(lines)} lines not yielded as sent, e.g. {shown}"
    error = f"; the run raised {seen['error']}" if seen["error"] else ""
    return {
        _MEMBERS: check(
            bool(declared) and not unyielded and not error,
            (f"not yielded once: {_few(unyielded)}" if unyielded else f"all {len(declared)} members yielded once")
            + error,
        ),
        _FIELDS: check(
            bool(declared) and not wrong and not error,
            (
                f"not as sent: {_few(wrong)}"
                if wrong
                else f"all {sum(map(len, declared.values()))} declared fields yielded as sent"
            )
            + error,
        ),
        _VALUES: check(
            not off and not error,
            (f"values not as sent: {_few(off)}" if off else "every declared string value yielded as sent") + error,
        ),
    }


_SOME_DECLARED = {
    "result/success": {"duration_ms": {"kinds": ["number"]}, "num_turns": {"kinds": ["number"]}, "uuid": {}},
    "system/init": {
        "model": {"kinds": ["string"]},
        "permissionMode": {"kinds": ["string"], "literals": ["default", "plan", "dontAsk"]},
        "tools": {"kinds": ["array"]},
        "uuid": {"kinds": ["any"]},
    },
}


def _declared_seen(**change: Any) -> dict[str, Any]:
    """An observation where the members above were yielded as the claim says, a timing read as a
    report stores it, but for `change` (a key of the observation -> what it is instead)."""
    yielded = {}
    for label, fields in _SOME_DECLARED.items():
        line = {k: v for k, v in _member_line(label, fields).items() if k not in ("type", "subtype")}
        yielded[label] = [{k: _TIMING if k == "duration_ms" else v for k, v in line.items()}]
    values = {label: [dict(line) for line in lines] for label, lines in _value_lines(_SOME_DECLARED).items()}
    seen = {"declared": _SOME_DECLARED, "yielded": yielded, "values": values, "error": None}
    return {**seen, **change}


every_declared_member_yielded.differs_on(  # a member the SDK declares never yielded
    _declared_seen(yielded={**_declared_seen()["yielded"], "result/success": []})
)
every_declared_member_yielded.differs_on(  # a declared field dropped on the way
    _declared_seen(
        yielded={
            **_declared_seen()["yielded"],
            "system/init": [{k: v for k, v in _declared_seen()["yielded"]["system/init"][0].items() if k != "model"}],
        }
    )
)
every_declared_member_yielded.differs_on(  # a declared field changed on the way
    _declared_seen(
        yielded={
            **_declared_seen()["yielded"],
            "result/success": [{**_declared_seen()["yielded"]["result/success"][0], "num_turns": 3}],
        }
    )
)
every_declared_member_yielded.differs_on(  # a declared value read as another
    _declared_seen(values={"system/init": [{"uuid": "system/init.uuid#1", "permissionMode": "default"}]})
)
