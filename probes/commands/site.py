"""`sdkprobe site`: the reports as a static site, with an Atom feed of the releases recorded."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from sdkprobe.commands.shared import catalogue_options, coverage_of

SITE_HELP = """\
Build a static site from the reports in DIR (default: reports) into the folder OUT:
index.html names both SDKs, the newest recorded release of each and what moved in it;
compatibility.html and ts/compatibility.html are the two SDKs' matrices,
sdk-differences.html where they differ on one CLI, cli-axis/compatibility.html the CLI
axis; behaviours/<id>.html tells a behaviour's story on every version of both SDKs;
releases/<version>.html (ts/releases/ for the TypeScript SDK) holds a release's note
(DIR/notes/<version>.md, written by `sdkprobe update`; without one, what moved since the
release recorded before it) and its report; feed.xml is an Atom feed with an entry per
recorded release, dated by its publish time in DIR/notes/published.json (a release missing there
is named and left out of the feed). Links are relative: the site reads from the file
system and under any URL. Nothing in it depends on the clock: two builds are the same
bytes.

Links to the project's own files (a behaviour's declaration, a source's page) lead under
--repository URL when given (the Pages workflow passes
https://github.com/OWNER/REPO/blob/COMMIT), else to the checkout, relative to OUT."""

SITE_EPILOG = """\
exit status: 0 written, 2 DIR holding no usable report, a broken notes/published.json, or OUT a
file or a folder holding files no `sdkprobe site` wrote (nothing is then written)."""


def register(sub: Any) -> None:
    """Add `site` to the `sdkprobe` subparsers."""
    sp = sub.add_parser(
        "site",
        parents=[catalogue_options()],
        help="build the static site (matrices, behaviours, releases, Atom feed) from reports",
        description=SITE_HELP,
        epilog=SITE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sp.add_argument("out", type=Path, metavar="OUT", help="the folder to build the site into (replaced whole)")
    sp.add_argument(
        "--reports", type=Path, default=Path("reports"), metavar="DIR", help="the reports (default: reports)"
    )
    sp.add_argument(
        "--repository",
        metavar="URL",
        help="where the project's files are read online, e.g. https://github.com/OWNER/REPO/blob/COMMIT",
    )
    sp.set_defaults(func=cmd_site)


def cmd_site(args: argparse.Namespace) -> int:
    from sdkprobe import catalogue
    from sdkprobe.errors import UsageError
    from sdkprobe.report import site

    if args.repository is not None and not args.repository.startswith("https://"):
        raise UsageError(f"--repository takes an https:// URL, not {args.repository}")
    site.check_out(args.out)
    built = site.build(args.reports, args.out, args.repository, catalogue.renames(), coverage_of)
    site.write(args.out, built)
    pages = sum(1 for name in built.files if name.endswith(".html"))
    print(f"wrote {args.out}/ ({pages} pages and the Atom feed)")
    if built.undated:
        print(
            f"sdkprobe site: no publish time in notes/published.json for {', '.join(built.undated)}: not in the feed",
            file=sys.stderr,
        )
    return 0
