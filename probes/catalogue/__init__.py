"""The behaviours: sdkprobe's own, one package per area here (`hooks/`, `perms/`, ...), and
any a team declares in its own modules. `load()` imports them and returns those selected.

An area's package holds modules named for what their behaviours are about (`hooks/tool_calls.py`,
`perms/modes.py`), each a handful of behaviours; where a claim came from (a document, an issue
number) is said in its `source=`, never in a module's name or header. `tests/test_catalogue.py`
holds the modules to that and to a size.

A behaviour module uses `sdkprobe.behaviour` (the declaration and the sub-check verdicts),
the public calls of the `Harness` its probe is given and the public names `sdkprobe.harness`
exports, never a private one (`_x`) of the harness's modules. What a probe gives the SDK
(a HookMatcher, an AgentDefinition, a PermissionResultAllow) it builds in the harness's types of
those names (`from sdkprobe.harness import HookMatcher`), which the SDK under test gets as its
own, whichever SDK that is; only a probe about the Python SDK's own classes builds those (what
its AgentDefinition refuses). Beside those it uses the SDK under test's own public API: it
calls its functions (list_sessions) because the claim is about
what the SDK does with them. It imports them inside the probe (or reads them off
`claude_agent_sdk` when it runs), so that every module loads on every SDK version, and a name
that some versions lack is declared in `requires` (`api:HookMatcher`, `field:HookMatcher.on_failure`),
so that those versions are not-applicable rather than an error.
An in-process MCP server is described too (`in_process_server`, `in_process_tool`), and the
seam builds it with the SDK under test's own functions, so that a TypeScript run's tool schemas
and results are the TypeScript SDK's, not the Python SDK's.

What several behaviours of a module share stands at its head, or at the head of a section
(`# --- ...`) whose behaviours share it, never inside one behaviour's block; what behaviours
of several modules of an area share, in the area's `support.py` (public names), which
declares no behaviour: the loader leaves it to the modules that import it.

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

from sdkprobe import behaviour as declaring
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


SUPPORT = "support"  # the name of an area's module of shared helpers


def is_support(module: str) -> bool:
    """Whether a module (by dotted or last name: `sdkprobe.catalogue.agents.support`) holds an
    area's shared helpers, not behaviours."""
    return module.rsplit(".", 1)[-1] == SUPPORT


def own_modules() -> list[str]:
    """sdkprobe's own behaviour modules, area package by package (support modules not)."""
    found = []
    for area in pkgutil.iter_modules(__path__):
        if not area.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{area.name}")
        found += [
            f"{package.__name__}.{m.name}"
            for m in pkgutil.iter_modules(package.__path__)
            if not m.ispkg and not is_support(m.name)
        ]
    if not found:  # an install that left the area packages out would otherwise check nothing, silently
        raise CatalogueError(f"sdkprobe's own catalogue has no behaviour module under {__path__[0]}")
    return sorted(found)


def modules() -> list[str]:
    """The modules whose behaviours are selected, sdkprobe's own first (its support modules not)."""
    own = own_modules()
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
    """The selected behaviour with this id, or with it as an old id (KeyError when none)."""
    current = renames().get(bid, bid)
    for b in load():
        if b.id == current:
            return b
    raise KeyError(bid)


def renames() -> dict[str, str]:
    """Old id -> current id, for every selected behaviour declared with `renamed_from`.

    The report layer takes this map as data (it imports no catalogue): whatever reads
    stored ids (a baseline, an old report, the history file) puts an old id's entries
    under the current id with it."""
    return {old: b.id for b in load() for old in b.renamed_from}


def pinning() -> dict[str, dict[str, list[str]]]:
    """Surface item (`option:tools`) -> {id: the sub-checks pinning it} for the selected
    behaviours, for every item a sub-check pins that a counterexample shows failing (on any
    SDK version: an item the installed SDK lacks is looked up the same way, as the gate does
    for a release's new items). A requirement alone pins nothing."""
    found: dict[str, dict[str, list[str]]] = {}
    for b in load():
        for item, checks in b.pinned().items():
            found.setdefault(item, {})[b.id] = list(checks)
    return {item: dict(sorted(by.items())) for item, by in sorted(found.items())}


def coverage() -> dict[str, list[str]]:
    """Surface item -> the ids of the selected behaviours covering it: those pinning it."""
    return {item: list(by) for item, by in pinning().items()}


def naming() -> dict[str, list[str]]:
    """Surface item -> the ids of the selected behaviours that name it (a requirement, a pin)
    whether or not they cover it: what an uncovered item's reader looks at first."""
    found: dict[str, list[str]] = {}
    for b in load():
        for item in b.named:
            found.setdefault(item, []).append(b.id)
    return {item: sorted(ids) for item, ids in sorted(found.items())}


def left_uncovered() -> dict[str, str]:
    """Surface item -> why no behaviour covers it, as the selected modules say
    (`leave_uncovered`); a DeclarationError when a behaviour covers such an item after all."""
    own = tuple(modules())
    load()
    reasons = {item: why for item, (why, module) in sorted(declaring.LEFT_UNCOVERED.items()) if module in own}
    covered = sorted(set(reasons) & set(coverage()))
    if covered:
        raise CatalogueError(f"left uncovered with a reason, yet covered by a behaviour: {', '.join(covered)}")
    return reasons


def covering(item: str) -> list[str]:
    """The ids of the selected behaviours that cover one surface item, sorted; [] when none does."""
    return coverage().get(item, [])


_TOLD: set[str] = set()  # old ids this process has said were renamed


def resolve(bid: str) -> str:
    """The current id of an id a user gave: itself, or the id it was renamed to, saying so
    on stderr (once per old id in a process) so that lists and scripts get updated."""
    current = renames().get(bid, bid)
    if current != bid and bid not in _TOLD:
        _TOLD.add(bid)
        print(f"sdkprobe: {bid} was renamed {current}; the old id still works", file=sys.stderr)
    return current


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
