"""`sdkprobe run`: run the behaviours on the SDK under test and write its report (with --sdk
python@V, the same run by release V's own sdkprobe in its cached environment)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from sdkprobe import catalogue
from sdkprobe.behaviour import ERROR, TIERS, Behaviour
from sdkprobe.commands import shared  # shared.probe_installed: one seam for tests
from sdkprobe.commands.sdk_flag import SDK_HELP, add_sdk, add_sdk_version, in_release
from sdkprobe.commands.shared import catalogue_options, release_cli, select
from sdkprobe.errors import UsageError
from sdkprobe.report.errors import ReportError
from sdkprobe.runner import RunSettings


def register(sub: Any) -> None:
    run = sub.add_parser(
        "run",
        parents=[catalogue_options()],
        allow_abbrev=False,  # --sdk is found by its full name to forward the rest as given
        help="run the behaviours on the SDK under test and write its report",
        description="Run the behaviours on the SDK under test (the installed claude-agent-sdk unless --sdk "
        "names another), print a table and write "
        "DIR/<sdk-version>.json and .md (<sdk-version>+cli-<cli-version> with --cli or --cli-version). "
        "A run of some behaviours (--only, --tier) over a report holding others needs --merge or --replace. "
        "Exit 0 when every probe ran, 1 when one errored, 2 on bad input or an output that cannot be "
        "written (both found before probing), 130 on Ctrl-C (nothing written).",
    )
    run.add_argument(
        "--only", nargs="+", metavar="ID", default=[], help="run only these behaviour ids (or a renamed one's old id)"
    )
    run.add_argument("--tier", nargs="+", choices=TIERS, default=[], help="run only behaviours of these tiers")
    run.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="where the report goes (default: reports/, and reports/ts/ for --sdk ts@V)",
    )
    keep = run.add_mutually_exclusive_group()
    keep.add_argument(
        "--merge",
        action="store_true",
        help="put these results into the existing report in DIR (other behaviours' entries kept)",
    )
    keep.add_argument(
        "--replace",
        action="store_true",
        help="write a report of only these behaviours, even over a report in DIR that holds others "
        "(without --merge or --replace, such a run is refused before probing)",
    )
    which_cli = run.add_mutually_exclusive_group()
    which_cli.add_argument(
        "--cli", metavar="PATH", help="run the cli tier against this claude executable instead of the bundled one"
    )
    which_cli.add_argument(
        "--cli-version",
        metavar="X",
        help="run the cli tier against Claude Code CLI release X from npm (installed once into "
        "$SDKPROBE_CACHE/cli, default ~/.cache/sdkprobe/cli) instead of the bundled one",
    )
    add_sdk(run, SDK_HELP + "; a TypeScript report goes to reports/ts/ unless --out is given")
    add_sdk_version(run)
    run.add_argument(
        "--live",
        action="store_true",
        help="also run live behaviours against the real API (needs ANTHROPIC_API_KEY; bills that key)",
    )
    run.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="probes run in parallel (default: the number of cores)",
    )
    run.set_defaults(func=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    from sdkprobe import report
    from sdkprobe.report.store import check_destination, file_stem, merge
    from sdkprobe.runner import run_info

    if args.jobs < 1:
        raise UsageError("-j must be at least 1")
    typescript = shared.choose_sdk(args.sdk)
    if args.out is None:
        args.out = Path("reports") / "ts" if typescript else Path("reports")
    if args.cli is not None and not (os.path.isfile(args.cli) and os.access(args.cli, os.X_OK)):
        raise UsageError(f"--cli {args.cli}: not an executable file")
    if args.out.exists() and not args.out.is_dir():
        raise UsageError(f"--out {args.out}: not a directory")
    if args.sdk is not None and args.sdk.python_release is not None:
        return in_release(args.sdk.python_release, args)
    live = args.live and bool(os.environ.get("ANTHROPIC_API_KEY"))
    if args.live and not live:
        print("sdkprobe: --live needs ANTHROPIC_API_KEY; live behaviours are reported needs-live", file=sys.stderr)
    behaviours = select(args.only, args.tier)
    if not behaviours:
        raise UsageError("no behaviour matches the selection")
    cli_path = os.path.abspath(args.cli) if args.cli else release_cli(args.cli_version)
    settings = RunSettings(cli_path=cli_path, live=live)
    info = run_info(settings)
    # Everything that would make the run's end fail is found before its first probe.
    check_destination(args.out, file_stem(info))
    existing = None if args.replace else _existing_report(args.out / f"{file_stem(info)}.json", info, args.merge)
    if existing is not None and not args.merge:
        _refuse_to_shrink(existing, behaviours, args.out / f"{file_stem(info)}.json")
    data = shared.probe_installed(behaviours, settings, args.jobs, info)
    print(report.render_table(data["behaviours"]))
    written = merge(existing, data) if args.merge and existing is not None else data
    json_path, md_path = report.write(written, args.out)
    print(f"wrote {json_path} and {md_path}", file=sys.stderr)
    return 1 if any(b["verdict"] == ERROR for b in data["behaviours"]) else 0


def _existing_report(path: Path, info: dict[str, Any], merging: bool) -> dict[str, Any] | None:
    """The report a run would write over (None when there is none); with --merge it must be of
    this run's conditions."""
    from sdkprobe.report.store import check_mergeable, load, renamed

    if not path.exists():
        return None
    try:
        existing = renamed(load(path), catalogue.renames())  # a merge puts a renamed entry under its new id
    except ReportError as exc:
        raise UsageError(f"{exc} (--replace writes over it)") from None
    if merging:
        check_mergeable(existing, info)
    return existing


def _refuse_to_shrink(existing: dict[str, Any], behaviours: list[Behaviour], path: Path) -> None:
    """UsageError when writing only `behaviours` would drop entries of the report at `path`
    (a run of the whole catalogue replaces it: entries of behaviours no longer declared go)."""
    selected = {b.id for b in behaviours}
    if selected >= {b.id for b in catalogue.load()}:
        return
    dropped = sorted(b["id"] for b in existing["behaviours"] if b["id"] not in selected)
    if dropped:
        more = f" and {len(dropped) - 1} more" if len(dropped) > 1 else ""
        raise UsageError(
            f"{path} holds {len(dropped)} behaviours this run does not select ({dropped[0]}{more}): "
            "--merge puts these results into it, --replace writes a report of only these"
        )
