"""How a hook callback is registered and called, what input it is given, what its output becomes on
the way to the CLI, and what a timeout or an interrupt does to one that is pending."""

from __future__ import annotations

import asyncio
import re
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.hooks.support import CEILING, bash_call
from sdkprobe.harness import (
    MAIN,
    Harness,
    HeldCallback,
    Scenario,
    Script,
    WireRun,
    lacks,
    reply,
    typed_keys,
)


def _answer(wire: WireRun, n: int) -> Any:
    """What the SDK answered the fake's n-th control request: its response, or the error it sent."""
    answer = wire.answers.get(f"fake_req_{n}")
    if answer is None:
        return None
    if answer.get("subtype") != "success":
        return {"error": answer.get("error")}
    return answer.get("response")


# --- hooks.every-event-registered-and-called -------------------------------------------------

_BASE = {
    "session_id": "fake-session",
    "transcript_path": "/probe/session.jsonl",
    "cwd": "/probe",
    "permission_mode": "default",
    "prompt_id": "prompt-1",
    "effort": {"level": "high"},
}
_TOOL = {"tool_name": "Bash", "tool_input": {"command": "true"}, "agent_id": "agent-1", "agent_type": "general-purpose"}
_BACKGROUND = {
    "background_tasks": [
        {"id": "task-1", "type": "shell", "status": "running", "description": "sleep", "command": "sleep 9"}
    ],
    "session_crons": [{"id": "cron-1", "schedule": "0 9 * * 1-5", "recurring": True, "prompt": "wake up"}],
}
_REGISTERED_TIMEOUT = 7

# event: (its matcher, its input with every field the SDK's input TypedDict declares, the tool_use_id sent)
_EVENTS: dict[str, tuple[str | None, dict[str, Any], str | None]] = {
    "PreToolUse": ("Bash", {**_TOOL, "tool_use_id": "toolu_ev_1"}, "toolu_ev_1"),
    "PostToolUse": (
        "Bash",
        {
            **_TOOL,
            "tool_use_id": "toolu_ev_2",
            "tool_response": {"stdout": "", "stderr": "", "interrupted": False},
            "duration_ms": 5,
        },
        "toolu_ev_2",
    ),
    "PostToolUseFailure": (
        "Bash",
        {**_TOOL, "tool_use_id": "toolu_ev_3", "error": "exit status 1", "is_interrupt": False, "duration_ms": 5},
        "toolu_ev_3",
    ),
    "UserPromptSubmit": (None, {"prompt": "hello hooks"}, None),
    "Stop": (None, {"stop_hook_active": False, "last_assistant_message": "done", **_BACKGROUND}, None),
    "SubagentStop": (
        "general-purpose",
        {
            "stop_hook_active": True,
            "agent_id": "agent-1",
            "agent_transcript_path": "/probe/agent-1.jsonl",
            "agent_type": "general-purpose",
            "last_assistant_message": "sub done",
            **_BACKGROUND,
        },
        None,
    ),
    "PreCompact": ("auto", {"trigger": "auto", "custom_instructions": None}, None),
    "Notification": (
        "permission_prompt",
        {"message": "Claude needs your permission", "title": "Permission", "notification_type": "permission_prompt"},
        None,
    ),
    "SubagentStart": ("general-purpose", {"agent_id": "agent-1", "agent_type": "general-purpose"}, None),
    "PermissionRequest": ("Bash", {**_TOOL, "permission_suggestions": []}, None),
}


