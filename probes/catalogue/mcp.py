"""Area `mcp`: MCP servers: stdio, in-process, status, toggles, OAuth."""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, needs_live
from sdkprobe.harness import MAIN, Conversation, Harness, McpTool, plugin_folder, reply, stdio_mcp_server, tool_use

_PLUGIN = "probe-plugin"
_SERVER = "pl"
_PLUGIN_SERVER = f"plugin:{_PLUGIN}:{_SERVER}"  # how the CLI names a plugin's server


@behaviour(
    id="mcp.strict-config-blocks-connectors-and-plugin-mcp",
    claim=(
        "strict_mcp_config keeps claude.ai connectors out of the session, and also the MCP servers of "
        "plugins; passing a plugin's .mcp.json servers in mcp_servers brings them back, named mcp__<server>__<tool>."
    ),
    summary="strict_mcp_config keeps out connectors and plugin MCP; mcp_servers brings them back",
    security="strict_mcp_config is how a host keeps MCP servers it did not configure out of the session",
    source=("004", "strictMcpConfig also blocks plugin MCP"),
    tier="cli",
    checks=("strict-blocks-claude-ai-connectors", "strict-blocks-plugin-mcp", "explicit-servers-load-under-strict"),
    requires=("option:strict_mcp_config", "option:plugins", "option:mcp_servers", "package:mcp"),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.strict_mcp_config",
)
async def strict_config_blocks_connectors_and_plugin_mcp(h: Harness) -> dict[str, Any]:
    server = stdio_mcp_server(h.workdir("mcp"), _SERVER, [McpTool("ping", "Answers pong.", result="pong")])
    plugin = plugin_folder(h.workdir("plugin"), _PLUGIN, mcp_servers={_SERVER: server.config})
    cases: dict[str, dict[str, Any]] = {
        "not strict": {"strict_mcp_config": False},
        "strict": {"strict_mcp_config": True},
        "strict, .mcp.json servers passed": {"strict_mcp_config": True, "mcp_servers": plugin.mcp_json["mcpServers"]},
    }
    seen = {}
    for case, options in cases.items():
        # ENABLE_TOOL_SEARCH=false puts MCP tools in the request's tools instead of the deferred list
        run = await h.session("hi", plugins=[plugin.config], env={"ENABLE_TOOL_SEARCH": "false"}, **options)
        # A plugin server may still be connecting at init (its status moves with timing): names only.
        servers = run.init.get("mcp_servers") or []
        seen[case] = {
            "init_mcp_servers": sorted(str(s.get("name")) for s in servers),
            # claude.ai connectors (named "claude.ai <Name>") load only for a logged-in claude.ai account
            "claude_ai_connectors": sorted(str(s.get("name")) for s in servers if _is_connector(s)),
            "plugin_loaded": any(p.get("name") == _PLUGIN for p in run.init.get("plugins") or []),
            "error": run.error,
        }
        if "mcp_servers" in options:
            seen[case]["offered_mcp_tools"] = sorted(t for t in run.offered_tools if t.startswith("mcp__"))
    return seen


def _is_connector(server: dict[str, Any]) -> bool:
    return str(server.get("name", "")).startswith("claude.ai ") or "claudeai" in str(server.get("source", ""))


@strict_config_blocks_connectors_and_plugin_mcp.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    loose, strict, passed = seen["not strict"], seen["strict"], seen["strict, .mcp.json servers passed"]
    return {
        "strict-blocks-claude-ai-connectors": check(
            not strict["claude_ai_connectors"],
            f"claude.ai connectors without strict {loose['claude_ai_connectors']}, with strict "
            f"{strict['claude_ai_connectors']}",
        )
        if loose["claude_ai_connectors"]
        else needs_live("claude.ai connectors load only for a claude.ai account; none loaded here"),
        "strict-blocks-plugin-mcp": check(
            _PLUGIN_SERVER in loose["init_mcp_servers"]
            and not any(_SERVER in name for name in strict["init_mcp_servers"])
            and strict["plugin_loaded"],
            f"init mcp_servers without strict {loose['init_mcp_servers']}, with strict {strict['init_mcp_servers']} "
            f"(plugin loaded with strict: {strict['plugin_loaded']})",
        ),
        "explicit-servers-load-under-strict": check(
            _SERVER in passed["init_mcp_servers"] and passed.get("offered_mcp_tools") == [f"mcp__{_SERVER}__ping"],
            f"with strict and the .mcp.json servers passed: init mcp_servers {passed['init_mcp_servers']}, "
            f"MCP tools offered {passed.get('offered_mcp_tools')}",
        ),
    }


