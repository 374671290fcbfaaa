"""A fake `claude` executable for the wire tier.

It records what the SDK sends (argv, environment, cwd, every stdin line) and plays a
scenario of what the CLI answers. Standard library only, and it imports nothing of
`probes` or the SDK, so it starts in a few milliseconds.
"""
