"""Area `config`: setting sources, memory, skills, the environment, and what reaches the model's context."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, needs_live, undecidable
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Harness,
    McpTool,
    Recorded,
    auto_memory,
    claude_md,
    git_repo,
    global_config,
    reply,
    result_text,
    stdio_mcp_server,
    tool_use,
    user_settings,
    user_skill,
)

GIVEN = {"SDKPROBE_GIVEN": "1", "CLAUDE_CODE_ENTRYPOINT": "custom", "CLAUDE_AGENT_SDK_VERSION": "x"}


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
async def env_option_replaces_process_env(h: Harness) -> dict[str, Any]:
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


# --- what reaches the model's context: settings files, memory, git, account, skills ----------


_PLACES = ("system", "messages", "tools")
_NO_REQUEST = "no request"


def _where(request: Recorded | None, marker: str) -> str | None:
    """Where `marker` reached the model in a request: the system parameter, a message (any
    role), a tool's description, or nowhere (None); "no request" when the session sent none,
    which proves neither presence nor absence."""
    if request is None:
        return _NO_REQUEST
    if marker in request.system_text:
        return "system"
    if any(marker in t for t in request.texts()):
        return "messages"
    if any(marker in str(t.get("description", "")) for t in request.tools):
        return "tools"
    return None


def _reached(where: str | None) -> bool:
    return where in _PLACES


_LANGUAGE = "Nederlands"
_AGENT_RULE = "Always answer in English."
_LANGUAGE_RUNS: dict[str, list[str] | None] = {
    "setting_sources=None": None,
    "setting_sources=[]": [],
    "setting_sources=['project']": ["project"],
}


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
async def default_setting_sources_load_user_language(h: Harness) -> dict[str, Any]:
    user_settings(h.config_dir, {"language": _LANGUAGE})
    preset = {"type": "preset", "preset": "claude_code", "append": _AGENT_RULE}
    seen: dict[str, Any] = {}
    for label, sources in _LANGUAGE_RUNS.items():
        first = (await h.session("hi", system_prompt=preset, setting_sources=sources)).first(MAIN)
        seen[label] = {"language rule": _where(first, _LANGUAGE), "agent's rule": _where(first, _AGENT_RULE)}
    return seen


@default_setting_sources_load_user_language.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    default = seen["setting_sources=None"]
    without_user = {label: seen[label]["language rule"] for label in _LANGUAGE_RUNS if label != "setting_sources=None"}
    return {
        "user-language-loaded-by-default": check(
            _reached(default["language rule"]),
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
async def auto_memory_ignores_setting_sources(h: Harness) -> dict[str, Any]:
    auto_memory(h.config_dir, h.cwd, f"- The probe's code word is {_MEMORY}.\n")
    seen: dict[str, Any] = {}
    for label, options in _MEMORY_RUNS.items():
        seen[label] = {"memory": _where((await h.session("hi", **options)).first(MAIN), _MEMORY)}
    return seen


@auto_memory_ignores_setting_sources.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    loaded, disabled = (seen[label]["memory"] for label in _MEMORY_RUNS)
    return {
        "memory-loaded-with-no-sources": check(
            _reached(loaded), f"with setting_sources=[] the memory's code word reached the model: {loaded}"
        ),
        "auto-memory-disabled-keeps-it-out": check(
            disabled is None, f"with autoMemoryEnabled=false the memory's code word was still in the {disabled}"
        ),
    }


auto_memory_ignores_setting_sources.differs_on(
    {"setting_sources=[]": {"memory": None}, "setting_sources=[], autoMemoryEnabled=false": {"memory": "messages"}}
)


_GIT_USER, _GIT_BRANCH, _GIT_COMMIT = "Probe User", "probe-trunk", "probe commit one"
_GIT_MARKS = {
    "git user": _GIT_USER,
    "branch": _GIT_BRANCH,
    "recent commit": _GIT_COMMIT,
    "attribution": "Co-Authored-By",
}
_GIT_RUNS: dict[str, dict[str, Any]] = {
    "claude_code preset": {},
    "claude_code preset, includeGitInstructions=false": {"settings": json.dumps({"includeGitInstructions": False})},
}


@behaviour(
    id="config.git-context-with-git-instructions",
    claim=(
        "In a git repository the model gets the git status (branch, recent commits and the git user's name) "
        "together with the git commit instructions; the setting includeGitInstructions=false takes out both."
    ),
    summary="Git status comes with the git instructions; includeGitInstructions=false drops both",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("git-status-and-user-by-default", "commit-instructions-by-default", "setting-drops-git-context"),
    requires=("option:system_prompt", "option:settings"),
    timeout=120,
)
async def git_context_with_git_instructions(h: Harness) -> dict[str, Any]:
    git_repo(h.cwd, user_name=_GIT_USER, branch=_GIT_BRANCH, message=_GIT_COMMIT)
    # The SDK's own default system prompt carries no git status; the claude_code preset does.
    preset = {"type": "preset", "preset": "claude_code"}
    seen: dict[str, Any] = {}
    for label, options in _GIT_RUNS.items():
        first = (await h.session("hi", system_prompt=preset, **options)).first(MAIN)
        seen[label] = {name: _where(first, mark) for name, mark in _GIT_MARKS.items()}
    return seen


@git_context_with_git_instructions.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    default, dropped = (seen[label] for label in _GIT_RUNS)
    left = {name: at for name, at in dropped.items() if at is not None}
    return {
        "git-status-and-user-by-default": check(
            all(_reached(default[mark]) for mark in ("git user", "branch", "recent commit")),
            f"in a git repo, by default: git user {default['git user']}, branch {default['branch']}, "
            f"recent commit {default['recent commit']}",
        ),
        "commit-instructions-by-default": check(
            _reached(default["attribution"]),
            f"by default the commit attribution instruction reached the model: {default['attribution']}",
        ),
        "setting-drops-git-context": check(not left, f"with includeGitInstructions=false still there: {left}"),
    }


git_context_with_git_instructions.differs_on(
    {
        "claude_code preset": {"git user": None, "branch": "messages", "recent commit": None, "attribution": None},
        "claude_code preset, includeGitInstructions=false": {
            "git user": "messages",
            "branch": "messages",
            "recent commit": "messages",
            "attribution": "tools",
        },
    }
)


_CONNECTOR_RUNS: dict[str, dict[str, Any]] = {
    "setting_sources=[]": {},
    "setting_sources=[], disableClaudeAiConnectors=true": {"settings": json.dumps({"disableClaudeAiConnectors": True})},
}
_NO_LOGIN = "claude.ai connectors come with a claude.ai login; this session authenticated with {source}"


def _connectors(run: CliRun, server: str) -> dict[str, Any]:
    """The claude.ai connectors a session loaded, and how the probe's own server fared."""
    servers = {str(s.get("name")): s.get("status") for s in run.init.get("mcp_servers") or []}
    tools = [str(t) for t in run.init.get("tools") or []]
    return {
        "auth": run.init.get("apiKeySource"),
        "claude.ai servers": sorted(n for n in servers if n.startswith("claude.ai")),
        "claude.ai tools": sum(t.startswith("mcp__claude_ai_") for t in tools),
        "given server": servers.get(server),
        # offered to the model (the double's request), or listed at init where no double saw it (live)
        "given tool offered": f"mcp__{server}__ping" in (run.offered_tools if run.double else tools),
    }


