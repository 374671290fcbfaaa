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
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from sdkprobe.areas import BY_NAME as AREAS
from sdkprobe.areas import area_of
from sdkprobe.areas import declare_area as declare_area  # with `behaviour`: what a team's catalogue needs
from sdkprobe.requirements import Requirement, parse
from sdkprobe.sources import SOURCES
from sdkprobe.sources import declare_source as declare_source
from sdkprobe.surface import named_by, parse_item

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
SUMMARY_LENGTH = (15, 90)  # a summary's shortest and longest, in characters


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


def summary_problem(summary: object) -> str | None:
    """Why a behaviour's summary is not one line of the allowed length, or None when it is
    (or when there is none: a summary is optional)."""
    if summary is None:
        return None
    if not isinstance(summary, str):
        return f"a summary is a string, not {type(summary).__name__}"
    if "\n" in summary or "\r" in summary:
        return "a summary is one line"
    shortest, longest = SUMMARY_LENGTH
    if summary != summary.strip() or not shortest <= len(summary) <= longest:
        return f"a summary is {shortest} to {longest} characters, with no space at either end, not {len(summary)}"
    return None


Probe = Callable[[Any], Awaitable[Observation]]
Decision = Callable[[Observation], Mapping[str, Check]]


@dataclass(frozen=True)
class Behaviour:
    """A declared behaviour. `judge` turns an observation into its verdict."""

    id: str
    claim: str
    source: tuple[str, str]  # (key in sdkprobe.sources, section)
    tier: str
    checks: tuple[str, ...]
    requires: tuple[Requirement, ...]
    probe: Probe
    decision: Decision | None = None
    sdk_ref: str | None = None
    timeout: float = 60.0
    counterexamples: tuple[Observation, ...] = ()
    cannot_decide: tuple[str, ...] = ()  # sub-checks only a model or a TS compiler could decide
    controls: tuple[str, ...] = ()  # sub-checks that show the setup worked, never the claim
    summary: str | None = None  # the claim in one short line, for a table a person reads
    renamed_from: tuple[str, ...] = ()  # ids it had before: reports and lists naming them still find it
    # (sub-check, the surface items, `option:add_dirs`, whose contract its verdict pins), declared order
    pins: tuple[tuple[str, tuple[str, ...]], ...] = ()
    security: str | None = None  # why a change of this contract weakens a host's security, if it would

    @property
    def area(self) -> str:
        return area_of(self.id)

    @property
    def named(self) -> tuple[str, ...]:
        """The surface items it names, sorted: in `pins` and in its requirements (`option:tools`,
        `api:ClaudeSDKClient.interrupt` as client:interrupt). Naming an item covers nothing."""
        required = {item for r in self.requires for item in named_by(r)}
        return tuple(sorted(required | {item for _, items in self.pins for item in items}))

    def pinned(self) -> dict[str, tuple[str, ...]]:
        """Surface item -> the sub-checks that pin it, sorted by item: each a sub-check `pins`
        declares for it that one of the counterexamples makes differ. A pin no counterexample
        shows failing, and an item only a requirement names, pin nothing."""
        shown = self.shown_differing()
        found: dict[str, list[str]] = {}
        for name, items in self.pins:
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


def leave_uncovered(item: str, why: str) -> None:
    """Say why no behaviour covers a public item (`option:user`), in the module of its area:
    `sdkprobe surface` shows the reason beside the item, which still counts as uncovered.
    A reason is one line of 15 to 200 characters; saying it again with other words, or for
    an item a behaviour covers, is a DeclarationError (the latter found by the catalogue)."""
    import sys

    try:
        parse_item(item)
    except ValueError as exc:
        raise DeclarationError(f"leave_uncovered: {exc}") from None
    text = " ".join(why.split()) if isinstance(why, str) else ""
    if not SUMMARY_LENGTH[0] <= len(text) <= 200:
        raise DeclarationError(f"leave_uncovered({item!r}): the reason is one line of 15 to 200 characters")
    module = str(sys._getframe(1).f_globals.get("__name__", ""))
    if LEFT_UNCOVERED.get(item, (text, module)) != (text, module):
        raise DeclarationError(f"leave_uncovered({item!r}): a reason is given already, in {LEFT_UNCOVERED[item][1]}")
    LEFT_UNCOVERED[item] = (text, module)


