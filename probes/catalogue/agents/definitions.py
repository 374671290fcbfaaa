"""Subagent definitions: what the SDK sends of an AgentDefinition, what the types allow, and what
the CLI checks of it."""

from __future__ import annotations

import dataclasses
import types
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.agents.support import (
    PRESET,
    BashRun,
    agent_call,
    agent_result,
    bash_run,
    first_sentence,
    sent_agents,
    subagent_runs_bash,
    subclassed,
    task_texts,
)
from sdkprobe.harness import (
    MAIN,
    SUBAGENT,
    Harness,
    Script,
    lacks,
    reply,
    result_text,
    sdk_class,
    typed_keys,
)

# --- what a definition may carry, and where it travels -------------------------------


def _tool_fields() -> list[str]:
    """AgentDefinition's fields about tools, as the SDK under test declares them."""
    return sorted(k for k in typed_keys("AgentDefinition") or [] if "tools" in k.lower())


def _definition_class() -> Any:
    """The SDK under test's own AgentDefinition class, which checks the keywords it is built
    with (the Python SDK's dataclass); None where a definition is a plain object the host
    writes as JSON (the TypeScript SDK declares a type, no class), which nothing checks at run time."""
    return sdk_class("AgentDefinition")


NoAllowSeen = TypedDict(
    "NoAllowSeen",
    {
        "tool_fields": list[str],
        "allowedTools=": str,  # "accepted" or "TypeError"; "no class" where a definition is a plain object
        "top-level allowed_tools=[Bash]": BashRun,
        "no allow rule": BashRun,
    },
)


@behaviour(
    id="agents.no-allowed-tools-field",
    claim=(
        "An AgentDefinition has no allowedTools: only tools (what exists) and disallowedTools, so a "
        "subagent carries no approval list of its own and its tool calls are approved by the top level."
    ),
    summary="An AgentDefinition has no allowedTools; the top level approves a subagent's calls",
    source=("003", "The part nobody has written up: the subagent level"),
    tier="cli",
    checks=("definition-lacks-allowed-tools", "bash-call-from-subagent", "approval-from-top-level"),
    controls=("bash-call-from-subagent",),
    requires=("option:tools", "option:agents", "option:allowed_tools", "option:can_use_tool"),
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
    timeout=90,
)
async def no_allowed_tools_field(h: Harness) -> NoAllowSeen:
    definition = _definition_class()
    keyword = "no class"  # a plain object: what its type admits is agents.ts-compiler-catches-misuse's
    if definition is not None:
        try:
            definition(description="d", prompt="p", allowedTools=["Bash"])
            keyword = "accepted"
        except TypeError:
            keyword = "TypeError"
    # A subagent limited to Bash runs it, once with Bash pre-approved at the top level and
    # once without: the difference is what the top-level rule does inside the subagent.
    runner = {"description": "runs commands", "prompt": "You run commands.", "tools": ["Bash"]}
    return {
        "tool_fields": _tool_fields(),
        "allowedTools=": keyword,
        "top-level allowed_tools=[Bash]": await subagent_runs_bash(
            h, runner, "allowed.txt", origin=True, allowed_tools=["Bash"]
        ),
        "no allow rule": await subagent_runs_bash(h, runner, "unruled.txt", origin=True),
    }


@no_allowed_tools_field.decide
def _(seen: NoAllowSeen) -> dict[str, Check]:
    allowed, control = seen["top-level allowed_tools=[Bash]"], seen["no allow rule"]
    approved = allowed["bash_ran"] and "Bash" not in allowed["can_use_tool_asked"]
    prompted = "Bash" in control["can_use_tool_asked"] or not control["bash_ran"]
    return {
        "definition-lacks-allowed-tools": check(
            "allowedTools" not in seen["tool_fields"] and seen["allowedTools="] in ("TypeError", "no class"),
            f"AgentDefinition's tool fields are {seen['tool_fields']}; allowedTools= was {seen['allowedTools=']}",
        ),
        # the Bash call was the subagent's: its tool_result went back in the subagent's own
        # conversation (the double's routing), in both runs
        "bash-call-from-subagent": check(
            all(v.get("bash_result_came_back_on") == [SUBAGENT] for v in (allowed, control)),
            f"the Bash call's tool_result came back on {allowed.get('bash_result_came_back_on')} with the rule, "
            f"on {control.get('bash_result_came_back_on')} without",
        ),
        "approval-from-top-level": check(
            approved and prompted,
            f"with the top-level rule the subagent's Bash ran {allowed['bash_ran']}, can_use_tool asked for "
            f"{allowed['can_use_tool_asked']}; without it ran {control['bash_ran']}, asked for "
            f"{control['can_use_tool_asked']}",
        ),
    }


