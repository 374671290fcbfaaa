"""The `sdkprobe history` subcommand: refresh the history file the matrix reads.

Reads the committed reports, lists each gap between neighbouring listed versions where the
verdict or a sub-check moved, keeps the entries of gaps that are unchanged and bisects the
rest among every release on the index, each probed in its cached environment as
`sdkprobe bisect` does.
Exit 0 every change placed, 1 some change was not seen again between its neighbours, 2 bad input.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sdkprobe.commands import sdk_flag
from sdkprobe.commands.shared import catalogue_options
from sdkprobe.errors import UsageError
from sdkprobe.releases.index import IndexUnreachable, Release, releases
from sdkprobe.releases.refresh import SCAN_UP_TO, Finder, Gap
from sdkprobe.releases.versions import SDK_VERSIONS, version_key
from sdkprobe.report.errors import ReportError
from sdkprobe.report.history import HISTORY_PATH, Entry, History, Step, load
from sdkprobe.report.store import file_stem

CLI_AXIS = Path("reports") / "cli-axis"
TS_AXIS = Path("reports") / "ts"

HELP = f"""\
For every behaviour whose verdict or one of whose sub-checks differs between two
neighbouring listed versions (their reports in DIR), find the pairs of releases where the
verdict and each sub-check change by bisecting every release of claude-agent-sdk between
the two (yanked ones too; a scan when at most two lie between), and write them to FILE
(default DIR/{HISTORY_PATH.as_posix()}), which `sdkprobe report` puts into the matrix's
words. A verdict the two neighbours agree on is followed too: where a sub-check moved, it
may have moved and moved back. Entries whose neighbours and values are unchanged since the
last refresh are kept without probing. Releases are installed once into
$SDKPROBE_CACHE/envs (default ~/.cache/sdkprobe/envs).

With --axis cli the columns are CLI releases under the SDK installed here: DIR (default
{CLI_AXIS.as_posix()}) holds its reports against other CLI releases (`sdkprobe run
--cli-version V --tier cli --out DIR`), and its report with the CLI it bundles, from the
folder above (reports/<sdk>.json), is one more column, as in DIR's matrix. Each change
between two of them is found among every release of the CLI on npm between the two,
each installed once into $SDKPROBE_CACHE/cli; the file names CLI releases.

