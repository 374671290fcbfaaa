"""Area `results`: the ResultMessage: subtypes, is_error, usage."""
