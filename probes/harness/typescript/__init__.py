"""The TypeScript SDK under test: a Node driver running its query(), and the Python side of it.

driver.mjs runs in Node against one installed release of `@anthropic-ai/claude-agent-sdk`;
relay.py speaks to it; options.py is the one table from Python option names to the
TypeScript SDK's; callbacks.py answers its canUseTool and hook calls with a probe's Python
functions; messages.py and client.py hand probes what it yields in the harness's terms.
"""
