"""Area `hooks`: which hooks fire, with what input, and what their output does."""
