"""The stand-in TypeScript release the driver and function tests run against: the module
tests/ts_fake_sdk/sdk.mjs (no npm needed), with the exports it declares."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FAKE = Path(__file__).with_name("ts_fake_sdk") / "sdk.mjs"


@dataclass(frozen=True)
class FakeRelease:
    version: str = "0.0.0-fake"
    entry: Path = FAKE

    def exports(self) -> tuple[str, ...]:
        return (
            "createSdkMcpServer",
            "forkSession",
            "getSessionInfo",
            "getSessionMessages",
            "listSubagents",
            "query",
            "startup",
            "tool",
        )
