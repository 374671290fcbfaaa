"""The areas a behaviour id may start with, in the order reports show them.

An id is `area.name`. sdkprobe's twelve are listed here; a team's catalogue declares its
own with `declare_area(...)` before its behaviours. Declaring a behaviour whose prefix is
not declared fails at import, so a typo cannot open a new group in the matrix.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Area:
    name: str
    title: str
    covers: str


AREAS: tuple[Area, ...] = (
    Area(
        "wire",
        "What the SDK sends",
        "what the SDK puts on the CLI's command line, in initialize and in its environment",
    ),
    Area("tools", "Tools offered", "which tools the model is offered, and what the options change"),
    Area("perms", "Permissions", "who decides whether a tool runs: can_use_tool, allow and deny rules, modes"),
    Area("hooks", "Hooks", "which hooks fire, with what input, and what their output does"),
    Area("agents", "Subagents", "subagent definitions, the Agent tool and what a subagent may use"),
    Area("messages", "Message stream", "system messages, partial messages and their order"),
    Area("results", "Results", "the ResultMessage: subtypes, is_error, usage"),
    Area("config", "Configuration and context", "setting sources, memory, skills and what reaches the model's context"),
    Area("plugins", "Plugins", "plugins and their commands, skills and agents"),
    Area("mcp", "MCP servers", "stdio and in-process MCP servers: status, toggles, OAuth"),
    Area("sessions", "Sessions", "resume, session files, session stores, streaming input"),
    Area("process", "The CLI process", "the CLI as a child process: stdin, exit, terminal"),
)

BY_NAME: dict[str, Area] = {a.name: a for a in AREAS}


def declare_area(name: str, title: str, covers: str) -> Area:
    """Add a team's own area (after sdkprobe's, in the order declared). Declaring it again
    with the same words is a no-op; with other words, or one of sdkprobe's names, a ValueError."""
    area = Area(name, title, covers)
    if not name.isidentifier() or name != name.lower():
        raise ValueError(f"an area name is one lower-case word, not {name!r}")
    if BY_NAME.get(name, area) != area:
        raise ValueError(f"area {name!r} is declared already, as {BY_NAME[name]}")
    BY_NAME[name] = area
    return area


def all_areas() -> list[Area]:
    """sdkprobe's areas, then those declared by a team's catalogue."""
    return list(BY_NAME.values())


def area_of(behaviour_id: str) -> str:
    """The area part of an id (`tools` for `tools.mcp-tool-naming`)."""
    return behaviour_id.split(".", 1)[0]


def order(area: str) -> tuple[int, str]:
    """Sort key: declared areas in their order, anything else (an old report's) after them."""
    names = list(BY_NAME)
    return (names.index(area), "") if area in names else (len(names), area)
