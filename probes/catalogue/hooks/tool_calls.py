"""The hooks around a tool call (PreToolUse, PostToolUse, PermissionRequest): when they fire and
what their answers change."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Literal, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check, leave_uncovered, undecidable
from sdkprobe.catalogue.hooks.support import SUBAGENT_PROMPT, bash_call, hook_calls, request_text
from sdkprobe.harness import (
    AGENT_TOOL,
    MAIN,
    SUBAGENT,
    Harness,
    Script,
    allow_every_tool,
    in_process_server,
    in_process_tool,
    reply,
    result_text,
    tool_use,
    tool_use_offered,
    typed_keys,
)


def _mode_refused(mode: str, error: str | None) -> Check:
    """A permission mode this CLI does not start with (auto on old CLIs) leaves nothing to judge."""
    return undecidable(f"the CLI did not start with permission_mode {mode!r}: {(error or 'no init').splitlines()[0]}")


_EDITS = "Edit|Write|MultiEdit"
# acceptEdits is the deterministic stand-in for an auto approval; offline, auto mode itself
# also approves an edit inside the working directory without its classifier.
_EDIT_MODES = ("acceptEdits", "auto")


class EditRun(TypedDict):
    pretooluse: list[Any]  # the tool_name of each PreToolUse call
    posttooluse: list[Any]
    old_content_seen_by_pretooluse: list[str | None]
    same_tool_use_id: bool
    posttooluse_input_has_response: bool
    callbacks: list[Any]  # the tools can_use_tool was asked about
    file_now: str
    started: bool
    error: str | None


@behaviour(
    id="hooks.posttooluse-reports-auto-approved-edits",
    claim=(
        "A PostToolUse hook matching Edit|Write|MultiEdit fires for every edit that ran, auto-approved ones "
        "included (which can_use_tool never sees), and a PreToolUse hook on the same matcher can read the "
        "file's old content for a diff."
    ),
    summary="PostToolUse on Edit|Write|MultiEdit fires for every edit, auto-approved ones too",
    source=("004", "Auto mode"),
    tier="cli",
    checks=(
        "posttooluse-fires-in-accept-edits",
        "posttooluse-fires-in-auto",
        "pretooluse-sees-old-content",
        "same-tool-use-id-in-pre-and-post",
        "approved-edit-skips-callback",
    ),
    requires=("option:hooks", "option:can_use_tool", "option:permission_mode", "api:HookMatcher"),
    pins={"same-tool-use-id-in-pre-and-post": ("hook-event:PostToolUse",)},
    sdk_ref="claude_agent_sdk.types.PostToolUseHookInput",
)
async def posttooluse_reports_auto_approved_edits(h: Harness) -> dict[str, EditRun]:
    from sdkprobe.harness import HookMatcher

    seen: dict[str, EditRun] = {}
    for mode in _EDIT_MODES:
        target = h.cwd / f"{mode}.txt"
        target.write_text("old content\n")
        old: list[str | None] = []

        async def before(hook_input: Any, tool_use_id: str | None, context: Any, old: list[str | None] = old) -> Any:
            path = Path((hook_input.get("tool_input") or {}).get("file_path", ""))
            old.append(path.read_text() if path.is_file() else None)
            return {}

        async def after(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
            return {}

        run = await h.cli(
            "update the file",
            client=True,  # streaming mode: old SDKs refuse callbacks with a string prompt to query()
            script=[
                # Claude Code writes over an existing file only after reading it
                reply(tool_use("Read", {"file_path": str(target)})),
                reply(tool_use("Write", {"file_path": str(target), "content": "new content\n"})),
                "done",
            ],
            permission_mode=mode,
            can_use_tool=allow_every_tool,
            hooks={
                "PreToolUse": [HookMatcher(matcher=_EDITS, hooks=[before])],
                "PostToolUse": [HookMatcher(matcher=_EDITS, hooks=[after])],
            },
        )
        hooks = [c for c in run.callbacks if c["kind"] == "hook"]
        pre = [c for c in hooks if c["event"] == "PreToolUse"]
        post = [c for c in hooks if c["event"] == "PostToolUse"]
        seen[mode] = {
            "pretooluse": [c["input"].get("tool_name") for c in pre],
            "posttooluse": [c["input"].get("tool_name") for c in post],
            "old_content_seen_by_pretooluse": old,
            "same_tool_use_id": bool(pre and post) and pre[0]["tool_use_id"] == post[0]["tool_use_id"],
            "posttooluse_input_has_response": bool(post) and "tool_response" in post[0]["input"],
            "callbacks": [c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"],
            "file_now": target.read_text(),
            "started": bool(run.init),
            "error": run.error,
        }
    return seen


@posttooluse_reports_auto_approved_edits.decide
def _(seen: dict[str, EditRun]) -> dict[str, Check]:
    ran = [m for m in _EDIT_MODES if seen[m]["started"]]

    def fired(mode: str) -> Check:
        s = seen[mode]
        if not s["started"]:
            return _mode_refused(mode, s["error"])
        return check(
            s["posttooluse"] == ["Write"] and s["file_now"] == "new content\n",
            f"in {mode} PostToolUse fired for {s['posttooluse']}, the file now reads {s['file_now']!r}",
        )

    return {
        "posttooluse-fires-in-accept-edits": fired("acceptEdits"),
        "posttooluse-fires-in-auto": fired("auto"),
        "pretooluse-sees-old-content": check(
            bool(ran) and all(seen[m]["old_content_seen_by_pretooluse"] == ["old content\n"] for m in ran),
            f"PreToolUse read {[seen[m]['old_content_seen_by_pretooluse'] for m in ran]} in {ran}",
        ),
        "same-tool-use-id-in-pre-and-post": check(
            bool(ran) and all(seen[m]["same_tool_use_id"] for m in ran),
            f"same tool_use_id in PreToolUse and PostToolUse: {[seen[m]['same_tool_use_id'] for m in ran]} in {ran}",
        ),
        "approved-edit-skips-callback": check(
            bool(ran) and not any(seen[m]["callbacks"] for m in ran),
            f"can_use_tool was asked about {[seen[m]['callbacks'] for m in ran]} in {ran}",
        ),
    }


posttooluse_reports_auto_approved_edits.differs_on(
    {
        mode: {
            "pretooluse": ["Write"],
            "posttooluse": [],
            "old_content_seen_by_pretooluse": ["new content\n"],
            "same_tool_use_id": False,
            "posttooluse_input_has_response": False,
            "callbacks": ["Write"],
            "file_now": "new content\n",
            "started": True,
            "error": None,
        }
        for mode in _EDIT_MODES
    }
)


# What each mode's run sets in the CLI's environment, the same whoever runs the probe. The
# CLI refuses bypassPermissions to root unless IS_SANDBOX is exactly "1", and not to anyone
# else; with it set for every user, a report made as root and one made as an ordinary user
# see the same run (the caller's own IS_SANDBOX never reaches the CLI: see real_cli).
_MODE_ENV: dict[str, dict[str, str]] = {
    "acceptEdits": {},
    "auto": {},
    "bypassPermissions": {"IS_SANDBOX": "1"},
}


class AskRun(TypedDict):
    hook_fired: bool
    callbacks: list[Any]  # the tools can_use_tool was asked about
    written: bool
    result: str | None  # the result's subtype
    started: bool
    error: str | None


@behaviour(
    id="hooks.pretooluse-ask-keeps-prompt",
    claim=(
        "A PreToolUse hook answering permissionDecision 'ask' keeps the question: can_use_tool is still asked, "
        "even in a mode that would otherwise approve the step (auto mode)."
    ),
    summary="A PreToolUse 'ask' still has can_use_tool asked, even in auto mode",
    source=("004", "Auto mode"),
    tier="cli",
    checks=(
        "ask-reaches-callback-in-accept-edits",
        "ask-reaches-callback-in-auto",
        "ask-reaches-callback-in-bypass-permissions",
    ),
    requires=("option:hooks", "option:can_use_tool", "option:permission_mode", "api:HookMatcher"),
    # the TypeScript SDK's HookPermissionDecision (Python spells it as a plain string)
    pins={
        "ask-reaches-callback-in-accept-edits": ("value:HookPermissionDecision=ask",),
        "ask-reaches-callback-in-auto": ("value:HookPermissionDecision=ask",),
        "ask-reaches-callback-in-bypass-permissions": ("value:HookPermissionDecision=ask",),
    },
    sdk_ref="claude_agent_sdk.types.PreToolUseHookSpecificOutput",
)
async def pretooluse_ask_keeps_prompt(h: Harness) -> dict[str, AskRun]:
    from sdkprobe.harness import HookMatcher

    async def ask(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}

    async def attempt(mode: str, env: dict[str, str]) -> AskRun:
        target = h.cwd / f"{mode}.txt"
        run = await h.cli(
            "write a file",
            client=True,  # streaming mode: old SDKs refuse callbacks with a string prompt to query()
            script=[reply(tool_use("Write", {"file_path": str(target), "content": "x\n"})), "done"],
            permission_mode=mode,
            can_use_tool=allow_every_tool,
            hooks={"PreToolUse": [HookMatcher(matcher="Write", hooks=[ask])]},
            env=env,
        )
        return {
            "hook_fired": any(c["kind"] == "hook" for c in run.callbacks),
            "callbacks": [c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"],
            "written": target.exists(),
            "result": None if run.result is None else run.result.subtype,
            "started": bool(run.init),
            "error": run.error,
        }

    return {mode: await attempt(mode, env) for mode, env in _MODE_ENV.items()}


@pretooluse_ask_keeps_prompt.decide
def _(seen: dict[str, AskRun]) -> dict[str, Check]:
    def asked(key: str) -> Check:
        s = seen[key]
        if not s["started"]:
            return _mode_refused(key, s["error"])
        return check(
            s["hook_fired"] and s["callbacks"] == ["Write"],
            f"in {key} the hook fired {s['hook_fired']}, can_use_tool was asked about {s['callbacks']}, "
            f"the file written {s['written']}",
        )

    return {
        "ask-reaches-callback-in-accept-edits": asked("acceptEdits"),
        "ask-reaches-callback-in-auto": asked("auto"),
        "ask-reaches-callback-in-bypass-permissions": asked("bypassPermissions"),
    }


pretooluse_ask_keeps_prompt.differs_on(
    {
        mode: {
            "hook_fired": True,
            "callbacks": [],
            "written": True,
            "result": "success",
            "started": True,
            "error": None,
        }
        for mode in _MODE_ENV
    }
)


_DENY_REASON = "DENIED-BY-PROBE-7"


def _deny(reason: str, when: Any = None) -> Any:
    """A PreToolUse hook that denies with `reason` (only the calls for which `when(tool_input)` is true)."""

    async def hook(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        if when is not None and not when(hook_input.get("tool_input") or {}):
            return {}
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }

    return hook


class Outcome(TypedDict):
    is_error: bool
    has_reason: bool  # the deny's reason is in its text
    has_content: bool  # the tool's own output is


def _outcome(block: dict[str, Any] | None, reason: str, content: str) -> Outcome | None:
    """A tool_result reduced to what a deny probe decides on (None when none came back)."""
    if block is None:
        return None
    text = result_text(block)
    return {"is_error": bool(block.get("is_error")), "has_reason": reason in text, "has_content": content in text}


class ParallelSeen(TypedDict):
    denied: Outcome | None
    parallel: Outcome | None
    main_request_statuses: list[int]
    result: dict[str, Any] | None  # subtype, is_error


@behaviour(
    id="hooks.pretooluse-deny-returns-tool-result",
    claim=(
        "When a PreToolUse hook denies one of two parallel tool calls, the CLI still answers every tool_use: "
        "the denied one with an error tool_result carrying the hook's reason, and the conversation goes on to "
        "a normal result."
    ),
    summary="A hook-denied parallel call gets an error tool_result and the turn ends normally",
    security="a PreToolUse deny that is not honoured runs the tool the hook refused",
    source=("ts#170", "report"),
    tier="cli",
    checks=("denied-call-gets-error-with-reason", "parallel-call-answered", "conversation-continues"),
    requires=("option:hooks", "api:HookMatcher"),
    # a deny (or its reason) that never reaches the CLI shows on the denied call alone: the
    # parallel call and the turn's end are the same whether the Bash call was denied or ran
    pins={
        "denied-call-gets-error-with-reason": (
            "hook-event:PreToolUse",
            "hook-output:PreToolUseHookSpecificOutput.permissionDecision",
            "hook-output:PreToolUseHookSpecificOutput.permissionDecisionReason",
        ),
    },
    sdk_ref="claude_agent_sdk.types.PreToolUseHookSpecificOutput",
)
async def pretooluse_deny_returns_tool_result(h: Harness) -> ParallelSeen:
    from sdkprobe.harness import HookMatcher

    note = h.cwd / "note.txt"
    note.write_text("NOTE-CONTENT-31\n")
    bash = tool_use("Bash", {"command": "echo BASH-RAN-31", "description": "echo"}, "toolu_double_denied")
    read = tool_use("Read", {"file_path": str(note)}, "toolu_double_parallel")
    run = await h.cli(
        "run both",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        # the double refuses, as the API does, a request that leaves a tool_use unanswered
        script=Script(main=[reply(bash, read), "done"], check_tool_results=True),
        allowed_tools=["Bash", "Read"],
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[_deny(_DENY_REASON)])]},
    )
    main = run.on(MAIN)
    after = main[1] if len(main) > 1 else None

    def outcome(tool_use_id: str, content: str) -> Outcome | None:
        return _outcome(after.tool_result(tool_use_id) if after else None, _DENY_REASON, content)

    return {
        "denied": outcome("toolu_double_denied", "BASH-RAN-31"),
        "parallel": outcome("toolu_double_parallel", "NOTE-CONTENT-31"),
        "main_request_statuses": [r.status for r in main],
        "result": None if run.result is None else {"subtype": run.result.subtype, "is_error": run.result.is_error},
    }


@pretooluse_deny_returns_tool_result.decide
def _(seen: ParallelSeen) -> dict[str, Check]:
    denied, parallel, result = seen["denied"], seen["parallel"], seen["result"]
    return {
        "denied-call-gets-error-with-reason": check(
            denied is not None and denied["is_error"] and denied["has_reason"] and not denied["has_content"],
            f"the denied Bash call came back as {denied} (no tool_result: None)",
        ),
        "parallel-call-answered": check(
            parallel is not None and not parallel["is_error"] and parallel["has_content"],
            f"the parallel Read came back as {parallel} (no tool_result: None)",
        ),
        "conversation-continues": check(
            result == {"subtype": "success", "is_error": False} and 400 not in seen["main_request_statuses"],
            f"main requests answered {seen['main_request_statuses']}, the result was {result}",
        ),
    }


_RAN: Outcome = {"is_error": False, "has_reason": False, "has_content": True}
_BOTH_ANSWERED: ParallelSeen = {
    "denied": _RAN,  # the hook's deny no longer reaching the CLI: the Bash call runs beside the Read
    "parallel": _RAN,
    "main_request_statuses": [200, 200],
    "result": {"subtype": "success", "is_error": False},
}
pretooluse_deny_returns_tool_result.differs_on(_BOTH_ANSWERED)
# the deny's reason no longer reaching the CLI: denied with the CLI's own words
pretooluse_deny_returns_tool_result.differs_on(
    {**_BOTH_ANSWERED, "denied": {"is_error": True, "has_reason": False, "has_content": False}}
)
pretooluse_deny_returns_tool_result.differs_on(
    {
        "denied": None,
        "parallel": {"is_error": False, "has_reason": False, "has_content": False},
        "main_request_statuses": [200, 400],
        "result": {"subtype": "success", "is_error": True},
    }
)


_SUB_DENY_REASON = "SECRET-DENIED-9"
_SECRET = "SECRET-CONTENT-9"


class HookSaw(TypedDict):
    has_agent_id: bool


class ThreadRead(TypedDict):
    result: Outcome | None
    hook: HookSaw | None  # None: the hook was not called for it


class SubagentSeen(TypedDict):
    main: ThreadRead
    subagent: ThreadRead
    subagent_requests: int


@behaviour(
    id="hooks.deny-applies-inside-subagent",
    claim=(
        "A PreToolUse hook that denies a tool call blocks the same call made inside a subagent: the "
        "subagent gets an error tool_result with the reason, not the tool's output."
    ),
    summary="A PreToolUse deny also blocks that call inside a subagent, with the hook's reason",
    security="a PreToolUse deny that stops applying inside a subagent lets the subagent run the tool",
    source=("cc#40580", "report"),
    tier="cli",
    checks=("denied-inside-subagent", "hook-input-has-agent-id", "denied-on-main-thread"),
    requires=("option:hooks", "option:allowed_tools", "api:HookMatcher"),
    sdk_ref="claude_agent_sdk.types.PreToolUseHookSpecificOutput",
    timeout=90,
)
async def deny_applies_inside_subagent(h: Harness) -> SubagentSeen:
    from sdkprobe.harness import HookMatcher

    secrets = {}
    for thread in ("main", "sub"):
        (h.cwd / thread).mkdir()
        secrets[thread] = h.cwd / thread / "secret.txt"
        secrets[thread].write_text(f"{_SECRET}\n")
    agent_input = {
        "description": "read it",
        "prompt": SUBAGENT_PROMPT,
        "subagent_type": "general-purpose",
        "run_in_background": False,  # the subagent's second request must come before the turn ends
    }
    run = await h.cli(
        "read, then delegate",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=Script(
            main=[
                reply(tool_use("Read", {"file_path": str(secrets["main"])}, "toolu_double_mainread")),
                reply(tool_use_offered(AGENT_TOOL, agent_input)),
                "main done",
            ],
            subagent=[reply(tool_use("Read", {"file_path": str(secrets["sub"])}, "toolu_double_subread")), "sub done"],
        ),
        allowed_tools=["Read", *AGENT_TOOL],
        hooks={
            "PreToolUse": [
                HookMatcher(
                    matcher="Read",
                    hooks=[_deny(_SUB_DENY_REASON, lambda i: str(i.get("file_path", "")).endswith("secret.txt"))],
                )
            ]
        },
    )

    def result(route: str, tool_use_id: str) -> Outcome | None:
        block = next((b for r in run.on(route) if (b := r.tool_result(tool_use_id)) is not None), None)
        return _outcome(block, _SUB_DENY_REASON, _SECRET)

    hook_calls: dict[str, HookSaw] = {}
    for c in run.callbacks:
        path = str((c["input"].get("tool_input") or {}).get("file_path", "")) if c["kind"] == "hook" else ""
        for thread, secret in secrets.items():
            if path == str(secret):
                hook_calls[thread] = {"has_agent_id": bool(c["input"].get("agent_id"))}
    return {
        "main": {"result": result(MAIN, "toolu_double_mainread"), "hook": hook_calls.get("main")},
        "subagent": {"result": result(SUBAGENT, "toolu_double_subread"), "hook": hook_calls.get("sub")},
        "subagent_requests": len(run.on(SUBAGENT)),
    }


@deny_applies_inside_subagent.decide
def _(seen: SubagentSeen) -> dict[str, Check]:
    def denied(r: Outcome | None) -> bool:
        return r is not None and r["is_error"] and r["has_reason"] and not r["has_content"]

    sub, main = seen["subagent"], seen["main"]
    return {
        "denied-inside-subagent": check(
            denied(sub["result"]),
            f"the subagent's Read came back as {sub['result']} (hook called: {sub['hook'] is not None}; "
            f"{seen['subagent_requests']} subagent request(s))",
        ),
        "hook-input-has-agent-id": check(
            sub["hook"] is not None and sub["hook"]["has_agent_id"],
            f"the hook call for the subagent's Read: {sub['hook']}",
        ),
        "denied-on-main-thread": check(denied(main["result"]), f"the main thread's Read came back as {main['result']}"),
    }


deny_applies_inside_subagent.differs_on(
    {
        "main": {"result": {"is_error": False, "has_reason": False, "has_content": True}, "hook": None},
        "subagent": {
            "result": {"is_error": False, "has_reason": False, "has_content": True},
            "hook": {"has_agent_id": False},
        },
        "subagent_requests": 2,
    }
)


_VARIANTS = ("A", "B", "C")  # A: hook allow+updatedInput; B: can_use_tool updated_input; C: hook updatedInput alone


class Rewritten(TypedDict):
    ran: Any  # "ORIGINAL" or "REWRITTEN"; both as a list, None when neither
    is_error: bool | None
    posttooluse_saw: str | None
    can_use_tool_asked: bool


UpdatedInputSeen = TypedDict(
    "UpdatedInputSeen",
    {
        "A: hook allow + updatedInput": Rewritten,
        "B: can_use_tool updated_input": Rewritten,
        "C: hook updatedInput without a decision": Rewritten,
    },
)


@behaviour(
    id="hooks.pretooluse-updated-input-applied",
    claim=(
        "A PreToolUse hook that answers allow with updatedInput makes the tool run with the rewritten input "
        "(here a Bash command), as can_use_tool's PermissionResultAllow(updated_input=...) does; an "
        "updatedInput given without a permissionDecision is applied too."
    ),
    summary="A PreToolUse allow with updatedInput runs the tool on the rewritten input",
    source=("cc#79321", "report"),
    tier="cli",
    checks=(
        "hook-allow-updated-input-runs",
        "posttooluse-sees-updated-input",
        "can-use-tool-updated-input-runs",
        "hook-updated-input-without-decision-runs",
    ),
    requires=("option:hooks", "option:can_use_tool", "api:HookMatcher", "api:PermissionResultAllow"),
    # each rewrite seen in its own runs; without its allow run A is run C (allow: perms.ask-rule-beats-hook-allow)
    pins={
        "hook-allow-updated-input-runs": ("hook-output:PreToolUseHookSpecificOutput.updatedInput",),
        "posttooluse-sees-updated-input": ("hook-output:PreToolUseHookSpecificOutput.updatedInput",),
        "can-use-tool-updated-input-runs": ("permission:PermissionResultAllow.updated_input", "option:can_use_tool"),
        "hook-updated-input-without-decision-runs": ("hook-output:PreToolUseHookSpecificOutput.updatedInput",),
    },
    sdk_ref="claude_agent_sdk.types.PreToolUseHookSpecificOutput",
)
async def pretooluse_updated_input_applied(h: Harness) -> UpdatedInputSeen:
    from sdkprobe.harness import HookMatcher, PermissionResultAllow

    def command(variant: str, word: str) -> str:
        # B writes a file, so the CLI asks can_use_tool (it approves read-only commands by itself)
        echo = f"echo {variant}-{word}"
        return f"touch {h.cwd / 'b-mark'} && {echo}" if variant == "B" else echo

    def rewritten(tool_input: dict[str, Any], variant: str) -> dict[str, Any]:
        return {**tool_input, "command": command(variant, "REWRITTEN")}

    async def pre(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        tool_input = hook_input.get("tool_input") or {}
        cmd = str(tool_input.get("command", ""))
        if "A-ORIGINAL" in cmd:
            out = {"permissionDecision": "allow", "updatedInput": rewritten(tool_input, "A")}
        elif "C-ORIGINAL" in cmd:
            out = {"updatedInput": rewritten(tool_input, "C")}
        else:
            return {}
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **out}}

    post_saw: dict[str, str] = {}

    async def post(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        cmd = str((hook_input.get("tool_input") or {}).get("command", ""))
        for v in _VARIANTS:
            for word in ("ORIGINAL", "REWRITTEN"):
                if f"{v}-{word}" in cmd:
                    post_saw[v] = word
        return {}

    asked: list[str] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        cmd = str(tool_input.get("command", ""))
        asked.extend(v for v in _VARIANTS if f"{v}-" in cmd)
        if "B-ORIGINAL" in cmd:
            return PermissionResultAllow(updated_input=rewritten(tool_input, "B"))
        return PermissionResultAllow()

    ids = {v: f"toolu_double_variant{v.lower()}" for v in _VARIANTS}
    calls = [
        reply(tool_use("Bash", {"command": command(v, "ORIGINAL"), "description": f"variant {v}"}, ids[v]))
        for v in _VARIANTS
    ]
    run = await h.cli(
        "run three commands",
        client=True,  # streaming mode: old SDKs register hooks and can_use_tool only with a streamed prompt
        script=[*calls, "done"],
        can_use_tool=can_use_tool,
        hooks={
            "PreToolUse": [HookMatcher(matcher="Bash", hooks=[pre])],
            "PostToolUse": [HookMatcher(matcher="Bash", hooks=[post])],
        },
    )
    seen: dict[str, Rewritten] = {}
    for v in _VARIANTS:
        block = next((b for r in run.on(MAIN) if (b := r.tool_result(ids[v])) is not None), None)
        text = result_text(block)
        ran = [word for word in ("ORIGINAL", "REWRITTEN") if f"{v}-{word}" in text]
        seen[v] = {
            "ran": ran[0] if len(ran) == 1 else (None if block is None or not ran else ran),
            "is_error": None if block is None else bool(block.get("is_error")),
            "posttooluse_saw": post_saw.get(v),
            "can_use_tool_asked": v in asked,
        }
    return {
        "A: hook allow + updatedInput": seen["A"],
        "B: can_use_tool updated_input": seen["B"],
        "C: hook updatedInput without a decision": seen["C"],
    }


@pretooluse_updated_input_applied.decide
def _(seen: UpdatedInputSeen) -> dict[str, Check]:
    a, b = seen["A: hook allow + updatedInput"], seen["B: can_use_tool updated_input"]
    c = seen["C: hook updatedInput without a decision"]
    return {
        "hook-allow-updated-input-runs": check(
            a["ran"] == "REWRITTEN", f"with the hook's allow and updatedInput the command that ran was {a['ran']}"
        ),
        "posttooluse-sees-updated-input": check(
            a["posttooluse_saw"] == "REWRITTEN", f"PostToolUse saw the {a['posttooluse_saw']} command"
        ),
        "can-use-tool-updated-input-runs": check(
            b["can_use_tool_asked"] and b["ran"] == "REWRITTEN",
            f"can_use_tool asked: {b['can_use_tool_asked']}; the command that ran was {b['ran']}",
        ),
        "hook-updated-input-without-decision-runs": check(
            c["ran"] == "REWRITTEN",
            f"with the hook's updatedInput and no permissionDecision the command that ran was {c['ran']} "
            f"(can_use_tool asked: {c['can_use_tool_asked']}; PostToolUse saw {c['posttooluse_saw']})",
        ),
    }


_ORIGINAL_RAN: Rewritten = {
    "ran": "ORIGINAL",
    "is_error": False,
    "posttooluse_saw": "ORIGINAL",
    "can_use_tool_asked": False,
}
_REWRITTEN_RAN: Rewritten = {**_ORIGINAL_RAN, "ran": "REWRITTEN", "posttooluse_saw": "REWRITTEN"}
_ASKED_RAN = {**_REWRITTEN_RAN, "can_use_tool_asked": True}
_RUNS = ("A: hook allow + updatedInput", "B: can_use_tool updated_input", "C: hook updatedInput without a decision")
# the hook's updatedInput, then can_use_tool's updated_input, no longer reaching the CLI; then neither applied
for _a, _b in ((_ORIGINAL_RAN, _ASKED_RAN), (_REWRITTEN_RAN, {**_ORIGINAL_RAN, "can_use_tool_asked": True})):
    pretooluse_updated_input_applied.differs_on(cast(UpdatedInputSeen, dict(zip(_RUNS, (_a, _b, _a), strict=True))))
pretooluse_updated_input_applied.differs_on(cast(UpdatedInputSeen, dict.fromkeys(_RUNS, _ORIGINAL_RAN)))


def _ask_for(name: str) -> Any:
    """A PreToolUse hook answering ask for writes to files called `name`."""

    async def hook(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        if Path(str((hook_input.get("tool_input") or {}).get("file_path", ""))).name != name:
            return {}
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}

    return hook


class Approval(TypedDict):
    calls: list[str]  # "hook <event>" or "can_use_tool", sorted
    written: bool
    tool_result_error: bool | None


ApprovalSeen = TypedDict(
    "ApprovalSeen",
    {
        "A: PermissionRequest hook alone": Approval,
        "B: beside a denying can_use_tool": Approval,
        "C: PreToolUse ask, then PermissionRequest": Approval,
    },
)
_ApprovalCase = Literal[
    "A: PermissionRequest hook alone", "B: beside a denying can_use_tool", "C: PreToolUse ask, then PermissionRequest"
]


@behaviour(
    id="hooks.permission-request-callback-fires",
    claim=(
        "An SDK PermissionRequest hook is called whenever a tool call needs approval (with or without "
        "can_use_tool, and after a PreToolUse hook answered ask), and its allow decision is applied."
    ),
    summary="A PermissionRequest hook is called whenever a call needs approval; its allow applies",
    source=("cc#95726", "report"),
    tier="cli",
    checks=("fires-and-applies-alone", "fires-and-applies-beside-can-use-tool", "fires-and-applies-after-ask"),
    requires=("option:hooks", "option:can_use_tool", "api:HookMatcher", "api:PermissionRequestHookInput"),
    pins={
        "fires-and-applies-alone": (
            "hook-event:PermissionRequest",
            "hook-output:PermissionRequestHookSpecificOutput.decision",
        ),
        "fires-and-applies-beside-can-use-tool": (
            "hook-event:PermissionRequest",
            "hook-output:PermissionRequestHookSpecificOutput.decision",
            "option:can_use_tool",
        ),
        "fires-and-applies-after-ask": (
            "hook-event:PermissionRequest",
            "hook-output:PermissionRequestHookSpecificOutput.decision",
        ),
    },
    sdk_ref="claude_agent_sdk.types.PermissionRequestHookInput",
    timeout=90,
)
async def permission_request_callback_fires(h: Harness) -> ApprovalSeen:
    from sdkprobe.harness import HookMatcher

    async def write(files: list[str], **options: Any) -> dict[str, Approval]:
        ids = {name: f"toolu_double_write_{name.split('.')[0]}" for name in files}
        run = await h.cli(
            "write the files",
            client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
            script=[
                *(reply(tool_use("Write", {"file_path": str(h.cwd / n), "content": "x\n"}, ids[n])) for n in files),
                "done",
            ],
            **options,
        )
        seen: dict[str, Approval] = {}
        for name in files:
            path = str(h.cwd / name)
            order = sorted(  # the CLI may send its control requests in no fixed order
                f"hook {c['event']}" if c["kind"] == "hook" else "can_use_tool"
                for c in run.callbacks
                if str(((c["input"].get("tool_input") if c["kind"] == "hook" else c["input"]) or {}).get("file_path"))
                == path
            )
            block = next((b for r in run.on(MAIN) if (b := r.tool_result(ids[name])) is not None), None)
            seen[name] = {
                "calls": order,
                "written": (h.cwd / name).exists(),
                "tool_result_error": None if block is None else bool(block.get("is_error")),
            }
        return seen

    def hooks() -> dict[str, Any]:
        return {
            "PreToolUse": [HookMatcher(matcher="Write", hooks=[_ask_for("c.txt")])],
            "PermissionRequest": [HookMatcher(matcher=None, hooks=[_allow_permission])],
        }

    headless = await write(["a.txt", "c.txt"], hooks=hooks())

    # Beside a can_use_tool that denies, but only once the tool has run (its file is on disk)
    # or at a ceiling only a CLI that waits for the callback reaches. The CLI asks the hook and
    # the callback at once and takes the first answer; a callback that denied at once would
    # race the hook's allow. Waiting on the file itself decides on order: written means the
    # CLI applied the hook's allow while the callback was still pending.
    async def deny_after_hook(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import PermissionResultDeny

        target = Path(str(tool_input.get("file_path")))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _ANSWER_CEILING
        while not target.exists() and loop.time() < deadline:
            await asyncio.sleep(0.05)  # waiting on the file itself
        return PermissionResultDeny(message="denied by the probe's can_use_tool")

    beside = await write(["b.txt"], hooks=hooks(), can_use_tool=deny_after_hook)
    return {
        "A: PermissionRequest hook alone": headless["a.txt"],
        "B: beside a denying can_use_tool": beside["b.txt"],
        "C: PreToolUse ask, then PermissionRequest": headless["c.txt"],
    }


_ANSWER_CEILING = 20.0  # seconds: reached only when the hook's allow is not applied on its own


async def _allow_permission(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
    """A PermissionRequest hook that allows."""
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}


@permission_request_callback_fires.decide
def _(seen: ApprovalSeen) -> dict[str, Check]:
    def applied(key: _ApprovalCase) -> Check:
        s = seen[key]
        return check(
            "hook PermissionRequest" in s["calls"] and s["written"],
            f"{key}: calls {s['calls']}, the file written {s['written']}",
        )

    return {
        "fires-and-applies-alone": applied("A: PermissionRequest hook alone"),
        "fires-and-applies-beside-can-use-tool": applied("B: beside a denying can_use_tool"),
        "fires-and-applies-after-ask": applied("C: PreToolUse ask, then PermissionRequest"),
    }


_NEVER_ASKED: Approval = {"calls": ["hook PreToolUse"], "written": False, "tool_result_error": True}
permission_request_callback_fires.differs_on(
    {
        "A: PermissionRequest hook alone": _NEVER_ASKED,
        "B: beside a denying can_use_tool": {
            **_NEVER_ASKED,
            "calls": ["can_use_tool", "hook PreToolUse"],
        },
        "C: PreToolUse ask, then PermissionRequest": _NEVER_ASKED,
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


BypassSeen = TypedDict(
    "BypassSeen",
    {
        "hook saw": list[str],  # the file each PreToolUse call touches ("other": none)
        "can_use_tool saw": list[Any],
        "files": dict[str, bool],  # a key of _BYPASS_DECISIONS -> whether it was made
        "permission mode": str | None,
        "error": str | None,
    },
)


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
        # the callback is called whatever it answers: its decision is the other sub-checks'
        "hook-called-for-every-call": ("hook-event:PreToolUse",),
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
async def pretooluse_in_bypass_mode(h: Harness) -> BypassSeen:
    from sdkprobe.harness import HookMatcher, PermissionResultDeny

    async def deny_everything(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        return PermissionResultDeny(message="probe: can_use_tool denies")

    calls = [
        tool_use("Bash", {"command": f"touch {name}", "description": "probe"}, f"toolu_bypass_{name[0]}")
        for name in _BYPASS_DECISIONS
    ]
    run = await h.cli(
        "touch three files",
        client=True,  # can_use_tool needs a streamed prompt
        script=[*(reply(call) for call in calls), "done"],
        permission_mode="bypassPermissions",
        env={"IS_SANDBOX": "1"},  # the CLI refuses bypassPermissions to root outside a sandbox
        can_use_tool=deny_everything,
        hooks={"PreToolUse": [HookMatcher(matcher=None, hooks=[_decide_by_file])]},
    )
    return {
        "hook saw": [_touched(c) or "other" for c in hook_calls(run, "PreToolUse")],
        "can_use_tool saw": [
            _touched({"tool_input": c["input"]}) or c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"
        ],
        "files": {name: (h.cwd / name).exists() for name in _BYPASS_DECISIONS},
        "permission mode": run.init.get("permissionMode"),
        "error": run.error_line,
    }


@pretooluse_in_bypass_mode.decide
def _(seen: BypassSeen) -> dict[str, Check]:
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
    {  # permissionDecision no longer reaching the CLI: every call asked of the hook, every call run unasked
        "hook saw": sorted(_BYPASS_DECISIONS),
        "can_use_tool saw": [],
        "files": dict.fromkeys(_BYPASS_DECISIONS, True),
        "permission mode": "bypassPermissions",
        "error": None,
    }
)
pretooluse_in_bypass_mode.differs_on(
    {
        "hook saw": [],
        "can_use_tool saw": [],
        "files": {"d.txt": True, "a.txt": True, "o.txt": False},
        "permission mode": "bypassPermissions",
        "error": None,
    }
)


def _first_answering(requests: list[Any], tool_use_id: str) -> Any:
    """The first request carrying the tool_result of `tool_use_id` (None when none did)."""
    return next((r for r in requests if r.tool_result(tool_use_id) is not None), None)


# --- hooks.posttooluse-continue-false-stops --------------------------------------------------

_STOP_MARK = "STOP-MARK-B1"
_ASKED_AGAIN = "the model was asked again after PostToolUse continue_=False"


async def _stop_after_a(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    """Stops the run after `touch a.txt` has run; says nothing for any other call."""
    command = str((hook_input.get("tool_input") or {}).get("command", ""))
    return {"continue_": False, "stopReason": _STOP_MARK} if "a.txt" in command else {}


StoppedSeen = TypedDict(
    "StoppedSeen",
    {
        "files": dict[str, bool],  # "a.txt", "b.txt" -> whether it was made
        "model requests": int,
        "stop reason in": list[str],
        "result": dict[str, Any] | None,  # subtype, is_error
        "error": str | None,
    },
)


@behaviour(
    id="hooks.posttooluse-continue-false-stops",
    claim=(
        "A PostToolUse callback that returns continue_=False (with a stopReason) ends the run once that tool "
        "has run: the model is not asked again and no later tool call runs."
    ),
    summary="PostToolUse continue_=False ends the run: no further model request or tool",
    source=("cc#29991", "report"),
    tier="cli",
    checks=("stopping-call-ran", "no-model-request-after-stop", "no-tool-after-stop"),
    controls=("stopping-call-ran",),
    requires=("option:hooks", "api:HookMatcher"),
    pins={
        "no-model-request-after-stop": (
            "hook-output:SyncHookJSONOutput.continue_",
            "hook-output:SyncHookJSONOutput.stopReason",
        ),
        "no-tool-after-stop": ("hook-output:SyncHookJSONOutput.continue_", "hook-output:SyncHookJSONOutput.stopReason"),
    },
    sdk_ref="claude_agent_sdk._internal.query._convert_hook_output_for_cli",
)
async def posttooluse_continue_false_stops(h: Harness) -> StoppedSeen:
    from sdkprobe.harness import HookMatcher

    run = await h.cli(
        "touch two files",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=Script(
            main=[
                reply(bash_call("touch a.txt", "toolu_stop_a")),
                reply(bash_call("touch b.txt", "toolu_stop_b")),
                _ASKED_AGAIN,
            ]
        ),
        allowed_tools=["Bash"],
        hooks={"PostToolUse": [HookMatcher(matcher="Bash", hooks=[_stop_after_a])]},
    )
    main = run.on(MAIN)
    result = run.result
    return {
        "files": {name: (h.cwd / name).exists() for name in ("a.txt", "b.txt")},
        "model requests": len(main),
        "stop reason in": sorted(
            where
            for where, texts in (
                ("result", [repr(result)] if result is not None else []),
                ("other messages", [repr(m) for m in run.messages if m is not result]),
                ("model requests", [request_text(r) for r in main]),
            )
            if any(_STOP_MARK in t for t in texts)
        ),
        "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
        "error": run.error_line,
    }


@posttooluse_continue_false_stops.decide
def _(seen: StoppedSeen) -> dict[str, Check]:
    files = seen["files"]
    after = (
        f"the model was asked {seen['model requests']} time(s) in all (1 claimed); files {files}; result "
        f"{seen['result']}; stopReason seen in {seen['stop reason in']}; raised {seen['error']}"
    )
    return {
        "stopping-call-ran": check(files["a.txt"], f"the call whose hook stopped the run made a.txt: {files}"),
        "no-model-request-after-stop": check(seen["model requests"] == 1, after),
        "no-tool-after-stop": check(not files["b.txt"], after),
    }


posttooluse_continue_false_stops.differs_on(
    {
        "files": {"a.txt": True, "b.txt": True},
        "model requests": 3,
        "stop reason in": [],
        "result": {"subtype": "success", "is_error": False},
        "error": None,
    }
)
posttooluse_continue_false_stops.differs_on(
    {
        "files": {"a.txt": False, "b.txt": False},
        "model requests": 1,
        "stop reason in": [],
        "result": None,
        "error": "ProcessError: Command failed with exit code 1",
    }
)


# --- hooks.posttooluse-updated-tool-output ---------------------------------------------------

# tool_use id: (the call, the hook output's key, the replacement, the marker of the replacement, of the original)
_REPLACED: dict[str, tuple[dict[str, Any], str, Any, str, str]] = {
    "toolu_upd_bash_ok": (
        bash_call("echo ORIG-BASH-OK", "toolu_upd_bash_ok"),
        "updatedToolOutput",
        {"stdout": "REPL-BASH-OK", "stderr": "", "interrupted": False},
        "REPL-BASH-OK",
        "ORIG-BASH-OK",
    ),
    "toolu_upd_bash_bad": (
        bash_call("echo ORIG-BASH-BAD", "toolu_upd_bash_bad"),
        "updatedToolOutput",
        {"replacement": "REPL-BASH-BAD"},  # not Bash's output shape
        "REPL-BASH-BAD",
        "ORIG-BASH-BAD",
    ),
    "toolu_upd_mcp_mcp": (
        tool_use("mcp__srv__ping", {}, "toolu_upd_mcp_mcp"),
        "updatedMCPToolOutput",
        [{"type": "text", "text": "REPL-MCP-MCP"}],
        "REPL-MCP-MCP",
        "ORIG-MCP",
    ),
    "toolu_upd_mcp_any": (
        tool_use("mcp__srv__ping", {}, "toolu_upd_mcp_any"),
        "updatedToolOutput",
        [{"type": "text", "text": "REPL-MCP-ANY"}],
        "REPL-MCP-ANY",
        "ORIG-MCP",
    ),
}
# sub-check: the call it reads, and whether the claim is that the replacement (True) or the original (False) arrives
_REPLACEMENT_CHECKS = {
    "bash-matching-shape-replaces": ("toolu_upd_bash_ok", True),
    "bash-mismatched-shape-keeps-original": ("toolu_upd_bash_bad", False),
    "mcp-updated-mcp-output-replaces": ("toolu_upd_mcp_mcp", True),
    "mcp-updated-tool-output-replaces": ("toolu_upd_mcp_any", True),
}


async def _replace_output(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    """Answers each scripted call with its replacement, under the key `_REPLACED` names."""
    entry = _REPLACED.get(str(tool_use_id or hook_input.get("tool_use_id")))
    if entry is None:
        return {}
    _, key, value, _, _ = entry
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", key: value}}


class OutputCarried(TypedDict):
    replacement: bool  # the tool_result the model read carried the hook's replacement
    original: bool  # and the tool's own output


ReplacedSeen = TypedDict(
    "ReplacedSeen",
    {
        "tool results": dict[str, OutputCarried | None],  # a key of _REPLACED -> None: no tool_result came
        "declared": dict[str, bool],  # "updatedToolOutput", "updatedMCPToolOutput" -> whether the SDK declares it
        "error": str | None,
    },
)


@behaviour(
    id="hooks.posttooluse-updated-tool-output",
    claim=(
        "What a PostToolUse callback returns as updatedToolOutput (any tool, in that tool's output shape) or "
        "updatedMCPToolOutput (an MCP tool) is what the model reads in place of the tool's real output; a "
        "built-in tool's replacement of the wrong shape is rejected and the real output kept."
    ),
    summary="PostToolUse updatedToolOutput/updatedMCPToolOutput is what the model reads",
    source=("cc#54161", "report"),
    tier="cli",
    checks=tuple(_REPLACEMENT_CHECKS),
    requires=("option:hooks", "option:mcp_servers", "api:HookMatcher", "api:create_sdk_mcp_server"),
    pins={
        "bash-matching-shape-replaces": ("hook-output:PostToolUseHookSpecificOutput.updatedToolOutput",),
        "bash-mismatched-shape-keeps-original": ("hook-output:PostToolUseHookSpecificOutput.updatedToolOutput",),
        "mcp-updated-mcp-output-replaces": ("hook-output:PostToolUseHookSpecificOutput.updatedMCPToolOutput",),
        "mcp-updated-tool-output-replaces": ("hook-output:PostToolUseHookSpecificOutput.updatedToolOutput",),
    },
    sdk_ref="claude_agent_sdk.types.PostToolUseHookSpecificOutput",
    timeout=90,
)
async def posttooluse_updated_tool_output(h: Harness) -> ReplacedSeen:
    from sdkprobe.harness import HookMatcher

    @in_process_tool("ping", "Answers with a fixed text.", {"type": "object", "properties": {}})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "ORIG-MCP"}]}

    run = await h.cli(
        "run the four calls",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=[reply(*(call for call, *_ in _REPLACED.values())), "done"],
        mcp_servers={"srv": in_process_server("srv", tools=[ping])},
        allowed_tools=["Bash", "mcp__srv__ping"],
        hooks={"PostToolUse": [HookMatcher(matcher=None, hooks=[_replace_output])]},
        timeout=80,
    )
    main = run.on(MAIN)
    seen: dict[str, OutputCarried | None] = {}
    for tool_use_id, (_, _, _, replacement, original) in _REPLACED.items():
        request = _first_answering(main, tool_use_id)
        block = None if request is None else request.tool_result(tool_use_id)
        text = "" if block is None else result_text(block) + json.dumps(block.get("content"))
        seen[tool_use_id] = (
            None if block is None else {"replacement": replacement in text, "original": original in text}
        )
    declared = set(typed_keys("PostToolUseHookSpecificOutput") or ())
    return {
        "tool results": seen,
        "declared": {key: key in declared for key in ("updatedToolOutput", "updatedMCPToolOutput")},
        "error": run.error_line,
    }


@posttooluse_updated_tool_output.decide
def _(seen: ReplacedSeen) -> dict[str, Check]:
    out: dict[str, Check] = {}
    for name, (tool_use_id, replaced) in _REPLACEMENT_CHECKS.items():
        key = _REPLACED[tool_use_id][1]
        got = seen["tool results"][tool_use_id]
        if not seen["declared"][key]:
            out[name] = undecidable(f"this SDK's PostToolUseHookSpecificOutput has no {key}")
            continue
        note = (
            f"the model's tool_result for {tool_use_id} (hook returned {key}) carried: {got} "
            f"(None: no tool_result came back; raised {seen['error']})"
        )
        # one or the other, never both: a replacement appended beside the real output is not "in place of"
        ok = got is not None and got["replacement"] is replaced and got["original"] is not replaced
        out[name] = check(bool(ok), note)
    return out


def _replaced(*carried: tuple[bool, bool]) -> ReplacedSeen:
    """What the model's tool_results carried, (replacement, original) per call in _REPLACED's order."""
    results: dict[str, OutputCarried | None] = {
        i: {"replacement": r, "original": o} for i, (r, o) in zip(_REPLACED, carried, strict=True)
    }
    return {
        "tool results": results,
        "declared": {"updatedToolOutput": True, "updatedMCPToolOutput": True},
        "error": None,
    }


# the wrong-shape replacement appended beside the real output, the others in its place
posttooluse_updated_tool_output.differs_on(_replaced((True, False), (True, True), (True, False), (True, False)))
# every replacement ignored, the wrong-shape one taken in place of the real output
posttooluse_updated_tool_output.differs_on(_replaced((False, True), (True, False), (False, True), (False, True)))


# --- hooks.posttooluse-additional-context-reaches-model --------------------------------------

# tool_use id: (sub-check, the call, the context the hook adds after it)
_CONTEXT_CALLS: dict[str, tuple[str, dict[str, Any], str]] = {
    "toolu_ctx_bash": ("bash-context-reaches-model", bash_call("echo bash-ran", "toolu_ctx_bash"), "CTX-BASH-B1"),
    "toolu_ctx_mcp": ("mcp-context-reaches-model", tool_use("mcp__srv__ping", {}, "toolu_ctx_mcp"), "CTX-MCP-B1"),
    "toolu_ctx_agent": (
        "agent-context-reaches-model",
        tool_use_offered(
            AGENT_TOOL,
            {"description": "delegate", "prompt": "Answer in one word", "subagent_type": "general-purpose"},
            "toolu_ctx_agent",
        ),
        "CTX-AGENT-B1",
    ),
}


ContextCall = TypedDict(
    "ContextCall", {"hook called": bool, "answered": bool, "in next request": bool, "in a later request": bool}
)


class ContextSeen(TypedDict):
    calls: dict[str, ContextCall]  # sub-check (the first of a _CONTEXT_CALLS value) -> its call's fate
    error: str | None


@behaviour(
    id="hooks.posttooluse-additional-context-reaches-model",
    claim=(
        "The additionalContext a PostToolUse callback returns reaches the model in the parent conversation's "
        "next request, whatever the tool: a built-in one, an MCP tool, the agent tool."
    ),
    summary="PostToolUse additionalContext reaches the next request for Bash, MCP and Agent",
    source=("cc#43750", "report"),
    tier="cli",
    checks=tuple(name for name, _, _ in _CONTEXT_CALLS.values()),
    requires=("option:hooks", "option:mcp_servers", "api:HookMatcher", "api:create_sdk_mcp_server"),
    pins={
        "bash-context-reaches-model": ("hook-output:PostToolUseHookSpecificOutput.additionalContext",),
        "mcp-context-reaches-model": ("hook-output:PostToolUseHookSpecificOutput.additionalContext",),
        "agent-context-reaches-model": ("hook-output:PostToolUseHookSpecificOutput.additionalContext",),
    },
    sdk_ref="claude_agent_sdk.types.PostToolUseHookSpecificOutput",
    timeout=120,
)
async def posttooluse_additional_context_reaches_model(h: Harness) -> ContextSeen:
    from sdkprobe.harness import HookMatcher

    fired: list[str] = []

    @in_process_tool("ping", "Answers pong.", {"type": "object", "properties": {}})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "pong"}]}

    async def add_context(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        entry = _CONTEXT_CALLS.get(str(tool_use_id or hook_input.get("tool_use_id")))
        if entry is None:
            return {}
        fired.append(entry[0])
        return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": entry[2]}}

    run = await h.cli(
        "use three tools",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=Script(
            main=[*(reply(call) for _, call, _ in _CONTEXT_CALLS.values()), "done"],
            subagent=["one"],
        ),
        mcp_servers={"srv": in_process_server("srv", tools=[ping])},
        allowed_tools=["Bash", "mcp__srv__ping", *AGENT_TOOL],
        hooks={"PostToolUse": [HookMatcher(matcher=None, hooks=[add_context])]},
        timeout=110,
    )
    main = run.on(MAIN)
    calls: dict[str, ContextCall] = {}
    for tool_use_id, (name, _, marker) in _CONTEXT_CALLS.items():
        request = _first_answering(main, tool_use_id)
        calls[name] = {
            "hook called": name in fired,
            "answered": request is not None,
            "in next request": request is not None and marker in request_text(request),
            "in a later request": any(marker in request_text(r) for r in main),
        }
    return {"calls": calls, "error": run.error_line}


@posttooluse_additional_context_reaches_model.decide
def _(seen: ContextSeen) -> dict[str, Check]:
    return {
        name: check(
            got["in next request"],
            f"{name.split('-')[0]} call: {got} (the parent model's request after the call; raised {seen['error']})",
        )
        for name, got in seen["calls"].items()
    }


posttooluse_additional_context_reaches_model.differs_on(
    {
        "calls": {
            "bash-context-reaches-model": {
                "hook called": True,
                "answered": True,
                "in next request": False,
                "in a later request": False,
            },
            "mcp-context-reaches-model": {
                "hook called": True,
                "answered": True,
                "in next request": False,
                "in a later request": False,
            },
            "agent-context-reaches-model": {
                "hook called": False,
                "answered": True,
                "in next request": False,
                "in a later request": False,
            },
        },
        "error": None,
    }
)


leave_uncovered(
    __name__,
    "value:HookPermissionDecision=defer",
    "a PreToolUse 'defer' hands the call back to a host that resumes it later; no behaviour resumes a deferred "
    "call (allow, deny and ask are pinned)",
)
