"""Area `wire`, reported: how often connect() starts the CLI, and settings merged with sandbox."""

from __future__ import annotations

import json
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
    pins={
        "query-starts-cli-once": ("option:cli_path",),
        "client-starts-cli-once": ("option:cli_path",),
        "old-version-warned": ("option:cli_path",),
        "missing-version-warned": ("option:cli_path",),
        "skip-variable-silences-warning": ("option:cli_path",),
    },
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


# --- wire.settings-path-with-sandbox ----------------------------------------------------
# wire.host-guard-options (wire_options.py) already judges sandbox merged into --settings with
# inline JSON, an absolute path, a path relative to cwd and a missing file; this one judges the
# rest of the merge: a file with a BOM, inline JSON that does not parse, and no sandbox at all.

_SANDBOX = {"enabled": True}
_DENY = {"permissions": {"deny": ["Bash(rm:*)"]}}
_BAD_JSON = "{bad json}"
_FILE = "s.json"


def _settings_run(run: WireCapture) -> dict[str, Any]:
    """Whether the CLI started, the --settings it got (as JSON where it is JSON), and the error."""
    try:
        value = run.flag("--settings")
    except AssertionError:  # the SDK refused before starting the CLI
        return {"started": False, "settings": None, "error": run.error_line}
    try:
        sent: Any = None if value is None else json.loads(value)
    except ValueError:
        sent = value
    return {"started": True, "settings": sent, "error": run.error_line}


@behaviour(
    id="wire.settings-path-with-sandbox",
    claim=(
        "With sandbox set, a settings file is read as the CLI would read it, a UTF-8 BOM included, and its "
        "rules travel in --settings beside 'sandbox'; settings that cannot be loaded, inline JSON that does "
        "not parse among them, raise CLIConnectionError before the CLI starts; without sandbox the settings "
        "value passes to the CLI as given."
    ),
    summary="sandbox + settings: a BOM file is read, bad inline JSON refused, no sandbox verbatim",
    security="a caller's permission rules silently dropped from a sandboxed start",
    source=("sdk-py", "ClaudeAgentOptions.settings"),
    tier="wire",
    checks=("bom-settings-file-merged", "unparsable-inline-settings-refused", "settings-verbatim-without-sandbox"),
    requires=("option:sandbox", "option:settings"),
    pins={
        "bom-settings-file-merged": ("option:settings",),
        "unparsable-inline-settings-refused": ("option:settings",),
        "settings-verbatim-without-sandbox": ("option:sandbox", "option:settings"),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_settings_value",
)
async def settings_path_with_sandbox(h: Harness) -> dict[str, Any]:
    folder = h.workdir("settings-cwd")
    (folder / _FILE).write_bytes(b"\xef\xbb\xbf" + json.dumps(_DENY).encode("utf-8"))
    bom = await h.wire(sandbox=dict(_SANDBOX), settings=_FILE, cwd=str(folder))
    bad = await h.wire(sandbox=dict(_SANDBOX), settings=_BAD_JSON, cwd=str(folder))
    plain = await h.wire(settings=_FILE, cwd=str(folder))
    return {
        "BOM file": _settings_run(bom),
        "unparsable inline JSON": _settings_run(bad),
        "no sandbox": _settings_run(plain),
    }


@settings_path_with_sandbox.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def said(label: str, given: str) -> str:
        s = seen[label]
        return f"{given}: CLI started {s['started']}, --settings {s['settings']!r}, error {s['error']}"

    bad = seen["unparsable inline JSON"]
    return {
        "bom-settings-file-merged": check(
            seen["BOM file"]["settings"] == {**_DENY, "sandbox": _SANDBOX},
            said("BOM file", f"sandbox with settings={_FILE!r}, a file with a BOM holding {_DENY}"),
        ),
        "unparsable-inline-settings-refused": check(
            not bad["started"] and str(bad["error"]).startswith("CLIConnectionError"),
            said("unparsable inline JSON", f"sandbox with settings={_BAD_JSON!r}"),
        ),
        "settings-verbatim-without-sandbox": check(
            seen["no sandbox"]["settings"] == _FILE, said("no sandbox", f"settings={_FILE!r} without sandbox")
        ),
    }


settings_path_with_sandbox.differs_on(
    {
        # v0.2.143: the BOM made the file unparsable, and the SDK went on without its rules
        "BOM file": {"started": True, "settings": {"sandbox": {"enabled": True}}, "error": None},
        # v0.2.143: unparsable inline JSON read as a path, missing, dropped with a warning
        "unparsable inline JSON": {"started": True, "settings": {"sandbox": {"enabled": True}}, "error": None},
        "no sandbox": {"started": True, "settings": "<SPACE>/settings-cwd-1/s.json", "error": None},
    }
)
