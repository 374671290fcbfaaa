"""Area `messages`: system messages, partial messages and their order."""