async def _connector_sessions(h: Harness) -> dict[str, Any]:
    """The two sessions both connector behaviours observe: setting_sources=[], without and with the setting."""
    import claude_agent_sdk as sdk

    @sdk.tool("ping", "Answers pong.", {})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "pong"}]}

    # In-process: connected before the first request on every CLI however loaded the machine
    # (a stdio server's start raced CLI 2.1.139's wait and was sometimes still pending).
    server = sdk.create_sdk_mcp_server("probe", tools=[ping])
    seen: dict[str, Any] = {}
    for label, options in _CONNECTOR_RUNS.items():
        # client=True: in-process servers need streaming mode on old SDKs
        run = await h.session("hi", client=True, setting_sources=[], mcp_servers={"probe": server}, **options)
        seen[label] = _connectors(run, "probe")
    return seen


def _given_unaffected(seen: dict[str, Any]) -> Check:
    given = {label: (s["given server"], s["given tool offered"]) for label, s in seen.items()}
    return check(
        all(status == "connected" and offered for status, offered in given.values()),
        f"the given in-process server (status, tool offered): {given}",
    )


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
async def claudeai_connectors_ignore_setting_sources(h: Harness) -> dict[str, Any]:
    return await _connector_sessions(h)


@claudeai_connectors_ignore_setting_sources.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    loaded, disabled = (seen[label] for label in _CONNECTOR_RUNS)
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
        "given-servers-unaffected": _given_unaffected(seen),
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


