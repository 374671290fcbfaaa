"""`sdkprobe rejudge`: judge stored observations again with the decisions as declared now, and
bring each entry's declared fields (id, claim, source, tier, area...) up to its declaration."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sdkprobe import catalogue
from sdkprobe.behaviour import ERROR, Behaviour, Verdict
from sdkprobe.commands.shared import catalogue_options
from sdkprobe.errors import UsageError

if TYPE_CHECKING:
    from sdkprobe.report.history import History

JUDGED_FIELDS = ("verdict", "note", "checks")  # what the decision gives; every other field but `observed` is declared

REJUDGE_HELP = """\
For every <sdk-version>.json report in DIR, hand each behaviour's stored observation
to its decision as declared now and rewrite the verdict, note and sub-checks (and the
.md page). For when a decision changed but the probe did not: no SDK or CLI runs.

Every entry of a declared behaviour also gets the fields a run takes from the
declaration as declared now (id, area, tier, claim, source, and any other the runner
writes), so a report written before a claim was reworded or a source section renamed
reads as a fresh run would. An entry under an old id (a behaviour declared with
renamed_from) is renamed to the current id, and so are its entries in
DIR/history/history.json when DIR has one; entries stay in id order. Entries with no
observation (errors, requirements unmet, live behaviours not run) keep their verdict;
ids no longer declared are left as they are."""

REJUDGE_EPILOG = """\
With --surface, nothing is judged: each report's recorded public surface (`surface`) is
read again from its SDK as sdkprobe reads it now: a TypeScript report's from its release's
sdk.d.ts (the release installed into the cache first when it is not there), a Python
report's from the installed claude-agent-sdk when it is that version (any other is left as
recorded, said so). `sdkprobe rejudge --surface reports/ts` refreshes the committed
TypeScript reports.


exit status: 0 done, 1 a decision broke on a stored observation, 2 bad input (no
reports, a broken report or history file, a file that cannot be written: then none is)."""


def register(sub: Any) -> None:
    rj = sub.add_parser(
        "rejudge",
        parents=[catalogue_options()],
        help="judge the stored observations of reports again and refresh their declared fields, "
        "without running anything",
        description=REJUDGE_HELP,
        epilog=REJUDGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rj.add_argument("dir", nargs="?", default=Path("reports"), type=Path, metavar="DIR", help="default: reports")
    rj.add_argument(
        "--surface",
        action="store_true",
        help="only record each report's public surface again, read from its SDK release (no re-judging)",
    )
    rj.set_defaults(func=cmd_rejudge)


def cmd_rejudge(args: argparse.Namespace) -> int:
    from sdkprobe.report.files import check_writable
    from sdkprobe.report.history import HISTORY_PATH
    from sdkprobe.report.history import load as load_history
    from sdkprobe.report.store import check_destination, file_stem, load, renamed, renamed_in, write

    paths = sorted(args.dir.glob("*.json")) if args.dir.is_dir() else []
    if not paths:
        raise UsageError(f"{args.dir}: no <sdk-version>.json reports")
    loaded = [(path, load(path)) for path in paths]
    history_path = args.dir / HISTORY_PATH
    history = load_history(history_path)
    # every file is read and can be rewritten, or none is touched
    for path, report in loaded:
        check_destination(path.parent, file_stem(report))
    if history is not None:
        check_writable(history_path)
    if args.surface:
        return _refresh_surfaces(loaded)
    declared = {b.id: b for b in catalogue.load()}
    renames = catalogue.renames()
    broke = 0
    for path, report in loaded:
        moved = refreshed = 0
        was = renamed_in(report, renames)
        report = renamed(report, renames)
        for i, entry in enumerate(report["behaviours"]):
            b = declared.get(entry["id"])
            if b is None:
                continue
            fresh, error = _rejudged(b, entry)
            if error:
                broke += 1
                print(f"{path.name}: {entry['id']}: {error}", file=sys.stderr)
            moved += any(entry[k] != fresh[k] for k in JUDGED_FIELDS)
            refreshed += any(entry.get(k) != fresh[k] for k in fresh if k not in JUDGED_FIELDS)
            report["behaviours"][i] = fresh
        report["behaviours"].sort(key=lambda e: str(e["id"]))
        write(report, path.parent)
        print(
            f"{path.name}: {moved} of {len(report['behaviours'])} entries judged differently now, "
            f"{refreshed} with declared fields refreshed, {len(was)} renamed"
        )
    if history is not None:
        _rename_history(history_path, history, renames)
    return 1 if broke else 0


def _rejudged(b: Behaviour, entry: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The entry as a run of `b` now would store its observation, and why its decision broke
    ("" unless it did: then the stored verdict is kept). The fields other than the verdict's
    come from the runner's own `result_of`, so whatever a run takes from a declaration is here too."""
    from sdkprobe.runner import judge, result_of

    stored = Verdict(entry["verdict"], entry["note"], dict(entry["checks"] or {}))
    v = stored if entry["observed"] is None else judge(b, entry["observed"])
    error = v.note if v.verdict == ERROR and entry["observed"] is not None else ""
    return result_of(b, stored if error else v, entry["observed"]).to_dict(), error


def _rename_history(path: Path, history: History, renames: dict[str, str]) -> None:
    """The history file with old ids' entries under the current ids; untouched when it names none."""
    from sdkprobe.report.history import HISTORY_PATH, write

    current = history.renamed(renames)
    if current is not history:
        write(current, path)
        count = sum(e.step.id in renames for e in history.entries)
        print(f"{HISTORY_PATH.as_posix()}: {count} of {len(history.entries)} entries renamed")


def _refresh_surfaces(loaded: list[tuple[Path, dict[str, Any]]]) -> int:
    """Each report with its surface read again from its SDK (every one read before any is written)."""
    from sdkprobe.report.store import write

    fresh = [(path, report, _surface_now(report)) for path, report in loaded]
    for path, report, found in fresh:
        if found is None:
            print(f"{path.name}: surface left as recorded (claude-agent-sdk {report['sdk_version']} is not installed)")
            continue
        was = set(report.get("surface") or ())
        write({**report, "surface": found}, path.parent)
        added, removed = len(set(found) - was), len(was - set(found))
        print(f"{path.name}: {len(found)} surface items, {added} added, {removed} removed")
    return 0


def _surface_now(report: dict[str, Any]) -> list[str] | None:
    """The surface of the report's SDK version as read now; None for a Python version not installed."""
    if report.get("sdk") == "typescript":
        from sdkprobe.harness.typescript.requirements import surface_names
        from sdkprobe.releases import ts_sdk

        return surface_names(ts_sdk.install(str(report["sdk_version"])))
    import claude_agent_sdk

    from sdkprobe import surface
    from sdkprobe.harness import sdk

    return surface.names(claude_agent_sdk) if sdk.sdk_version() == report["sdk_version"] else None
