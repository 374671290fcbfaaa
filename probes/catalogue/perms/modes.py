"""Permission modes (acceptEdits, bypassPermissions, plan, auto, the settings' default) and
changing the mode live."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, needs_live, undecidable
from sdkprobe.catalogue.perms.support import (
    HOST_DENY,
    asked_about,
    asked_paths,
    bash_reply,
    recording_deny,
    tool_results_of,
)
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Conversation,
    Harness,
    ProbeTimeout,
    allow_every_tool,
    git_repo,
    project_settings,
    reply,
    result_text,
    tool_use,
)

# What a Bash step leaves behind when it ran: the marker names the step in callbacks and requests.
_APPROVED_FILE = "made.txt"
_APPROVED_COMMAND = f"python3 -c \"open('{_APPROVED_FILE}', 'w').write('x')\""
_EDITED_FILE = "notes.txt"
# Refusals in which the CLI says the classifier gave no verdict (seen offline on CLI 2.1.105 to 2.1.332).
_NO_VERDICT = ("auto mode is unavailable", "could not evaluate", "unparseable")


def _not_started(seen: AutoLiveSeen | AutoOfflineSeen, checks: tuple[str, ...]) -> dict[str, Check] | None:
    """Every sub-check undecidable when the CLI did not start in a permission mode at all."""
    if seen["init_permission_mode"] is not None:
        return None
    why = undecidable(
        f"the CLI did not start with permission_mode 'auto': {(seen['error'] or 'no init').splitlines()[0]}"
    )
    return dict.fromkeys(checks, why)


# --- perms.auto-mode-bypasses-can-use-tool (live) ------------------------------------------

_LIVE_CHECKS = (
    "edit-applied-without-callback",
    "classifier-approved-step-without-callback",
    "refused-step-without-callback",
)


def _live_prompt(outside: str) -> str:
    return (
        "Do these three things in order with your tools, without asking me anything first:\n"
        f"1. Write the file {_EDITED_FILE} in the current directory with the content 'new'.\n"
        f"2. Run exactly this Bash command: {_APPROVED_COMMAND}\n"
        f"3. Run exactly this Bash command: rm -rf {outside}\n"
        "If a step is refused, go on with the next one. Then reply 'done'."
    )


def _steps_from_messages(run: CliRun, markers: dict[str, str]) -> dict[str, Any]:
    """Per step (named by a marker its tool input holds): whether the model attempted it,
    and the tool_result the CLI gave back, read from what the SDK yielded (a live session
    has no double to read requests from)."""
    uses: dict[str, str] = {}
    for m in run.of_type("AssistantMessage"):
        for b in getattr(m, "content", []) or []:
            if type(b).__name__ == "ToolUseBlock":
                said = json.dumps(b.input)
                for step, marker in markers.items():
                    if marker in said and step not in uses:
                        uses[step] = b.id
    results: dict[str, Any] = {}
    for m in run.of_type("UserMessage"):
        content = getattr(m, "content", None)
        for b in content if isinstance(content, list) else []:
            if type(b).__name__ == "ToolResultBlock" and b.tool_use_id in uses.values():
                step = next(s for s, tid in uses.items() if tid == b.tool_use_id)
                block = {"content": b.content}
                results[step] = {"is_error": bool(b.is_error), "text": result_text(block)[:300]}
    return {step: results.get(step, "attempted, no result" if step in uses else None) for step in markers}


class AutoLiveSeen(TypedDict):
    init_permission_mode: str | None
    callbacks: list[dict[str, Any]]  # tool, and the step its input names (None: no step)
    written: bool
    approved_ran: bool
    refused_target_kept: bool
    steps: dict[str, Any]  # _steps_from_messages: its tool_result, "attempted, no result", or None
    error: str | None


@behaviour(
    id="perms.auto-mode-bypasses-can-use-tool",
    claim=(
        "With permission mode 'auto' a classifier decides, and the steps it approves never reach "
        "can_use_tool, so a host that shows changes from the callback never sees those file changes."
    ),
    summary="In auto mode, steps the classifier approves never reach can_use_tool",
    security="a mode that skips can_use_tool runs tools the host's callback would have refused",
    source=("004", "Auto mode"),
    tier="live",  # the catalogue: the classifier is a call to the real API, not expected to run offline
    checks=_LIVE_CHECKS,
    requires=("option:can_use_tool", "option:permission_mode"),
    sdk_ref="claude_agent_sdk.types.PermissionMode",
    timeout=300,
)
async def auto_mode_bypasses_can_use_tool(h: Harness) -> AutoLiveSeen:
    # A folder outside the working directory for the deny case: deleting it is what a
    # classifier refuses; if it were approved, only this probe's own folder would go.
    outside = h.workdir("keep-me")
    (outside / "keep.txt").write_text("keep\n")
    markers = {"write": _EDITED_FILE, "approved": _APPROVED_FILE, "refused": outside.name}
    run = await h.cli(
        _live_prompt(str(outside)),
        client=True,  # streaming mode: old SDKs refuse callbacks with a string prompt to query()
        can_use_tool=allow_every_tool,
        permission_mode="auto",
        timeout=240,
    )
    asked = [
        {"tool": c["tool"], "step": next((s for s, m in markers.items() if m in json.dumps(c["input"])), None)}
        for c in run.callbacks
    ]
    target = h.cwd / _EDITED_FILE
    return {
        "init_permission_mode": run.init.get("permissionMode"),
        "callbacks": asked,
        "written": target.exists() and target.read_text().strip() == "new",
        "approved_ran": (h.cwd / _APPROVED_FILE).exists(),
        "refused_target_kept": (outside / "keep.txt").exists(),
        "steps": _steps_from_messages(run, markers),
        "error": run.error_line,
    }


@auto_mode_bypasses_can_use_tool.decide
def _(seen: AutoLiveSeen) -> dict[str, Check]:
    not_started = _not_started(seen, _LIVE_CHECKS)
    if not_started:
        return not_started
    steps = seen["steps"]
    asked_about = sorted({str(c["step"] or c["tool"]) for c in seen["callbacks"]})

    def said(step: str) -> str:
        r = steps[step]
        return r["text"][:120] if isinstance(r, dict) else str(r)

    def no_verdict(step: str) -> bool:
        r = steps[step]
        return isinstance(r, dict) and any(w in r["text"].lower() for w in _NO_VERDICT)

    def decided(step: str, ok: bool, how: str) -> Check:
        if steps[step] is None:
            return needs_live(f"the model did not attempt the {step} step")
        if no_verdict(step):
            return needs_live(f"the classifier gave no verdict on the {step} step: {said(step)!r}")
        return check(ok, f"{how}; can_use_tool was asked about {asked_about} ({said(step)!r})")

    approved = (
        decided("approved", "approved" not in asked_about, "the classifier let the Bash step run")
        if seen["approved_ran"]
        else needs_live(f"the Bash step did not run, so no approval was seen: {said('approved')!r}")
    )
    refused = (
        decided("refused", "refused" not in asked_about, "the classifier refused the deletion outside the cwd")
        if seen["refused_target_kept"]
        else needs_live("the classifier approved the deletion outside the cwd, so no refusal was seen")
    )
    return {
        "edit-applied-without-callback": check(
            seen["written"] and "write" not in asked_about,
            f"permissionMode {seen['init_permission_mode']!r}: file written {seen['written']}, "
            f"can_use_tool asked about {asked_about}",
        ),
        "classifier-approved-step-without-callback": approved,
        "refused-step-without-callback": refused,
    }


auto_mode_bypasses_can_use_tool.differs_on(
    {
        "init_permission_mode": "auto",
        "callbacks": [
            {"tool": "Write", "step": "write"},
            {"tool": "Bash", "step": "approved"},
            {"tool": "Bash", "step": "refused"},
        ],
        "written": True,
        "approved_ran": True,
        "refused_target_kept": True,
        "steps": {
            "write": {"is_error": False, "text": "File created successfully"},
            "approved": {"is_error": False, "text": "(Bash completed with no output)"},
            "refused": {"is_error": True, "text": "Permission for this action was denied by the classifier."},
        },
        "error": None,
    }
)


# --- perms.auto-mode-offline-without-classifier (cli) ---------------------------------------

_OFFLINE_CHECKS = (
    "mode-stays-auto",
    "cwd-edit-applied-without-callback",
    "classifier-step-refused-without-callback",
    "no-classifier-request",
)


AutoOfflineSeen = TypedDict(
    "AutoOfflineSeen",
    {
        "init_permission_mode": str | None,
        "callbacks": list[Any],  # the tools can_use_tool was asked about
        "written": bool,
        "bash_ran": bool,
        "bash_result": dict[str, Any] | None,  # is_error, text
        "requests judging the Bash step": list[str],
        "error": str | None,
    },
)


@behaviour(
    id="perms.auto-mode-offline-without-classifier",
    claim=(
        "Offline, with the model a local double, permission mode 'auto' is kept but its classifier does not "
        "run: a file edit in the working directory is applied without asking can_use_tool, and a Bash command "
        "no edit rule covers is refused without asking can_use_tool and without asking the model to judge it."
    ),
    summary="Offline auto mode applies cwd edits and refuses uncovered Bash, never asking can_use_tool",
    source=("004", "Auto mode"),
    tier="cli",
    checks=_OFFLINE_CHECKS,
    requires=("option:can_use_tool", "option:permission_mode"),
    sdk_ref="claude_agent_sdk.types.PermissionMode",
)
async def auto_mode_offline_without_classifier(h: Harness) -> AutoOfflineSeen:
    target = h.cwd / _EDITED_FILE
    run = await h.cli(
        "write and run",
        client=True,  # streaming mode: old SDKs refuse callbacks with a string prompt to query()
        script=[
            reply(tool_use("Write", {"file_path": str(target), "content": "new\n"}, id="toolu_write")),
            reply(tool_use("Bash", {"command": _APPROVED_COMMAND, "description": "make a file"}, id="toolu_bash")),
            "done",
        ],
        can_use_tool=allow_every_tool,
        permission_mode="auto",
    )
    main = run.on(MAIN)
    last = main[-1] if main else None
    bash = last.tool_result("toolu_bash") if last else None
    # A classifier judging the Bash step quotes it; a main-conversation request is not one.
    judging = [
        str(r.route)
        for r in run.all_requests
        if r.is_messages and r.route != MAIN and _APPROVED_FILE in json.dumps(r.body)
    ]
    return {
        "init_permission_mode": run.init.get("permissionMode"),
        "callbacks": [c["tool"] for c in run.callbacks],
        "written": target.exists() and target.read_text() == "new\n",
        "bash_ran": (h.cwd / _APPROVED_FILE).exists(),
        "bash_result": None if bash is None else {"is_error": bool(bash.get("is_error")), "text": result_text(bash)},
        "requests judging the Bash step": judging,
        "error": run.error,
    }


@auto_mode_offline_without_classifier.decide
def _(seen: AutoOfflineSeen) -> dict[str, Check]:
    not_started = _not_started(seen, _OFFLINE_CHECKS)
    if not_started:
        return not_started
    mode, callbacks, ran = seen["init_permission_mode"], seen["callbacks"], seen["bash_ran"]
    result = seen["bash_result"] or {}
    said = result.get("text", "")[:120]
    judging = seen["requests judging the Bash step"]
    return {
        "mode-stays-auto": check(mode == "auto", f"the CLI started in permissionMode {mode!r}, not 'auto'"),
        "cwd-edit-applied-without-callback": check(
            seen["written"] and "Write" not in callbacks,
            f"file written {seen['written']}, can_use_tool asked about {callbacks}",
        ),
        "classifier-step-refused-without-callback": check(
            not ran and bool(result.get("is_error")) and "Bash" not in callbacks,
            f"the Bash step {'ran' if ran else 'did not run'} ({said!r}), can_use_tool asked about {callbacks}",
        ),
        "no-classifier-request": check(
            not judging,
            f"{len(judging)} request(s) to the model judged the Bash step ({', '.join(judging)}); it said {said!r}",
        ),
    }


auto_mode_offline_without_classifier.differs_on(
    {  # CLI 2.1.85 to 2.1.88: the mode falls back to default and every step asks the callback
        "init_permission_mode": "default",
        "callbacks": ["Write", "Bash"],
        "written": True,
        "bash_ran": True,
        "bash_result": {"is_error": False, "text": "(Bash completed with no output)"},
        "requests judging the Bash step": [],
        "error": None,
    }
)
auto_mode_offline_without_classifier.differs_on(
    {  # a classifier that asks the double and blocks on its unparseable answer
        "init_permission_mode": "auto",
        "callbacks": [],
        "written": True,
        "bash_ran": False,
        "bash_result": {"is_error": True, "text": "Permission for this action has been denied. Reason: unparseable"},
        "requests judging the Bash step": ["aux"],
        "error": None,
    }
)

# The session drops the host's own IS_SANDBOX; a probe needing bypass mode as root declares the
# sandbox itself, so that the mode is taken whatever the host's environment says.
_SANDBOX = {"IS_SANDBOX": "1"}


async def _deny_every_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
    """A can_use_tool that refuses every call (the session records each one it is asked about)."""
    from sdkprobe.harness import PermissionResultDeny

    return PermissionResultDeny(message=HOST_DENY)


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


class _BypassRunEnded(TypedDict):
    ended: bool  # False: the session hung to the ceiling
    init_permission_mode: str | None
    asked: list[str]  # asked_about
    made: dict[str, bool]  # "a1", "o1" -> whether the touch made it
    results: dict[str, Any]  # a key of _BYPASS_CALLS -> its tool_result (_result_of)
    error: str | None


class BypassRun(_BypassRunEnded, total=False):
    result: str | None  # the result's subtype; absent when the session did not end


BypassSeen = TypedDict("BypassSeen", {"with callback": BypassRun, "without callback": BypassRun})


async def _bypass_run(h: Harness, with_callback: bool) -> BypassRun:
    """One bypass session of the scripted calls; whether it ended, what was asked, which files appeared."""
    for name in ("a1", "o1"):
        (h.cwd / name).unlink(missing_ok=True)
    options: dict[str, Any] = {"can_use_tool": allow_every_tool, "client": True} if with_callback else {}
    try:
        run = await h.cli(
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
        "asked": asked_about(run),
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
    # only the unruled call tells bypassPermissions from the default mode: the others are asked,
    # refused or ended in the default mode too
    pins={"unruled-call-runs-unasked": ("option:permission_mode",)},
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
    timeout=2 * _BYPASS_TIMEOUT + 60,
)
async def bypass_still_asks(h: Harness) -> BypassSeen:
    return {"with callback": await _bypass_run(h, True), "without callback": await _bypass_run(h, False)}


@bypass_still_asks.decide
def _(seen: BypassSeen) -> dict[str, Check]:
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


def _bypass_seen(asked: list[str], made: dict[str, bool], ended: bool = True) -> BypassRun:
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
    {  # permission_mode no longer reaching the CLI: a default-mode session asks about every call
        "with callback": _bypass_seen(
            ["touch a1", "touch o1", "AskUserQuestion", "ExitPlanMode"], {"a1": True, "o1": True}
        )
        | {"init_permission_mode": "default"},
        "without callback": _bypass_seen([], {}) | {"init_permission_mode": "default"},
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


class ProtectedWrite(TypedDict):
    asked: bool  # whether can_use_tool was asked about it
    written: bool
    result: dict[str, Any] | None  # its tool_result (_result_of)


class ProtectedSeen(TypedDict):
    init_permission_mode: str | None
    writes: dict[str, ProtectedWrite]  # a key of _PROTECTED -> its Write's fate
    error: str | None


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
    # only the ordinary Write tells acceptEdits from the default mode (which asks for every Write)
    pins={"ordinary-file-written-unasked": ("option:permission_mode",)},
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def accept_edits_protected_paths(h: Harness) -> ProtectedSeen:
    git_repo(h.cwd, user_name="probe")
    for relative, _ in _PROTECTED.values():
        (h.cwd / relative).parent.mkdir(parents=True, exist_ok=True)
    script = [
        reply(tool_use("Write", {"file_path": str(h.cwd / relative), "content": _MARK}, id=f"toolu_w{n}"))
        for n, (relative, _) in enumerate(_PROTECTED.values(), 1)
    ]
    run = await h.cli(
        "write the files",
        script=[*script, "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=_deny_every_tool,
        permission_mode="acceptEdits",
    )
    asked = asked_paths(run)
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
def _(seen: ProtectedSeen) -> dict[str, Check]:
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


def _protected_seen(asked: bool, written: bool) -> ProtectedWrite:
    return {"asked": asked, "written": written, "result": {"is_error": asked, "text": ""}}


accept_edits_protected_paths.differs_on(
    {  # acceptEdits writes protected paths unasked, like any file
        "init_permission_mode": "acceptEdits",
        "writes": {target: _protected_seen(False, True) for target in _PROTECTED},
        "error": None,
    }
)
accept_edits_protected_paths.differs_on(
    {  # permission_mode no longer reaching the CLI: a default-mode session asks for every Write
        "init_permission_mode": "default",
        "writes": {target: _protected_seen(True, False) for target in _PROTECTED},
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
        from sdkprobe.harness import PermissionResultAllow, PermissionResultDeny, PermissionUpdate

        if name != "ExitPlanMode":
            return PermissionResultAllow(updated_input=tool_input)
        if not approve:
            return PermissionResultDeny(message=_PLAN_REJECTED)
        to_edits = PermissionUpdate(type="setMode", mode="acceptEdits", destination="session")
        return PermissionResultAllow(updated_input=tool_input, updated_permissions=[to_edits])

    return callback


_EXITED = "exited plan mode"  # what the CLI tells the model once the session has left plan mode


async def _no_decision(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    return {}


class PlanRun(TypedDict):
    mode_at_write: dict[str, Any]  # file -> the permission_mode its Write's PreToolUse input carried
    init_permission_mode: str | None
    asked: list[str]  # asked_about
    asked_files: list[str]
    written: dict[str, bool]  # a name of _PLAN_FILES -> whether it was written
    exit_result: dict[str, Any] | None  # ExitPlanMode's tool_result (_result_of)
    went_on_after_exit: bool
    told_model_plan_mode_exited: bool
    result: str | None  # the result's subtype
    error: str | None


async def _plan_run(h: Harness, approve: bool) -> PlanRun:
    for name in _PLAN_FILES:
        (h.cwd / name).unlink(missing_ok=True)
    write = [
        tool_use("Write", {"file_path": str(h.cwd / name), "content": "x\n"}, id=f"toolu_{name.split('.')[0]}")
        for name in _PLAN_FILES
    ]
    leave = tool_use("ExitPlanMode", {"plan": "1. write after.txt"}, id="toolu_exit")
    from sdkprobe.harness import HookMatcher

    run = await h.cli(
        "plan, then write",
        script=[reply(write[0]), reply(leave), reply(write[1]), "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=_plan_callback(approve),
        permission_mode="plan",
        # a hook that decides nothing: its input says which mode the CLI is in at each Write
        hooks={"PreToolUse": [HookMatcher(matcher="Write", hooks=[_no_decision])]},
    )
    return {
        # per Write, the permission_mode its PreToolUse input carried (None: the CLI sends no such field)
        "mode_at_write": {
            Path(str(c["input"].get("tool_input", {}).get("file_path"))).name: c["input"].get("permission_mode")
            for c in run.callbacks
            if c["kind"] == "hook" and c["event"] == "PreToolUse"
        },
        "init_permission_mode": run.init.get("permissionMode"),
        "asked": asked_about(run),
        # the files whose Write can_use_tool was asked about
        "asked_files": [Path(path).name for path in asked_paths(run)],
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
    # a session that never entered plan mode runs the first Write (the callback allows it) and
    # reports its own mode at the second; an approved exit to acceptEdits looks the same either way
    pins={
        "plan-mode-blocks-write": ("option:permission_mode",),
        "rejected-exit-keeps-plan-mode": ("option:permission_mode",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def plan_mode_exit_plan(h: Harness) -> dict[str, PlanRun]:
    return {label: await _plan_run(h, label == "approved") for label in _PLAN_RUNS}


@plan_mode_exit_plan.decide
def _(seen: dict[str, PlanRun]) -> dict[str, Check]:
    rejected, approved = seen["rejected"], seen["approved"]

    def shown(label: str) -> str:
        r = seen[label]
        said = (r["exit_result"] or {}).get("text", "no tool_result")[:80]
        return (
            f"ExitPlanMode {label} (init permissionMode {r['init_permission_mode']!r}): can_use_tool asked about "
            f"{r['asked']}, files written {r['written']}, ExitPlanMode's result {said!r}, the turn went on "
            f"after it {r['went_on_after_exit']}, the model told it left plan mode {r['told_model_plan_mode_exited']}, "
            f"the mode each Write's PreToolUse input gave {r['mode_at_write']}"
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
            and not rejected["told_model_plan_mode_exited"]
            and _mode_at(rejected, "after.txt") in ("plan", None),
            shown("rejected"),
        ),
        "approved-exit-leaves-plan-mode": check(
            approved["written"]["after.txt"]
            and "after.txt" not in approved["asked_files"]
            and _mode_at(approved, "after.txt") in ("acceptEdits", None),
            shown("approved"),
        ),
    }


def _mode_at(run: PlanRun, name: str) -> str | None:
    """The mode the CLI gave the Write of `name` in its PreToolUse input; None when it gave none
    (or the Write never reached its hook): then the files and the model's messages decide alone."""
    mode: str | None = run["mode_at_write"].get(name)
    return mode