def _event_check(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", event).lower() + "-registered-and-called"


def _event_input(event: str) -> dict[str, Any]:
    return {**_BASE, "hook_event_name": event, **_EVENTS[event][1]}


def _fields_of(hook_input: dict[str, Any]) -> list[list[Any]]:
    """An input as [key, value] pairs in key order: the report's normaliser blanks a timing key
    (duration_ms) of a dict, and here it is a value sent, not a time."""
    return [[key, hook_input[key]] for key in sorted(hook_input)]


def _event_output(event: str) -> dict[str, Any]:
    """What the event's callback returns: a value naming its event, so a mixed-up answer shows."""
    return {"systemMessage": f"seen {event}"}


@behaviour(
    id="hooks.every-event-registered-and-called",
    claim=(
        "A callback given as hooks={EVENT: [HookMatcher(matcher=..., hooks=[cb])]} for any HookEvent is registered "
        "in the initialize request under that event's name with its matcher, a callback id and its timeout; a "
        "hook_callback request for that id calls it with the input and tool_use_id as sent, and its return "
        "value is the control response."
    ),
    summary="Each HookEvent's callback is registered in initialize and answers hook_callback",
    source=("sdk-py", "HookEvent"),
    tier="wire",
    checks=tuple(_event_check(event) for event in _EVENTS),
    requires=("option:hooks", "api:HookMatcher"),
    pins={_event_check(event): (f"hook-event:{event}",) for event in _EVENTS},
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
)
async def every_event_registered_and_called(h: Harness) -> dict[str, Any]:
    from sdkprobe.harness import HookMatcher

    known = h.hook_inputs()  # the hook events the SDK under test lists
    present = [event for event in _EVENTS if event in known]
    with_timeout = lacks("field:HookMatcher.timeout") is None
    calls: dict[str, list[dict[str, Any]]] = {event: [] for event in present}

    def recorder(event: str) -> Any:
        async def callback(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
            calls[event].append({"input": _fields_of(dict(hook_input)), "tool_use_id": tool_use_id})
            return _event_output(event)

        return callback

    hooks = {}
    scenario = Scenario().wait_for_user().init()
    for n, event in enumerate(present):
        matcher = _EVENTS[event][0]
        extra: dict[str, Any] = {"timeout": _REGISTERED_TIMEOUT} if with_timeout else {}
        hooks[event] = [HookMatcher(matcher=matcher, hooks=[recorder(event)], **extra)]
        scenario.request(
            "hook_callback", callback_id=f"hook_{n}", input=_event_input(event), tool_use_id=_EVENTS[event][2]
        )
    wire = await h.wire("go", scenario=scenario.result(), client=True, hooks=hooks)
    registered = (wire.initialize or {}).get("hooks") or {}
    seen: dict[str, Any] = {}
    for event in _EVENTS:
        if event not in present:
            seen[event] = {"absent": f"this SDK's HookEvent has no {event!r}"}
            continue
        seen[event] = {
            "callback id": f"hook_{present.index(event)}",
            "timeout field": with_timeout,
            "registered": registered.get(event),
            "calls": calls[event],
            "answer": _answer(wire, present.index(event) + 1),
        }
    seen["error"] = wire.error_line
    return seen


@every_event_registered_and_called.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for event, (matcher, _, tool_use_id) in _EVENTS.items():
        got = seen[event]
        if "absent" in got:
            checks[_event_check(event)] = undecidable(got["absent"])
            continue
        claimed = {
            "matcher": matcher,
            "hookCallbackIds": [got["callback id"]],
            **({"timeout": _REGISTERED_TIMEOUT} if got["timeout field"] else {}),
        }
        wrong = []
        if got["registered"] != [claimed]:
            wrong.append(f"registered as {got['registered']}, not [{claimed}]")
        call = {"input": _fields_of(_event_input(event)), "tool_use_id": tool_use_id}
        if got["calls"] != [call]:
            wrong.append(
                f"callback called {len(got['calls'])} time(s) with {got['calls']}, not once with the input sent"
            )
        if got["answer"] != _event_output(event):
            wrong.append(f"answered {got['answer']}, not {_event_output(event)}")
        if seen["error"]:
            wrong.append(f"the run raised {seen['error']}")
        note = "; ".join(wrong) or (
            f"registered as {got['registered']}; callback got the input as sent (tool_use_id {tool_use_id!r}); "
            f"answered {got['answer']}"
        )
        checks[_event_check(event)] = check(not wrong, note)
    return checks


def _events_seen(**change: Any) -> dict[str, Any]:
    """An observation where every event ran as the claim says, but for `change` to each."""
    seen: dict[str, Any] = {"error": None}
    for n, (event, (matcher, _, tool_use_id)) in enumerate(_EVENTS.items()):
        good = {
            "callback id": f"hook_{n}",
            "timeout field": True,
            "registered": [{"matcher": matcher, "hookCallbackIds": [f"hook_{n}"], "timeout": _REGISTERED_TIMEOUT}],
            "calls": [{"input": _fields_of(_event_input(event)), "tool_use_id": tool_use_id}],
            "answer": _event_output(event),
        }
        seen[event] = {**good, **{k: (v(event, good) if callable(v) else v) for k, v in change.items()}}
    return seen


# the timeout left out of the registration
every_event_registered_and_called.differs_on(
    _events_seen(registered=lambda event, good: [{k: v for k, v in good["registered"][0].items() if k != "timeout"}])
)
# the callback reached without its event's own input fields (a filter on the way in)
every_event_registered_and_called.differs_on(
    _events_seen(
        calls=lambda event, good: [{**good["calls"][0], "input": _fields_of({**_BASE, "hook_event_name": event})}]
    )
)
# the return value dropped: an empty answer
every_event_registered_and_called.differs_on(_events_seen(answer={}))


# --- hooks.every-listed-event-answered ---------------------------------------------------------

# What each SDK lists, as of the newest release recorded: the items this behaviour pins (an event a
# later release adds is still run, and the gate names it as added with what covers it).
_LISTED_PY = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "Notification",
    "SubagentStart",
    "PermissionRequest",
)
_LISTED_TS = (
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "Elicitation",
    "ElicitationResult",
    "FileChanged",
    "InstructionsLoaded",
    "Interrupt",
    "MessageDisplay",
    "PermissionDenied",
    "PostCompact",
    "PostModelSwitch",
    "PostToolBatch",
    "PreModelSwitch",
    "PreSkillShellCommand",
    "SessionEnd",
    "SessionStart",
    "Setup",
    "StopFailure",
    "TaskCompleted",
    "TaskCreated",
    "TeammateIdle",
    "UserPromptExpansion",
    "WorktreeCreate",
    "WorktreeRemove",
)

# The fields each event's input type declares beyond BaseHookInput's (TypeScript, as of the newest
# release recorded): the hook-input items the callback sub-check pins.
_BASE_TS = "agent_id agent_type cwd effort permission_mode prompt_id session_id transcript_path".split()
_MODEL_SWITCH = (
    "cache_ttl context_tokens estimated_cache_write_usd from_model pricing prompt_cache_warm requested_model "
    "source to_model"
)
_INPUTS_TS = {
    "ConfigChange": "file_path source",
    "CwdChanged": "new_cwd old_cwd",
    "DirectoryAdded": "directory source",
    "Elicitation": "elicitation_id mcp_server_name message mode requested_schema url",
    "ElicitationResult": "action content elicitation_id mcp_server_name mode",
    "FileChanged": "event file_path",
    "InstructionsLoaded": "file_path globs load_reason memory_type parent_file_path trigger_file_path",
    "Interrupt": "reason source via",
    "MessageDisplay": "delta final index message_id turn_id",
    "Notification": "message notification_type title",
    "PermissionDenied": "mcp_server reason tool_input tool_name tool_use_id",
    "PermissionRequest": "mcp_server permission_suggestions tool_input tool_name",
    "PostCompact": "compact_summary trigger",
    "PostModelSwitch": _MODEL_SWITCH,
    "PostToolBatch": "tool_calls",
    "PostToolUse": "duration_ms mcp_server tool_input tool_name tool_response tool_use_id",
    "PostToolUseFailure": "duration_ms error is_interrupt mcp_server tool_input tool_name tool_use_id",
    "PreCompact": "custom_instructions trigger",
    "PreModelSwitch": _MODEL_SWITCH,
    "PreSkillShellCommand": "command_name command_source invoked_by tool_input tool_name tool_use_id",
    "PreToolUse": "mcp_server tool_input tool_name tool_use_id",
    "SessionEnd": "reason",
    "SessionStart": (
        "context_tokens estimated_cache_write_usd model prompt_cache_likely_expired seconds_since_last_response "
        "session_title source"
    ),
    "Setup": "trigger",
    "Stop": "background_tasks last_assistant_message session_crons stop_hook_active",
    "StopFailure": "error error_details last_assistant_message",
    "SubagentStop": "agent_transcript_path background_tasks last_assistant_message session_crons stop_hook_active",
    "TaskCompleted": "task_description task_id task_subject team_name teammate_name",
    "TaskCreated": "task_description task_id task_subject team_name teammate_name",
    "TeammateIdle": "team_name teammate_name",
    "UserPromptExpansion": "command_args command_name command_source expansion_type prompt",
    "UserPromptSubmit": "prompt session_title source",
    "WorktreeCreate": "name",
    "WorktreeRemove": "worktree_path",
}
# SessionEnd's reason: the values of the union the callback sub-check pins (as of the newest release recorded)
_EXIT_REASONS = ("clear", "resume", "logout", "prompt_input_exit", "other")
_REGISTERED = "every-listed-event-registered"
_ANSWERED = "every-listed-event-reaches-its-callback"


def _listed_input(event: str, fields: list[str]) -> dict[str, Any]:
    """A hook_callback input carrying every field the event's input type declares, each valued
    by its own name, so a field dropped, renamed or mixed up on the way shows."""
    return {**{field: f"{event}.{field}" for field in fields}, "hook_event_name": event}


def _valued_inputs(event: str, fields: list[str], values: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Further inputs of one event, until every value each field of string values declares was sent
    once: the marker input with those fields set to their next value."""
    return [
        {**_listed_input(event, fields), **{field: v[k] for field, v in values.items() if k < len(v)}}
        for k in range(max((len(v) for v in values.values()), default=0))
    ]


@behaviour(
    id="hooks.every-listed-event-answered",
    claim=(
        "Every hook event the SDK lists (Python's HookEvent, TypeScript's HOOK_EVENTS) takes a callback: it is "
        "registered in the initialize request under that event's name, and a hook_callback request carrying every "
        "field the event's input type declares reaches the callback with that input whole, its return value "
        "being the control response; so does each string value a field declares (TypeScript's SessionEnd "
        "reason, Interrupt source, ...)."
    ),
    summary="Every hook event the SDK lists is registered and its callback answers with its input whole",
    source=("sdk-ts", "HOOK_EVENTS"),
    tier="wire",
    checks=(_REGISTERED, _ANSWERED),
    requires=("option:hooks", "api:HookMatcher"),
    pins={
        _REGISTERED: tuple(f"hook-event:{event}" for event in (*_LISTED_PY, *_LISTED_TS)),
        _ANSWERED: (
            *(f"hook-input:{field}" for field in _BASE_TS),
            *(f"hook-input:{event}.{field}" for event, fields in _INPUTS_TS.items() for field in fields.split()),
            *(f"value:ExitReason={reason}" for reason in _EXIT_REASONS),
        ),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
)
async def every_listed_event_answered(h: Harness) -> dict[str, Any]:
    from sdkprobe.harness import HookMatcher

    listed, values = h.hook_inputs(), h.hook_input_values()
    calls: dict[str, list[dict[str, Any]]] = {event: [] for event in listed}

    def recorder(event: str) -> Any:
        async def callback(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
            calls[event].append(dict(hook_input))
            return _event_output(event)

        return callback

    scenario = Scenario().wait_for_user().init()
    for n, (event, fields) in enumerate(listed.items()):
        scenario.request("hook_callback", callback_id=f"hook_{n}", input=_listed_input(event, fields), tool_use_id=None)
    for n, (event, fields) in enumerate(listed.items()):  # after every answer _answer reads, by its number
        for valued in _valued_inputs(event, fields, values.get(event, {})):
            scenario.request("hook_callback", callback_id=f"hook_{n}", input=valued, tool_use_id=None)
    hooks = {event: [HookMatcher(hooks=[recorder(event)])] for event in listed}
    wire = await h.wire("go", scenario=scenario.result(), client=True, hooks=hooks)
    registered = (wire.initialize or {}).get("hooks") or {}
    return {
        "events": {
            event: {
                "fields": fields,
                "callback id": f"hook_{n}",
                "registered ids": [entry.get("hookCallbackIds") for entry in registered.get(event) or []],
                "calls": calls[event],
                "answer": _answer(wire, n + 1),
                **({"values": values[event]} if values.get(event) else {}),
            }
            for n, (event, fields) in enumerate(listed.items())
        },
        "error": wire.error_line,
    }


@every_listed_event_answered.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    events: dict[str, Any] = seen["events"]
    unregistered = [e for e, got in events.items() if got["registered ids"] != [[got["callback id"]]]]
    unanswered = {}
    for event, got in events.items():
        sent = [_listed_input(event, got["fields"]), *_valued_inputs(event, got["fields"], got.get("values") or {})]
        if got["calls"] != sent:
            wrong = [(want, call) for want, call in zip(sent, got["calls"], strict=False) if call != want]
            lost = sorted(set(wrong[0][0]) - set(wrong[0][1])) if wrong else None
            changed = {k: v for k, v in wrong[0][1].items() if wrong[0][0].get(k, v) != v} if wrong else None
            unanswered[event] = (
                f"called {len(got['calls'])} time(s) for {len(sent)} input(s)"
                + (f", without {lost}" if lost else "")
                + (f", given {changed}" if changed else "")
            )
        elif got["answer"] != _event_output(event):
            unanswered[event] = f"answered {got['answer']}"
    error = f"; the run raised {seen['error']}" if seen["error"] else ""
    return {
        _REGISTERED: check(
            not unregistered and not error,
            (
                f"not registered under their names with their callback: {unregistered}"
                if unregistered
                else f"all {len(events)} listed events registered with their callback"
            )
            + error,
        ),
        _ANSWERED: check(
            not unanswered and not error,
            (
                f"not answered with their input whole: {unanswered}"
                if unanswered
                else f"all {len(events)} callbacks got every declared field and value as sent and answered"
            )
            + error,
        ),
    }


def _listed_seen(**change: Any) -> dict[str, Any]:
    """An observation where PreToolUse and Interrupt ran as claimed, but for `change` to Interrupt."""
    fields = {"PreToolUse": ["session_id", "tool_name"], "Interrupt": ["reason", "session_id", "source"]}
    events = {
        event: {
            "fields": f,
            "callback id": f"hook_{n}",
            "registered ids": [[f"hook_{n}"]],
            "calls": [_listed_input(event, f)],
            "answer": _event_output(event),
        }
        for n, (event, f) in enumerate(fields.items())
    }
    events["Interrupt"].update(change)
    return {"events": events, "error": None}


every_listed_event_answered.differs_on(_listed_seen(**{"registered ids": []}))  # an event the SDK lists dropped
every_listed_event_answered.differs_on(  # a declared field filtered out on the way to the callback
    _listed_seen(
        calls=[
            {k: v for k, v in _listed_input("Interrupt", ["reason", "session_id", "source"]).items() if k != "source"}
        ]
    )
)
every_listed_event_answered.differs_on(_listed_seen(answer={}))  # the callback's answer lost
every_listed_event_answered.differs_on(  # a declared value read as another on the way (source 'system' as 'user')
    _listed_seen(
        values={"source": ["user", "system"]},
        calls=[
            _listed_input("Interrupt", ["reason", "session_id", "source"]),
            *[
                {**call, "source": "user"}
                for call in _valued_inputs(
                    "Interrupt", ["reason", "session_id", "source"], {"source": ["user", "system"]}
                )
            ],
        ],
    )
)


# --- hooks.output-reaches-cli-as-returned ------------------------------------------------------

# The documented renames of Python-safe keys (SyncHookJSONOutput.continue_, AsyncHookJSONOutput.async_).
_RENAMES = {"continue_": "continue", "async_": "async"}

# sample values for hook-specific output keys, by key
_SPECIFIC_VALUES: dict[str, Any] = {
    "additionalContext": "probe context",
    "permissionDecision": "deny",
    "permissionDecisionReason": "probe reason",
    "updatedInput": {"command": "echo probe"},
    "updatedToolOutput": {"stdout": "probe out", "stderr": "", "interrupted": False},
    "updatedMCPToolOutput": [{"type": "text", "text": "probe mcp out"}],
    "sessionTitle": "probe title",
    "suppressOriginalPrompt": True,
    "initialUserMessage": "probe first message",
    "watchPaths": ["/probe/watched"],
    "reloadSkills": True,
    "decision": {"behavior": "allow", "updatedInput": {"command": "true"}},
    "retry": True,
    "action": "accept",
    "content": {"name": "probe"},
    "worktreePath": "/probe/worktree",
    "displayContent": "probe shown",
}

# hook-specific output type: the keys the probe returns in it (as of claude-agent-sdk 0.2.189)
_SPECIFIC: dict[str, tuple[str, ...]] = {
    "PreToolUse": ("permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"),
    "PostToolUse": ("additionalContext", "updatedToolOutput", "updatedMCPToolOutput"),
    "PostToolUseFailure": ("additionalContext",),
    "UserPromptSubmit": ("additionalContext", "sessionTitle", "suppressOriginalPrompt"),
    "UserPromptExpansion": ("additionalContext", "suppressOriginalPrompt"),
    "SessionStart": ("additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"),
    "Notification": ("additionalContext",),
    "SubagentStart": ("additionalContext",),
    "PermissionRequest": ("decision",),
    "PostToolBatch": ("additionalContext",),
    "Stop": ("additionalContext",),
    "SubagentStop": ("additionalContext",),
    "PermissionDenied": ("retry",),
    "PreModelSwitch": ("permissionDecision", "permissionDecisionReason"),
    "PostModelSwitch": ("additionalContext",),
    "Elicitation": ("action", "content"),
    "ElicitationResult": ("action", "content"),
    "CwdChanged": ("watchPaths",),
    "FileChanged": ("watchPaths",),
    "WorktreeCreate": ("worktreePath",),
    "MessageDisplay": ("displayContent",),
}
_SYNC_VALUES: dict[str, Any] = {
    "continue_": False,
    "stopReason": "probe stop",
    "suppressOutput": True,
    "systemMessage": "probe system message",
    "decision": "block",
    "reason": "probe block reason",
}
_ASYNC_VALUES: dict[str, Any] = {"async_": True, "asyncTimeout": 30000}


def _output_check(typed: str) -> str:
    words = re.sub(r"(?<!^)(?=[A-Z])", "-", typed.removesuffix("HookJSONOutput").removesuffix("HookSpecificOutput"))
    return words.lower() + ("-output-sent" if typed.endswith("HookJSONOutput") else "-specific-output-sent")


# sub-check: (the output TypedDict, {case label: the value returned, every key it declares})
_OUTPUTS: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    _output_check("SyncHookJSONOutput"): (
        "SyncHookJSONOutput",
        {"every key": _SYNC_VALUES, "continue_ True alone": {"continue_": True}},
    ),
    _output_check("AsyncHookJSONOutput"): ("AsyncHookJSONOutput", {"every key": _ASYNC_VALUES}),
    **{
        _output_check(f"{event}HookSpecificOutput"): (
            f"{event}HookSpecificOutput",
            {
                "every key": {
                    "hookSpecificOutput": {"hookEventName": event, **{k: _SPECIFIC_VALUES[k] for k in keys}},
                }
            },
        )
        for event, keys in _SPECIFIC.items()
    },
}
# sub-check -> the output keys it pins: each TypedDict's keys, pinned by that TypedDict's sub-check
_PINS = {
    _output_check("SyncHookJSONOutput"): tuple(f"hook-output:SyncHookJSONOutput.{k}" for k in _SYNC_VALUES),
    _output_check("AsyncHookJSONOutput"): tuple(f"hook-output:AsyncHookJSONOutput.{k}" for k in _ASYNC_VALUES),
    **{
        _output_check(f"{event}HookSpecificOutput"): tuple(f"hook-output:{event}HookSpecificOutput.{k}" for k in keys)
        for event, keys in _SPECIFIC.items()
    },
}


def _returned(typed: str, value: dict[str, Any], lacks: list[str]) -> dict[str, Any]:
    """A case's value without the keys this SDK's TypedDict lacks (at the top, or in hookSpecificOutput)."""
    if "hookSpecificOutput" not in value:
        return {k: v for k, v in value.items() if k not in lacks}
    return {"hookSpecificOutput": {k: v for k, v in value["hookSpecificOutput"].items() if k not in lacks}}


def _on_wire(value: dict[str, Any]) -> dict[str, Any]:
    """What the CLI should receive for a returned value: the documented renames at the top, all else as is."""
    return {_RENAMES.get(k, k): v for k, v in value.items()}


def _lacks(typed: str, value: dict[str, Any]) -> list[str] | None:
    """The case's keys this SDK's TypedDict `typed` lacks, or None when it has no such type."""
    keys = typed_keys(typed)
    if keys is None:
        return None
    returned = value.get("hookSpecificOutput", value)
    return [k for k in returned if k not in keys and k != "hookEventName"]


@behaviour(
    id="hooks.output-reaches-cli-as-returned",
    claim=(
        "What a hook callback returns is what the CLI receives in the hook_callback's control response: every key "
        "of SyncHookJSONOutput and AsyncHookJSONOutput, with continue_ sent as continue and async_ as async, and "
        "every hook-specific output's keys unchanged under hookSpecificOutput."
    ),
    summary="A hook callback's output reaches the CLI as returned, continue_/async_ renamed",
    source=("sdk-py", "SyncHookJSONOutput"),
    tier="wire",
    checks=tuple(_OUTPUTS),
    requires=("option:hooks", "api:HookMatcher"),
    pins=_PINS,
    sdk_ref="claude_agent_sdk._internal.query._convert_hook_output_for_cli",
)
async def output_reaches_cli_as_returned(h: Harness) -> dict[str, Any]:
    from sdkprobe.harness import HookMatcher

    runs: list[tuple[str, str, dict[str, Any]]] = []  # (sub-check, case, value returned)
    seen: dict[str, Any] = {}
    for name, (typed, cases) in _OUTPUTS.items():
        seen[name] = {}
        for case, value in cases.items():
            lacks = _lacks(typed, value)
            if lacks is None:
                seen[name] = {"absent": f"this SDK has no {typed}"}
                break
            returned = _returned(typed, value, lacks)
            if not returned.get("hookSpecificOutput", returned).keys() - {"hookEventName"}:
                seen[name] = {"absent": f"this SDK's {typed} has none of the keys {sorted(lacks)}"}
                break
            seen[name][case] = {"lacks": lacks}
            runs.append((name, case, returned))

    async def callback(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        return runs[int(hook_input["tool_input"]["case"])][2]

    scenario = Scenario().wait_for_user().init()
    for n in range(len(runs)):
        hook_input = {**_BASE, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"case": str(n)}}
        scenario.request("hook_callback", callback_id="hook_0", input=hook_input, tool_use_id=f"toolu_out_{n}")
    wire = await h.wire(
        "go", scenario=scenario.result(), client=True, hooks={"PreToolUse": [HookMatcher(hooks=[callback])]}
    )
    for n, (name, case, _) in enumerate(runs):
        seen[name][case]["answer"] = _answer(wire, n + 1)
    seen["error"] = wire.error_line
    return seen


@output_reaches_cli_as_returned.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for name, (typed, cases) in _OUTPUTS.items():
        got = seen[name]
        if "absent" in got:
            checks[name] = undecidable(got["absent"])
            continue
        wrong: list[str] = []
        right: list[str] = []
        lacking: list[str] = []
        for case, value in cases.items():
            claimed = _on_wire(_returned(typed, value, got[case]["lacks"]))
            answer = got[case]["answer"]
            lacking += got[case]["lacks"]
            (right if answer == claimed else wrong).append(
                f"{case}: sent {answer}" + ("" if answer == claimed else f", not {claimed}")
            )
        if seen["error"]:
            wrong.append(f"the run raised {seen['error']}")
        untested = f" (this SDK's {typed} has no {sorted(set(lacking))})" if lacking else ""
        checks[name] = check(not wrong, "; ".join(wrong or right) + untested)
    return checks


def _snake(key: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()


def _outputs_seen(answer: Any) -> dict[str, Any]:
    """An observation where every case was answered by `answer(value returned)`."""
    seen: dict[str, Any] = {"error": None}
    for name, (_, cases) in _OUTPUTS.items():
        seen[name] = {case: {"lacks": [], "answer": answer(value)} for case, value in cases.items()}
    return seen


# the Python names sent as they are, camelCase keys turned snake_case (hookSpecificOutput included)
output_reaches_cli_as_returned.differs_on(_outputs_seen(lambda value: {_snake(k): v for k, v in value.items()}))
# renamed right, but the hook-specific output's keys other than hookEventName dropped
output_reaches_cli_as_returned.differs_on(
    _outputs_seen(
        lambda value: {
            _RENAMES.get(k, k): ({"hookEventName": v["hookEventName"]} if k == "hookSpecificOutput" else v)
            for k, v in value.items()
        }
    )
)


def _is_result(message: Any) -> bool:
    return type(message).__name__ == "ResultMessage"


# --- hooks.ts-output-keys-reach-cli ----------------------------------------------------------

# sub-check: (the TypeScript output type, its key only the TypeScript SDK declares, the value returned)
_TS_OUTPUTS: dict[str, tuple[str, dict[str, Any]]] = {
    "sync-terminal-sequence-sent": ("SyncHookJSONOutput", {"terminalSequence": "\u001b]0;probe title\u0007"}),
    "post-tool-use-classifier-context-sent": (
        "PostToolUseHookSpecificOutput",
        {"hookSpecificOutput": {"hookEventName": "PostToolUse", "classifierContext": "the user asked for this"}},
    ),
    "pre-skill-shell-command-specific-output-sent": (
        "PreSkillShellCommandHookSpecificOutput",
        {
            "hookSpecificOutput": {
                "hookEventName": "PreSkillShellCommand",
                "permissionDecision": "deny",
                "permissionDecisionReason": "probe: no shell in skills",
                "updatedInput": {"command": "echo probe-skill"},
            }
        },
    ),
    "setup-specific-output-sent": (
        "SetupHookSpecificOutput",
        {"hookSpecificOutput": {"hookEventName": "Setup", "additionalContext": "probe setup context"}},
    ),
}


class TsOutputsSeen(TypedDict):
    lacking: dict[str, str]  # sub-check -> why the release lacks its output type's key (not returned then)
    answers: dict[str, Any]  # sub-check -> the hook_callback's control response
    error: str | None


@behaviour(
    id="hooks.ts-output-keys-reach-cli",
    claim=(
        "The hook output keys only the TypeScript SDK declares reach the CLI in the hook_callback's control "
        "response as the callback returned them: SyncHookJSONOutput.terminalSequence, PostToolUse's "
        "classifierContext, PreSkillShellCommand's permissionDecision, permissionDecisionReason and updatedInput, "
        "and Setup's additionalContext."
    ),
    summary="TypeScript-only hook output keys reach the CLI as the callback returned them",
    source=("sdk-ts", "SyncHookJSONOutput, HookSpecificOutput"),
    tier="wire",
    checks=tuple(_TS_OUTPUTS),
    requires=("option:hooks", "api:HookMatcher", "field:SyncHookJSONOutput.terminalSequence"),  # TypeScript's only
    pins={
        name: tuple(f"hook-output:{typed}.{k}" for k in value.get("hookSpecificOutput", value) if k != "hookEventName")
        for name, (typed, value) in _TS_OUTPUTS.items()
    },
)
async def ts_output_keys_reach_cli(h: Harness) -> TsOutputsSeen:
    from sdkprobe.harness import HookMatcher

    lacking: dict[str, str] = {}
    cases: list[str] = []
    for name, (typed, value) in _TS_OUTPUTS.items():
        for key in value.get("hookSpecificOutput", value):
            why = lacks(f"field:{typed}.{key}")
            if why is not None:
                lacking[name] = why
                break
        else:
            cases.append(name)

    async def callback(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        return _TS_OUTPUTS[cases[int(hook_input["tool_input"]["case"])]][1]  # as a TypeScript callback returns it

    scenario = Scenario().wait_for_user().init()
    for n in range(len(cases)):
        hook_input = {**_BASE, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"case": str(n)}}
        scenario.request("hook_callback", callback_id="hook_0", input=hook_input, tool_use_id=f"toolu_ts_out_{n}")
    wire = await h.wire(
        "go", scenario=scenario.result(), client=True, hooks={"PreToolUse": [HookMatcher(hooks=[callback])]}
    )
    answers = {name: _answer(wire, n + 1) for n, name in enumerate(cases)}
    return {"lacking": lacking, "answers": answers, "error": wire.error_line}


@ts_output_keys_reach_cli.decide
def _(seen: TsOutputsSeen) -> dict[str, Check]:
    checks: dict[str, Check] = {}
    error = f"; the run raised {seen['error']}" if seen["error"] else ""
    for name, (_, value) in _TS_OUTPUTS.items():
        if name in seen["lacking"]:
            checks[name] = undecidable(seen["lacking"][name])
            continue
        got = seen["answers"].get(name)
        checks[name] = check(got == value and not error, f"returned {value}, the CLI got {got}{error}")
    return checks


def _ts_outputs_answered(**changed: Any) -> TsOutputsSeen:
    answers = {name: value for name, (_, value) in _TS_OUTPUTS.items()}
    return {"lacking": {}, "answers": {**answers, **changed}, "error": None}


# a release that filters the output through its own list of keys, older than these
ts_output_keys_reach_cli.differs_on(
    _ts_outputs_answered(
        **{"sync-terminal-sequence-sent": {}},
        **{
            name: {"hookSpecificOutput": {"hookEventName": value["hookSpecificOutput"]["hookEventName"]}}
            for name, (_, value) in _TS_OUTPUTS.items()
            if "hookSpecificOutput" in value
        },
    )
)


# --- hooks.callback-timeout-semantics --------------------------------------------------------

_HOOK_TIMEOUT = 2  # HookMatcher.timeout, in seconds: the CLI's to keep; the probe waits by order
_PROMPT_HELD = "third prompt HELD-PROMPT"
_PROMPT_AFTER = "fourth prompt AFTER-PROMPT"


async def _turn_while_held(c: Any, prompt: str, held: HeldCallback) -> dict[str, Any]:
    """Send `prompt`, read its turn to the result while `held` keeps its call pending; if no
    result comes by the ceiling, let the callback go (the CLI waited for it) and read on.
    What the callback's state was when the turn ended."""
    await c.send(prompt)
    reading = asyncio.ensure_future(c.response())
    done, _ = await asyncio.wait({reading}, timeout=CEILING)
    released_for_result = not done
    if released_for_result:
        held.release()
    messages = await reading
    pending_at_result = held.pending
    c.mark(f"result of {prompt!r}")
    held.release()
    result = next((m for m in reversed(messages) if _is_result(m)), None)
    return {
        "asked": len(held.calls),
        "pending at result": pending_at_result,
        "released for the result": released_for_result,
        "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
    }


# what the SDK did with a held callback whose request the fake CLI cancelled
CancelledOnWire = TypedDict(
    "CancelledOnWire",
    {"timeout sent": Any, "events at result": list[str], "answer": str | None, "error": str | None},
)


# "cli": the real CLI's turns, a held callback's events and the marker files, by case (or "absent")
class TimeoutSeen(TypedDict):
    wire: CancelledOnWire
    cli: dict[str, Any]


@behaviour(
    id="hooks.callback-timeout-semantics",
    claim=(
        "A hook callback still pending when its HookMatcher.timeout passes fails safe: a timed-out PreToolUse "
        "does not let the tool run as if approved, a timed-out UserPromptSubmit blocks only its own prompt and the "
        "session takes the next one, and an interrupt while a PreToolUse callback is pending keeps the tool from "
        "running; the SDK cancels a callback whose request the CLI cancels and answers nothing."
    ),
    summary="A timed-out or interrupted pending hook never lets the tool run; session goes on",
    source=("cc#77634", "report"),
    tier="cli",
    checks=(
        "cancel-request-cancels-callback",
        "timed-out-pretooluse-tool-not-run",
        "timed-out-prompt-hook-blocks-only-its-prompt",
        "session-takes-next-prompt",
        "interrupt-during-pretooluse-tool-not-run",
    ),
    requires=("option:hooks", "api:HookMatcher", "api:ClaudeSDKClient.interrupt"),
    # a timeout that never reaches the CLI leaves the two timed hooks pending until the probe
    # lets them go: only their sub-checks see it (the cancel comes from the fake CLI either way,
    # the interrupted hook has no timeout, and a released prompt hook still lets the next one in)
    pins={
        "timed-out-pretooluse-tool-not-run": ("hook-matcher:timeout",),
        "timed-out-prompt-hook-blocks-only-its-prompt": ("hook-matcher:timeout",),
        "interrupt-during-pretooluse-tool-not-run": ("client:interrupt",),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
    security="a hook that timed out or was interrupted would let a command it was there to vet run unvetted",
    timeout=180,
)
async def callback_timeout_semantics(h: Harness) -> TimeoutSeen:
    from sdkprobe.harness import HookMatcher

    with_timeout = lacks("field:HookMatcher.timeout") is None
    on_wire = await _cancelled_on_the_wire(h, with_timeout)
    if not with_timeout:
        return {"wire": on_wire, "cli": {"absent": "this SDK's HookMatcher has no timeout"}}
    timed_out_tool, interrupted_tool, prompt_hook = HeldCallback(hold=1), HeldCallback(hold=1), HeldCallback(hold=1)

    turns: dict[str, Any] = {}

    async def steps(c: Any) -> None:
        turns["timed-out PreToolUse"] = await _turn_while_held(c, "first prompt", timed_out_tool)
        await c.send("second prompt")
        asked = await interrupted_tool.asked(1, timeout=CEILING)
        if asked:
            await c.interrupt()
        messages = await c.response()
        result = next((m for m in reversed(messages) if _is_result(m)), None)
        turns["interrupted PreToolUse"] = {
            "asked": asked,
            "pending at result": interrupted_tool.pending,
            "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
        }
        interrupted_tool.release()
        turns["timed-out UserPromptSubmit"] = await _turn_while_held(c, _PROMPT_HELD, prompt_hook)
        await c.send(_PROMPT_AFTER)
        messages = await c.response()
        result = next((m for m in reversed(messages) if _is_result(m)), None)
        turns["next prompt"] = {"result": None if result is None else result.subtype}

    run = await h.converse(
        steps,
        script=Script(
            main=[
                reply(bash_call("touch m-timeout.txt", "toolu_to_1")),
                "after the timed-out hook",
                reply(bash_call("touch m-interrupt.txt", "toolu_to_2")),
            ],
            fallback=reply("ok"),
        ),
        timeout=150,
        allowed_tools=["Bash"],
        hooks={
            "PreToolUse": [
                HookMatcher(
                    matcher="Bash", hooks=[_dispatch(timed_out_tool.hook({}), "m-timeout")], timeout=_HOOK_TIMEOUT
                ),
                HookMatcher(matcher="Bash", hooks=[_dispatch(interrupted_tool.hook({}), "m-interrupt")]),
            ],
            "UserPromptSubmit": [
                HookMatcher(hooks=[_dispatch(prompt_hook.hook({}), "HELD-PROMPT")], timeout=_HOOK_TIMEOUT)
            ],
        },
    )
    main = run.on(MAIN)
    cli = {
        "turns": turns,
        "events": {
            "timed-out PreToolUse": timed_out_tool.events,
            "interrupted PreToolUse": interrupted_tool.events,
            "timed-out UserPromptSubmit": prompt_hook.events,
        },
        "files": {name: (h.cwd / name).exists() for name in ("m-timeout.txt", "m-interrupt.txt")},
        "held prompt reached the model": any(r.carries("HELD-PROMPT") for r in main),
        "next prompt reached the model": any(r.carries("AFTER-PROMPT") for r in main),
        "error": run.error_line,
    }
    return {"wire": on_wire, "cli": cli}


def _dispatch(held_hook: Any, mark: str) -> Any:
    """A hook that hands the calls whose input mentions `mark` to `held_hook` and answers {} to any other."""

    async def hook(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        return await held_hook(hook_input, tool_use_id, context) if mark in str(hook_input) else {}

    return hook


_CALLBACK_HELD = "the callback is held"


async def _cancelled_on_the_wire(h: Harness, with_timeout: bool) -> CancelledOnWire:
    """The fake CLI asks a PreToolUse callback, then cancels the request while it is held:
    it waits for the host's word that the callback was called (a user line), so the cancel
    never comes before the callback however slow the machine."""
    from sdkprobe.harness import HookMatcher

    held = HeldCallback(ceiling=30)
    request = {
        "subtype": "hook_callback",
        "callback_id": "hook_0",
        "input": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "touch m"}},
        "tool_use_id": "toolu_wire_1",
    }
    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .emit({"type": "control_request", "request_id": "hook_req_1", "request": request})
        .wait_for(type="user", message={"content": _CALLBACK_HELD})
        .emit({"type": "control_cancel_request", "request_id": "hook_req_1"})
        .sleep(0.5)
        .result()
    )

    at_result: list[str] = []

    async def read_turn(client: Any, out: Any) -> None:
        await client.query("go")
        if not await held.asked(timeout=10):
            return  # never called: nothing to cancel (the events say so)
        await client.query(_CALLBACK_HELD)  # the fake's cue to cancel
        async for message in client.receive_response():
            out.messages.append(message)
            if _is_result(message):  # the fake sent it after the cancel: before the SDK closes (and cancels all)
                at_result.extend(held.events)

    extra: dict[str, Any] = {"timeout": _HOOK_TIMEOUT} if with_timeout else {}
    wire = await h.wire(
        None,
        scenario=scenario,
        client=True,
        drive=read_turn,
        timeout=20,
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[held.hook({})], **extra)]},
    )
    matchers = ((wire.initialize or {}).get("hooks") or {}).get("PreToolUse") or [{}]
    answer = wire.answers.get("hook_req_1")
    return {
        "timeout sent": matchers[0].get("timeout"),
        "events at result": at_result,
        "answer": None if answer is None else answer.get("subtype"),
        "error": wire.error_line,
    }


