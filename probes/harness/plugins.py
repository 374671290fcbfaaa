"""Plugin folders written to order for one probe, in the layout Claude Code loads.

A probe about plugins (their MCP servers, commands, skills, agents) needs a real plugin
on disk: `plugin_folder` writes `.claude-plugin/plugin.json` and whatever parts it is
given into a directory of the probe's space and returns a `PluginFolder`, whose `config`
is the entry for the `plugins` option (`{"type": "local", "path": ...}`) and whose
`mcp_json` is what its `.mcp.json` says, so a probe can also pass those servers itself.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class PluginFolder:
    """A written plugin: where it is and what it declares."""

    name: str
    path: Path

    def link(self, at: Path) -> PluginFolder:
        """A symlink at `at` to this plugin's folder, as a plugin of its own: a host that
        mounts plugins through links passes the link's path. `at` must not exist yet; after
        `unlink()` the same call puts the link back."""
        at.symlink_to(self.path, target_is_directory=True)
        return PluginFolder(self.name, at)

    def unlink(self) -> None:
        """Remove the link this plugin was reached through (see `link`); the target stays."""
        if not self.path.is_symlink():
            raise ValueError(f"{self.path} is not a link")
        self.path.unlink()

    def clear(self) -> None:
        """Empty the plugin's folder, manifest included; the folder itself stays. Writing
        the plugin again is `plugin_folder(...)` on the same path."""
        if self.path.is_symlink():
            raise ValueError(f"{self.path} is a link: unlink() it, or clear the folder it points to")
        for child in self.path.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()

    @property
    def config(self) -> dict[str, str]:
        """The plugin's entry for `plugins=[...]`."""
        return {"type": "local", "path": str(self.path)}

    @property
    def mcp_json(self) -> dict[str, Any]:
        """The parsed `.mcp.json` ({} when the plugin has none)."""
        f = self.path / ".mcp.json"
        return json.loads(f.read_text(encoding="utf-8")) if f.exists() else {}


def plugin_folder(
    directory: Path,
    name: str,
    *,
    mcp_servers: Mapping[str, Mapping[str, Any]] | None = None,
    commands: Mapping[str, str] | None = None,
    skills: Mapping[str, str] | None = None,
    agents: Mapping[str, str] | None = None,
    version: str = "0.1.0",
    user_config: Mapping[str, Mapping[str, Any]] | None = None,
) -> PluginFolder:
    """Write plugin `name` into `directory` (a fresh dir of the probe's space).

    `mcp_servers` become `.mcp.json` (`{"mcpServers": ...}`, e.g. a StdioMcpServer's
    `config`); `commands` and `agents` map a name to its Markdown file's text
    (`commands/<name>.md`, `agents/<name>.md`); `skills` a name to its SKILL.md;
    `user_config` becomes the manifest's `userConfig` (option key -> field declaration).
    Called again on the same directory it writes the plugin anew (after `clear()`).
    """
    if not _NAME.match(name):
        raise ValueError(f"a plugin name is lower-case words joined by '-', not {name!r}")
    directory.mkdir(parents=True, exist_ok=True)
    manifest = directory / ".claude-plugin" / "plugin.json"
    manifest.parent.mkdir(exist_ok=True)
    declared: dict[str, Any] = {"name": name, "version": version, "description": f"sdkprobe plugin {name}"}
    if user_config is not None:
        declared["userConfig"] = {k: dict(v) for k, v in user_config.items()}
    manifest.write_text(json.dumps(declared))
    if mcp_servers:
        servers = {k: dict(v) for k, v in mcp_servers.items()}
        (directory / ".mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    for sub, files in (("commands", commands), ("agents", agents)):
        for file_name, body in (files or {}).items():
            target = directory / sub / f"{file_name}.md"
            target.parent.mkdir(exist_ok=True)
            target.write_text(body, encoding="utf-8")
    for skill, body in (skills or {}).items():
        target = directory / "skills" / skill / "SKILL.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    return PluginFolder(name, directory)
