"""Allow, ask and deny rules: how a rule names a path, which rule wins over a hook, and the rules
an allow adds."""

from __future__ import annotations

import json
import os
from pathlib import Path, PureWindowsPath
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, leave_uncovered, undecidable
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
    Harness,
    reply,
    result_text,
    tool_use,
)

_DENIED_WORDING = "is in a directory that is denied by your permission settings"

# file (under h.cwd) -> the deny rule that names it, and how the rule is written
_DENY_FILES = {
    "secret.txt": "//",  # Read(/ + /abs/path): the claimed absolute form
    "secrets/a.txt": "//",  # Read(/ + /abs/dir/**): the claimed folder form
    "ok.txt": None,  # named by no rule
    "single.txt": "/",  # Read(/abs/path): one slash, which Claude Code reads as relative
}


class DenyRead(TypedDict):
    denied: bool
    said: str  # the error text when denied; "content returned" when the file's content came back


class DenySeen(TypedDict):
    platform: str
    rules: list[str]
    reads: dict[str, DenyRead]  # file (a key of _DENY_FILES) -> what its Read got


@behaviour(
    id="perms.deny-rule-absolute-path-double-slash",
    claim=(
        "An absolute path in a permissions.deny rule is written as '//' followed by the POSIX path (on "
        "Windows too, //c/...): Read(//<file>) denies that file and Read(//<dir>/**) the folder's contents, "
        "saying the file is in a directory denied by the permission settings."
    ),
    summary="A deny rule takes an absolute path as // and the POSIX path, and denies that file",
    security="a deny rule spelt the documented way that does not match lets the denied path be read",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=(
        "double-slash-denies-file",
        "double-slash-glob-denies-folder-with-message",
        "unlisted-file-readable",
        "single-slash-path-not-absolute",
        "windows-drive-letter-form",
    ),
    requires=("option:settings",),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.settings",
)
async def deny_rule_absolute_path_double_slash(h: Harness) -> DenySeen:
    (h.cwd / "secrets").mkdir()
    rules, blocks = [], []
    for n, (name, slashes) in enumerate(_DENY_FILES.items(), 1):
        path = h.cwd / name
        path.write_text(f"content of {name}\n")
        if slashes == "//":
            rules.append(f"Read({_double_slash(path.parent)}/**)" if "/" in name else f"Read({_double_slash(path)})")
        elif slashes == "/":
            rules.append(f"Read({path})")
        blocks.append(tool_use("Read", {"file_path": str(path)}, id=f"toolu_read{n}"))
    run = await h.cli(
        "read them",
        script=[reply(*blocks), "done"],
        settings=json.dumps({"permissions": {"deny": rules}}),
    )
    main = run.on(MAIN)  # old CLIs also send side requests (titles) that hold no tool results
    last = main[-1] if len(main) > 1 else None
    seen: DenySeen = {"platform": "windows" if os.name == "nt" else "posix", "rules": rules, "reads": {}}
    for n, name in enumerate(_DENY_FILES, 1):
        block = last.tool_result(f"toolu_read{n}") if last else None
        text = result_text(block)
        seen["reads"][name] = {
            "denied": bool(block and block.get("is_error")),
            # the error text when denied; only whether the content came back otherwise
            "said": text.strip() if block and block.get("is_error") else ("content returned" if name in text else text),
        }
    return seen


@deny_rule_absolute_path_double_slash.decide
def _(seen: DenySeen) -> dict[str, Check]:
    reads = seen["reads"]

    def shown(name: str) -> str:
        r = reads[name]
        return f"{name}: {'denied' if r['denied'] else 'not denied'} ({r['said']!r})"

    folder = reads["secrets/a.txt"]
    return {
        "double-slash-denies-file": check(reads["secret.txt"]["denied"], shown("secret.txt")),
        "double-slash-glob-denies-folder-with-message": check(
            folder["denied"] and _DENIED_WORDING in folder["said"], shown("secrets/a.txt")
        ),
        "unlisted-file-readable": check(
            not reads["ok.txt"]["denied"] and reads["ok.txt"]["said"] == "content returned", shown("ok.txt")
        ),
        "single-slash-path-not-absolute": check(not reads["single.txt"]["denied"], shown("single.txt")),
        # On Windows the same rules were written in the drive-letter form (//c/Users/...).
        "windows-drive-letter-form": check(
            reads["secret.txt"]["denied"] and folder["denied"], f"{shown('secret.txt')}; {shown('secrets/a.txt')}"
        )
        if seen["platform"] == "windows"
        else undecidable("the Windows drive-letter form (//c/...) needs a Windows runner; this one is POSIX"),
    }