def _plan_seen(
    asked_files: list[str],
    before: bool,
    after: bool,
    went_on: bool = True,
    exited: bool = False,
    modes: tuple[str, str] = ("plan", "plan"),
) -> PlanRun:
    return {
        "mode_at_write": dict(zip(_PLAN_FILES, modes, strict=True)),
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
    {  # the CLI leaving plan mode on a rejected ExitPlanMode without saying so: only the mode it reports moved
        "rejected": _plan_seen(["before.txt", "after.txt"], True, True, modes=("plan", "default"))
        | {"asked": ["Write", "ExitPlanMode", "Write"]},
        "approved": _plan_seen(["before.txt"], True, True, exited=True, modes=("plan", "acceptEdits"))
        | {"asked": ["Write", "ExitPlanMode"]},
    }
)
plan_mode_exit_plan.differs_on(
    {  # an approved ExitPlanMode whose setMode is not applied: the Write runs unasked, yet the CLI is in plan mode
        "rejected": _plan_seen(["before.txt", "after.txt"], True, True) | {"asked": ["Write", "ExitPlanMode", "Write"]},
        "approved": _plan_seen(["before.txt"], True, True, exited=True, modes=("plan", "plan"))
        | {"asked": ["Write", "ExitPlanMode"]},
    }
)
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
    {  # permission_mode no longer reaching the CLI: a default-mode session, every Write asked and allowed
        "rejected": _plan_seen(["before.txt", "after.txt"], True, True, modes=("default", "default"))
        | {"asked": ["Write", "ExitPlanMode", "Write"], "init_permission_mode": "default"},
        "approved": _plan_seen(["before.txt"], True, True, exited=True, modes=("default", "acceptEdits"))
        | {"asked": ["Write", "ExitPlanMode"], "init_permission_mode": "default"},
    }
)
plan_mode_exit_plan.differs_on(
    {  # cc#4251 and cc#40671: ExitPlanMode never asked, approval did not change the mode, the turn ended
        "rejected": _plan_seen([], False, False, went_on=False),
        "approved": _plan_seen([], False, False, went_on=False),
    }
)