@behaviour(
    id="config.no-claudeai-connectors-under-api-key",
    claim=(
        "A session that authenticates with an API key (no claude.ai login) loads no claude.ai connector with "
        "setting_sources=[], and the setting disableClaudeAiConnectors=true leaves a server given in "
        "mcp_servers connected and offered to the model."
    ),
    summary="An API-key session loads no claude.ai connector; mcp_servers stay offered",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("no-connectors-under-api-key", "given-servers-unaffected"),
    requires=("option:setting_sources", "option:settings", "option:mcp_servers", "api:create_sdk_mcp_server"),
    timeout=120,
)
async def no_claudeai_connectors_under_api_key(h: Harness) -> dict[str, Any]:
    return await _connector_sessions(h)


@no_claudeai_connectors_under_api_key.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    found = {
        label: (s["auth"], s["claude.ai servers"], s["claude.ai tools"])
        for label, s in seen.items()
        if s["auth"] == "none" or s["claude.ai servers"] or s["claude.ai tools"]
    }
    return {
        "no-connectors-under-api-key": check(
            not found, f"(auth, claude.ai servers, connector tools) where a connector or a login showed: {found}"
        ),
        "given-servers-unaffected": _given_unaffected(seen),
    }


no_claudeai_connectors_under_api_key.differs_on(
    {
        "setting_sources=[]": {
            "auth": "ANTHROPIC_API_KEY",
            "claude.ai servers": ["claude.ai Gmail"],
            "claude.ai tools": 8,
            "given server": "connected",
            "given tool offered": True,
        },
        "setting_sources=[], disableClaudeAiConnectors=true": {
            "auth": "ANTHROPIC_API_KEY",
            "claude.ai servers": [],
            "claude.ai tools": 0,
            "given server": "failed",
            "given tool offered": False,
        },
    }
)


_ACCOUNT = {"displayName": "Ada Probe", "emailAddress": "ada@probe.example"}
_NOT_LOGGED_IN = (
    "the CLI uses a stored oauthAccount only under a claude.ai login; with {source} it left the seeded one out"
)


def _identity(run: CliRun) -> dict[str, Any]:
    first = run.first(MAIN)
    return {"name": _where(first, _ACCOUNT["displayName"]), "e-mail": _where(first, _ACCOUNT["emailAddress"])}


@behaviour(
    id="config.account-identity-in-context",
    claim=(
        "The logged-in account's name and e-mail address, kept in the CLI's global config (.claude.json), "
        "always reach the model's context; only pointing CLAUDE_CONFIG_DIR at a separate folder keeps them out."
    ),
    summary="The account's name and e-mail reach the model unless CLAUDE_CONFIG_DIR points elsewhere",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("identity-in-context", "separate-config-dir-keeps-it-out"),
    requires=("option:env",),
    timeout=120,
)
async def account_identity_in_context(h: Harness) -> dict[str, Any]:
    global_config(h.config_dir, {"oauthAccount": _ACCOUNT})
    seeded = await h.session("hi")
    seen: dict[str, Any] = {"auth": seeded.init.get("apiKeySource"), "seeded config dir": _identity(seeded)}
    # A separate config dir only says something when the seeded identity got through at all.
    separate = None
    if any(seen["seeded config dir"].values()):
        separate = _identity(await h.session("hi", env={"CLAUDE_CONFIG_DIR": str(h.workdir("config"))}))
    seen["separate config dir"] = separate
    return seen