def _double_slash(path: Path) -> str:
    """An absolute path as a rule writes it: '//' + the POSIX form, a Windows drive as //c/..."""
    if os.name == "nt":
        drive, rest = PureWindowsPath(path).drive, PureWindowsPath(path).as_posix()[2:]
        return f"//{drive.rstrip(':').lower()}{rest}"
    return f"/{path.as_posix()}"


deny_rule_absolute_path_double_slash.differs_on(
    {
        "platform": "windows",
        "rules": [],
        "reads": {
            "secret.txt": {"denied": False, "said": "content returned"},
            "secrets/a.txt": {"denied": True, "said": "<tool_use_error>Permission denied</tool_use_error>"},
            "ok.txt": {"denied": True, "said": "<tool_use_error>denied</tool_use_error>"},
            "single.txt": {"denied": True, "said": "<tool_use_error>denied</tool_use_error>"},
        },
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
    from sdkprobe.harness import PermissionRuleValue, PermissionUpdate

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


class UpdateStep(TypedDict):
    asked: bool  # whether can_use_tool was asked about the step's call
    ran: bool


class UpdatesSeen(TypedDict):
    init_permission_mode: str | None
    steps: dict[str, UpdateStep]  # a key of _UPDATE_STEPS -> its call's fate
    local_settings: Any  # .claude/settings.local.json as read, None when absent
    error: str | None


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
        # the rules of an addRules are not in a setMode or addDirectories update: only the two rule
        # sub-checks see them lost
        "set-mode-changes-mode": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=setMode",
            "permission-update:destination",
            "permission:PermissionResultAllow",
        ),
        "add-directories-widens-access": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addDirectories",
            "permission-update:destination",
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
async def updated_permissions_applied(h: Harness) -> UpdatesSeen:
    outside = str(h.workdir("outside"))
    answers = {_target(h, tool, target, outside): kind for tool, target, kind in _UPDATE_STEPS.values() if kind}

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import PermissionResultAllow

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
    run = await h.cli(
        "apply the updates",
        script=[*script, "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=callback,
        permission_mode="default",
    )
    asked = asked_about(run) + asked_paths(run)
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
def _(seen: UpdatesSeen) -> dict[str, Check]:
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

_UPDATES_KEPT: UpdatesSeen = {  # as 2.1.332 applies every update
    "init_permission_mode": "default",
    "steps": {step: {"asked": "again" not in step, "ran": True} for step in _UPDATE_STEPS},
    "local_settings": {"permissions": {"allow": ["Bash(touch l1)"]}},
    "error": None,
}
updated_permissions_applied.differs_on(
    {  # an addRules update's rules lost on the way: an empty rule set allows nothing and is saved as none
        **_UPDATES_KEPT,
        "steps": {**_UPDATES_KEPT["steps"], "session rule again": {"asked": True, "ran": True}},
        "local_settings": {"permissions": {"allow": []}},
    }
)
updated_permissions_applied.differs_on(
    {  # a setMode update no longer applied: the next Write is asked again
        **_UPDATES_KEPT,
        "steps": {**_UPDATES_KEPT["steps"], "set mode again": {"asked": True, "ran": True}},
    }
)
updated_permissions_applied.differs_on(
    {  # an addDirectories update no longer applied: the next Write outside the cwd is asked again
        **_UPDATES_KEPT,
        "steps": {**_UPDATES_KEPT["steps"], "add directory again": {"asked": True, "ran": True}},
    }
)


# --- perms.ask-rule-beats-hook-allow --------------------------------------------------------

_RULED = {"ask": "a1", "deny": "d1", "unruled": "o1"}
_RULES = {"ask": ["Bash(touch a*)"], "deny": ["Bash(touch d*)"]}
_RULE_CHECKS = ("ask-rule-reaches-callback", "deny-rule-beats-hook-allow", "hook-allow-runs-unruled")


async def _allow_everything(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}


class RuledCall(TypedDict):
    asked: bool  # whether can_use_tool was asked about it
    exists: bool  # whether the file it touches was made
    result: dict[str, Any] | None  # its tool_result (tool_results_of), None when none came


class RuledSeen(TypedDict):
    calls: dict[str, RuledCall]  # a key of _RULED -> its call's fate
    hook_calls: int
    error: str | None


@behaviour(
    id="perms.ask-rule-beats-hook-allow",
    claim=(
        "A PreToolUse callback answering permissionDecision 'allow' does not override the settings' rules: a "
        "call a permissions.deny rule matches is refused without running, and one a permissions.ask rule "
        "matches still goes to can_use_tool, whose refusal keeps it from running; a call no rule names runs."
    ),
    summary="A PreToolUse allow overrides neither a deny rule nor an ask rule",
    security="a hook allow that skips an ask or deny rule runs commands the host's settings meant to refuse",
    source=("cc#82451", "report"),
    tier="cli",
    checks=_RULE_CHECKS,
    requires=("option:can_use_tool", "option:hooks", "option:settings", "api:HookMatcher"),
    # the hook's allow lost, the rules decide as they would with no hook: only the unruled call,
    # which only the allow runs unasked, sees it
    pins={
        "hook-allow-runs-unruled": (
            "hook-output:PreToolUseHookSpecificOutput.permissionDecision",
            "value:HookPermissionDecision=allow",
        )
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.can_use_tool",
)
async def ask_rule_beats_hook_allow(h: Harness) -> RuledSeen:
    from sdkprobe.harness import HookMatcher

    asked: list[str] = []
    ids = {kind: f"toolu_{kind}" for kind in _RULED}
    run = await h.cli(
        "touch them",
        script=[*(bash_reply(f"touch {name}", ids[kind]) for kind, name in _RULED.items()), "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=recording_deny(asked),
        hooks={"PreToolUse": [HookMatcher(hooks=[_allow_everything])]},
        settings=json.dumps({"permissions": _RULES}),
    )
    results = tool_results_of(run, list(ids.values()))
    return {
        "calls": {
            kind: {
                "asked": f"touch {name}" in asked,
                "exists": (h.cwd / name).exists(),
                "result": h.observe(results[ids[kind]]),
            }
            for kind, name in _RULED.items()
        },
        "hook_calls": sum(1 for c in run.callbacks if c["kind"] == "hook"),
        "error": run.error_line,
    }


@ask_rule_beats_hook_allow.decide
def _(seen: RuledSeen) -> dict[str, Check]:
    calls = seen["calls"]

    def shown(kind: str) -> str:
        c = calls[kind]
        said = (c["result"] or {}).get("text", "no tool_result")[:80]
        return (
            f"touch {_RULED[kind]} ({kind} rule): can_use_tool {'asked' if c['asked'] else 'not asked'}, "
            f"file {'made' if c['exists'] else 'not made'} ({said!r}); the hook was called {seen['hook_calls']} time(s)"
        )

    ask, deny, unruled = calls["ask"], calls["deny"], calls["unruled"]
    return {
        "ask-rule-reaches-callback": check(ask["asked"] and not ask["exists"], shown("ask")),
        "deny-rule-beats-hook-allow": check(not deny["asked"] and not deny["exists"], shown("deny")),
        "hook-allow-runs-unruled": check(not unruled["asked"] and unruled["exists"], shown("unruled")),
    }


ask_rule_beats_hook_allow.differs_on(
    {  # before CLI 2.1.77: the hook's allow skipped both rules
        "calls": {
            "ask": {"asked": False, "exists": True, "result": {"is_error": False, "text": ""}},
            "deny": {"asked": False, "exists": True, "result": {"is_error": False, "text": ""}},
            "unruled": {"asked": True, "exists": False, "result": {"is_error": True, "text": HOST_DENY}},
        },
        "hook_calls": 3,
        "error": None,
    }
)
ask_rule_beats_hook_allow.differs_on(
    {  # the hook's permissionDecision no longer reaching the CLI: the unruled call goes to can_use_tool too
        "calls": {
            "ask": {"asked": True, "exists": False, "result": {"is_error": True, "text": HOST_DENY}},
            "deny": {"asked": False, "exists": False, "result": {"is_error": True, "text": "denied"}},
            "unruled": {"asked": True, "exists": False, "result": {"is_error": True, "text": HOST_DENY}},
        },
        "hook_calls": 3,
        "error": None,
    }
)


leave_uncovered(
    __name__,
    "value:PermissionUpdateDestination=cliArg",
    "no update a probe answers with names cliArg (the destination of rules the CLI's own flags give); the "
    "four others are pinned by perms.permission-callback-wire-contract",
)