# --- perms.accept-edits-fs-bash -------------------------------------------------------------

# step -> (command, sub-check group); the scratch tree below gives each step an effect of its own
_FS_STEPS: dict[str, tuple[str, str]] = {
    "mkdir": ("mkdir made_dir", "in-cwd"),
    "touch": ("touch touched.txt", "in-cwd"),
    "cp": ("cp source.txt copied.txt", "in-cwd"),
    "mv": ("mv moveme.txt moved.txt", "in-cwd"),
    "sed": ("sed -i s/a/b/ sed.txt", "in-cwd"),
    "rm": ("rm remove.txt", "in-cwd"),
    "rmdir": ("rmdir empty_dir", "in-cwd"),
    "env-prefix rm": ("FOO=1 rm prefixed.txt", "prefixed"),
    "wrapper rm": ("timeout 5 rm wrapped.txt", "prefixed"),
    "outside touch": ("touch {outside}/outside.txt", "outside"),
    "python write": ("python3 -c \"open('py.txt', 'w').write('x')\"", "other"),
}
_FS_CHECKS = {
    "in-cwd": "cwd-filesystem-commands-asked",
    "prefixed": "prefixed-and-wrapped-commands-asked",
    "outside": "outside-cwd-command-asked",
    "other": "other-command-asked",
}


