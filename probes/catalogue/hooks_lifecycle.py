"""Area `hooks`, topic lifecycle: the callbacks of a session's own events (SessionStart,
SessionEnd, Stop, Notification) and PreToolUse under bypassPermissions, which users reported
never being called from an SDK session or being passed over (CATALOGUE-4 Part B1).

Each behaviour runs real-CLI sessions against the model double and reads which callbacks the
CLI asked for (the harness records every call in `CliRun.callbacks`), what the model was sent,
and which files the scripted tools left in the working directory.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import MAIN, CliRun, Harness, StdinRecording, reply, tool_use, typed_keys

_USER_TURN = [{"type": "user", "message": {"role": "user", "content": "hi"}, "parent_tool_use_id": None}]


def _calls(run: CliRun, event: str) -> list[dict[str, Any]]:
    """The inputs of the hook callbacks the CLI asked for `event`, in order."""
    return [c["input"] for c in run.callbacks if c["kind"] == "hook" and c["event"] == event]


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
    pins={
        "start-called": ("hook-output:SessionStartHookSpecificOutput.additionalContext",),
        "start-input-has-source": ("hook-output:SessionStartHookSpecificOutput.additionalContext",),
        "end-called": ("hook-output:SessionStartHookSpecificOutput.additionalContext",),
        "end-input-has-reason": ("hook-output:SessionStartHookSpecificOutput.additionalContext",),
        "start-context-reaches-model": ("hook-output:SessionStartHookSpecificOutput.additionalContext",),
    },
    sdk_ref="claude_agent_sdk.types.SessionStartHookSpecificOutput",
    timeout=240,
)
async def session_start_end_callbacks(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    shapes: dict[str, Any] = {}
    for label, (prompt, client) in _SHAPES.items():
        run = await h.session(
            prompt,
            client=client,
            script=["done"],
            record_stdin=StdinRecording(h.workdir("stdin")),
            hooks={
                "SessionStart": [HookMatcher(matcher=None, hooks=[_session_start])],
                "SessionEnd": [HookMatcher(matcher=None, hooks=[_session_end])],
            },
        )
        starts, ends = _calls(run, "SessionStart"), _calls(run, "SessionEnd")
        shapes[label] = {
            "registered in initialize": _registered_events(run),
            "start sources": [s.get("source") for s in starts],
            "end reasons": [e.get("reason") for e in ends],
            "context in first request": _first_request_carries(run, _SS_MARK),
            "error": run.error_line,
        }
    folder = h.workdir("markers")
    run = await h.session("hi", client=True, script=["done"], settings=_lifecycle_settings(folder))
    settings = {
        "start ran": (folder / "session-start").exists(),
        "end ran": (folder / "session-end").exists(),
        "context in first request": _first_request_carries(run, _SS_FILE_MARK),
        "error": run.error_line,
    }
    return {"shapes": shapes, "settings hooks": settings}


def _shapes_where(shapes: dict[str, Any], ok: Any) -> list[str]:
    """The session shapes for which `ok(shape)` is false."""
    return [label for label, shape in shapes.items() if not ok(shape)]


@session_start_end_callbacks.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    shapes, settings = seen["shapes"], seen["settings hooks"]

    def note(what: str, failing: list[str]) -> str:
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


def _shape(sources: list[Any], reasons: list[Any], context: bool) -> dict[str, Any]:
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
        "callback-called": ("hook-output:SyncHookJSONOutput.decision",),
        "block-takes-another-turn": ("hook-output:SyncHookJSONOutput.decision",),
        "reason-reaches-model": ("hook-output:SyncHookJSONOutput.decision", "hook-output:SyncHookJSONOutput.reason"),
        "second-stop-input-active": ("hook-event:Stop", "hook-output:SyncHookJSONOutput.decision"),
        "additional-context-continues": (
            "hook-output:SyncHookJSONOutput.decision",
            "hook-output:StopHookSpecificOutput.additionalContext",
        ),
    },
    sdk_ref="claude_agent_sdk.types.StopHookInput",
    timeout=200,
)
async def stop_block_forces_continuation(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    variants: dict[str, Any] = {}
    for label, output in _STOP_VARIANTS.items():
        run = await h.session(
            "answer",
            client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
            script=["first answer", "second answer", "third answer"],
            hooks={"Stop": [HookMatcher(matcher=None, hooks=[_once(output)])]},
        )
        later = [json.dumps(r.body, sort_keys=True) for r in run.on(MAIN)[1:]]
        result = run.result
        variants[label] = {
            "stop_hook_active per call": [s.get("stop_hook_active") for s in _calls(run, "Stop")],
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


def _variant(actives: list[Any], requests: int, carry: list[str]) -> dict[str, Any]:
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
    {
        "variants": {
            "block": _variant([False, False], 2, []),
            "additionalContext": _variant([False], 1, []),
            "block, continue_=False": _variant([False], 1, []),
        },
        "declares additionalContext": True,
    }
)


# --- hooks.pretooluse-in-bypass-mode ---------------------------------------------------------

# file a scripted `touch` makes: what the PreToolUse callback answers for it
_BYPASS_DECISIONS = {"d.txt": "deny", "a.txt": "ask", "o.txt": "allow"}


def _touched(hook_input: Any) -> str:
    """The file a scripted `touch` call names ("" for any other call)."""
    command = str((hook_input.get("tool_input") or {}).get("command", ""))
    return next((name for name in _BYPASS_DECISIONS if name in command), "")


async def _decide_by_file(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    decision = _BYPASS_DECISIONS.get(_touched(hook_input))
    if decision is None:
        return {}
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": f"probe: {decision}",
        }
    }


@behaviour(
    id="hooks.pretooluse-in-bypass-mode",
    claim=(
        "In bypassPermissions mode a PreToolUse callback is still called before every tool call: its "
        "permissionDecision 'deny' keeps the tool from running and its 'ask' still goes to can_use_tool, whose "
        "deny then keeps the tool from running; 'allow' lets it run."
    ),
    summary="bypassPermissions still calls PreToolUse; its deny blocks, its ask reaches can_use_tool",
    source=("cc#53589", "report"),
    tier="cli",
    checks=(
        "hook-called-for-every-call",
        "deny-blocks-tool",
        "ask-reaches-can-use-tool",
        "ask-denied-not-run",
        "allow-runs",
    ),
    controls=("allow-runs",),
    requires=(
        "option:hooks",
        "option:can_use_tool",
        "api:HookMatcher",
        "api:ClaudeSDKClient",
        "api:PermissionResultDeny",
    ),
    pins={
        "hook-called-for-every-call": (
            "hook-event:PreToolUse",
            "hook-output:PreToolUseHookSpecificOutput.permissionDecision",
        ),
        "deny-blocks-tool": ("hook-event:PreToolUse", "hook-output:PreToolUseHookSpecificOutput.permissionDecision"),
        "ask-reaches-can-use-tool": (
            "hook-event:PreToolUse",
            "hook-output:PreToolUseHookSpecificOutput.permissionDecision",
            "option:can_use_tool",
        ),
        "ask-denied-not-run": ("hook-event:PreToolUse", "hook-output:PreToolUseHookSpecificOutput.permissionDecision"),
    },
    sdk_ref="claude_agent_sdk.types.PreToolUseHookSpecificOutput",
    security="a PreToolUse deny or ask skipped under bypassPermissions would let a tool the host refused run",
    timeout=120,
)
async def pretooluse_in_bypass_mode(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher, PermissionResultDeny

    async def deny_everything(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        return PermissionResultDeny(message="probe: can_use_tool denies")

    calls = [
        tool_use("Bash", {"command": f"touch {name}", "description": "probe"}, f"toolu_bypass_{name[0]}")
        for name in _BYPASS_DECISIONS
    ]
    run = await h.session(
        "touch three files",
        client=True,  # can_use_tool needs a streamed prompt
        script=[*(reply(call) for call in calls), "done"],
        permission_mode="bypassPermissions",
        env={"IS_SANDBOX": "1"},  # the CLI refuses bypassPermissions to root outside a sandbox
        can_use_tool=deny_everything,
        hooks={"PreToolUse": [HookMatcher(matcher=None, hooks=[_decide_by_file])]},
    )
    return {
        "hook saw": [_touched(c) or "other" for c in _calls(run, "PreToolUse")],
        "can_use_tool saw": [
            _touched({"tool_input": c["input"]}) or c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"
        ],
        "files": {name: (h.cwd / name).exists() for name in _BYPASS_DECISIONS},
        "permission mode": run.init.get("permissionMode"),
        "error": run.error_line,
    }


@pretooluse_in_bypass_mode.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    files, hooked, asked = seen["files"], seen["hook saw"], seen["can_use_tool saw"]
    context = f"files {files}; PreToolUse saw {hooked}; can_use_tool saw {asked}; mode {seen['permission mode']}"
    return {
        "hook-called-for-every-call": check(sorted(hooked) == sorted(_BYPASS_DECISIONS), context),
        "deny-blocks-tool": check(not files["d.txt"], context),
        "ask-reaches-can-use-tool": check("a.txt" in asked, context),
        "ask-denied-not-run": check(not files["a.txt"], context),
        "allow-runs": check(files["o.txt"], context + f"; raised {seen['error']}"),
    }


pretooluse_in_bypass_mode.differs_on(
    {
        "hook saw": [],
        "can_use_tool saw": [],
        "files": {"d.txt": True, "a.txt": True, "o.txt": False},
        "permission mode": "bypassPermissions",
        "error": None,
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
async def notification_fires_in_sdk(h: Harness) -> dict[str, Any]:
    import asyncio

    from claude_agent_sdk import HookMatcher, PermissionResultAllow

    runs: dict[str, Any] = {}
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
        run = await h.session(
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
        notifications = _calls(run, "Notification")
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
