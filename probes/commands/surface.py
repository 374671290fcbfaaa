"""`sdkprobe surface`: the public items of the SDK under test, each with the behaviours covering
it, and how much of the surface is covered, per kind and overall."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sdkprobe.commands.sdk_flag import SDK_HELP, SdkChoice, add_sdk, in_release
from sdkprobe.commands.shared import catalogue_options, pinning_of

SURFACE_HELP = """\
List every public item of the SDK under test (the installed claude-agent-sdk unless --sdk
names another), found by introspecting it (ClaudeAgentOptions fields, ClaudeSDKClient
methods, module functions, hook events and hook output keys, HookMatcher fields,
permission results and updates, AgentDefinition fields, message and content block classes,
error classes), each as KIND:NAME with the behaviours that cover it with the sub-checks
that pin it (how many behaviours, and the first few), then `covered N of M (P%)` per kind
and overall. With --sdk python@VERSION, the same list by that release's sdkprobe in its
own environment. With --sdk ts@VERSION, the items are that TypeScript release's own, read
from its sdk.d.ts by the pinned TypeScript compiler (Options fields, Query methods,
functions, classes and errors, hook events with their input fields, hook outputs,
permission results and updates, AgentDefinition fields, every SDKMessage member by
type/subtype with its fields, the members of its string unions), an item pinned by what
pins it or its Python counterpart. A behaviour covers an item when one of its sub-checks
pins it (`pins=`) and one of its counterexamples makes that sub-check differ: its verdict
would notice the item's contract changing. A requirement (option:tools) names an item but
never covers it. An item no behaviour covers is marked ✗, with the reason a catalogue
gives for leaving it so (`leave_uncovered`), else the behaviours that only name it, or "no
reason given". Reads only: nothing is probed."""

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
        help="the public items of the SDK under test, the behaviours covering each, and the coverage",
        description=SURFACE_HELP,
        epilog=SURFACE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,  # --sdk is found by its full name to forward the rest as given
    )
    sp.add_argument(
        "--uncovered", action="store_true", help="list only the items no behaviour covers (totals stay whole)"
    )
    add_sdk(sp, SDK_HELP)
    sp.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: sdk, sdk_version, items (item, kind, name, origin, covered_by, pinned_by "
        "{id: [sub-check, ...]}, and for an uncovered item named_by, the ids only naming it, and "
        "uncovered_because when a reason is given) and totals (per kind and overall: covered, items, percent)",
    )
    sp.set_defaults(func=cmd_surface)


def cmd_surface(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue

    if args.sdk is not None and args.sdk.python_release is not None:
        return in_release(args.sdk.python_release, args)
    package, version, found, pinning = _typescript(args.sdk) if args.sdk else _python()
    naming = catalogue.naming()
    reasons = catalogue.left_uncovered()
    items = [
        {
            "item": str(i),
            "kind": i.kind,
            "name": i.name,
            "origin": i.origin,
            "covered_by": list(pinning.get(str(i), {})),
            "pinned_by": pinning.get(str(i), {}),
            **({} if str(i) in pinning else {"named_by": naming.get(str(i), [])}),
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


Pinning = Mapping[str, Mapping[str, Sequence[str]]]  # item -> {id: the sub-checks pinning it}


def _python() -> tuple[str, str, list[Item], Pinning]:
    """The installed Python SDK's surface and what pins each item."""
    from sdkprobe.harness import sdk
    from sdkprobe.surface import surface

    found = surface()
    return "claude-agent-sdk", sdk.sdk_version(), found, pinning_of("python", (str(i) for i in found))


def _typescript(choice: SdkChoice) -> tuple[str, str, list[Item], Pinning]:
    """A TypeScript release's own surface (installed into the cache first) and what pins each item;
    the installed Python SDK's when --sdk names it. Nothing is put under test: the surface is only read."""
    from sdkprobe import ts_surface
    from sdkprobe.commands.shared import install_typescript

    if not choice.typescript or choice.version is None:
        return _python()
    release = install_typescript(choice.version)
    found = ts_surface.surface(release.declarations())
    return PACKAGE, release.version, found, pinning_of("typescript", (str(i) for i in found))


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
    """The first covering ids with their pinning sub-checks, or for an uncovered item why it
    is left so, else which behaviours only name it."""
    pinned = item["pinned_by"]
    if pinned:
        return _pins(pinned)
    if "uncovered_because" in item:
        return f"none: {item['uncovered_because']}"
    named = item.get("named_by") or []
    return f"none; named, not pinned, by {_more(named)}" if named else "none (no reason given)"


def _pins(pinned: Mapping[str, Sequence[str]]) -> str:
    """'a.b (check-1, check-2); c.d (check)', the first SHOWN behaviours, the rest counted."""
    shown = [f"{bid} ({', '.join(checks)})" for bid, checks in list(pinned.items())[:SHOWN]]
    more = f" (+{len(pinned) - SHOWN} more)" if len(pinned) > SHOWN else ""
    return "; ".join(shown) + more


def _more(ids: Sequence[str]) -> str:
    more = f" (+{len(ids) - SHOWN} more)" if len(ids) > SHOWN else ""
    return ", ".join(ids[:SHOWN]) + more