@account_identity_in_context.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    seeded, separate = seen["seeded config dir"], seen["separate config dir"]
    logged_in = seen["auth"] == "none"
    unseen = needs_live(_NOT_LOGGED_IN.format(source=seen["auth"]))
    uncompared = needs_live("a separate config dir can only be compared once the identity reaches the context at all")
    return {
        "identity-in-context": (
            check(all(map(_reached, seeded.values())), f"with the account in .claude.json: {seeded}")
            if logged_in or any(map(_reached, seeded.values()))
            else unseen
        ),
        "separate-config-dir-keeps-it-out": (
            uncompared
            if separate is None
            else check(not any(separate.values()), f"with a separate, empty config dir: {separate}")
        ),
    }


account_identity_in_context.differs_on(
    {
        "auth": "none",
        "seeded config dir": {"name": None, "e-mail": "messages"},
        "separate config dir": {"name": None, "e-mail": "messages"},
    }
)


_SKILL_LISTING = "skills are available for use with the Skill tool"
_UNFILTERED, _FILTERED = "setting_sources=[], skills unset", "setting_sources=[], skills=[one bundled skill]"
_NONE_KEPT = "setting_sources=[], skills=[]"


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
async def bundled_skills_need_skills_filter(h: Harness) -> dict[str, Any]:
    unfiltered = await h.session("hi", setting_sources=[])
    listed = _skill_listing(unfiltered.first(MAIN))
    # filter for dataviz, the catalogue's example, where this CLI bundles it; else for a skill it does list
    pick = "dataviz" if "dataviz" in listed or not listed else listed[0]
    filtered = await h.session("hi", setting_sources=[], skills=[pick])
    none_kept = await h.session("hi", setting_sources=[], skills=[])
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


_LONG = "Looks a record up in the probe's ledger and explains every field it finds there. " * 12


def _ledger_server() -> Any:
    """An in-process server of five tools with long descriptions, so their tokens show."""
    import claude_agent_sdk as sdk

    async def look(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "found"}]}

    tools = [sdk.tool(f"lookup_{i}", _LONG, {"key": str})(look) for i in range(5)]
    return sdk.create_sdk_mcp_server("ledger", tools=tools)


_VOLATILE_USAGE = ("total tokens", "system tools tokens")


def _usage(usage: Any) -> dict[str, Any]:
    """What decides the claim in a get_context_usage() answer."""
    usage = dict(usage or {})
    categories = [c for c in usage.get("categories") or [] if isinstance(c, dict)]
    skills = usage.get("skills") if isinstance(usage.get("skills"), dict) else {}

    def tokens(named: Callable[[str], bool]) -> list[int]:
        return [int(c.get("tokens") or 0) for c in categories if named(str(c.get("name", "")).lower())]

    system = tokens(lambda name: name == "system tools")
    return {
        "mcp tokens": sum(int(c.get("tokens") or 0) for c in categories if "mcp" in str(c.get("name", "")).lower()),
        "mcp tools listed": len(usage.get("mcpTools") or []),
        "skills category": any("skill" in str(c.get("name", "")).lower() for c in categories),
        "skills counted": skills.get("includedSkills"),
        "skills tokens": sum(tokens(lambda name: "skill" in name)),
        "system tools tokens": system[0] if system else None,
        "total tokens": int(usage.get("totalTokens") or 0),
    }


