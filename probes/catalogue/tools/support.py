"""What several of the tools behaviours share; declares no behaviour."""

from __future__ import annotations

from typing import Any

from sdkprobe.harness import (
    MAIN,
    CliRun,
    in_process_server,
    in_process_tool,
    result_text,
)

SESSIONS_CEILING = 150


def mem_server(calls: list[dict[str, Any]]) -> Any:
    """In-process server `mem` with one tool, `plain`, whose every call is appended to `calls`."""

    @in_process_tool("plain", "A plain tool of the probe's in-process server.", {"type": "object", "properties": {}})
    async def plain(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(dict(args))
        return {"content": [{"type": "text", "text": "plain ran"}]}

    return in_process_server("mem", tools=[plain])


def second_results(run: CliRun) -> list[dict[str, Any]]:
    """The tool_result blocks the main conversation sent back after the scripted tool_use."""
    main = run.on(MAIN)
    return main[1].tool_results if len(main) > 1 else []


def first_result(run: CliRun) -> dict[str, Any]:
    """The one tool_result after a scripted call: is_error and its text ({} if none came back)."""
    results = second_results(run)
    if not results:
        return {}
    return {"is_error": bool(results[0].get("is_error")), "text": result_text(results[0])}
