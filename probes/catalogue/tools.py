"""Area `tools`: which tools the CLI offers the model, and what the options change."""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from collections.abc import Sequence
from typing import Any

import claude_agent_sdk as sdk

from sdkprobe.behaviour import Check, behaviour, check, needs_live, undecidable
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Harness,
    McpTool,
    OptionMissing,
    Reply,
    WireCapture,
    allow_every_tool,
    plugin_folder,
    reply,
    result_text,
    stdio_mcp_server,
    tool_use,
)

# The built-in tools the claim names; the rest of the offered list moves with every CLI
# release and says nothing about the claim, so it is not kept.
_WATCHED = ("Bash", "Edit", "Read", "Write")


@behaviour(
    id="tools.allowed-tools-does-not-restrict",
    claim=(
        "allowed_tools only pre-approves tools and removes none from the model's view; "
        "the tools option is what decides which built-in tools exist."
    ),
    summary="allowed_tools only pre-approves; the tools option decides which built-ins exist",
    security="a host that reads allowed_tools as a whitelist believes tools are blocked that the model can use",
    source=("003", "Quick answer"),
    tier="cli",
    checks=("allowed-tools-keeps-others", "tools-narrows-to-read"),
    requires=("option:tools", "option:allowed_tools"),
    pins={
        "allowed-tools-keeps-others": ("option:allowed_tools",),
        "tools-narrows-to-read": ("option:tools",),
    },
)
async def allowed_tools_does_not_restrict(h: Harness) -> dict[str, Any]:
    allowed = await h.session("hi", allowed_tools=["Read"])
    narrowed = await h.session("hi", tools=["Read"])
    return {
        "allowed_tools=[Read] offers": [t for t in _WATCHED if t in allowed.offered_tools],
        "tools=[Read] offers": sorted(narrowed.offered_tools),
    }


@allowed_tools_does_not_restrict.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    allowed, narrowed = seen["allowed_tools=[Read] offers"], seen["tools=[Read] offers"]
    return {
        "allowed-tools-keeps-others": check(
            list(_WATCHED) == allowed, f"with allowed_tools=[Read] the model was offered only {allowed} of {_WATCHED}"
        ),
        "tools-narrows-to-read": check(narrowed == ["Read"], f"with tools=[Read] the model was offered {narrowed}"),
    }


allowed_tools_does_not_restrict.differs_on(
    {"allowed_tools=[Read] offers": ["Read"], "tools=[Read] offers": ["Bash", "Read"]}
)


# --- shared by the blocks below ---------------------------------------------------------

# Old CLIs (2.1.1) take seconds per session. A probe below that this takes past the default
# 60 s is given _ONE_SESSION_CEILING when it runs one session, _SESSIONS_CEILING when it
# runs one per case.
_ONE_SESSION_CEILING = 90
_SESSIONS_CEILING = 150


