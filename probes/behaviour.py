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

Everything above the probe is known before it runs (listing, filtering, requirements):
the keys of `@behaviour(...)` are the fields of `Declaration` (sdkprobe.declaration, which
checks them), each explained in the table of docs/own-behaviours.md. The decision sees
only the normalised observation, so a stored report can be judged again and a test can
hand it an observation for which the claim fails. This module is the ground floor: it
imports neither the harness nor the catalogue.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sdkprobe.areas import area_of
from sdkprobe.areas import declare_area as declare_area  # with `behaviour`: what a team's catalogue needs
from sdkprobe.declaration import SUMMARY_LENGTH as SUMMARY_LENGTH
from sdkprobe.declaration import TIERS as TIERS
from sdkprobe.declaration import Declaration
from sdkprobe.declaration import DeclarationError as DeclarationError
from sdkprobe.declaration import summary_problem as summary_problem
from sdkprobe.sources import declare_source as declare_source
from sdkprobe.surface import named_by, parse_item

HOLDS = "holds"
DIFFERS = "differs"
NOT_APPLICABLE = "not-applicable"
NEEDS_LIVE = "needs-live"
ERROR = "error"
VERDICTS = (HOLDS, DIFFERS, NOT_APPLICABLE, NEEDS_LIVE, ERROR)

Observation = Any  # what a probe returns: JSON-ready data (dicts, lists, strings, numbers)
# One behaviour's observation as its probe declares it. A probe annotated `-> Seen`, with Seen
# a TypedDict naming the observation's keys, makes mypy hold the decision's `seen[...]` and
# every counterexample to those keys: a misspelt key fails the type check, not a run.
Seen = TypeVar("Seen")


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


def combine(checks: Mapping[str, Check], controls: Collection[str] = ()) -> Verdict:
    """A behaviour's verdict from its sub-checks (in declared order).

    A control shows that the probe's setup worked (the positive case, a stand-in); it is
    never the claim. So: `differs` if any decided sub-check differs, control or not (the
    note names each with what was seen); `holds` only if at least one claim sub-check was
    decided and none differs; otherwise `needs-live` if a claim sub-check needs the live
    tier, else `not-applicable`. Whatever the verdict, the note names every sub-check left
    undecided and why, so a `holds` is never read as covering what was not observed.
    """
    by = {name: c.verdict for name, c in checks.items()}
    differing = [f"{name}: {c.note}" for name, c in checks.items() if c.verdict == DIFFERS]
    claim = [name for name in checks if name not in controls]
    decided = [name for name in claim if checks[name].verdict in (HOLDS, DIFFERS)]
    undecided = _undecided({name: c for name, c in checks.items() if c.verdict in (NEEDS_LIVE, NOT_APPLICABLE)})
    if differing:
        return Verdict(DIFFERS, "; ".join(differing + ([f"undecided: {undecided}"] if undecided else [])), by)
    if decided:
        return Verdict(HOLDS, f"undecided: {undecided}" if undecided else "", by)
    held = [name for name in checks if name in controls and checks[name].verdict == HOLDS]
    note = undecided + (f" (controls held: {', '.join(held)})" if held else "")
    live = any(checks[name].verdict == NEEDS_LIVE for name in claim)
    return Verdict(NEEDS_LIVE if live else NOT_APPLICABLE, note, by)


def _undecided(checks: Mapping[str, Check]) -> str:
    """'a, b needs-live: why; c not-applicable: why', grouped by reason in declared order."""
    groups: dict[tuple[str, str], list[str]] = {}
    for name, c in checks.items():
        groups.setdefault((c.verdict, c.note), []).append(name)
    return "; ".join(f"{', '.join(names)} {verdict}: {note}" for (verdict, note), names in groups.items())


Probe = Callable[[Any], Awaitable[Observation]]
Decision = Callable[[Observation], Mapping[str, Check]]


@dataclass(frozen=True, kw_only=True)
class Behaviour(Declaration):
    """A declared behaviour: its declaration's keys, its probe, and what the module attaches
    after (`decide`, `differs_on`). `judge` turns an observation into its verdict."""

    probe: Probe
    decision: Decision | None = None
    counterexamples: tuple[Observation, ...] = ()

    @property
    def area(self) -> str:
        return area_of(self.id)

    @property
    def named(self) -> tuple[str, ...]:
        """The surface items it names, sorted: in `pins` and in its requirements (`option:tools`,
        `api:ClaudeSDKClient.interrupt` as client:interrupt). Naming an item covers nothing."""
        required = {item for r in self.requirements for item in named_by(r)}
        return tuple(sorted(required | {item for items in self.pins.values() for item in items}))

    def pinned(self) -> dict[str, tuple[str, ...]]:
        """Surface item -> the sub-checks that pin it, sorted by item: each a sub-check `pins`
        declares for it that one of the counterexamples makes differ. A pin no counterexample
        shows failing, and an item only a requirement names, pin nothing."""
        shown = self.shown_differing()
        found: dict[str, list[str]] = {}
        for name, items in self.pins.items():
            if name in shown:
                for item in items:
                    found.setdefault(item, []).append(name)
        return {item: tuple(found[item]) for item in sorted(found)}

    @property
    def covered(self) -> tuple[str, ...]:
        """The surface items it covers: those a sub-check pins (see `pinned`), sorted."""
        return tuple(self.pinned())

    def shown_differing(self) -> frozenset[str]:
        """The sub-checks some counterexample makes `differs` (a counterexample the decision
        cannot judge shows none: the catalogue test reports it)."""
        found: set[str] = set()
        for observed in self.counterexamples:
            try:
                checks = self.judge(observed).checks
            except Exception:
                continue
            found |= {name for name, verdict in checks.items() if verdict == DIFFERS}
        return frozenset(found)

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
        return combine({name: found[name] for name in self.checks}, self.controls)