def _alias_owner(old: str) -> str | None:
    """The id of the declared behaviour that names `old` in its renamed_from, if one does."""
    return next((b.id for b in REGISTRY.values() if old in b.renamed_from), None)


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
    renamed_from: tuple[str, ...] = (),
    claim: str,
    source: tuple[str, str],
    tier: str,
    checks: tuple[str, ...],
    requires: tuple[str, ...] = (),
    sdk_ref: str | None = None,
    timeout: float = 60.0,
    cannot_decide: tuple[str, ...] = (),
    controls: tuple[str, ...] = (),
    summary: str | None = None,
    pins: Mapping[str, tuple[str, ...]] | None = None,
    security: str | None = None,
    covers: object = None,
) -> Callable[[Probe], Declared]:
    """Declare a behaviour; the decorated coroutine is its probe. Every mistake in the
    declaration (unknown area, source or tier, bad sub-check names or requirements) is a
    DeclarationError here, at import, not when the probe runs.

    `cannot_decide` names the sub-checks no observation sdkprobe can make would decide (a
    TypeScript compiler's verdict, a model's free choice): they are always needs-live or
    not-applicable, and the only ones exempt from having to be shown able to differ.

    `controls` names the sub-checks that only show the probe's setup worked (the positive
    case that must show a marker, a stand-in for the original): a control that holds never
    makes the verdict `holds` on its own (see `combine`). At least one sub-check is the claim.

    `summary` is the claim in one line of 15 to 90 characters, saying what holds when the
    verdict is `holds`, for a table a person decides an upgrade from.

    `renamed_from` names the ids the behaviour had before (written right after `id=`): a
    report, a relied-on list or an `--only` naming an old id still finds it (the catalogue's
    `resolve`). An old id is spelt like an id, and is neither a declared id nor another
    behaviour's old id.

    `pins` maps a sub-check to the SDK's public items (`sdkprobe surface` lists them:
    `option:add_dirs`, `client:interrupt`, `hook-output:SyncHookJSONOutput.continue_`) whose
    contract its verdict pins: handed an observation where that item's contract changed in
    the way the probe observes, it says `differs`. A counterexample shows it (`differs_on`):
    an item counts as covered only through a sub-check some counterexample makes differ. A
    requirement (`option:tools`) names an item but never covers it: what a probe needs to
    run is not what its decision notices. A control pins nothing.

    `security` marks a contract a host relies on for its safety (a deny honoured, a
    disallowed tool never running, a value that cannot be read as a flag, what the
    environment passes on): one line saying what a change would expose. The matrix and
    the gate show the mark, so such a change is never read as a cosmetic one."""

    def fail(why: str) -> DeclarationError:
        return DeclarationError(f"behaviour {id!r}: {why}")

    if not _ID.match(id):
        raise fail("an id is area.lower-case-words, like tools.mcp-tool-naming")
    if isinstance(renamed_from, str):
        raise fail("renamed_from is a tuple of old ids: renamed_from=('area.old-id',)")
    bad_old = [old for old in renamed_from if not _ID.match(old)]
    if bad_old:
        raise fail(f"an old id in renamed_from is area.lower-case-words too, not {', '.join(map(repr, bad_old))}")
    if id in renamed_from or len(set(renamed_from)) != len(renamed_from):
        raise fail("renamed_from names distinct ids the behaviour had before, not its own")
    if area_of(id) not in AREAS:
        raise fail(
            f"area {area_of(id)!r} is not declared ({', '.join(AREAS)}; a catalogue adds its own with declare_area)"
        )
    if tier not in TIERS:
        raise fail(f"tier must be one of {', '.join(TIERS)}, not {tier!r}")
    if not isinstance(source, tuple) or len(source) != 2 or source[0] not in SOURCES:
        raise fail(
            f"source must be (key, section) with a key of sdkprobe's sources or one declared with declare_source, "
            f"not {source!r}"
        )
    if isinstance(checks, str) or not checks or len(set(checks)) != len(checks):
        raise fail("checks must be a tuple of distinct sub-check names, at least one")
    bad = [c for c in checks if not _CHECK.match(c)]
    if bad:
        raise fail(f"sub-check names are lower-case words joined by '-', not {', '.join(map(repr, bad))}")
    if len(claim.strip()) < 20:
        raise fail("the claim says in a sentence what is claimed")
    why_not = summary_problem(summary)
    if why_not:
        raise fail(why_not)
    if not set(cannot_decide) <= set(checks):
        raise fail(f"cannot_decide names undeclared sub-checks: {', '.join(sorted(set(cannot_decide) - set(checks)))}")
    if not set(controls) <= set(checks):
        raise fail(f"controls names undeclared sub-checks: {', '.join(sorted(set(controls) - set(checks)))}")
    if set(controls) == set(checks):
        raise fail("every sub-check is a control: at least one must be the claim itself")
    try:
        needs = tuple(parse(r) for r in requires)
    except ValueError as exc:
        raise fail(str(exc)) from None
    pinned = _pins(pins, covers, checks, controls, cannot_decide, fail)
    if security is not None and not (isinstance(security, str) and 15 <= len(security.strip()) <= 160):
        raise fail("security says in one line (15 to 160 characters) what a change of the contract would expose")

    def register(probe: Probe) -> Declared:
        if id in REGISTRY:
            raise fail("declared twice")
        owner = _alias_owner(id)
        if owner is not None:
            raise fail(f"{owner} was renamed from it: a behaviour's old id cannot be declared again")
        for old in renamed_from:
            if old in REGISTRY:
                raise fail(f"renamed_from {old!r}: a declared behaviour has that id")
            owner = _alias_owner(old)
            if owner is not None:
                raise fail(f"renamed_from {old!r}: {owner} was renamed from it already")
        REGISTRY[id] = Behaviour(
            id,
            claim,
            source,
            tier,
            tuple(checks),
            needs,
            probe,
            None,
            sdk_ref,
            timeout,
            (),
            tuple(cannot_decide),
            tuple(controls),
            summary,
            tuple(renamed_from),
            pinned,
            security.strip() if security else None,
        )
        return Declared(id)

    return register


