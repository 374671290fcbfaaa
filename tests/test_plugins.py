"""Plugin folders: written in the layout Claude Code loads, and really loaded by the bundled CLI."""

from __future__ import annotations

import json

import pytest

from sdkprobe.harness import McpTool, plugin_folder, real_cli, sdk, stdio_mcp_server


def test_layout_is_written(space):
    plugin = plugin_folder(
        space.path("plugin"),
        "demo",
        mcp_servers={"srv": {"type": "stdio", "command": "true", "args": []}},
        commands={"hello": "Say hello."},
        skills={"greet": "---\nname: greet\ndescription: greets\n---\nGreet."},
        agents={"helper": "---\nname: helper\ndescription: helps\n---\nHelp."},
    )
    assert json.loads((plugin.path / ".claude-plugin" / "plugin.json").read_text())["name"] == "demo"
    assert plugin.mcp_json == {"mcpServers": {"srv": {"type": "stdio", "command": "true", "args": []}}}
    assert (plugin.path / "commands" / "hello.md").read_text() == "Say hello."
    assert (plugin.path / "skills" / "greet" / "SKILL.md").exists()
    assert (plugin.path / "agents" / "helper.md").exists()
    assert plugin.config == {"type": "local", "path": str(plugin.path)}
    assert plugin_folder(space.path("bare"), "bare").mcp_json == {}
    with pytest.raises(ValueError, match="lower-case"):
        plugin_folder(space.path("bad"), "Bad Name")


@pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")
async def test_the_cli_loads_the_plugin_its_command_and_its_mcp_server(space):
    server = stdio_mcp_server(space.path("mcp"), "srv", [McpTool("ping")])
    plugin = plugin_folder(
        space.path("plugin"), "demo", mcp_servers={"srv": server.config}, commands={"hello": "Say hello."}
    )
    run = await real_cli.cli_run(space, "hi", plugins=[plugin.config])
    assert [p["name"] for p in run.init["plugins"] if p["name"] == "demo"] == ["demo"]
    assert any("hello" in c for c in run.init["slash_commands"])
    assert "plugin:demo:srv" in [s["name"] for s in run.init["mcp_servers"]]
    without = await real_cli.cli_run(space, "hi")
    assert not any(p["name"] == "demo" for p in without.init.get("plugins", []))
