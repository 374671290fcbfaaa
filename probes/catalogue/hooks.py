"""Area `hooks`: which hooks fire, with what input, and what their output does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from probes.behaviour import Check, behaviour, check, undecidable
from probes.harness import Harness, Script, allow_every_tool, reply, tool_use

_SUBAGENT_PROMPT = "Read the file sub.txt and report what it says."


@behaviour(
    id="hooks.agent-id-only-inside-subagent",
    claim="A hook's input carries agent_id only for tool calls made inside a subagent, never on the main thread.",
    source=("000", "Subagents"),
    tier="cli",
    checks=("absent-on-main-thread-calls", "present-on-subagent-calls"),
    requires=("option:hooks", "api:HookMatcher"),
    sdk_ref="claude_agent_sdk.types.PreToolUseHookInput",
)
async def agent_id_only_inside_subagent(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    for name in ("main.txt", "sub.txt"):
        (h.cwd / name).write_text(f"this is {name}\n")

    async def note(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    agent = {"description": "read sub", "prompt": _SUBAGENT_PROMPT, "subagent_type": "general-purpose"}

    async def delegate(tool: str) -> Any:
        return await h.session(
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
    calls = []
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


_EDITS = "Edit|Write|MultiEdit"
# acceptEdits is the deterministic stand-in for an auto approval; offline, auto mode itself
# also approves an edit inside the working directory without its classifier.
_EDIT_MODES = ("acceptEdits", "auto")


@behaviour(
    id="hooks.posttooluse-reports-auto-approved-edits",
    claim=(
        "A PostToolUse hook matching Edit|Write|MultiEdit fires for every edit that ran, auto-approved ones "
        "included (which can_use_tool never sees), and a PreToolUse hook on the same matcher can read the "
        "file's old content for a diff."
    ),
    source=("004", "Auto-modus"),
    tier="cli",
    checks=(
        "posttooluse-fires-in-accept-edits",
        "posttooluse-fires-in-auto",
        "pretooluse-sees-old-content",
        "same-tool-use-id-in-pre-and-post",
        "approved-edit-skips-callback",
    ),
    requires=("option:hooks", "option:can_use_tool", "option:permission_mode", "api:HookMatcher"),
    sdk_ref="claude_agent_sdk.types.PostToolUseHookInput",
)
async def posttooluse_reports_auto_approved_edits(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    seen: dict[str, Any] = {}
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

        run = await h.session(
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


def _mode_refused(mode: str, error: str | None) -> Check:
    """A permission mode this CLI does not start with (auto on old CLIs) leaves nothing to judge."""
    return undecidable(f"the CLI did not start with permission_mode {mode!r}: {(error or 'no init').splitlines()[0]}")


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


_ROOT_REFUSAL = "root"  # the CLI's refusal of bypassPermissions as root names root/sudo


@behaviour(
    id="hooks.pretooluse-ask-keeps-prompt",
    claim=(
        "A PreToolUse hook answering permissionDecision 'ask' keeps the question: can_use_tool is still asked, "
        "even in a mode that would otherwise approve the step (auto mode)."
    ),
    source=("004", "Auto-modus"),
    tier="cli",
    checks=(
        "ask-reaches-callback-in-accept-edits",
        "ask-reaches-callback-in-auto",
        "ask-reaches-callback-in-bypass-permissions",
    ),
    requires=("option:hooks", "option:can_use_tool", "option:permission_mode", "api:HookMatcher"),
    sdk_ref="claude_agent_sdk.types.PreToolUseHookSpecificOutput",
)
async def pretooluse_ask_keeps_prompt(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    async def ask(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}

    async def attempt(mode: str, env: dict[str, str]) -> dict[str, Any]:
        target = h.cwd / f"{mode}.txt"
        run = await h.session(
            "write a file",
            client=True,  # streaming mode: old SDKs refuse callbacks with a string prompt to query()
            script=[reply(tool_use("Write", {"file_path": str(target), "content": "x\n"})), "done"],
            permission_mode=mode,
            can_use_tool=allow_every_tool,
            hooks={"PreToolUse": [HookMatcher(matcher="Write", hooks=[ask])]},
            env=env,
        )
        refusal = [line for line in run.stderr if _ROOT_REFUSAL in line]
        return {
            "hook_fired": any(c["kind"] == "hook" for c in run.callbacks),
            "callbacks": [c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"],
            "written": target.exists(),
            "result": None if run.result is None else run.result.subtype,
            "refused": refusal[-1].strip() if refusal and run.result is None else None,
            "started": bool(run.init),
            "error": run.error,
        }

    seen = {mode: await attempt(mode, {}) for mode in ("acceptEdits", "auto", "bypassPermissions")}
    if seen["bypassPermissions"]["refused"]:
        # As root the CLI refuses bypassPermissions outright; IS_SANDBOX=1 is its own switch to allow it.
        seen["bypassPermissions with IS_SANDBOX=1"] = await attempt("bypassPermissions", {"IS_SANDBOX": "1"})
    return seen


@pretooluse_ask_keeps_prompt.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def asked(key: str) -> Check:
        s = seen[key]
        if not s["started"] and not s["refused"]:
            return _mode_refused(key, s["error"])
        return check(
            s["hook_fired"] and s["callbacks"] == ["Write"],
            f"in {key} the hook fired {s['hook_fired']}, can_use_tool was asked about {s['callbacks']}, "
            f"the file written {s['written']}",
        )

    bypass = seen["bypassPermissions"]
    if not bypass["refused"]:
        in_bypass = asked("bypassPermissions")
    elif "bypassPermissions with IS_SANDBOX=1" in seen:
        in_bypass = asked("bypassPermissions with IS_SANDBOX=1")
    else:
        in_bypass = undecidable(f"the CLI refused bypassPermissions: {bypass['refused']!r}")
    return {
        "ask-reaches-callback-in-accept-edits": asked("acceptEdits"),
        "ask-reaches-callback-in-auto": asked("auto"),
        "ask-reaches-callback-in-bypass-permissions": in_bypass,
    }


pretooluse_ask_keeps_prompt.differs_on(
    {
        mode: {
            "hook_fired": True,
            "callbacks": [],
            "written": True,
            "result": "success",
            "refused": None,
            "started": True,
            "error": None,
        }
        for mode in ("acceptEdits", "auto", "bypassPermissions")
    }
)