strict_config_blocks_connectors_and_plugin_mcp.differs_on(
    {
        "not strict": {
            "init_mcp_servers": ["claude.ai Gmail", _PLUGIN_SERVER],
            "claude_ai_connectors": ["claude.ai Gmail"],
            "plugin_loaded": True,
            "error": None,
        },
        "strict": {
            "init_mcp_servers": ["claude.ai Gmail", _PLUGIN_SERVER],
            "claude_ai_connectors": ["claude.ai Gmail"],
            "plugin_loaded": True,
            "error": None,
        },
        "strict, .mcp.json servers passed": {
            "init_mcp_servers": [],
            "claude_ai_connectors": [],
            "plugin_loaded": True,
            "error": None,
            "offered_mcp_tools": [],
        },
    }
)


# --- CATALOGUE-3: what users reported about MCP ---------------------------------------

_BIG, _IO = "big", "io"  # the in-process server (12 tools) and the stdio one (3)
_BIG_TOOLS = tuple(f"t{n:02d}" for n in range(1, 13))
_IO_TOOLS = ("alpha", "beta", "gamma")
_SEARCHED = f"mcp__{_BIG}__t07"
_TOOL_SEARCH_ENVS: dict[str, dict[str, str]] = {
    "ENABLE_TOOL_SEARCH unset": {},
    "ENABLE_TOOL_SEARCH=true": {"ENABLE_TOOL_SEARCH": "true"},
    "ENABLE_TOOL_SEARCH=auto:1": {"ENABLE_TOOL_SEARCH": "auto:1"},
    # the control: with tool search off every tool is loaded, so the placement measure can tell the two apart
    "ENABLE_TOOL_SEARCH=false": {"ENABLE_TOOL_SEARCH": "false"},
}
# auto:N defers once MCP tool definitions pass N% of the context window: descriptions long
# enough that 1% of even a 1M-token window is passed, so auto:1 has to defer.
_LONG = " ".join(["This sentence pads the description of a probe's MCP tool to a realistic length."] * 50)


def _big_server(ran: list[str]) -> Any:
    """An in-process server `big` with twelve tools; each call is appended to `ran`."""
    import claude_agent_sdk as sdk

    def make(name: str) -> Any:
        @sdk.tool(name, f"Tool {name} of the probe's in-process server. {_LONG}", {"type": "object", "properties": {}})
        async def handler(args: dict[str, Any]) -> dict[str, Any]:
            ran.append(name)
            return {"content": [{"type": "text", "text": f"{name} ran"}]}

        return handler

    return sdk.create_sdk_mcp_server(_BIG, tools=[make(n) for n in _BIG_TOOLS])


def _placement(request: Any, names: list[str]) -> dict[str, int]:
    """How many of `names` a request loads in `tools`, only names as deferred, or leaves out."""
    counts = {"loaded": 0, "deferred": 0, "absent": 0}
    loaded, listed = set(request.loaded_tools), set(request.tool_names) | set(request.deferred_tools)
    for n in names:
        counts["loaded" if n in loaded else "deferred" if n in listed else "absent"] += 1
    return counts


