"""Area `sessions`: resume, session files, session stores, streaming input."""
