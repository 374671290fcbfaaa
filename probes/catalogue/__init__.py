"""The behaviours: sdkprobe's own, one module per area here, and any a team declares in its
own modules. `load()` imports them and returns those selected.

A behaviour module uses `sdkprobe.behaviour` (the declaration and the sub-check verdicts),
the public calls of the `Harness` its probe is given, and the SDK's own public types where
the claim is about them (a `HookMatcher`, an `AgentDefinition`); never a harness internal.

What several behaviours of an area share at length stands in the area's support module,
`<area>_support.py` (agents_support.py), which declares no behaviour and is no topic: the
loader leaves it to the modules that import it.

Which catalogues are loaded:
- sdkprobe's own (this package), unless left out (`--no-builtin`);
- every module an installed package registers under the entry-point group
  `sdkprobe.catalogue` (`myapp = "myapp.behaviours"`);
- every module named with `--catalogue MODULE` (importable from the working directory).
The choice is kept in the environment (SDKPROBE_CATALOGUE, SDKPROBE_BUILTIN), so the
processes a command starts (pool workers, a release's own sdkprobe) load the same set.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from collections.abc import Iterable
from importlib.metadata import entry_points

from sdkprobe.areas import order
from sdkprobe.behaviour import REGISTRY, Behaviour, DeclarationError
from sdkprobe.errors import UsageError

GROUP = "sdkprobe.catalogue"
_MODULES = "SDKPROBE_CATALOGUE"  # comma-separated module names given with --catalogue
_BUILTIN = "SDKPROBE_BUILTIN"  # "0": sdkprobe's own behaviours left out


class CatalogueError(UsageError):
    """A catalogue module that cannot be imported, or a selection that leaves nothing."""


def configure(modules: Iterable[str] = (), builtin: bool = True) -> None:
    """Choose the catalogues for this process and every process it starts."""
    os.environ[_MODULES] = ",".join(modules)
    os.environ[_BUILTIN] = "1" if builtin else "0"


SUPPORT = "_support"  # how the name of one of sdkprobe's support modules ends


def is_support(module: str) -> bool:
    """Whether a module of this package (by name, `agents_support`) holds shared helpers, not behaviours."""
    return module.endswith(SUPPORT)


def modules() -> list[str]:
    """The modules whose behaviours are selected, sdkprobe's own first (its support modules not)."""
    own = [f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if not is_support(m.name)]
    chosen = own if _builtin() else []
    chosen += sorted({ep.value for ep in entry_points(group=GROUP)})
    chosen += [m for m in os.environ.get(_MODULES, "").split(",") if m]
    return list(dict.fromkeys(chosen))


def load() -> list[Behaviour]:
    """Every selected behaviour, in area order, then by id."""
    wanted = modules()
    for name in wanted:
        _import(name)
    own = tuple(wanted)
    return sorted(
        (b for b in REGISTRY.values() if _module_of(b) in own),
        key=lambda b: (order(b.area), b.id),
    )


def by_id(bid: str) -> Behaviour:
    for b in load():
        if b.id == bid:
            return b
    raise KeyError(bid)


def _builtin() -> bool:
    return os.environ.get(_BUILTIN, "1") != "0"


def _module_of(b: Behaviour) -> str:
    return str(getattr(b.probe, "__module__", ""))


def _import(name: str) -> None:
    if name in sys.modules:
        return
    if os.getcwd() not in sys.path:  # a team's module in its own project, as pytest finds tests
        sys.path.append(os.getcwd())
    try:
        importlib.import_module(name)
    except ImportError as exc:
        raise CatalogueError(f"catalogue {name}: cannot import it: {exc}") from None
    except DeclarationError as exc:
        raise CatalogueError(f"catalogue {name}: {exc}") from None
