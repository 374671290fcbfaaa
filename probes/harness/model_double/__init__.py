"""The model double: a scripted Anthropic Messages API on 127.0.0.1 for the cli tier.

The real CLI is pointed at it with ANTHROPIC_BASE_URL. It records every request it gets
(credentials removed) so a probe can read what the CLI sent, and answers each from a
script, so a probe decides what "the model" says: text, streamed tool_use, thinking,
HTTP errors in Anthropic's envelope, an SSE error mid-stream, slow streams. A
compaction request (the CLI asking for a summary) has a route of its own and a default
answer (compaction.py).

Requests are routed by who sent them, because one CLI turn may produce requests from
the main conversation, from subagents and auxiliary side calls; a script keeps one
queue of replies per route. A request nothing was scripted for gets a short default
text and is flagged `unscripted`, so a probe can tell its script was not followed.
`ByModel` keeps a script per model the requests name, to see which one a session talks to.

The server is uvicorn running in a thread of its own with its own loop: it keeps
serving while the probe's loop is busy, and scripted delays never block the probe.
"""

from sdkprobe.harness.model_double.by_model import ByModel
from sdkprobe.harness.model_double.compaction import COMPACT
from sdkprobe.harness.model_double.recorded import Recorded, result_text
from sdkprobe.harness.model_double.script import (
    AGENT_TOOL,
    AUX,
    DEFAULT_TEXT,
    MAIN,
    ROUTES,
    SUBAGENT,
    Reply,
    Script,
    http_error,
    reply,
    stream_error,
    structured_output,
    tool_use_offered,
)
from sdkprobe.harness.model_double.server import ModelDouble

__all__ = [
    "AGENT_TOOL",
    "AUX",
    "COMPACT",
    "DEFAULT_TEXT",
    "MAIN",
    "ROUTES",
    "SUBAGENT",
    "ByModel",
    "ModelDouble",
    "Recorded",
    "Reply",
    "Script",
    "http_error",
    "reply",
    "result_text",
    "stream_error",
    "structured_output",
    "tool_use_offered",
]