def _mem_server(calls: list[dict[str, Any]]) -> Any:
    """In-process server `mem` with one tool, `plain`, whose every call is appended to `calls`."""

    @sdk.tool("plain", "A plain tool of the probe's in-process server.", {"type": "object", "properties": {}})
    async def plain(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(dict(args))
        return {"content": [{"type": "text", "text": "plain ran"}]}

    return sdk.create_sdk_mcp_server("mem", tools=[plain])


async def _call_plain_under(h: Harness, rule: str) -> tuple[list[str], bool]:
    """One scripted call of `mcp__mem__plain` with allowed_tools=[rule] beside an allow-all
    can_use_tool: the tools the CLI asked the callback about, and whether the tool ran."""
    calls: list[dict[str, Any]] = []
    run = await h.session(
        "call it",
        script=[reply(tool_use("mcp__mem__plain", {})), "done"],
        client=True,  # in-process servers and can_use_tool need streaming mode on old SDKs
        mcp_servers={"mem": _mem_server(calls)},
        allowed_tools=[rule],
        can_use_tool=allow_every_tool,
    )
    return [c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"], bool(calls)


def _second_results(run: CliRun) -> list[dict[str, Any]]:
    """The tool_result blocks the main conversation sent back after the scripted tool_use."""
    main = run.on(MAIN)
    return main[1].tool_results if len(main) > 1 else []


def _first_result(run: CliRun) -> dict[str, Any]:
    """The one tool_result after a scripted call: is_error and its text ({} if none came back)."""
    results = _second_results(run)
    if not results:
        return {}
    return {"is_error": bool(results[0].get("is_error")), "text": result_text(results[0])}


async def _touch_with_callback(h: Harness, case: str, **options: Any) -> tuple[CliRun, dict[str, Any]]:
    """One session whose model calls Bash to `touch` a marker (not a read-only command,
    so nothing approves it on its own), with an allow-all can_use_tool: the run, and
    whom can_use_tool was asked about and whether the command ran."""
    marker = h.cwd / f"marker-{case}"
    run = await h.session(
        "run it",
        script=[reply(tool_use("Bash", {"command": f"touch {marker}", "description": "touch"})), "done"],
        client=True,  # old SDKs take can_use_tool only in streaming mode
        can_use_tool=allow_every_tool,
        **options,
    )
    asked = [c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"]
    return run, {"can_use_tool asked for": asked, "ran": marker.exists()}


_SHADOW_WARNING = "CanUseToolShadowedWarning: "


def _shadow_warnings(run: WireCapture) -> list[str]:
    """The shadowing warnings' first sentences, which say what is shadowed (the advice after is prose)."""
    return [w[len(_SHADOW_WARNING) :].split(". ")[0] for w in run.warnings if w.startswith(_SHADOW_WARNING)]


# --- tools.disallowed-beats-can-use-tool ------------------------------------------------

_DISALLOWED_VARIANTS: dict[str, dict[str, Any]] = {
    # sub-check: options beside disallowed_tools=["Bash"] and a recording can_use_tool
    "disallowed-alone": {},
    "despite-allow-rule": {"allowed_tools": ["Bash"]},
    # The CLI refuses bypassPermissions as root unless it is told it runs in a sandbox.
    "despite-bypass-mode": {
        "allowed_tools": ["Bash"],
        "permission_mode": "bypassPermissions",
        "env": {"IS_SANDBOX": "1"},
    },
}


@behaviour(
    id="tools.disallowed-beats-can-use-tool",
    claim=(
        "A tool named in disallowed_tools is never handed to can_use_tool and never runs, "
        "even when an allow rule or bypassPermissions would let it through."
    ),
    summary="A disallowed tool never reaches can_use_tool and never runs, whatever allows it",
    security="if can_use_tool's allow could override disallowed_tools, a tool the host forbade would run",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=tuple(_DISALLOWED_VARIANTS),
    requires=("option:disallowed_tools", "option:can_use_tool", "option:permission_mode"),
    timeout=_SESSIONS_CEILING,
)
async def disallowed_beats_can_use_tool(h: Harness) -> dict[str, Any]:
    seen = {}
    for case, extra in _DISALLOWED_VARIANTS.items():
        run, seen[case] = await _touch_with_callback(h, case, disallowed_tools=["Bash"], **extra)
        seen[case]["tool_result"] = _first_result(run)
    return seen


@disallowed_beats_can_use_tool.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for case in _DISALLOWED_VARIANTS:
        r = seen[case]
        ok = not r["can_use_tool asked for"] and not r["ran"] and r["tool_result"].get("is_error") is True
        checks[case] = check(
            ok,
            f"can_use_tool asked for {r['can_use_tool asked for']}, the command ran: {r['ran']}, "
            f"tool_result {r['tool_result'] or 'none'}",
        )
    return checks


disallowed_beats_can_use_tool.differs_on(
    {
        case: {"can_use_tool asked for": ["Bash"], "ran": True, "tool_result": {"is_error": False, "text": ""}}
        for case in _DISALLOWED_VARIANTS
    }
)


# --- tools.allowlisted-builtin-skips-can-use-tool ---------------------------------------

_ALLOWLIST_VARIANTS: dict[str, dict[str, Any]] = {
    # sub-check: options; the callback should stay silent in the first two, be asked in the last
    "allow-rule-skips-callback": {"allowed_tools": ["Bash"]},
    "tools-list-skips-callback": {"tools": ["Bash", "Read"]},
    "unlisted-tool-asks-callback": {},
}


@behaviour(
    id="tools.allowlisted-builtin-skips-can-use-tool",
    claim=(
        "A built-in tool named in tools or allowed_tools is approved before can_use_tool is "
        "consulted, so the callback never sees its calls; a tool in neither reaches the callback."
    ),
    summary="A built-in named in tools or allowed_tools is approved without asking can_use_tool",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=tuple(_ALLOWLIST_VARIANTS),
    requires=("option:tools", "option:allowed_tools", "option:can_use_tool"),
    timeout=_SESSIONS_CEILING,
    pins={"tools-list-skips-callback": ("option:tools",)},
)
async def allowlisted_builtin_skips_can_use_tool(h: Harness) -> dict[str, Any]:
    return {case: (await _touch_with_callback(h, case, **extra))[1] for case, extra in _ALLOWLIST_VARIANTS.items()}


@allowlisted_builtin_skips_can_use_tool.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for case in _ALLOWLIST_VARIANTS:
        asked, ran = seen[case]["can_use_tool asked for"], seen[case]["ran"]
        want_asked = case == "unlisted-tool-asks-callback"
        ok = ran and (asked == ["Bash"] if want_asked else not asked)
        checks[case] = check(ok, f"can_use_tool asked for {asked}, the command ran: {ran}")
    return checks


allowlisted_builtin_skips_can_use_tool.differs_on(
    {
        "allow-rule-skips-callback": {"can_use_tool asked for": ["Bash"], "ran": True},
        "tools-list-skips-callback": {"can_use_tool asked for": ["Bash"], "ran": True},
        "unlisted-tool-asks-callback": {"can_use_tool asked for": [], "ran": True},
    }
)


# --- tools.can-use-tool-shadowed-warning ------------------------------------------------

_SHADOW_CASES: dict[str, tuple[dict[str, Any], bool]] = {
    # sub-check: (options beside can_use_tool, whether a shadowing warning is the right answer)
    "whole-tool-rule-warns": ({"allowed_tools": ["Read"]}, True),
    "lone-wildcard-rule-warns": ({"allowed_tools": ["Read(*)"]}, True),
    "scoped-rule-silent": ({"allowed_tools": ["Bash(ls:*)"]}, False),
    "server-wildcard-warns": ({"allowed_tools": ["mcp__srv__*"]}, True),
    # `mcp__*` is not here: whether it shadows the callback is the CLI's to say, so the
    # warning is checked against what the CLI does in tools.mcp-star-warning-matches-cli.
    "skills-all-warns": ({"skills": "all"}, True),
    "bypass-mode-warns": ({"permission_mode": "bypassPermissions"}, True),
}


@behaviour(
    id="tools.can-use-tool-shadowed-warning",
    claim=(
        "The SDK warns (CanUseToolShadowedWarning in Python, CLAUDE_SDK_CAN_USE_TOOL_SHADOWED in "
        "TypeScript) when an allow rule, skills='all' or bypassPermissions keeps can_use_tool from "
        "being asked, and stays silent for rules that only allow some calls."
    ),
    summary="The SDK warns when a rule or mode keeps can_use_tool from being asked, and only then",
    source=("000", "Tools and permissions"),
    tier="wire",
    checks=tuple(_SHADOW_CASES),
    requires=("option:can_use_tool", "option:allowed_tools", "option:permission_mode"),
    sdk_ref="claude_agent_sdk.types._warn_if_can_use_tool_shadowed",
)
async def can_use_tool_shadowed_warning(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for case, (options, _) in _SHADOW_CASES.items():
        try:
            run: WireCapture = await h.wire("hi", client=True, can_use_tool=allow_every_tool, **options)
        except OptionMissing:  # skills= is newer than can_use_tool
            seen[case] = None
            continue
        seen[case] = _shadow_warnings(run)
    return {"shadowing warnings": seen}


@can_use_tool_shadowed_warning.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    warned = seen["shadowing warnings"]
    checks: dict[str, Check] = {}
    for case, (options, should_warn) in _SHADOW_CASES.items():
        got = warned[case]
        if got is None:
            checks[case] = undecidable(f"ClaudeAgentOptions has no {', '.join(options)}")
        else:
            checks[case] = check(bool(got) == should_warn, f"with {options} the warnings were {got or 'none'}")
    return checks


can_use_tool_shadowed_warning.differs_on(
    {"shadowing warnings": {case: ([] if warns else ["x"]) for case, (_, warns) in _SHADOW_CASES.items()}}
)


# --- tools.mcp-star-warning-matches-cli ------------------------------------------------

_MCP_STAR = "mcp__*"


@behaviour(
    id="tools.mcp-star-warning-matches-cli",
    claim=(
        "For allowed_tools=['mcp__*'] the SDK's CanUseToolShadowedWarning tells the truth about the CLI: it "
        "warns that can_use_tool will not be asked exactly when the CLI then runs an MCP tool without asking it."
    ),
    summary="For allowed_tools=['mcp__*'] the shadowing warning matches what the CLI then does",
    source=("000", "Tools and permissions"),
    tier="cli",  # the warning is the SDK's (through the fake CLI); whether it is right is the real CLI's
    checks=("mcp-star-warning-matches-cli", "mcp-tool-ran"),
    controls=("mcp-tool-ran",),  # the MCP call went through at all, so the callback had its chance
    requires=("option:can_use_tool", "option:allowed_tools", "option:mcp_servers", "api:create_sdk_mcp_server"),
    timeout=120,
)
async def mcp_star_warning_matches_cli(h: Harness) -> dict[str, Any]:
    wire = await h.wire("hi", client=True, can_use_tool=allow_every_tool, allowed_tools=[_MCP_STAR])
    asked, ran = await _call_plain_under(h, _MCP_STAR)
    return {"SDK warned": _shadow_warnings(wire), "CLI asked can_use_tool for": asked, "MCP tool ran": ran}


@mcp_star_warning_matches_cli.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    warned, asked, ran = seen["SDK warned"], seen["CLI asked can_use_tool for"], seen["MCP tool ran"]
    skipped = ran and "mcp__mem__plain" not in asked
    return {
        "mcp-star-warning-matches-cli": check(
            bool(warned) == skipped,
            f"the SDK warned {warned or 'nothing'}, and the CLI "
            + ("ran the MCP tool without asking can_use_tool" if skipped else f"asked can_use_tool for {asked}"),
        ),
        "mcp-tool-ran": check(ran, f"the scripted MCP call did not run; can_use_tool was asked for {asked}"),
    }


mcp_star_warning_matches_cli.differs_on(
    {
        "SDK warned": ["can_use_tool will not be invoked for: mcp__*"],
        "CLI asked can_use_tool for": [],
        "MCP tool ran": False,
    }
)
mcp_star_warning_matches_cli.differs_on({"SDK warned": [], "CLI asked can_use_tool for": [], "MCP tool ran": True})


# --- tools.mcp-star-wildcard-invalid ----------------------------------------------------

_MCP_RULES: dict[str, tuple[str, bool]] = {
    # sub-check: (the allowed_tools entry, whether can_use_tool should still be asked)
    "mcp-star-asks-callback": ("mcp__*", True),
    "server-wildcard-skips-callback": ("mcp__mem__*", False),
    "server-name-skips-callback": ("mcp__mem", False),
}


@behaviour(
    id="tools.mcp-star-wildcard-invalid",
    claim=(
        "allowed_tools=['mcp__*'] approves no MCP tool (can_use_tool is still asked for "
        "mcp__<server>__<tool>); only per-server entries such as mcp__mem__* or mcp__mem approve them."
    ),
    summary="allowed_tools=['mcp__*'] approves no MCP tool; only per-server entries do",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=tuple(_MCP_RULES),
    requires=("option:allowed_tools", "option:can_use_tool", "option:mcp_servers", "api:create_sdk_mcp_server"),
    timeout=_SESSIONS_CEILING,
)
async def mcp_star_wildcard_invalid(h: Harness) -> dict[str, Any]:
    seen = {}
    for rule, _ in _MCP_RULES.values():
        asked, ran = await _call_plain_under(h, rule)
        seen[rule] = {"can_use_tool asked for": asked, "ran": ran}
    return seen


@mcp_star_wildcard_invalid.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for case, (rule, should_ask) in _MCP_RULES.items():
        asked, ran = seen[rule]["can_use_tool asked for"], seen[rule]["ran"]
        ok = ran and (asked == ["mcp__mem__plain"] if should_ask else not asked)
        checks[case] = check(ok, f"with allowed_tools=[{rule!r}] can_use_tool asked for {asked}, the tool ran: {ran}")
    return checks


mcp_star_wildcard_invalid.differs_on(
    {
        "mcp__*": {"can_use_tool asked for": [], "ran": True},
        "mcp__mem__*": {"can_use_tool asked for": ["mcp__mem__plain"], "ran": True},
        "mcp__mem": {"can_use_tool asked for": ["mcp__mem__plain"], "ran": True},
    }
)


# --- tools.skill-must-be-listed-in-tools ------------------------------------------------

_SKILL_MD = "---\nname: demo\ndescription: Greets the user in Dutch, a probe's demo skill.\n---\nSay hallo.\n"
_SKILL_DESCRIPTION = "Greets the user in Dutch"
_SKILL_CONFIGS: dict[str, dict[str, Any]] = {
    "tools=[Read, Bash]": {"tools": ["Read", "Bash"]},
    "tools=[Read, Bash, Skill]": {"tools": ["Read", "Bash", "Skill"]},
    "tools=[Read], skills=all": {"tools": ["Read"], "skills": "all"},
}


@behaviour(
    id="tools.skill-must-be-listed-in-tools",
    claim=(
        "With an explicit tools list the Skill tool (and the skill listing) is offered only when the "
        "list names Skill, although the skills are loaded; skills='all' does not add it. Without it "
        "a model looks for SKILL.md files by hand."
    ),
    summary="With an explicit tools list, Skill is offered only when the list names it",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=(
        "unlisted-skill-tool-absent",
        "listed-skill-tool-offered",
        "skills-option-does-not-add-it",
        "model-hunts-skill-md",
    ),
    cannot_decide=("model-hunts-skill-md",),
    requires=("option:tools", "option:setting_sources"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=_SESSIONS_CEILING,
)
async def skill_must_be_listed_in_tools(h: Harness) -> dict[str, Any]:
    skill = h.cwd / ".claude" / "skills" / "demo"
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(_SKILL_MD, encoding="utf-8")
    seen: dict[str, Any] = {}
    for config, options in _SKILL_CONFIGS.items():
        try:
            run = await h.session("hi", setting_sources=["project"], **options)
        except OptionMissing:  # skills= is newer than tools=
            seen[config] = None
            continue
        main = run.on(MAIN)
        # Newer CLIs list skills in a context message, older ones in the Skill tool's description.
        body = main[0].body if main else {}
        seen[config] = {
            "Skill offered": "Skill" in run.offered_tools,
            "demo listed": _SKILL_DESCRIPTION in json.dumps(body),
            "demo loaded": "demo" in (run.init.get("skills") or []),
        }
    return seen


@skill_must_be_listed_in_tools.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    unlisted, listed, skills_all = (seen[c] for c in _SKILL_CONFIGS)
    return {
        "unlisted-skill-tool-absent": check(
            unlisted["demo loaded"] and not unlisted["Skill offered"] and not unlisted["demo listed"],
            f"with tools=[Read, Bash]: {unlisted}",
        ),
        "listed-skill-tool-offered": check(
            listed["Skill offered"] and listed["demo listed"], f"with tools=[Read, Bash, Skill]: {listed}"
        ),
        "skills-option-does-not-add-it": (
            undecidable("ClaudeAgentOptions has no skills")
            if skills_all is None
            else check(not skills_all["Skill offered"], f"with tools=[Read] and skills='all': {skills_all}")
        ),
        "model-hunts-skill-md": needs_live("whether a model then reads SKILL.md by hand is the model's choice"),
    }


skill_must_be_listed_in_tools.differs_on(
    {
        "tools=[Read, Bash]": {"Skill offered": True, "demo listed": True, "demo loaded": True},
        "tools=[Read, Bash, Skill]": {"Skill offered": False, "demo listed": False, "demo loaded": True},
        "tools=[Read], skills=all": {"Skill offered": True, "demo listed": True, "demo loaded": True},
    }
)


# --- tools.in-process-record-schema-drops-server ----------------------------------------

# What zod's z.record(z.string()) turns into, as a JSON Schema property (the Python analogue).
_RECORD = {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {"type": "string"}}
_SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
_RECORD_SERVERS = {
    # sub-check: (server name, whether the tool schema carries a top-level $schema)
    "record-property-drops-tools": ("rec", False),
    "record-with-schema-uri-drops-tools": ("recs", True),
}


def _record_server(name: str, with_uri: bool, calls: list[dict[str, Any]]) -> Any:
    """In-process server with a record-shaped tool `tag` and a plain tool `plain`."""
    schema: dict[str, Any] = {"type": "object", "properties": {"labels": _RECORD}, "required": ["labels"]}
    if with_uri:
        schema["$schema"] = _SCHEMA_URI

    @sdk.tool("tag", "Tags something with string labels.", schema)
    async def tag(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(dict(args))
        return {"content": [{"type": "text", "text": "tagged"}]}

    @sdk.tool("plain", "A plain tool beside it.", {"type": "object", "properties": {}})
    async def plain(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "plain ran"}]}

    return sdk.create_sdk_mcp_server(name, tools=[tag, plain])


@behaviour(
    id="tools.in-process-record-schema-drops-server",
    claim=(
        "A zod z.record() in an in-process tool's schema makes the TypeScript SDK drop every tool of "
        "that server while it shows as connected; the Python analogue is a record-shaped JSON Schema "
        "property (with or without a $schema URI), which would leave the server's tools unoffered."
    ),
    summary="A record-shaped schema in one in-process tool leaves all its server's tools unoffered",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=("zod-record-drops-server", *_RECORD_SERVERS),
    cannot_decide=("zod-record-drops-server",),
    requires=("option:mcp_servers", "api:create_sdk_mcp_server"),
    sdk_ref="claude_agent_sdk.create_sdk_mcp_server",
    timeout=_ONE_SESSION_CEILING,
)
async def in_process_record_schema_drops_server(h: Harness) -> dict[str, Any]:
    calls: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in _RECORD_SERVERS.values()}
    run = await h.session(
        "tag it",
        script=[reply(*(tool_use(f"mcp__{name}__tag", {"labels": {"k": "v"}}) for name in calls)), "done"],
        client=True,
        mcp_servers={name: _record_server(name, uri, calls[name]) for name, uri in _RECORD_SERVERS.values()},
        allowed_tools=[f"mcp__{name}" for name in calls],
        env={"ENABLE_TOOL_SEARCH": "false"},  # every tool in the request's tools, none deferred
    )
    status = {s.get("name"): s.get("status") for s in run.init.get("mcp_servers") or []}
    seen = {}
    for name in calls:
        prefix = f"mcp__{name}__"
        seen[name] = {
            "status": status.get(name),
            "offered": sorted(t[len(prefix) :] for t in run.offered_tools if t.startswith(prefix)),
            "tag called with": calls[name],
        }
    return seen


@in_process_record_schema_drops_server.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks: dict[str, Check] = {
        "zod-record-drops-server": undecidable("zod schemas exist only in the TypeScript SDK"),
    }
    for case, (name, _) in _RECORD_SERVERS.items():
        s = seen[name]
        checks[case] = check(
            s["status"] == "connected" and not s["offered"],
            f"server {name!r} was {s['status']!r} and offered {s['offered']}",
        )
    return checks


in_process_record_schema_drops_server.differs_on(
    {
        name: {"status": "connected", "offered": ["plain", "tag"], "tag called with": [{"labels": {"k": "v"}}]}
        for name, _ in _RECORD_SERVERS.values()
    }
)


# --- tools.disallowed-removes-builtin-not-mcp -------------------------------------------


def _where(run: CliRun, name: str) -> str:
    """Where the first main request carries a tool: in `tools`, only named as deferred, or absent."""
    main = run.on(MAIN)
    if not main:
        return "no request"
    if name in main[0].loaded_tools:
        return "tools"
    return "deferred" if name in main[0].deferred_tools else "absent"


@behaviour(
    id="tools.disallowed-removes-builtin-not-mcp",
    claim=(
        "disallowed_tools takes a built-in tool (Bash) out of the API request, but a disallowed "
        "in-process MCP tool keeps its definition in the request and is only blocked when called; "
        "only not registering its server removes it."
    ),
    summary="disallowed_tools drops a built-in from the request, but only blocks an MCP tool's calls",
    security="a host that disallows a tool by name relies on it being gone from what the model is offered",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=("builtin-leaves-request", "mcp-definition-still-sent", "mcp-call-blocked"),
    requires=("option:disallowed_tools", "option:mcp_servers", "api:create_sdk_mcp_server"),
    timeout=_SESSIONS_CEILING,
)
async def disallowed_removes_builtin_not_mcp(h: Harness) -> dict[str, Any]:
    watched = ("Bash", "mcp__mem__plain")
    baseline = await h.session("hi", client=True, mcp_servers={"mem": _mem_server([])})
    seen: dict[str, Any] = {"baseline": {t: _where(baseline, t) for t in watched}}
    calls: list[dict[str, Any]] = []
    for search in ("tool search on", "tool search off"):
        run = await h.session(
            "call it",
            script=[reply(tool_use("mcp__mem__plain", {})), "done"],
            client=True,
            mcp_servers={"mem": _mem_server(calls)},
            disallowed_tools=list(watched),
            env={} if search == "tool search on" else {"ENABLE_TOOL_SEARCH": "false"},
        )
        seen[f"disallowed, {search}"] = {t: _where(run, t) for t in watched}
        if search == "tool search on":
            seen["calling the disallowed MCP tool"] = {**_first_result(run), "handler ran": bool(calls)}
    return seen


@disallowed_removes_builtin_not_mcp.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    base = seen["baseline"]
    disallowed = {k: v for k, v in seen.items() if k.startswith("disallowed")}
    call = seen["calling the disallowed MCP tool"]
    bash = {k: v["Bash"] for k, v in disallowed.items()}
    mcp = {k: v["mcp__mem__plain"] for k, v in disallowed.items()}
    return {
        "builtin-leaves-request": check(
            base["Bash"] != "absent" and all(w == "absent" for w in bash.values()),
            f"Bash was in {base['Bash']!r} by default; disallowed: {bash}",
        ),
        "mcp-definition-still-sent": check(
            base["mcp__mem__plain"] != "absent" and all(w != "absent" for w in mcp.values()),
            f"mcp__mem__plain was in {base['mcp__mem__plain']!r} by default; disallowed: {mcp}",
        ),
        "mcp-call-blocked": check(
            call.get("is_error") is True and not call["handler ran"],
            f"the call returned {call.get('text')!r} (is_error {call.get('is_error')}), handler ran: "
            f"{call['handler ran']}",
        ),
    }


disallowed_removes_builtin_not_mcp.differs_on(
    {
        "baseline": {"Bash": "tools", "mcp__mem__plain": "deferred"},
        "disallowed, tool search on": {"Bash": "tools", "mcp__mem__plain": "absent"},
        "disallowed, tool search off": {"Bash": "tools", "mcp__mem__plain": "absent"},
        "calling the disallowed MCP tool": {"is_error": False, "text": "plain ran", "handler ran": True},
    }
)


# --- tools.todowrite-needs-enable-tasks-0 -----------------------------------------------

_TASK_TOOLS = ("TaskCreate", "TaskUpdate", "TaskList", "TaskGet")
_TASKS_OFF = {"CLAUDE_CODE_ENABLE_TASKS": "0"}
_ASKS_TODOS = {"allowed_tools": ["TodoWrite"]}
_NAMES_TODOS = {"tools": ["TodoWrite", "Read"]}
_TODO_CONFIGS: dict[str, dict[str, Any]] = {
    # Recent CLIs offer neither family unless an option names one, so the configs that ask
    # for TodoWrite say so with an allow rule or the tools list.
    "default": {},
    "allowed_tools=[TodoWrite]": _ASKS_TODOS,
    "allowed_tools=[TodoWrite], =0": {**_ASKS_TODOS, "env": _TASKS_OFF},
    "tools=[TodoWrite, Read]": _NAMES_TODOS,
    "tools=[TodoWrite, Read], =0": {**_NAMES_TODOS, **_ASKS_TODOS, "env": _TASKS_OFF},
}
_CALLS_TODOS = "tools=[TodoWrite, Read], =0"  # where TodoWrite should exist: it is called there
_TODOS = {
    "todos": [
        {"content": "Write the probe", "status": "in_progress", "activeForm": "Writing the probe"},
        {"content": "Run the probe", "status": "pending", "activeForm": "Running the probe"},
    ]
}


@behaviour(
    id="tools.todowrite-needs-enable-tasks-0",
    claim=(
        "TodoWrite is offered only with CLAUDE_CODE_ENABLE_TASKS=0; by default the CLI offers "
        "TaskCreate/TaskUpdate/TaskList/TaskGet instead, even when tools names TodoWrite. Each "
        "TodoWrite call carries the whole list {todos:[{content,status,activeForm}]}, and its "
        "result only says the list was saved."
    ),
    summary="TodoWrite is offered only with CLAUDE_CODE_ENABLE_TASKS=0; the Task tools otherwise",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=(
        "todowrite-only-with-tasks-0",
        "task-tools-by-default",
        "call-carries-whole-list",
        "result-only-says-saved",
    ),
    requires=("option:tools", "option:allowed_tools", "option:env"),
    timeout=_SESSIONS_CEILING,
    pins={"task-tools-by-default": ("option:tools",)},
)
async def todowrite_needs_enable_tasks_0(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for config, options in _TODO_CONFIGS.items():
        calls = config == _CALLS_TODOS
        script: list[Reply | str] | None = [reply(tool_use("TodoWrite", _TODOS)), "done"] if calls else None
        run = await h.session("plan it", script=script, **options)
        offered = run.offered_tools
        seen[config] = {"TodoWrite": "TodoWrite" in offered, "task tools": [t for t in _TASK_TOOLS if t in offered]}
        if calls:
            main = run.on(MAIN)
            schema = (main[0].tool_schema("TodoWrite") if main else None) or {}
            item = ((schema.get("properties") or {}).get("todos") or {}).get("items") or {}
            seen["TodoWrite input"] = {
                "required": schema.get("required"),
                "todos item required": sorted(item.get("required") or []),
            }
            seen["TodoWrite result"] = _first_result(run)
    return seen


@todowrite_needs_enable_tasks_0.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    todo = {c: seen[c]["TodoWrite"] for c in _TODO_CONFIGS}
    wanted = {c: c.endswith("=0") for c in _TODO_CONFIGS}
    tasks = {c: seen[c]["task tools"] for c in ("default", "allowed_tools=[TodoWrite]")}
    schema, result = seen["TodoWrite input"], seen["TodoWrite result"]
    text = result.get("text", "")
    return {
        "todowrite-only-with-tasks-0": check(todo == wanted, f"TodoWrite offered: {todo}"),
        "task-tools-by-default": check(
            all(t == list(_TASK_TOOLS) for t in tasks.values()), f"the task tools offered: {tasks}"
        ),
        "call-carries-whole-list": check(
            schema["required"] == ["todos"] and schema["todos item required"] == ["activeForm", "content", "status"],
            f"TodoWrite's input schema requires {schema}",
        ),
        "result-only-says-saved": check(
            result.get("is_error") is False and "Write the probe" not in text and "Run the probe" not in text,
            f"the TodoWrite result was {result or 'none'}",
        ),
    }


todowrite_needs_enable_tasks_0.differs_on(
    {
        **{c: {"TodoWrite": True, "task tools": []} for c in _TODO_CONFIGS},
        "TodoWrite input": {"required": None, "todos item required": []},
        "TodoWrite result": {"is_error": True, "text": "No such tool available: TodoWrite"},
    }
)


# --- tools.read-refuses-docx-pptx -------------------------------------------------------


def _pdf() -> bytes:
    """A one-page PDF saying 'sdkprobe', with a correct cross-reference table."""
    text = b"BT /F1 12 Tf 20 50 Td (sdkprobe) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (n, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _png() -> bytes:
    """A 4x4 red RGB PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 4 for _ in range(4))
    header = struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


_OOXML_NS = "http://schemas.openxmlformats.org"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'


def _ooxml(main_part: str, content_type: str, body: str) -> bytes:
    """A minimal Office Open XML package (a zip): content types, the root relationship, one part."""
    types = (
        f'{_XML}<Types xmlns="{_OOXML_NS}/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/{main_part}" ContentType="{content_type}"/></Types>'
    )
    rels = (
        f'{_XML}<Relationships xmlns="{_OOXML_NS}/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{_OOXML_NS}/officeDocument/2006/relationships/officeDocument" '
        f'Target="{main_part}"/></Relationships>'
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", types), ("_rels/.rels", rels), (main_part, _XML + body)):
            z.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def _docx() -> bytes:
    return _ooxml(
        "word/document.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        f'<w:document xmlns:w="{_OOXML_NS}/wordprocessingml/2006/main">'
        "<w:body><w:p><w:r><w:t>sdkprobe</w:t></w:r></w:p></w:body></w:document>",
    )


def _pptx() -> bytes:
    return _ooxml(
        "ppt/presentation.xml",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
        f'<p:presentation xmlns:p="{_OOXML_NS}/presentationml/2006/main"><p:sldIdLst/></p:presentation>',
    )


_DOCUMENTS = {
    # sub-check: (file name, how to make it, whether Read should refuse it)
    "pdf-read": ("probe.pdf", _pdf, False),
    "png-read": ("probe.png", _png, False),
    "docx-refused": ("probe.docx", _docx, True),
    "pptx-refused": ("probe.pptx", _pptx, True),
}
_BINARY_REFUSAL = "This tool cannot read binary files"


@behaviour(
    id="tools.read-refuses-docx-pptx",
    claim=(
        "The Read tool reads PDFs and images but refuses DOCX and PPTX files with 'This tool cannot read binary files'."
    ),
    summary="Read reads PDFs and images but refuses DOCX and PPTX as binary files",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=tuple(_DOCUMENTS),
    requires=("option:allowed_tools",),
    timeout=_ONE_SESSION_CEILING,
)
async def read_refuses_docx_pptx(h: Harness) -> dict[str, Any]:
    ids = {}
    blocks = []
    for case, (name, make, _) in _DOCUMENTS.items():
        (h.cwd / name).write_bytes(make())
        ids[case] = f"toolu_read_{case.split('-')[0]}"
        blocks.append(tool_use("Read", {"file_path": str(h.cwd / name)}, id=ids[case]))
    run = await h.session("read them", script=[reply(*blocks), "done"], allowed_tools=["Read"])
    main = run.on(MAIN)
    seen = {}
    for case, (name, _, _) in _DOCUMENTS.items():
        block = main[1].tool_result(ids[case]) if len(main) > 1 else None
        content = (block or {}).get("content")
        text = result_text(block)
        seen[name] = {
            "is_error": bool((block or {}).get("is_error")) if block else None,
            # What came back: a string, or the kinds of blocks (text, image, document).
            "content": sorted({c.get("type") for c in content})
            if isinstance(content, list)
            else type(content).__name__,
            "refusal": text[text.find(_BINARY_REFUSAL) :].split(".")[0] if _BINARY_REFUSAL in text else None,
        }
    return seen


@read_refuses_docx_pptx.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for case, (name, _, refused) in _DOCUMENTS.items():
        r = seen[name]
        ok = (
            (r["is_error"] is True and r["refusal"] is not None)
            if refused
            else (r["is_error"] is False and not r["refusal"])
        )
        checks[case] = check(ok, f"{name}: is_error {r['is_error']}, content {r['content']}, refusal {r['refusal']!r}")
    return checks


read_refuses_docx_pptx.differs_on(
    {
        name: {"is_error": True, "content": "str", "refusal": _BINARY_REFUSAL}
        if not refused
        else {"is_error": False, "content": ["text"], "refusal": None}
        for name, _, refused in _DOCUMENTS.values()
    }
)


# --- tools.mcp-tool-naming --------------------------------------------------------------


@behaviour(
    id="tools.mcp-tool-naming",
    claim=(
        "A tool of an MCP server passed in mcp_servers is named mcp__<server>__<tool>, for an "
        "in-process and a stdio server alike, in init.tools, in the API request and in what the CLI "
        "reports about a call of it."
    ),
    summary="An MCP server's tool is named mcp__<server>__<tool> everywhere it appears",
    source=("004", "strictMcpConfig also blocks plugin MCP"),
    tier="cli",
    checks=("in-process-server-name", "stdio-server-name", "reported-call-name"),
    requires=("option:mcp_servers", "option:plugins", "option:hooks", "api:create_sdk_mcp_server", "api:HookMatcher"),
    timeout=_ONE_SESSION_CEILING,
    pins={"in-process-server-name": ("function:create_sdk_mcp_server",)},
)
async def mcp_tool_naming(h: Harness) -> dict[str, Any]:
    disk = stdio_mcp_server(h.workdir("mcp"), "disk", [McpTool("peek", result="peeked")])
    # A plugin's own .mcp.json server, loaded with the plugin: its form is recorded, not judged.
    shelf = stdio_mcp_server(h.workdir("mcp"), "shelf", [McpTool("glance")])
    plugin = plugin_folder(h.workdir("plugin"), "plug", mcp_servers={"shelf": shelf.config})

    async def ran(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    run = await h.session(
        "use them",
        script=[reply(tool_use("mcp__mem__plain", {}), tool_use("mcp__disk__peek", {})), "done"],
        client=True,
        mcp_servers={"mem": _mem_server([]), "disk": disk.config},
        plugins=[plugin.config],
        allowed_tools=["mcp__mem", "mcp__disk"],
        env={"ENABLE_TOOL_SEARCH": "false"},
        # The ToolUseBlock names are the model's own (here the script's); the CLI's PostToolUse
        # input names the tool it ran, which is the name a host sees from the CLI itself.
        hooks={"PostToolUse": [sdk.HookMatcher(hooks=[ran])]},
    )
    ours = ("plain", "peek", "glance")

    def named(names: Sequence[str]) -> list[str]:
        return sorted(n for n in names if n.split("__")[-1] in ours)

    reported = [c["input"] for c in run.callbacks if c["kind"] == "hook" and c["event"] == "PostToolUse"]
    return {
        "init.tools": named(run.init.get("tools") or []),
        "request tools": named(run.offered_tools),
        "PostToolUse tool_name": sorted(str(i.get("tool_name")) for i in reported),
        "results": sorted(result_text(b) for b in _second_results(run)),
    }


@mcp_tool_naming.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    places = {k: seen[k] for k in ("init.tools", "request tools")}

    def everywhere(name: str) -> Check:
        missing = [k for k, names in places.items() if name not in names]
        return check(not missing, f"{name} missing from {missing}: {places}")

    return {
        "in-process-server-name": everywhere("mcp__mem__plain"),
        "stdio-server-name": everywhere("mcp__disk__peek"),
        "reported-call-name": check(
            seen["PostToolUse tool_name"] == ["mcp__disk__peek", "mcp__mem__plain"]
            and seen["results"] == ["peeked", "plain ran"],
            f"the CLI reported calls of {seen['PostToolUse tool_name']}, results {seen['results']}",
        ),
    }


mcp_tool_naming.differs_on(
    {
        "init.tools": ["disk__peek", "mem__plain"],
        "request tools": ["disk__peek", "mem__plain"],
        "PostToolUse tool_name": ["peek", "plain"],
        "results": [],
    }
)
