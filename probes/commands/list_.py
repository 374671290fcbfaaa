"""`sdkprobe list`: the behaviours, filtered, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sdkprobe.areas import AREAS
from sdkprobe.behaviour import TIERS
from sdkprobe.commands.shared import catalogue_options, pinning_of, select
from sdkprobe.errors import UsageError


def register(sub: Any) -> None:
    lst = sub.add_parser(
        "list",
        parents=[catalogue_options()],
        help="list the behaviours",
        description="List the behaviours in area order with id, tier, sub-checks, requirements and source. "
        "Filters combine: a behaviour is listed when it matches every one given.",
    )
    lst.add_argument("--tier", nargs="+", choices=TIERS, default=[], help="only these tiers")
    lst.add_argument(
        "--area",
        nargs="+",
        default=[],
        metavar="AREA",
        help="only these areas: " + ", ".join(a.name for a in AREAS),
    )
    lst.add_argument(
        "--id",
        nargs="+",
        default=[],
        metavar="GLOB",
        help="only ids matching one of these globs (tools.*); a renamed behaviour's old id finds it",
    )
    lst.add_argument(
        "--requires",
        nargs="+",
        default=[],
        metavar="NEED",
        help="only behaviours with a requirement starting with NEED (option:, option:tools, cli, package:mcp)",
    )
    lst.add_argument(
        "--covers",
        metavar="ITEM",
        help="only behaviours covering this public item (KIND:NAME as `sdkprobe surface` lists them: "
        "option:add_dirs, client:interrupt; or one only the TypeScript SDK has, as its shipped reports record it: "
        "hook-input:Interrupt.source), each with the sub-checks that pin it; an item neither SDK has is an error "
        "naming close ones",
    )
    lst.add_argument(
        "--json",
        action="store_true",
        help="print JSON: claim, summary, source (with URL or page), sub-checks, requirements "
        "(and which the installed SDK lacks), the surface items it covers (covers) and the sub-checks "
        "pinning each (pins), SDK reference",
    )
    lst.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    from tabulate import tabulate

    from sdkprobe.runner import RunSettings, unmet
    from sdkprobe.sources import cite

    behaviours = select(tiers=args.tier, areas=args.area, ids=args.id, requires=args.requires)
    pinning: dict[str, list[str]] = {}  # with --covers: id -> the sub-checks pinning the item
    if args.covers is not None:
        item, sdk_kind = installed_item(args.covers)
        pinning = pinning_of(sdk_kind, [item]).get(item, {})
        behaviours = [b for b in behaviours if b.id in pinning]
    if args.json:
        rows = [
            {
                "id": b.id,
                "area": b.area,
                "tier": b.tier,
                "claim": b.claim,
                "summary": b.summary,
                "security": b.security,
                "source": cite(*b.source),
                "checks": list(b.checks),
                "controls": list(b.controls),
                "requires": [str(r) for r in b.requires],
                "unmet_on_installed": unmet(b, RunSettings()),
                "covers": list(b.covered),
                "pins": {item: list(checks) for item, checks in b.pinned().items()},
                "sdk_ref": b.sdk_ref,
            }
            for b in behaviours
        ]
        print(json.dumps(rows, indent=2))
        return 0
    if not behaviours:
        print(
            f"no behaviour covers {args.covers}" if args.covers is not None else "no behaviour matches these filters",
            file=sys.stderr,
        )
        return 0
    table = [
        [b.id, b.tier, len(b.checks), " ".join(str(r) for r in b.requires) or "-", f"{b.source[0]} § {b.source[1]}"]
        for b in behaviours
    ]
    headers = ["id", "tier", "sub-checks", "requires", "source"]
    if args.covers is not None:  # which of each behaviour's sub-checks pin the item
        table = [[*row, ", ".join(pinning[b.id])] for row, b in zip(table, behaviours, strict=True)]
        headers.append(f"pinning {args.covers}")
    print(tabulate(table, headers=headers, disable_numparse=True))
    return 0


def installed_item(text: str) -> tuple[str, str]:
    """(`text`, the SDK whose item it is: "python" or "typescript") when the installed SDK's surface,
    or else a shipped TypeScript report's, has that item; UsageError naming the close ones otherwise."""
    import difflib

    from sdkprobe.harness import sdk
    from sdkprobe.surface import names

    known = names()
    if text in known:
        return text, "python"
    typescript = _typescript_items()
    if text in typescript:
        return text, "typescript"
    every = known + sorted(set(typescript) - set(known))
    same_name = [k for k in every if k.split(":", 1)[1] == text]  # the name given without its kind
    close = list(dict.fromkeys(same_name + difflib.get_close_matches(text, every, n=3, cutoff=0.6)))
    hint = f"; close: {', '.join(close)}" if close else "; `sdkprobe surface` lists them"
    raise UsageError(
        f"--covers {text}: claude-agent-sdk {sdk.sdk_version()} has no public item {text!r}, "
        f"nor has a recorded @anthropic-ai/claude-agent-sdk release{hint}"
    )


def _typescript_items() -> list[str]:
    """Every item the surface of a TypeScript report sdkprobe ships records, sorted."""
    from sdkprobe.report.baselines import resolve_baseline, shipped_versions
    from sdkprobe.report.errors import ReportError

    found: set[str] = set()
    for version in shipped_versions(typescript=True):
        try:
            found.update(resolve_baseline(version, typescript=True).get("surface") or [])
        except ReportError:  # a report this sdkprobe cannot read names nothing
            continue
    return sorted(found)
