"""The `sdkprobe bisect` subcommand: which release changed a behaviour.

Reads every release from the index (yanked ones too), narrows them to the range asked,
and hands `sdkprobe.releases.bisect` a probe that runs each release in its cached environment. It
prints the adjacent pair with both verdicts and what moved in the observation.
Exit 0 answered (a change found, or both ends agree), 1 no release gave a verdict, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sdkprobe.commands import sdk_flag
from sdkprobe.commands.shared import catalogue_options
from sdkprobe.errors import UsageError
from sdkprobe.releases.bisect import (
    Answer,
    ReleaseVerdict,
    bisect,
    observation_diff,
    resolver_picks,
    scan,
    skipped_between,
)
from sdkprobe.releases.index import releases, select_range
from sdkprobe.releases.versions import version_key

HELP = """\
Find, among every release of claude-agent-sdk on the package index between --from and
--to (yanked ones included), the adjacent pair where the behaviour's verdict (or one
sub-check's, with --check) changes. Each release is installed once into a cache
($SDKPROBE_CACHE/envs, default ~/.cache/sdkprobe/envs) and probed there with its bundled CLI.
A release with a report in --reports (the listed versions) is not probed again: the search
splits at those first and probes only inside the gap they leave (--fresh probes them too).

With --sdk ts the releases are those of the TypeScript SDK (@anthropic-ai/claude-agent-sdk
on npm) between --from (default: the oldest with a report in --reports, reports/ts) and
--to, each installed once into $SDKPROBE_CACHE/ts and probed with the CLI it bundles.

With --axis cli the SDK installed here is held fixed and the releases are those of the
Claude Code CLI on npm (@anthropic-ai/claude-code) between --from (default: the CLI the
installed SDK bundles) and --to (default: the newest), each installed once into
$SDKPROBE_CACHE/cli; only cli-tier behaviours run a real CLI, so only they can move.

