"""Area `config`, which model a session talks to (fallback_model, set_model mid-turn), and add_dirs."""

from __future__ import annotations

import json
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import (
    MAIN,
    ByModel,
    CliRun,
    Harness,
    HeldCallback,
    Script,
    http_error,
    project_settings,
    reply,
    result_text,
    tool_use,
)

# --- config.fallback-model-triggers ----------------------------------------------------

_MAIN_MODEL, _FB_MODEL = "m-main", "m-fb"
_FB_ANSWER = "FB-ANSWER"
# Retries bounded but not off: the CLI counts consecutive overloads before it falls back.
_FALLBACK_ENV = {"CLAUDE_CODE_MAX_RETRIES": "3"}
# sub-check -> (status m-main answers, prompt shape); 429 is recorded, not judged (see claim).
_FALLBACK_RUNS: dict[str, tuple[int, str]] = {
    "overloaded-moves-to-fallback-string-prompt": (529, "string"),
    "overloaded-moves-to-fallback-iterable-prompt": (529, "iterable"),
    "server-error-moves-to-fallback": (500, "string"),
    "unavailable-moves-to-fallback": (404, "string"),
}
_RECORDED_RUNS = {"rate-limited": (429, "string")}
_VISIBLE = "fallback-is-visible"
_SAME = "fallback-equal-to-model-refused"


def _models_script(status: int) -> ByModel:
    return ByModel(
        {
            _MAIN_MODEL: Script(fallback=http_error(status, f"scripted {status} for {_MAIN_MODEL}")),
            _FB_MODEL: Script(fallback=reply(_FB_ANSWER)),
        }
    )


def _notices(run: CliRun) -> list[dict[str, Any]]:
    """System messages other than init, each as its subtype and whether it names the fallback model."""
    return [
        {"subtype": getattr(m, "subtype", None), "names fallback": _FB_MODEL in repr(getattr(m, "data", None))}
        for m in run.of_type("SystemMessage")
        if getattr(m, "subtype", None) != "init"
    ]


def _fallback_seen(run: CliRun) -> dict[str, Any]:
    result = run.result
    return {
        "models asked": [r.model for r in run.on(MAIN)],
        "statuses": [r.status for r in run.on(MAIN)],
        "notices": _notices(run),
        "assistant models": sorted({str(getattr(m, "model", None)) for m in run.of_type("AssistantMessage")}),
        "result": getattr(result, "subtype", None),
        "result text": getattr(result, "result", None),
        "error": run.error_line,
    }


@behaviour(
    id="config.fallback-model-triggers",
    claim=(
        "With model='m-main' and fallback_model='m-fb', a turn whose main model is overloaded (529), fails "
        "(500) or is unavailable (404) is answered by m-fb instead, for a string prompt and for an iterable "
        "one, and the session says so with a system message naming the fallback model; a fallback_model "
        "equal to model is refused when the session starts."
    ),
    summary="fallback_model answers when the main model is overloaded, failing or unavailable",
    source=("cc#8413", "report"),
    tier="cli",
    checks=(*_FALLBACK_RUNS, _VISIBLE, _SAME),
    requires=("option:fallback_model", "option:model"),
    pins={"fallback-equal-to-model-refused": ("option:fallback_model", "option:model")},
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=300,
)
async def fallback_model_triggers(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for name, (status, shape) in {**_FALLBACK_RUNS, **_RECORDED_RUNS}.items():
        prompt: Any = "answer me" if shape == "string" else [_user("answer me")]
        run = await h.session(
            prompt,
            script=_models_script(status),
            model=_MAIN_MODEL,
            fallback_model=_FB_MODEL,
            env=_FALLBACK_ENV,
            timeout=90,
        )
        seen[name] = {"m-main answers": status, "prompt": shape, **_fallback_seen(run)}
    same = await h.session(
        "answer me",
        script=ByModel({_MAIN_MODEL: Script(fallback=reply("MAIN-ANSWER"))}),
        model=_MAIN_MODEL,
        fallback_model=_MAIN_MODEL,
        env=_FALLBACK_ENV,
    )
    seen[_SAME] = {"fallback_model": _MAIN_MODEL, **_fallback_seen(same)}
    return seen


def _user(text: str) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None}


def _fell_back(run: dict[str, Any]) -> bool:
    return _FB_MODEL in run["models asked"] and run["result"] == "success" and _FB_ANSWER in str(run["result text"])


