"""Runs behaviours and turns each into a result; a probe that breaks is an `error`.

Each behaviour gets its own Space and a timeout. With jobs > 1 behaviours run in worker
processes (Python's warning capture is process-wide, so two probes must not share one).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import platform
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from probes.behaviour import (
    ERROR,
    NEEDS_LIVE,
    NOT_APPLICABLE,
    REGISTRY,
    Behaviour,
    NotApplicable,
    Verdict,
    all_behaviours,
)
from probes.harness import Harness, Space
from probes.harness import sdk as sdk_info


@dataclass
class Result:
    id: str
    area: str
    tier: str
    claim: str
    source: list[str]
    verdict: str
    note: str = ""
    checks: dict[str, str] = field(default_factory=dict)
    observed: Any = None
    seconds: float = 0.0  # shown in progress, never stored in a report

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("seconds")
        return d


@dataclass(frozen=True)
class RunSettings:
    cli_path: str | None = None
    live: bool = False


def run_info(settings: RunSettings) -> dict[str, Any]:
    """What a report says about the run: versions and platform."""
    return {
        "sdk_version": sdk_info.sdk_version(),
        "cli_version": cli_version(settings.cli_path),
        "cli": "bundled" if settings.cli_path is None else "custom",
        "python": platform.python_version(),
        "platform": f"{platform.system()}-{platform.machine()}",
    }


def cli_version(cli_path: str | None) -> str | None:
    if cli_path is None:
        return sdk_info.bundled_cli_version()
    import subprocess

    try:
        out = subprocess.run([cli_path, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return None
    return out.split()[0] if out.split() else None


def run_one(b: Behaviour, settings: RunSettings) -> Result:
    """Run one behaviour's probe in a fresh space; never raises."""
    start = time.monotonic()
    base = dict(id=b.id, area=b.area, tier=b.tier, claim=b.claim, source=list(b.source))
    if b.tier == "live" and not settings.live:
        return Result(**base, verdict=NEEDS_LIVE, note="needs --live and ANTHROPIC_API_KEY")
    with Space.create() as space:
        # Only live behaviours go live: --live never moves a cli-tier probe off the double.
        h = Harness(space, cli_path=settings.cli_path, live=settings.live and b.tier == "live")
        try:
            v: Verdict = asyncio.run(asyncio.wait_for(b.probe(h), b.timeout))
        except NotApplicable as exc:
            v = Verdict(NOT_APPLICABLE, str(exc))
        except asyncio.TimeoutError:
            v = Verdict(ERROR, f"probe timed out after {b.timeout:g} s")
        except Exception as exc:
            tb = traceback.extract_tb(exc.__traceback__)
            where = f" at {tb[-1].name}:{tb[-1].lineno}" if tb else ""
            v = Verdict(ERROR, f"{type(exc).__name__}: {exc}{where}")
        # Everything stored is normalised here, with this probe's own paths named.
        note, observed = h.observe(" ".join(v.note.split())), h.observe(v.observed)
    return Result(
        **base,
        verdict=v.verdict,
        note=note,
        checks=dict(v.checks),
        observed=observed,
        seconds=time.monotonic() - start,
    )


def _run_by_id(bid: str, settings: RunSettings) -> Result:
    all_behaviours()
    return run_one(REGISTRY[bid], settings)


def run_all(
    behaviours: list[Behaviour],
    settings: RunSettings,
    jobs: int = 1,
    progress: Callable[[Result, int, int], None] | None = None,
) -> list[Result]:
    """Run every behaviour (in `jobs` processes) and return results in id order."""
    results: list[Result] = []
    total = len(behaviours)

    def done(r: Result) -> None:
        results.append(r)
        if progress:
            progress(r, len(results), total)

    if jobs <= 1 or total <= 1:
        for b in behaviours:
            done(run_one(b, settings))
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, total)) as pool:
            futures = [pool.submit(_run_by_id, b.id, settings) for b in behaviours]
            for f in concurrent.futures.as_completed(futures):
                done(f.result())
    return sorted(results, key=lambda r: r.id)
