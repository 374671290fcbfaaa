"""Area `agents`: subagent definitions, the Agent tool and what a subagent may use."""
