"""The behaviours, one module per area. `load()` imports them all and returns them.

A behaviour module uses only `sdkprobe.behaviour` (the declaration and the sub-check
verdicts) and the public calls of the `Harness` its probe is given.
"""

from __future__ import annotations

import importlib
import pkgutil

from sdkprobe.areas import order
from sdkprobe.behaviour import REGISTRY, Behaviour


def load() -> list[Behaviour]:
    """Every declared behaviour, in area order, then by id."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return sorted(REGISTRY.values(), key=lambda b: (order(b.area), b.id))


def by_id(bid: str) -> Behaviour:
    load()
    return REGISTRY[bid]