@behaviour(
    id="config.get-context-usage-misleading",
    claim=(
        "get_context_usage() splits its categories misleadingly (skills left out by a filter are counted as "
        "system tools) and, before the first turn, counts in-process MCP tools as 0 tokens, so it estimates "
        "less than the first call really sends; a call's API usage is the measure to trust."
    ),
    summary="get_context_usage() undercounts before the first turn; a call's API usage is reliable",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=(
        "mcp-tools-zero-before-first-turn",
        "mcp-tools-counted-after-first-turn",
        "filtered-skills-counted-as-system-tools",
        "estimate-below-first-call",
    ),
    requires=(
        "api:ClaudeSDKClient.get_context_usage",
        "api:create_sdk_mcp_server",
        "option:skills",
        "option:mcp_servers",
        "option:setting_sources",
    ),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.get_context_usage",
    timeout=120,
    pins={
        "mcp-tools-zero-before-first-turn": ("client:get_context_usage",),
        "mcp-tools-counted-after-first-turn": ("client:get_context_usage",),
        "filtered-skills-counted-as-system-tools": ("client:get_context_usage", "option:skills"),
        "estimate-below-first-call": ("client:get_context_usage",),
    },
)
async def get_context_usage_misleading(h: Harness) -> dict[str, Any]:
    answers: dict[str, Any] = {}

    async def steps(c: Any) -> None:
        answers["before"] = await c.call("get_context_usage")
        await c.send("hi")
        await c.response()
        answers["after"] = await c.call("get_context_usage")

    async def before_only(c: Any) -> None:
        answers["none kept"] = await c.call("get_context_usage")

    run = await h.converse(steps, mcp_servers={"ledger": _ledger_server()}, skills=["dataviz"], setting_sources=[])
    # the same session with every skill filtered out: where the filtered skills' tokens go
    await h.converse(before_only, mcp_servers={"ledger": _ledger_server()}, skills=[], setting_sources=[])
    first = run.first(MAIN)
    before, after = _usage(answers.get("before")), _usage(answers.get("after"))
    none_kept = _usage(answers.get("none kept"))
    # the double's count_tokens measure (a quarter of the JSON size) applied to the first call itself
    first_call = len(json.dumps(first.body)) // 4 if first is not None else 0
    both = before["system tools tokens"] is not None and none_kept["system tools tokens"] is not None
    return {
        "before first turn": {k: v for k, v in before.items() if k not in _VOLATILE_USAGE},
        "after first turn": {k: v for k, v in after.items() if k not in _VOLATILE_USAGE},
        "estimate before first turn below first call": 0 < before["total tokens"] < first_call,
        # a difference, not the two totals: those move with every tool description the CLI ships
        "system tools with skills=[] minus with skills=['dataviz']": (
            none_kept["system tools tokens"] - before["system tools tokens"] if both else None
        ),
        "skills category with skills=[]": none_kept["skills category"],
    }


@get_context_usage_misleading.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    before, after = seen["before first turn"], seen["after first turn"]
    grew = seen["system tools with skills=[] minus with skills=['dataviz']"]
    return {
        "mcp-tools-zero-before-first-turn": check(
            before["mcp tokens"] == 0, f"before the first turn MCP categories held {before['mcp tokens']} tokens"
        ),
        "mcp-tools-counted-after-first-turn": check(
            after["mcp tokens"] > 0, f"after the first turn MCP categories held {after['mcp tokens']} tokens"
        ),
        # Filtering the kept skill out too must not make its tokens vanish into System tools.
        "filtered-skills-counted-as-system-tools": check(
            grew > 0,
            f"System tools held {grew} tokens more with skills=[] than with skills=['dataviz'] "
            f"(whose Skills category held {before['skills tokens']})",
        )
        if grew is not None
        else undecidable("get_context_usage() reported no 'System tools' category for one of the two sessions"),
        "estimate-below-first-call": check(
            seen["estimate before first turn below first call"],
            "the estimate before the first turn was not below the size of the first call",
        ),
    }


get_context_usage_misleading.differs_on(
    {
        "before first turn": {
            "mcp tokens": 1950,
            "mcp tools listed": 5,
            "skills category": True,
            "skills counted": 1,
            "skills tokens": 482,
        },
        "after first turn": {
            "mcp tokens": 0,
            "mcp tools listed": 0,
            "skills category": True,
            "skills counted": 1,
            "skills tokens": 482,
        },
        "estimate before first turn below first call": False,
        "system tools with skills=[] minus with skills=['dataviz']": 0,
        "skills category with skills=[]": False,
    }
)


# --- config.project-source-excludes-user-claude-md ------------------------------------

_USERMD_HOME, _USERMD_CFG, _PROJMD = "USERMD-HOME-4417", "USERMD-CFG-4417", "PROJMD-4417"


