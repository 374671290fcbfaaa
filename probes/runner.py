"""Runs behaviours and turns each into a Result; a probe that breaks is an `error`.

For each behaviour, in this order: a live behaviour without --live is `needs-live`; a
declared requirement the SDK under test lacks makes it `not-applicable`; otherwise the
probe observes in its own Space under a timeout, the observation is normalised, and the
behaviour's decision judges it. With jobs > 1 behaviours run in worker processes
(Python's warning capture is process-wide, so two probes must not share one), each in a
session of its own: the terminal's Ctrl-C reaches only the main process, which cancels what
is queued and ends the workers and everything they started (sdkprobe.scope).

While a probe runs, file descriptor 2 goes nowhere: what its processes write that the SDK
does not read (a CLI's stderr, inherited when no stderr callback is set) belongs to the
probe's observation or nowhere, never between the progress lines.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import json
import os
import platform
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sdkprobe
from sdkprobe import catalogue, scope
from sdkprobe.behaviour import ERROR, NEEDS_LIVE, NOT_APPLICABLE, Behaviour, DeclarationError, NotApplicable, Verdict
from sdkprobe.harness import Harness, Space, sdk, under_test
from sdkprobe.harness.under_test import OptionMissing
from sdkprobe.requirements import Target
from sdkprobe.result import Result
from sdkprobe.sources import cite

# The folder holding the sdkprobe package (the repository, for an editable install): notes
# name source files from here.
_PROJECT = Path(sdkprobe.__file__).resolve().parent.parent


@dataclass(frozen=True)
class RunSettings:
    cli_path: str | None = None
    live: bool = False


def run_info(settings: RunSettings) -> dict[str, Any]:
    """What a report says about the run: versions, platform, and the SDK's public surface
    (`kind:name` strings, for the gate's note on what a release added or removed)."""
    info: dict[str, Any] = {
        "sdk_version": sdk.sdk_version(),
        "cli_version": sdk.cli_version(settings.cli_path),
        "cli": "bundled" if settings.cli_path is None else "custom",
        "python": platform.python_version(),
        "platform": f"{platform.system()}-{platform.machine()}",
    }
    info.update(under_test.current().run_info())
    return info


def target(settings: RunSettings) -> Target:
    """The SDK and CLI under test, as requirements are checked against them."""
    return Target(under_test.current(), sdk.cli_version(settings.cli_path))


def unmet(b: Behaviour, settings: RunSettings) -> list[str]:
    """Why the SDK under test cannot run this behaviour's probe (empty when it can)."""
    under_test = target(settings)
    return [why for why in (r.unmet(under_test) for r in b.requirements) if why]


def judge(b: Behaviour, observed: Any) -> Verdict:
    """The verdict for an observation; a decision that breaks is an `error`, never a finding."""
    try:
        return b.judge(observed)
    except DeclarationError as exc:
        return Verdict(ERROR, str(exc))
    except Exception as exc:
        return Verdict(ERROR, decision_broke(b, exc))


def result_of(b: Behaviour, v: Verdict, observed: Any = None, seconds: float = 0.0) -> Result:
    """The Result of a verdict on an observation: every other field from the declaration.
    `rejudge` builds its entries here too, so a field taken from the declaration is refreshed
    in stored reports as soon as the runner writes it."""
    return Result(
        id=b.id,
        area=b.area,
        tier=b.tier,
        claim=b.claim,
        source=cite(*b.source),
        verdict=v.verdict,
        note=v.note,
        checks=dict(v.checks),
        observed=observed,
        summary=b.summary,
        security=b.security,
        seconds=seconds,
    )


def run_one(b: Behaviour, settings: RunSettings) -> Result:
    """Run one behaviour's probe in a fresh space and judge it; never raises."""
    start = time.monotonic()

    def result(v: Verdict, observed: Any = None) -> Result:
        return result_of(b, v, observed, time.monotonic() - start)

    if b.tier == "live" and not settings.live:
        return result(Verdict(NEEDS_LIVE, "needs --live and ANTHROPIC_API_KEY", dict.fromkeys(b.checks, NEEDS_LIVE)))
    missing = unmet(b, settings)
    if missing:
        return result(Verdict(NOT_APPLICABLE, "; ".join(missing)))
    with Space.create() as space, _stderr_discarded():
        # Only live behaviours go live: --live never moves a cli-tier probe off the double.
        h = Harness(space, tier=b.tier, cli_path=settings.cli_path, live=settings.live and b.tier == "live")
        try:
            seen = asyncio.run(_probed(b, h))
        except OptionMissing as exc:
            return result(_option_missing(b, exc, h))
        except NotApplicable as exc:
            return result(Verdict(NOT_APPLICABLE, h.observe(" ".join(str(exc).split()))))
        except asyncio.TimeoutError:
            return result(Verdict(ERROR, f"probe timed out after {b.timeout:g} s"))
        except Exception as exc:
            return result(Verdict(ERROR, h.observe(_where(exc))))
        # Judged exactly as stored: normalised (this probe's own paths named) and in the
        # report's canonical JSON form, so judging a stored report again gives the same.
        observed = json.loads(json.dumps(h.observe(seen), sort_keys=True))
    return result(judge(b, observed), observed)


def _option_missing(b: Behaviour, exc: OptionMissing, h: Harness) -> Verdict:
    """Not-applicable when the behaviour declared the options its probe found missing;
    otherwise an error of the probe, which should have declared them."""
    declared = {r.name for r in b.requirements if r.kind == "option"}
    undeclared = [n for n in exc.names if n not in declared]
    if not undeclared:
        return Verdict(NOT_APPLICABLE, h.observe(" ".join(str(exc).split())))
    declare = ", ".join(f"'option:{n}'" for n in undeclared)
    return Verdict(ERROR, f"{exc}; declare requires=({declare},) so that an SDK without it is not-applicable")


async def _probed(b: Behaviour, h: Harness) -> Any:
    """The probe's observation, with its timeout. What the probe left to the garbage collector
    (an SDK subprocess transport it never closed) is collected while its loop still runs, so
    the transport closes on that loop instead of complaining later that the loop is closed."""
    try:
        return await asyncio.wait_for(b.probe(h), b.timeout)
    finally:
        gc.collect()


@contextmanager
def _stderr_discarded() -> Iterator[None]:
    """File descriptor 2 (inherited by every process the probe starts) on /dev/null while inside.

    Whatever garbage is still left once the probe's loop closed (see `_probed`) is collected
    before fd 2 comes back, so a complaint from it goes nowhere instead of to the terminal."""
    sys.stderr.flush()
    saved, nowhere = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(nowhere, 2)
        yield
    finally:
        gc.collect()
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(nowhere)


def decision_broke(b: Behaviour, exc: BaseException) -> str:
    """The note for a decision that raised: "decision of tools.x raised KeyError 'a' at
    probes/catalogue/tools/offered.py:151". Every decision is a function named `_`, so the note names
    the behaviour, and the place by file and line: the innermost frame, from the decision
    down, in the decision's own folder (its module, or a helper there or in the area's
    support module, whose name is added: "in _fate")."""
    code = getattr(b.decision, "__code__", None)
    frames = list(traceback.extract_tb(exc.__traceback__))
    if code is not None:
        own = (code.co_filename, code.co_name)
        start = next((i for i, f in enumerate(frames) if (f.filename, f.name) == own), None)
        if start is not None:
            folder = Path(code.co_filename).parent
            frames = [f for f in frames[start:] if Path(f.filename).parent == folder]
    where = ""
    if frames:
        where = f" at {_shown_path(frames[-1].filename)}:{frames[-1].lineno}"
        if code is not None and frames[-1].name != code.co_name:
            where += f" in {frames[-1].name}"
    return " ".join(f"decision of {b.id} raised {type(exc).__name__} {exc}{where}".split())


def _shown_path(filename: str) -> str:
    """A source file as a note names it: from the project's root (probes/catalogue/tools/offered.py),
    or (a team's catalogue) from the working directory, else by its name alone."""
    path = Path(filename).resolve()
    for root in (_PROJECT, Path.cwd().resolve()):
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return path.name


def _where(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {tb[-1].name}:{tb[-1].lineno}" if tb else ""
    return " ".join(f"{type(exc).__name__}: {exc}{where}".split())


def _run_by_id(bid: str, settings: RunSettings) -> Result:
    return run_one(catalogue.by_id(bid), settings)


def _worker_start() -> None:
    """A pool worker leads a session of its own: a Ctrl-C at the terminal is the main process's to handle."""
    os.setsid()


def run_all(
    behaviours: list[Behaviour],
    settings: RunSettings,
    jobs: int = 1,
    progress: Callable[[Result, int, int], None] | None = None,
) -> list[Result]:
    """Run every behaviour (in `jobs` processes) and return results in the order given."""
    results: dict[str, Result] = {}
    total = len(behaviours)

    def done(r: Result) -> None:
        results[r.id] = r
        if progress:
            progress(r, len(results), total)

    if jobs <= 1 or total <= 1:
        for b in behaviours:
            done(run_one(b, settings))
    else:
        with scope.entered() as own:  # what the workers start, told apart from the rest of the invocation
            pool = concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, total), initializer=_worker_start)
            try:
                futures = [pool.submit(_run_by_id, b.id, settings) for b in behaviours]
                for f in concurrent.futures.as_completed(futures):
                    done(f.result())
            except BaseException:  # Ctrl-C above all: nothing queued starts, nothing started goes on
                pool.shutdown(wait=False, cancel_futures=True)
                scope.end(own, with_descendants=True)
                raise
            pool.shutdown()
    return [results[b.id] for b in behaviours]
