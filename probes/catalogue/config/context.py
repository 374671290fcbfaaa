"""What reaches the model's context beside the prompt (account, git status, connectors) and what
get_context_usage says of it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, needs_live, undecidable
from sdkprobe.catalogue.config.support import (
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
    git_repo,
    global_config,
    in_process_server,
    in_process_tool,
)

_GIT_USER, _GIT_BRANCH, _GIT_COMMIT = "Probe User", "probe-trunk", "probe commit one"
_GitMark = Literal["git user", "branch", "recent commit", "attribution"]
_GIT_MARKS: dict[_GitMark, str] = {
    "git user": _GIT_USER,
    "branch": _GIT_BRANCH,
    "recent commit": _GIT_COMMIT,
    "attribution": "Co-Authored-By",
}
_GIT_RUNS: dict[str, dict[str, Any]] = {
    "claude_code preset": {},
    "claude_code preset, includeGitInstructions=false": {"settings": json.dumps({"includeGitInstructions": False})},
}
# run -> mark -> where it reached the model (where_marker_reached)
GitSeen = dict[str, dict[_GitMark, str | None]]


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
async def git_context_with_git_instructions(h: Harness) -> GitSeen:
    git_repo(h.cwd, user_name=_GIT_USER, branch=_GIT_BRANCH, message=_GIT_COMMIT)
    # The SDK's own default system prompt carries no git status; the claude_code preset does.
    preset = {"type": "preset", "preset": "claude_code"}
    seen: GitSeen = {}
    for label, options in _GIT_RUNS.items():
        first = (await h.cli("hi", system_prompt=preset, **options)).first(MAIN)
        seen[label] = {name: where_marker_reached(first, mark) for name, mark in _GIT_MARKS.items()}
    return seen


@git_context_with_git_instructions.decide
def _(seen: GitSeen) -> dict[str, Check]:
    default, dropped = (seen[label] for label in _GIT_RUNS)
    left = {name: at for name, at in dropped.items() if at is not None}
    return {
        "git-status-and-user-by-default": check(
            all(reached(default[mark]) for mark in ("git user", "branch", "recent commit")),
            f"in a git repo, by default: git user {default['git user']}, branch {default['branch']}, "
            f"recent commit {default['recent commit']}",
        ),
        "commit-instructions-by-default": check(
            reached(default["attribution"]),
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
async def no_claudeai_connectors_under_api_key(h: Harness) -> dict[str, Connectors]:
    return await connector_sessions(h)


@no_claudeai_connectors_under_api_key.decide
def _(seen: dict[str, Connectors]) -> dict[str, Check]:
    found = {
        label: (s["auth"], s["claude.ai servers"], s["claude.ai tools"])
        for label, s in seen.items()
        if s["auth"] == "none" or s["claude.ai servers"] or s["claude.ai tools"]
    }
    return {
        "no-connectors-under-api-key": check(
            not found, f"(auth, claude.ai servers, connector tools) where a connector or a login showed: {found}"
        ),
        "given-servers-unaffected": given_unaffected(seen),
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


# where the account's name and e-mail reached the model (where_marker_reached)
Identity = dict[Literal["name", "e-mail"], str | None]
AccountSeen = TypedDict(
    "AccountSeen",
    {
        "auth": str | None,
        "seeded config dir": Identity,
        "separate config dir": Identity | None,  # None: not run, the seeded identity reached nothing
    },
)


def _identity(run: CliRun) -> Identity:
    first = run.first(MAIN)
    return {
        "name": where_marker_reached(first, _ACCOUNT["displayName"]),
        "e-mail": where_marker_reached(first, _ACCOUNT["emailAddress"]),
    }


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
async def account_identity_in_context(h: Harness) -> AccountSeen:
    global_config(h.config_dir, {"oauthAccount": _ACCOUNT})
    seeded = await h.cli("hi")
    seen: AccountSeen = {
        "auth": seeded.init.get("apiKeySource"),
        "seeded config dir": _identity(seeded),
        "separate config dir": None,
    }
    # A separate config dir only says something when the seeded identity got through at all.
    if any(seen["seeded config dir"].values()):
        seen["separate config dir"] = _identity(await h.cli("hi", env={"CLAUDE_CONFIG_DIR": str(h.workdir("config"))}))
    return seen


@account_identity_in_context.decide
def _(seen: AccountSeen) -> dict[str, Check]:
    seeded, separate = seen["seeded config dir"], seen["separate config dir"]
    logged_in = seen["auth"] == "none"
    unseen = needs_live(_NOT_LOGGED_IN.format(source=seen["auth"]))
    uncompared = needs_live("a separate config dir can only be compared once the identity reaches the context at all")
    return {
        "identity-in-context": (
            check(all(map(reached, seeded.values())), f"with the account in .claude.json: {seeded}")
            if logged_in or any(map(reached, seeded.values()))
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


_LONG = "Looks a record up in the probe's ledger and explains every field it finds there. " * 12


def _ledger_server() -> Any:
    """An in-process server of five tools with long descriptions, so their tokens show."""

    async def look(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "found"}]}

    tools = [in_process_tool(f"lookup_{i}", _LONG, {"key": str})(look) for i in range(5)]
    return in_process_server("ledger", tools=tools)


_VOLATILE_USAGE = ("total tokens", "system tools tokens")
_UsageKey = Literal[
    "mcp tokens",
    "mcp tools listed",
    "skills category",
    "skills counted",
    "skills tokens",
    "system tools tokens",
    "total tokens",
]
# a get_context_usage() answer: _usage's keys (those of _VOLATILE_USAGE left out where it is kept)
Usage = dict[_UsageKey, Any]
ContextUsageSeen = TypedDict(
    "ContextUsageSeen",
    {
        "before first turn": Usage,
        "after first turn": Usage,
        "estimate before first turn below first call": bool,
        "system tools with skills=[] minus with skills=['dataviz']": int | None,
        "skills category with skills=[]": bool,
    },
)


def _usage(usage: Any) -> Usage:
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
async def get_context_usage_misleading(h: Harness) -> ContextUsageSeen:
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
def _(seen: ContextUsageSeen) -> dict[str, Check]:
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