@callback_timeout_semantics.decide
def _(seen: TimeoutSeen) -> dict[str, Check]:
    wire = seen["wire"]
    checks = {
        "cancel-request-cancels-callback": check(
            wire["events at result"] == ["asked 1", "cancelled 1"] and wire["answer"] is None,
            f"held callback events when the result came {wire['events at result']}, "
            f"answer written to the cancelled request {wire['answer']!r} "
            f"(timeout sent in initialize: {wire['timeout sent']!r}; raised {wire['error']})",
        )
    }
    cli = seen["cli"]
    if "absent" in cli:
        for name in _CLI_CHECKS:
            checks[name] = undecidable(cli["absent"])
        return checks
    turns, events, files = cli["turns"], cli["events"], cli["files"]
    timed_out, prompt, interrupted = (
        turns["timed-out PreToolUse"],
        turns["timed-out UserPromptSubmit"],
        turns["interrupted PreToolUse"],
    )

    def said(name: str) -> str:
        turn = turns[name]
        return (
            f"{name}: callback events {events[name]}, still pending at the turn's result: "
            f"{turn['pending at result']}, turn result {turn['result']}, "
            f"released by the probe for the result: {turn.get('released for the result', False)}"
        )

    checks["timed-out-pretooluse-tool-not-run"] = check(
        timed_out["asked"] == 1 and not timed_out["released for the result"] and not files["m-timeout.txt"],
        f"{said('timed-out PreToolUse')}; m-timeout.txt made: {files['m-timeout.txt']}",
    )
    checks["timed-out-prompt-hook-blocks-only-its-prompt"] = check(
        prompt["asked"] == 1 and not prompt["released for the result"] and not cli["held prompt reached the model"],
        f"{said('timed-out UserPromptSubmit')}; the held prompt reached the model: "
        f"{cli['held prompt reached the model']}",
    )
    # No "next prompt" turn at all when the session ended at the prompt hook's timeout.
    following = (turns.get("next prompt") or {}).get("result")
    checks["session-takes-next-prompt"] = check(
        cli["next prompt reached the model"] and following == "success",
        f"the prompt after the timed-out prompt hook reached the model: {cli['next prompt reached the model']}, "
        f"its turn's result {following!r}; raised {cli['error']}",
    )
    checks["interrupt-during-pretooluse-tool-not-run"] = check(
        interrupted["asked"] and not files["m-interrupt.txt"],
        f"interrupted PreToolUse: asked {interrupted['asked']}, callback events {events['interrupted PreToolUse']}, "
        f"turn result {interrupted['result']}; m-interrupt.txt made: {files['m-interrupt.txt']}",
    )
    return checks


