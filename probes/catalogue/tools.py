"""Area `tools`: which tools the CLI offers the model, and what the options change."""

from __future__ import annotations

from typing import Any

from probes.behaviour import Check, behaviour, check
from probes.harness import Harness

# The built-in tools the claim names; the rest of the offered list moves with every CLI
# release and says nothing about the claim, so it is not kept.
_WATCHED = ("Bash", "Edit", "Read", "Write")


@behaviour(
    id="tools.allowed-tools-does-not-restrict",
    claim=(
        "allowed_tools only pre-approves tools and removes none from the model's view; "
        "the tools option is what decides which built-in tools exist."
    ),
    source=("003", "Quick answer"),
    tier="cli",
    checks=("allowed-tools-keeps-others", "tools-narrows-to-read"),
    requires=("option:tools", "option:allowed_tools"),
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