def _scratch_tree(h: Harness) -> None:
    for name in ("source.txt", "moveme.txt", "remove.txt", "prefixed.txt", "wrapped.txt"):
        (h.cwd / name).write_text("x\n")
    (h.cwd / "sed.txt").write_text("a\n")
    (h.cwd / "empty_dir").mkdir()


def _fs_effects(h: Harness, outside: Any) -> dict[str, bool]:
    """Per step: whether its effect is there (the command ran)."""
    cwd = h.cwd
    return {
        "mkdir": (cwd / "made_dir").exists(),
        "touch": (cwd / "touched.txt").exists(),
        "cp": (cwd / "copied.txt").exists(),
        "mv": (cwd / "moved.txt").exists() or not (cwd / "moveme.txt").exists(),
        "sed": (cwd / "sed.txt").read_text() != "a\n",
        "rm": not (cwd / "remove.txt").exists(),
        "rmdir": not (cwd / "empty_dir").exists(),
        "env-prefix rm": not (cwd / "prefixed.txt").exists(),
        "wrapper rm": not (cwd / "wrapped.txt").exists(),
        "outside touch": (outside / "outside.txt").exists(),
        "python write": (cwd / "py.txt").exists(),
    }


class FsStep(TypedDict):
    asked: bool  # whether can_use_tool was asked about its command
    ran: bool  # whether its effect is there (_fs_effects)
    result: dict[str, Any] | None  # its tool_result (tool_results_of)


