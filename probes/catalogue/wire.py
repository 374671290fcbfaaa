"""Area `wire`: how the SDK turns options into the CLI's command line."""

from probes.behaviour import behaviour

SOURCE_003 = "003_60988dc4d5bfdb0e.txt"


@behaviour(
    id="wire.tools-option-to-flag",
    claim=(
        "The tools option becomes --tools: omitted sends no flag, a list sends the names "
        "joined by commas, an empty list sends an empty value, the claude_code preset sends 'default'."
    ),
    source=(SOURCE_003, "What each shape actually sends"),
    tier="wire",
)
async def tools_option_to_flag(h):
    shapes = {
        "omitted": (None, None),
        "list": (["Bash", "Read"], "Bash,Read"),
        "empty": ([], ""),
        "preset": ({"type": "preset", "preset": "claude_code"}, "default"),
    }
    sent, checks = {}, {}
    for name, (tools, expected) in shapes.items():
        options = {} if tools is None else {"tools": tools}
        run = await h.wire(**options)
        sent[name] = run.flag("--tools")
        checks[name] = sent[name] == expected
    return h.verdict(checks=checks, observed={"--tools": sent})
