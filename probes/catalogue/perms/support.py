"""What several of the perms behaviours share; declares no behaviour."""

from __future__ import annotations

from typing import Any

from sdkprobe.harness import (
    MAIN,
    CliRun,
    reply,
    result_text,
    tool_use,
)


def asked_paths(run: CliRun) -> list[str]:
    """The file_path of each call can_use_tool was asked about that names one."""
    return [
        str(c["input"]["file_path"]) for c in run.callbacks if c["kind"] == "can_use_tool" and "file_path" in c["input"]
    ]


def asked_about(run: CliRun) -> list[str]:
    """What can_use_tool was asked about, in order: a Bash call's command, any other tool's name."""
    return [
        str(c["input"].get("command", c["tool"])) if c["tool"] == "Bash" else str(c["tool"])
        for c in run.callbacks
        if c["kind"] == "can_use_tool"
    ]


HOST_DENY = "REFUSED-BY-HOST"


def recording_deny(asked: list[str]) -> Any:
    """A can_use_tool that records each Bash command (or tool name) it is asked about and refuses it."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import PermissionResultDeny

        asked.append(str(tool_input.get("command", name)))
        return PermissionResultDeny(message=HOST_DENY)

    return callback


def bash_reply(command: str, tool_use_id: str) -> Any:
    return reply(tool_use("Bash", {"command": command, "description": "probe step"}, id=tool_use_id))


def tool_results_of(run: CliRun, ids: list[str]) -> dict[str, Any]:
    """Each tool_use id's tool_result in the last main request: is_error and the start of its text."""
    main = run.on(MAIN)
    last = main[-1] if main else None
    seen: dict[str, Any] = {}
    for tid in ids:
        block = last.tool_result(tid) if last else None
        seen[tid] = (
            None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)[:160]}
        )
    return seen
