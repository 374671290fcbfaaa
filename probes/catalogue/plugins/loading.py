"""Plugins: what the CLI loads from one (commands, skills, agents, options) and what a reload re-
reads."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import MAIN, CliRun, Conversation, Harness, McpTool, plugin_folder, stdio_mcp_server

_PLUGIN = "probe"
_PREFIX = f"{_PLUGIN}:"
_SKILL = "---\nname: {name}\ndescription: a probe skill\n---\nSay SKILL-BODY-{name}."
_AGENT = "---\nname: rev\ndescription: reviews probe work\n---\nReview the work."
# One of each kind: a command, a skill (frontmatter name = folder) and an agent.
_PARTS: dict[str, Any] = {
    "commands": {"hello": "Reply with MARKER-42"},
    "skills": {"sk": _SKILL.format(name="sk")},
    "agents": {"rev": _AGENT},
}
_EXPECTED = {"skills": [f"{_PREFIX}sk"], "commands": [f"{_PREFIX}hello", f"{_PREFIX}sk"], "agents": [f"{_PREFIX}rev"]}
# The oldest bundled CLI known to answer reload_plugins (SDK 0.1.51); 2.1.37 (0.1.33) never answers it.
_RELOAD_CLI = "2.1.85"


def _version(text: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text or "")[:3])


def _inits(messages: list[Any]) -> list[dict[str, Any]]:
    return [
        dict(m.data) for m in messages if type(m).__name__ == "SystemMessage" and getattr(m, "subtype", "") == "init"
    ]


class Parts(TypedDict):
    """What an init says of the probe's own plugins (sorted names)."""

    plugins: list[str]
    skills: list[str]
    commands: list[str]
    agents: list[str]


class Reloaded(TypedDict):
    """A reload_plugins answer, without the lists the next init shows anyway."""

    subtype: str | None
    error: Any
    error_count: int | None


def _own_parts(init: dict[str, Any] | None, prefixes: tuple[str, ...] = (_PREFIX,)) -> Parts:
    """What an init says of the probe's own plugins: their names (not the CLI's built-in
    plugins) and their skills, slash commands and agents (sorted: the CLI's order moves)."""
    init = init or {}

    def own(key: str) -> list[str]:
        names = (x if isinstance(x, str) else str(x.get("name")) for x in init.get(key) or [])
        return sorted(n for n in names if n.startswith(prefixes))

    plugins = init.get("plugins") or []
    return {
        "plugins": sorted(str(p.get("name")) for p in plugins if isinstance(p, dict) and p.get("path") != "builtin"),
        "skills": own("skills"),
        "commands": own("slash_commands"),
        "agents": own("agents"),
    }


def _reply(answer: dict[str, Any]) -> Reloaded:
    """A reload's answer, without the lists the next init shows anyway."""
    response = answer.get("response") or {}
    return {"subtype": answer.get("subtype"), "error": answer.get("error"), "error_count": response.get("error_count")}


def _has_all(parts: Mapping[str, Any]) -> bool:
    return all(set(names) <= set(parts[key]) for key, names in _EXPECTED.items())


def _has_none(parts: Mapping[str, Any]) -> bool:
    return not any(parts[key] for key in _EXPECTED)


async def _turn(c: Conversation, prompt: str) -> Parts:
    """One turn of a reload probe's conversation: what its init says of the probe's plugins."""
    await c.send(prompt)
    messages = await c.response()
    inits = _inits(messages)
    return _own_parts(inits[0] if inits else None, (_PREFIX, "extra:"))


# What a turn's init says of the probe's plugin, none of it or all (the reload behaviours' counterexamples)
_NOTHING: Parts = {"plugins": [], "skills": [], "commands": [], "agents": []}
_ALL = cast(Parts, {"plugins": [_PLUGIN], **_EXPECTED})


# ---------------------------------------------------------------------------------------


class CommandSeen(TypedDict):
    command_listed: bool
    model_requests: int
    marker_sent_to_model: bool
    local_result: Any  # what the CLI answered itself, without a model request (None with one)
    error: str | None


