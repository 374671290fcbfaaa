"""Area `agents`, topic contract: what an AgentDefinition sends the CLI, field by field.

`agents={"name": AgentDefinition(...)}` reaches the CLI in the initialize request's `agents`
(older SDKs: the JSON value of --agents); each field travels under its documented camelCase
name with its value, and a field left None is left out. A field an SDK version's
AgentDefinition lacks leaves only its own sub-check not-applicable there.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.agents_support import sent_agents
from sdkprobe.harness import Harness

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
_REQUIRED = ("description", "prompt")  # the fields every listed AgentDefinition has, and requires


def _agent_fields() -> set[str]:
    """The fields of the SDK's own AgentDefinition (read while the probe runs)."""
    import dataclasses

    from claude_agent_sdk import AgentDefinition

    return {f.name for f in dataclasses.fields(AgentDefinition)}


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
async def definition_fields_sent(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import AgentDefinition

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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