def _said(run: dict[str, Any]) -> str:
    return (
        f"models asked {run['models asked']} (statuses {run['statuses']}), result {run['result']} "
        f"{run['result text']!r}, error {run['error']}"
    )


@fallback_model_triggers.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {
        name: check(
            _fell_back(seen[name]),
            f"m-main answered {seen[name]['m-main answers']} to a {seen[name]['prompt']} prompt: {_said(seen[name])}",
        )
        for name in _FALLBACK_RUNS
    }
    first = seen["overloaded-moves-to-fallback-string-prompt"]
    checks[_VISIBLE] = check(
        _fell_back(first) and any(n["names fallback"] for n in first["notices"]),
        f"after the fall back to m-fb the session yielded system messages {first['notices']} "
        f"(assistant models {first['assistant models']})",
    )
    same = seen[_SAME]
    checks[_SAME] = check(
        same["result"] != "success",
        f"fallback_model equal to model: {_said(same)}",
    )
    return checks


def _fallback_run(status: int, shape: str, models: list[str], result: str, text: str) -> dict[str, Any]:
    return {
        "m-main answers": status,
        "prompt": shape,
        "models asked": models,
        "statuses": [status if m == _MAIN_MODEL else 200 for m in models],
        "notices": [],
        "assistant models": [],
        "result": result,
        "result text": text,
        "error": None,
    }


_NO_FALLBACK = {
    name: _fallback_run(status, shape, [_MAIN_MODEL], "error_during_execution", "API Error")
    for name, (status, shape) in _FALLBACK_RUNS.items()
}
_SILENT_FALLBACK = {
    name: _fallback_run(status, shape, [_MAIN_MODEL, _FB_MODEL], "success", _FB_ANSWER)
    for name, (status, shape) in _FALLBACK_RUNS.items()
}
_SAME_ACCEPTED = {"fallback_model": _MAIN_MODEL, **_fallback_run(200, "string", [_MAIN_MODEL], "success", "ok")}
fallback_model_triggers.differs_on({**_NO_FALLBACK, _SAME: _SAME_ACCEPTED})
fallback_model_triggers.differs_on({**_SILENT_FALLBACK, _SAME: _SAME_ACCEPTED})


# --- config.set-model-mid-turn ---------------------------------------------------------

_FIRST_MODEL, _SWITCHED_MODEL = "m-one", "m-two"
_ANSWERS = {_FIRST_MODEL: "ONE-ANSWER", _SWITCHED_MODEL: "TWO-ANSWER"}
_HELD_BASH = "toolu_held_bash"  # the Bash call its PreToolUse hook holds until set_model() returned
_MID_TURN = "next-request-of-turn-names-new-model"
_ACCEPTED = "set-model-returns-accepted"
_RESET = "set-model-none-leaves-new-model"
_SECOND_PROMPT = "and now?"


def _switch_script() -> ByModel:
    return ByModel(
        {
            _FIRST_MODEL: Script(
                main=[reply(tool_use("Bash", {"command": "true"}, id=_HELD_BASH))],
                fallback=reply(_ANSWERS[_FIRST_MODEL]),
            ),
            _SWITCHED_MODEL: Script(fallback=reply(_ANSWERS[_SWITCHED_MODEL])),
        },
        other=Script(fallback=reply("DEFAULT-ANSWER")),
    )