@behaviour(
    id="plugins.commands-work-without-skills-list",
    claim=(
        "A plugin's slash command runs even when the skills option lists only other skills: "
        "/<plugin>:<command> still expands into the command's text for the model."
    ),
    summary="A plugin's slash command runs even when the skills option leaves it out",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("command-expands-despite-skills-filter",),
    requires=("option:plugins", "option:skills"),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.skills",
    pins={"command-expands-despite-skills-filter": ("option:skills",)},
)
async def commands_work_without_skills_list(h: Harness) -> CommandSeen:
    plugin = plugin_folder(h.workdir("plugin"), _PLUGIN, commands={"hello": "Reply with MARKER-42"})
    run = await h.cli(f"/{_PREFIX}hello", script=["done"], plugins=[plugin.config], skills=["dataviz"])
    main = run.on(MAIN)
    user_text = "\n".join(main[0].texts("user")) if main else ""
    result = run.result
    return {
        "command_listed": f"{_PREFIX}hello" in (run.init.get("slash_commands") or []),
        "model_requests": len(main),
        "marker_sent_to_model": "MARKER-42" in user_text,
        # Without a model request the CLI answered the turn itself (e.g. an unknown command)
        "local_result": None if main else getattr(result, "result", None),
        "error": run.error_line,
    }


@commands_work_without_skills_list.decide
def _(seen: CommandSeen) -> dict[str, Check]:
    return {
        "command-expands-despite-skills-filter": check(
            seen["marker_sent_to_model"],
            f"with skills=['dataviz'], /{_PREFIX}hello sent the model its text: {seen['marker_sent_to_model']} "
            f"({seen['model_requests']} model requests, listed in slash_commands: {seen['command_listed']}, "
            f"local result {seen['local_result']!r}, error {seen['error']!r})",
        )
    }


commands_work_without_skills_list.differs_on(
    {
        "command_listed": False,
        "model_requests": 0,
        "marker_sent_to_model": False,
        "local_result": "Unknown skill: probe:hello",
        "error": None,
    }
)


# ---------------------------------------------------------------------------------------

_LISTED = re.compile(r"^- (probe:[^\s:]+(?: \([^)]*\))?):", re.M)


class NamingSeen(TypedDict):
    init: dict[str, list[str]]  # skills, commands, agents of the probe's plugin
    listed_to_model: list[str]
    no_fm_body_in_context: bool
    error: str | None


@behaviour(
    id="plugins.skill-and-agent-naming",
    claim=(
        "A plugin's skill is named <plugin>:<folder> whatever the name in its frontmatter; a SKILL.md "
        "without frontmatter is not loaded; a plugin's agents/*.md load as <plugin>:<name>."
    ),
    summary="A plugin's skill is named <plugin>:<folder>, its agents <plugin>:<name>",
    source=("000", "Configuration and context"),
    tier="cli",
    checks=("skill-named-after-folder", "skill-without-frontmatter-not-loaded", "agents-named-plugin-colon-name"),
    requires=("option:plugins",),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.plugins",
    pins={
        "skill-named-after-folder": ("option:plugins",),
        "skill-without-frontmatter-not-loaded": ("option:plugins",),
        "agents-named-plugin-colon-name": ("option:plugins",),
    },
)
async def skill_and_agent_naming(h: Harness) -> NamingSeen:
    plugin = plugin_folder(
        h.workdir("plugin"),
        _PLUGIN,
        skills={"folder-a": _SKILL.format(name="other-name"), "no-fm": "Say SKILL-BODY-no-fm."},
        agents={"rev": _AGENT},
    )
    run = await h.cli("hi", script=["done"], plugins=[plugin.config])
    main = run.on(MAIN)
    # The listings are in the context message, or (older CLIs) in the Skill and Task tools' descriptions
    context = "\n".join([main[0].context_text, *(str(t.get("description", "")) for t in main[0].tools)]) if main else ""
    parts = _own_parts(run.init)
    return {
        "init": {k: parts[k] for k in ("skills", "commands", "agents")},
        # The `- name: description` lines the model was shown for this plugin (skills and agents)
        "listed_to_model": sorted(set(_LISTED.findall(context))),
        "no_fm_body_in_context": "SKILL-BODY-no-fm" in context,
        "error": run.error_line,
    }