def _pins(
    pins: Mapping[str, tuple[str, ...]] | None,
    covers: object,
    checks: tuple[str, ...],
    controls: tuple[str, ...],
    cannot_decide: tuple[str, ...],
    fail: Callable[[str], DeclarationError],
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`pins` as the Behaviour keeps it, in declared sub-check order; a DeclarationError for a
    sub-check that is not declared, is a control or cannot be decided, or an item misspelt."""
    if covers is not None:
        raise fail(
            "covers= became pins={'sub-check': ('option:x', ...)}: name the sub-check whose verdict pins each item"
        )
    if pins is None:
        return ()
    if not isinstance(pins, Mapping):
        raise fail("pins maps a sub-check to the surface items it pins: pins={'sub-check': ('option:add_dirs',)}")
    for name, items in pins.items():
        if name not in checks:
            raise fail(f"pins names an undeclared sub-check {name!r}")
        if name in controls or name in cannot_decide:
            raise fail(f"pins {name!r}: a control or a sub-check no observation decides pins nothing")
        if isinstance(items, str) or not items or len(set(items)) != len(items):
            raise fail(f"pins {name!r}: a tuple of distinct surface items, at least one: ('option:add_dirs',)")
        try:
            for item in items:
                parse_item(item)
        except ValueError as exc:
            raise fail(str(exc)) from None
    return tuple((name, tuple(pins[name])) for name in checks if name in pins)