@behaviour(
    id="config.set-model-mid-turn",
    claim=(
        "ClaudeSDKClient.set_model('m-two'), called while a turn of a session started on model 'm-one' "
        "runs a tool, returns once the CLI accepted it, and the model request that follows within that "
        "same turn names 'm-two'; set_model(None) afterwards moves the next turn off 'm-two' to the default."
    ),
    summary="set_model() during a turn takes effect from that turn's next model request",
    source=("ts#212", "report"),
    tier="cli",
    checks=(_MID_TURN, _ACCEPTED, _RESET),
    requires=("api:ClaudeSDKClient.set_model", "option:model", "option:allowed_tools", "option:hooks"),
    pins={
        "next-request-of-turn-names-new-model": ("option:model",),
        "set-model-returns-accepted": ("client:set_model", "option:model"),
        "set-model-none-leaves-new-model": ("client:set_model", "option:model"),
    },
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.set_model",
    timeout=120,
)
async def set_model_mid_turn(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    calls: list[dict[str, Any]] = []
    # The Bash call waits in its PreToolUse hook until set_model() has returned, so the switch
    # lands mid-turn by order, however slow the machine: never a tool that merely takes long.
    bash_held = HeldCallback(hold=1, ceiling=60)

    async def set_model(c: Any, model: str | None) -> None:
        try:
            await c.call("set_model", model)
            calls.append({"model": model, "raised": None})
        except Exception as exc:  # the contract: it returns; what it raised is the observation
            calls.append({"model": model, "raised": type(exc).__name__})

    async def steps(c: Any) -> None:
        await c.send("run the command")
        await bash_held.asked()
        await set_model(c, _SWITCHED_MODEL)
        bash_held.release()
        await c.response()
        await set_model(c, None)
        await c.send(_SECOND_PROMPT)
        await c.response()

    run = await h.converse(
        steps,
        script=_switch_script(),
        model=_FIRST_MODEL,
        allowed_tools=["Bash"],
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[bash_held.hook({})])]},
    )
    results = [m for turn in run.turns for m in turn if type(m).__name__ == "ResultMessage"]
    return {
        "set_model calls": calls,
        "main requests": [
            {
                "model": r.model,
                "turn": 2 if r.carries(_SECOND_PROMPT) else 1,
                "carries the tool result": r.tool_result(_HELD_BASH) is not None,
                "mentions the new model": _SWITCHED_MODEL in r.context_text,
            }
            for r in run.on(MAIN)
        ],
        "turn results": [getattr(m, "result", None) for m in results],
        "error": run.error_line,
    }


def _of_turn(seen: dict[str, Any], turn: int) -> list[dict[str, Any]]:
    return [r for r in seen["main requests"] if r["turn"] == turn]


@set_model_mid_turn.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    after = [r for r in _of_turn(seen, 1) if r["carries the tool result"]]
    first_after = after[0] if after else None
    calls = seen["set_model calls"]
    requests = seen["main requests"]
    last_turn = next(iter(_of_turn(seen, 2)), None)
    return {
        _MID_TURN: check(
            first_after is not None and first_after["model"] == _SWITCHED_MODEL,
            f"set_model({_SWITCHED_MODEL!r}) during the Bash call; the request after it named "
            f"{first_after['model'] if first_after else 'nothing (none came)'} (requests {requests}, "
            f"turn results {seen['turn results']})",
        ),
        _ACCEPTED: check(
            len(calls) == 2 and all(c["raised"] is None for c in calls),
            f"set_model calls {calls} (error {seen['error']})",
        ),
        _RESET: check(  # the default is the CLI's own model: neither the one set nor the session's first
            last_turn is not None and last_turn["model"] not in (_SWITCHED_MODEL, _FIRST_MODEL),
            f"after set_model(None) the next turn's request named {last_turn['model'] if last_turn else 'nothing'}",
        ),
    }


def _switch_seen(models: list[str], calls: list[str | None] | None = None) -> dict[str, Any]:
    return {
        "set_model calls": [{"model": m, "raised": None} for m in (calls or [_SWITCHED_MODEL, None])],
        "main requests": [
            {"model": m, "turn": 2 if i == 2 else 1, "carries the tool result": i > 0, "mentions the new model": False}
            for i, m in enumerate(models)
        ],
        "turn results": ["ONE-ANSWER", "TWO-ANSWER"],
        "error": None,
    }


# the switch waits for the turn's end; set_model(None) ignored, and the call raising
set_model_mid_turn.differs_on(_switch_seen([_FIRST_MODEL, _FIRST_MODEL, _SWITCHED_MODEL]))
# set_model(None) reverting to the session's first model, not to the default
set_model_mid_turn.differs_on(_switch_seen([_FIRST_MODEL, _SWITCHED_MODEL, _FIRST_MODEL]))
set_model_mid_turn.differs_on(
    {
        **_switch_seen([_FIRST_MODEL, _SWITCHED_MODEL, _SWITCHED_MODEL]),
        "set_model calls": [{"model": _SWITCHED_MODEL, "raised": "CLIConnectionError"}],
    }
)


# --- config.add-dirs-loading -----------------------------------------------------------

_AD_MARK = "AD-MARK-7731"
_AD_SKILL, _AD_AGENT, _AD_SERVER = "adskill", "adagent", "adserver"
_AD_ENV = "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD"
_AD_RUNS = {"default": {}, "with the variable": {_AD_ENV: "1"}}
_AD_READ_ID, _AD_WRITE_ID = "toolu_adread", "toolu_adwrite"
_AD_READ = "read-in-added-dir-not-asked"
_AD_WRITE = "write-in-added-dir-accepted"
_AD_MD_DEFAULT = "claude-md-not-loaded-by-default"
_AD_MD_ENV = "claude-md-loaded-with-variable"
_AD_SKILLS = "skills-loaded"


