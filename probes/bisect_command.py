"""The `sdkprobe bisect` subcommand: which release changed a behaviour.

Reads every release from the index (yanked ones too), narrows them to the range asked,
and hands `probes.bisect` a probe that runs each release in its cached environment. It
prints the adjacent pair with both verdicts and what moved in the observation.
Exit 0 answered (a change found, or both ends agree), 1 no release gave a verdict, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from probes.bisect import Answer, Outcome, bisect, observation_diff, resolver_picks, scan, skipped_between
from probes.releases import IndexUnreachable, Release, releases
from probes.versions import version_key

HELP = """\
Find, among every release of claude-agent-sdk on the package index between --from and
--to (yanked ones included), the adjacent pair where the behaviour's verdict (or one
sub-check's, with --check) changes. Each release is installed once into a cache
($SDKPROBE_CACHE/envs, default ~/.cache/sdkprobe/envs) and probed there with its bundled CLI.
Bisecting assumes one change in the range: when both ends agree it says so, since a
change and a change back would not be seen; --scan probes every release instead."""

EPILOG = "exit status: 0 answered, 1 no release in the range gave a verdict, 2 bad input."


class _Bad(Exception):
    pass


def register(subparsers: Any) -> None:
    """Add `bisect` to the `sdkprobe` subparsers."""
    bp = subparsers.add_parser(
        "bisect",
        help="find the release where a behaviour changed",
        description=HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bp.add_argument("id", metavar="ID", help="the behaviour's id (see `sdkprobe list`)")
    bp.add_argument("--from", dest="from_", metavar="V", help="first release (default: the oldest bundling a CLI)")
    bp.add_argument("--to", metavar="V", help="last release (default: the newest)")
    bp.add_argument("--check", metavar="NAME", help="follow this sub-check's verdict instead of the behaviour's")
    bp.add_argument("--scan", action="store_true", help="probe every release in the range, not a binary search")
    bp.add_argument("--no-yanked", action="store_true", help="leave yanked releases out (probed by default)")
    bp.set_defaults(func=cmd_bisect)


def cmd_bisect(args: argparse.Namespace) -> int:
    try:
        return _bisect(args)
    except _Bad as exc:
        print(f"sdkprobe: error: {exc}", file=sys.stderr)
        return 2


def _bisect(args: argparse.Namespace) -> int:
    from probes import catalogue
    from probes.envcache import EnvCache
    from probes.release_probe import ReleaseProber

    declared = {b.id: b for b in catalogue.load()}
    if args.id not in declared:
        raise _Bad(f"no behaviour with id {args.id} (see `sdkprobe list`)")
    if args.check is not None and args.check not in declared[args.id].checks:
        raise _Bad(f"{args.id} has no sub-check {args.check}; it has {', '.join(declared[args.id].checks)}")
    try:
        index = releases()
    except IndexUnreachable as exc:
        raise _Bad(str(exc)) from None
    in_range, notes = select_range(index, args.from_, args.to, args.no_yanked)

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    for note in notes:
        progress(note)
    prober = ReleaseProber(args.id, EnvCache(), progress)
    start = time.monotonic()
    versions = [r.version for r in in_range]
    answer = (scan if args.scan else bisect)(versions, prober, args.check)
    print("\n".join(render(answer, args.id, args.check, index, args.scan)))
    progress(f"{prober.runs} probe runs over {len(versions)} releases in {time.monotonic() - start:.0f} s")
    return 0 if answer.first is not None else 1


def select_range(
    index: list[Release], first: str | None, last: str | None, no_yanked: bool
) -> tuple[list[Release], list[str]]:
    """The releases to search, oldest first, and notes on what was left out; _Bad on bad input."""
    known = {r.version: r for r in index}
    for flag, v in (("--from", first), ("--to", last)):
        if v is not None and v not in known:
            raise _Bad(f"{flag} {v}: no such release of claude-agent-sdk on the index")
        if v is not None and no_yanked and known[v].yanked:
            raise _Bad(f"{flag} {v} is yanked, and --no-yanked leaves yanked releases out")
    if first is not None and last is not None and version_key(first) > version_key(last):
        raise _Bad(f"--from {first} comes after --to {last}")
    lo = version_key(first) if first else None
    hi = version_key(last) if last else None
    chosen = [
        r
        for r in index
        if (lo is None or version_key(r.version) >= lo) and (hi is None or version_key(r.version) <= hi)
    ]
    notes = []
    without = [r.version for r in chosen if not r.bundles_cli]
    if without:
        notes.append(f"skipping {len(without)} releases whose wheel bundles no CLI for this machine: {_span(without)}")
    chosen = [r for r in chosen if r.bundles_cli]
    if no_yanked:
        yanked = [r.version for r in chosen if r.yanked]
        if yanked:
            notes.append(f"leaving out {len(yanked)} yanked releases (--no-yanked)")
        chosen = [r for r in chosen if not r.yanked]
    if not chosen:
        raise _Bad("no release in the range bundles a CLI to probe")
    return chosen, notes


def render(answer: Answer, behaviour_id: str, check: str | None, index: list[Release], scanned: bool) -> list[str]:
    """The answer as lines for stdout."""
    what = f"sub-check {check}" if check else "verdict"
    vs = answer.versions
    lines = [f"{behaviour_id} ({what}) across {len(vs)} releases, {vs[0]} to {vs[-1]}:"]
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
    flags = [(r.version, r.yanked) for r in index]
    for before, after in answer.changes:
        lines += _change(answer, before, after, check, flags)
    for o in answer.skipped:
        lines.append(f"skipped {o.version}: {o.skipped}")
    return lines


def _change(
    answer: Answer, before: Outcome, after: Outcome, check: str | None, flags: list[tuple[str, bool]]
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


def _verdict(o: Outcome, check: str | None) -> str:
    return o.key(check) if check else str(o.verdict)


def _span(versions: list[str]) -> str:
    return versions[0] if len(versions) == 1 else f"{versions[0]} to {versions[-1]}"
