"""A stdio MCP server (the `mcp` package) that starts a child process of its own.

Hygiene tests give it to the CLI: after the session neither the server nor its child may
still run. It writes "<server pid> <child pid>" to the file named by argv[1] and offers a
`pids` tool returning the same line, so a test can learn the pids through the model.
"""

import os
import subprocess
import sys
from pathlib import Path

try:  # mcp 2.x renamed FastMCP to MCPServer
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:
    from mcp.server.fastmcp import FastMCP as Server

child = subprocess.Popen(["sleep", "600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
line = f"{os.getpid()} {child.pid}"
Path(sys.argv[1]).write_text(line)

server = Server("kid")


@server.tool()
def pids() -> str:
    """The pids of this server and of its child."""
    return line


if __name__ == "__main__":
    server.run("stdio")
