"""`sdkprobe rejudge`: judge stored observations again with the decisions as declared now."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sdkprobe import catalogue
from sdkprobe.behaviour import ERROR
from sdkprobe.commands.shared import catalogue_options
from sdkprobe.errors import UsageError


def register(sub: Any) -> None:
    rj = sub.add_parser(
        "rejudge",
        parents=[catalogue_options()],
        help="judge the stored observations of reports again, without running anything",
        description="For every <sdk-version>.json report in DIR, hand each behaviour's stored observation "
        "to its decision as declared now and rewrite the verdict, note and sub-checks (and the .md page). "
        "For when a decision changed but the probe did not: no SDK or CLI runs. Entries with no observation "
        "(errors, requirements unmet, live behaviours not run) and ids no longer declared are left as they are. "
        "Exit 0 done, 1 a decision broke on a stored observation, 2 bad input.",
    )
    rj.add_argument("dir", nargs="?", default=Path("reports"), type=Path, metavar="DIR", help="default: reports")
    rj.set_defaults(func=cmd_rejudge)


def cmd_rejudge(args: argparse.Namespace) -> int:
    from sdkprobe.report.store import check_destination, file_stem, load, write
    from sdkprobe.runner import judge

    paths = sorted(args.dir.glob("*.json")) if args.dir.is_dir() else []
    if not paths:
        raise UsageError(f"{args.dir}: no <sdk-version>.json reports")
    loaded = [(path, load(path)) for path in paths]
    for path, report in loaded:  # every report is read and can be rewritten, or none is touched
        check_destination(path.parent, file_stem(report))
    declared = {b.id: b for b in catalogue.load()}
    broke = 0
    for path, report in loaded:
        moved = 0
        for entry in report["behaviours"]:
            b = declared.get(entry["id"])
            if b is None or entry["observed"] is None:
                continue
            v = judge(b, entry["observed"])
            if v.verdict == ERROR:
                broke += 1
                print(f"{path.name}: {entry['id']}: {v.note}", file=sys.stderr)
                continue
            new = {"verdict": v.verdict, "note": v.note, "checks": dict(v.checks)}
            if any(entry[k] != new[k] for k in new):
                entry.update(new)
                moved += 1
        write(report, path.parent)
        print(f"{path.name}: {moved} of {len(report['behaviours'])} entries judged differently now")
    return 1 if broke else 0