@skill_and_agent_naming.decide
def _(seen: NamingSeen) -> dict[str, Check]:
    init, listed = seen["init"], seen["listed_to_model"]
    skill_names = [n.split(" ")[0] for n in listed]
    no_fm = [n for n in [*init["skills"], *init["commands"], *skill_names] if n == f"{_PREFIX}no-fm"]
    # "whatever its frontmatter says": the frontmatter's name shows nowhere, not even beside the folder's
    return {
        "skill-named-after-folder": check(
            f"{_PREFIX}folder-a" in init["skills"]
            and f"{_PREFIX}folder-a" in skill_names
            and not any("other-name" in n for n in [*init["skills"], *init["commands"], *listed]),
            f"init skills {init['skills']}, slash_commands {init['commands']}, listed to the model {listed}",
        ),
        "skill-without-frontmatter-not-loaded": check(
            not no_fm,
            f"{_PREFIX}no-fm is in init skills: {f'{_PREFIX}no-fm' in init['skills']}, "
            f"in slash_commands: {f'{_PREFIX}no-fm' in init['commands']}, "
            f"listed to the model: {f'{_PREFIX}no-fm' in skill_names}",
        ),
        "agents-named-plugin-colon-name": check(
            init["agents"] == [f"{_PREFIX}rev"] and f"{_PREFIX}rev" in skill_names,
            f"init agents {init['agents']}, listed to the model {listed}",
        ),
    }


skill_and_agent_naming.differs_on(
    {
        "init": {"skills": ["probe:no-fm", "probe:other-name"], "commands": ["probe:other-name"], "agents": ["rev"]},
        "listed_to_model": ["probe:other-name"],
        "no_fm_body_in_context": False,
        "error": None,
    }
)


# ---------------------------------------------------------------------------------------

_OPTIONS_CLI = "2.1.271"  # the first CLI the source found to accept `options` in userConfig
_USER_CONFIG = {
    "mode": {
        "type": "string",
        "title": "Mode",
        "description": "How the probe plugin works",
        "options": ["a", "b"],
        "default": "a",
    }
}


class UserConfigSeen(TypedDict):
    cli: str | None
    parts: Parts
    plugin_errors: Any  # how many, when the CLI gives a list
    host_server: str | None
    error: str | None


@behaviour(
    id="plugins.userconfig-options-min-cli",
    claim=(
        "A plugin whose manifest userConfig limits a field to fixed values (options) loads only on CLI 2.1.271 "
        "or later; an older CLI refuses the whole plugin (no skills, commands or agents of it), while the "
        "plugin's MCP servers still run when the host passes them itself."
    ),
    summary="A plugin with userConfig options loads only on CLI 2.1.271 or later",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=("loads-on-cli-2-1-271-or-later", "older-cli-refuses-whole-plugin", "host-passed-servers-still-run"),
    requires=("option:plugins", "option:mcp_servers", "package:mcp"),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.plugins",
)
async def userconfig_options_min_cli(h: Harness) -> UserConfigSeen:
    # The plugin's server, started by the host itself as the source's kit does (not also from the
    # plugin's .mcp.json: a second server process would only cost time)
    server = stdio_mcp_server(h.workdir("mcp"), "srv", [McpTool("ping", "Answers pong.", result="pong")])
    plugin = plugin_folder(h.workdir("plugin"), _PLUGIN, user_config=_USER_CONFIG, **_PARTS)
    run = await h.cli("hi", script=["done"], plugins=[plugin.config], mcp_servers={"host-srv": server.config})
    servers = {str(s.get("name")): str(s.get("status")) for s in run.init.get("mcp_servers") or []}
    errors = run.init.get("plugin_errors") or []
    return {
        "cli": run.cli_version,
        "parts": _own_parts(run.init),
        "plugin_errors": len(errors) if isinstance(errors, list) else errors,
        "host_server": servers.get("host-srv"),
        "error": run.error_line,
    }


@userconfig_options_min_cli.decide
def _(seen: UserConfigSeen) -> dict[str, Check]:
    cli, parts = seen["cli"], seen["parts"]
    new = _version(cli) >= _version(_OPTIONS_CLI)
    shown = f"CLI {cli}: init plugins {parts['plugins']}, skills {parts['skills']}, commands {parts['commands']}, "
    shown += f"agents {parts['agents']}, plugin_errors {seen['plugin_errors']!r}"
    return {
        "loads-on-cli-2-1-271-or-later": check(_has_all(parts) and not seen["plugin_errors"], shown)
        if new
        else undecidable(f"CLI {cli} predates {_OPTIONS_CLI}: only the refusal applies"),
        "older-cli-refuses-whole-plugin": check(_has_none(parts), shown)
        if not new
        else undecidable(f"CLI {cli} is {_OPTIONS_CLI} or later: only the loading applies"),
        "host-passed-servers-still-run": check(
            seen["host_server"] == "connected", f"CLI {cli}: the host-passed server was {seen['host_server']!r}"
        ),
    }


