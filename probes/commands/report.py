"""`sdkprobe report`: render the compatibility matrix from a folder of reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sdkprobe.commands.shared import catalogue_options, coverage_of
from sdkprobe.errors import UsageError

REPORT_HELP = """\
Render the compatibility matrix from every <sdk-version>.json report in DIR:
DIR/COMPATIBILITY.md (one table per area, a column per report, footnotes where a
behaviour does not hold) and DIR/compatibility.html (the same table as one static
page with a filter by id/area and by verdict; link a view as
compatibility.html#q=tools&verdict=differs). Where DIR/history/history.json (from
`sdkprobe history`) has the exact releases of a change between two columns, and the
columns still give the verdicts it was found for, the row's words name those releases
(also where the verdict moved and moved back between two columns that agree, and, after
the verdict's, where a sub-check moved other than as the verdict did). Beside them it
writes DIR/behaviours/<id>.html, one page per behaviour with its story (as `sdkprobe
show` prints it) and its declaration's text, DIR/notes/<version>.md, each release's note
(what moved against the release before it, what was seen differently under the same
verdict, the public items it adds and removes; none on a CLI axis), and COMPATIBILITY.md
ends with what moved between the two newest versions. An entry under a behaviour's old id (declared with
renamed_from) is shown in its current id's row.

With --from A --to B (two reports in DIR, named as their files are: 0.2.181, or
0.2.189+cli-2.1.321) it writes no matrix: it prints, as Markdown, what moved from A to
B: each behaviour whose verdict or a sub-check's differs between the two reports, with
its claim, both verdicts, the sub-checks that moved, the notes, and where the history
file knows them the exact releases of the change; then the behaviours only one of the
two has. --out FILE writes that to FILE instead.

The TypeScript SDK's reports (@anthropic-ai/claude-agent-sdk) go in DIR/ts/, and `sdkprobe
report DIR/ts` renders their own matrix, every heading naming that SDK. When DIR holds the
Python SDK's reports and DIR/ts/ holds reports, DIR/SDK-DIFFERENCES.md and
DIR/sdk-differences.html say, for each CLI version a Python and a TypeScript report both ran
as their bundled CLI (the newest release of each that bundles it), the behaviours whose
verdict, or a sub-check's, differs between the two SDKs: holds against differs
first, then those not applicable on one side, then those inconclusive there (error,
needs-live); COMPATIBILITY.md points at it.

With --sdks A.json B.json (one Python and one TypeScript report, on one CLI version) it
writes no matrix: it prints that view, as Markdown, for those two reports; --out FILE
writes it to FILE instead."""

REPORT_EPILOG = """\
exit status: 0 written, 2 DIR missing, empty, or holding a broken report, or a page
that cannot be written (nothing is then written), or --from/--to naming a version with
no report in DIR, or --sdks given two reports of one SDK, or of two CLI versions."""


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
        default=None,
        type=Path,
        metavar="DIR",
        help="folder of <sdk-version>.json reports; the matrix is written there too (default: reports)",
    )
    rp.add_argument("--from", dest="from_", metavar="A", help="with --to: print what moved from report A to report B")
    rp.add_argument("--to", metavar="B", help="with --from: the version upgraded to")
    rp.add_argument(
        "--sdks",
        nargs=2,
        type=Path,
        metavar=("A.json", "B.json"),
        help="print where a Python SDK report and a TypeScript SDK report on one CLI differ",
    )
    rp.add_argument(
        "--out", type=Path, metavar="FILE", help="with --from/--to or --sdks: write the Markdown to FILE, not stdout"
    )
    rp.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue
    from sdkprobe.report import sdkdiff
    from sdkprobe.report.matrix import render_matrix
    from sdkprobe.report.published import NOTES
    from sdkprobe.report.story import PAGES

    if args.sdks is not None:
        if args.dir is not None or args.from_ is not None or args.to is not None:
            raise UsageError("--sdks takes two report files and no DIR, --from or --to")
        return _sdks(args)
    args.dir = Path("reports") if args.dir is None else args.dir
    if (args.from_ is None) != (args.to is None):
        raise UsageError("--from and --to go together: the version upgraded from and the one upgraded to")
    if args.from_ is not None:
        return _upgrade(args)
    if args.out:
        raise UsageError("--out writes what --from/--to print (or --sdks); the matrix is written into DIR")
    # The declared renames, so an old report's entries land in their behaviour's current row.
    md_path, html_path = render_matrix(args.dir, catalogue.renames(), coverage_of)
    print(f"wrote {md_path}")
    print(f"wrote {html_path}")
    print(f"wrote {args.dir / PAGES}/ (a page per behaviour)")
    if any((args.dir / NOTES).glob("*.md")):
        print(f"wrote {args.dir / NOTES}/ (a release note per release)")
    if (args.dir / sdkdiff.MD_NAME).is_file() and sdkdiff.has_typescript(args.dir):
        print(f"wrote {args.dir / sdkdiff.MD_NAME} and {args.dir / sdkdiff.HTML_NAME} (where the SDKs differ)")
    return 0


def _sdks(args: argparse.Namespace) -> int:
    """Where one Python and one TypeScript report on one CLI differ, as Markdown."""
    from sdkprobe import catalogue
    from sdkprobe.report import sdkdiff
    from sdkprobe.report.cells import project_from
    from sdkprobe.report.files import check_writable
    from sdkprobe.report.store import load, renamed

    if args.out:
        check_writable(args.out)
    a, b = (renamed(load(p), catalogue.renames()) for p in args.sdks)
    python, typescript = sdkdiff.check_pair(a, b, (str(args.sdks[0]), str(args.sdks[1])))
    project = project_from(args.out.parent if args.out else Path.cwd())
    text = sdkdiff.comparison_markdown(sdkdiff.pair(python, typescript), project, level=1)
    _print_or_write(text, args.out)
    return 0


def _upgrade(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue
    from sdkprobe.report import upgrade
    from sdkprobe.report.files import check_writable
    from sdkprobe.report.grid import load_dir

    if args.out:
        check_writable(args.out)
    grid = load_dir(args.dir, catalogue.renames())
    a, b = (upgrade.column_named(grid, name, str(args.dir)) for name in (args.from_, args.to))
    text = upgrade.render_markdown(upgrade.between(grid, a, b), level=1)
    _print_or_write(text, args.out)
    return 0


def _print_or_write(text: str, out: Path | None) -> None:
    """What --from/--to or --sdks say: on stdout, or into `out` (whole or not at all) when given."""
    from sdkprobe.report.files import write_atomic

    if out:
        write_atomic(out, text.encode("utf-8"))
        print(f"wrote {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