_CLI_CHECKS = (
    "timed-out-pretooluse-tool-not-run",
    "timed-out-prompt-hook-blocks-only-its-prompt",
    "session-takes-next-prompt",
    "interrupt-during-pretooluse-tool-not-run",
)


def _timeout_seen(
    *, wire_events: list[str], answer: str | None, ran: bool, prompt_sent: bool, next_ok: bool
) -> TimeoutSeen:
    result = {"subtype": "success", "is_error": False}
    return {
        "wire": {"timeout sent": 2, "events at result": wire_events, "answer": answer, "error": None},
        "cli": {
            "turns": {
                "timed-out PreToolUse": {
                    "asked": 1,
                    "pending at result": 1,
                    "released for the result": False,
                    "result": result,
                },
                "interrupted PreToolUse": {"asked": True, "pending at result": 0, "result": result},
                "timed-out UserPromptSubmit": {
                    "asked": 1,
                    "pending at result": 0,
                    "released for the result": False,
                    "result": {"subtype": "error_during_execution", "is_error": True},
                },
                "next prompt": {"result": "success" if next_ok else None},
            },
            "events": {
                "timed-out PreToolUse": ["asked 1", "released 1"],
                "interrupted PreToolUse": ["asked 1", "released 1"],
                "timed-out UserPromptSubmit": ["asked 1", "cancelled 1"],
            },
            "files": {"m-timeout.txt": ran, "m-interrupt.txt": ran},
            "held prompt reached the model": prompt_sent,
            "next prompt reached the model": next_ok,
            "error": None,
        },
    }


