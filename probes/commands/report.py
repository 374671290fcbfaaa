"""`sdkprobe report`: render the compatibility matrix from a folder of reports."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sdkprobe.commands.shared import catalogue_options

REPORT_HELP = """\
Render the compatibility matrix from every <sdk-version>.json report in DIR:
DIR/COMPATIBILITY.md (one table per area, versions as columns, footnotes where a
behaviour does not hold) and DIR/compatibility.html (the same table as one static
page with a filter by id/area and by verdict; link a view as
compatibility.html#q=tools&verdict=differs). Where DIR/history/history.json (from
`sdkprobe history`) has the exact releases of a change between two columns, and the
columns still give the verdicts it was found for, the row's words name those releases
(also where the verdict moved and moved back between two columns that agree, and, after
the verdict's, where a sub-check moved other than as the verdict did). An entry under a
behaviour's old id (declared with renamed_from) is shown in its current id's row."""

REPORT_EPILOG = """\
exit status: 0 written, 2 DIR missing, empty, or holding a broken report, or a page
that cannot be written (neither page is then written)."""


def register(sub: Any) -> None:
    """Add `report` to the `sdkprobe` subparsers."""
    raw = argparse.RawDescriptionHelpFormatter
    rp = sub.add_parser(
        "report",
        parents=[catalogue_options()],
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
    rp.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue
    from sdkprobe.report.matrix import render_matrix

    # The declared renames, so an old report's entries land in their behaviour's current row.
    md_path, html_path = render_matrix(args.dir, catalogue.renames())
    print(f"wrote {md_path}")
    print(f"wrote {html_path}")
    return 0