no_allowed_tools_field.differs_on(
    {
        "tool_fields": ["allowedTools", "disallowedTools", "tools"],
        "allowedTools=": "accepted",
        "top-level allowed_tools=[Bash]": bash_run(["Bash"], True),
        "no allow rule": bash_run(["Bash"], True),
    }
)
no_allowed_tools_field.differs_on(  # the Bash call was the main conversation's, not the subagent's
    {
        "tool_fields": ["disallowedTools", "tools"],
        "allowedTools=": "TypeError",
        "top-level allowed_tools=[Bash]": bash_run([], True, (MAIN,)),
        "no allow rule": bash_run(["Bash"], True, (MAIN,)),
    }
)


InitializeSeen = TypedDict(
    "InitializeSeen",
    {"initialize.agents": Any, "--agents": str | None, "argv_mentions_definition": bool},
)


@behaviour(
    id="agents.definitions-sent-in-initialize",
    claim=(
        "Subagent definitions are not put on the CLI's command line; they travel as JSON in the "
        "initialize control request on stdin."
    ),
    summary="Subagent definitions travel in the initialize request on stdin, not as flags",
    source=("003", "What the SDK does not catch"),
    tier="wire",
    checks=("not-sent-as-flag", "sent-in-initialize"),
    requires=("option:agents",),
    sdk_ref="claude_agent_sdk._internal.query.Query.initialize",
    pins={"not-sent-as-flag": ("option:agents",), "sent-in-initialize": ("option:agents",)},
)
async def definitions_sent_in_initialize(h: Harness) -> InitializeSeen:
    prompt = "You review code (definition marker 8812)."
    run = await h.wire(agents={"reviewer": {"description": "reviews", "prompt": prompt, "tools": ["Read"]}})
    return {
        "initialize.agents": (run.initialize or {}).get("agents"),
        "--agents": run.flag("--agents"),
        "argv_mentions_definition": any("8812" in a for a in run.argv),
    }


@definitions_sent_in_initialize.decide
def _(seen: InitializeSeen) -> dict[str, Check]:
    sent = (seen["initialize.agents"] or {}).get("reviewer") or {}
    return {
        "not-sent-as-flag": check(
            seen["--agents"] is None and not seen["argv_mentions_definition"],
            f"--agents was {seen['--agents']!r}",
        ),
        "sent-in-initialize": check(
            sent.get("description") == "reviews" and "8812" in str(sent.get("prompt")),
            f"initialize carried agents {seen['initialize.agents']!r}",
        ),
    }


definitions_sent_in_initialize.differs_on(
    {"initialize.agents": None, "--agents": '{"reviewer": {}}', "argv_mentions_definition": True}
)

# case: (the key written into a definition, its value); each goes through every route
_WRITTEN: dict[str, tuple[str, Any]] = {
    "unknown-field-forwarded": ("allowedTools", ["Bash"]),
    "preset-shape-forwarded": ("tools", PRESET),
    "typo-forwarded": ("toolz", ["Read"]),
}


class SentAs(TypedDict, total=False):
    """What became of one way of writing a definition (_send): raised, or sent and warned of."""

    raised: str  # where it raised; alone when it did
    sent: Any  # the definition as the CLI got it; written when nothing raised
    warnings: int  # how many warnings spoke of it; written with sent