@behaviour(
    id="mcp.sdk-tools-deferred-by-default",
    claim=(
        "With tool search on (the default, or ENABLE_TOOL_SEARCH=true or auto:1), the tools of in-process and "
        "stdio MCP servers are deferred: only their names reach the model until it loads one with ToolSearch."
    ),
    summary="With tool search on, MCP tools reach the model as names only until loaded",
    source=("ts#356", "report"),
    tier="cli",
    checks=(
        "deferred-by-default",
        "deferred-with-true",
        "deferred-with-auto-1",
        "searched-tool-callable",
        "loaded-with-false",
    ),
    controls=("loaded-with-false",),
    requires=("option:mcp_servers", "option:allowed_tools", "api:create_sdk_mcp_server", "package:mcp"),
    sdk_ref="claude_agent_sdk.create_sdk_mcp_server",
    timeout=200,
)
async def sdk_tools_deferred_by_default(h: Harness) -> dict[str, Any]:
    io = stdio_mcp_server(
        h.workdir("mcp"), _IO, [McpTool(n, f"Tool {n} of the probe's stdio server. {_LONG}") for n in _IO_TOOLS]
    )
    names = {_BIG: [f"mcp__{_BIG}__{n}" for n in _BIG_TOOLS], _IO: [f"mcp__{_IO}__{n}" for n in _IO_TOOLS]}
    seen: dict[str, Any] = {}
    connected: list[str] = []  # the servers the CLI listed connected as the turn started

    async def steps(c: Conversation) -> None:
        # Order, not clock: the turn starts once the CLI lists both servers connected (CLI
        # 2.1.97 stops waiting for them after 5 s, which a loaded machine can pass starting io)
        connected[:] = await c.mcp_connected(set(names))
        await c.send("use the tools")
        await c.response()

    for case, env in _TOOL_SEARCH_ENVS.items():
        ran: list[str] = []
        searching = case == "ENABLE_TOOL_SEARCH unset"
        # a client session (streaming mode): old SDKs connect in-process servers only with a streamed prompt
        run = await h.converse(
            steps,
            script=[
                reply(tool_use("ToolSearch", {"query": f"select:{_SEARCHED}", "max_results": 5})),
                reply(tool_use(_SEARCHED, {})),
                "done",
            ]
            if searching
            else ["hi"],
            mcp_servers={_BIG: _big_server(ran), _IO: io.config},
            allowed_tools=[_SEARCHED],
            env=env,
        )
        first = run.first(MAIN)
        betas = (first.headers.get("anthropic-beta", "") if first else "").split(",")
        seen[case] = {
            "connected before the turn": list(connected),
            "placement": {server: _placement(first, n) for server, n in names.items()} if first else None,
            "ToolSearch offered": first is not None and "ToolSearch" in first.offered_tools,
            "tool betas": sorted(b.strip() for b in betas if "tool" in b),
        }
        if searching:
            seen[case]["after ToolSearch"] = {f"{_SEARCHED} ran": _SEARCHED.rsplit("__", 1)[1] in ran}
    return seen


@sdk_tools_deferred_by_default.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def deferred(case: str) -> Check:
        p = seen[case]["placement"]
        return check(
            bool(p) and all(c["loaded"] == 0 and c["absent"] == 0 for c in p.values()),
            f"{case}: {p} (ToolSearch offered {seen[case]['ToolSearch offered']}; connected before the turn "
            f"{seen[case]['connected before the turn']})",
        )

    after = seen["ENABLE_TOOL_SEARCH unset"]["after ToolSearch"]
    return {
        "deferred-by-default": deferred("ENABLE_TOOL_SEARCH unset"),
        "deferred-with-true": deferred("ENABLE_TOOL_SEARCH=true"),
        "deferred-with-auto-1": deferred("ENABLE_TOOL_SEARCH=auto:1"),
        "searched-tool-callable": check(after[f"{_SEARCHED} ran"], f"after a ToolSearch for {_SEARCHED}: {after}"),
        "loaded-with-false": check(
            seen[_OFF]["placement"] == _ALL_LOADED,
            f"{_OFF}: {seen[_OFF]['placement']} (connected before the turn {seen[_OFF]['connected before the turn']})",
        ),
    }


_OFF = "ENABLE_TOOL_SEARCH=false"
_ALL_LOADED = {_BIG: {"loaded": 12, "deferred": 0, "absent": 0}, _IO: {"loaded": 3, "deferred": 0, "absent": 0}}
_ALL_DEFERRED = {_BIG: {"loaded": 0, "deferred": 12, "absent": 0}, _IO: {"loaded": 0, "deferred": 3, "absent": 0}}
sdk_tools_deferred_by_default.differs_on(
    {
        case: {
            "connected before the turn": [_BIG, _IO],
            "placement": _ALL_DEFERRED if case == _OFF else _ALL_LOADED,
            "ToolSearch offered": False,
            "tool betas": [],
            **({"after ToolSearch": {f"{_SEARCHED} ran": False}} if not env else {}),
        }
        for case, env in _TOOL_SEARCH_ENVS.items()
    }
)
