"""Area `plugins`: plugins and their commands, skills and agents."""
