"""Area `wire`, reported: how often connect() starts the CLI, and the old-version warning."""

from __future__ import annotations

import os
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import Harness, Scenario, WireCapture

# --- wire.version-probe-spawn ----------------------------------------------------------

_SKIP = "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK"
_OLD = "1.0.0"
_VERSION_WARNING = "Minimum required version"


def _spawns(run: WireCapture) -> dict[str, Any]:
    """How the fake was started for one session, and whether the SDK warned about its version."""
    said = [*run.log, *run.warnings]
    return {
        "starts": len(run.starts),
        "version probes": sum(1 for s in run.starts if s["argv"][:1] in (["-v"], ["--version"])),
        "version warnings": sum(1 for line in said if _VERSION_WARNING in line),
        "error": run.error_line,
    }


async def _with_skip(h: Harness, scenario: Scenario) -> WireCapture:
    """A query() with the skip variable in the caller's environment (where the SDK reads it)."""
    before = os.environ.get(_SKIP)
    os.environ[_SKIP] = "1"
    try:
        return await h.wire(scenario=scenario)
    finally:
        if before is None:
            del os.environ[_SKIP]
        else:
            os.environ[_SKIP] = before


@behaviour(
    id="wire.version-probe-spawn",
    claim=(
        "connect(), for query() and for ClaudeSDKClient alike, starts cli_path once per session, with the "
        "session's arguments, and no separate `-v` process; a CLI older than the SDK's minimum, or one that "
        "reports no version, is warned about, and CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK only silences that warning."
    ),
    summary="connect() starts the CLI once, no -v probe; an old CLI is warned about unless skipped",
    source=("sdk-py", "SubprocessCLITransport._check_claude_version"),
    tier="wire",
    checks=(
        "query-starts-cli-once",
        "client-starts-cli-once",
        "old-version-warned",
        "missing-version-warned",
        "skip-variable-silences-warning",
    ),
    requires=("option:cli_path",),
    covers=("option:cli_path",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._check_claude_version",
)
async def version_probe_spawn(h: Harness) -> dict[str, Any]:
    def old() -> Scenario:
        return Scenario(cli_version=_OLD).turn()

    def unversioned() -> Scenario:
        # an init without a version; the fake still answers a `-v` probe with _OLD
        return Scenario(cli_version=_OLD).wait_for_user().init(claude_code_version=None).assistant("hi").result()

    return {
        "query": _spawns(await h.wire(scenario=old())),
        "client": _spawns(await h.wire(scenario=old(), client=True)),
        "no version": _spawns(await h.wire(scenario=unversioned())),
        "skip variable": _spawns(await _with_skip(h, unversioned())),
    }


@version_probe_spawn.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def said(label: str) -> str:
        s = seen[label]
        return (
            f"{label}: the fake was started {s['starts']} time(s), {s['version probes']} of them a -v probe; "
            f"{s['version warnings']} version warning(s) (error {s['error']})"
        )

    def once(label: str) -> bool:
        s = seen[label]
        return bool(s["starts"] == 1 and s["version probes"] == 0)

    skipped = seen["skip variable"]
    return {
        "query-starts-cli-once": check(once("query"), said("query")),
        "client-starts-cli-once": check(once("client"), said("client")),
        "old-version-warned": check(seen["query"]["version warnings"] > 0, f"CLI version {_OLD}: " + said("query")),
        "missing-version-warned": check(
            seen["no version"]["version warnings"] > 0, "init without claude_code_version: " + said("no version")
        ),
        "skip-variable-silences-warning": check(
            skipped["version warnings"] == 0 and skipped["error"] is None and skipped["starts"] >= 1,
            f"{_SKIP}=1, init without claude_code_version: " + said("skip variable"),
        ),
    }


version_probe_spawn.differs_on(
    {
        "query": {"starts": 2, "version probes": 1, "version warnings": 0, "error": None},
        "client": {"starts": 2, "version probes": 1, "version warnings": 1, "error": None},
        "no version": {"starts": 1, "version probes": 0, "version warnings": 0, "error": None},
        "skip variable": {"starts": 1, "version probes": 0, "version warnings": 1, "error": None},
    }
)
