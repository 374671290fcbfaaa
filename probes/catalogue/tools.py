"""Area `tools`: which tools the CLI offers the model, and what the options change."""

from probes.behaviour import behaviour

SOURCE_003 = "003_60988dc4d5bfdb0e.txt"


@behaviour(
    id="tools.allowed-tools-does-not-restrict",
    claim=(
        "allowed_tools only pre-approves tools and removes none from the model's view; "
        "the tools option is what decides which built-in tools exist."
    ),
    source=(SOURCE_003, "Quick answer"),
    tier="cli",
)
async def allowed_tools_does_not_restrict(h):
    allowed = await h.session("hi", allowed_tools=["Read"])
    narrowed = await h.session("hi", tools=["Read"])
    seen = {
        "allowed_tools=[Read]": sorted(allowed.requests[0].offered_tools),
        "tools=[Read]": sorted(narrowed.requests[0].offered_tools),
    }
    return h.verdict(
        checks={
            "allowed-tools-keeps-others": {"Read", "Bash", "Edit"} <= set(seen["allowed_tools=[Read]"]),
            "tools-narrows-to-read": seen["tools=[Read]"] == ["Read"],
        },
        observed={"offered": seen},
    )