def _added_dir(h: Harness) -> Any:
    """An extra directory holding each kind of thing the CLI could load from it."""
    added = h.workdir("added")
    (added / "CLAUDE.md").write_text(f"Project memory: {_AD_MARK}\n", encoding="utf-8")
    _described(added / ".claude" / "skills" / _AD_SKILL / "SKILL.md", _AD_SKILL)
    _described(added / ".claude" / "agents" / f"{_AD_AGENT}.md", _AD_AGENT)
    hook = {"type": "command", "command": f"touch {added / 'hook-fired'}"}
    project_settings(added, {"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}})
    server = {"command": "python3", "args": ["-c", "pass"]}
    (added / ".mcp.json").write_text(json.dumps({"mcpServers": {_AD_SERVER: server}}), encoding="utf-8")
    return added


def _described(path: Any, name: str) -> None:
    """A skill's or agent's markdown file: front matter naming it, and a line of body."""
    path.parent.mkdir(parents=True)
    path.write_text(f"---\nname: {name}\ndescription: from the added dir\n---\n\nHelp.\n", encoding="utf-8")


@behaviour(
    id="config.add-dirs-loading",
    claim=(
        "add_dirs makes those directories working directories for the tools: a Read there is not asked "
        "about, and in acceptEdits mode a Write there is accepted as one in cwd would be. Of what the "
        "directory holds, its skills are loaded, its CLAUDE.md only with "
        "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD set, as Claude Code documents; whether its agents, "
        "settings hooks and .mcp.json load is recorded."
    ),
    summary="add_dirs grants access; what the CLI loads from an added directory is as documented",
    source=("ts#406", "report"),
    tier="cli",
    checks=(_AD_READ, _AD_WRITE, _AD_MD_DEFAULT, _AD_MD_ENV, _AD_SKILLS),
    requires=("option:add_dirs", "option:setting_sources", "option:permission_mode"),
    pins={
        "read-in-added-dir-not-asked": ("option:add_dirs",),
        "write-in-added-dir-accepted": ("option:add_dirs",),
        "claude-md-not-loaded-by-default": ("option:add_dirs",),
        "claude-md-loaded-with-variable": ("option:add_dirs",),
        "skills-loaded": ("option:add_dirs",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=150,
)
async def add_dirs_loading(h: Harness) -> dict[str, Any]:
    added = _added_dir(h)
    project = h.workdir("proj")
    seen: dict[str, Any] = {}
    for name, env in _AD_RUNS.items():
        target = added / f"written-{len(seen)}.txt"
        read = tool_use("Read", {"file_path": str(added / "CLAUDE.md")}, id=_AD_READ_ID)
        write = tool_use("Write", {"file_path": str(target), "content": "x\n"}, id=_AD_WRITE_ID)
        (added / "hook-fired").unlink(missing_ok=True)
        run = await h.session(
            "write the file",
            script=[reply(read), reply(write), "done"],
            cwd=str(project),
            add_dirs=[str(added)],
            setting_sources=["project"],
            permission_mode="acceptEdits",
            env=env,
        )
        main = run.on(MAIN)
        first = main[0] if main else None
        last = main[-1] if len(main) > 1 else None
        read_result = last.tool_result(_AD_READ_ID) if last else None
        result = last.tool_result(_AD_WRITE_ID) if last else None
        seen[name] = {
            "env": env,
            "read gave the file": _AD_MARK in result_text(read_result),
            "read result": result_text(read_result)[:80] if read_result else None,
            "written": target.exists(),
            "write result": result_text(result)[:80] if result else None,
            "CLAUDE.md in request": bool(first and _AD_MARK in first.context_text),
            "skill listed": _AD_SKILL in (run.init.get("skills") or [])
            or bool(first and _AD_SKILL in first.context_text),
            "agent listed": _AD_AGENT in (run.init.get("agents") or []),
            "hook fired": (added / "hook-fired").exists(),
            "server listed": any(
                isinstance(s, dict) and s.get("name") == _AD_SERVER for s in run.init.get("mcp_servers") or []
            ),
            "error": run.error_line,
        }
    return seen


@add_dirs_loading.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    default, env = seen["default"], seen["with the variable"]

    def matrix(run: dict[str, Any]) -> str:
        keys = ("CLAUDE.md in request", "skill listed", "agent listed", "hook fired", "server listed")
        return ", ".join(f"{k} {run[k]}" for k in keys)

    return {
        _AD_READ: check(
            default["read gave the file"] and env["read gave the file"],
            f"Read of the added dir's CLAUDE.md gave it: {default['read gave the file']} / "
            f"{env['read gave the file']} (tool results {default['read result']!r} / {env['read result']!r})",
        ),
        _AD_WRITE: check(
            default["written"] and env["written"],
            f"Write into the added dir: written {default['written']} / {env['written']} "
            f"(tool results {default['write result']!r} / {env['write result']!r})",
        ),
        _AD_MD_DEFAULT: check(not default["CLAUDE.md in request"], f"without {_AD_ENV}: {matrix(default)}"),
        _AD_MD_ENV: check(env["CLAUDE.md in request"], f"with {_AD_ENV}=1: {matrix(env)}"),
        _AD_SKILLS: check(
            default["skill listed"] and env["skill listed"],
            f"skill listed {default['skill listed']} / {env['skill listed']} (without / with the variable)",
        ),
    }


def _ad_run(env: dict[str, str], written: bool, claude_md: bool, skill: bool) -> dict[str, Any]:
    return {
        "env": env,
        "read gave the file": written,
        "read result": None if written else "Claude requested permissions to read from this file",
        "written": written,
        "write result": None if written else "Claude requested permissions to write to this file",
        "CLAUDE.md in request": claude_md,
        "skill listed": skill,
        "agent listed": False,
        "hook fired": False,
        "server listed": False,
        "error": None,
    }


# the write asked about and nothing loaded; CLAUDE.md loaded without the variable
add_dirs_loading.differs_on(
    {"default": _ad_run({}, False, False, False), "with the variable": _ad_run({_AD_ENV: "1"}, False, False, False)}
)
add_dirs_loading.differs_on(
    {"default": _ad_run({}, True, True, True), "with the variable": _ad_run({_AD_ENV: "1"}, True, True, True)}
)


# --- config.sandbox-unavailable-fallback -----------------------------------------------

# What the Bash tool needs, linked into a PATH of the probe's own: never bwrap or socat, so
# the sandbox cannot start whatever the host has installed.
_SHELL_TOOLS = (
    *("sh", "bash", "touch", "cat", "ls", "env", "mkdir", "rm", "echo", "pwd", "uname", "which", "git", "id"),
    *("grep", "sed", "head", "tail", "tr", "cut", "dirname", "basename", "sort", "wc", "stty", "tty"),
)
_SB_MARKER = "made-m"
# run -> (sandbox option, settings option): the second as the reports did it (settings beside
# sandbox=), the third with the key inside sandbox= itself (SandboxSettings does not type it)
_SB_RUNS: dict[str, tuple[dict[str, Any], str | None]] = {
    "enabled": ({"enabled": True}, None),
    "failIfUnavailable in settings": ({"enabled": True}, json.dumps({"sandbox": {"failIfUnavailable": True}})),
    "failIfUnavailable in sandbox": ({"enabled": True, "failIfUnavailable": True}, None),
}
_SB_NOT_RUN = "unavailable-sandbox-runs-no-command"
_SB_VISIBLE = "unavailable-sandbox-is-visible"
_SB_REFUSED = "fail-if-unavailable-in-settings-refuses"
_SB_REFUSED_OPTION = "fail-if-unavailable-in-sandbox-option-refuses"


def _path_without_sandbox_tools(h: Harness) -> str:
    import shutil

    bindir = h.workdir("bin")
    for name in _SHELL_TOOLS:
        found = shutil.which(name)
        if found:
            (bindir / name).symlink_to(found)
    return str(bindir)


def _mentions_sandbox(run: CliRun) -> list[str]:
    """What the host could read about the sandbox: messages and init keys naming it,
    stderr lines, the error (each cut short)."""
    said = [
        f"{type(m).__name__}: {repr(m)[:120]}"
        for m in run.messages
        if "sandbox" in repr(m).lower() and type(m).__name__ != "SystemMessage"
    ]
    said += [f"init.{k}: {str(v)[:120]}" for k, v in sorted(run.init.items()) if "sandbox" in f"{k}{v}".lower()]
    said += [f"stderr: {line[:120]}" for line in run.stderr if "sandbox" in line.lower()][:3]
    if run.error and "sandbox" in run.error.lower():
        said.append(f"error: {run.error_line}")
    return said


@behaviour(
    id="config.sandbox-unavailable-fallback",
    claim=(
        "When sandbox={'enabled': True} cannot be honoured (no bubblewrap or socat on the PATH the CLI "
        "runs with), a Bash command is not run unsandboxed and the host is told the sandbox is off; with "
        "sandbox.failIfUnavailable set in settings the session refuses to run instead."
    ),
    summary="An unavailable sandbox stops Bash (visibly) instead of running it unsandboxed",
    security="shell commands running with no sandbox while the host asked for one and was never told",
    source=("cc#34044", "report"),
    tier="cli",
    checks=(_SB_NOT_RUN, _SB_VISIBLE, _SB_REFUSED, _SB_REFUSED_OPTION),
    requires=("option:sandbox", "option:settings", "option:allowed_tools", "option:env"),
    pins={
        "unavailable-sandbox-runs-no-command": ("option:sandbox",),
        "unavailable-sandbox-is-visible": ("option:sandbox",),
        "fail-if-unavailable-in-settings-refuses": ("option:settings",),
        "fail-if-unavailable-in-sandbox-option-refuses": ("option:sandbox",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_settings_value",
    timeout=150,
)
async def sandbox_unavailable_fallback(h: Harness) -> dict[str, Any]:
    path = _path_without_sandbox_tools(h)
    seen: dict[str, Any] = {}
    for name, (sandbox, settings) in _SB_RUNS.items():
        marker = h.cwd / f"{_SB_MARKER}-{len(seen)}"
        touch = tool_use("Bash", {"command": f"touch {marker}"}, id="toolu_sbtouch")
        options: dict[str, Any] = {"settings": settings} if settings else {}
        run = await h.session(
            "touch it",
            script=[reply(touch), "done"],
            sandbox=sandbox,
            allowed_tools=["Bash"],
            env={"PATH": path},
            **options,
        )
        main = run.on(MAIN)
        result = main[1].tool_result("toolu_sbtouch") if len(main) > 1 else None
        last = run.result
        seen[name] = {
            "sandbox": sandbox,
            "settings": settings,
            "command ran": marker.exists(),
            "model requests": len(main),
            "tool result": result_text(result)[:100] if result else None,
            "sandbox mentioned in": h.observe(_mentions_sandbox(run)),
            "result": getattr(last, "subtype", None),
            "is_error": getattr(last, "is_error", None),
            "error": run.error_line,
        }
    return seen


@sandbox_unavailable_fallback.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    enabled = seen["enabled"]

    def said(run: dict[str, Any]) -> str:
        return (
            f"command ran {run['command ran']}, tool result {run['tool result']!r}, sandbox mentioned in "
            f"{run['sandbox mentioned in']}, result {run['result']} (is_error {run['is_error']}), error {run['error']}"
        )

    def refused(run: dict[str, Any]) -> Check:
        ok = not run["command ran"] and (run["error"] is not None or bool(run["is_error"]))
        return check(ok, f"sandbox={run['sandbox']}, settings={run['settings']}: {said(run)}")

    return {
        _SB_NOT_RUN: check(not enabled["command ran"], f"sandbox enabled, no bwrap/socat: {said(enabled)}"),
        _SB_VISIBLE: check(bool(enabled["sandbox mentioned in"]), f"sandbox enabled, no bwrap/socat: {said(enabled)}"),
        _SB_REFUSED: refused(seen["failIfUnavailable in settings"]),
        _SB_REFUSED_OPTION: refused(seen["failIfUnavailable in sandbox"]),
    }


def _sb_run(name: str, ran: bool, mentioned: list[str], error: str | None) -> dict[str, Any]:
    sandbox, settings = _SB_RUNS[name]
    return {
        "sandbox": sandbox,
        "settings": settings,
        "command ran": ran,
        "model requests": 2,
        "tool result": "",
        "sandbox mentioned in": mentioned,
        "result": "success",
        "is_error": False,
        "error": error,
    }


# cc#12515 / soleur#2634: the command runs unsandboxed, nothing said, and failIfUnavailable ignored
sandbox_unavailable_fallback.differs_on({name: _sb_run(name, True, [], None) for name in _SB_RUNS})
