"""`sdkprobe show ID`: one behaviour's story, from the reports and the history file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sdkprobe.commands.shared import catalogue_options

SHOW_HELP = """\
Print one behaviour's story: its id, area and tier, its claim, its source (and where to
read it), its sub-checks, where it is declared (file:line), its verdict on every
<sdk-version>.json report in DIR (CLI, verdict, sub-checks, note), and what moved, in
words, naming the exact releases of each change where DIR/history/history.json has
them. The same story is the page behaviours/<id>.html that `sdkprobe report` writes
beside the matrix. Reads only: nothing is probed or written."""

SHOW_EPILOG = """\
exit status: 0 shown, 2 an id no report in DIR has (the closest ids are named), or DIR
missing, empty, or holding a broken report."""


def register(sub: Any) -> None:
    """Add `show` to the `sdkprobe` subparsers."""
    sp = sub.add_parser(
        "show",
        parents=[catalogue_options()],
        help="one behaviour's story: claim, source, declaration, its verdict in every report, what moved",
        description=SHOW_HELP,
        epilog=SHOW_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sp.add_argument(
        "id", metavar="ID", help="the behaviour's id (tools.mcp-tool-naming; an id it was renamed from works too)"
    )
    sp.add_argument(
        "--reports",
        type=Path,
        default=Path("reports"),
        metavar="DIR",
        help="the folder of <sdk-version>.json reports (default: reports)",
    )
    sp.set_defaults(func=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue
    from sdkprobe.report.grid import load_dir
    from sdkprobe.report.story import render_text, row_named, story

    # The declared renames: an old report's entries, and an old id given here, find the current row.
    grid = load_dir(args.reports, catalogue.renames())
    row = row_named(grid, catalogue.resolve(args.id), str(args.reports))
    sys.stdout.write(render_text(story(grid, row)))
    return 0