@behaviour(
    id="agents.definition-fields-unvalidated",
    claim=(
        "The SDK forwards agent definitions as written, without checking them: an unknown field "
        "(allowedTools), a shape the types forbid (tools as the preset object) and a typo (toolz) all "
        "reach the CLI, with no error, warning or stripping."
    ),
    summary="Agent definitions reach the CLI as written, unknown fields and typos unchecked",
    source=("003", "What the SDK does not catch"),
    tier="wire",
    checks=tuple(_WRITTEN),
    requires=("option:agents",),
    sdk_ref="claude_agent_sdk._internal.client.InternalClient.process_query",
)
async def definition_fields_unvalidated(h: Harness) -> dict[str, dict[str, SentAs]]:
    definition = _definition_class()
    # case -> route ("keyword", "mapping", and for an unknown key "attribute", "subclass field") -> its fate;
    # where a definition is a plain object, the one route: an "object literal", the dict as written
    seen: dict[str, dict[str, SentAs]] = {}
    for case, (key, value) in _WRITTEN.items():
        if definition is None:
            literal = {"description": "d", "prompt": "p", key: value}
            seen[case] = {"object literal": await _send(h, lambda literal=literal: literal, key)}
            continue
        known = key in {f.name for f in dataclasses.fields(definition)}
        routes: dict[str, Any] = {
            # written as a keyword: what the typed API offers
            "keyword": lambda key=key, value=value: definition(description="d", prompt="p", **{key: value}),
            # a mapping as read from JSON or YAML (not a dict, which the harness would convert)
            "mapping": lambda key=key, value=value: types.MappingProxyType(
                {"description": "d", "prompt": "p", key: value}
            ),
        }
        if not known:
            routes["attribute"] = lambda key=key, value=value: _with_attribute(definition, key, value)
            routes["subclass field"] = lambda key=key, value=value: subclassed(definition, key, value)
        seen[case] = {route: await _send(h, make, key) for route, make in routes.items()}
    return seen


def _with_attribute(cls: Any, key: str, value: Any) -> Any:
    agent = cls(description="d", prompt="p")
    setattr(agent, key, value)
    return agent


async def _send(h: Harness, make: Any, key: str) -> SentAs:
    """What became of one way of writing a definition: raised where, or what was sent and
    how many warnings spoke of it (old SDKs also warn of unclosed streams on every run)."""
    try:
        agent = make()
    except TypeError:
        return {"raised": "TypeError at construction"}
    run = await h.wire(agents={"x": agent})
    if run.exception is not None:
        return {"raised": f"{type(run.exception).__name__} in the SDK"}
    about = [w for w in run.warnings if key in w or "agent" in w.lower()]
    return {"sent": (sent_agents(run) or {}).get("x"), "warnings": len(about)}


@definition_fields_unvalidated.decide
def _(seen: dict[str, dict[str, SentAs]]) -> dict[str, Check]:
    checks = {}
    for case, (key, value) in _WRITTEN.items():
        written = {"description": "d", "prompt": "p", key: value}
        routes = seen[case]
        verbatim = [
            r
            for r in ("keyword", "mapping", "object literal")
            if r in routes and routes[r].get("sent") == written and not routes[r].get("warnings")
        ]
        checks[case] = check(bool(verbatim), f"{key}: " + "; ".join(_fate(r, v, key) for r, v in routes.items()))
    return checks


def _fate(route: str, v: SentAs, key: str) -> str:
    if "raised" in v:
        return f"{route}: {v['raised']}"
    sent = v.get("sent") or {}
    fate = f"{route}: sent {key}={sent[key]!r}" if key in sent else f"{route}: {key} silently dropped"
    return fate + (f" with {v['warnings']} warning(s)" if v.get("warnings") else "")


definition_fields_unvalidated.differs_on(
    {
        case: {"keyword": {"raised": "TypeError at construction"}, "mapping": {"raised": "TypeError in the SDK"}}
        for case in _WRITTEN
    }
)
# a plain-object SDK that strips what its type does not declare
definition_fields_unvalidated.differs_on(
    {case: {"object literal": {"sent": {"description": "d", "prompt": "p"}, "warnings": 0}} for case in _WRITTEN}
)


PresetTopSeen = TypedDict("PresetTopSeen", {"--tools": str | None, "agent x tools sent": Any})


