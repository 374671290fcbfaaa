"""A behaviour: one documented claim, declared as data, with its probe and its decision.

    @behaviour(id="tools.x", claim="...", source=("003", "Quick answer"), tier="cli",
               checks=("keeps-others", "narrows"), requires=("option:tools",))
    async def x(h: Harness) -> Observation:      # observes, through the harness only
        ...
        return {...}

    @x.decide
    def _(seen: Observation) -> dict[str, Check]:  # judges, a pure function of `seen`
        return {"keeps-others": check(..., f"saw {...}"), "narrows": check(...)}

    x.differs_on({...})                              # an observation the claim fails on

Everything above the probe is known before it runs (listing, filtering, requirements);
the decision sees only the normalised observation, so a stored report can be judged
again and a test can hand it an observation for which the claim fails. This module is
the ground floor: it imports neither the harness nor the catalogue.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from probes.areas import BY_NAME as AREAS
from probes.areas import area_of
from probes.requirements import Requirement, parse
from probes.sources import SOURCES

TIERS = ("wire", "cli", "live")

HOLDS = "holds"
DIFFERS = "differs"
NOT_APPLICABLE = "not-applicable"
NEEDS_LIVE = "needs-live"
ERROR = "error"
VERDICTS = (HOLDS, DIFFERS, NOT_APPLICABLE, NEEDS_LIVE, ERROR)

Observation = Any  # what a probe returns: JSON-ready data (dicts, lists, strings, numbers)
_ID = re.compile(r"^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$")
_CHECK = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class DeclarationError(ValueError):
    """A behaviour declared wrongly; raised where it is declared, in one line."""


class NotApplicable(Exception):
    """The SDK under test lacks what a probe needs; the runner reports `not-applicable`."""


@dataclass(frozen=True)
class Check:
    """The verdict of one sub-check and, unless it holds, one line saying what was seen."""

    verdict: str
    note: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in (HOLDS, DIFFERS, NEEDS_LIVE, NOT_APPLICABLE):
            raise ValueError(f"a sub-check is holds, differs, needs-live or not-applicable, not {self.verdict!r}")
        if self.verdict != HOLDS and not self.note.strip():
            raise ValueError(f"a sub-check that is {self.verdict} must say why")


def check(ok: bool, seen: str) -> Check:
    """`holds` when ok; otherwise `differs`, with `seen` naming the values observed."""
    return Check(HOLDS) if ok else Check(DIFFERS, seen)


def needs_live(reason: str) -> Check:
    """A sub-check that only the real model or a claude.ai account can decide."""
    return Check(NEEDS_LIVE, reason)


def undecidable(reason: str) -> Check:
    """A sub-check with no analogue on this SDK version (not-applicable)."""
    return Check(NOT_APPLICABLE, reason)


@dataclass(frozen=True)
class Verdict:
    """What one behaviour was found to do on one version."""

    verdict: str
    note: str = ""
    checks: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")


def combine(checks: Mapping[str, Check]) -> Verdict:
    """A behaviour's verdict from its sub-checks.

    `differs` if any decided sub-check differs (the note names each that does); `holds` if
    every decided one holds (noting those left needs-live); `needs-live` if none could be
    decided offline; `not-applicable` if none applies to this SDK.
    """
    by = {name: c.verdict for name, c in checks.items()}
    differing = [f"{name}: {c.note}" for name, c in checks.items() if c.verdict == DIFFERS]
    live = sorted(name for name, c in checks.items() if c.verdict == NEEDS_LIVE)
    decided = [name for name, c in checks.items() if c.verdict in (HOLDS, DIFFERS)]
    if differing:
        return Verdict(DIFFERS, "; ".join(differing), by)
    if decided:
        return Verdict(HOLDS, f"needs-live: {', '.join(live)}" if live else "", by)
    if live:
        reasons = "; ".join(checks[name].note for name in live)
        return Verdict(NEEDS_LIVE, reasons, by)
    reasons = "; ".join(sorted({c.note for c in checks.values()}))
    return Verdict(NOT_APPLICABLE, reasons, by)


Probe = Callable[[Any], Awaitable[Observation]]
Decision = Callable[[Observation], Mapping[str, Check]]


@dataclass(frozen=True)
class Behaviour:
    """A declared behaviour. `judge` turns an observation into its verdict."""

    id: str
    claim: str
    source: tuple[str, str]  # (key in probes.sources, section)
    tier: str
    checks: tuple[str, ...]
    requires: tuple[Requirement, ...]
    probe: Probe
    decision: Decision | None = None
    sdk_ref: str | None = None
    timeout: float = 60.0
    counterexamples: tuple[Observation, ...] = ()
    cannot_decide: tuple[str, ...] = ()  # sub-checks only a model or a TS compiler could decide

    @property
    def area(self) -> str:
        return area_of(self.id)

    def judge(self, observed: Observation) -> Verdict:
        """The verdict for an observation; DeclarationError if the decision's sub-checks
        are not exactly the declared ones."""
        if self.decision is None:
            raise DeclarationError(f"{self.id}: no decision (add `@{self.probe.__name__}.decide`)")
        found = dict(self.decision(observed))
        if set(found) != set(self.checks):
            extra, missing = sorted(set(found) - set(self.checks)), sorted(set(self.checks) - set(found))
            raise DeclarationError(
                f"{self.id}: the decision's sub-checks differ from the declared ones"
                + (f"; undeclared: {', '.join(extra)}" if extra else "")
                + (f"; missing: {', '.join(missing)}" if missing else "")
            )
        for name, c in found.items():
            if not isinstance(c, Check):
                raise DeclarationError(f"{self.id}: sub-check {name!r} is a {type(c).__name__}, not a Check")
        return combine({name: found[name] for name in self.checks})


REGISTRY: dict[str, Behaviour] = {}


class Declared:
    """What `@behaviour` leaves in the module: the probe, plus `.decide` to attach the decision."""

    def __init__(self, bid: str) -> None:
        self.id = bid

    @property
    def behaviour(self) -> Behaviour:
        return REGISTRY[self.id]

    def decide(self, decision: Decision) -> Decision:
        b = REGISTRY[self.id]
        if b.decision is not None:
            raise DeclarationError(f"{self.id}: decided twice")
        REGISTRY[self.id] = dataclasses.replace(b, decision=decision)
        return decision

    def differs_on(self, observed: Observation) -> None:
        """Declare an observation for which the claim does not hold: the decision must say
        `differs` on it (a test hands it over), which is how a behaviour shows it can fail."""
        b = REGISTRY[self.id]
        REGISTRY[self.id] = dataclasses.replace(b, counterexamples=(*b.counterexamples, observed))

    async def __call__(self, h: Any) -> Observation:
        return await self.behaviour.probe(h)


def behaviour(
    *,
    id: str,
    claim: str,
    source: tuple[str, str],
    tier: str,
    checks: tuple[str, ...],
    requires: tuple[str, ...] = (),
    sdk_ref: str | None = None,
    timeout: float = 60.0,
    cannot_decide: tuple[str, ...] = (),
) -> Callable[[Probe], Declared]:
    """Declare a behaviour; the decorated coroutine is its probe. Every mistake in the
    declaration (unknown area, source or tier, bad sub-check names or requirements) is a
    DeclarationError here, at import, not when the probe runs.

    `cannot_decide` names the sub-checks no observation sdkprobe can make would decide (a
    TypeScript compiler's verdict, a model's free choice): they are always needs-live or
    not-applicable, and the only ones exempt from having to be shown able to differ."""

    def fail(why: str) -> DeclarationError:
        return DeclarationError(f"behaviour {id!r}: {why}")

    if not _ID.match(id):
        raise fail("an id is area.lower-case-words, like tools.mcp-tool-naming")
    if area_of(id) not in AREAS:
        raise fail(f"area {area_of(id)!r} is not declared in probes/areas.py ({', '.join(AREAS)})")
    if tier not in TIERS:
        raise fail(f"tier must be one of {', '.join(TIERS)}, not {tier!r}")
    if not isinstance(source, tuple) or len(source) != 2 or source[0] not in SOURCES:
        raise fail(f"source must be (key, section) with a key of probes/sources.py, not {source!r}")
    if isinstance(checks, str) or not checks or len(set(checks)) != len(checks):
        raise fail("checks must be a tuple of distinct sub-check names, at least one")
    bad = [c for c in checks if not _CHECK.match(c)]
    if bad:
        raise fail(f"sub-check names are lower-case words joined by '-', not {', '.join(map(repr, bad))}")
    if len(claim.strip()) < 20:
        raise fail("the claim says in a sentence what is claimed")
    if not set(cannot_decide) <= set(checks):
        raise fail(f"cannot_decide names undeclared sub-checks: {', '.join(sorted(set(cannot_decide) - set(checks)))}")
    try:
        needs = tuple(parse(r) for r in requires)
    except ValueError as exc:
        raise fail(str(exc)) from None

    def register(probe: Probe) -> Declared:
        if id in REGISTRY:
            raise fail("declared twice")
        REGISTRY[id] = Behaviour(
            id, claim, source, tier, tuple(checks), needs, probe, None, sdk_ref, timeout, (), tuple(cannot_decide)
        )
        return Declared(id)

    return register
