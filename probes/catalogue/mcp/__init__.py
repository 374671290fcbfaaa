"""Area `mcp`: stdio and in-process MCP servers: status, toggles, OAuth."""
