"""Area `tools`, the --tools flag as the CLI defines it: the cli half of wire.tools-option-to-flag.

The wire behaviour shows what the SDK sends for each shape of `tools`; whether '' means no
built-in tools, 'default' all of them, and the preset the same as leaving the option out,
is the CLI's to say: in its own help, and in what it then offers the model.
"""

from __future__ import annotations

import re
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import Harness

# An option starts near the left margin; its description (which may name other flags) is indented far.
_OPTION_LINE = re.compile(r"^\s{1,6}-")


def _help_entry(help_text: str, flag: str) -> str | None:
    """The help text of one option (its line and the indented lines that continue it), one line."""
    lines = help_text.splitlines()
    for i, line in enumerate(lines):
        if re.match(rf"^\s{{1,6}}(?:-\w, )?{re.escape(flag)}[ ,<]", line + " "):
            entry = [line]
            for more in lines[i + 1 :]:
                if not more.strip() or _OPTION_LINE.match(more):
                    break
                entry.append(more)
            return " ".join(" ".join(entry).split())
    return None


@behaviour(
    id="tools.tools-flag-as-help-defines",
    claim=(
        "The CLI's own help defines --tools '' as no built-in tools and 'default' as the default set; the "
        "CLI offers the model none for '' (tools=[]), and the same tools for the preset (--tools default) "
        "as when the tools option is left out (no flag)."
    ),
    summary="--tools '' offers no built-ins, and --tools default the same set as no flag",
    source=("003", "What each shape actually sends"),
    tier="cli",
    checks=("help-defines-empty-and-default", "empty-offers-no-tools", "preset-same-as-omitted"),
    requires=("option:tools",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=120,
    pins={"empty-offers-no-tools": ("option:tools",)},
)
async def tools_flag_as_help_defines(h: Harness) -> dict[str, Any]:
    entry = _help_entry(await h.cli_output("--help"), "--tools")
    omitted = (await h.session("hi", script=["ok"])).offered_tools
    preset = (await h.session("hi", script=["ok"], tools={"type": "preset", "preset": "claude_code"})).offered_tools
    empty = await h.session("hi", script=["ok"], tools=[])
    # the offered lists move with every CLI release: keep how the two differ, not the lists
    return {
        "--tools help": entry,
        "tools omitted offers": len(omitted),
        "offered only with tools omitted": sorted(set(omitted) - set(preset)),
        "offered only with the preset": sorted(set(preset) - set(omitted)),
        "tools=[] offers": sorted(empty.offered_tools),
        "tools=[] sent a request": bool(empty.requests),
    }


@tools_flag_as_help_defines.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    entry = seen["--tools help"] or ""
    only_omitted, only_preset = seen["offered only with tools omitted"], seen["offered only with the preset"]
    return {
        "help-defines-empty-and-default": check(
            '""' in entry and "default" in entry,
            f"the CLI's help for --tools: {seen['--tools help']!r}",
        ),
        "empty-offers-no-tools": check(
            seen["tools=[] sent a request"] and not seen["tools=[] offers"],
            f"with tools=[] (--tools '') the model was offered {seen['tools=[] offers']} "
            f"(a request sent: {seen['tools=[] sent a request']})",
        ),
        "preset-same-as-omitted": check(
            seen["tools omitted offers"] > 0 and not only_omitted and not only_preset,
            f"{seen['tools omitted offers']} tools offered with tools omitted; only there: {only_omitted}; "
            f"only with the preset: {only_preset}",
        ),
    }


tools_flag_as_help_defines.differs_on(
    {
        "--tools help": "--tools <tools...> Specify the list of available tools",
        "tools omitted offers": 20,
        "offered only with tools omitted": ["Task"],
        "offered only with the preset": [],
        "tools=[] offers": ["Bash"],
        "tools=[] sent a request": True,
    }
)
