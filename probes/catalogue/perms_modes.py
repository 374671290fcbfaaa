"""Area `perms`, topic modes (CATALOGUE-4 Part B, B2): what each permission mode still puts to
can_use_tool, what it lets run unasked, and what a callback's answer changes afterwards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Harness,
    ProbeTimeout,
    allow_every_tool,
    git_repo,
    reply,
    result_text,
    tool_use,
)

# The session drops the host's own IS_SANDBOX; a probe needing bypass mode as root declares the
# sandbox itself, so that the mode is taken whatever the host's environment says.
_SANDBOX = {"IS_SANDBOX": "1"}


def _bash(command: str, tool_use_id: str) -> Any:
    return reply(tool_use("Bash", {"command": command, "description": "probe step"}, id=tool_use_id))


_HOST_DENY = "REFUSED-BY-HOST"


async def _deny_every_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
    """A can_use_tool that refuses every call (the session records each one it is asked about)."""
    from claude_agent_sdk import PermissionResultDeny

    return PermissionResultDeny(message=_HOST_DENY)


def _asked_paths(run: CliRun) -> list[str]:
    """The file_path of each call can_use_tool was asked about that names one."""
    return [
        str(c["input"]["file_path"]) for c in run.callbacks if c["kind"] == "can_use_tool" and "file_path" in c["input"]
    ]


def _asked(run: CliRun) -> list[str]:
    """What can_use_tool was asked about, in order: a Bash call's command, any other tool's name."""
    return [
        str(c["input"].get("command", c["tool"])) if c["tool"] == "Bash" else str(c["tool"])
        for c in run.callbacks
        if c["kind"] == "can_use_tool"
    ]


def _result_of(run: CliRun, tool_use_id: str) -> dict[str, Any] | None:
    """The tool_result of one tool_use in the last main request: is_error and the start of its text."""
    main = run.on(MAIN)
    block = main[-1].tool_result(tool_use_id) if main else None
    return None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)[:120]}


# --- perms.bypass-still-asks ----------------------------------------------------------------

_ASK_RULE = "Bash(touch a*)"
_QUESTION = {
    "question": "Which colour should the banner be?",
    "header": "Colour",
    "options": [{"label": "Red", "description": "warm"}, {"label": "Blue", "description": "cool"}],
    "multiSelect": False,
}
# call -> (what the callback is asked about, the scripted tool_use)
_BYPASS_CALLS: dict[str, tuple[str, Any]] = {
    "ask-ruled touch": ("touch a1", tool_use("Bash", {"command": "touch a1", "description": "step"}, id="toolu_a1")),
    "unruled touch": ("touch o1", tool_use("Bash", {"command": "touch o1", "description": "step"}, id="toolu_o1")),
    "AskUserQuestion": ("AskUserQuestion", tool_use("AskUserQuestion", {"questions": [_QUESTION]}, id="toolu_ask")),
    # ExitPlanMode is only valid in plan mode, so the model enters it first (that call is recorded, not judged)
    "EnterPlanMode": ("EnterPlanMode", tool_use("EnterPlanMode", {}, id="toolu_enter")),
    "ExitPlanMode": ("ExitPlanMode", tool_use("ExitPlanMode", {"plan": "1. write the file"}, id="toolu_plan")),
}
_BYPASS_TIMEOUT = 180.0  # seconds a session may take to end: a run that works ends in seconds, only a hang reaches it


async def _bypass_run(h: Harness, with_callback: bool) -> dict[str, Any]:
    """One bypass session of the scripted calls; whether it ended, what was asked, which files appeared."""
    for name in ("a1", "o1"):
        (h.cwd / name).unlink(missing_ok=True)
    options: dict[str, Any] = {"can_use_tool": allow_every_tool, "client": True} if with_callback else {}
    try:
        run = await h.session(
            "do the steps",
            script=[*(reply(call) for _, call in _BYPASS_CALLS.values()), "done"],
            permission_mode="bypassPermissions",
            env=dict(_SANDBOX),
            settings=json.dumps({"permissions": {"ask": [_ASK_RULE]}}),
            timeout=_BYPASS_TIMEOUT,
            **options,
        )
    except ProbeTimeout:
        return {"ended": False, "init_permission_mode": None, "asked": [], "made": {}, "results": {}, "error": None}
    return {
        "ended": True,
        "init_permission_mode": run.init.get("permissionMode"),
        "asked": _asked(run),
        "made": {name: (h.cwd / name).exists() for name in ("a1", "o1")},
        "results": {call: _result_of(run, block["id"]) for call, (_, block) in _BYPASS_CALLS.items()},
        "result": getattr(run.result, "subtype", None),
        "error": run.error_line,
    }


@behaviour(
    id="perms.bypass-still-asks",
    claim=(
        "With permission_mode='bypassPermissions' a fixed set of calls still goes to can_use_tool: one a "
        "settings permissions.ask rule matches, AskUserQuestion, and ExitPlanMode once the model has entered "
        "plan mode; any other tool call runs unasked; and a host that gives no can_use_tool gets those calls "
        "refused and its session ended, not left waiting."
    ),
    summary="bypassPermissions still asks for ask rules, AskUserQuestion, ExitPlanMode; no hang",
    security="a bypass mode that silently skips an ask rule runs what the settings meant the host to approve",
    source=("py#1220", "report"),
    tier="cli",
    checks=(
        "ask-rule-reaches-callback",
        "unruled-call-runs-unasked",
        "ask-user-question-reaches-callback",
        "exit-plan-mode-reaches-callback",
        "no-callback-ends-without-hang",
        "no-callback-ask-rule-not-run",
    ),
    requires=("option:can_use_tool", "option:permission_mode", "option:settings", "option:env"),
    pins={
        "ask-rule-reaches-callback": ("option:permission_mode",),
        "unruled-call-runs-unasked": ("option:permission_mode",),
        "ask-user-question-reaches-callback": ("option:permission_mode",),
        "exit-plan-mode-reaches-callback": ("option:permission_mode",),
        "no-callback-ends-without-hang": ("option:permission_mode",),
        "no-callback-ask-rule-not-run": ("option:permission_mode",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
    timeout=2 * _BYPASS_TIMEOUT + 60,
)
async def bypass_still_asks(h: Harness) -> dict[str, Any]:
    return {"with callback": await _bypass_run(h, True), "without callback": await _bypass_run(h, False)}


@bypass_still_asks.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    asking, bare = seen["with callback"], seen["without callback"]
    asked = asking["asked"]

    def reached(call: str) -> Check:
        subject = _BYPASS_CALLS[call][0]
        said = (asking["results"].get(call) or {}).get("text", "no tool_result")[:100]
        return check(
            subject in asked,
            f"{call}: can_use_tool was asked about {asked} (init permissionMode "
            f"{asking['init_permission_mode']!r}); its tool_result: {said!r}",
        )

    return {
        "ask-rule-reaches-callback": check(
            "touch a1" in asked and asking["made"].get("a1", False),
            f"touch a1 (ask rule {_ASK_RULE}): asked {'touch a1' in asked}, file made {asking['made'].get('a1')}; "
            f"can_use_tool was asked about {asked}",
        ),
        "unruled-call-runs-unasked": check(
            "touch o1" not in asked and asking["made"].get("o1", False),
            f"touch o1: asked {'touch o1' in asked}, file made {asking['made'].get('o1')}",
        ),
        "ask-user-question-reaches-callback": reached("AskUserQuestion"),
        "exit-plan-mode-reaches-callback": reached("ExitPlanMode"),
        "no-callback-ends-without-hang": check(
            bare["ended"] and bare["error"] is None,
            f"without can_use_tool: ended within {_BYPASS_TIMEOUT:.0f} s {bare['ended']}, "
            f"result {bare.get('result')!r}, error {bare['error']!r}",
        ),
        "no-callback-ask-rule-not-run": check(
            bare["ended"] and not bare["made"].get("a1", False),
            f"without can_use_tool: ended {bare['ended']}, touch a1 made the file {bare['made'].get('a1')} "
            f"(tool_result {(bare['results'] or {}).get('ask-ruled touch')!r})",
        ),
    }


def _bypass_seen(asked: list[str], made: dict[str, bool], ended: bool = True) -> dict[str, Any]:
    return {
        "ended": ended,
        "init_permission_mode": "bypassPermissions",
        "asked": asked,
        "made": made,
        "results": {},
        "result": "success" if ended else None,
        "error": None,
    }


bypass_still_asks.differs_on(
    {  # bypass skips everything: the ask rule, AskUserQuestion and ExitPlanMode run unasked
        "with callback": _bypass_seen([], {"a1": True, "o1": True}),
        "without callback": _bypass_seen([], {"a1": True, "o1": True}),
    }
)
bypass_still_asks.differs_on(
    {  # py#1220: every call asked, and without a callback the session waits for an answer
        "with callback": _bypass_seen(["touch a1", "touch o1", "AskUserQuestion", "ExitPlanMode"], {"a1": True}),
        "without callback": _bypass_seen([], {}, ended=False),
    }
)


# --- perms.accept-edits-protected-paths -----------------------------------------------------

# target -> (path under cwd, whether the docs name it protected); None: recorded, not judged
_PROTECTED: dict[str, tuple[str, bool | None]] = {
    "ordinary": ("src/a.txt", False),
    ".git": (".git/hooks/pre-commit", True),
    ".claude": (".claude/settings.json", True),
    ".husky": (".husky/pre-commit", True),
    "worktree file": (".claude/worktrees/w/src/b.txt", None),
}
_PROTECTED_CHECKS = {
    "ordinary": "ordinary-file-written-unasked",
    ".git": "git-dir-write-asks",
    ".claude": "claude-dir-write-asks",
    ".husky": "husky-dir-write-asks",
}
_MARK = "sdkprobe-write\n"


@behaviour(
    id="perms.accept-edits-protected-paths",
    claim=(
        "In permission_mode='acceptEdits' a Write to an ordinary file in the working directory runs without "
        "asking, while a Write to a protected path (under .git/, .claude/ or .husky/) is never auto-accepted: "
        "it goes to can_use_tool, and a refusal there leaves the file unwritten."
    ),
    summary="acceptEdits writes cwd files unasked but asks for .git/, .claude/, .husky/",
    security="a mode that auto-writes .git hooks or .claude settings lets the model plant code or loosen its rules",
    source=("cc#42308", "report"),
    tier="cli",
    checks=tuple(_PROTECTED_CHECKS.values()),
    requires=("option:can_use_tool", "option:permission_mode"),
    pins={
        "ordinary-file-written-unasked": ("option:permission_mode",),
        "git-dir-write-asks": ("option:permission_mode",),
        "claude-dir-write-asks": ("option:permission_mode",),
        "husky-dir-write-asks": ("option:permission_mode",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def accept_edits_protected_paths(h: Harness) -> dict[str, Any]:
    git_repo(h.cwd, user_name="probe")
    for relative, _ in _PROTECTED.values():
        (h.cwd / relative).parent.mkdir(parents=True, exist_ok=True)
    script = [
        reply(tool_use("Write", {"file_path": str(h.cwd / relative), "content": _MARK}, id=f"toolu_w{n}"))
        for n, (relative, _) in enumerate(_PROTECTED.values(), 1)
    ]
    run = await h.session(
        "write the files",
        script=[*script, "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=_deny_every_tool,
        permission_mode="acceptEdits",
    )
    asked = _asked_paths(run)
    return {
        "init_permission_mode": run.init.get("permissionMode"),
        "writes": {
            target: {
                "asked": str(h.cwd / relative) in asked,
                "written": (h.cwd / relative).exists() and (h.cwd / relative).read_text() == _MARK,
                "result": h.observe(_result_of(run, f"toolu_w{n}")),
            }
            for n, (target, (relative, _)) in enumerate(_PROTECTED.items(), 1)
        },
        "error": run.error_line,
    }


@accept_edits_protected_paths.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    writes = seen["writes"]

    def shown(target: str) -> str:
        w = writes[target]
        return (
            f"Write {_PROTECTED[target][0]} in {seen['init_permission_mode']!r}: can_use_tool "
            f"{'asked' if w['asked'] else 'not asked'}, file {'written' if w['written'] else 'not written'}"
        )

    ordinary = writes["ordinary"]
    decided = {
        "ordinary-file-written-unasked": check(
            seen["init_permission_mode"] == "acceptEdits" and not ordinary["asked"] and ordinary["written"],
            shown("ordinary"),
        )
    }
    for target, name in _PROTECTED_CHECKS.items():
        if target != "ordinary":
            decided[name] = check(writes[target]["asked"] and not writes[target]["written"], shown(target))
    return decided


def _protected_seen(asked: bool, written: bool) -> dict[str, Any]:
    return {"asked": asked, "written": written, "result": {"is_error": asked, "text": ""}}


accept_edits_protected_paths.differs_on(
    {  # acceptEdits writes protected paths unasked, like any file
        "init_permission_mode": "acceptEdits",
        "writes": {target: _protected_seen(False, True) for target in _PROTECTED},
        "error": None,
    }
)
accept_edits_protected_paths.differs_on(
    {  # cc#47571: every write asks, the ordinary one too
        "init_permission_mode": "acceptEdits",
        "writes": {target: _protected_seen(True, False) for target in _PROTECTED},
        "error": None,
    }
)


# --- perms.plan-mode-exit-plan --------------------------------------------------------------

# run -> how can_use_tool answers ExitPlanMode (every other call it allows, so that only the mode
# keeps a Write from running)
_PLAN_RUNS = ("rejected", "approved")
_PLAN_FILES = ("before.txt", "after.txt")
_PLAN_REJECTED = "keep planning"


def _plan_callback(approve: bool) -> Any:
    """Allows every call but ExitPlanMode, which it rejects, or approves with a setMode to acceptEdits."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny, PermissionUpdate

        if name != "ExitPlanMode":
            return PermissionResultAllow(updated_input=tool_input)
        if not approve:
            return PermissionResultDeny(message=_PLAN_REJECTED)
        to_edits = PermissionUpdate(type="setMode", mode="acceptEdits", destination="session")
        return PermissionResultAllow(updated_input=tool_input, updated_permissions=[to_edits])

    return callback


