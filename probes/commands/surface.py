"""`sdkprobe surface`: the installed SDK's public items, each with the behaviours covering it,
and how much of the surface is covered, per kind and overall."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sdkprobe.commands.shared import SDK_HELP, catalogue_options, coverage_of

SURFACE_HELP = """\
List every public item of the installed claude-agent-sdk, found by introspecting it
(ClaudeAgentOptions fields, ClaudeSDKClient methods, module functions, hook events and
hook output keys, HookMatcher fields, permission results and updates, AgentDefinition
fields, message and content block classes, error classes), each as KIND:NAME with the
behaviours that cover it (how many, and the first few), then `covered N of M (P%)` per
kind and overall. With --sdk ts@VERSION, the items are that TypeScript release's own, read
from its sdk.d.ts by the pinned TypeScript compiler (Options fields, Query methods,
functions, classes and errors, hook events with their input fields, hook outputs, permission
results and updates, AgentDefinition fields, every SDKMessage member by type/subtype with
its fields, the members of its string unions); an item is covered by the behaviours naming
it or its Python counterpart. An item no behaviour covers is marked ✗, with the reason a catalogue
gives for leaving it so (`leave_uncovered`), or "no reason given". A behaviour covers an
item when its requirements name it (option:tools) or its `covers=` does. Reads only:
nothing is probed."""

SURFACE_EPILOG = """\
`sdkprobe list --covers ITEM` lists the behaviours covering one item in full.
exit status: 0 listed (uncovered items are no failure), 2 a catalogue that cannot be loaded
or a TypeScript release that cannot be had or read."""

if TYPE_CHECKING:
    from sdkprobe.surface import Item

PACKAGE = "@anthropic-ai/claude-agent-sdk"
UNCOVERED = "✗"
SHOWN = 3  # covering ids shown per item in the table; the rest counted


def register(sub: Any) -> None:
    """Add `surface` to the `sdkprobe` subparsers."""
    sp = sub.add_parser(
        "surface",
        parents=[catalogue_options()],
        help="the installed SDK's public items, the behaviours covering each, and the coverage",
        description=SURFACE_HELP,
        epilog=SURFACE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sp.add_argument("--sdk", metavar="SDK", help=SDK_HELP)
    sp.add_argument(
        "--uncovered", action="store_true", help="list only the items no behaviour covers (totals stay whole)"
    )
    sp.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: sdk, sdk_version, items (item, kind, name, origin, covered_by, and "
        "uncovered_because for an uncovered item with a reason) and totals (per kind and overall: "
        "covered, items, percent)",
    )
    sp.set_defaults(func=cmd_surface)


def cmd_surface(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue

    package, version, found, coverage = _typescript(args.sdk) if args.sdk else _python()
    reasons = catalogue.left_uncovered()
    items = [
        {
            "item": str(i),
            "kind": i.kind,
            "name": i.name,
            "origin": i.origin,
            "covered_by": coverage.get(str(i), []),
            **({"uncovered_because": reasons[str(i)]} if str(i) in reasons else {}),
        }
        for i in found
    ]
    totals = coverage_totals(items)
    shown = [i for i in items if not (args.uncovered and i["covered_by"])]
    if args.json:
        print(json.dumps({"sdk": package, "sdk_version": version, "items": shown, "totals": totals}, indent=2))
        return 0
    sys.stdout.write(render(f"{package} {version}", shown, totals))
    return 0


def _python() -> tuple[str, str, list[Item], Mapping[str, Sequence[str]]]:
    """The installed Python SDK's surface and the catalogue's coverage of it."""
    from sdkprobe import catalogue
    from sdkprobe.harness import sdk
    from sdkprobe.surface import surface

    return "claude-agent-sdk", sdk.sdk_version(), surface(), catalogue.coverage()


def _typescript(choice: str) -> tuple[str, str, list[Item], Mapping[str, Sequence[str]]]:
    """A TypeScript release's own surface (installed into the cache first) and what covers each item;
    Python's when --sdk names Python. Nothing is put under test: the surface is only read."""
    from sdkprobe import ts_surface
    from sdkprobe.commands.shared import install_typescript, typescript_choice

    version = typescript_choice(choice)
    if version is None:
        return _python()
    release = install_typescript(version)
    found = ts_surface.surface(release.declarations())
    return PACKAGE, release.version, found, coverage_of("typescript", (str(i) for i in found))


def coverage_totals(items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """{"kinds": {kind: figure}, "overall": figure}, a figure being covered, items and percent,
    kinds in the order the items come in."""
    kinds: dict[str, list[bool]] = {}
    for i in items:
        kinds.setdefault(str(i["kind"]), []).append(bool(i["covered_by"]))
    return {
        "kinds": {kind: _figure(flags) for kind, flags in kinds.items()},
        "overall": _figure([flag for flags in kinds.values() for flag in flags]),
    }


def _figure(flags: Sequence[bool]) -> dict[str, Any]:
    covered = sum(flags)
    return {"covered": covered, "items": len(flags), "percent": round(100 * covered / len(flags), 1) if flags else 0.0}


def figure_text(figure: Mapping[str, Any]) -> str:
    """'covered 41 of 210 (19.5%)'."""
    return f"covered {figure['covered']} of {figure['items']} ({figure['percent']}%)"


def render(sdk: str, items: Sequence[Mapping[str, Any]], totals: Mapping[str, Any]) -> str:
    """The items table (uncovered ones marked), then the coverage per kind and overall."""
    from sdkprobe.report.cells import text_table

    rows = [[str(len(i["covered_by"]) or UNCOVERED), str(i["item"]), _covered_by(i)] for i in items]
    figures = [[kind, figure_text(f)] for kind, f in totals["kinds"].items()]
    figures.append(["overall", figure_text(totals["overall"])])
    listing = text_table(rows, ["n", "item", "covered by"], fmt="plain") if rows else "no item to list"
    return (
        f"{sdk}: its public surface (n: the behaviours covering an item, "
        f"{UNCOVERED}: none does)\n\n"
        f"{listing}\n\n{text_table(figures, ['kind', 'coverage'], fmt='plain')}\n"
    )


def _covered_by(item: Mapping[str, Any]) -> str:
    """The first covering ids, or for an uncovered item why it is left so."""
    ids = item["covered_by"]
    if ids:
        return _ids(ids)
    return f"none: {item['uncovered_because']}" if "uncovered_because" in item else "none (no reason given)"


def _ids(ids: Sequence[str]) -> str:
    more = f" (+{len(ids) - SHOWN} more)" if len(ids) > SHOWN else ""
    return ", ".join(ids[:SHOWN]) + more
