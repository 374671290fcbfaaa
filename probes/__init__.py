"""sdkprobe: per-version checks of what claude-agent-sdk and its CLI really do."""
