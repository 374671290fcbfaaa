"""What several of the hooks behaviours share; declares no behaviour."""

from __future__ import annotations

import json
from typing import Any

from sdkprobe.harness import (
    CliRun,
    tool_use,
)

SUBAGENT_PROMPT = "Read the file sub.txt and report what it says."


def hook_calls(run: CliRun, event: str) -> list[dict[str, Any]]:
    """The inputs of the hook callbacks the CLI asked for `event`, in order."""
    return [c["input"] for c in run.callbacks if c["kind"] == "hook" and c["event"] == event]


def request_text(request: Any) -> str:
    """A model request's whole body as text, for "is this marker anywhere in it"."""
    return json.dumps(request.body, sort_keys=True)


CEILING = 25.0  # how long a turn may wait on a held callback before the probe lets it go (a hang)


def bash_call(command: str, tool_use_id: str) -> dict[str, Any]:
    return tool_use("Bash", {"command": command, "description": "probe"}, tool_use_id)
