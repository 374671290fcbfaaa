"""Area `perms`: who decides whether a tool runs: can_use_tool, allow and deny rules, modes."""