userconfig_options_min_cli.differs_on(
    {
        "cli": "2.1.300",
        "parts": {"plugins": [], "skills": [], "commands": [], "agents": []},
        "plugin_errors": 1,
        "host_server": "failed",
        "error": None,
    }
)
userconfig_options_min_cli.differs_on(
    {
        "cli": "2.1.236",
        "parts": {"plugins": ["probe"], "skills": ["probe:sk"], "commands": ["probe:hello"], "agents": []},
        "plugin_errors": None,
        "host_server": "connected",
        "error": None,
    }
)


# ---------------------------------------------------------------------------------------

# each turn's Parts and each reload's answer, built step by step (so no key is required)
SymlinkSeen = TypedDict(
    "SymlinkSeen",
    {
        "start": Parts,
        "reload without link": Reloaded,
        "after reload without link": Parts,
        "reload with link back": Reloaded,
        "after reload with link back": Parts,
        "error": str | None,
    },
    total=False,
)


@behaviour(
    id="plugins.reload-follows-symlink",
    claim=(
        "A plugin path that is a symlink loads the plugin it points to; once the link is removed a reload "
        "unloads the plugin without an error, and with the link back a reload loads it again. Python has no "
        "reload method: the CLI's reload_plugins control request is sent through the client's control channel."
    ),
    summary="A symlinked plugin path loads its target, and reloads follow the link going and back",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "link-loads-target",
        "reload-without-link-unloads",
        "reload-without-link-reports-no-error",
        "reload-with-link-back-loads-again",
    ),
    requires=("option:plugins", f"cli>={_RELOAD_CLI}"),
    timeout=120,
)
async def reload_follows_symlink(h: Harness) -> SymlinkSeen:
    real = plugin_folder(h.workdir("plugin"), _PLUGIN, **_PARTS)
    link = real.link(h.workdir("links") / "mounted")
    seen: SymlinkSeen = {}

    async def steps(c: Conversation) -> None:
        seen["start"] = await _turn(c, "one")
        link.unlink()
        seen["reload without link"] = _reply(await c.control({"subtype": "reload_plugins"}))
        seen["after reload without link"] = await _turn(c, "two")
        real.link(link.path)
        seen["reload with link back"] = _reply(await c.control({"subtype": "reload_plugins"}))
        seen["after reload with link back"] = await _turn(c, "three")

    run: CliRun = await h.converse(steps, script=["ok"] * 3, plugins=[link.config])
    seen["error"] = run.error_line
    return seen


@reload_follows_symlink.decide
def _(seen: SymlinkSeen) -> dict[str, Check]:
    start, gone, back = seen["start"], seen["after reload without link"], seen["after reload with link back"]
    r1, r2 = seen["reload without link"], seen["reload with link back"]
    return {
        "link-loads-target": check(_has_all(start), f"through the link, init showed {start}"),
        "reload-without-link-unloads": check(
            r1["subtype"] == "success" and _has_none(gone),
            f"reload without the link answered {r1['subtype']} ({r1['error']!r}); the next init showed {gone}",
        ),
        "reload-without-link-reports-no-error": check(
            r1["subtype"] == "success" and not r1["error_count"],
            f"reload without the link answered {r1['subtype']} ({r1['error']!r}) with error_count {r1['error_count']}",
        ),
        "reload-with-link-back-loads-again": check(
            r2["subtype"] == "success" and _has_all(back),
            f"reload with the link back answered {r2['subtype']} ({r2['error']!r}); the next init showed {back}",
        ),
    }


reload_follows_symlink.differs_on(
    {
        "start": _NOTHING,
        "reload without link": {"subtype": "error", "error": "plugin path not found", "error_count": 1},
        "after reload without link": _ALL,
        "reload with link back": {"subtype": "success", "error": None, "error_count": 0},
        "after reload with link back": _NOTHING,
        "error": None,
    }
)


# ---------------------------------------------------------------------------------------