_EXITED = "exited plan mode"  # what the CLI tells the model once the session has left plan mode


async def _plan_run(h: Harness, approve: bool) -> dict[str, Any]:
    for name in _PLAN_FILES:
        (h.cwd / name).unlink(missing_ok=True)
    write = [
        tool_use("Write", {"file_path": str(h.cwd / name), "content": "x\n"}, id=f"toolu_{name.split('.')[0]}")
        for name in _PLAN_FILES
    ]
    leave = tool_use("ExitPlanMode", {"plan": "1. write after.txt"}, id="toolu_exit")
    run = await h.session(
        "plan, then write",
        script=[reply(write[0]), reply(leave), reply(write[1]), "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=_plan_callback(approve),
        permission_mode="plan",
    )
    return {
        "init_permission_mode": run.init.get("permissionMode"),
        "asked": _asked(run),
        # the files whose Write can_use_tool was asked about
        "asked_files": [Path(path).name for path in _asked_paths(run)],
        "written": {name: (h.cwd / name).exists() for name in _PLAN_FILES},
        "exit_result": _result_of(run, "toolu_exit"),
        # whether the model was asked again after ExitPlanMode (the turn went on) and got the second Write's result
        "went_on_after_exit": _result_of(run, "toolu_after") is not None,
        # whether the CLI told the model it left plan mode (the CLI's own record of the mode changing; in
        # plan mode a Write can_use_tool allows runs as in default mode, so the Writes alone cannot tell)
        "told_model_plan_mode_exited": any(_EXITED in json.dumps(r.messages).lower() for r in run.requests),
        "result": getattr(run.result, "subtype", None),
        "error": run.error_line,
    }


@behaviour(
    id="perms.plan-mode-exit-plan",
    claim=(
        "With permission_mode='plan' nothing that changes files runs, even when can_use_tool would allow it; "
        "ExitPlanMode goes to can_use_tool; approving it (with a setMode update to acceptEdits) lets the "
        "session leave plan mode so that a later Write runs unasked, and rejecting it keeps plan mode in "
        "force (a later Write runs no more freely than the first)."
    ),
    summary="Plan mode blocks writes; ExitPlanMode asks can_use_tool; its answer decides the mode",
    security="a plan mode that lets a write through, or ends on a rejection, edits files the host never approved",
    source=("cc#40671", "report"),
    tier="cli",
    checks=(
        "plan-mode-blocks-write",
        "exit-plan-mode-reaches-callback",
        "rejected-exit-keeps-plan-mode",
        "approved-exit-leaves-plan-mode",
    ),
    requires=("option:can_use_tool", "option:permission_mode", "api:PermissionUpdate"),
    pins={
        "plan-mode-blocks-write": ("option:permission_mode",),
        "exit-plan-mode-reaches-callback": ("option:permission_mode",),
        "rejected-exit-keeps-plan-mode": ("option:permission_mode",),
        "approved-exit-leaves-plan-mode": ("option:permission_mode",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def plan_mode_exit_plan(h: Harness) -> dict[str, Any]:
    return {label: await _plan_run(h, label == "approved") for label in _PLAN_RUNS}


@plan_mode_exit_plan.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    rejected, approved = seen["rejected"], seen["approved"]

    def shown(label: str) -> str:
        r = seen[label]
        said = (r["exit_result"] or {}).get("text", "no tool_result")[:80]
        return (
            f"ExitPlanMode {label} (init permissionMode {r['init_permission_mode']!r}): can_use_tool asked about "
            f"{r['asked']}, files written {r['written']}, ExitPlanMode's result {said!r}, the turn went on "
            f"after it {r['went_on_after_exit']}, the model told it left plan mode {r['told_model_plan_mode_exited']}"
        )

    return {
        "plan-mode-blocks-write": check(
            not rejected["written"]["before.txt"] and not approved["written"]["before.txt"],
            "the Write of before.txt in plan mode, can_use_tool allowing it: "
            + "; ".join(
                f"run {label}: asked {'before.txt' in seen[label]['asked_files']}, "
                f"written {seen[label]['written']['before.txt']}"
                for label in _PLAN_RUNS
            ),
        ),
        "exit-plan-mode-reaches-callback": check(
            "ExitPlanMode" in rejected["asked"] and "ExitPlanMode" in approved["asked"],
            f"{shown('rejected')}; {shown('approved')}",
        ),
        # plan mode still in force: the second Write gets no easier treatment than the first (it does not run
        # unasked); whether plan mode gates the first at all is the first sub-check's
        "rejected-exit-keeps-plan-mode": check(
            not (rejected["written"]["after.txt"] and "after.txt" not in rejected["asked_files"])
            and not rejected["told_model_plan_mode_exited"],
            shown("rejected"),
        ),
        "approved-exit-leaves-plan-mode": check(
            approved["written"]["after.txt"] and "after.txt" not in approved["asked_files"], shown("approved")
        ),
    }


def _plan_seen(
    asked_files: list[str], before: bool, after: bool, went_on: bool = True, exited: bool = False
) -> dict[str, Any]:
    return {
        "told_model_plan_mode_exited": exited,
        "init_permission_mode": "plan",
        "asked": ["Write" for _ in asked_files],
        "asked_files": asked_files,
        "written": {"before.txt": before, "after.txt": after},
        "exit_result": {"is_error": False, "text": ""},
        "went_on_after_exit": went_on,
        "result": "success",
        "error": None,
    }


plan_mode_exit_plan.differs_on(
    {  # the CLI leaving plan mode on a rejected ExitPlanMode: it tells the model so, all else as 2.1.332 does
        "rejected": _plan_seen(["before.txt", "after.txt"], True, True, exited=True)
        | {"asked": ["Write", "ExitPlanMode", "Write"]},
        "approved": _plan_seen(["before.txt"], True, True, exited=True) | {"asked": ["Write", "ExitPlanMode"]},
    }
)
plan_mode_exit_plan.differs_on(
    {  # cc#89403: after a rejected ExitPlanMode plan mode stopped gating edits; the first Write ran too
        "rejected": _plan_seen(["before.txt"], True, True) | {"asked": ["Write", "ExitPlanMode"]},
        "approved": _plan_seen(["before.txt"], True, True) | {"asked": ["Write", "ExitPlanMode"]},
    }
)
plan_mode_exit_plan.differs_on(
    {  # cc#4251 and cc#40671: ExitPlanMode never asked, approval did not change the mode, the turn ended
        "rejected": _plan_seen([], False, False, went_on=False),
        "approved": _plan_seen([], False, False, went_on=False),
    }
)


# --- perms.updated-permissions-applied ------------------------------------------------------

# step -> (the scripted call, what the callback answers when asked about it: the update it returns
# with its allow, or None for a plain allow). The steps run in this order in one default-mode
# session; each "-again" step is the one its update should let through unasked.
_OUTSIDE = "<outside>"  # stands for the probe's folder outside the working directory
_UPDATE_STEPS: dict[str, tuple[str, str, str | None]] = {
    # step: (tool, target: a Bash command or a file under cwd / <outside>, the update the answer carries)
    "local rule": ("Bash", "touch l1", "addRules Bash(touch l1) localSettings"),
    "session rule": ("Bash", "touch a1", "addRules Bash session"),
    "session rule again": ("Bash", "touch a2", None),
    "set mode": ("Write", "w1.txt", "setMode acceptEdits session"),
    "set mode again": ("Write", "w2.txt", None),
    "add directory": ("Write", f"{_OUTSIDE}/o1.txt", "addDirectories <outside> session"),
    "add directory again": ("Write", f"{_OUTSIDE}/o2.txt", None),
}
_UPDATE_CHECKS = {
    "session rule": "session-rule-stops-next-prompt",
    "set mode": "set-mode-changes-mode",
    "add directory": "add-directories-widens-access",
    "local rule": "local-settings-rule-persisted",
}


def _update_for(kind: str, outside: str) -> Any:
    """The PermissionUpdate an allow carries for one step (built with the SDK's own types)."""
    from claude_agent_sdk import PermissionUpdate
    from claude_agent_sdk.types import PermissionRuleValue

    if kind.startswith("addRules Bash(touch l1)"):
        rule = PermissionRuleValue(tool_name="Bash", rule_content="touch l1")
        return PermissionUpdate(type="addRules", rules=[rule], behavior="allow", destination="localSettings")
    if kind.startswith("addRules Bash"):
        rule = PermissionRuleValue(tool_name="Bash")  # the whole tool: no rule_content
        return PermissionUpdate(type="addRules", rules=[rule], behavior="allow", destination="session")
    if kind.startswith("setMode"):
        return PermissionUpdate(type="setMode", mode="acceptEdits", destination="session")
    return PermissionUpdate(type="addDirectories", directories=[outside], destination="session")


def _target(h: Harness, tool: str, target: str, outside: str) -> str:
    """What the call names: a Bash command as written, a Write's absolute file path."""
    if tool == "Bash":
        return target
    return target.replace(_OUTSIDE, outside) if target.startswith(_OUTSIDE) else str(h.cwd / target)


def _effect(h: Harness, tool: str, target: str, outside: str) -> Path:
    """The file a step makes when it runs (`touch X` makes X in the working directory)."""
    if tool == "Bash":
        return h.cwd / target.split()[-1]
    return Path(_target(h, tool, target, outside))


@behaviour(
    id="perms.updated-permissions-applied",
    claim=(
        "The permission updates a can_use_tool allow returns in updated_permissions are applied by the CLI: "
        "an addRules for the whole Bash tool (no rule_content) with destination 'session' lets the next Bash "
        "call run unasked, a setMode to acceptEdits lets the next Write in the working directory run unasked, "
        "an addDirectories lets the next Write in that directory run unasked, and an addRules with destination "
        "'localSettings' is written to .claude/settings.local.json."
    ),
    summary="updated_permissions of an allow take effect: rules, mode, directories, local file",
    security="updates the CLI drops make every later call ask again; ones applied wrongly widen access unseen",
    source=("sdk-py", "PermissionResultAllow.updated_permissions"),
    tier="cli",
    checks=tuple(_UPDATE_CHECKS.values()),
    requires=("option:can_use_tool", "api:PermissionUpdate", "api:PermissionResultAllow"),
    pins={
        "session-rule-stops-next-prompt": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
            "permission-update:destination",
            "permission-update:rules",
            "permission:PermissionResultAllow",
        ),
        "set-mode-changes-mode": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
            "permission-update:type=setMode",
            "permission-update:destination",
            "permission-update:rules",
            "permission:PermissionResultAllow",
        ),
        "add-directories-widens-access": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
            "permission-update:type=addDirectories",
            "permission-update:destination",
            "permission-update:rules",
            "permission:PermissionResultAllow",
        ),
        "local-settings-rule-persisted": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
            "permission-update:destination",
            "permission-update:rules",
            "permission:PermissionResultAllow",
        ),
    },
    sdk_ref="claude_agent_sdk.types.PermissionUpdate.to_dict",
)
async def updated_permissions_applied(h: Harness) -> dict[str, Any]:
    outside = str(h.workdir("outside"))
    answers = {_target(h, tool, target, outside): kind for tool, target, kind in _UPDATE_STEPS.values() if kind}

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from claude_agent_sdk import PermissionResultAllow

        kind = answers.get(str(tool_input.get("command", tool_input.get("file_path", ""))))
        if kind is None:
            return PermissionResultAllow(updated_input=tool_input)
        return PermissionResultAllow(updated_input=tool_input, updated_permissions=[_update_for(kind, outside)])

    script = []
    for n, (tool, target, _) in enumerate(_UPDATE_STEPS.values(), 1):
        named = _target(h, tool, target, outside)
        given = (
            {"command": named, "description": "probe step"}
            if tool == "Bash"
            else {"file_path": named, "content": "x\n"}
        )
        script.append(reply(tool_use(tool, given, id=f"toolu_u{n}")))
    run = await h.session(
        "apply the updates",
        script=[*script, "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=callback,
        permission_mode="default",
    )
    asked = _asked(run) + _asked_paths(run)
    local = h.cwd / ".claude" / "settings.local.json"
    return {
        "init_permission_mode": run.init.get("permissionMode"),
        "steps": {
            step: {
                "asked": _target(h, tool, target, outside) in asked,
                "ran": _effect(h, tool, target, outside).exists(),
            }
            for step, (tool, target, _) in _UPDATE_STEPS.items()
        },
        "local_settings": json.loads(local.read_text()) if local.exists() else None,
        "error": run.error_line,
    }


@updated_permissions_applied.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    steps = seen["steps"]

    def shown(step: str) -> str:
        first, again = steps[step], steps[f"{step} again"]
        return (
            f"{step}: the first call {'asked' if first['asked'] else 'not asked'} (answered with "
            f"{_UPDATE_STEPS[step][2]}), the next one {'asked' if again['asked'] else 'not asked'} and "
            f"{'ran' if again['ran'] else 'did not run'}"
        )

    def applied(step: str) -> Check:
        first, again = steps[step], steps[f"{step} again"]
        return check(first["asked"] and not again["asked"] and again["ran"], shown(step))

    rules = ((seen["local_settings"] or {}).get("permissions") or {}).get("allow") or []
    return {
        "session-rule-stops-next-prompt": applied("session rule"),
        "set-mode-changes-mode": applied("set mode"),
        "add-directories-widens-access": applied("add directory"),
        "local-settings-rule-persisted": check(
            steps["local rule"]["asked"] and "Bash(touch l1)" in rules,
            f"touch l1 {'asked' if steps['local rule']['asked'] else 'not asked'}, answered with "
            f"{_UPDATE_STEPS['local rule'][2]}; .claude/settings.local.json then held "
            f"{'no file' if seen['local_settings'] is None else seen['local_settings']}",
        ),
    }


updated_permissions_applied.differs_on(
    {  # every update ignored (one bad update in a response makes the CLI drop them all): each call asks again
        "init_permission_mode": "default",
        "steps": {step: {"asked": True, "ran": True} for step in _UPDATE_STEPS},
        "local_settings": None,
        "error": None,
    }
)