With --sdk ts the columns are the TypeScript SDK's reports in DIR (default
{TS_AXIS.as_posix()}, written by `sdkprobe run --sdk ts@V`), and each change is found among
the releases of @anthropic-ai/claude-agent-sdk on npm between two of them, each installed
once into $SDKPROBE_CACHE/ts."""

EPILOG = """\
exit status: 0 every change placed, 1 some change not seen again by probing, 2 bad input,
found before probing (also an --out that cannot be written, a DIR that is no CLI axis of
the installed SDK with --axis cli, or, for SDK releases without --merge, sdkprobe installed
from no checkout: use pip install -e), 130 interrupted (the first Ctrl-C ends every
release's run; no history is written)."""


def register(subparsers: Any) -> None:
    """Add `history` to the `sdkprobe` subparsers."""
    hp = subparsers.add_parser(
        "history",
        parents=[catalogue_options()],
        help="find the exact releases where verdicts changed between listed versions",
        description=HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    hp.add_argument(
        "--only",
        nargs="+",
        metavar="ID",
        help="refresh only these behaviours (every other behaviour's entry kept as it is)",
    )
    hp.add_argument("--out", type=Path, metavar="FILE", help=f"the history file (default: DIR/{HISTORY_PATH})")
    sdk_flag.add_sdk(
        hp,
        f"whose releases: python (claude-agent-sdk, the default) or ts (@anthropic-ai/claude-agent-sdk, the "
        f"reports in {TS_AXIS})",
        release=False,
    )
    sdk_flag.add_axis(
        hp,
        "what the columns are: sdk, the SDK's releases, each with its bundled CLI (default), or cli, CLI releases "
        "under the installed Python SDK",
    )
    hp.add_argument(
        "--reports",
        type=Path,
        metavar="DIR",
        help=f"the committed reports (default: reports; with --axis cli {CLI_AXIS}, with --sdk ts {TS_AXIS})",
    )
    hp.add_argument(
        "--merge",
        nargs="+",
        type=Path,
        metavar="PART",
        help="probe nothing: take each change's entry from these history files (written by jobs that "
        "each refreshed some behaviours with --only; the first file naming a change wins)",
    )
    hp.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="bisect N changes at once (default: 1)")
    hp.set_defaults(func=cmd_history)


def cmd_history(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue
    from sdkprobe.releases.envcache import EnvCache
    from sdkprobe.releases.refresh import refresh
    from sdkprobe.report.files import check_writable
    from sdkprobe.report.grid import load_reports
    from sdkprobe.report.history import listed_with_reports, steps_across, write

    if args.jobs < 1:
        raise UsageError("-j must be at least 1")
    args.axis = sdk_flag.axis(args)  # sdk, cli, or ts for the TypeScript SDK's releases
    args.reports = args.reports or {"cli": CLI_AXIS, "ts": TS_AXIS}.get(args.axis, Path("reports"))
    out: Path = args.out or args.reports / HISTORY_PATH
    known = {b.id for b in catalogue.load()}
    renames = catalogue.renames()  # reports and history files from before a rename name the old ids
    args.only = [catalogue.resolve(i) for i in args.only] if args.only else args.only
    unknown = [i for i in args.only or [] if i not in known]
    if unknown:
        raise UsageError(f"no behaviour with id {', '.join(unknown)} (see `sdkprobe list`)")
    # what would keep the refresh from doing its job or writing its file, before any of it
    if not args.merge and args.axis == "sdk":
        EnvCache().check_source()
    check_writable(out)
    reports = load_reports(args.reports, renames)
    old = load(out)
    old = old.renamed(renames) if old else None
    parts = [_part(p).renamed(renames) for p in args.merge or []]
    under_sdk: str | None = None
    if args.axis == "cli":
        under_sdk, columns = _cli_columns(args.reports, reports, renames)
        listed = tuple(sorted(columns, key=version_key))
    elif args.axis == "ts":  # every TypeScript report in DIR is a column
        columns = {r["sdk_version"]: r for r in reports if r["cli"] == "bundled" and r.get("sdk") == "typescript"}
        listed = tuple(sorted(columns, key=version_key))
    else:
        listed = listed_with_reports(reports, SDK_VERSIONS)
        columns = {r["sdk_version"]: r for r in reports if r["cli"] == "bundled" and r["sdk_version"] in listed}
    all_steps = steps_across(columns)
    entries = {v: {b["id"]: b for b in r["behaviours"]} for v, r in columns.items()}
    finder: Finder | None = None
    first = threading.Lock()

    def find(gap: Gap) -> dict[Step, Entry]:
        nonlocal finder
        with first:
            if finder is None:  # the index and the cache only when something is to be probed
                finder = _finder(entries, args.axis)
        step = gap[0]
        inner = len(finder.between(step.before, step.after))
        how = (
            "adjacent releases"
            if not inner
            else f"{inner} releases between, {'scanning' if inner <= SCAN_UP_TO else 'bisecting'}…"
        )
        moved = "; ".join(f"{s.key_words} {s.verdicts[0]} → {s.verdicts[1]}" for s in gap if s.moves)
        _say(f"{step.id}: {moved} from {step.before} to {step.after}; {how}")
        return finder(gap)

    merged: dict[Step, Entry] = {}
    for part in parts:
        for entry in part.entries:
            merged.setdefault(entry.step, entry)

    def from_parts(gap: Gap) -> dict[Step, Entry]:
        return {s: merged[s] for s in gap if s in merged}

    start = time.monotonic()
    try:
        done = refresh(old, all_steps, args.only, listed, from_parts if args.merge else find, args.jobs)
    except _IndexDown as exc:
        raise UsageError(str(exc)) from None
    write(dataclasses.replace(done.history, under_sdk=under_sdk), out)
    for e in done.found + done.kept:
        kept = "kept" if e in done.kept else f"found by {e.found_by}, {e.probe_runs} probe runs"
        spans = [f"{v} on {a}" if a == b else f"{v} on {a}–{b}" for v, a, b in e.middle()]
        words = ", ".join(
            [f"{e.before.verdict} up to {e.before.words}", *spans, f"{e.last.verdict} from {e.last.words} on"]
        )
        print(f"{e.step.id}{_check(e.step)}: {words} ({kept})")
    for s in done.unresolved:
        print(f"{s.id}{_check(s)}: no change seen again between {s.before} and {s.after}")
    runs = sum({e.step.gap: e.probe_runs for e in done.found}.values())  # the entries of a gap share its runs
    _say(
        f"wrote {out}: {len(done.history.entries)} entries; {len(done.kept)} kept, {len(done.found)} found "
        f"({runs} probe runs), {len(done.unresolved)} unresolved, {len(done.dropped)} stale replaced or dropped, "
        f"in {time.monotonic() - start:.0f} s"
    )
    return 1 if done.unresolved else 0


def _part(path: Path) -> History:
    part = load(path)
    if part is None:
        raise ReportError(f"--merge {path}: no such history file")
    return part


class _IndexDown(Exception):
    pass


def _cli_columns(
    reports_dir: Path, reports: list[dict[str, Any]], renames: dict[str, str]
) -> tuple[str, dict[str, dict[str, Any]]]:
    """The CLI axis's SDK and its columns (CLI release -> report), as DIR's matrix has them;
    UsageError when DIR is no CLI axis of the SDK installed here."""
    from sdkprobe.harness.sdk import sdk_version
    from sdkprobe.report.grid import Column, cli_axis_sdk, with_bundled

    sdk = cli_axis_sdk([Column(r["sdk_version"], r["cli_version"], r["cli"]) for r in reports])
    if sdk is None:
        raise UsageError(
            f"--axis cli: {reports_dir} holds no CLI-axis reports of one SDK (<sdk>+cli-<cli>.json, "
            f"written by `sdkprobe run --cli-version V --tier cli --out {reports_dir}`)"
        )
    if sdk != sdk_version():
        raise UsageError(
            f"--axis cli: the reports in {reports_dir} ran under claude-agent-sdk {sdk}, but {sdk_version()} "
            "is installed here, under which the CLI releases would be probed"
        )
    full = with_bundled(reports_dir, reports, renames)
    unknown = [file_stem(r) for r in full if not r["cli_version"]]
    if unknown:
        raise UsageError(f"--axis cli: {', '.join(unknown)} in {reports_dir} names no CLI version to place it by")
    return sdk, {r["cli_version"]: r for r in full}


def _finder(entries: dict[str, dict[str, dict[str, Any]]], axis: str) -> Finder:
    from sdkprobe.releases.claude_code import CliReleaseError, release_list
    from sdkprobe.releases.envcache import EnvCache
    from sdkprobe.releases.probe import CliReleaseProber, ReleaseProber

    # Each line names its behaviour: with -j, several bisects' lines interleave.
    def say(bid: str) -> Callable[[str], None]:
        return lambda line: _say(f"{bid}: {line}")

    if axis == "cli":
        try:  # every CLI release on npm can be probed: Finder's index with nothing yanked
            index = [Release(v, yanked=False, bundles_cli=True) for v in release_list()]
        except CliReleaseError as exc:
            raise _IndexDown(str(exc)) from None
        return Finder(index, entries, lambda bid: CliReleaseProber(bid, say(bid)))
    if axis == "ts":
        from sdkprobe.releases.probe import TsReleaseProber
        from sdkprobe.releases.ts_sdk import TsReleaseError
        from sdkprobe.releases.ts_sdk import releases as ts_releases

        try:
            ts_index = [Release(v, yanked=False, bundles_cli=True) for v in ts_releases()]
        except TsReleaseError as exc:
            raise _IndexDown(str(exc)) from None
        return Finder(ts_index, entries, lambda bid: TsReleaseProber(bid, say(bid)))
    try:
        index = releases()
    except IndexUnreachable as exc:
        raise _IndexDown(str(exc)) from None
    cache = EnvCache()
    return Finder(index, entries, lambda bid: ReleaseProber(bid, cache, say(bid)))


def _check(step: Step) -> str:
    return f" (sub-check {step.check})" if step.check else ""


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
