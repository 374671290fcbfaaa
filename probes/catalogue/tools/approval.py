"""Which offered tool calls are approved without asking can_use_tool, and whether the SDK's warning
about it tells the truth."""

from __future__ import annotations

from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.tools.support import SESSIONS_CEILING, first_result, mem_server
from sdkprobe.harness import (
    CliRun,
    Harness,
    OptionMissing,
    WireRun,
    allow_every_tool,
    reply,
    tool_use,
)


async def _call_plain_under(h: Harness, rule: str) -> tuple[list[str], bool]:
    """One scripted call of `mcp__mem__plain` with allowed_tools=[rule] beside an allow-all
    can_use_tool: the tools the CLI asked the callback about, and whether the tool ran."""
    calls: list[dict[str, Any]] = []
    run = await h.cli(
        "call it",
        script=[reply(tool_use("mcp__mem__plain", {})), "done"],
        client=True,  # in-process servers and can_use_tool need streaming mode on old SDKs
        mcp_servers={"mem": mem_server(calls)},
        allowed_tools=[rule],
        can_use_tool=allow_every_tool,
    )
    return [c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"], bool(calls)


# One call's fate: whom can_use_tool was asked about, and whether the call ran.
Asked = TypedDict("Asked", {"can_use_tool asked for": list[str], "ran": bool})


class Refused(Asked):
    tool_result: dict[str, Any]  # the call's tool_result in the next request (first_result)


async def _touch_with_callback(h: Harness, case: str, **options: Any) -> tuple[CliRun, Asked]:
    """One session whose model calls Bash to `touch` a marker (not a read-only command,
    so nothing approves it on its own), with an allow-all can_use_tool: the run, and
    whom can_use_tool was asked about and whether the command ran."""
    marker = h.cwd / f"marker-{case}"
    run = await h.cli(
        "run it",
        script=[reply(tool_use("Bash", {"command": f"touch {marker}", "description": "touch"})), "done"],
        client=True,  # old SDKs take can_use_tool only in streaming mode
        can_use_tool=allow_every_tool,
        **options,
    )
    asked = [c["tool"] for c in run.callbacks if c["kind"] == "can_use_tool"]
    return run, {"can_use_tool asked for": asked, "ran": marker.exists()}


_SHADOW_WARNING = "CanUseToolShadowedWarning: "


def _shadow_warnings(run: WireRun) -> list[str]:
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
    timeout=SESSIONS_CEILING,
)
async def disallowed_beats_can_use_tool(h: Harness) -> dict[str, Refused]:
    seen: dict[str, Refused] = {}
    for case, extra in _DISALLOWED_VARIANTS.items():
        run, asked = await _touch_with_callback(h, case, disallowed_tools=["Bash"], **extra)
        seen[case] = {**asked, "tool_result": first_result(run)}
    return seen


@disallowed_beats_can_use_tool.decide
def _(seen: dict[str, Refused]) -> dict[str, Check]:
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
    timeout=SESSIONS_CEILING,
    pins={"tools-list-skips-callback": ("option:tools",)},
)
async def allowlisted_builtin_skips_can_use_tool(h: Harness) -> dict[str, Asked]:
    return {case: (await _touch_with_callback(h, case, **extra))[1] for case, extra in _ALLOWLIST_VARIANTS.items()}


@allowlisted_builtin_skips_can_use_tool.decide
def _(seen: dict[str, Asked]) -> dict[str, Check]:
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


# sub-check -> the shadowing warnings given (None: this SDK lacks one of the case's options)
ShadowSeen = TypedDict("ShadowSeen", {"shadowing warnings": dict[str, list[str] | None]})


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
async def can_use_tool_shadowed_warning(h: Harness) -> ShadowSeen:
    seen: dict[str, list[str] | None] = {}
    for case, (options, _) in _SHADOW_CASES.items():
        try:
            run: WireRun = await h.wire("hi", client=True, can_use_tool=allow_every_tool, **options)
        except OptionMissing:  # skills= is newer than can_use_tool
            seen[case] = None
            continue
        seen[case] = _shadow_warnings(run)
    return {"shadowing warnings": seen}


@can_use_tool_shadowed_warning.decide
def _(seen: ShadowSeen) -> dict[str, Check]:
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


StarSeen = TypedDict(
    "StarSeen", {"SDK warned": list[str], "CLI asked can_use_tool for": list[str], "MCP tool ran": bool}
)


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
async def mcp_star_warning_matches_cli(h: Harness) -> StarSeen:
    wire = await h.wire("hi", client=True, can_use_tool=allow_every_tool, allowed_tools=[_MCP_STAR])
    asked, ran = await _call_plain_under(h, _MCP_STAR)
    return {"SDK warned": _shadow_warnings(wire), "CLI asked can_use_tool for": asked, "MCP tool ran": ran}


@mcp_star_warning_matches_cli.decide
def _(seen: StarSeen) -> dict[str, Check]:
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
    timeout=SESSIONS_CEILING,
)
async def mcp_star_wildcard_invalid(h: Harness) -> dict[str, Asked]:
    seen: dict[str, Asked] = {}
    for rule, _ in _MCP_RULES.values():
        asked, ran = await _call_plain_under(h, rule)
        seen[rule] = {"can_use_tool asked for": asked, "ran": ran}
    return seen


@mcp_star_wildcard_invalid.decide
def _(seen: dict[str, Asked]) -> dict[str, Check]:
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