class FsSeen(TypedDict):
    init_permission_mode: str | None
    steps: dict[str, FsStep]  # a key of _FS_STEPS -> its command's fate
    error: str | None


@behaviour(
    id="perms.accept-edits-fs-bash",
    claim=(
        "permission_mode='acceptEdits' auto-accepts file edit operations only: every Bash command, filesystem "
        "commands in the working directory (mkdir, touch, cp, mv, sed -i, rm, rmdir) included, with an "
        "environment prefix or a wrapper command, or touching a path outside it, still goes to can_use_tool, "
        "and a refusal there keeps it from running."
    ),
    summary="acceptEdits still asks can_use_tool for every Bash command, rm included",
    security="a mode meant for edits that runs rm or mv via Bash unasked deletes files the host never approved",
    source=("cc#45474", "report"),
    tier="cli",
    checks=tuple(_FS_CHECKS.values()),
    requires=("option:can_use_tool", "option:permission_mode"),
    # permission_mode not reaching the CLI is seen by the one sub-check that asks whether the
    # session was in acceptEdits (the mode that auto-accepted the in-cwd set, cc#45474); in the
    # default mode every command is asked, so the others hold on what ran either way
    pins={
        "cwd-filesystem-commands-asked": ("option:permission_mode", "option:can_use_tool"),
        "prefixed-and-wrapped-commands-asked": ("option:can_use_tool",),
        "outside-cwd-command-asked": ("option:can_use_tool",),
        "other-command-asked": ("option:can_use_tool",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def accept_edits_fs_bash(h: Harness) -> FsSeen:
    _scratch_tree(h)
    outside = h.workdir("outside")
    asked: list[str] = []
    ids = {step: f"toolu_{n}" for n, step in enumerate(_FS_STEPS, 1)}
    script = [bash_reply(command.format(outside=outside), ids[step]) for step, (command, _) in _FS_STEPS.items()]
    run = await h.cli(
        "tidy the files",
        script=[*script, "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=recording_deny(asked),
        permission_mode="acceptEdits",
    )
    results = tool_results_of(run, list(ids.values()))
    commands = {step: command.format(outside=outside) for step, (command, _) in _FS_STEPS.items()}
    return {
        "init_permission_mode": run.init.get("permissionMode"),
        "steps": {
            step: {
                "asked": commands[step] in asked,
                "ran": ran,
                "result": h.observe(results[ids[step]]),
            }
            for step, ran in _fs_effects(h, outside).items()
        },
        "error": run.error_line,
    }


@accept_edits_fs_bash.decide
def _(seen: FsSeen) -> dict[str, Check]:
    mode = seen["init_permission_mode"]
    steps = seen["steps"]
    decided: dict[str, Check] = {}
    for group, name in _FS_CHECKS.items():
        members = [step for step, (_, g) in _FS_STEPS.items() if g == group]
        unasked = [step for step in members if not steps[step]["asked"]]
        ran = [step for step in members if steps[step]["ran"]]
        decided[name] = check(
            not unasked and not ran,
            f"of {members}: not asked {unasked or 'none'}, ran {ran or 'none'}",
        )
    if mode != "acceptEdits":
        # permission_mode did not reach the CLI: the in-cwd set, the one acceptEdits auto-accepted, was
        # asked only because the mode never applied (the other groups are asked in every mode but bypass)
        decided[_FS_CHECKS["in-cwd"]] = check(
            False, f"the CLI did not start in acceptEdits (init permissionMode {mode!r}; {seen['error']!r})"
        )
    return decided


# cc#45474 and cc#60693: the filesystem set inside the cwd ran unasked, prefixed too
_REPORTED_RUN: dict[str, FsStep] = {
    step: {
        "asked": group in ("outside", "other"),
        "ran": group not in ("outside", "other"),
        "result": {"is_error": False, "text": ""},
    }
    for step, (_, group) in _FS_STEPS.items()
}
accept_edits_fs_bash.differs_on({"init_permission_mode": "acceptEdits", "steps": _REPORTED_RUN, "error": None})
accept_edits_fs_bash.differs_on(
    {  # permission_mode no longer reaching the CLI: a default-mode session, every command asked and refused
        "init_permission_mode": "default",
        "steps": {
            step: {"asked": True, "ran": False, "result": {"is_error": True, "text": "no"}} for step in _FS_STEPS
        },
        "error": None,
    }
)
accept_edits_fs_bash.differs_on(
    {  # a mode that approves every Bash command
        "init_permission_mode": "acceptEdits",
        "steps": {step: {"asked": False, "ran": True, "result": None} for step in _FS_STEPS},
        "error": None,
    }
)


def _write(h: Harness, name: str) -> Any:
    return reply(
        tool_use("Write", {"file_path": str(h.cwd / name), "content": "x\n"}, id=f"toolu_write_{name.split('.')[0]}")
    )


class Wrote(TypedDict):
    asked: bool  # whether can_use_tool was asked about the Write
    written: bool


def _wrote(h: Harness, run: CliRun, name: str) -> Wrote:
    """Whether can_use_tool was asked about the Write of `name`, and whether the file is there."""
    asked = any(c["kind"] == "can_use_tool" and name in json.dumps(c["input"]) for c in run.callbacks)
    return {"asked": asked, "written": (h.cwd / name).exists()}


# --- perms.settings-default-mode-honored ----------------------------------------------------

# run label -> (the settings' defaultMode, the permission_mode option, the file its Write makes)
_MODE_RUNS: dict[str, tuple[str, str | None, str]] = {
    "settings acceptEdits": ("acceptEdits", None, "edits.txt"),
    "settings dontAsk": ("dontAsk", None, "dontask.txt"),
    "settings acceptEdits, option default": ("acceptEdits", "default", "explicit.txt"),
}


class ModeRun(Wrote):
    init_permission_mode: str | None


class PermissionModeFlags(TypedDict):
    unset: list[str]  # "--permission-mode" once per time it was sent
    default: list[str]


class SettingsModeSeen(TypedDict):
    argv: PermissionModeFlags
    runs: dict[str, ModeRun]  # a key of _MODE_RUNS -> its session


@behaviour(
    id="perms.settings-default-mode-honored",
    claim=(
        "With permission_mode left unset the SDK passes no --permission-mode, so a permissions.defaultMode "
        "from the loaded settings (setting_sources=['project']) decides the mode: 'acceptEdits' writes a file "
        "without asking can_use_tool, 'dontAsk' refuses the write without asking; an explicit "
        "permission_mode='default' overrides the settings and the write goes to can_use_tool."
    ),
    summary="Unset permission_mode leaves the settings' defaultMode in force; an explicit one wins",
    security="an SDK that forces a mode over the settings' defaultMode loosens or drops the host's chosen policy",
    source=("ts#230", "report"),
    tier="cli",
    checks=("no-flag-when-unset", "settings-accept-edits-honored", "settings-dont-ask-honored", "explicit-option-wins"),
    requires=("option:can_use_tool", "option:permission_mode", "option:setting_sources"),
    # permission_mode not sent: no flag for 'default', the settings' mode wins; setting_sources not
    # sent: the project settings are never read, so their defaultMode never applies
    pins={
        "no-flag-when-unset": ("option:permission_mode",),
        "settings-accept-edits-honored": ("option:setting_sources",),
        "settings-dont-ask-honored": ("option:setting_sources",),
        "explicit-option-wins": ("option:permission_mode",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def settings_default_mode_honored(h: Harness) -> SettingsModeSeen:
    unset = (await h.wire()).argv
    explicit = (await h.wire(permission_mode="default")).argv

    def flags(argv: list[str]) -> list[str]:  # the flag once per time it was sent, `--x v` or `--x=v`
        return ["--permission-mode" for t in argv if t == "--permission-mode" or t.startswith("--permission-mode=")]

    seen: SettingsModeSeen = {
        "argv": {"unset": flags(unset), "default": flags(explicit)},
        "runs": {},
    }
    for label, (mode, option, name) in _MODE_RUNS.items():
        project_settings(h.cwd, {"permissions": {"defaultMode": mode}})
        options: dict[str, Any] = {} if option is None else {"permission_mode": option}
        run = await h.cli(
            "write it",
            script=[_write(h, name), "done"],
            client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
            can_use_tool=allow_every_tool,
            setting_sources=["project"],
            **options,
        )
        seen["runs"][label] = {"init_permission_mode": run.init.get("permissionMode"), **_wrote(h, run, name)}
    return seen


@settings_default_mode_honored.decide
def _(seen: SettingsModeSeen) -> dict[str, Check]:
    runs, argv = seen["runs"], seen["argv"]

    def shown(label: str) -> str:
        r = runs[label]
        return (
            f"{label}: init permissionMode {r['init_permission_mode']!r}, can_use_tool "
            f"{'asked' if r['asked'] else 'not asked'}, file {'written' if r['written'] else 'not written'}"
        )

    edits, dont, explicit = (runs[label] for label in _MODE_RUNS)
    return {
        "no-flag-when-unset": check(
            not argv["unset"] and argv["default"] == ["--permission-mode"],
            f"--permission-mode in argv: {len(argv['unset'])} time(s) unset, {len(argv['default'])} with 'default'",
        ),
        "settings-accept-edits-honored": check(
            edits["init_permission_mode"] == "acceptEdits" and not edits["asked"] and edits["written"],
            shown("settings acceptEdits"),
        ),
        "settings-dont-ask-honored": check(
            dont["init_permission_mode"] == "dontAsk" and not dont["asked"] and not dont["written"],
            shown("settings dontAsk"),
        ),
        "explicit-option-wins": check(
            explicit["init_permission_mode"] == "default" and explicit["asked"],
            shown("settings acceptEdits, option default"),
        ),
    }


settings_default_mode_honored.differs_on(
    {  # ts#230: the SDK always passed --permission-mode default, overriding the settings
        "argv": {"unset": ["--permission-mode"], "default": ["--permission-mode"]},
        "runs": {
            "settings acceptEdits": {"init_permission_mode": "default", "asked": True, "written": True},
            "settings dontAsk": {"init_permission_mode": "default", "asked": True, "written": True},
            "settings acceptEdits, option default": {"init_permission_mode": "default", "asked": True, "written": True},
        },
    }
)
settings_default_mode_honored.differs_on(
    {  # setting_sources no longer reaching the CLI: the project settings unread, every run in the default mode
        "argv": {"unset": [], "default": ["--permission-mode"]},
        "runs": {label: {"init_permission_mode": "default", "asked": True, "written": True} for label in _MODE_RUNS},
    }
)
settings_default_mode_honored.differs_on(
    {  # the settings won over an explicit option: permission_mode no longer reaching the CLI
        "argv": {"unset": [], "default": []},
        "runs": {
            "settings acceptEdits": {"init_permission_mode": "acceptEdits", "asked": False, "written": True},
            "settings dontAsk": {"init_permission_mode": "dontAsk", "asked": False, "written": False},
            "settings acceptEdits, option default": {
                "init_permission_mode": "acceptEdits",
                "asked": False,
                "written": True,
            },
        },
    }
)


# --- perms.set-permission-mode-live ---------------------------------------------------------

# turn -> (the mode set before it, None for the session's own default; the file its Write makes)
_LIVE_TURNS: dict[str, tuple[str | None, str]] = {
    "default": (None, "asks.txt"),
    "acceptEdits": ("acceptEdits", "edits.txt"),
    "plan": ("plan", "planned.txt"),
}


class LiveModeSeen(TypedDict):
    init_permission_mode: str | None
    turns: dict[str, Wrote]  # a key of _LIVE_TURNS -> its Write's fate
    returned: dict[str, Any]  # mode -> what set_permission_mode returned (its repr), None for None
    plan_turn_told_plan_mode: bool
    error: str | None


@behaviour(
    id="perms.set-permission-mode-live",
    claim=(
        "ClaudeSDKClient.set_permission_mode(mode) changes the permission mode of the running session from "
        "its very next tool call and returns None: after 'acceptEdits' a Write runs without asking "
        "can_use_tool, after 'plan' a Write does not run; before either, the default mode asks."
    ),
    summary="set_permission_mode changes the mode for the next tool call, in the same session",
    source=("cc#19684", "report"),
    tier="cli",
    checks=("default-turn-asks", "accept-edits-turn-not-asked", "plan-turn-not-run", "returns-none"),
    requires=("option:can_use_tool", "api:ClaudeSDKClient.set_permission_mode"),
    # the first turn runs before any set_permission_mode: it pins nothing of it
    pins={
        "accept-edits-turn-not-asked": ("client:set_permission_mode",),
        "plan-turn-not-run": ("client:set_permission_mode",),
        "returns-none": ("client:set_permission_mode",),
    },
    sdk_ref="claude_agent_sdk.ClaudeSDKClient.set_permission_mode",
)
async def set_permission_mode_live(h: Harness) -> LiveModeSeen:
    returned: dict[str, Any] = {}

    async def steps(c: Conversation) -> None:
        for turn, (mode, _) in _LIVE_TURNS.items():
            if mode is not None:
                value = await c.call("set_permission_mode", mode)
                returned[mode] = None if value is None else repr(value)[:80]
            await c.send(f"turn {turn}")
            await c.response()

    script: list[Any] = []
    for _, name in _LIVE_TURNS.values():
        script += [_write(h, name), "done"]
    run = await h.converse(steps, script=script, can_use_tool=allow_every_tool)
    return {
        "init_permission_mode": run.init.get("permissionMode"),
        "turns": {turn: _wrote(h, run, name) for turn, (_, name) in _LIVE_TURNS.items()},
        "returned": returned,
        # whether the plan turn's first request told the model it is in plan mode (the mode was set)
        "plan_turn_told_plan_mode": "plan mode"
        in json.dumps(getattr(run.first(MAIN, "turn plan"), "body", "")).lower(),
        "error": run.error_line,
    }


@set_permission_mode_live.decide
def _(seen: LiveModeSeen) -> dict[str, Check]:
    turns = seen["turns"]

    def shown(turn: str) -> str:
        t = turns[turn]
        return (
            f"after {turn!r}: can_use_tool {'asked' if t['asked'] else 'not asked'}, "
            f"file {'written' if t['written'] else 'not written'}"
        )

    start = f"the session started in {seen['init_permission_mode']!r}; "
    return {
        "default-turn-asks": check(turns["default"]["asked"], start + shown("default")),
        "accept-edits-turn-not-asked": check(
            not turns["acceptEdits"]["asked"] and turns["acceptEdits"]["written"], shown("acceptEdits")
        ),
        "plan-turn-not-run": check(
            not turns["plan"]["written"],
            f"{shown('plan')}; the model was {'' if seen['plan_turn_told_plan_mode'] else 'not '}told of plan mode",
        ),
        "returns-none": check(
            all(v is None for v in seen["returned"].values()) and len(seen["returned"]) == 2,
            f"set_permission_mode returned {seen['returned']}",
        ),
    }


set_permission_mode_live.differs_on(
    {  # set_permission_mode no longer sending its request: it returns, and every turn asks as the first
        "init_permission_mode": "default",
        "turns": {
            "default": {"asked": True, "written": True},
            "acceptEdits": {"asked": True, "written": True},
            "plan": {"asked": True, "written": True},
        },
        "returned": {"acceptEdits": None, "plan": None},
        "plan_turn_told_plan_mode": False,
        "error": None,
    }
)
set_permission_mode_live.differs_on(
    {  # the mode changed on the CLI side only for a new session: every turn stayed in default
        "init_permission_mode": "default",
        "turns": {
            "default": {"asked": False, "written": True},
            "acceptEdits": {"asked": True, "written": True},
            "plan": {"asked": True, "written": True},
        },
        "returned": {"acceptEdits": "{'mode': 'acceptEdits'}", "plan": None},
        "plan_turn_told_plan_mode": False,
        "error": None,
    }
)
