"""What several subcommands share: choosing behaviours, and probing the
installed SDK with progress (as `run` and the gate's fresh candidate do)."""

from __future__ import annotations

import fnmatch
import sys
from typing import Any

from sdkprobe import catalogue
from sdkprobe.areas import AREAS
from sdkprobe.behaviour import Behaviour
from sdkprobe.errors import UsageError
from sdkprobe.result import Result
from sdkprobe.runner import RunSettings


def select(
    only: list[str] | None = None,
    tiers: list[str] | None = None,
    areas: list[str] | None = None,
    ids: list[str] | None = None,
    requires: list[str] | None = None,
) -> list[Behaviour]:
    """The behaviours matching every filter given; UsageError for an unknown id or area."""
    behaviours = catalogue.load()
    known = {b.id for b in behaviours}
    unknown = [i for i in only or [] if i not in known]
    if unknown:
        raise UsageError(f"no behaviour with id {', '.join(unknown)} (see `sdkprobe list`)")
    names = [a.name for a in AREAS]
    bad_areas = [a for a in areas or [] if a not in names]
    if bad_areas:
        raise UsageError(f"no area {', '.join(bad_areas)}; areas are {', '.join(names)}")
    return [
        b
        for b in behaviours
        if (not only or b.id in only)
        and (not tiers or b.tier in tiers)
        and (not areas or b.area in areas)
        and (not ids or any(fnmatch.fnmatchcase(b.id, p) for p in ids))
        and (not requires or any(str(r).startswith(w) for r in b.requires for w in requires))
    ]


def probe_installed(
    behaviours: list[Behaviour], settings: RunSettings, jobs: int, info: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Run behaviours on the installed SDK with progress on stderr; the report, not yet written.

    `run` and the gate's fresh candidate both come through here. `info` is `run_info(settings)`
    when the caller has it already.
    """
    from sdkprobe import report
    from sdkprobe.runner import run_all, run_info

    info = info or run_info(settings)
    print(
        f"claude-agent-sdk {info['sdk_version']}, CLI {info['cli_version']} ({info['cli']}): "
        f"{len(behaviours)} behaviours, {jobs} at a time",
        file=sys.stderr,
    )

    def progress(r: Result, done: int, total: int) -> None:
        print(f"[{done}/{total}] {r.verdict:<14} {r.id} ({r.seconds:.1f} s)", file=sys.stderr, flush=True)

    results = run_all(behaviours, settings, jobs=jobs, progress=progress)
    return report.build([r.to_dict() for r in results], info)


def release_cli(version: str | None) -> str | None:
    """The executable of CLI release `version` (installed into the cache when missing), or None."""
    from sdkprobe.releases.claude_code import CliReleaseError, install_cli

    if version is None:
        return None
    try:
        return str(install_cli(version))
    except CliReleaseError as exc:
        raise UsageError(str(exc)) from None
