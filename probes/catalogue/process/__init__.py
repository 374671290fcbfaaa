"""Area `process`: the CLI as a child process: stdin, exit, terminal."""
