"""setting_sources: which settings, memory, skills and connectors each choice loads, and what loads
whatever it says."""

from __future__ import annotations

import json
from typing import Any, Final, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, leave_uncovered, needs_live, undecidable
from sdkprobe.catalogue.config.support import (
    CONNECTOR_RUNS,
    Connectors,
    connector_sessions,
    given_unaffected,
    reached,
    where_marker_reached,
)
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Harness,
    McpTool,
    Recorded,
    auto_memory,
    claude_md,
    global_config,
    project_settings,
    reply,
    result_text,
    stdio_mcp_server,
    tool_use,
    user_settings,
    user_skill,
)

_LANGUAGE = "Nederlands"
_AGENT_RULE = "Always answer in English."
_LANGUAGE_RUNS: dict[str, list[str] | None] = {
    "setting_sources=None": None,
    "setting_sources=[]": [],
    "setting_sources=['project']": ["project"],
}
# where each rule reached the model (where_marker_reached)
LanguageRun = TypedDict("LanguageRun", {"language rule": str | None, "agent's rule": str | None})


@behaviour(
    id="config.default-setting-sources-load-user-language",
    claim=(
        "With setting_sources left unset every settings source is read, the user's own included, so a "
        "`language` in the user's settings.json becomes a rule about the answer language in the system "
        "prompt, one that wins over the agent's own instruction; with no user source it is not there."
    ),
    summary="Unset setting_sources reads the user's settings, whose language rule then wins",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("user-language-loaded-by-default", "no-language-rule-without-user-source", "rule-outranks-agent-prompt"),
    cannot_decide=("rule-outranks-agent-prompt",),
    requires=("option:setting_sources", "option:system_prompt"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=120,
)
async def default_setting_sources_load_user_language(h: Harness) -> dict[str, LanguageRun]:
    user_settings(h.config_dir, {"language": _LANGUAGE})
    preset = {"type": "preset", "preset": "claude_code", "append": _AGENT_RULE}
    seen: dict[str, LanguageRun] = {}
    for label, sources in _LANGUAGE_RUNS.items():
        first = (await h.cli("hi", system_prompt=preset, setting_sources=sources)).first(MAIN)
        seen[label] = {
            "language rule": where_marker_reached(first, _LANGUAGE),
            "agent's rule": where_marker_reached(first, _AGENT_RULE),
        }
    return seen


@default_setting_sources_load_user_language.decide
def _(seen: dict[str, LanguageRun]) -> dict[str, Check]:
    default = seen["setting_sources=None"]
    without_user = {label: seen[label]["language rule"] for label in _LANGUAGE_RUNS if label != "setting_sources=None"}
    return {
        "user-language-loaded-by-default": check(
            reached(default["language rule"]),
            f"with setting_sources=None the user's language ({_LANGUAGE}) was nowhere in the request: {default}",
        ),
        "no-language-rule-without-user-source": check(
            all(where is None for where in without_user.values()),
            f"where the user's language was without the user source: {without_user}",
        ),
        "rule-outranks-agent-prompt": needs_live(
            "which instruction a model follows when the language rule and the agent's prompt disagree is its choice"
        ),
    }


default_setting_sources_load_user_language.differs_on(
    {
        "setting_sources=None": {"language rule": None, "agent's rule": "system"},
        "setting_sources=[]": {"language rule": None, "agent's rule": "system"},
        "setting_sources=['project']": {"language rule": "system", "agent's rule": "system"},
    }
)


_MEMORY = "PERSIMMON-4410"
_MEMORY_RUNS: dict[str, dict[str, Any]] = {
    "setting_sources=[]": {"setting_sources": []},
    "setting_sources=[], autoMemoryEnabled=false": {
        "setting_sources": [],
        "settings": json.dumps({"autoMemoryEnabled": False}),
    },
}


class MemoryRun(TypedDict):
    memory: str | None  # where the memory's code word reached the model (where_marker_reached)


@behaviour(
    id="config.auto-memory-ignores-setting-sources",
    claim=(
        "The auto-memory of the project (MEMORY.md under the config dir's projects folder) reaches the model "
        "whatever setting_sources says, an empty list included; only the setting autoMemoryEnabled=false "
        "keeps it out."
    ),
    summary="Auto-memory reaches the model whatever setting_sources says; a setting keeps it out",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("memory-loaded-with-no-sources", "auto-memory-disabled-keeps-it-out"),
    requires=("option:setting_sources", "option:settings"),
    timeout=120,
)
async def auto_memory_ignores_setting_sources(h: Harness) -> dict[str, MemoryRun]:
    auto_memory(h.config_dir, h.cwd, f"- The probe's code word is {_MEMORY}.\n")
    seen: dict[str, MemoryRun] = {}
    for label, options in _MEMORY_RUNS.items():
        seen[label] = {"memory": where_marker_reached((await h.cli("hi", **options)).first(MAIN), _MEMORY)}
    return seen


@auto_memory_ignores_setting_sources.decide
def _(seen: dict[str, MemoryRun]) -> dict[str, Check]:
    loaded, disabled = (seen[label]["memory"] for label in _MEMORY_RUNS)
    return {
        "memory-loaded-with-no-sources": check(
            reached(loaded), f"with setting_sources=[] the memory's code word reached the model: {loaded}"
        ),
        "auto-memory-disabled-keeps-it-out": check(
            disabled is None, f"with autoMemoryEnabled=false the memory's code word was still in the {disabled}"
        ),
    }


auto_memory_ignores_setting_sources.differs_on(
    {"setting_sources=[]": {"memory": None}, "setting_sources=[], autoMemoryEnabled=false": {"memory": "messages"}}
)
_NO_LOGIN = "claude.ai connectors come with a claude.ai login; this session authenticated with {source}"


@behaviour(
    id="config.claudeai-connectors-ignore-setting-sources",
    claim=(
        "The claude.ai connectors of the logged-in account are loaded even with setting_sources=[]; the "
        "setting disableClaudeAiConnectors=true keeps them out, and servers given in mcp_servers work "
        "either way."
    ),
    summary="claude.ai connectors load even with setting_sources=[]; a setting keeps them out",
    source=("000", "Configuration and context"),
    # The catalogue: connectors come with a claude.ai login, which no offline session has; what an
    # API-key session shows offline is config.no-claudeai-connectors-under-api-key. Run live with a key,
    # the session still authenticates with that key, so the connector sub-checks stay needs-live
    # unless the CLI reports a claude.ai login.
    tier="live",
    checks=("connectors-load-with-no-sources", "setting-keeps-connectors-out", "given-servers-unaffected"),
    controls=("given-servers-unaffected",),  # the probe's own server: shows the sessions worked, not the claim
    requires=("option:setting_sources", "option:settings", "option:mcp_servers", "api:create_sdk_mcp_server"),
    timeout=240,
)
async def claudeai_connectors_ignore_setting_sources(h: Harness) -> dict[str, Connectors]:
    return await connector_sessions(h)


@claudeai_connectors_ignore_setting_sources.decide
def _(seen: dict[str, Connectors]) -> dict[str, Check]:
    loaded, disabled = (seen[label] for label in CONNECTOR_RUNS)
    had = bool(loaded["claude.ai servers"] or loaded["claude.ai tools"])
    logged_in = loaded["auth"] == "none"  # a claude.ai login, not an API key
    return {
        "connectors-load-with-no-sources": (
            check(had, f"logged in, setting_sources=[] loaded no claude.ai connector: {loaded}")
            if had or logged_in
            else needs_live(_NO_LOGIN.format(source=loaded["auth"]))
        ),
        "setting-keeps-connectors-out": (
            check(
                not (disabled["claude.ai servers"] or disabled["claude.ai tools"]),
                f"with disableClaudeAiConnectors=true: servers {disabled['claude.ai servers']}, "
                f"{disabled['claude.ai tools']} connector tools",
            )
            if had
            else needs_live(_NO_LOGIN.format(source=loaded["auth"]))
        ),
        "given-servers-unaffected": given_unaffected(seen),
    }


claudeai_connectors_ignore_setting_sources.differs_on(
    {
        "setting_sources=[]": {
            "auth": "none",
            "claude.ai servers": [],
            "claude.ai tools": 0,
            "given server": "connected",
            "given tool offered": True,
        },
        "setting_sources=[], disableClaudeAiConnectors=true": {
            "auth": "none",
            "claude.ai servers": [],
            "claude.ai tools": 0,
            "given server": "failed",
            "given tool offered": False,
        },
    }
)
claudeai_connectors_ignore_setting_sources.differs_on(
    {
        "setting_sources=[]": {
            "auth": "none",
            "claude.ai servers": ["claude.ai Gmail"],
            "claude.ai tools": 8,
            "given server": "connected",
            "given tool offered": True,
        },
        "setting_sources=[], disableClaudeAiConnectors=true": {
            "auth": "none",
            "claude.ai servers": ["claude.ai Gmail"],
            "claude.ai tools": 8,
            "given server": "connected",
            "given tool offered": True,
        },
    }
)


_SKILL_LISTING = "skills are available for use with the Skill tool"
_UNFILTERED: Final = "setting_sources=[], skills unset"
_FILTERED: Final = "setting_sources=[], skills=[one bundled skill]"
_NONE_KEPT: Final = "setting_sources=[], skills=[]"
Unfiltered = TypedDict("Unfiltered", {"init skills": int, "listed": int, "dataviz listed": bool})
Filtered = TypedDict("Filtered", {"filtered for": str, "init skills": int, "listed": list[str]})
NoneKept = TypedDict("NoneKept", {"init skills": int, "listed": list[str], "request sent": bool})
SkillsSeen = TypedDict(
    "SkillsSeen",
    {
        "setting_sources=[], skills unset": Unfiltered,
        "setting_sources=[], skills=[one bundled skill]": Filtered,
        "setting_sources=[], skills=[]": NoneKept,
    },
)


def _skill_listing(request: Recorded | None) -> list[str]:
    """The skill names the model was shown (the `- name: description` lines after the listing's heading)."""
    if request is None:
        return []
    texts = [*request.texts(), request.system_text, *(str(t.get("description", "")) for t in request.tools)]
    for text in texts:
        at = text.find(_SKILL_LISTING)
        if at < 0:
            continue
        names: list[str] = []
        for line in text[at:].splitlines()[1:]:
            if line.startswith("- ") and ":" in line:
                names.append(line[2:].split(":", 1)[0].strip())
            elif not line.strip() and names:  # a description may run over several lines; a blank one ends it
                break
        return sorted(names)
    return []


@behaviour(
    id="config.bundled-skills-need-skills-filter",
    claim=(
        "About twenty skills ship with the CLI itself (dataviz, code-review, loop, ...) and are listed to the "
        "model even with setting_sources=[]; only the skills option keeps them out of the context."
    ),
    summary="The CLI's bundled skills are listed even with setting_sources=[]; skills filters them",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("bundled-skills-without-sources", "skills-option-filters-them", "empty-skills-list-keeps-all-out"),
    requires=("option:setting_sources", "option:skills"),
    sdk_ref="claude_agent_sdk._internal.query.Query.initialize",
    timeout=120,
    pins={
        "bundled-skills-without-sources": ("option:skills",),
        "skills-option-filters-them": ("option:skills",),
        "empty-skills-list-keeps-all-out": ("option:skills",),
    },
)
async def bundled_skills_need_skills_filter(h: Harness) -> SkillsSeen:
    unfiltered = await h.cli("hi", setting_sources=[])
    listed = _skill_listing(unfiltered.first(MAIN))
    # filter for dataviz, the catalogue's example, where this CLI bundles it; else for a skill it does list
    pick = "dataviz" if "dataviz" in listed or not listed else listed[0]
    filtered = await h.cli("hi", setting_sources=[], skills=[pick])
    none_kept = await h.cli("hi", setting_sources=[], skills=[])
    # the bundled set moves with every CLI release: keep its size, not its names
    return {
        _UNFILTERED: {
            "init skills": len(unfiltered.init.get("skills") or []),
            "listed": len(listed),
            "dataviz listed": "dataviz" in listed,
        },
        _FILTERED: {
            "filtered for": pick,
            "init skills": len(filtered.init.get("skills") or []),
            "listed": _skill_listing(filtered.first(MAIN)),
        },
        _NONE_KEPT: {
            "init skills": len(none_kept.init.get("skills") or []),
            "listed": _skill_listing(none_kept.first(MAIN)),
            "request sent": none_kept.first(MAIN) is not None,
        },
    }


@bundled_skills_need_skills_filter.decide
def _(seen: SkillsSeen) -> dict[str, Check]:
    unfiltered, filtered, none_kept = seen[_UNFILTERED], seen[_FILTERED], seen[_NONE_KEPT]
    return {
        "bundled-skills-without-sources": check(
            unfiltered["listed"] > 1, f"with setting_sources=[] and no skills option: {unfiltered}"
        ),
        "skills-option-filters-them": check(
            filtered["listed"] == [filtered["filtered for"]],
            f"with skills=[{filtered['filtered for']!r}] the model was shown {filtered['listed']}",
        ),
        # an empty listing means nothing when the session sent the model no request at all
        "empty-skills-list-keeps-all-out": check(
            none_kept["request sent"] and not none_kept["listed"],
            f"with skills=[]: {none_kept}",
        ),
    }


bundled_skills_need_skills_filter.differs_on(
    {
        _UNFILTERED: {"init skills": 0, "listed": 0, "dataviz listed": False},
        _FILTERED: {"filtered for": "dataviz", "init skills": 16, "listed": ["dataviz", "loop", "simplify"]},
        _NONE_KEPT: {"init skills": 16, "listed": ["dataviz", "loop"], "request sent": True},
    }
)


# --- config.project-source-excludes-user-claude-md ------------------------------------

_USERMD_HOME, _USERMD_CFG, _PROJMD = "USERMD-HOME-4417", "USERMD-CFG-4417", "PROJMD-4417"


def _markers_sent(run: CliRun, markers: tuple[str, ...]) -> dict[str, bool]:
    """Which markers appear anywhere in any request the CLI made (system and messages)."""
    sent = "\n".join(json.dumps(r.body) for r in run.requests)
    return {m: m in sent for m in markers}


# one setting_sources choice's session
ClaudeMdRun = TypedDict(
    "ClaudeMdRun",
    {"sent": dict[str, bool], "init memory_paths": list[str], "error": str | None},  # sent: marker -> sent
)


@behaviour(
    id="config.project-source-excludes-user-claude-md",
    claim=(
        "setting_sources=['project'] keeps the user-level CLAUDE.md (the config dir's, and "
        "~/.claude's when CLAUDE_CONFIG_DIR points elsewhere) out of everything sent to the model."
    ),
    summary="setting_sources=['project'] keeps the user's CLAUDE.md away from the model",
    source=("cc#45602", "report"),
    tier="cli",
    checks=("config-dir-claude-md-excluded", "home-claude-md-excluded", "user-source-sends-user-claude-md"),
    # ['user', 'project'] must show the config dir's CLAUDE.md before its absence under ['project'] means anything
    controls=("user-source-sends-user-claude-md",),
    requires=("option:setting_sources",),
    # the TypeScript SDK's SettingSource member the excluding runs give
    pins={
        "config-dir-claude-md-excluded": ("value:SettingSource=project",),
        "home-claude-md-excluded": ("value:SettingSource=project",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.setting_sources",
    timeout=90,
)
async def project_source_excludes_user_claude_md(h: Harness) -> dict[str, ClaudeMdRun]:
    config = h.workdir("cfg")
    claude_md(h.home / ".claude", _USERMD_HOME)
    claude_md(config, _USERMD_CFG)
    claude_md(h.cwd, _PROJMD)
    seen: dict[str, ClaudeMdRun] = {}
    # ['user', 'project'] is the control: it shows where the CLI does read a user CLAUDE.md
    for sources in (["project"], ["user", "project"]):
        run = await h.cli("hi", script=["ok"], setting_sources=sources, env={"CLAUDE_CONFIG_DIR": str(config)})
        seen[",".join(sources)] = {
            "sent": _markers_sent(run, (_USERMD_CFG, _USERMD_HOME, _PROJMD)),
            "init memory_paths": sorted(run.init.get("memory_paths") or []),
            "error": run.error_line,
        }
    return seen


@project_source_excludes_user_claude_md.decide
def _(seen: dict[str, ClaudeMdRun]) -> dict[str, Check]:
    project, both = seen["project"], seen["user,project"]

    def said(marker: str) -> str:
        return (
            f"with ['project'] the model was sent {marker}: {project['sent'][marker]} (with ['user', 'project']: "
            f"{both['sent'][marker]}; project CLAUDE.md sent: {project['sent'][_PROJMD]}; error {project['error']})"
        )

    def excluded(marker: str, where: str) -> Check:
        # Sent under ['project'] is a finding whatever the control says; absent is one only where
        # ['user', 'project'] did send it.
        if project["sent"][marker] or both["sent"][marker]:
            return check(not project["sent"][marker], said(marker))
        return undecidable(
            f"{where} reached the model under no source here (not with ['user', 'project'] either); "
            "its absence with ['project'] says nothing"
        )

    return {
        "config-dir-claude-md-excluded": excluded(_USERMD_CFG, "the config dir's CLAUDE.md"),
        "home-claude-md-excluded": excluded(_USERMD_HOME, "~/.claude/CLAUDE.md, with CLAUDE_CONFIG_DIR elsewhere,"),
        "user-source-sends-user-claude-md": check(
            both["sent"][_USERMD_CFG],
            f"with ['user', 'project'] the config dir's CLAUDE.md was not sent either "
            f"(project CLAUDE.md sent: {both['sent'][_PROJMD]}; error {both['error']})",
        ),
    }


project_source_excludes_user_claude_md.differs_on(
    {
        "project": {
            "sent": {_USERMD_CFG: True, _USERMD_HOME: True, _PROJMD: True},
            "init memory_paths": ["auto"],
            "error": None,
        },
        "user,project": {
            "sent": {_USERMD_CFG: True, _USERMD_HOME: True, _PROJMD: True},
            "init memory_paths": ["auto"],
            "error": None,
        },
    }
)
project_source_excludes_user_claude_md.differs_on(
    {  # the user source read no CLAUDE.md at all: the control fails
        "project": {
            "sent": {_USERMD_CFG: False, _USERMD_HOME: False, _PROJMD: True},
            "init memory_paths": ["auto"],
            "error": None,
        },
        "user,project": {
            "sent": {_USERMD_CFG: False, _USERMD_HOME: False, _PROJMD: True},
            "init memory_paths": ["auto"],
            "error": None,
        },
    }
)


# --- config.empty-sources-exclude-user-skills-and-mcp ---------------------------------

_USER_SKILL, _SKILL_MARK, _USER_SERVER = "probeuserskill", "SKILLMARK-8823", "usersrv"
_Loaded = Literal["skill in init.skills", "skill sent to the model", "server listed or its tools offered"]
SourcesRun = TypedDict(
    "SourcesRun",
    {
        "skill in init.skills": bool | None,  # None: init listed no skills
        "skill sent to the model": bool,
        "server listed or its tools offered": bool,
        "error": str | None,
    },
)
SourcesSeen = TypedDict(
    "SourcesSeen", {"[] sends --setting-sources": str | None, "[]": SourcesRun, "['user']": SourcesRun}
)


@behaviour(
    id="config.empty-sources-exclude-user-skills-and-mcp",
    claim=(
        "setting_sources=[] keeps the user's own skills (<config>/skills) and user-scope MCP servers "
        "(<config>/.claude.json) out of the session."
    ),
    summary="setting_sources=[] keeps the user's own skills and MCP servers out",
    source=("cc#30304", "report"),
    tier="cli",
    checks=("user-skill-excluded", "user-mcp-server-excluded"),
    requires=("option:setting_sources",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=120,
)
async def empty_sources_exclude_user_skills_and_mcp(h: Harness) -> SourcesSeen:
    server = stdio_mcp_server(h.workdir("mcp"), _USER_SERVER, [McpTool("ping", result="pong")])
    user_skill(h.config_dir, _USER_SKILL, f"A probe's user skill ({_SKILL_MARK}).")
    global_config(h.config_dir, {"mcpServers": {_USER_SERVER: server.config}})
    flag = (await h.wire(setting_sources=[])).flag("--setting-sources")
    runs: dict[str, SourcesRun] = {}
    # ['user'] is the control: it shows the CLI does load the skill and the server from there
    for label, sources in (("[]", []), ("['user']", ["user"])):
        run = await h.cli("hi", script=["ok"], setting_sources=sources)
        skills = run.init.get("skills")
        servers = run.init.get("mcp_servers")
        runs[label] = {
            "skill in init.skills": None if skills is None else _USER_SKILL in [str(s) for s in skills],
            "skill sent to the model": any(_SKILL_MARK in json.dumps(r.body) for r in run.on(MAIN)),
            # by name in init, or by its tools: whether it had connected by then varies with load
            "server listed or its tools offered": (
                _USER_SERVER in [str(s.get("name")) for s in servers or [] if isinstance(s, dict)]
                or any(t.startswith(f"mcp__{_USER_SERVER}__") for t in run.offered_tools)
            ),
            "error": run.error_line,
        }
    return {"[] sends --setting-sources": flag, "[]": runs["[]"], "['user']": runs["['user']"]}


def _loaded(run: SourcesRun, *keys: _Loaded) -> bool:
    return any(run[k] for k in keys)


@empty_sources_exclude_user_skills_and_mcp.decide
def _(seen: SourcesSeen) -> dict[str, Check]:
    empty, user = seen["[]"], seen["['user']"]
    skill: tuple[_Loaded, ...] = ("skill in init.skills", "skill sent to the model")
    server: tuple[_Loaded, ...] = ("server listed or its tools offered",)

    def said(what: tuple[_Loaded, ...]) -> str:
        return (
            f"with setting_sources=[] (sent as --setting-sources {seen['[] sends --setting-sources']!r}): "
            + ", ".join(f"{k} {empty[k]}" for k in what)
            + f"; error {empty['error']}"
        )

    return {
        "user-skill-excluded": check(not _loaded(empty, *skill), said(skill))
        if _loaded(empty, *skill) or _loaded(user, *skill)
        else undecidable("the user skill was loaded under no source here; its absence says nothing"),
        "user-mcp-server-excluded": check(not _loaded(empty, *server), said(server))
        if _loaded(empty, *server) or _loaded(user, *server)
        else undecidable("the user-scope MCP server was loaded under no source here; its absence says nothing"),
    }


empty_sources_exclude_user_skills_and_mcp.differs_on(
    {
        "[] sends --setting-sources": None,
        "[]": {
            "skill in init.skills": True,
            "skill sent to the model": True,
            "server listed or its tools offered": True,
            "error": None,
        },
        "['user']": {
            "skill in init.skills": True,
            "skill sent to the model": True,
            "server listed or its tools offered": True,
            "error": None,
        },
    }
)


# --- config.settings-env-vs-options-env ------------------------------------------------

_VAR = "SDKPROBE_PROBE_VAR"
_FROM_OPTIONS = "from-options"
_ECHO = f'echo "{_VAR}=${_VAR}"'
_ENV_RUNS: dict[str, list[str] | None] = {
    "options-env-wins-default-sources": None,
    "options-env-wins-project-source": ["project"],
    "options-env-wins-no-sources": [],
}
EnvRun = TypedDict("EnvRun", {"setting_sources": list[str] | None, "bash printed": str, "error": str | None})


@behaviour(
    id="config.settings-env-vs-options-env",
    claim=(
        "A variable given in the env option is the value the CLI and its tools (Bash) see, even when a "
        "user or project settings file sets the same variable in its `env`, whatever setting_sources is."
    ),
    summary="A variable in options.env beats the same variable in a settings file's env",
    security="a settings file silently replacing what the host put in env (a key, a proxy, a path)",
    source=("ts#217", "report"),
    tier="cli",
    checks=tuple(_ENV_RUNS),
    requires=("option:env", "option:setting_sources", "option:allowed_tools"),
    # setting_sources lost would change which settings set the variable, not that env wins over
    # them: no sub-check here sees it (the claim is env's)
    pins={
        "options-env-wins-default-sources": ("option:env",),
        "options-env-wins-project-source": ("option:env",),
        "options-env-wins-no-sources": ("option:env",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
    timeout=150,
)
async def settings_env_vs_options_env(h: Harness) -> dict[str, EnvRun]:
    project = h.workdir("proj")
    user_settings(h.config_dir, {"env": {_VAR: "from-user-settings"}})
    project_settings(project, {"env": {_VAR: "from-project-settings"}})
    seen: dict[str, EnvRun] = {}
    for name, sources in _ENV_RUNS.items():
        run = await h.cli(
            "what is the variable?",
            script=[reply(tool_use("Bash", {"command": _ECHO}, id="toolu_var")), "done"],
            cwd=str(project),
            allowed_tools=["Bash"],
            setting_sources=sources,
            env={_VAR: _FROM_OPTIONS},
        )
        main = run.on(MAIN)
        out = result_text(main[1].tool_result("toolu_var") if len(main) > 1 else None).strip()
        seen[name] = {"setting_sources": sources, "bash printed": out, "error": run.error_line}
    return seen


@settings_env_vs_options_env.decide
def _(seen: dict[str, EnvRun]) -> dict[str, Check]:
    return {
        name: check(
            seen[name]["bash printed"] == f"{_VAR}={_FROM_OPTIONS}",
            f"env={{{_VAR!r}: {_FROM_OPTIONS!r}}} with user and project settings setting it, "
            f"setting_sources={seen[name]['setting_sources']!r}: Bash printed {seen[name]['bash printed']!r} "
            f"(error {seen[name]['error']})",
        )
        for name in _ENV_RUNS
    }


settings_env_vs_options_env.differs_on(
    {
        "options-env-wins-default-sources": {
            "setting_sources": None,
            "bash printed": f"{_VAR}=from-project-settings",
            "error": None,
        },
        "options-env-wins-project-source": {
            "setting_sources": ["project"],
            "bash printed": f"{_VAR}=from-project-settings",
            "error": None,
        },
        "options-env-wins-no-sources": {
            "setting_sources": [],
            "bash printed": f"{_VAR}=from-user-settings",
            "error": None,
        },
    }
)


# TypeScript's string unions about where settings come from that no decision here tells apart.
for _source in ("user", "local"):
    leave_uncovered(
        __name__,
        f"value:SettingSource={_source}",
        "only the control runs give 'user' (a control pins nothing) and no behaviour gives 'local'; "
        "setting_sources=['project'] is the value a decision here tells apart",
    )
for _scope in ("local", "user", "project"):
    leave_uncovered(
        __name__,
        f"value:ConfigScope={_scope}",
        "exported beside the other types, yet no field the SDK takes or yields is declared with it",
    )
leave_uncovered(
    __name__,
    "value:ResolvedSettingSource=flag",
    "resolveSettings() (an @alpha function) takes no flag settings, so it never names that source to a probe; "
    "config.resolve-settings-merges-as-the-cli pins the other four",
)
for _origin in ("file", "helper", "hkcu", "hklm", "plist", "remote"):
    leave_uncovered(
        __name__,
        f"value:PolicySettingsOrigin={_origin}",
        "where managed policy came from, per resolveSettings() (@alpha): needs managed settings from the registry, "
        "a plist, /etc or a server, none of which a probe arranges offline",
    )
