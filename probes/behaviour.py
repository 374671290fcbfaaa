"""A behaviour: one documented claim, its probe and its verdict, declared in one place.

Behaviours register themselves with `@behaviour(...)` in the modules of
`probes.catalogue`; everything downstream (the runner, pytest, reports) reads the
registry and nothing else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

TIERS = ("wire", "cli", "live")

HOLDS = "holds"
DIFFERS = "differs"
NOT_APPLICABLE = "not-applicable"
NEEDS_LIVE = "needs-live"
ERROR = "error"
VERDICTS = (HOLDS, DIFFERS, NOT_APPLICABLE, NEEDS_LIVE, ERROR)


@dataclass(frozen=True)
class Verdict:
    """What one probe found on one version.

    `checks` holds the verdict of each sub-check ((a), (b), ... in the catalogue);
    `observed` is the normalised evidence the verdict was drawn from.
    """

    verdict: str
    note: str = ""
    checks: dict[str, str] = field(default_factory=dict)
    observed: Any = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def decide(
    *,
    holds: bool | None = None,
    checks: dict[str, bool] | None = None,
    observed: Any = None,
    note: str = "",
) -> Verdict:
    """Turn a probe's findings into a Verdict.

    Give either one boolean (`holds`) or named sub-checks (`checks`); the claim holds
    only when every sub-check does. `note` should say what was seen where it differs.
    """
    if (holds is None) == (checks is None):
        raise TypeError("give exactly one of holds= or checks=")
    sub = {k: HOLDS if v else DIFFERS for k, v in (checks or {}).items()}
    ok = holds if checks is None else all(checks.values())
    if not ok and not note:
        failed = [k for k, v in sub.items() if v == DIFFERS]
        note = "differs in " + ", ".join(failed) if failed else "the claim does not hold"
    return Verdict(HOLDS if ok else DIFFERS, note, sub, observed)


def not_applicable(reason: str, observed: Any = None) -> Verdict:
    return Verdict(NOT_APPLICABLE, reason, {}, observed)


class NotApplicable(Exception):
    """Raised by the harness when the SDK under test lacks what a probe needs
    (an option, a method); the runner reports `not-applicable` with the message."""


Probe = Callable[[Any], Awaitable[Verdict]]


@dataclass(frozen=True)
class Behaviour:
    id: str
    claim: str
    source: tuple[str, str]
    tier: str
    probe: Probe
    timeout: float = 60.0

    @property
    def area(self) -> str:
        return self.id.split(".", 1)[0]


REGISTRY: dict[str, Behaviour] = {}


def behaviour(
    *, id: str, claim: str, source: tuple[str, str], tier: str, timeout: float = 60.0
) -> Callable[[Probe], Probe]:
    """Declare a behaviour; the decorated coroutine is its probe."""
    if tier not in TIERS:
        raise ValueError(f"{id}: tier must be one of {TIERS}, not {tier!r}")

    def register(probe: Probe) -> Probe:
        if id in REGISTRY:
            raise ValueError(f"behaviour {id!r} declared twice")
        REGISTRY[id] = Behaviour(id, claim, source, tier, probe, timeout)
        return probe

    return register


def all_behaviours() -> list[Behaviour]:
    """Every declared behaviour, in id order."""
    import probes.catalogue  # noqa: F401  (importing the catalogue fills the registry)

    return [REGISTRY[k] for k in sorted(REGISTRY)]
