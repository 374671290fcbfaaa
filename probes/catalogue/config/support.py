"""What several of the config behaviours share; declares no behaviour."""

from __future__ import annotations

import json
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, check
from sdkprobe.harness import (
    CliRun,
    Harness,
    Recorded,
    in_process_server,
    in_process_tool,
)

# --- what reaches the model's context: settings files, memory, git, account, skills ----------


PLACES = ("system", "messages", "tools")
NO_REQUEST = "no request"


def where_marker_reached(request: Recorded | None, marker: str) -> str | None:
    """Where `marker` reached the model in a request: the system parameter, a message (any
    role), a tool's description, or nowhere (None); "no request" when the session sent none,
    which proves neither presence nor absence."""
    if request is None:
        return NO_REQUEST
    if marker in request.system_text:
        return "system"
    if any(marker in t for t in request.texts()):
        return "messages"
    if any(marker in str(t.get("description", "")) for t in request.tools):
        return "tools"
    return None


def reached(where: str | None) -> bool:
    return where in PLACES


CONNECTOR_RUNS: dict[str, dict[str, Any]] = {
    "setting_sources=[]": {},
    "setting_sources=[], disableClaudeAiConnectors=true": {"settings": json.dumps({"disableClaudeAiConnectors": True})},
}


# one session's connectors
Connectors = TypedDict(
    "Connectors",
    {
        "auth": str | None,  # init's apiKeySource ("none": a claude.ai login)
        "claude.ai servers": list[str],
        "claude.ai tools": int,
        "given server": str | None,  # its status at init (None: not listed)
        "given tool offered": bool,
    },
)


def connectors(run: CliRun, server: str) -> Connectors:
    """The claude.ai connectors a session loaded, and how the probe's own server fared."""
    servers = {str(s.get("name")): s.get("status") for s in run.init.get("mcp_servers") or []}
    tools = [str(t) for t in run.init.get("tools") or []]
    return {
        "auth": run.init.get("apiKeySource"),
        "claude.ai servers": sorted(n for n in servers if n.startswith("claude.ai")),
        "claude.ai tools": sum(t.startswith("mcp__claude_ai_") for t in tools),
        "given server": servers.get(server),
        # offered to the model (the double's request), or listed at init where no double saw it (live)
        "given tool offered": f"mcp__{server}__ping" in (run.offered_tools if run.double else tools),
    }


async def connector_sessions(h: Harness) -> dict[str, Connectors]:
    """The two sessions both connector behaviours observe: setting_sources=[], without and with the setting."""

    @in_process_tool("ping", "Answers pong.", {})
    async def ping(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "pong"}]}

    # In-process: connected before the first request on every CLI however loaded the machine
    # (a stdio server's start raced CLI 2.1.139's wait and was sometimes still pending).
    server = in_process_server("probe", tools=[ping])
    seen: dict[str, Connectors] = {}
    for label, options in CONNECTOR_RUNS.items():
        # client=True: in-process servers need streaming mode on old SDKs
        run = await h.cli("hi", client=True, setting_sources=[], mcp_servers={"probe": server}, **options)
        seen[label] = connectors(run, "probe")
    return seen


def given_unaffected(seen: dict[str, Connectors]) -> Check:
    given = {label: (s["given server"], s["given tool offered"]) for label, s in seen.items()}
    return check(
        all(status == "connected" and offered for status, offered in given.values()),
        f"the given in-process server (status, tool offered): {given}",
    )
