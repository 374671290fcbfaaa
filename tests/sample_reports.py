"""Hand-made schema-2 reports for the tests of reports, the matrix and the gate.

Tests render these rather than the committed reports in reports/, which are regenerated
on their own schedule and would make a rendering test depend on what the SDK did.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.report.schema import SCHEMA_VERSION, validate

DOC_TITLE = "tools vs allowedTools, and what a subagent definition silently accepts (design document 003)"
ISSUE_URL = "https://github.com/anthropics/claude-agent-sdk-python/issues/362"


def source(
    key: str = "003", section: str = "Quick answer", url: str | None = None, title: str | None = None
) -> dict[str, Any]:
    """A behaviour's source object as a schema-2 report stores it."""
    return {
        "key": key,
        "title": title or (DOC_TITLE if key == "003" else f"title of {key}"),
        "section": section,
        "url": url,
    }


DOC = source()  # a design document: no URL, named by its short number
ISSUE = source("py#362", "", ISSUE_URL, "claude-agent-sdk-python issue #362")  # linked


def result(
    bid: str = "wire.a",
    verdict: str = "holds",
    note: str = "",
    checks: dict[str, str] | None = None,
    observed: Any = None,
    *,
    tier: str = "wire",
    source: dict[str, Any] | None = None,
    claim: str | None = None,
) -> dict[str, Any]:
    """One behaviour's entry; a verdict that needs a note gets a stock one."""
    if verdict in ("differs", "not-applicable", "error") and not note:
        note = f"{verdict} because"
    return {
        "id": bid,
        "area": bid.split(".", 1)[0],
        "tier": tier,
        "claim": claim or f"claim of {bid}",
        "source": dict(source or DOC),
        "verdict": verdict,
        "note": note,
        "checks": checks or {},
        "observed": observed,
    }


def info(
    sdk: str = "0.2.189", cli: str | None = "2.1.0", python: str = "3.12.3", custom: bool = False
) -> dict[str, Any]:
    """Run info of a report."""
    return {
        "sdk_version": sdk,
        "cli_version": cli,
        "cli": "custom" if custom else "bundled",
        "python": python,
        "platform": "Linux-x86_64",
    }


def report(results: list[dict[str, Any]], run_info: dict[str, Any] | None = None) -> dict[str, Any]:
    """A whole report, checked against the schema here so a sample can never drift from it."""
    out = {"schema": SCHEMA_VERSION, **(run_info or info()), "behaviours": sorted(results, key=lambda b: b["id"])}
    validate(out, where="sample report")
    return out
