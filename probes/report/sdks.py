"""The SDKs a report can be of, and how pages name each.

A report's `sdk` field says which SDK was probed (absent: the Python SDK, as in every report
written before the TypeScript SDK was probed). Every renderer names the SDK through here, so
a folder of TypeScript reports never reads as claude-agent-sdk's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sdkprobe.report.errors import ReportError

PYTHON = "python"
TYPESCRIPT = "typescript"
TS_FOLDER = "ts"  # the TypeScript SDK's reports, beside the Python SDK's: reports/ts/


@dataclass(frozen=True)
class Sdk:
    key: str  # the report's `sdk` value
    package: str  # as its registry names it
    name: str  # in prose: "the Python SDK"
    registry: str
    runtime: str  # what runs it, as a version page's header names it

    @property
    def short(self) -> str:
        """The language alone: a column header's word ("Python", "TypeScript")."""
        return self.name.removesuffix(" SDK")


SDKS: dict[str, Sdk] = {
    PYTHON: Sdk(PYTHON, "claude-agent-sdk", "Python SDK", "PyPI", "Python"),
    TYPESCRIPT: Sdk(TYPESCRIPT, "@anthropic-ai/claude-agent-sdk", "TypeScript SDK", "npm", "Node"),
}


def sdk_of(report: Mapping[str, Any]) -> Sdk:
    """The SDK a report is of (a report with no `sdk` field is the Python SDK's)."""
    return SDKS[str(report.get("sdk") or PYTHON)]


def one_sdk(reports: Iterable[Mapping[str, Any]]) -> Sdk:
    """The one SDK all these reports are of; ReportError naming a version of each when they mix,
    since one matrix tabulates one SDK's releases (the TypeScript SDK's go in their own folder)."""
    by_sdk: dict[str, str] = {}
    for r in reports:
        by_sdk.setdefault(sdk_of(r).key, str(r["sdk_version"]))
    if len(by_sdk) > 1:
        mixed = ", ".join(f"{SDKS[k].package} {v}" for k, v in sorted(by_sdk.items()))
        raise ReportError(
            f"these reports are of two SDKs ({mixed}); a matrix tabulates one: "
            f"the TypeScript SDK's reports go in their own folder ({TS_FOLDER}/)"
        )
    return SDKS[next(iter(by_sdk), PYTHON)]
