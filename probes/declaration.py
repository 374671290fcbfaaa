"""What `@behaviour(...)` is given: one dataclass whose fields are its keys, checked in one place.

Each key's meaning is written once, in the table "The declaration's keys" of
docs/own-behaviours.md; a test holds that table to these fields (name, required, type), so
neither can change without the other. Every rule a key follows is checked in
`Declaration.__post_init__`, so a Declaration that exists is a valid one, and each mistake is a
DeclarationError naming the behaviour and the key. This module knows nothing of probes, the
registry or the harness.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sdkprobe import areas, sources
from sdkprobe.requirements import Requirement, parse
from sdkprobe.surface import parse_item

TIERS = ("wire", "cli", "live")
SUMMARY_LENGTH = (15, 90)  # a summary's shortest and longest, in characters
SECURITY_LENGTH = (15, 160)  # and a security line's
_ID = re.compile(r"^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)*$")
_CHECK = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# Keys a declaration once took, and what says the same now.
_BECAME = {"covers": "pins={'sub-check': ('option:x', ...)}: name the sub-check whose verdict pins each item"}


class DeclarationError(ValueError):
    """A behaviour declared wrongly; raised where it is declared, in one line."""

    @classmethod
    def at(cls, bid: object, key: str, why: str) -> DeclarationError:
        """The error of one key of one behaviour: `behaviour 'tools.x', key 'tier': why`."""
        who = repr(bid) if bid is not None else "(no id)"
        return cls(f"behaviour {who}, key {key!r}: {why}")


@dataclass(frozen=True, kw_only=True)
class Declaration:
    """A behaviour's declaration, key for key as `@behaviour(...)` is given it (the table in
    docs/own-behaviours.md says what each means). Built with keywords; `of` also names a key
    it does not know or a required one left out."""

    id: str
    renamed_from: tuple[str, ...] = ()
    claim: str
    summary: str | None = None
    source: tuple[str, str]
    tier: str
    checks: tuple[str, ...]
    requires: tuple[str, ...] = ()
    pins: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    controls: tuple[str, ...] = ()
    cannot_decide: tuple[str, ...] = ()
    security: str | None = None
    sdk_ref: str | None = None
    timeout: float = 60.0

    @staticmethod
    def of(keys: Mapping[str, Any]) -> Declaration:
        """The declaration `@behaviour(**keys)` makes; a DeclarationError for a key it does not
        know (with the one meant, when close) or a required key it lacks."""
        bid = keys.get("id")
        known = [f.name for f in dataclasses.fields(Declaration)]
        for key in keys:
            if key in _BECAME:
                raise DeclarationError.at(bid, key, f"became {_BECAME[key]}")
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                meant = f"did you mean {close[0]!r}? " if close else ""
                raise DeclarationError.at(bid, key, f"no such key ({meant}the keys: docs/own-behaviours.md)")
        for key in required():
            if key not in keys:
                raise DeclarationError.at(bid, key, "is required")
        return Declaration(**keys)

    def __post_init__(self) -> None:
        hints = _hints()
        for f in dataclasses.fields(Declaration):
            value = getattr(self, f.name)
            if not conforms(value, hints[f.name]):
                raise self._error(f.name, f"is {f.type}, not {shape(value)}")
        self._check_naming()
        self._check_words()
        self._check_sub_checks()
        self._check_needs()
        # Kept in the form every reader wants: pins in declared sub-check order, security trimmed.
        object.__setattr__(self, "pins", {name: tuple(self.pins[name]) for name in self.checks if name in self.pins})
        object.__setattr__(self, "security", self.security.strip() if self.security else None)

    @property
    def requirements(self) -> tuple[Requirement, ...]:
        """`requires`, each parsed: what the runner checks before the probe runs."""
        return tuple(parse(r) for r in self.requires)

    def _error(self, key: str, why: str) -> DeclarationError:
        return DeclarationError.at(self.id, key, why)

    def _check_naming(self) -> None:
        """id, renamed_from, tier and source: what a behaviour is found and grouped by."""
        if not _ID.match(self.id):
            raise self._error("id", "an id is area.lower-case-words, like tools.mcp-tool-naming")
        area = areas.area_of(self.id)
        if area not in areas.BY_NAME:
            known = ", ".join(areas.BY_NAME)
            raise self._error("id", f"area {area!r} is not declared ({known}; a catalogue adds its own: declare_area)")
        bad_old = [old for old in self.renamed_from if not _ID.match(old)]
        if bad_old:
            bad = ", ".join(map(repr, bad_old))
            raise self._error("renamed_from", f"an old id is area.lower-case-words too, not {bad}")
        if self.id in self.renamed_from or len(set(self.renamed_from)) != len(self.renamed_from):
            raise self._error("renamed_from", "distinct ids the behaviour had before, not its own")
        if self.tier not in TIERS:
            raise self._error("tier", f"one of {', '.join(TIERS)}, not {self.tier!r}")
        if self.source[0] not in sources.SOURCES:
            raise self._error(
                "source",
                f"(key, section) with a key of sdkprobe's sources or one declared with declare_source, "
                f"not {self.source!r}",
            )

    def _check_words(self) -> None:
        """claim, summary and security: what a person reads."""
        if len(self.claim.strip()) < 20:
            raise self._error("claim", "says in a sentence what is claimed")
        why_not = summary_problem(self.summary)
        if why_not:
            raise self._error("summary", why_not)
        shortest, longest = SECURITY_LENGTH
        if self.security is not None and not shortest <= len(self.security.strip()) <= longest:
            raise self._error("security", f"one line ({shortest} to {longest} characters): what a change would expose")

    def _check_sub_checks(self) -> None:
        """checks, cannot_decide, controls and pins: the sub-checks and what each may do."""
        if not self.checks or len(set(self.checks)) != len(self.checks):
            raise self._error("checks", "distinct sub-check names, at least one")
        bad = [c for c in self.checks if not _CHECK.match(c)]
        if bad:
            raise self._error("checks", f"lower-case words joined by '-', not {', '.join(map(repr, bad))}")
        for key in ("cannot_decide", "controls"):
            undeclared = sorted(set(getattr(self, key)) - set(self.checks))
            if undeclared:
                raise self._error(key, f"names undeclared sub-checks: {', '.join(undeclared)}")
        if set(self.controls) == set(self.checks):
            raise self._error("controls", "every sub-check is a control: at least one must be the claim itself")
        for name, items in self.pins.items():
            if name not in self.checks:
                raise self._error("pins", f"names an undeclared sub-check {name!r}")
            if name in self.controls or name in self.cannot_decide:
                raise self._error("pins", f"{name!r}: a control or a sub-check no observation decides pins nothing")
            if not items or len(set(items)) != len(items):
                raise self._error("pins", f"{name!r}: distinct surface items, at least one: ('option:add_dirs',)")
            for item in items:
                try:
                    parse_item(item)
                except ValueError as exc:
                    raise self._error("pins", str(exc)) from None

    def _check_needs(self) -> None:
        """requires and timeout: what the probe needs to run."""
        for r in self.requires:
            try:
                parse(r)
            except ValueError as exc:
                raise self._error("requires", str(exc)) from None
        if not self.timeout > 0:
            raise self._error("timeout", f"a number of seconds above 0, not {self.timeout!r}")


def required() -> list[str]:
    """The keys a declaration cannot leave out, in declared order."""
    missing = dataclasses.MISSING
    return [f.name for f in dataclasses.fields(Declaration) if f.default is missing and f.default_factory is missing]


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


@functools.cache
def _hints() -> dict[str, Any]:
    return typing.get_type_hints(Declaration)


def shape(value: object) -> str:
    """A value's type as a declaration's types are spelt, its items' too: tuple[str, int],
    dict[str, str], list[str]; what a wrong-type error shows beside the type a key takes."""
    if isinstance(value, tuple):
        return f"tuple[{', '.join(shape(v) for v in value)}]" if value else "tuple[()]"
    if isinstance(value, Mapping):
        keys, values = (" | ".join(sorted({shape(v) for v in vs})) for vs in (value.keys(), value.values()))
        return f"{type(value).__name__}[{keys}, {values}]" if value else type(value).__name__
    if isinstance(value, (list, set, frozenset)):
        return (
            f"{type(value).__name__}[{' | '.join(sorted({shape(v) for v in value}))}]"
            if value
            else type(value).__name__
        )
    return type(value).__name__


def conforms(value: object, hint: Any) -> bool:
    """Whether `value` is of the type `hint` spells, for the forms a declaration's keys use:
    str, float (an int too, never a bool), X | None, tuple[X, ...], tuple[X, Y], Mapping[K, V]."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, a) for a in args)
    if hint is type(None):
        return value is None
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(conforms(v, a) for v, a in zip(value, args, strict=True))
    if origin is Mapping:
        key, kept = args
        return isinstance(value, Mapping) and all(conforms(k, key) and conforms(v, kept) for k, v in value.items())
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, hint)
