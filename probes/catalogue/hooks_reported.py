"""Area `hooks`, topic reported: what PostToolUse and UserPromptSubmit callbacks' outputs do
in a real session, as users reported them not doing (CATALOGUE-4 Part B1).

Each behaviour runs one real-CLI session against the model double and reads what the model
was sent next: whether the run stopped, what a tool_result carried, where a context marker
landed. An output key the SDK's TypedDict does not declare at some version makes only its
own sub-check not-applicable there (the SDK relays the callback's dict either way).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    Harness,
    Script,
    config_dir_env,
    reply,
    result_text,
    tool_use,
    tool_use_offered,
    typed_keys,
)


def _bash(command: str, tool_use_id: str) -> dict[str, Any]:
    return tool_use("Bash", {"command": command, "description": "probe"}, tool_use_id)


def _body(request: Any) -> str:
    """A model request's whole body as text, for "is this marker anywhere in it"."""
    return json.dumps(request.body, sort_keys=True)


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
async def posttooluse_continue_false_stops(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    run = await h.session(
        "touch two files",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=Script(
            main=[
                reply(_bash("touch a.txt", "toolu_stop_a")),
                reply(_bash("touch b.txt", "toolu_stop_b")),
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
                ("model requests", [_body(r) for r in main]),
            )
            if any(_STOP_MARK in t for t in texts)
        ),
        "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
        "error": run.error_line,
    }


@posttooluse_continue_false_stops.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
        _bash("echo ORIG-BASH-OK", "toolu_upd_bash_ok"),
        "updatedToolOutput",
        {"stdout": "REPL-BASH-OK", "stderr": "", "interrupted": False},
        "REPL-BASH-OK",
        "ORIG-BASH-OK",
    ),
    "toolu_upd_bash_bad": (
        _bash("echo ORIG-BASH-BAD", "toolu_upd_bash_bad"),
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
async def posttooluse_updated_tool_output(h: Harness) -> dict[str, Any]:
    import claude_agent_sdk as sdk
    from claude_agent_sdk import HookMatcher

    @sdk.tool("ping", "Answers with a fixed text.", {"type": "object", "properties": {}})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "ORIG-MCP"}]}

    run = await h.session(
        "run the four calls",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=[reply(*(call for call, *_ in _REPLACED.values())), "done"],
        mcp_servers={"srv": sdk.create_sdk_mcp_server("srv", tools=[ping])},
        allowed_tools=["Bash", "mcp__srv__ping"],
        hooks={"PostToolUse": [HookMatcher(matcher=None, hooks=[_replace_output])]},
        timeout=80,
    )
    main = run.on(MAIN)
    seen: dict[str, Any] = {}
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


def _replaced(*carried: tuple[bool, bool]) -> dict[str, Any]:
    """What the model's tool_results carried, (replacement, original) per call in _REPLACED's order."""
    results = {i: {"replacement": r, "original": o} for i, (r, o) in zip(_REPLACED, carried, strict=True)}
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

_AGENT_TOOL = ("Agent", "Task")  # the agent tool's API name on new CLIs, and on CLI 2.1.37 and older
# tool_use id: (sub-check, the call, the context the hook adds after it)
_CONTEXT_CALLS: dict[str, tuple[str, dict[str, Any], str]] = {
    "toolu_ctx_bash": ("bash-context-reaches-model", _bash("echo bash-ran", "toolu_ctx_bash"), "CTX-BASH-B1"),
    "toolu_ctx_mcp": ("mcp-context-reaches-model", tool_use("mcp__srv__ping", {}, "toolu_ctx_mcp"), "CTX-MCP-B1"),
    "toolu_ctx_agent": (
        "agent-context-reaches-model",
        tool_use_offered(
            _AGENT_TOOL,
            {"description": "delegate", "prompt": "Answer in one word", "subagent_type": "general-purpose"},
            "toolu_ctx_agent",
        ),
        "CTX-AGENT-B1",
    ),
}


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
async def posttooluse_additional_context_reaches_model(h: Harness) -> dict[str, Any]:
    import claude_agent_sdk as sdk
    from claude_agent_sdk import HookMatcher

    fired: list[str] = []

    @sdk.tool("ping", "Answers pong.", {"type": "object", "properties": {}})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "pong"}]}

    async def add_context(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        entry = _CONTEXT_CALLS.get(str(tool_use_id or hook_input.get("tool_use_id")))
        if entry is None:
            return {}
        fired.append(entry[0])
        return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": entry[2]}}

    run = await h.session(
        "use three tools",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=Script(
            main=[*(reply(call) for _, call, _ in _CONTEXT_CALLS.values()), "done"],
            subagent=["one"],
        ),
        mcp_servers={"srv": sdk.create_sdk_mcp_server("srv", tools=[ping])},
        allowed_tools=["Bash", "mcp__srv__ping", *_AGENT_TOOL],
        hooks={"PostToolUse": [HookMatcher(matcher=None, hooks=[add_context])]},
        timeout=110,
    )
    main = run.on(MAIN)
    calls: dict[str, Any] = {}
    for tool_use_id, (name, _, marker) in _CONTEXT_CALLS.items():
        request = _first_answering(main, tool_use_id)
        calls[name] = {
            "hook called": name in fired,
            "answered": request is not None,
            "in next request": request is not None and marker in _body(request),
            "in a later request": any(marker in _body(r) for r in main),
        }
    return {"calls": calls, "error": run.error_line}


@posttooluse_additional_context_reaches_model.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
    """The custom titles list_sessions gives for sessions in the probe's cwd (None: this SDK cannot tell)."""
    import claude_agent_sdk as sdk

    list_sessions = getattr(sdk, "list_sessions", None)
    if list_sessions is None:
        return None
    with config_dir_env(h.config_dir):
        listed = list_sessions(directory=str(h.cwd))
    if listed and not all(hasattr(s, "custom_title") for s in listed):
        return None
    return sorted(str(s.custom_title) for s in listed if getattr(s, "custom_title", None))


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
async def user_prompt_submit_output(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

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
    turns: dict[str, Any] = {}
    for i, (label, (prompt, _)) in enumerate(_PROMPT_TURNS.items()):
        request = run.first(MAIN, carrying=prompt.split()[-1])
        body = "" if request is None else _body(request)
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


def _turn(request: bool, carries: list[str], sees: list[str], ended: str = "result") -> dict[str, Any]:
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
