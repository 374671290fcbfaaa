"""The twelve areas a behaviour id may start with, in the order reports show them.

An id is `area.name`. Declaring a behaviour whose prefix is not listed here fails at
import, so a typo cannot open a thirteenth group in the matrix.
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


def area_of(behaviour_id: str) -> str:
    """The area part of an id (`tools` for `tools.mcp-tool-naming`)."""
    return behaviour_id.split(".", 1)[0]


def order(area: str) -> tuple[int, str]:
    """Sort key: declared areas in their order, anything else (an old report's) after them."""
    names = [a.name for a in AREAS]
    return (names.index(area), "") if area in names else (len(names), area)