@behaviour(
    id="agents.tools-preset-translated-only-top-level",
    claim=(
        "The tools preset object is translated only at the top level: as the tools option it becomes "
        "--tools default, as an AgentDefinition's tools it is forwarded as the raw object."
    ),
    summary="The tools preset becomes --tools default at the top level, stays raw in an agent",
    source=("003", "What the SDK does not catch"),
    tier="wire",
    checks=("top-level-preset-sent-as-default", "agent-preset-sent-raw"),
    requires=("option:tools", "option:agents"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
)
async def tools_preset_translated_only_top_level(h: Harness) -> PresetTopSeen:
    run = await h.wire(tools=PRESET, agents={"x": {"description": "d", "prompt": "p", "tools": PRESET}})
    return {
        "--tools": run.flag("--tools"),
        "agent x tools sent": ((sent_agents(run) or {}).get("x") or {}).get("tools"),
    }


@tools_preset_translated_only_top_level.decide
def _(seen: PresetTopSeen) -> dict[str, Check]:
    agent = seen["agent x tools sent"]
    return {
        "top-level-preset-sent-as-default": check(seen["--tools"] == "default", f"--tools was {seen['--tools']!r}"),
        "agent-preset-sent-raw": check(agent == PRESET, f"the agent's tools were sent as {agent!r}"),
    }


tools_preset_translated_only_top_level.differs_on({"--tools": None, "agent x tools sent": "default"})


class PresetAgentRun(TypedDict):
    listed: bool  # "p" among init's agents
    subagent_offered: list[str] | None  # None: no subagent request
    agent_tool_error: str | None
    task_errors: list[str]


UnknownFieldSeen = TypedDict(
    "UnknownFieldSeen",
    {
        "allowedTools=[Bash] in the definition": BashRun,
        "same definition without it": BashRun,
        "tools=<preset> in the definition": PresetAgentRun,  # recorded, not judged
    },
)


@behaviour(
    id="agents.unknown-fields-ignored-by-cli",
    claim=(
        "The CLI ignores an allowedTools key inside a subagent definition: it neither fails on it nor "
        "auto-approves the listed tools for that subagent."
    ),
    summary="The CLI ignores allowedTools in a subagent definition: no failure, no approval",
    source=("003", "What the SDK does not catch"),
    tier="cli",
    checks=("definition-accepted", "allowed-tools-has-no-effect"),
    requires=("option:tools", "option:agents", "option:can_use_tool"),
    timeout=90,
)
async def unknown_fields_ignored_by_cli(h: Harness) -> UnknownFieldSeen:
    definition = _definition_class()
    runner = {"description": "runs commands", "prompt": "You run commands.", "tools": ["Bash"]}
    if definition is None:  # a plain object: the key written beside the others
        with_field: Any = {**runner, "allowedTools": ["Bash"]}
        plain: Any = dict(runner)
        preset_agent: Any = {"description": "preset tools", "prompt": "You help.", "tools": PRESET}
    else:
        # Only a dataclass subclass gets an extra field past the SDK (see definition-fields-unvalidated).
        with_field = subclassed(definition, "allowedTools", ["Bash"])
        with_field.description, with_field.prompt, with_field.tools = runner["description"], runner["prompt"], ["Bash"]
        plain = definition(**runner)
        preset_agent = definition(description="preset tools", prompt="You help.", tools=PRESET)
    with_run = await subagent_runs_bash(h, with_field, "with-field.txt")
    plain_run = await subagent_runs_bash(h, plain, "without-field.txt")
    # Recorded, not judged: what the CLI makes of the preset object as an agent's tools.
    preset = await h.cli(
        "delegate",
        script=Script(main=[reply(agent_call("p")), "main done"], subagent=["p done"]),
        tools=["Read", "Bash", "Task"],
        agents={"p": preset_agent},
    )
    block, sub = agent_result(preset), preset.on(SUBAGENT)
    return {
        "allowedTools=[Bash] in the definition": with_run,
        "same definition without it": plain_run,
        "tools=<preset> in the definition": {
            "listed": "p" in (preset.init.get("agents") or []),
            "subagent_offered": sorted(sub[0].offered_tools) if sub else None,
            "agent_tool_error": first_sentence(result_text(block)) if block and block.get("is_error") else None,
            "task_errors": sorted({first_sentence(text) for _, text in task_texts(preset) if "p done" not in text}),
        },
    }


@unknown_fields_ignored_by_cli.decide
def _(seen: UnknownFieldSeen) -> dict[str, Check]:
    extra, plain = seen["allowedTools=[Bash] in the definition"], seen["same definition without it"]

    def outcome(v: BashRun) -> str:
        return f"can_use_tool asked for {v['can_use_tool_asked']}, Bash ran {v['bash_ran']}"

    return {
        "definition-accepted": check(
            extra["runner_listed"] and extra["error"] is None and extra["subagent_requests"] > 0,
            f"the agent with allowedTools: listed in init {extra['runner_listed']}, error {extra['error']!r}, "
            f"{extra['subagent_requests']} subagent request(s)",
        ),
        "allowed-tools-has-no-effect": check(
            outcome(extra) == outcome(plain),
            f"with allowedTools in the definition {outcome(extra)}; without it {outcome(plain)}",
        ),
    }


unknown_fields_ignored_by_cli.differs_on(
    {
        "allowedTools=[Bash] in the definition": {
            **bash_run([], True),
            "runner_listed": False,
            "subagent_requests": 0,
        },
        "same definition without it": bash_run(["Bash"], True),
        "tools=<preset> in the definition": {
            "listed": False,
            "subagent_offered": None,
            "agent_tool_error": None,
            "task_errors": [],
        },
    }
)


# The misuse as a user writes it, one definition a line; a wrongly typed description on the
# last line must fail too, showing AgentDefinition is the SDK's checked type, not `any`.
_MISUSE = """import type { AgentDefinition } from "@anthropic-ai/claude-agent-sdk";
const approving: AgentDefinition = { description: "d", prompt: "p", allowedTools: ["Bash"] };
const preset: AgentDefinition = { description: "d", prompt: "p", tools: { type: "preset", preset: "claude_code" } };
const typed: AgentDefinition = { description: 1, prompt: "p" };
"""
_MISUSE_LINES = {"allowedTools": 2, "tools preset": 3, "typed": 4}


class _Raised(TypedDict):
    raised: str | None  # "TypeError", or None: accepted


class Raised(_Raised, total=False):
    suggests: bool  # the error names disallowedTools; written when it raised


# tsc's verdict on a TypeScript SDK, the Python analogues on the Python SDK: one or the other
MisuseSeen = TypedDict(
    "MisuseSeen",
    {
        "tsc --strict": dict[str, list[dict[str, Any]]],  # a key of _MISUSE_LINES -> tsc's diagnostics on its line
        "AgentDefinition(allowedTools=...)": Raised,
        "AgentDefinition.tools declared as": str,
        "AgentDefinition(tools=<preset>) at runtime": str,  # "accepted" or "TypeError"
    },
    total=False,
)


@behaviour(
    id="agents.ts-compiler-catches-misuse",
    claim=(
        "With strict on, tsc rejects allowedTools on an AgentDefinition (TS2561, suggesting disallowedTools, "
        "the opposite intent) and the tools preset object on AgentDefinition.tools (TS2353). The Python "
        "analogues: building an AgentDefinition with allowedTools fails, and its declared type for tools "
        "admits no preset object, so a type checker flags it."
    ),
    summary="Type checks reject allowedTools and the tools preset on an AgentDefinition",
    source=("003", "What TypeScript catches"),
    tier="wire",
    checks=(
        "tsc-rejects-allowed-tools",
        "tsc-rejects-preset-on-agent-tools",
        "python-rejects-allowed-tools",
        "python-types-reject-preset-on-agent-tools",
    ),
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
    # the Python analogues stand in for the compiler's verdict; they never decide the claim
    controls=("python-rejects-allowed-tools", "python-types-reject-preset-on-agent-tools"),
)
async def ts_compiler_catches_misuse(h: Harness) -> MisuseSeen:
    # On a TypeScript SDK the compiler itself is asked (h.type_check); on the Python SDK no
    # compiler runs, so the tsc sub-checks stay not-applicable and only the Python analogues
    # are observed, as controls: the verdict is not-applicable unless one of them differs.
    said = await h.type_check(_MISUSE)
    if said is not None:
        stray = [d for d in said if d["line"] not in _MISUSE_LINES.values()]
        if stray or not any(d["line"] == _MISUSE_LINES["typed"] for d in said):
            # the module did not check against the SDK's own AgentDefinition: no finding either way
            raise RuntimeError(f"tsc could not check the module against the SDK's types: {said}")
        return {"tsc --strict": {name: [d for d in said if d["line"] == at] for name, at in _MISUSE_LINES.items()}}
    from claude_agent_sdk import AgentDefinition

    seen: MisuseSeen = {}
    try:
        AgentDefinition(description="d", prompt="p", allowedTools=["Bash"])  # type: ignore[call-arg]
        seen["AgentDefinition(allowedTools=...)"] = {"raised": None}
    except TypeError as exc:
        # Whether the error points at disallowedTools, as TS2561's "did you mean" does.
        seen["AgentDefinition(allowedTools=...)"] = {"raised": "TypeError", "suggests": "disallowedTools" in str(exc)}
    declared = {f.name: f.type for f in dataclasses.fields(AgentDefinition)}.get("tools")
    seen["AgentDefinition.tools declared as"] = declared if isinstance(declared, str) else repr(declared)
    try:
        AgentDefinition(description="d", prompt="p", tools=PRESET)  # type: ignore[arg-type]
        seen["AgentDefinition(tools=<preset>) at runtime"] = "accepted"
    except TypeError:
        seen["AgentDefinition(tools=<preset>) at runtime"] = "TypeError"
    return seen


@ts_compiler_catches_misuse.decide
def _(seen: MisuseSeen) -> dict[str, Check]:
    if "tsc --strict" in seen:
        said = seen["tsc --strict"]
        analogue = undecidable("the Python analogue; the TypeScript SDK is under test and its compiler was asked")
        allowed, preset = said["allowedTools"], said["tools preset"]
        return {
            "tsc-rejects-allowed-tools": check(
                any(d["code"] == "TS2561" and "disallowedTools" in d["message"] for d in allowed),
                f"tsc --strict said of allowedTools on an AgentDefinition: {allowed or 'nothing'}",
            ),
            "tsc-rejects-preset-on-agent-tools": check(
                any(d["code"] == "TS2353" for d in preset),
                f"tsc --strict said of the tools preset on an AgentDefinition: {preset or 'nothing'}",
            ),
            "python-rejects-allowed-tools": analogue,
            "python-types-reject-preset-on-agent-tools": analogue,
        }
    raised, declared = seen["AgentDefinition(allowedTools=...)"], seen["AgentDefinition.tools declared as"]
    no_tsc = undecidable("a TypeScript compiler check; nothing runs tsc against the Python SDK")
    admits_preset = any(word in declared for word in ("dict", "Dict", "Mapping", "Preset", "Any", "object"))
    return {
        "tsc-rejects-allowed-tools": no_tsc,
        "tsc-rejects-preset-on-agent-tools": no_tsc,
        "python-rejects-allowed-tools": check(
            raised["raised"] == "TypeError", "AgentDefinition(allowedTools=['Bash']) was accepted"
        ),
        "python-types-reject-preset-on-agent-tools": check(
            not admits_preset, f"AgentDefinition.tools is declared {declared!r}, which admits the preset object"
        ),
    }


ts_compiler_catches_misuse.differs_on(
    {
        "AgentDefinition(allowedTools=...)": {"raised": None},
        "AgentDefinition.tools declared as": "list[str] | ToolsPreset | None",
        "AgentDefinition(tools=<preset>) at runtime": "accepted",
    }
)
# the compiler's own verdict: allowedTools accepted, the preset refused under another code
ts_compiler_catches_misuse.differs_on(
    {
        "tsc --strict": {
            "allowedTools": [],
            "tools preset": [{"line": 3, "column": 82, "code": "TS2322", "message": "Type '{...}' is not assignable"}],
            "typed": [{"line": 4, "column": 42, "code": "TS2322", "message": "Type 'number' is not assignable"}],
        }
    }
)

# sub-check: (the AgentDefinition field, the value given, the key it travels under)
_FIELDS: dict[str, tuple[str, Any, str]] = {
    "description-sent": ("description", "reviews code", "description"),
    "prompt-sent": ("prompt", "You review code.", "prompt"),
    "tools-sent": ("tools", ["Read", "Grep"], "tools"),
    "skills-sent": ("skills", ["probe-skill"], "skills"),
    "memory-sent": ("memory", "project", "memory"),
    "mcp-servers-sent": ("mcpServers", ["probe-server", {"inline": {"command": "probe-mcp"}}], "mcpServers"),
    "initial-prompt-sent": ("initialPrompt", "Start by listing files.", "initialPrompt"),
    "effort-sent": ("effort", "high", "effort"),
    "permission-mode-sent": ("permissionMode", "plan", "permissionMode"),
    "disallowed-tools-sent": ("disallowedTools", ["Bash"], "disallowedTools"),
    "model-sent": ("model", "haiku", "model"),
    "max-turns-sent": ("maxTurns", 3, "maxTurns"),
    "background-sent": ("background", True, "background"),
}


def _agent_fields() -> set[str]:
    """The _FIELDS the SDK under test's own AgentDefinition has (asked while the probe runs)."""
    return {field for field, _, _ in _FIELDS.values() if lacks(f"field:AgentDefinition.{field}") is None}


class FieldsSentSeen(TypedDict):
    fields: list[str]  # the _FIELDS this SDK's AgentDefinition has
    via: str  # "initialize" or "--agents"
    full: dict[str, Any] | None  # the agent given every field, as sent
    bare: dict[str, Any] | None  # the agent given description and prompt only
    error: str | None


@behaviour(
    id="agents.definition-fields-sent",
    claim=(
        "agents={'name': AgentDefinition(...)} reaches the CLI (the initialize request's agents, or --agents JSON on "
        "SDKs that pass it on the command line) with each field under its documented name and value: description, "
        "prompt, tools, disallowedTools, model, skills, memory, mcpServers (names and inline {name: config} "
        "entries), initialPrompt, maxTurns, background, effort and permissionMode; a field left None is left out."
    ),
    summary="Each AgentDefinition field reaches the CLI under its camelCase name; None ones left out",
    source=("sdk-py", "AgentDefinition"),
    tier="wire",
    checks=(*_FIELDS, "none-fields-left-out"),
    requires=("option:agents", "api:AgentDefinition"),
    pins={name: (f"agent:{field}",) for name, (field, _, _) in _FIELDS.items()},
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
)
async def definition_fields_sent(h: Harness) -> FieldsSentSeen:
    from sdkprobe.harness import AgentDefinition

    fields = _agent_fields()
    given = {field: value for field, value, _ in _FIELDS.values() if field in fields}
    run = await h.wire(
        agents={"full": AgentDefinition(**given), "bare": AgentDefinition(description="bare", prompt="You are bare.")}
    )
    sent = sent_agents(run)
    return {
        "fields": sorted(fields & {field for field, _, _ in _FIELDS.values()}),
        "via": "initialize" if isinstance((run.initialize or {}).get("agents"), dict) else "--agents",
        "full": (sent or {}).get("full"),
        "bare": (sent or {}).get("bare"),
        "error": run.error_line,
    }


@definition_fields_sent.decide
def _(seen: FieldsSentSeen) -> dict[str, Check]:
    full, bare = seen["full"], seen["bare"]
    where = f"(sent in {seen['via']}" + (f"; error {seen['error']})" if seen["error"] else ")")
    checks: dict[str, Check] = {}
    for name, (field, value, key) in _FIELDS.items():
        if field not in seen["fields"]:
            checks[name] = undecidable(f"this SDK's AgentDefinition has no field {field!r}")
            continue
        got = "no agent" if full is None else full.get(key, "absent")
        checks[name] = check(got == value, f"{field}={value!r} reached the CLI as {key}={got!r} {where}")
    checks["none-fields-left-out"] = check(
        bare == {"description": "bare", "prompt": "You are bare."},
        f"an agent with only description and prompt reached the CLI as {bare!r} {where}",
    )
    return checks


definition_fields_sent.differs_on(
    {
        "fields": sorted(field for field, _, _ in _FIELDS.values()),
        "via": "initialize",
        "full": {
            "description": "reviews code",
            "prompt": "You review code.",
            "tools": "Read,Grep",
            "skills": [],
            "mcp_servers": ["probe-server", {"inline": {"command": "probe-mcp"}}],
            "initial_prompt": "Start by listing files.",
            "effort": "medium",
            "permission_mode": "plan",
        },
        "bare": {"description": "bare", "prompt": "You are bare.", "tools": None, "model": None},
        "error": None,
    }
)
_ALL_SENT = {key: value for _, value, key in _FIELDS.values()}
# background no longer sent (the CLI would run the agent as it does by default: nothing else shows it)
definition_fields_sent.differs_on(
    {
        "fields": sorted(field for field, _, _ in _FIELDS.values()),
        "via": "initialize",
        "full": {k: v for k, v in _ALL_SENT.items() if k != "background"},
        "bare": {"description": "bare", "prompt": "You are bare."},
        "error": None,
    }
)
definition_fields_sent.differs_on(
    {
        "fields": sorted(field for field, _, _ in _FIELDS.values()),
        "via": "--agents",
        "full": None,
        "bare": None,
        "error": "x",
    }
)


# --- agents.ts-definition-fields-sent ------------------------------------------------------

# sub-check: (a field only the TypeScript SDK's AgentDefinition has, the value given)
_TS_FIELDS: dict[str, tuple[str, Any]] = {
    "auto-compact-window-sent": ("autoCompactWindow", 48000),
    "critical-system-reminder-sent": ("criticalSystemReminder_EXPERIMENTAL", "Probe reminder: stay in docs/."),
    "observer-sent": ("observer", "probe-observer"),
    "observer-message-sent": ("observerMessage", "Probe postamble for the observer."),
    "omit-claude-md-sent": ("omitClaudeMd", True),
}
_TS_BASE = {"description": "watched agent", "prompt": "You are watched."}


class TsFieldsSeen(TypedDict):
    lacking: dict[str, str]  # field -> why the release's AgentDefinition lacks it (not given then)
    sent: dict[str, Any] | None  # the agent given every field the release declares, as the CLI got it
    error: str | None


@behaviour(
    id="agents.ts-definition-fields-sent",
    claim=(
        "The TypeScript SDK's own AgentDefinition fields (autoCompactWindow, criticalSystemReminder_EXPERIMENTAL, "
        "observer, observerMessage, omitClaudeMd) reach the CLI in the initialize request's agents under their "
        "names, with the values given."
    ),
    summary="Each TypeScript-only AgentDefinition field reaches the CLI as given",
    source=("sdk-ts", "AgentDefinition"),
    tier="wire",
    checks=tuple(_TS_FIELDS),
    requires=("option:agents", "field:AgentDefinition.observer"),  # the Python SDK's has none of them
    pins={name: (f"agent:{field}",) for name, (field, _) in _TS_FIELDS.items()},
)
async def ts_definition_fields_sent(h: Harness) -> TsFieldsSeen:
    lacking: dict[str, str] = {}
    given = dict(_TS_BASE)
    for field, value in _TS_FIELDS.values():
        why = lacks(f"field:AgentDefinition.{field}")
        if why is None:
            given[field] = value
        else:
            lacking[field] = why
    run = await h.wire(agents={"watched": given})
    return {"lacking": lacking, "sent": (sent_agents(run) or {}).get("watched"), "error": run.error_line}


@ts_definition_fields_sent.decide
def _(seen: TsFieldsSeen) -> dict[str, Check]:
    sent = seen["sent"]
    error = f" (the run raised {seen['error']})" if seen["error"] else ""
    checks: dict[str, Check] = {}
    for name, (field, value) in _TS_FIELDS.items():
        if field in seen["lacking"]:
            checks[name] = undecidable(seen["lacking"][field])
            continue
        got = "no agent" if sent is None else sent.get(field, "absent")
        checks[name] = check(got == value and not error, f"{field}={value!r} reached the CLI as {got!r}{error}")
    return checks


_TS_ALL_SENT = {**_TS_BASE, **dict(_TS_FIELDS.values())}
# a release whose definition schema strips the fields it does not know of (these, newer than its CLI table)
ts_definition_fields_sent.differs_on({"lacking": {}, "sent": dict(_TS_BASE), "error": None})
# a release that sends the observer fields snake_cased and omitClaudeMd only when false
ts_definition_fields_sent.differs_on(
    {
        "lacking": {},
        "sent": {
            **{k: v for k, v in _TS_ALL_SENT.items() if k not in ("observer", "observerMessage", "omitClaudeMd")},
            "observer_message": "Probe postamble for the observer.",
        },
        "error": None,
    }
)