def _markers_sent(run: CliRun, markers: tuple[str, ...]) -> dict[str, bool]:
    """Which markers appear anywhere in any request the CLI made (system and messages)."""
    sent = "\n".join(json.dumps(r.body) for r in run.requests)
    return {m: m in sent for m in markers}


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
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.setting_sources",
    timeout=90,
)
async def project_source_excludes_user_claude_md(h: Harness) -> dict[str, Any]:
    config = h.workdir("cfg")
    claude_md(h.home / ".claude", _USERMD_HOME)
    claude_md(config, _USERMD_CFG)
    claude_md(h.cwd, _PROJMD)
    seen = {}
    # ['user', 'project'] is the control: it shows where the CLI does read a user CLAUDE.md
    for sources in (["project"], ["user", "project"]):
        run = await h.session("hi", script=["ok"], setting_sources=sources, env={"CLAUDE_CONFIG_DIR": str(config)})
        seen[",".join(sources)] = {
            "sent": _markers_sent(run, (_USERMD_CFG, _USERMD_HOME, _PROJMD)),
            "init memory_paths": sorted(run.init.get("memory_paths") or []),
            "error": run.error_line,
        }
    return seen


@project_source_excludes_user_claude_md.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
async def empty_sources_exclude_user_skills_and_mcp(h: Harness) -> dict[str, Any]:
    server = stdio_mcp_server(h.workdir("mcp"), _USER_SERVER, [McpTool("ping", result="pong")])
    user_skill(h.config_dir, _USER_SKILL, f"A probe's user skill ({_SKILL_MARK}).")
    global_config(h.config_dir, {"mcpServers": {_USER_SERVER: server.config}})
    flag = (await h.wire(setting_sources=[])).flag("--setting-sources")
    seen: dict[str, Any] = {"[] sends --setting-sources": flag}
    # ['user'] is the control: it shows the CLI does load the skill and the server from there
    for label, sources in (("[]", []), ("['user']", ["user"])):
        run = await h.session("hi", script=["ok"], setting_sources=sources)
        skills = run.init.get("skills")
        servers = run.init.get("mcp_servers")
        seen[label] = {
            "skill in init.skills": None if skills is None else _USER_SKILL in [str(s) for s in skills],
            "skill sent to the model": any(_SKILL_MARK in json.dumps(r.body) for r in run.on(MAIN)),
            # by name in init, or by its tools: whether it had connected by then varies with load
            "server listed or its tools offered": (
                _USER_SERVER in [str(s.get("name")) for s in servers or [] if isinstance(s, dict)]
                or any(t.startswith(f"mcp__{_USER_SERVER}__") for t in run.offered_tools)
            ),
            "error": run.error_line,
        }
    return seen


def _loaded(run: dict[str, Any], *keys: str) -> bool:
    return any(run[k] for k in keys)


@empty_sources_exclude_user_skills_and_mcp.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    empty, user = seen["[]"], seen["['user']"]
    skill = ("skill in init.skills", "skill sent to the model")
    server = ("server listed or its tools offered",)

    def said(what: tuple[str, ...]) -> str:
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


# --- config.cwd-reaches-bash ----------------------------------------------------------

_WHERE = 'pwd; echo "PWD=$PWD"'


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
async def cwd_reaches_bash(h: Harness) -> dict[str, Any]:
    project = h.workdir("proj")
    link = h.workdir("links") / "proj-link"
    link.symlink_to(project, target_is_directory=True)
    seen: dict[str, Any] = {}
    here = os.getcwd()
    os.chdir("/")  # the caller is not in D: a service, an editor, a non-shell parent
    try:
        for label, cwd in (("directory", project), ("symlink", link)):
            run = await h.session(
                "where am I?",
                script=[reply(tool_use("Bash", {"command": _WHERE}, id="toolu_where")), "done"],
                cwd=str(cwd),
                allowed_tools=["Bash"],
                env={"PWD": "/"},
            )
            main = run.on(MAIN)
            out = result_text(main[1].tool_result("toolu_where") if len(main) > 1 else None).strip().splitlines()
            pwd = out[0] if out else None
            seen[label] = {
                "cwd given": str(cwd),
                "init cwd": run.init.get("cwd"),
                "bash printed": out[:2],
                "bash ran in cwd": pwd is not None and os.path.realpath(pwd) == os.path.realpath(cwd),
                "error": run.error_line,
            }
        missing = await h.session("hi", script=["ok"], cwd=str(h.workdir("gone") / "missing"))
    finally:
        os.chdir(here)
    seen["missing"] = {
        "exception": missing.error_line,
        "model requests": len(missing.requests),
        "cli started": bool(missing.exit_codes),
    }
    return seen


@cwd_reaches_bash.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def said(label: str) -> str:
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
