"""Area `mcp`: MCP servers: stdio, in-process, status, toggles, OAuth."""

from __future__ import annotations

from typing import Any

from probes.behaviour import Check, behaviour, check, needs_live
from probes.harness import Harness, McpTool, plugin_folder, stdio_mcp_server

_PLUGIN = "probe-plugin"
_SERVER = "pl"
_PLUGIN_SERVER = f"plugin:{_PLUGIN}:{_SERVER}"  # how the CLI names a plugin's server


@behaviour(
    id="mcp.strict-config-blocks-connectors-and-plugin-mcp",
    claim=(
        "strict_mcp_config keeps claude.ai connectors out of the session, and also the MCP servers of "
        "plugins; passing a plugin's .mcp.json servers in mcp_servers brings them back, named mcp__<server>__<tool>."
    ),
    source=("004", "strictMcpConfig blokkeert ook plugin-MCP"),
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
