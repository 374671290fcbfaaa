"""`sdkprobe gate`: compare a candidate with a baseline report and fail on what moved."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from sdkprobe import catalogue
from sdkprobe.commands import shared  # shared.probe_installed: one seam for tests
from sdkprobe.commands.sdk_flag import SDK_HELP, add_sdk, in_release
from sdkprobe.commands.shared import catalogue_options, choose_sdk, coverage_of, release_cli
from sdkprobe.errors import UsageError
from sdkprobe.runner import RunSettings

GATE_HELP = """\
Compare a candidate (a report, or a fresh run of the SDK under test) with a baseline
report of the same SDK and print what moved, as a table: behaviour | baseline |
candidate | what moved.

A changed verdict fails the gate (a behaviour's verdict, or a named sub-check's; a
sub-check only one report names counts as changed). A changed observation under an
unchanged verdict (beyond the reports' own version numbers) is listed as a note and
fails only with --strict. Behaviours present in one report only are listed, never fail.
Without --candidate, the probes run now on the SDK under test (the installed
claude-agent-sdk unless --sdk names another) and its bundled CLI, or CLI release X with
--cli-version X (wire and cli tiers; live ones are reported needs-live): with
--relied-on only the behaviours listed are probed and compared, and --out DIR keeps
that candidate's report as the next baseline.
--baseline takes a report's path or a listed SDK version, whose report ships with
sdkprobe. A behaviour renamed since the baseline was written is matched by its old id
(the output says it was renamed); so is an old id in the relied-on file.
When both reports record their SDK's public surface, every item the candidate adds or
removes is a note naming the behaviours that cover it ("0.2.190 adds option:foo: no
behaviour covers it"); a note never fails the gate."""

GATE_EPILOG = """\
relied-on file: one behaviour id a line; '#' starts a comment; blank lines are
ignored; an id found in neither report is an error.

exit status: 0 nothing failing moved, 1 a failing change, 2 bad input (missing or
broken report, different schema versions, unknown relied-on id), 130 interrupted (the
first Ctrl-C ends every probe of a fresh candidate)."""


def register(sub: Any) -> None:
    """Add `gate` to the `sdkprobe` subparsers."""
    raw = argparse.RawDescriptionHelpFormatter
    gp = sub.add_parser(
        "gate",
        parents=[catalogue_options()],
        help="fail when behaviours changed against a baseline report",
        description=GATE_HELP,
        epilog=GATE_EPILOG,
        formatter_class=raw,
        allow_abbrev=False,  # --sdk is found by its full name to forward the rest as given
    )
    gp.add_argument(
        "--baseline",
        required=True,
        metavar="FILE|VERSION",
        help="the last accepted report: a path (reports/0.2.189.json), or a listed SDK version (0.2.181) "
        "for the report sdkprobe ships for it",
    )
    gp.add_argument(
        "--candidate",
        type=Path,
        metavar="FILE",
        help="report of the release to accept (default: probe the SDK under test now)",
    )
    gp.add_argument(
        "--relied-on", type=Path, metavar="FILE", help="only changes to the behaviour ids listed in FILE fail the gate"
    )
    gp.add_argument(
        "--strict", action="store_true", help="also fail when an observation changed under an unchanged verdict"
    )
    gp.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="without --candidate: probes run in parallel (default: the number of cores)",
    )
    gp.add_argument(
        "--cli-version",
        metavar="X",
        help="without --candidate: probe against Claude Code CLI release X from npm instead of the bundled CLI",
    )
    add_sdk(gp, f"without --candidate: {SDK_HELP}; with ts@V, --baseline VERSION names a shipped TypeScript report")
    gp.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="without --candidate: also write the fresh candidate's report into DIR (<sdk-version>.json and "
        ".md), to keep as the next baseline",
    )
    gp.set_defaults(func=cmd_gate)


def cmd_gate(args: argparse.Namespace) -> int:
    from sdkprobe import report
    from sdkprobe.report.baselines import resolve_baseline
    from sdkprobe.report.gate import compare, read_relied_on
    from sdkprobe.report.store import check_destination, file_stem, load
    from sdkprobe.runner import run_info

    if args.jobs < 1:
        raise UsageError("-j must be at least 1")
    if args.candidate and args.cli_version:
        raise UsageError("--cli-version probes a fresh candidate; it cannot go with --candidate")
    if args.candidate and args.out:
        raise UsageError("--out writes the fresh candidate; it cannot go with --candidate")
    if args.candidate and args.sdk:
        raise UsageError("--sdk probes a fresh candidate; it cannot go with --candidate")
    if args.sdk is not None and args.sdk.python_release is not None:
        return in_release(args.sdk.python_release, args)
    typescript = choose_sdk(args.sdk)
    baseline = resolve_baseline(args.baseline, typescript)
    renames = catalogue.renames()  # a baseline or list from before a rename names the old ids
    relied_on = {catalogue.resolve(i) for i in read_relied_on(args.relied_on)} if args.relied_on else None
    if args.candidate:
        candidate = load(args.candidate)
    else:
        declared = {b.id: b for b in catalogue.load()}
        if relied_on is not None:
            # Only what the team relies on is probed and compared: a fast gate, and a candidate report of those.
            current = {renames.get(b["id"], b["id"]): b for b in baseline["behaviours"]}
            unknown = sorted(relied_on - declared.keys() - current.keys())
            if unknown:
                raise UsageError(f"relied-on id(s) neither declared nor in the baseline: {', '.join(unknown)}")
            baseline = {**baseline, "behaviours": [b for i, b in current.items() if i in relied_on]}
        chosen = [b for i, b in declared.items() if relied_on is None or i in relied_on]
        settings = RunSettings(cli_path=release_cli(args.cli_version))
        info = run_info(settings)
        if args.out:
            check_destination(args.out, file_stem(info))
        candidate = shared.probe_installed(chosen, settings, args.jobs, info)
        if args.out:
            json_path, _ = report.write(candidate, args.out)
            print(f"wrote the candidate report {json_path}", file=sys.stderr)
    sdks = [r.get("sdk", "python") for r in (baseline, candidate)]
    if sdks[0] != sdks[1]:
        raise UsageError(
            f"the baseline is a {sdks[0]} SDK report and the candidate a {sdks[1]} one: the gate compares "
            "versions of one SDK (`sdkprobe report --sdks A B` shows what differs between the two SDKs)"
        )
    items = {i for r in (baseline, candidate) for i in r.get("surface") or ()}
    result = compare(baseline, candidate, relied_on, args.strict, renames, coverage_of(sdks[0], items))
    sys.stdout.write(result.render())
    return result.exit_code
