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