# The tool ran once its hook timed out or the turn was interrupted, the prompt went to the model
# anyway and the session took no next prompt; the SDK left the cancelled callback running.
callback_timeout_semantics.differs_on(
    _timeout_seen(wire_events=["asked 1"], answer=None, ran=True, prompt_sent=True, next_ok=False)
)
# Before CLI 2.1.208 (cc#77634): the timed-out prompt hook ended the run, the next prompt unanswered.
callback_timeout_semantics.differs_on(
    _timeout_seen(wire_events=["asked 1", "cancelled 1"], answer=None, ran=False, prompt_sent=False, next_ok=False)
)
# As CLI 2.1.181 does: the session ended at the prompt hook's timeout, so no next turn was run at all.
_ended_at_prompt_hook = _timeout_seen(
    wire_events=["asked 1", "cancelled 1"], answer=None, ran=False, prompt_sent=False, next_ok=False
)
del _ended_at_prompt_hook["cli"]["turns"]["next prompt"]
callback_timeout_semantics.differs_on(_ended_at_prompt_hook)
# HookMatcher.timeout no longer reaching the CLI: the two timed hooks wait until the probe lets them go
# at its ceiling, then answer {}: the Bash call runs and the held prompt reaches the model
_never_timed_out = _timeout_seen(
    wire_events=["asked 1", "cancelled 1"], answer=None, ran=False, prompt_sent=True, next_ok=True
)
for _turn in ("timed-out PreToolUse", "timed-out UserPromptSubmit"):
    _never_timed_out["cli"]["turns"][_turn]["released for the result"] = True
_never_timed_out["cli"]["files"]["m-timeout.txt"] = True
callback_timeout_semantics.differs_on(_never_timed_out)
