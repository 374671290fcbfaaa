"""Which tool calls a hook sees (its matcher, its agent_id inside a subagent) and what its deny or
stop then does."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.catalogue.hooks.support import SUBAGENT_PROMPT
from sdkprobe.harness import (
    MAIN,
    Harness,
    Script,
    in_process_server,
    in_process_tool,
    reply,
    result_text,
    tool_use,
)


class HookCall(TypedDict):
    tool: str | None
    file: str | None
    has_agent_id: bool
    agent_type: str | None


class AgentIdSeen(TypedDict):
    agent_tool: str
    pretooluse_calls: list[HookCall]


@behaviour(
    id="hooks.agent-id-only-inside-subagent",
    claim="A hook's input carries agent_id only for tool calls made inside a subagent, never on the main thread.",
    summary="A hook's input has agent_id only for tool calls made inside a subagent",
    source=("000", "Subagents"),
    tier="cli",
    checks=("absent-on-main-thread-calls", "present-on-subagent-calls"),
    requires=("option:hooks", "api:HookMatcher"),
    sdk_ref="claude_agent_sdk.types.PreToolUseHookInput",
)
async def agent_id_only_inside_subagent(h: Harness) -> AgentIdSeen:
    from sdkprobe.harness import HookMatcher

    for name in ("main.txt", "sub.txt"):
        (h.cwd / name).write_text(f"this is {name}\n")

    async def note(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    agent = {"description": "read sub", "prompt": SUBAGENT_PROMPT, "subagent_type": "general-purpose"}

    async def delegate(tool: str) -> Any:
        return await h.cli(
            "read, then delegate",
            client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
            script=Script(
                main=[
                    reply(tool_use("Read", {"file_path": str(h.cwd / "main.txt")})),
                    # in the foreground: a background subagent may still be running when the turn ends
                    reply(tool_use(tool, {**agent, "run_in_background": False} if tool == "Agent" else agent)),
                    "main done",
                ],
                subagent=[reply(tool_use("Read", {"file_path": str(h.cwd / "sub.txt")})), "sub done"],
            ),
            allowed_tools=["Read", tool],
            hooks={"PreToolUse": [HookMatcher(matcher=None, hooks=[note])]},
        )

    tool = "Agent"
    run = await delegate(tool)
    if "Agent" not in run.offered_tools and "Task" in run.offered_tools:  # older CLIs call it Task
        tool = "Task"
        run = await delegate(tool)
    calls: list[HookCall] = []
    for c in run.callbacks:
        if c["kind"] != "hook":
            continue
        hook_input = c["input"]
        tool_input = hook_input.get("tool_input") or {}
        calls.append(
            {
                "tool": hook_input.get("tool_name"),
                "file": Path(tool_input["file_path"]).name if "file_path" in tool_input else None,
                "has_agent_id": bool(hook_input.get("agent_id")),
                "agent_type": hook_input.get("agent_type"),
            }
        )
    return {"agent_tool": tool, "pretooluse_calls": sorted(calls, key=lambda c: (str(c["tool"]), str(c["file"])))}


@agent_id_only_inside_subagent.decide
def _(seen: AgentIdSeen) -> dict[str, Check]:
    calls = seen["pretooluse_calls"]
    inside = [c for c in calls if c["file"] == "sub.txt"]
    outside = [c for c in calls if c["file"] != "sub.txt"]
    return {
        "absent-on-main-thread-calls": check(
            bool(outside) and not any(c["has_agent_id"] for c in outside),
            f"main-thread hook calls (tool, agent_id?): {[(c['tool'], c['has_agent_id']) for c in outside]}",
        ),
        "present-on-subagent-calls": check(
            bool(inside) and all(c["has_agent_id"] for c in inside),
            f"subagent hook calls: {inside or 'none (the subagent never ran its Read)'}",
        ),
    }


agent_id_only_inside_subagent.differs_on(
    {
        "agent_tool": "Agent",
        "pretooluse_calls": [
            {"tool": "Agent", "file": None, "has_agent_id": True, "agent_type": None},
            {"tool": "Read", "file": "main.txt", "has_agent_id": False, "agent_type": None},
            {"tool": "Read", "file": "sub.txt", "has_agent_id": False, "agent_type": None},
        ],
    }
)


_MATCHERS: tuple[str | None, ...] = (
    "mcp__srv",
    "mcp__srv__.*",
    "mcp__srv__ping",
    "Read|mcp__srv__ping",
    "mcp__.*",
    None,
)


def _label(matcher: str | None) -> str:
    return "None" if matcher is None else matcher


# per event, the labels of the matchers whose hook fired for mcp__srv__ping, in _MATCHERS' order
class ServerMatcherSeen(TypedDict):
    PreToolUse: list[str]
    PostToolUse: list[str]
    tool_ran: bool
    error: Any


@behaviour(
    id="hooks.server-matcher-catches-its-tools",
    renamed_from=("hooks.matcher-exact-unless-regex",),
    claim=(
        "A hook matcher naming only an MCP server (mcp__srv) catches every tool of that server, as a "
        "prefix would, for PreToolUse and PostToolUse alike."
    ),
    summary="A hook matcher naming only an MCP server (mcp__srv) catches every tool of it",
    source=("cc#44446", "report"),
    tier="cli",
    checks=("server-name-matches-its-tools", "regex-matchers-match", "posttooluse-fires-for-mcp-tools"),
    requires=("option:hooks", "option:mcp_servers", "api:HookMatcher", "api:create_sdk_mcp_server"),
    pins={
        "server-name-matches-its-tools": ("hook-matcher:matcher",),
        "regex-matchers-match": ("hook-matcher:matcher",),
        "posttooluse-fires-for-mcp-tools": ("hook-matcher:matcher",),
    },
    sdk_ref="claude_agent_sdk.types.HookMatcher",
)
async def server_matcher_catches_its_tools(h: Harness) -> ServerMatcherSeen:
    from sdkprobe.harness import HookMatcher

    ran: list[bool] = []

    @in_process_tool("ping", "Answers pong.", {"type": "object", "properties": {}})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        ran.append(True)
        return {"content": [{"type": "text", "text": "pong"}]}

    fired: dict[str, list[str]] = {"PreToolUse": [], "PostToolUse": []}

    def noting(event: str, matcher: str | None) -> Any:
        async def hook(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
            if hook_input.get("tool_name") == "mcp__srv__ping":
                fired[event].append(_label(matcher))
            return {}

        return hook

    run = await h.cli(
        "ping it",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=[reply(tool_use("mcp__srv__ping", {})), "done"],
        mcp_servers={"srv": in_process_server("srv", tools=[ping])},
        allowed_tools=["mcp__srv__ping"],
        hooks={
            event: [HookMatcher(matcher=m, hooks=[noting(event, m)]) for m in _MATCHERS]
            for event in ("PreToolUse", "PostToolUse")
        },
    )
    order = [_label(m) for m in _MATCHERS]
    return {
        "PreToolUse": sorted(set(fired["PreToolUse"]), key=order.index),
        "PostToolUse": sorted(set(fired["PostToolUse"]), key=order.index),
        "tool_ran": bool(ran),
        "error": run.error,
    }


@server_matcher_catches_its_tools.decide
def _(seen: ServerMatcherSeen) -> dict[str, Check]:
    pre, post = seen["PreToolUse"], seen["PostToolUse"]
    both = f"PreToolUse fired for matchers {pre}, PostToolUse for {post} (the tool ran: {seen['tool_ran']})"
    regexes = ("mcp__srv__.*", "mcp__.*")
    return {
        "server-name-matches-its-tools": check("mcp__srv" in pre and "mcp__srv" in post, both),
        "regex-matchers-match": check(all(r in pre and r in post for r in regexes), both),
        "posttooluse-fires-for-mcp-tools": check(bool(post), both),
    }


server_matcher_catches_its_tools.differs_on(
    {"PreToolUse": ["mcp__srv__ping", "None"], "PostToolUse": [], "tool_ran": True, "error": None}
)


# --- hooks.safety-outputs-take-effect -----------------------------------------------------------

_DENY_REASON = "PROBE-DENIED-17"
_STOP_REASON = "PROBE-STOPPED-17"
_NEVER = "the model was asked again after continue_=False"


def _touch(name: str, tool_use_id: str) -> Any:
    return tool_use("Bash", {"command": f"touch {name}", "description": "touch"}, tool_use_id)


async def _guard(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    """Allows `touch allowed.txt`, denies `touch denied.txt`, stops the session at `touch stopped.txt`."""
    command = str((hook_input.get("tool_input") or {}).get("command", ""))
    if "denied.txt" in command:
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": _DENY_REASON,
            }
        }
    if "stopped.txt" in command:
        return {"continue_": False, "stopReason": _STOP_REASON}
    return {}


DeniedResult = TypedDict("DeniedResult", {"is_error": bool, "has reason": bool})
SafetySeen = TypedDict(
    "SafetySeen",
    {
        "files": dict[str, bool],
        "denied tool_result": DeniedResult | None,
        "model requests": int,
        "asked after stop": bool,
        "result": dict[str, Any] | None,
        "error": str | None,
    },
)


@behaviour(
    id="hooks.safety-outputs-take-effect",
    claim=(
        "A PreToolUse hook returning permissionDecision 'deny' keeps the tool from running, even one allowed_tools "
        "allows, and the model is told the permissionDecisionReason; a hook returning continue_=False stops the "
        "session: the model is not asked again."
    ),
    summary="A hook's deny keeps an allowed tool from running; continue_=False ends the session",
    source=("sdk-py", "SyncHookJSONOutput"),
    tier="cli",
    checks=("allowed-call-runs", "denied-call-does-not-run", "model-sees-deny-reason", "continue-false-stops"),
    controls=("allowed-call-runs",),
    requires=("option:hooks", "api:HookMatcher"),
    pins={
        # the deny's reason is seen only in what the model is told, and the stop answers no decision
        "denied-call-does-not-run": (
            "hook-output:PreToolUseHookSpecificOutput.permissionDecision",
            "value:HookPermissionDecision=deny",
        ),
        "model-sees-deny-reason": (
            "hook-output:PreToolUseHookSpecificOutput.permissionDecision",
            "hook-output:PreToolUseHookSpecificOutput.permissionDecisionReason",
        ),
        "continue-false-stops": ("hook-output:SyncHookJSONOutput.continue_",),
    },
    sdk_ref="claude_agent_sdk._internal.query._convert_hook_output_for_cli",
    security="a hook's deny or stop ignored would let a tool run, or a session go on, that the host's hook refused",
)
async def safety_outputs_take_effect(h: Harness) -> SafetySeen:
    from sdkprobe.harness import HookMatcher

    run = await h.cli(
        "touch three files",
        client=True,  # streaming mode: old SDKs register hooks only with a streamed prompt
        script=Script(
            main=[
                reply(_touch("allowed.txt", "toolu_guard_allowed")),
                reply(_touch("denied.txt", "toolu_guard_denied")),
                reply(_touch("stopped.txt", "toolu_guard_stopped")),
                _NEVER,
            ]
        ),
        allowed_tools=["Bash"],
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[_guard])]},
    )
    main = run.on(MAIN)
    denied = main[2].tool_result("toolu_guard_denied") if len(main) > 2 else None
    texts = [t for r in main for t in r.texts()] if main else []
    return {
        "files": {name: (h.cwd / name).exists() for name in ("allowed.txt", "denied.txt", "stopped.txt")},
        "denied tool_result": None
        if denied is None
        else {"is_error": bool(denied.get("is_error")), "has reason": _DENY_REASON in result_text(denied)},
        "model requests": len(main),
        "asked after stop": any(_NEVER in t for t in texts) or len(main) > 3,
        "result": None if run.result is None else {"subtype": run.result.subtype, "is_error": run.result.is_error},
        "error": run.error_line,
    }


@safety_outputs_take_effect.decide
def _(seen: SafetySeen) -> dict[str, Check]:
    files, denied = seen["files"], seen["denied tool_result"]
    return {
        "allowed-call-runs": check(files["allowed.txt"], f"the allowed `touch allowed.txt` made the file: {files}"),
        "denied-call-does-not-run": check(
            not files["denied.txt"], f"after the hook's deny, denied.txt exists: {files['denied.txt']}"
        ),
        "model-sees-deny-reason": check(
            denied is not None and denied["is_error"] and denied["has reason"],
            f"the denied call came back to the model as {denied} (no tool_result: None)",
        ),
        "continue-false-stops": check(
            seen["model requests"] == 3 and not seen["asked after stop"],
            f"after continue_=False the model had been asked {seen['model requests']} time(s) in all (3 claimed); "
            f"result {seen['result']}; raised {seen['error']} (the stopping call's own tool ran: "
            f"{seen['files']['stopped.txt']})",
        ),
    }


_SAFE: SafetySeen = {  # as 2.1.332 honours both (the stopping call's own tool runs)
    "files": {"allowed.txt": True, "denied.txt": False, "stopped.txt": True},
    "denied tool_result": {"is_error": True, "has reason": True},
    "model requests": 3,
    "asked after stop": False,
    "result": {"subtype": "success", "is_error": False},
    "error": None,
}
# permissionDecisionReason no longer reaching the CLI: denied with the CLI's own words
safety_outputs_take_effect.differs_on({**_SAFE, "denied tool_result": {"is_error": True, "has reason": False}})
# permissionDecision no longer reaching the CLI: the allowed_tools allow runs it, the stop still stops
safety_outputs_take_effect.differs_on(
    {
        **_SAFE,
        "files": {**_SAFE["files"], "denied.txt": True},
        "denied tool_result": {"is_error": False, "has reason": False},
    }
)
# continue_ no longer reaching the CLI: the session goes on past the stopping call
safety_outputs_take_effect.differs_on({**_SAFE, "model requests": 4, "asked after stop": True})
safety_outputs_take_effect.differs_on(
    {
        "files": {"allowed.txt": True, "denied.txt": True, "stopped.txt": True},
        "denied tool_result": {"is_error": False, "has reason": False},
        "model requests": 4,
        "asked after stop": True,
        "result": {"subtype": "success", "is_error": False},
        "error": None,
    }
)
safety_outputs_take_effect.differs_on(
    {
        "files": {"allowed.txt": False, "denied.txt": False, "stopped.txt": False},
        "denied tool_result": None,
        "model requests": 1,
        "asked after stop": False,
        "result": None,
        "error": "ProcessError: Command failed with exit code 1",
    }
)