REGISTRY: dict[str, Behaviour] = {}
# surface item -> (why no behaviour covers it, the module that says so)
LEFT_UNCOVERED: dict[str, tuple[str, str]] = {}


def leave_uncovered(module: str, item: str, why: str) -> None:
    """Say why no behaviour covers a public item, in the module of its area:
    `leave_uncovered(__name__, "option:user", "why")`. `sdkprobe surface` shows the reason
    beside the item, which still counts as uncovered, when that module is among the selected
    catalogues. A reason is one line of 15 to 200 characters; saying it again with other
    words, or for an item a behaviour covers, is a DeclarationError (the latter found by the
    catalogue)."""
    if not isinstance(module, str) or module not in sys.modules:
        raise DeclarationError(
            f"leave_uncovered({module!r}, ...): the first argument is the declaring module's __name__"
        )
    try:
        parse_item(item)
    except ValueError as exc:
        raise DeclarationError(f"leave_uncovered: {exc}") from None
    text = " ".join(why.split()) if isinstance(why, str) else ""
    if not SUMMARY_LENGTH[0] <= len(text) <= 200:
        raise DeclarationError(f"leave_uncovered({item!r}): the reason is one line of 15 to 200 characters")
    if LEFT_UNCOVERED.get(item, (text, module)) != (text, module):
        raise DeclarationError(f"leave_uncovered({item!r}): a reason is given already, in {LEFT_UNCOVERED[item][1]}")
    LEFT_UNCOVERED[item] = (text, module)


def _alias_owner(old: str) -> str | None:
    """The id of the declared behaviour that names `old` in its renamed_from, if one does."""
    return next((b.id for b in REGISTRY.values() if old in b.renamed_from), None)


class Declared(Generic[Seen]):
    """What `@behaviour` leaves in the module: the probe, plus `.decide` to attach the decision
    and `.differs_on` for counterexamples, both typed by what the probe returns."""

    def __init__(self, bid: str) -> None:
        self.id = bid

    @property
    def behaviour(self) -> Behaviour:
        return REGISTRY[self.id]

    def decide(self, decision: Callable[[Seen], Mapping[str, Check]]) -> Callable[[Seen], Mapping[str, Check]]:
        b = REGISTRY[self.id]
        if b.decision is not None:
            raise DeclarationError(f"{self.id}: decided twice")
        REGISTRY[self.id] = dataclasses.replace(b, decision=decision)
        return decision

    def differs_on(self, observed: Seen) -> None:
        """Declare an observation for which the claim does not hold: the decision must say
        `differs` on it (a test hands it over), which is how a behaviour shows it can fail."""
        b = REGISTRY[self.id]
        REGISTRY[self.id] = dataclasses.replace(b, counterexamples=(*b.counterexamples, observed))

    async def __call__(self, h: Any) -> Seen:
        seen: Seen = await self.behaviour.probe(h)
        return seen


def behaviour(**keys: Any) -> Callable[[Callable[[Any], Awaitable[Seen]]], Declared[Seen]]:
    """Declare a behaviour from its keys (`Declaration`; what each means: the table in
    docs/own-behaviours.md); the decorated coroutine is its probe. Every mistake in the
    declaration is a DeclarationError here, at import, not when the probe runs."""
    declared = Declaration.of(keys)

    def register(probe: Callable[[Any], Awaitable[Seen]]) -> Declared[Seen]:
        _check_unclaimed(declared)
        written = {f.name: getattr(declared, f.name) for f in dataclasses.fields(Declaration)}
        REGISTRY[declared.id] = Behaviour(**written, probe=probe)
        return Declared[Seen](declared.id)

    return register


def _check_unclaimed(declared: Declaration) -> None:
    """A DeclarationError when the id, or an old id it names, is another behaviour's already."""
    bid = declared.id
    if bid in REGISTRY:
        raise DeclarationError.at(bid, "id", "declared twice")
    owner = _alias_owner(bid)
    if owner is not None:
        raise DeclarationError.at(bid, "id", f"{owner} was renamed from it: an old id cannot be declared again")
    for old in declared.renamed_from:
        if old in REGISTRY:
            raise DeclarationError.at(bid, "renamed_from", f"{old!r}: a declared behaviour has that id")
        owner = _alias_owner(old)
        if owner is not None:
            raise DeclarationError.at(bid, "renamed_from", f"{old!r}: {owner} was renamed from it already")
