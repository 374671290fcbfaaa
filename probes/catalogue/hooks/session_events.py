"""The hooks around a session rather than a tool call: SessionStart and SessionEnd,
UserPromptSubmit, Stop, Notification, PreCompact."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.hooks.support import CEILING, bash_call, hook_calls, request_text
from sdkprobe.harness import (
    AGENT_TOOL,
    COMPACT,
    MAIN,
    CliRun,
    Harness,
    Script,
    StdinRecording,
    config_dir_env,
    reply,
    session_functions,
    tool_use,
    tool_use_offered,
    typed_keys,
)

_USER_TURN = [{"type": "user", "message": {"role": "user", "content": "hi"}, "parent_tool_use_id": None}]


def _registered_events(run: CliRun) -> list[str]:
    """The hook events the SDK's initialize request registered (its stdin recorded)."""
    for line in run.stdin:
        request = line.get("request") if isinstance(line, dict) else None
        if isinstance(request, dict) and request.get("subtype") == "initialize":
            return sorted(request.get("hooks") or {})
    return []


def _first_request_carries(run: CliRun, marker: str) -> bool:
    """Whether the main conversation's first model request has `marker` anywhere in it."""
    first = run.first(MAIN)
    return first is not None and marker in json.dumps(first.body, sort_keys=True)


# --- hooks.session-start-end-callbacks -------------------------------------------------------

_SS_MARK = "SS-MARK-B1"
_SS_FILE_MARK = "SS-FILE-MARK-B1"
# how the session is run: (prompt, client)
_SHAPES: dict[str, tuple[Any, bool]] = {
    "query, string prompt": ("hi", False),
    "query, iterable prompt": (_USER_TURN, False),
    "client, then disconnect": ("hi", True),
}


