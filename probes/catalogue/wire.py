"""Area `wire`: what the SDK puts on the CLI's command line, in initialize and its environment."""

from __future__ import annotations

from typing import Any

from probes.behaviour import Check, behaviour, check
from probes.harness import Harness

_TOOLS_SHAPES: dict[str, tuple[Any, str | None]] = {
    # sub-check: (the tools option, or None to leave it out; the --tools value claimed)
    "omitted-sends-no-flag": (None, None),
    "list-sent-comma-joined": (["Bash", "Read"], "Bash,Read"),
    "empty-list-sent-empty": ([], ""),
    "preset-sent-as-default": ({"type": "preset", "preset": "claude_code"}, "default"),
}


@behaviour(
    id="wire.tools-option-to-flag",
    claim=(
        "The tools option becomes --tools: omitted sends no flag, a list sends the names "
        "joined by commas, an empty list sends an empty value, the claude_code preset sends 'default'."
    ),
    source=("003", "What each shape actually sends"),
    tier="wire",
    checks=tuple(_TOOLS_SHAPES),
    requires=("option:tools",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
)
async def tools_option_to_flag(h: Harness) -> dict[str, Any]:
    sent = {}
    for name, (tools, _) in _TOOLS_SHAPES.items():
        run = await h.wire(**({} if tools is None else {"tools": tools}))
        sent[name] = run.flag("--tools")
    return {"--tools": sent}


@tools_option_to_flag.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    sent = seen["--tools"]
    return {
        name: check(sent[name] == claimed, f"--tools was {_shown(sent[name])}, not {_shown(claimed)}")
        for name, (_, claimed) in _TOOLS_SHAPES.items()
    }


def _shown(value: str | None) -> str:
    return "absent" if value is None else repr(value)


tools_option_to_flag.differs_on(
    {
        "--tools": {
            "omitted-sends-no-flag": "",
            "list-sent-comma-joined": "Bash Read",
            "empty-list-sent-empty": None,
            "preset-sent-as-default": "claude_code",
        }
    }
)


# flag: (the value its option is given, the kebab-case alias the CLI also accepts)
_CAMEL_FLAGS: dict[str, tuple[list[str], str]] = {
    "--allowedTools": (["Read", "mcp__*"], "--allowed-tools"),
    "--disallowedTools": (["TodoWrite"], "--disallowed-tools"),
}


@behaviour(
    id="wire.allowed-tools-flag-spelling",
    claim=(
        "The SDK writes tool approval lists as --allowedTools and --disallowedTools only, never as the "
        "kebab-case aliases --allowed-tools and --disallowed-tools that the CLI also accepts."
    ),
    source=("003", "What each shape actually sends"),
    tier="wire",
    checks=("allowed-tools-camel-case-only", "disallowed-tools-camel-case-only"),
    requires=("option:allowed_tools", "option:disallowed_tools"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
)
async def allowed_tools_flag_spelling(h: Harness) -> dict[str, Any]:
    run = await h.wire(
        allowed_tools=_CAMEL_FLAGS["--allowedTools"][0], disallowed_tools=_CAMEL_FLAGS["--disallowedTools"][0]
    )
    # flag_spelling tells `--x v` from `--x=v`; both spellings of each flag are looked for.
    return {flag: run.flag_spelling(flag) for camel, (_, kebab) in _CAMEL_FLAGS.items() for flag in (camel, kebab)}


@allowed_tools_flag_spelling.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for camel, (value, kebab) in _CAMEL_FLAGS.items():
        expected = f"{camel} {','.join(value)}"
        checks[f"{camel.lstrip('-').replace('Tools', '-tools')}-camel-case-only"] = check(
            seen[camel] == expected and seen[kebab] is None,
            f"{camel} was written {_shown(seen[camel])}, {kebab} {_shown(seen[kebab])}",
        )
    return checks


allowed_tools_flag_spelling.differs_on(
    {
        "--allowedTools": None,
        "--allowed-tools": "--allowed-tools Read,mcp__*",
        "--disallowedTools": "--disallowedTools=TodoWrite",
        "--disallowed-tools": None,
    }
)
