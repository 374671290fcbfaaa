"""Area `perms`, reported by users (CATALOGUE-4 Part B, B2): what permission modes and rules
let run without asking the host, when a hook or the settings have a say too."""

from __future__ import annotations

import json
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Conversation,
    Harness,
    allow_every_tool,
    project_settings,
    reply,
    result_text,
    tool_use,
)

_HOST_DENY = "REFUSED-BY-HOST"


def _recording_deny(asked: list[str]) -> Any:
    """A can_use_tool that records each Bash command (or tool name) it is asked about and refuses it."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from claude_agent_sdk import PermissionResultDeny

        asked.append(str(tool_input.get("command", name)))
        return PermissionResultDeny(message=_HOST_DENY)

    return callback


def _bash(command: str, tool_use_id: str) -> Any:
    return reply(tool_use("Bash", {"command": command, "description": "probe step"}, id=tool_use_id))


def _results(run: CliRun, ids: list[str]) -> dict[str, Any]:
    """Each tool_use id's tool_result in the last main request: is_error and the start of its text."""
    main = run.on(MAIN)
    last = main[-1] if main else None
    seen: dict[str, Any] = {}
    for tid in ids:
        block = last.tool_result(tid) if last else None
        seen[tid] = (
            None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)[:160]}
        )
    return seen


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
    pins={
        "cwd-filesystem-commands-asked": ("option:permission_mode", "option:can_use_tool"),
        "prefixed-and-wrapped-commands-asked": ("option:permission_mode", "option:can_use_tool"),
        "outside-cwd-command-asked": ("option:permission_mode", "option:can_use_tool"),
        "other-command-asked": ("option:permission_mode", "option:can_use_tool"),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def accept_edits_fs_bash(h: Harness) -> dict[str, Any]:
    _scratch_tree(h)
    outside = h.workdir("outside")
    asked: list[str] = []
    ids = {step: f"toolu_{n}" for n, step in enumerate(_FS_STEPS, 1)}
    script = [_bash(command.format(outside=outside), ids[step]) for step, (command, _) in _FS_STEPS.items()]
    run = await h.session(
        "tidy the files",
        script=[*script, "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=_recording_deny(asked),
        permission_mode="acceptEdits",
    )
    results = _results(run, list(ids.values()))
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
    mode = seen["init_permission_mode"]
    if mode != "acceptEdits":  # permission_mode did not reach the CLI: the claim's mode never applied
        why = check(False, f"the CLI did not start in acceptEdits (init permissionMode {mode!r}; {seen['error']!r})")
        return dict.fromkeys(_FS_CHECKS.values(), why)
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
    return decided


_REPORTED_RUN = {  # cc#45474 and cc#60693: the filesystem set inside the cwd ran unasked, prefixed too
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


# --- perms.ask-rule-beats-hook-allow --------------------------------------------------------

_RULED = {"ask": "a1", "deny": "d1", "unruled": "o1"}
_RULES = {"ask": ["Bash(touch a*)"], "deny": ["Bash(touch d*)"]}
_RULE_CHECKS = ("ask-rule-reaches-callback", "deny-rule-beats-hook-allow", "hook-allow-runs-unruled")


async def _allow_everything(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}


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
    pins={
        "ask-rule-reaches-callback": ("hook-output:PreToolUseHookSpecificOutput.permissionDecision",),
        "deny-rule-beats-hook-allow": ("hook-output:PreToolUseHookSpecificOutput.permissionDecision",),
        "hook-allow-runs-unruled": ("hook-output:PreToolUseHookSpecificOutput.permissionDecision",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.can_use_tool",
)
async def ask_rule_beats_hook_allow(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    asked: list[str] = []
    ids = {kind: f"toolu_{kind}" for kind in _RULED}
    run = await h.session(
        "touch them",
        script=[*(_bash(f"touch {name}", ids[kind]) for kind, name in _RULED.items()), "done"],
        client=True,  # streaming mode: old SDKs refuse can_use_tool with a string prompt to query()
        can_use_tool=_recording_deny(asked),
        hooks={"PreToolUse": [HookMatcher(hooks=[_allow_everything])]},
        settings=json.dumps({"permissions": _RULES}),
    )
    results = _results(run, list(ids.values()))
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
            "unruled": {"asked": True, "exists": False, "result": {"is_error": True, "text": _HOST_DENY}},
        },
        "hook_calls": 3,
        "error": None,
    }
)


def _write(h: Harness, name: str) -> Any:
    return reply(
        tool_use("Write", {"file_path": str(h.cwd / name), "content": "x\n"}, id=f"toolu_write_{name.split('.')[0]}")
    )


def _wrote(h: Harness, run: CliRun, name: str) -> dict[str, Any]:
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
    pins={
        "no-flag-when-unset": ("option:permission_mode", "option:setting_sources"),
        "settings-accept-edits-honored": ("option:permission_mode", "option:setting_sources"),
        "settings-dont-ask-honored": ("option:permission_mode", "option:setting_sources"),
        "explicit-option-wins": ("option:permission_mode", "option:setting_sources"),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.permission_mode",
)
async def settings_default_mode_honored(h: Harness) -> dict[str, Any]:
    unset = (await h.wire()).argv
    explicit = (await h.wire(permission_mode="default")).argv

    def flags(argv: list[str]) -> list[str]:  # the flag once per time it was sent, `--x v` or `--x=v`
        return ["--permission-mode" for t in argv if t == "--permission-mode" or t.startswith("--permission-mode=")]

    seen: dict[str, Any] = {
        "argv": {"unset": flags(unset), "default": flags(explicit)},
        "runs": {},
    }
    for label, (mode, option, name) in _MODE_RUNS.items():
        project_settings(h.cwd, {"permissions": {"defaultMode": mode}})
        options: dict[str, Any] = {} if option is None else {"permission_mode": option}
        run = await h.session(
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
    {  # the settings won over an explicit option
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
    pins={
        "default-turn-asks": ("client:set_permission_mode",),
        "accept-edits-turn-not-asked": ("client:set_permission_mode",),
        "plan-turn-not-run": ("client:set_permission_mode",),
        "returns-none": ("client:set_permission_mode",),
    },
    sdk_ref="claude_agent_sdk.ClaudeSDKClient.set_permission_mode",
)
async def set_permission_mode_live(h: Harness) -> dict[str, Any]:
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