async def _session_start(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": _SS_MARK}}


async def _session_end(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    return {}


def _lifecycle_settings(folder: Path) -> str:
    """Inline settings declaring the same two events as command hooks, each touching a marker file
    in `folder` (SessionStart's stdout is context for the model)."""

    def command(name: str, echo: str = "") -> dict[str, Any]:
        touch = f"touch {shlex.quote(str(folder / name))}"
        return {"type": "command", "command": f"{touch}; echo {echo}" if echo else touch}

    hooks = {
        "SessionStart": [{"hooks": [command("session-start", _SS_FILE_MARK)]}],
        "SessionEnd": [{"hooks": [command("session-end")]}],
    }
    return json.dumps({"hooks": hooks})


# One session shape's run: what its initialize registered and what the two callbacks were given.
Shape = TypedDict(
    "Shape",
    {
        "registered in initialize": list[str],
        "start sources": list[Any],
        "end reasons": list[Any],
        "context in first request": bool,
        "error": str | None,
    },
)
_ShapeKey = Literal["registered in initialize", "start sources", "end reasons", "context in first request"]
SettingsRan = TypedDict(
    "SettingsRan", {"start ran": bool, "end ran": bool, "context in first request": bool, "error": str | None}
)
LifecycleSeen = TypedDict("LifecycleSeen", {"shapes": dict[str, Shape], "settings hooks": SettingsRan})


@behaviour(
    id="hooks.session-start-end-callbacks",
    claim=(
        "A SessionStart and a SessionEnd callback given in hooks= are called, SessionStart when the session "
        "begins (its input carrying a source) and SessionEnd when it closes (carrying a reason), whether the "
        "session is a query() with a string or an iterable prompt or a ClaudeSDKClient then disconnected; "
        "SessionStart's additionalContext reaches the model in the first request."
    ),
    summary="SessionStart/SessionEnd callbacks run in every session shape; context reaches model",
    source=("ts#465", "report"),
    tier="cli",
    checks=(
        "start-called",
        "start-input-has-source",
        "end-called",
        "end-input-has-reason",
        "start-context-reaches-model",
        "settings-hooks-run",
    ),
    controls=("settings-hooks-run",),
    requires=("option:hooks", "option:settings", "api:HookMatcher", "api:ClaudeSDKClient"),
    # whether the callbacks are called does not depend on what SessionStart answers
    pins={"start-context-reaches-model": ("hook-output:SessionStartHookSpecificOutput.additionalContext",)},
    sdk_ref="claude_agent_sdk.types.SessionStartHookSpecificOutput",
    timeout=240,
)
async def session_start_end_callbacks(h: Harness) -> LifecycleSeen:
    from sdkprobe.harness import HookMatcher

    shapes: dict[str, Shape] = {}
    for label, (prompt, client) in _SHAPES.items():
        run = await h.cli(
            prompt,
            client=client,
            script=["done"],
            record_stdin=StdinRecording(h.workdir("stdin")),
            hooks={
                "SessionStart": [HookMatcher(matcher=None, hooks=[_session_start])],
                "SessionEnd": [HookMatcher(matcher=None, hooks=[_session_end])],
            },
        )
        starts, ends = hook_calls(run, "SessionStart"), hook_calls(run, "SessionEnd")
        shapes[label] = {
            "registered in initialize": _registered_events(run),
            "start sources": [s.get("source") for s in starts],
            "end reasons": [e.get("reason") for e in ends],
            "context in first request": _first_request_carries(run, _SS_MARK),
            "error": run.error_line,
        }
    folder = h.workdir("markers")
    run = await h.cli("hi", client=True, script=["done"], settings=_lifecycle_settings(folder))
    settings: SettingsRan = {
        "start ran": (folder / "session-start").exists(),
        "end ran": (folder / "session-end").exists(),
        "context in first request": _first_request_carries(run, _SS_FILE_MARK),
        "error": run.error_line,
    }
    return {"shapes": shapes, "settings hooks": settings}


def _shapes_where(shapes: dict[str, Shape], ok: Callable[[Shape], object]) -> list[str]:
    """The session shapes for which `ok(shape)` is false."""
    return [label for label, shape in shapes.items() if not ok(shape)]


@session_start_end_callbacks.decide
def _(seen: LifecycleSeen) -> dict[str, Check]:
    shapes, settings = seen["shapes"], seen["settings hooks"]

    def note(what: _ShapeKey, failing: list[str]) -> str:
        per_shape = "; ".join(f"{label}: {shape[what]}" for label, shape in shapes.items())
        return f"{what} per session shape: {per_shape}" + (f" (failing: {', '.join(failing)})" if failing else "")

    started = _shapes_where(shapes, lambda s: len(s["start sources"]) == 1)
    sourced = _shapes_where(shapes, lambda s: all(isinstance(x, str) and x for x in s["start sources"]))
    ended = _shapes_where(shapes, lambda s: len(s["end reasons"]) == 1)
    reasoned = _shapes_where(shapes, lambda s: all(isinstance(x, str) and x for x in s["end reasons"]))
    context = _shapes_where(shapes, lambda s: s["context in first request"])
    return {
        "start-called": check(
            not started, note("start sources", started) + "; " + note("registered in initialize", [])
        ),
        "start-input-has-source": check(not sourced and not started, note("start sources", sourced)),
        "end-called": check(not ended, note("end reasons", ended)),
        "end-input-has-reason": check(not reasoned and not ended, note("end reasons", reasoned)),
        "start-context-reaches-model": check(not context, note("context in first request", context)),
        "settings-hooks-run": check(
            settings["start ran"] and settings["end ran"],
            f"the same events as command hooks in inline settings: {settings}",
        ),
    }


def _shape(sources: list[Any], reasons: list[Any], context: bool) -> Shape:
    return {
        "registered in initialize": ["SessionEnd", "SessionStart"],
        "start sources": sources,
        "end reasons": reasons,
        "context in first request": context,
        "error": None,
    }


session_start_end_callbacks.differs_on(
    {
        "shapes": {label: _shape([], [], False) for label in _SHAPES},
        "settings hooks": {"start ran": False, "end ran": False, "context in first request": False, "error": None},
    }
)
session_start_end_callbacks.differs_on(
    {  # SessionStart's additionalContext no longer reaching the CLI: both called, the model never told
        "shapes": {label: _shape(["startup"], ["other"], False) for label in _SHAPES},
        "settings hooks": {"start ran": True, "end ran": True, "context in first request": True, "error": None},
    }
)
session_start_end_callbacks.differs_on(
    {
        "shapes": {label: _shape([None], [None], True) for label in _SHAPES},
        "settings hooks": {"start ran": True, "end ran": True, "context in first request": True, "error": None},
    }
)


# --- hooks.stop-block-forces-continuation ----------------------------------------------------

_GO_ON_MARK = "GO-ON-MARK-B1"
_STOP_CONTEXT_MARK = "STOP-CTX-MARK-B1"
# variant: what the Stop callback returns the first time it is called (then {})
_STOP_VARIANTS: dict[str, dict[str, Any]] = {
    "block": {"decision": "block", "reason": _GO_ON_MARK},
    "additionalContext": {"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": _STOP_CONTEXT_MARK}},
    "block, continue_=False": {"decision": "block", "reason": _GO_ON_MARK, "continue_": False},
}


def _once(output: dict[str, Any]) -> Any:
    """A Stop callback that answers `output` the first time and {} after."""
    calls: list[int] = []

    async def stop(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        calls.append(1)
        return output if len(calls) == 1 else {}

    return stop


# One variant's session: the Stop calls, the model requests and what the later ones carried.
StopRun = TypedDict(
    "StopRun",
    {
        "stop_hook_active per call": list[Any],
        "model requests": int,
        "later requests carry": list[str],
        "result": dict[str, Any] | None,  # subtype, is_error
        "error": str | None,
    },
)
StopSeen = TypedDict("StopSeen", {"variants": dict[str, StopRun], "declares additionalContext": bool})


@behaviour(
    id="hooks.stop-block-forces-continuation",
    claim=(
        "A Stop callback given in hooks= is called when the agent would end its turn; answering decision "
        "'block' with a reason makes the agent take another turn whose model request carries the reason, and "
        "the Stop input of that next stop has stop_hook_active true; a Stop additionalContext (documented as "
        "continuing the conversation) likewise reaches the model in a further request."
    ),
    summary="Stop callback's block (with reason) makes the agent continue; reason reaches model",
    source=("ts#298", "report"),
    tier="cli",
    checks=(
        "callback-called",
        "block-takes-another-turn",
        "reason-reaches-model",
        "second-stop-input-active",
        "additional-context-continues",
    ),
    requires=("option:hooks", "api:HookMatcher", "api:ClaudeSDKClient"),
    pins={
        # a Stop callback is called whatever it answers: what it answers is the later sub-checks'
        "callback-called": ("hook-event:Stop",),
        "block-takes-another-turn": ("hook-output:SyncHookJSONOutput.decision",),
        "reason-reaches-model": ("hook-output:SyncHookJSONOutput.decision", "hook-output:SyncHookJSONOutput.reason"),
        "second-stop-input-active": ("hook-event:Stop", "hook-output:SyncHookJSONOutput.decision"),
        "additional-context-continues": ("hook-output:StopHookSpecificOutput.additionalContext",),
    },
    sdk_ref="claude_agent_sdk.types.StopHookInput",
    timeout=200,
)
async def stop_block_forces_continuation(h: Harness) -> StopSeen:
    from sdkprobe.harness import HookMatcher

    variants: dict[str, StopRun] = {}
    for label, output in _STOP_VARIANTS.items():
        run = await h.cli(
            "answer",
            client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
            script=["first answer", "second answer", "third answer"],
            hooks={"Stop": [HookMatcher(matcher=None, hooks=[_once(output)])]},
        )
        later = [json.dumps(r.body, sort_keys=True) for r in run.on(MAIN)[1:]]
        result = run.result
        variants[label] = {
            "stop_hook_active per call": [s.get("stop_hook_active") for s in hook_calls(run, "Stop")],
            "model requests": len(run.on(MAIN)),
            "later requests carry": sorted(m for m in (_GO_ON_MARK, _STOP_CONTEXT_MARK) if any(m in t for t in later)),
            "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
            "error": run.error_line,
        }
    return {
        "variants": variants,
        "declares additionalContext": "additionalContext" in (typed_keys("StopHookSpecificOutput") or ()),
    }


@stop_block_forces_continuation.decide
def _(seen: StopSeen) -> dict[str, Check]:
    block, context, halted = (seen["variants"][v] for v in _STOP_VARIANTS)
    actives = block["stop_hook_active per call"]
    also = f"; with continue_=False besides: {halted}"
    out = {
        "callback-called": check(
            bool(actives), f"the blocking Stop callback's calls (stop_hook_active each): {actives}"
        ),
        "block-takes-another-turn": check(block["model requests"] >= 2, f"after the block: {block}" + also),
        "reason-reaches-model": check(
            _GO_ON_MARK in block["later requests carry"],
            f"markers in the requests after the first: {block['later requests carry']} "
            f"({block['model requests']} requests)",
        ),
        "second-stop-input-active": check(
            len(actives) >= 2 and actives[1] is True, f"stop_hook_active of each Stop call: {actives}"
        ),
    }
    if not seen["declares additionalContext"]:
        out["additional-context-continues"] = undecidable(
            "this SDK's StopHookSpecificOutput declares no additionalContext"
        )
    else:
        out["additional-context-continues"] = check(
            _STOP_CONTEXT_MARK in context["later requests carry"],
            f"after a Stop additionalContext: {context}",
        )
    return out


def _variant(actives: list[Any], requests: int, carry: list[str]) -> StopRun:
    return {
        "stop_hook_active per call": actives,
        "model requests": requests,
        "later requests carry": carry,
        "result": {"subtype": "success", "is_error": False},
        "error": None,
    }


stop_block_forces_continuation.differs_on(
    {
        "variants": {label: _variant([], 1, []) for label in _STOP_VARIANTS},
        "declares additionalContext": True,
    }
)
stop_block_forces_continuation.differs_on(
    {  # decision no longer reaching the CLI: the block is an empty answer, the turn ends at the first stop
        "variants": {
            "block": _variant([False], 1, []),
            "additionalContext": _variant([False, True], 2, [_STOP_CONTEXT_MARK]),
            "block, continue_=False": _variant([False], 1, []),
        },
        "declares additionalContext": True,
    }
)
stop_block_forces_continuation.differs_on(
    {
        "variants": {
            "block": _variant([False, False], 2, []),
            "additionalContext": _variant([False], 1, []),
            "block, continue_=False": _variant([False], 1, []),
        },
        "declares additionalContext": True,
    }
)


# --- hooks.notification-fires-in-sdk ---------------------------------------------------------

_PERMISSION_PROMPT = "permission_prompt"


def _permission_sequence(run: CliRun) -> list[str]:
    """The Notification (with its type), PermissionRequest and can_use_tool calls, in order."""
    sequence = []
    for c in run.callbacks:
        if c["kind"] == "can_use_tool":
            sequence.append("can_use_tool")
        elif c["event"] == "Notification":
            sequence.append(f"Notification:{c['input'].get('notification_type')}")
        elif c["event"] == "PermissionRequest":
            sequence.append("PermissionRequest")
    return sequence


def _notification_settings(folder: Path) -> str:
    """Inline settings with a Notification command hook that leaves a file in `folder` named after
    the notification's type: whether the event fires at all, apart from the SDK's callback."""
    script = (
        "import json,sys,pathlib; t=json.load(sys.stdin).get('notification_type') or 'none'; "
        f"pathlib.Path({str(folder)!r}, str(t)).touch()"
    )
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(script)}"
    return json.dumps({"hooks": {"Notification": [{"hooks": [{"type": "command", "command": command}]}]}})


async def _record_only(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    return {}


async def _appeared(folder: Path) -> None:
    """Return once a file is in `folder` (a command hook's process left it there)."""
    import asyncio

    while not any(folder.iterdir()):
        await asyncio.sleep(0.05)


_NOTIFICATION_CEILING = 30.0  # seconds a pending permission prompt waits for its notification: a hang's


# One session (with or without can_use_tool) writing a file that needs permission.
NotifiedRun = TypedDict(
    "NotifiedRun",
    {
        "sequence": list[str],  # _permission_sequence
        "messages are text": list[bool],
        "file written": bool,
        "settings hook notified": list[str],
        "error": str | None,
    },
)
NotifiedSeen = TypedDict("NotifiedSeen", {"runs": dict[str, NotifiedRun], "declares notification_type": bool})


@behaviour(
    id="hooks.notification-fires-in-sdk",
    claim=(
        "A Notification callback given in hooks= is called when an SDK session needs the user's permission for "
        "a tool, with notification_type 'permission_prompt' and a message."
    ),
    summary="A Notification callback fires with permission_prompt when a tool needs permission",
    source=("cc#85171", "report"),
    tier="cli",
    checks=("notification-called", "permission-prompt-type", "input-has-message", "permission-asked"),
    controls=("permission-asked",),
    requires=(
        "option:hooks",
        "option:can_use_tool",
        "api:HookMatcher",
        "api:ClaudeSDKClient",
        "api:PermissionResultAllow",
    ),
    pins={"notification-called": ("hook-event:Notification",)},
    sdk_ref="claude_agent_sdk.types.NotificationHookInput",
    timeout=150,
)
async def notification_fires_in_sdk(h: Harness) -> NotifiedSeen:
    import asyncio

    from sdkprobe.harness import HookMatcher, PermissionResultAllow

    runs: dict[str, NotifiedRun] = {}
    for label in ("with can_use_tool", "without can_use_tool"):
        # The permission prompt stays pending until the Notification callback has been called:
        # decided by order, however slow the machine; only a CLI that never notifies waits
        # out the ceiling (and then the prompt is answered all the same).
        notified = asyncio.Event()
        markers = h.workdir("notified")

        async def notification(hook_input: Any, tool_use_id: Any, context: Any, notified: Any = notified) -> Any:
            notified.set()
            return {}

        async def allow_once_notified(
            name: str, tool_input: dict[str, Any], context: Any, notified: Any = notified, markers: Path = markers
        ) -> Any:
            try:
                await asyncio.wait_for(notified.wait(), _NOTIFICATION_CEILING)
                # the settings' command hook runs beside the callback: its file, waited for while the prompt is pending
                await asyncio.wait_for(_appeared(markers), _NOTIFICATION_CEILING)
            except asyncio.TimeoutError:
                pass
            return PermissionResultAllow()

        can_use_tool = allow_once_notified if label == "with can_use_tool" else None
        name = "f1.txt" if can_use_tool else "f2.txt"
        write = tool_use("Write", {"file_path": str(h.cwd / name), "content": "probe"}, f"toolu_notify_{name[1]}")
        extra: dict[str, Any] = {"can_use_tool": can_use_tool} if can_use_tool else {}
        run = await h.cli(
            "write a file",
            client=True,  # hooks and can_use_tool need a streamed prompt on old SDKs
            script=[reply(write), "done"],
            hooks={
                "Notification": [HookMatcher(matcher=None, hooks=[notification])],
                "PermissionRequest": [HookMatcher(matcher=None, hooks=[_record_only])],
            },
            settings=_notification_settings(markers),
            **extra,
        )
        notifications = hook_calls(run, "Notification")
        runs[label] = {
            "sequence": _permission_sequence(run),
            "messages are text": [isinstance(n.get("message"), str) and bool(n.get("message")) for n in notifications],
            "file written": (h.cwd / name).exists(),
            "settings hook notified": sorted(p.name for p in markers.iterdir()),
            "error": run.error_line,
        }
    return {
        "runs": runs,
        "declares notification_type": "notification_type" in (typed_keys("NotificationHookInput") or ()),
    }


@notification_fires_in_sdk.decide
def _(seen: NotifiedSeen) -> dict[str, Check]:
    first, second = seen["runs"]["with can_use_tool"], seen["runs"]["without can_use_tool"]
    note = f"with can_use_tool: {first}; without: {second}"
    notified = [s for s in first["sequence"] if s.startswith("Notification:")]
    out = {
        "notification-called": check(bool(notified), note),
        "input-has-message": check(bool(first["messages are text"]) and all(first["messages are text"]), note),
        "permission-asked": check("can_use_tool" in first["sequence"], note),
    }
    if not seen["declares notification_type"]:
        out["permission-prompt-type"] = undecidable("this SDK's NotificationHookInput declares no notification_type")
    else:
        out["permission-prompt-type"] = check(f"Notification:{_PERMISSION_PROMPT}" in notified, note)
    return out


notification_fires_in_sdk.differs_on(
    {
        "runs": {
            "with can_use_tool": {
                "sequence": ["PermissionRequest", "can_use_tool"],
                "messages are text": [],
                "file written": True,
                "settings hook notified": [],
                "error": None,
            },
            "without can_use_tool": {
                "sequence": [],
                "messages are text": [],
                "file written": False,
                "settings hook notified": [],
                "error": None,
            },
        },
        "declares notification_type": True,
    }
)
notification_fires_in_sdk.differs_on(
    {
        "runs": {
            "with can_use_tool": {
                "sequence": ["Notification:idle_prompt"],
                "messages are text": [False],
                "file written": False,
                "settings hook notified": [],
                "error": None,
            },
            "without can_use_tool": {
                "sequence": [],
                "messages are text": [],
                "file written": False,
                "settings hook notified": [],
                "error": None,
            },
        },
        "declares notification_type": True,
    }
)


# --- hooks.user-prompt-submit-output ---------------------------------------------------------

# turn: (its prompt, what the UserPromptSubmit callback returns for it)
_PROMPT_TURNS: dict[str, tuple[str, dict[str, Any]]] = {
    "context and title": (
        "first prompt FIRST-P",
        {
            "hookSpecificOutput": {
                "hookEventName": "UserPromptSubmit",
                "additionalContext": "UP-MARK",
                "sessionTitle": "T-MARK",
            }
        },
    ),
    "top-level context": ("second prompt SECOND-P", {"additionalContext": "TOP-MARK"}),
    "updatedPrompt": (
        "third prompt THIRD-P",
        {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "updatedPrompt": "NEW-MARK"}},
    ),
    "block": ("blocked prompt BLOCK-P1", {"decision": "block", "reason": "NO-MARK-1"}),
    "block, suppressed": (
        "blocked prompt BLOCK-P2",
        {
            "decision": "block",
            "reason": "NO-MARK-2",
            "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "suppressOriginalPrompt": True},
        },
    ),
}
_WARNING_WORDS = ("invalid", "unknown", "unrecognized", "unrecognised", "ignored", "not allowed", "validation")
# seconds a turn may take to end (a blocked prompt's turn may never yield a result): every recorded turn
# ends in seconds, so only a turn that never ends reaches it
_TURN_CEILING = 60.0


def _told(texts: list[str], field: str) -> bool:
    """Whether one of `texts` names `field` together with a word saying it was refused."""
    return any(field in t and any(w in t.lower() for w in _WARNING_WORDS) for t in texts)


def _titles(h: Harness) -> list[str] | None:
    """The custom titles the SDK's own list_sessions gives for sessions in the probe's cwd (None: this SDK
    cannot tell)."""
    list_sessions = getattr(session_functions(), "list_sessions", None)
    if list_sessions is None:
        return None
    with config_dir_env(h.config_dir):
        listed = list_sessions(directory=str(h.cwd))
    if listed and not all(hasattr(s, "custom_title") for s in listed):
        return None
    return sorted(str(s.custom_title) for s in listed if getattr(s, "custom_title", None))


# One prompt's turn (a key of _PROMPT_TURNS): how it ended, what its request carried, what the caller saw.
PromptTurn = TypedDict(
    "PromptTurn",
    {
        "ended with": str,
        "hook saw the prompt": bool,
        "model request": bool,
        "request carries": list[str],
        "caller sees": list[str],
        "messages": list[str],
    },
)
PromptSeen = TypedDict(
    "PromptSeen",
    {
        "turns": dict[str, PromptTurn],
        "block reasons on stderr": list[str],
        "new-mark prompt requests": int,
        "told": dict[str, bool],  # "additionalContext", "updatedPrompt" -> whether a warning named it
        "titles": list[str] | None,
        "declared": dict[str, bool],  # "sessionTitle", "suppressOriginalPrompt" -> whether the SDK declares it
        "error": str | None,
    },
)


@behaviour(
    id="hooks.user-prompt-submit-output",
    claim=(
        "A UserPromptSubmit callback's hookSpecificOutput.additionalContext reaches the model with the prompt, "
        "its decision 'block' keeps the prompt from the model and shows the caller the reason (without the "
        "prompt when suppressOriginalPrompt is set), its sessionTitle titles the session; an output key in the "
        "wrong place or unknown is either honoured or reported, never dropped in silence."
    ),
    summary="UserPromptSubmit context reaches the model, block stops the prompt, title is set",
    source=("cc#52876", "report"),
    tier="cli",
    checks=(
        "context-reaches-model",
        "block-makes-no-request",
        "block-reason-reaches-caller",
        "suppressed-block-hides-prompt",
        "session-title-set",
        "top-level-context-not-dropped-silently",
        "unknown-field-not-dropped-silently",
    ),
    requires=("option:hooks", "api:HookMatcher", "api:ClaudeSDKClient"),
    pins={
        "context-reaches-model": (
            "hook-event:UserPromptSubmit",
            "hook-output:UserPromptSubmitHookSpecificOutput.additionalContext",
        ),
        "block-makes-no-request": ("hook-event:UserPromptSubmit",),
        "block-reason-reaches-caller": ("hook-event:UserPromptSubmit",),
        "suppressed-block-hides-prompt": ("hook-output:UserPromptSubmitHookSpecificOutput.suppressOriginalPrompt",),
        "session-title-set": ("hook-output:UserPromptSubmitHookSpecificOutput.sessionTitle",),
        "top-level-context-not-dropped-silently": ("hook-output:UserPromptSubmitHookSpecificOutput.additionalContext",),
    },
    sdk_ref="claude_agent_sdk.types.UserPromptSubmitHookSpecificOutput",
    timeout=len(_PROMPT_TURNS) * _TURN_CEILING + 120,
)
async def user_prompt_submit_output(h: Harness) -> PromptSeen:
    from sdkprobe.harness import HookMatcher

    by_prompt = {prompt: output for prompt, output in _PROMPT_TURNS.values()}
    prompts_seen: list[str] = []

    async def answer(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        prompt = str(hook_input.get("prompt", ""))
        prompts_seen.append(prompt)
        return by_prompt.get(prompt, {})

    ended: dict[str, str] = {}

    async def steps(c: Any) -> None:
        # a turn with no result by the ceiling is left reading: the next turn's result ends that read
        pending: asyncio.Future[Any] | None = None
        try:
            for label, (prompt, _) in _PROMPT_TURNS.items():
                await c.send(prompt)
                pending = pending or asyncio.ensure_future(c.response())
                done, _ = await asyncio.wait({pending}, timeout=_TURN_CEILING)
                if not done:
                    ended[label] = "no result"
                    continue
                pending = None
                last = c.turns[-1][-1] if c.turns and c.turns[-1] else None
                ended[label] = "result" if type(last).__name__ == "ResultMessage" else "stream ended"
                if ended[label] == "stream ended":
                    return
        finally:
            if pending is not None:  # ended before close() ends the iterator it reads
                pending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pending

    run = await h.converse(
        steps,
        hooks={"UserPromptSubmit": [HookMatcher(matcher=None, hooks=[answer])]},
        timeout=len(_PROMPT_TURNS) * _TURN_CEILING + 60,
    )
    main = run.on(MAIN)
    turns: dict[str, PromptTurn] = {}
    for i, (label, (prompt, _)) in enumerate(_PROMPT_TURNS.items()):
        request = run.first(MAIN, carrying=prompt.split()[-1])
        body = "" if request is None else request_text(request)
        messages = [repr(m) for m in run.turns[i]] if i < len(run.turns) else []
        turns[label] = {
            "ended with": ended.get(label, "not sent"),
            "hook saw the prompt": prompt in prompts_seen,
            "model request": request is not None,
            "request carries": sorted(m for m in ("UP-MARK", "TOP-MARK", "NEW-MARK") if m in body),
            "caller sees": sorted(m for m in ("NO-MARK-1", "NO-MARK-2", prompt) if any(m in t for t in messages)),
            "messages": [type(m).__name__ for m in run.turns[i]] if i < len(run.turns) else [],
        }
    texts = [*run.stderr, *(repr(m) for m in run.messages if type(m).__name__ not in ("AssistantMessage",))]
    declared = set(typed_keys("UserPromptSubmitHookSpecificOutput") or ())
    return {
        "turns": turns,
        "block reasons on stderr": sorted(m for m in ("NO-MARK-1", "NO-MARK-2") if any(m in t for t in run.stderr)),
        "new-mark prompt requests": sum(1 for r in main if "NEW-MARK" in " ".join(r.texts("user"))),
        "told": {field: _told(texts, field) for field in ("additionalContext", "updatedPrompt")},
        "titles": _titles(h) if "sessionTitle" in declared else None,
        "declared": {key: key in declared for key in ("sessionTitle", "suppressOriginalPrompt")},
        "error": run.error_line,
    }


@user_prompt_submit_output.decide
def _(seen: PromptSeen) -> dict[str, Check]:
    turns, told = seen["turns"], seen["told"]
    first, top, new = turns["context and title"], turns["top-level context"], turns["updatedPrompt"]
    block, hidden = turns["block"], turns["block, suppressed"]
    hidden_prompt = _PROMPT_TURNS["block, suppressed"][0]
    out = {
        "context-reaches-model": check(
            "UP-MARK" in first["request carries"],
            f"the request of the prompt whose hook added UP-MARK: {first} (raised {seen['error']})",
        ),
        "block-makes-no-request": check(
            block["hook saw the prompt"] and not block["model request"] and not hidden["model request"],
            f"blocked prompts: {block}; with suppressOriginalPrompt: {hidden}",
        ),
        "block-reason-reaches-caller": check(
            "NO-MARK-1" in block["caller sees"] and "NO-MARK-2" in hidden["caller sees"],
            f"what the caller was shown of the blocked turns: {block['caller sees']}, {hidden['caller sees']} "
            f"(turns ended with {block['ended with']}, {hidden['ended with']})",
        ),
        "top-level-context-not-dropped-silently": check(
            "TOP-MARK" in top["request carries"] or told["additionalContext"],
            f"top-level additionalContext: the prompt's request carried {top['request carries']} "
            f"(request made: {top['model request']}), a warning naming it: {told['additionalContext']}",
        ),
        "unknown-field-not-dropped-silently": check(
            seen["new-mark prompt requests"] > 0 or told["updatedPrompt"],
            f"updatedPrompt NEW-MARK: {seen['new-mark prompt requests']} request(s) had it as user text, the "
            f"prompt's own request made: {new['model request']}, a warning naming it: {told['updatedPrompt']}",
        ),
    }
    if not seen["declared"]["suppressOriginalPrompt"]:
        out["suppressed-block-hides-prompt"] = undecidable("this SDK's hook output declares no suppressOriginalPrompt")
    else:
        out["suppressed-block-hides-prompt"] = check(
            "NO-MARK-2" in hidden["caller sees"] and hidden_prompt not in hidden["caller sees"],
            f"the suppressed block showed the caller {hidden['caller sees']} (the prompt is {hidden_prompt!r})",
        )
    if not seen["declared"]["sessionTitle"]:
        out["session-title-set"] = undecidable("this SDK's hook output declares no sessionTitle")
    elif seen["titles"] is None:
        out["session-title-set"] = undecidable("this SDK's list_sessions gives no custom_title")
    else:
        out["session-title-set"] = check(
            seen["titles"] == ["T-MARK"], f"list_sessions' custom titles for the cwd: {seen['titles']}"
        )
    return out


def _turn(request: bool, carries: list[str], sees: list[str], ended: str = "result") -> PromptTurn:
    return {
        "ended with": ended,
        "hook saw the prompt": True,
        "model request": request,
        "request carries": carries,
        "caller sees": sees,
        "messages": ["SystemMessage", "AssistantMessage", "ResultMessage"],
    }


user_prompt_submit_output.differs_on(
    {
        "turns": {
            "context and title": _turn(True, [], []),
            "top-level context": _turn(True, [], []),
            "updatedPrompt": _turn(True, [], []),
            "block": _turn(True, [], []),
            "block, suppressed": _turn(True, [], ["NO-MARK-2", "blocked prompt BLOCK-P2"]),
        },
        "block reasons on stderr": [],
        "new-mark prompt requests": 0,
        "told": {"additionalContext": False, "updatedPrompt": False},
        "titles": [],
        "declared": {"sessionTitle": True, "suppressOriginalPrompt": True},
        "error": None,
    }
)


# --- hooks.precompact-manual-and-subagent ----------------------------------------------------

_INSTRUCTIONS = "keep MARK-PC"
_SUB_PROMPT = "SUB-PROMPT-PC: run two commands"
# A subagent's reply reporting this much context makes the CLI compact the subagent's
# conversation before its next request, under the window the probe's env sets: what the CLI
# counts is the usage the API reports, so the double reports it.
_FULL = {"input_tokens": 150000, "output_tokens": 5}
_SMALL_WINDOW = {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "20000", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}
_AGENT_FIELDS = ("agent_id", "agent_type")


def _input_fields(hook_input: Any) -> dict[str, Any]:
    """The PreCompact input without what differs per run (session ids, paths); an agent id is
    kept as whether one was given."""
    skip = {"session_id", "transcript_path", "cwd", "prompt_id"}
    fields = {k: v for k, v in sorted(dict(hook_input).items()) if k not in skip}
    if "agent_id" in fields:
        fields["agent_id"] = "<agent id>" if fields["agent_id"] else fields["agent_id"]
    return fields


# The PreCompact calls (each _input_fields) for /compact and during the subagent's run, and the compactions.
PrecompactSeen = TypedDict(
    "PrecompactSeen",
    {
        "manual calls": list[dict[str, Any]],
        "summary request carried the instructions": bool,
        "compaction requests": int,
        "subagent compacted": bool,
        "calls during the subagent's run": list[dict[str, Any]],
        "error": str | None,
    },
)


@behaviour(
    id="hooks.precompact-manual-and-subagent",
    claim=(
        "A PreCompact callback is called for a manual /compact with trigger 'manual' and the instructions given "
        "after the command as custom_instructions; when a subagent's own conversation is compacted, the main "
        "session's PreCompact callback is either not called or can tell it from the main thread's (agent fields)."
    ),
    summary="PreCompact fires for /compact (manual, instructions); a subagent's compaction tellable",
    source=("cc#13572", "report"),
    tier="cli",
    checks=("manual-compact-fires-precompact", "custom-instructions-passed", "subagent-compaction-distinguishable"),
    requires=("option:hooks", "api:HookMatcher"),
    pins={
        "manual-compact-fires-precompact": ("hook-event:PreCompact",),
        "custom-instructions-passed": ("hook-event:PreCompact",),
        "subagent-compaction-distinguishable": ("hook-event:PreCompact",),
    },
    sdk_ref="claude_agent_sdk.types.PreCompactHookInput",
    timeout=150,
)
async def precompact_manual_and_subagent(h: Harness) -> PrecompactSeen:
    from sdkprobe.harness import HookMatcher

    calls: list[dict[str, Any]] = []
    compacted: dict[str, Any] = {}

    async def pre_compact(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        calls.append(_input_fields(hook_input))
        return {}

    async def steps(c: Any) -> None:
        await c.send("hello")
        await c.response()
        await c.send(f"/compact {_INSTRUCTIONS}")
        await c.response()
        compacted["calls after /compact"] = len(calls)
        await c.send("delegate it")
        # the subagent's compaction request comes only after any PreCompact call for it was answered
        try:
            await c.requests(2, route=COMPACT, timeout=CEILING)
            compacted["subagent compacted"] = True
        except RuntimeError:
            compacted["subagent compacted"] = False
        await c.response()

    run = await h.converse(
        steps,
        script=Script(
            main=[
                "first answer",
                reply(
                    tool_use_offered(
                        AGENT_TOOL,
                        {"description": "delegate", "prompt": _SUB_PROMPT, "subagent_type": "general-purpose"},
                        "toolu_pc_agent",
                    )
                ),
                "all done",
            ],
            subagent=[
                reply(bash_call("echo one", "toolu_pc_sub_1"), usage=_FULL),
                reply(bash_call("echo two", "toolu_pc_sub_2"), usage=_FULL),
                "sub done",
            ],
            fallback=reply("ok"),
        ),
        timeout=120,
        allowed_tools=["Bash", *AGENT_TOOL],
        env=dict(_SMALL_WINDOW),
        hooks={"PreCompact": [HookMatcher(hooks=[pre_compact])]},
    )
    compactions = run.on(COMPACT)
    manual = calls[: compacted.get("calls after /compact", len(calls))]
    return {
        "manual calls": manual,
        "summary request carried the instructions": bool(compactions) and compactions[0].carries(_INSTRUCTIONS),
        "compaction requests": len(compactions),
        "subagent compacted": compacted.get("subagent compacted", False),
        "calls during the subagent's run": calls[len(manual) :],
        "error": run.error_line,
    }


@precompact_manual_and_subagent.decide
def _(seen: PrecompactSeen) -> dict[str, Check]:
    manual = seen["manual calls"]
    triggers = [c.get("trigger") for c in manual]
    instructions = [c.get("custom_instructions") for c in manual]
    later = seen["calls during the subagent's run"]
    told = [c for c in later if any(c.get(f) for f in _AGENT_FIELDS)]
    checks = {
        "manual-compact-fires-precompact": check(
            triggers == ["manual"],
            f"PreCompact calls for /compact: triggers {triggers} (one 'manual' claimed); raised {seen['error']}",
        ),
        "custom-instructions-passed": check(
            instructions == [_INSTRUCTIONS],
            f"custom_instructions {instructions} ({_INSTRUCTIONS!r} claimed); the summary request carried them: "
            f"{seen['summary request carried the instructions']}",
        ),
    }
    if not seen["subagent compacted"]:
        checks["subagent-compaction-distinguishable"] = undecidable(
            f"the CLI did not compact the subagent's conversation ({seen['compaction requests']} compaction "
            "request(s) in all)"
        )
    else:
        checks["subagent-compaction-distinguishable"] = check(
            len(told) == len(later),
            f"the subagent's compaction called the main PreCompact callback {len(later)} time(s), "
            f"{len(told)} with an agent field: {later}",
        )
    return checks


# cc#13572 and cc#40138: /compact never reached the callback, and a subagent's auto-compaction
# called it as the main thread's.
precompact_manual_and_subagent.differs_on(
    {
        "manual calls": [],
        "summary request carried the instructions": True,
        "compaction requests": 2,
        "subagent compacted": True,
        "calls during the subagent's run": [
            {"custom_instructions": None, "hook_event_name": "PreCompact", "trigger": "auto"}
        ],
        "error": None,
    }
)
# The instructions dropped, the trigger mislabelled.
precompact_manual_and_subagent.differs_on(
    {
        "manual calls": [{"custom_instructions": None, "hook_event_name": "PreCompact", "trigger": "auto"}],
        "summary request carried the instructions": False,
        "compaction requests": 1,
        "subagent compacted": False,
        "calls during the subagent's run": [],
        "error": None,
    }
)