# each turn's Parts and each reload's answer, built step by step (so no key is required)
RereadSeen = TypedDict(
    "RereadSeen",
    {
        "start": Parts,
        "reload emptied": Reloaded,
        "after reload emptied": Parts,
        "reload refilled": Reloaded,
        "after reload refilled": Parts,
        "reload adding a new path": Reloaded,
        "after reload adding a new path": Parts,
        "error": str | None,
    },
    total=False,
)


@behaviour(
    id="plugins.reload-rereads-start-folders",
    claim=(
        "A reload re-reads the plugin folders the session started with: an emptied folder loses its skills, "
        "commands and agents, refilled it gets them back; a plugin path the session did not start with cannot "
        "be added by a reload. Python has no reload method: the CLI's reload_plugins control request is sent "
        "through the client's control channel (the add attempt names the new path in its add_plugins field)."
    ),
    summary="A reload re-reads the start-up plugin folders but cannot add a new plugin path",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=("emptied-folder-loses-parts", "refilled-folder-gets-them-back", "reload-cannot-add-new-path"),
    requires=("option:plugins", f"cli>={_RELOAD_CLI}"),
    timeout=120,
)
async def reload_rereads_start_folders(h: Harness) -> RereadSeen:
    folder = plugin_folder(h.workdir("plugin"), _PLUGIN, **_PARTS)
    seen: RereadSeen = {}

    async def steps(c: Conversation) -> None:
        seen["start"] = await _turn(c, "one")
        folder.clear()
        seen["reload emptied"] = _reply(await c.control({"subtype": "reload_plugins"}))
        seen["after reload emptied"] = await _turn(c, "two")
        plugin_folder(folder.path, _PLUGIN, **_PARTS)
        seen["reload refilled"] = _reply(await c.control({"subtype": "reload_plugins"}))
        seen["after reload refilled"] = await _turn(c, "three")
        extra = plugin_folder(h.workdir("extra"), "extra", **_PARTS)
        seen["reload adding a new path"] = _reply(
            await c.control({"subtype": "reload_plugins", "add_plugins": [extra.config]})
        )
        seen["after reload adding a new path"] = await _turn(c, "four")

    run = await h.converse(steps, script=["ok"] * 4, plugins=[folder.config])
    seen["error"] = run.error_line
    return seen


@reload_rereads_start_folders.decide
def _(seen: RereadSeen) -> dict[str, Check]:
    empty, full, added = (
        seen["after reload emptied"],
        seen["after reload refilled"],
        seen["after reload adding a new path"],
    )
    r1, r2, r3 = seen["reload emptied"], seen["reload refilled"], seen["reload adding a new path"]
    extra = sorted({n for key in ("skills", "commands", "agents") for n in added[key] if n.startswith("extra:")})
    return {
        "emptied-folder-loses-parts": check(
            _has_all(seen["start"]) and r1["subtype"] == "success" and _has_none(empty),
            f"at start {seen['start']}; reload of the emptied folder answered {r1['subtype']} ({r1['error']!r}), "
            f"the next init showed {empty}",
        ),
        "refilled-folder-gets-them-back": check(
            r2["subtype"] == "success" and _has_all(full),
            f"reload of the refilled folder answered {r2['subtype']} ({r2['error']!r}); the next init showed {full}",
        ),
        "reload-cannot-add-new-path": check(
            not extra and "extra" not in added["plugins"],
            f"a reload naming a new plugin path in add_plugins answered {r3['subtype']} ({r3['error']!r}) and the "
            f"next init showed plugins {added['plugins']} with {extra}",
        ),
    }


reload_rereads_start_folders.differs_on(
    {
        "start": _ALL,
        "reload emptied": {"subtype": "success", "error": None, "error_count": 0},
        "after reload emptied": _ALL,
        "reload refilled": {"subtype": "error", "error": "busy", "error_count": None},
        "after reload refilled": _NOTHING,
        "reload adding a new path": {"subtype": "success", "error": None, "error_count": 0},
        "after reload adding a new path": {
            "plugins": ["extra", _PLUGIN],
            "skills": ["extra:sk", "probe:sk"],
            "commands": ["extra:hello", "extra:sk", "probe:hello", "probe:sk"],
            "agents": ["extra:rev", "probe:rev"],
        },
        "error": None,
    }
)
