"""The `sdkprobe report` and `sdkprobe gate` subcommands.

Handlers return the exit code: 0 pass, 1 the gate found a change that fails, 2 bad
input (printed as one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from probes.report.errors import ReportError

REPORT_HELP = """\
Render the compatibility matrix from every <sdk-version>.json report in DIR:
DIR/COMPATIBILITY.md (one table per area, versions as columns, footnotes where a
behaviour does not hold) and DIR/compatibility.html (the same table as one static
page with a filter by id/area and by verdict; link a view as
compatibility.html#q=tools&verdict=differs). Where DIR/history/history.json (from
`sdkprobe history`) has the exact releases of a change between two columns, and the
columns still give the verdicts it was found for, the row's words name those releases
(also where the verdict moved and moved back between two columns that agree, and, after
the verdict's, where a sub-check moved other than as the verdict did)."""

REPORT_EPILOG = """\
exit status: 0 written, 2 DIR missing, empty, or holding a broken report, or a page
that cannot be written (neither page is then written)."""

GATE_HELP = """\
Compare a candidate SDK version with a baseline report and print what moved, as a
table: behaviour | baseline | candidate | what moved.

A changed verdict fails the gate (a behaviour's verdict, or a named sub-check's).
A changed observation under an unchanged verdict is listed as a note and fails
only with --strict. Behaviours present in one report only are listed, never fail.
Without --candidate, the probes run now on the installed claude-agent-sdk and its
bundled CLI, or CLI release X with --cli-version X (wire and cli tiers; live ones are
reported needs-live)."""

GATE_EPILOG = """\
relied-on file: one behaviour id a line; '#' starts a comment; blank lines are
ignored; an id found in neither report is an error.

exit status: 0 nothing failing moved, 1 a failing change, 2 bad input (missing or
broken report, different schema versions, unknown relied-on id), 130 interrupted (the
first Ctrl-C ends every probe of a fresh candidate)."""


# (jobs, CLI release or None for the bundled CLI) -> a report of the installed SDK, probed now
FreshRun = Callable[[int, str | None], dict[str, Any]]


def register(subparsers: Any, probe_installed: FreshRun) -> None:
    """Add `report` and `gate` to the `sdkprobe` subparsers; each sets func(args) -> int.

    `probe_installed(jobs, cli_version)` probes the installed SDK the way `run` does; the gate's fresh
    candidate comes from it, so this module runs no probe itself.
    """
    raw = argparse.RawDescriptionHelpFormatter
    rp = subparsers.add_parser(
        "report",
        help="render the compatibility matrix (Markdown and HTML) from reports",
        description=REPORT_HELP,
        epilog=REPORT_EPILOG,
        formatter_class=raw,
    )
    rp.add_argument(
        "dir",
        nargs="?",
        default=Path("reports"),
        type=Path,
        metavar="DIR",
        help="folder of <sdk-version>.json reports; the matrix is written there too (default: reports)",
    )
    rp.set_defaults(func=run_report)

    gp = subparsers.add_parser(
        "gate",
        help="fail when behaviours changed against a baseline report",
        description=GATE_HELP,
        epilog=GATE_EPILOG,
        formatter_class=raw,
    )
    gp.add_argument(
        "--baseline",
        required=True,
        type=Path,
        metavar="FILE",
        help="the last accepted report, e.g. reports/0.2.189.json",
    )
    gp.add_argument(
        "--candidate",
        type=Path,
        metavar="FILE",
        help="report of the version to accept (default: probe the installed SDK now)",
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
    gp.set_defaults(func=lambda args: run_gate(args, probe_installed))


def _fail(command: str, exc: ReportError) -> int:
    print(f"sdkprobe {command}: error: {exc}", file=sys.stderr)
    return 2


def run_report(args: argparse.Namespace) -> int:
    from probes.report.matrix import render_matrix

    try:
        md_path, html_path = render_matrix(args.dir)
    except ReportError as exc:
        return _fail("report", exc)
    print(f"wrote {md_path}")
    print(f"wrote {html_path}")
    return 0


def run_gate(args: argparse.Namespace, probe_installed: FreshRun) -> int:
    from probes.report.gate import compare, read_relied_on
    from probes.report.store import load

    if args.jobs < 1:
        return _fail("gate", ReportError("-j must be at least 1"))
    if args.candidate and args.cli_version:
        return _fail("gate", ReportError("--cli-version probes a fresh candidate; it cannot go with --candidate"))
    try:
        baseline = load(args.baseline)
        relied_on = read_relied_on(args.relied_on) if args.relied_on else None
        candidate = load(args.candidate) if args.candidate else probe_installed(args.jobs, args.cli_version)
        result = compare(baseline, candidate, relied_on, args.strict)
    except ReportError as exc:
        return _fail("gate", exc)
    sys.stdout.write(result.render())
    return result.exit_code
