"""The `sdkprobe releases` subcommand: the SDK releases a bisect would probe, for a CI matrix.

One release per line (or a JSON array with --json, ready for a CI matrix), oldest first.
`--sdk python` (the default): those on the package index between --from and --to whose
wheel bundles a CLI, yanked ones too unless --no-yanked; what was left out is said on
stderr. `--sdk ts`: the TypeScript SDK's releases on npm between --from and --to.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sdkprobe.commands.sdk_flag import add_sdk
from sdkprobe.errors import UsageError
from sdkprobe.releases import ts_sdk
from sdkprobe.releases.index import releases, select_range


def register(subparsers: Any) -> None:
    """Add `releases` to the `sdkprobe` subparsers."""
    rp = subparsers.add_parser(
        "releases",
        help="list the SDK releases on the index (or, with --sdk ts, on npm) that can be probed",
        description=(
            "List the releases of claude-agent-sdk on the package index between --from and --to whose "
            "wheel bundles a CLI for this machine (yanked ones included unless --no-yanked), oldest "
            "first: what `sdkprobe bisect` searches and `sdkprobe run --sdk python@V` can run. With "
            f"--sdk ts, the releases of the TypeScript SDK ({ts_sdk.PACKAGE}) on npm between --from "
            "and --to instead. Exit 0 listed, 2 bad input or an unreachable index."
        ),
    )
    add_sdk(
        rp,
        "which SDK's releases: python (claude-agent-sdk on the package index, the default) or ts "
        "(@anthropic-ai/claude-agent-sdk on npm)",
        release=False,
    )
    rp.add_argument("--from", dest="from_", metavar="V", help="first release (default: the oldest)")
    rp.add_argument("--to", metavar="V", help="last release (default: the newest)")
    rp.add_argument("--no-yanked", action="store_true", help="leave yanked releases out (--sdk python only)")
    rp.add_argument("--json", action="store_true", help="print one JSON array of version strings")
    rp.set_defaults(func=cmd_releases)


def cmd_releases(args: argparse.Namespace) -> int:
    if args.sdk is not None and args.sdk.typescript:
        if args.no_yanked:
            raise UsageError("--no-yanked is for --sdk python: npm has no yanked releases")
        versions = ts_sdk.releases(since=args.from_, until=args.to)
    else:
        chosen, notes = select_range(releases(), args.from_, args.to, args.no_yanked)
        for note in notes:
            print(note, file=sys.stderr)
        versions = [r.version for r in chosen]
    print(json.dumps(versions) if args.json else "\n".join(versions))
    return 0
