"""The CLI's workspace: its cwd, its environment, the directories added to it, and the sandbox
around Bash."""

from __future__ import annotations

import json
import os
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Harness,
    project_settings,
    reply,
    result_text,
    tool_use,
)

GIVEN = {"SDKPROBE_GIVEN": "1", "CLAUDE_CODE_ENTRYPOINT": "custom", "CLAUDE_AGENT_SDK_VERSION": "x"}


class EnvSeen(TypedDict):
    host_path_kept: bool
    host_variables_dropped: list[str]
    given_seen: dict[str, str | None]  # each given variable -> what the CLI saw
    sdk_version_overridden: bool


@behaviour(
    id="config.env-option-replaces-process-env",
    claim=(
        "The env option replaces the CLI child's environment instead of adding to it, so a caller "
        "who wants the host's own variables kept has to copy them into env."
    ),
    summary="The env option replaces the CLI's environment rather than adding to it",
    security="what the env option passes on decides which of the host's secrets reach the CLI",
    source=("000", "Tools and permissions"),
    tier="wire",
    checks=("inherited-variables-dropped", "given-variables-reach-cli"),
    requires=("option:env",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
)
async def env_option_replaces_process_env(h: Harness) -> EnvSeen:
    run = await h.wire(env=dict(GIVEN))
    env = run.env
    return {
        # PATH is set in every host; whether the child kept the host's value decides it.
        "host_path_kept": "PATH" in run.parent_env and env.get("PATH") == run.parent_env["PATH"],
        "host_variables_dropped": run.env_removed,
        "given_seen": {k: env.get(k) for k in sorted(GIVEN) if k != "CLAUDE_AGENT_SDK_VERSION"},
        # the SDK's own version variable: whether env could override it (it writes it last)
        "sdk_version_overridden": env.get("CLAUDE_AGENT_SDK_VERSION") == GIVEN["CLAUDE_AGENT_SDK_VERSION"],
    }


@env_option_replaces_process_env.decide
def _(seen: EnvSeen) -> dict[str, Check]:
    given = seen["given_seen"]
    dropped = seen["host_variables_dropped"]
    return {
        "inherited-variables-dropped": check(
            not seen["host_path_kept"],
            "the host's PATH reached the CLI unchanged"
            + (f"; only {dropped} were dropped" if dropped else "; no host variable was dropped"),
        ),
        "given-variables-reach-cli": check(
            given.get("SDKPROBE_GIVEN") == "1",
            f"the CLI saw {given}",
        ),
    }


env_option_replaces_process_env.differs_on(
    {
        "host_path_kept": True,
        "host_variables_dropped": [],
        "given_seen": {"CLAUDE_CODE_ENTRYPOINT": "sdk-py", "SDKPROBE_GIVEN": None},
        "sdk_version_overridden": False,
    }
)


# --- config.cwd-reaches-bash ----------------------------------------------------------

_WHERE = 'pwd; echo "PWD=$PWD"'
CwdRun = TypedDict(
    "CwdRun",
    {
        "cwd given": str,
        "init cwd": str | None,
        "bash printed": list[str],
        "bash ran in cwd": bool,
        "error": str | None,
    },
)
MissingCwd = TypedDict("MissingCwd", {"exception": str | None, "model requests": int, "cli started": bool})


class CwdSeen(TypedDict):
    directory: CwdRun
    symlink: CwdRun
    missing: MissingCwd


@behaviour(
    id="config.cwd-reaches-bash",
    claim=(
        "With cwd=D the Bash tool runs its commands in D, even when the calling process runs "
        "elsewhere (in /, with PWD=/) and when D is reached through a symlink; a cwd that does not "
        "exist raises an exception before anything runs."
    ),
    summary="Bash runs its commands in the cwd option's folder, through a symlink too",
    source=("cc#46985", "report"),
    tier="cli",
    checks=("bash-runs-in-cwd", "bash-runs-in-symlinked-cwd", "missing-cwd-raises"),
    requires=("option:cwd", "option:allowed_tools"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
    timeout=90,
    pins={
        "bash-runs-in-cwd": ("option:cwd",),
        "bash-runs-in-symlinked-cwd": ("option:cwd",),
        "missing-cwd-raises": ("option:cwd",),
    },
)
async def cwd_reaches_bash(h: Harness) -> CwdSeen:
    project = h.workdir("proj")
    link = h.workdir("links") / "proj-link"
    link.symlink_to(project, target_is_directory=True)
    runs: dict[str, CwdRun] = {}
    here = os.getcwd()
    os.chdir("/")  # the caller is not in D: a service, an editor, a non-shell parent
    try:
        for label, cwd in (("directory", project), ("symlink", link)):
            run = await h.cli(
                "where am I?",
                script=[reply(tool_use("Bash", {"command": _WHERE}, id="toolu_where")), "done"],
                cwd=str(cwd),
                allowed_tools=["Bash"],
                env={"PWD": "/"},
            )
            main = run.on(MAIN)
            out = result_text(main[1].tool_result("toolu_where") if len(main) > 1 else None).strip().splitlines()
            pwd = out[0] if out else None
            runs[label] = {
                "cwd given": str(cwd),
                "init cwd": run.init.get("cwd"),
                "bash printed": out[:2],
                "bash ran in cwd": pwd is not None and os.path.realpath(pwd) == os.path.realpath(cwd),
                "error": run.error_line,
            }
        missing = await h.cli("hi", script=["ok"], cwd=str(h.workdir("gone") / "missing"))
    finally:
        os.chdir(here)
    return {
        "directory": runs["directory"],
        "symlink": runs["symlink"],
        "missing": {
            "exception": missing.error_line,
            "model requests": len(missing.requests),
            "cli started": bool(missing.exit_codes),
        },
    }


@cwd_reaches_bash.decide
def _(seen: CwdSeen) -> dict[str, Check]:
    def said(label: Literal["directory", "symlink"]) -> str:
        s = seen[label]
        return f"cwd={s['cwd given']}: Bash printed {s['bash printed']} (init cwd {s['init cwd']}; error {s['error']})"

    missing = seen["missing"]
    return {
        "bash-runs-in-cwd": check(seen["directory"]["bash ran in cwd"], said("directory")),
        "bash-runs-in-symlinked-cwd": check(seen["symlink"]["bash ran in cwd"], said("symlink")),
        "missing-cwd-raises": check(
            missing["exception"] is not None and missing["model requests"] == 0,
            f"a cwd that does not exist raised {missing['exception'] or 'nothing'} "
            f"({missing['model requests']} model request(s); CLI started: {missing['cli started']})",
        ),
    }


cwd_reaches_bash.differs_on(
    {
        "directory": {
            "cwd given": "<SPACE>/proj-1",
            "init cwd": "<SPACE>/proj-1",
            "bash printed": ["/", "PWD=/"],
            "bash ran in cwd": False,
            "error": None,
        },
        "symlink": {
            "cwd given": "<SPACE>/links-1/proj-link",
            "init cwd": "<SPACE>/proj-1",
            "bash printed": ["/", "PWD=/"],
            "bash ran in cwd": False,
            "error": None,
        },
        "missing": {"exception": None, "model requests": 1, "cli started": True},
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
_AdLoaded = Literal["CLAUDE.md in request", "skill listed", "agent listed", "hook fired", "server listed"]
# one session with the added dir
AddDirRun = TypedDict(
    "AddDirRun",
    {
        "env": dict[str, str],
        "read gave the file": bool,
        "read result": str | None,
        "written": bool,
        "write result": str | None,
        "CLAUDE.md in request": bool,
        "skill listed": bool,
        "agent listed": bool,
        "hook fired": bool,
        "server listed": bool,
        "error": str | None,
    },
)


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
        # (not by claude-md-not-loaded-by-default: a directory never added loads no CLAUDE.md either)
        "claude-md-loaded-with-variable": ("option:add_dirs",),
        "skills-loaded": ("option:add_dirs",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=150,
)
async def add_dirs_loading(h: Harness) -> dict[str, AddDirRun]:
    added = _added_dir(h)
    project = h.workdir("proj")
    seen: dict[str, AddDirRun] = {}
    for name, env in _AD_RUNS.items():
        target = added / f"written-{len(seen)}.txt"
        read = tool_use("Read", {"file_path": str(added / "CLAUDE.md")}, id=_AD_READ_ID)
        write = tool_use("Write", {"file_path": str(target), "content": "x\n"}, id=_AD_WRITE_ID)
        (added / "hook-fired").unlink(missing_ok=True)
        run = await h.cli(
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
def _(seen: dict[str, AddDirRun]) -> dict[str, Check]:
    default, env = seen["default"], seen["with the variable"]

    def matrix(run: AddDirRun) -> str:
        keys: tuple[_AdLoaded, ...] = (
            "CLAUDE.md in request",
            "skill listed",
            "agent listed",
            "hook fired",
            "server listed",
        )
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


def _ad_run(env: dict[str, str], written: bool, claude_md: bool, skill: bool) -> AddDirRun:
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


# the write asked about and nothing loaded (add_dirs no longer reaching the CLI); CLAUDE.md loaded without the variable
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
# one sandboxed session
SandboxRun = TypedDict(
    "SandboxRun",
    {
        "sandbox": dict[str, Any],
        "settings": str | None,
        "command ran": bool,
        "model requests": int,
        "tool result": str | None,
        "sandbox mentioned in": list[str],
        "result": str | None,  # the result's subtype
        "is_error": bool | None,
        "error": str | None,
    },
)


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
async def sandbox_unavailable_fallback(h: Harness) -> dict[str, SandboxRun]:
    path = _path_without_sandbox_tools(h)
    seen: dict[str, SandboxRun] = {}
    for name, (sandbox, settings) in _SB_RUNS.items():
        marker = h.cwd / f"{_SB_MARKER}-{len(seen)}"
        touch = tool_use("Bash", {"command": f"touch {marker}"}, id="toolu_sbtouch")
        options: dict[str, Any] = {"settings": settings} if settings else {}
        run = await h.cli(
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
def _(seen: dict[str, SandboxRun]) -> dict[str, Check]:
    enabled = seen["enabled"]

    def said(run: SandboxRun) -> str:
        return (
            f"command ran {run['command ran']}, tool result {run['tool result']!r}, sandbox mentioned in "
            f"{run['sandbox mentioned in']}, result {run['result']} (is_error {run['is_error']}), error {run['error']}"
        )

    def refused(run: SandboxRun) -> Check:
        ok = not run["command ran"] and (run["error"] is not None or bool(run["is_error"]))
        return check(ok, f"sandbox={run['sandbox']}, settings={run['settings']}: {said(run)}")

    return {
        _SB_NOT_RUN: check(not enabled["command ran"], f"sandbox enabled, no bwrap/socat: {said(enabled)}"),
        _SB_VISIBLE: check(bool(enabled["sandbox mentioned in"]), f"sandbox enabled, no bwrap/socat: {said(enabled)}"),
        _SB_REFUSED: refused(seen["failIfUnavailable in settings"]),
        _SB_REFUSED_OPTION: refused(seen["failIfUnavailable in sandbox"]),
    }


def _sb_run(name: str, ran: bool, mentioned: list[str], error: str | None) -> SandboxRun:
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