Bisecting assumes one change in the range: when both ends agree it says so, since a
change and a change back would not be seen; --scan probes every release instead."""

Flags = list[tuple[str, bool]]  # (release, yanked) for every release known, oldest first
EPILOG = """\
exit status: 0 answered, 1 no release in the range gave a verdict, 2 bad input, found
before probing (with SDK releases also sdkprobe installed from no checkout: use pip
install -e), 130 interrupted (the first Ctrl-C ends every release's run)."""


def register(subparsers: Any) -> None:
    """Add `bisect` to the `sdkprobe` subparsers."""
    bp = subparsers.add_parser(
        "bisect",
        parents=[catalogue_options()],
        help="find the release where a behaviour changed",
        description=HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bp.add_argument("id", metavar="ID", help="the behaviour's id (see `sdkprobe list`)")
    sdk_flag.add_sdk(
        bp,
        "whose releases: python (claude-agent-sdk on the package index, the default) or ts "
        "(@anthropic-ai/claude-agent-sdk on npm)",
        release=False,
    )
    sdk_flag.add_axis(
        bp,
        "what moves: sdk, the SDK's releases, each with its bundled CLI (default), or cli, CLI releases under the "
        "installed Python SDK",
    )
    bp.add_argument(
        "--from",
        dest="from_",
        metavar="V",
        help="first release (default: the oldest SDK bundling a CLI; with --axis cli the installed SDK's CLI)",
    )
    bp.add_argument("--to", metavar="V", help="last release (default: the newest)")
    bp.add_argument(
        "--reports",
        type=Path,
        metavar="DIR",
        default=None,
        help="reuse the verdicts of SDK releases with a report here instead of probing them "
        "(default: reports, and reports/ts with --sdk ts)",
    )
    bp.add_argument("--fresh", action="store_true", help="probe every release, reusing no report")
    bp.add_argument("--check", metavar="NAME", help="follow this sub-check's verdict instead of the behaviour's")
    bp.add_argument("--scan", action="store_true", help="probe every release in the range, not a binary search")
    bp.add_argument("--no-yanked", action="store_true", help="leave yanked SDK releases out (probed by default)")
    bp.set_defaults(func=cmd_bisect)


def cmd_bisect(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue

    args.axis = sdk_flag.axis(args)  # sdk, cli, or ts for the TypeScript SDK's releases
    declared = {b.id: b for b in catalogue.load()}
    args.id = catalogue.resolve(args.id)
    if args.id not in declared:
        raise UsageError(f"no behaviour with id {args.id} (see `sdkprobe list`)")
    if args.check is not None and args.check not in declared[args.id].checks:
        raise UsageError(f"{args.id} has no sub-check {args.check}; it has {', '.join(declared[args.id].checks)}")

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.axis == "cli":
        if declared[args.id].tier != "cli":
            raise UsageError(
                f"{args.id} is a {declared[args.id].tier}-tier behaviour: it runs no real CLI, "
                "so a CLI release cannot move it (--axis cli takes cli-tier behaviours)"
            )
        if args.no_yanked:
            raise UsageError("--no-yanked is for SDK releases; npm has no yanked CLI releases")
        if args.fresh or args.reports is not None:
            raise UsageError("--reports and --fresh are for SDK releases; with --axis cli every release is probed")
        versions, flags, prober = _cli_axis(args, progress)
        known: dict[str, ReleaseVerdict] = {}
    else:
        args.reports = args.reports or (TS_REPORTS if args.axis == "ts" else Path("reports"))
        versions, flags, prober = _ts_axis(args, progress) if args.axis == "ts" else _sdk_axis(args, progress)
        known = {} if args.fresh else committed(args.reports, args.id, versions)
        if known:
            progress(
                f"reusing the verdicts of {len(known)} releases from their reports in {args.reports}: "
                f"{', '.join(known)} (--fresh probes them)"
            )
    start = time.monotonic()
    if args.scan:
        answer = scan(versions, lambda v: known.get(v) or prober(v), args.check)
    else:
        answer = bisect(versions, prober, args.check, known, ends_at_once=True)
    print("\n".join(render(answer, args.id, args.check, flags, args.scan, args.axis)))
    reused = sum(v in known for v in {o.version for o in answer.probed})
    progress(
        f"{prober.runs} probe runs"
        + (f" and {reused} verdicts from reports" if reused else "")
        + f" over {len(versions)} releases in {time.monotonic() - start:.0f} s"
    )
    return 0 if answer.first is not None else 1


def committed(reports: Path, behaviour_id: str, versions: list[str]) -> dict[str, ReleaseVerdict]:
    """The judged verdicts (holds, differs, not-applicable) the reports in a folder give the
    behaviour on releases in range, each with its bundled CLI; UsageError for a malformed report."""
    from sdkprobe import catalogue
    from sdkprobe.report.errors import ReportError
    from sdkprobe.report.grid import load_reports
    from sdkprobe.report.history import JUDGED

    if not reports.is_dir():
        return {}
    try:
        loaded = load_reports(reports, catalogue.renames())  # an old report names the behaviour's old id
    except ReportError as exc:
        if not any(reports.glob("*.json")):
            return {}
        raise UsageError(f"{exc} (--fresh reuses no report)") from None
    wanted = set(versions)
    found = {}
    for report in loaded:
        entry = next((b for b in report["behaviours"] if b["id"] == behaviour_id), None)
        if report["cli"] == "bundled" and report["sdk_version"] in wanted and entry and entry["verdict"] in JUDGED:
            found[report["sdk_version"]] = ReleaseVerdict.from_entry(report["sdk_version"], entry)
    return dict(sorted(found.items(), key=lambda kv: version_key(kv[0])))


def _sdk_axis(args: argparse.Namespace, progress: Callable[[str], None]) -> tuple[list[str], Flags, Any]:
    from sdkprobe.releases.envcache import EnvCache
    from sdkprobe.releases.probe import ReleaseProber

    envs = EnvCache()
    envs.check_source()
    index = releases()
    in_range, notes = select_range(index, args.from_, args.to, args.no_yanked)
    for note in notes:
        progress(note)
    flags = [(r.version, r.yanked) for r in index]
    return [r.version for r in in_range], flags, ReleaseProber(args.id, envs, progress)


TS_REPORTS = Path("reports") / "ts"


def _ts_axis(args: argparse.Namespace, progress: Callable[[str], None]) -> tuple[list[str], Flags, Any]:
    """TypeScript releases on npm from --from (default: the oldest with a report in DIR) to --to."""
    from sdkprobe.releases.probe import TsReleaseProber
    from sdkprobe.releases.ts_sdk import releases as ts_releases

    if args.no_yanked:
        raise UsageError("--no-yanked is for Python SDK releases; npm lists no yanked TypeScript releases")
    known = ts_releases()
    first = args.from_ or next(iter(committed(args.reports, args.id, known)), None)
    if first is None:
        raise UsageError(f"no TypeScript report in {args.reports} to start from; name a release with --from")
    chosen = _npm_range(known, first, args.to or known[-1], "@anthropic-ai/claude-agent-sdk")
    return chosen, [(v, False) for v in known], TsReleaseProber(args.id, progress)


def _cli_axis(args: argparse.Namespace, progress: Callable[[str], None]) -> tuple[list[str], Flags, Any]:
    from sdkprobe.harness.sdk import bundled_cli_version
    from sdkprobe.releases.claude_code import check_version, release_list
    from sdkprobe.releases.probe import CliReleaseProber

    for v in (args.from_, args.to):
        if v is not None:
            check_version(v)
    known = release_list()
    first = args.from_ or bundled_cli_version()
    if first is None:
        raise UsageError("the installed SDK bundles no CLI to start from; name one with --from")
    if args.from_ is None and first not in known:
        raise UsageError(f"the installed SDK bundles CLI {first}, which is not on npm; name a release with --from")
    chosen = _npm_range(known, first, args.to or known[-1], "the CLI", " (@anthropic-ai/claude-code)")
    return chosen, [(v, False) for v in known], CliReleaseProber(args.id, progress)


def _npm_range(known: list[str], first: str, last: str, what: str, aside: str = "") -> list[str]:
    """The npm releases from `first` to `last`; UsageError for an end not on npm or ends reversed."""
    for flag, v in (("--from", first), ("--to", last)):
        if v not in known:
            raise UsageError(f"{flag} {v}: no such release of {what} on npm{aside}")
    if version_key(first) > version_key(last):
        raise UsageError(f"--from {first} comes after --to {last}")
    return [v for v in known if version_key(first) <= version_key(v) <= version_key(last)]


def render(
    answer: Answer, behaviour_id: str, check: str | None, flags: Flags, scanned: bool, axis: str = "sdk"
) -> list[str]:
    """The answer as lines for stdout; `flags` says which releases are yanked."""
    what = f"sub-check {check}" if check else "verdict"
    vs = answer.versions
    kind = {"cli": "CLI releases (with the installed SDK)", "ts": "TypeScript SDK releases"}.get(axis, "releases")
    lines = [f"{behaviour_id} ({what}) across {len(vs)} {kind}, {vs[0]} to {vs[-1]}:"]
    if answer.first is None or answer.last is None:
        lines.append("no release in the range gave a verdict")
    elif answer.first is answer.last:
        lines.append(f"only {answer.first.version} gave a verdict: {_verdict(answer.first, check)}")
    elif answer.agree:
        lines.append(
            f"same {what} at both ends: {_verdict(answer.first, check)} on {answer.first.version} "
            f"and {_verdict(answer.last, check)} on {answer.last.version}"
        )
        if scanned:
            lines.append(f"every release in between gave it too ({len(answer.probed)} probed)")
        else:
            lines.append(
                "bisect assumes one change: a change and a change back in between would not be seen "
                "(--scan probes every release)"
            )
    for before, after in answer.changes:
        lines += _change(answer, before, after, check, flags)
    for o in answer.skipped:
        lines.append(f"skipped {o.version}: {o.skipped}")
    return lines


def _change(
    answer: Answer, before: ReleaseVerdict, after: ReleaseVerdict, check: str | None, flags: list[tuple[str, bool]]
) -> list[str]:
    yanked = dict(flags)
    lines = [f"changed between {before.version} and {after.version}:"]
    for o in (before, after):
        mark = " (yanked)" if yanked.get(o.version) else ""
        lines.append(f"  {o.version}{mark}: {_verdict(o, check)}" + (f" - {o.note}" if o.note else ""))
    moved = observation_diff(before.observed, after.observed)
    lines.append("  what moved in the observation:" if moved else "  the observation did not move")
    lines += [f"    {m}" for m in moved]
    gaps = skipped_between(answer, before, after)
    if gaps:
        lines.append(f"  the change may lie at any of {', '.join(o.version for o in gaps)}, which gave no verdict")
    if yanked.get(after.version):
        pick = resolver_picks(after.version, flags)
        lines.append(
            f"  {after.version} is yanked; the first release a resolver picks from there is "
            + (f"{pick} (not probed unless named above)" if pick else "none (every later release is yanked)")
        )
    return lines


def _verdict(o: ReleaseVerdict, check: str | None) -> str:
    return o.key(check) if check else str(o.verdict)
