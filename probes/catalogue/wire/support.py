"""What several of the wire behaviours share; declares no behaviour."""

from __future__ import annotations

from typing import TypedDict, final

from sdkprobe.harness import (
    WireRun,
)


@final
class Absent(TypedDict):
    """A sub-check's observation on an SDK whose ClaudeAgentOptions lacks the option."""

    absent: str


@final
class NeverStarted(TypedDict):
    """A run in which the SDK raised (or quietly declined) before starting the CLI."""

    error: str


def option_names() -> set[str]:
    """The options the SDK under test takes, by their Python names (read while the probe runs)."""
    from sdkprobe.harness import option_fields

    return option_fields()


def option_absent(option: str) -> Absent:
    return {"absent": f"ClaudeAgentOptions of this SDK has no field {option!r}"}


def argv_of(run: WireRun) -> list[str] | None:
    """The session's argv, or None when the SDK never started the CLI (it refused first)."""
    try:
        return run.argv
    except AssertionError:
        return None


def never_started(run: WireRun) -> NeverStarted:
    return {"error": run.error_line or "the SDK never started the CLI and raised nothing"}
