"""Area `wire`: what the SDK puts on the CLI's command line, in initialize and in its environment."""
