"""`sdkprobe`: run the behaviours, list them, capture what the SDK sends, render the
matrix (`report`) and compare two reports (`gate`).

Exit codes: 0 done, 1 a probe errored (or, for `gate`, a verdict moved), 2 bad input
(or an output that cannot be written), 130 interrupted: the first Ctrl-C ends every process
the command started (probes.scope) and writes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from probes import catalogue, scope
from probes.areas import AREAS
from probes.behaviour import ERROR, TIERS, Behaviour
from probes.harness.options import check_json_options
from probes.report import commands as report_commands
from probes.report.errors import ReportError
from probes.result import Result
from probes.runner import RunSettings


class BadInput(Exception):
    """Input the user can fix; reported as one line on stderr with exit 2."""


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    with scope.entered(), scope.interrupts_stop():
        return _command(args)


def _command(args: argparse.Namespace) -> int:
    """The one place a command's failure becomes a line and an exit status."""
    try:
        code: int = args.func(args)
        return code
    except (BadInput, ReportError) as exc:
        print(f"sdkprobe: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        scope.stop()  # already done by the first SIGINT; again for an interrupt raised otherwise
        print("sdkprobe: interrupted", file=sys.stderr, flush=True)
        # That line is the last word: what the interrupted probe's event loop left behind is
        # finalised at exit (an SDK transport's "Event loop is closed"), and goes nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())
        return 130
    except BrokenPipeError:  # `sdkprobe list | head`: the reader left, which is no error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sdkprobe",
        description="Check which behaviours of claude-agent-sdk and its CLI hold on the installed version.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser(
        "run",
        help="run the behaviours on the installed SDK and write its report",
        description="Run the behaviours on the installed SDK, print a table and write "
        "DIR/<sdk-version>.json and .md (<sdk-version>+cli-<cli-version> with --cli or --cli-version). "
        "A run of some behaviours (--only, --tier) over a report holding others needs --merge or --replace. "
        "Exit 0 when every probe ran, 1 when one errored, 2 on bad input or an output that cannot be "
        "written (both found before probing), 130 on Ctrl-C (nothing written).",
    )
    run.add_argument("--only", nargs="+", metavar="ID", default=[], help="run only these behaviour ids")
    run.add_argument("--tier", nargs="+", choices=TIERS, default=[], help="run only behaviours of these tiers")
    run.add_argument(
        "--out", type=Path, default=Path("reports"), metavar="DIR", help="where the report goes (default: reports/)"
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
    run.add_argument(
        "--sdk-version",
        metavar="V",
        help="run in the environment of claude-agent-sdk release V from the package index (installed once "
        "into $SDKPROBE_CACHE/envs, default ~/.cache/sdkprobe/envs) instead of the installed SDK",
    )
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

    lst = sub.add_parser(
        "list",
        help="list the behaviours",
        description="List the behaviours in area order with id, tier, sub-checks, requirements and source. "
        "Filters combine: a behaviour is listed when it matches every one given.",
    )
    lst.add_argument("--tier", nargs="+", choices=TIERS, default=[], help="only these tiers")
    lst.add_argument(
        "--area",
        nargs="+",
        default=[],
        metavar="AREA",
        help="only these areas: " + ", ".join(a.name for a in AREAS),
    )
    lst.add_argument(
        "--id", nargs="+", default=[], metavar="GLOB", help="only ids matching one of these globs (tools.*)"
    )
    lst.add_argument(
        "--requires",
        nargs="+",
        default=[],
        metavar="NEED",
        help="only behaviours with a requirement starting with NEED (option:, option:tools, cli, package:mcp)",
    )
    lst.add_argument(
        "--json",
        action="store_true",
        help="print JSON: claim, source (with URL), sub-checks, requirements (and which the installed SDK lacks), "
        "SDK reference",
    )
    lst.set_defaults(func=cmd_list)

    cap = sub.add_parser(
        "capture",
        help="show what the installed SDK sends to its CLI for some options",
        description="Run the installed SDK against the fake CLI and print the argv it built "
        "(marking the flags the options added), the initialize request and the environment "
        "variables it set. Options are ClaudeAgentOptions fields by their Python names, as JSON.",
    )
    cap.add_argument(
        "--options", default="{}", metavar="JSON", help="ClaudeAgentOptions fields, e.g. '{\"tools\": []}'"
    )
    cap.add_argument(
        "--agents",
        metavar="JSON",
        help='agent definitions by name, e.g. \'{"r": {"description": "d", "prompt": "p"}}\'',
    )
    cap.add_argument("--prompt", default="hi", metavar="TEXT", help="the prompt to send (default: hi)")
    cap.add_argument(
        "--json", action="store_true", help="print one JSON object (keys: argv, added, initialize, env, ...)"
    )
    cap.set_defaults(func=cmd_capture)

    rj = sub.add_parser(
        "rejudge",
        help="judge the stored observations of reports again, without running anything",
        description="For every <sdk-version>.json report in DIR, hand each behaviour's stored observation "
        "to its decision as declared now and rewrite the verdict, note and sub-checks (and the .md page). "
        "For when a decision changed but the probe did not: no SDK or CLI runs. Entries with no observation "
        "(errors, requirements unmet, live behaviours not run) and ids no longer declared are left as they are. "
        "Exit 0 done, 1 a decision broke on a stored observation, 2 bad input.",
    )
    rj.add_argument("dir", nargs="?", default=Path("reports"), type=Path, metavar="DIR", help="default: reports")
    rj.set_defaults(func=cmd_rejudge)

    report_commands.register(sub, _probe_for_gate)
    from probes import bisect_command  # its own module: the `bisect` subcommand

    bisect_command.register(sub)
    from probes import history_command  # its own module: the `history` subcommand

    history_command.register(sub)
    from probes import releases_command  # its own module: the `releases` subcommand

    releases_command.register(sub)
    return parser


# --- run ------------------------------------------------------------------------


def select(
    only: list[str] | None = None,
    tiers: list[str] | None = None,
    areas: list[str] | None = None,
    ids: list[str] | None = None,
    requires: list[str] | None = None,
) -> list[Behaviour]:
    """The behaviours matching every filter given; BadInput for an unknown id or area."""
    behaviours = catalogue.load()
    known = {b.id for b in behaviours}
    unknown = [i for i in only or [] if i not in known]
    if unknown:
        raise BadInput(f"no behaviour with id {', '.join(unknown)} (see `sdkprobe list`)")
    names = [a.name for a in AREAS]
    bad_areas = [a for a in areas or [] if a not in names]
    if bad_areas:
        raise BadInput(f"no area {', '.join(bad_areas)}; areas are {', '.join(names)}")
    return [
        b
        for b in behaviours
        if (not only or b.id in only)
        and (not tiers or b.tier in tiers)
        and (not areas or b.area in areas)
        and (not ids or any(fnmatch.fnmatchcase(b.id, p) for p in ids))
        and (not requires or any(str(r).startswith(w) for r in b.requires for w in requires))
    ]


def probe_installed(
    behaviours: list[Behaviour], settings: RunSettings, jobs: int, info: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Run behaviours on the installed SDK with progress on stderr; the report, not yet written.

    `run` and the gate's fresh candidate both come through here. `info` is `run_info(settings)`
    when the caller has it already.
    """
    from probes import report
    from probes.runner import run_all, run_info

    info = info or run_info(settings)
    print(
        f"claude-agent-sdk {info['sdk_version']}, CLI {info['cli_version']} ({info['cli']}): "
        f"{len(behaviours)} behaviours, {jobs} at a time",
        file=sys.stderr,
    )

    def progress(r: Result, done: int, total: int) -> None:
        print(f"[{done}/{total}] {r.verdict:<14} {r.id} ({r.seconds:.1f} s)", file=sys.stderr, flush=True)

    results = run_all(behaviours, settings, jobs=jobs, progress=progress)
    return report.build([r.to_dict() for r in results], info)


def _probe_for_gate(jobs: int, cli_version: str | None = None) -> dict[str, Any]:
    """The gate's fresh candidate: every behaviour on the installed SDK and its bundled CLI
    (or CLI release `cli_version`, installed when missing)."""
    return probe_installed(catalogue.load(), RunSettings(cli_path=_release_cli(cli_version)), jobs)


def _release_cli(version: str | None) -> str | None:
    """The executable of CLI release `version` (installed into the cache when missing), or None."""
    from probes.cli_releases import CliReleaseError, install_cli

    if version is None:
        return None
    try:
        return str(install_cli(version))
    except CliReleaseError as exc:
        raise BadInput(str(exc)) from None


def cmd_run(args: argparse.Namespace) -> int:
    from probes import report
    from probes.report.store import check_destination, file_stem, merge
    from probes.runner import run_info

    if args.jobs < 1:
        raise BadInput("-j must be at least 1")
    if args.cli is not None and not (os.path.isfile(args.cli) and os.access(args.cli, os.X_OK)):
        raise BadInput(f"--cli {args.cli}: not an executable file")
    if args.out.exists() and not args.out.is_dir():
        raise BadInput(f"--out {args.out}: not a directory")
    if args.sdk_version is not None:
        return _run_in_release(args)
    live = args.live and bool(os.environ.get("ANTHROPIC_API_KEY"))
    if args.live and not live:
        print("sdkprobe: --live needs ANTHROPIC_API_KEY; live behaviours are reported needs-live", file=sys.stderr)
    behaviours = select(args.only, args.tier)
    if not behaviours:
        raise BadInput("no behaviour matches the selection")
    cli_path = os.path.abspath(args.cli) if args.cli else _release_cli(args.cli_version)
    settings = RunSettings(cli_path=cli_path, live=live)
    info = run_info(settings)
    # Everything that would make the run's end fail is found before its first probe.
    check_destination(args.out, file_stem(info))
    existing = None if args.replace else _existing_report(args.out / f"{file_stem(info)}.json", info, args.merge)
    if existing is not None and not args.merge:
        _refuse_to_shrink(existing, behaviours, args.out / f"{file_stem(info)}.json")
    data = probe_installed(behaviours, settings, args.jobs, info)
    print(report.render_table(data["behaviours"]))
    written = merge(existing, data) if args.merge and existing is not None else data
    json_path, md_path = report.write(written, args.out)
    print(f"wrote {json_path} and {md_path}", file=sys.stderr)
    return 1 if any(b["verdict"] == ERROR for b in data["behaviours"]) else 0


def _existing_report(path: Path, info: dict[str, Any], merging: bool) -> dict[str, Any] | None:
    """The report a run would write over (None when there is none); with --merge it must be of
    this run's conditions."""
    from probes.report.store import check_mergeable, load

    if not path.exists():
        return None
    try:
        existing = load(path)
    except ReportError as exc:
        raise BadInput(f"{exc} (--replace writes over it)") from None
    if merging:
        check_mergeable(existing, info)
    return existing


def _refuse_to_shrink(existing: dict[str, Any], behaviours: list[Behaviour], path: Path) -> None:
    """BadInput when writing only `behaviours` would drop entries of the report at `path`
    (a run of the whole catalogue replaces it: entries of behaviours no longer declared go)."""
    selected = {b.id for b in behaviours}
    if selected >= {b.id for b in catalogue.load()}:
        return
    dropped = sorted(b["id"] for b in existing["behaviours"] if b["id"] not in selected)
    if dropped:
        more = f" and {len(dropped) - 1} more" if len(dropped) > 1 else ""
        raise BadInput(
            f"{path} holds {len(dropped)} behaviours this run does not select ({dropped[0]}{more}): "
            "--merge puts these results into it, --replace writes a report of only these"
        )


def _run_in_release(args: argparse.Namespace) -> int:
    """`run --sdk-version V`: the same run, by V's own `sdkprobe` in its cached environment
    (two SDK versions cannot share one interpreter); its exit status is ours."""
    from probes.envcache import EnvCache, InstallFailed
    from probes.releases import IndexUnreachable, releases

    try:
        known = {r.version: r for r in releases()}
    except IndexUnreachable as exc:
        raise BadInput(str(exc)) from None
    if args.sdk_version not in known:
        raise BadInput(f"--sdk-version {args.sdk_version}: no such release of claude-agent-sdk on the index")
    try:
        env = EnvCache().ensure(args.sdk_version, lambda line: print(f"sdkprobe: {line}", file=sys.stderr, flush=True))
    except InstallFailed as exc:
        raise BadInput(f"--sdk-version {args.sdk_version}: {exc}") from None
    command = [str(env.sdkprobe), "run", "--out", str(args.out.resolve()), "-j", str(args.jobs)]
    command += ["--only", *args.only] if args.only else []
    command += ["--tier", *args.tier] if args.tier else []
    command += ["--merge"] if args.merge else []
    command += ["--replace"] if args.replace else []
    command += ["--cli", os.path.abspath(args.cli)] if args.cli else []
    command += ["--cli-version", args.cli_version] if args.cli_version else []
    command += ["--live"] if args.live else []
    variables = {k: v for k, v in os.environ.items() if k != "PYTHONHOME"}
    variables.update(VIRTUAL_ENV=str(env.path), PATH=f"{env.bin}{os.pathsep}{variables.get('PATH', '')}")
    # Its own session: a Ctrl-C reaches this process only, which ends that run and its probes.
    return scope.run(command, env=variables, capture=False).returncode


# --- list -----------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    from tabulate import tabulate

    from probes.runner import RunSettings, unmet
    from probes.sources import cite

    behaviours = select(tiers=args.tier, areas=args.area, ids=args.id, requires=args.requires)
    if args.json:
        rows = [
            {
                "id": b.id,
                "area": b.area,
                "tier": b.tier,
                "claim": b.claim,
                "source": cite(*b.source),
                "checks": list(b.checks),
                "controls": list(b.controls),
                "requires": [str(r) for r in b.requires],
                "unmet_on_installed": unmet(b, RunSettings()),
                "sdk_ref": b.sdk_ref,
            }
            for b in behaviours
        ]
        print(json.dumps(rows, indent=2))
        return 0
    if not behaviours:
        print("no behaviour matches these filters", file=sys.stderr)
        return 0
    table = [
        [b.id, b.tier, len(b.checks), " ".join(str(r) for r in b.requires) or "-", f"{b.source[0]} § {b.source[1]}"]
        for b in behaviours
    ]
    print(tabulate(table, headers=["id", "tier", "sub-checks", "requires", "source"], disable_numparse=True))
    return 0


def cmd_rejudge(args: argparse.Namespace) -> int:
    from probes.report.store import check_destination, file_stem, load, write
    from probes.runner import judge

    paths = sorted(args.dir.glob("*.json")) if args.dir.is_dir() else []
    if not paths:
        raise BadInput(f"{args.dir}: no <sdk-version>.json reports")
    loaded = [(path, load(path)) for path in paths]
    for path, report in loaded:  # every report is read and can be rewritten, or none is touched
        check_destination(path.parent, file_stem(report))
    declared = {b.id: b for b in catalogue.load()}
    broke = 0
    for path, report in loaded:
        moved = 0
        for entry in report["behaviours"]:
            b = declared.get(entry["id"])
            if b is None or entry["observed"] is None:
                continue
            v = judge(b, entry["observed"])
            if v.verdict == ERROR:
                broke += 1
                print(f"{path.name}: {entry['id']}: {v.note}", file=sys.stderr)
                continue
            new = {"verdict": v.verdict, "note": v.note, "checks": dict(v.checks)}
            if any(entry[k] != new[k] for k in new):
                entry.update(new)
                moved += 1
        write(report, path.parent)
        print(f"{path.name}: {moved} of {len(report['behaviours'])} entries judged differently now")
    return 1 if broke else 0


# --- capture --------------------------------------------------------------------


def cmd_capture(args: argparse.Namespace) -> int:
    from probes.harness import sdk
    from probes.harness.isolation import Space
    from probes.harness.wire import capture

    options = _json_object(args.options, "--options")
    if args.agents is not None:
        options["agents"] = _json_object(args.agents, "--agents")
    try:
        check_json_options(options)
    except ValueError as exc:
        raise BadInput(str(exc)) from None

    async def both() -> tuple[Any, Any]:
        with Space.create() as space:
            base = await capture(space.path("base"), prompt=args.prompt, cwd=str(space.cwd))
            run = await capture(space.path("run"), prompt=args.prompt, **{"cwd": str(space.cwd), **options})
            return base, run

    try:
        base, run = asyncio.run(both())
    except sdk.OptionMissing as exc:
        raise BadInput(str(exc)) from None
    added, removed = _flag_diff(base.argv, run.argv)
    out = {
        "sdk_version": sdk.sdk_version(),
        "argv": run.argv,
        "added": added,
        "removed": removed,
        "initialize": run.initialize,
        "env": {k: v for k, v in sorted(run.env_added.items()) if k != "PWD"},
        "env_removed": run.env_removed,
        "user_messages": run.user_messages,
        "warnings": run.warnings,
        "log": run.log,
        "error": run.error,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"claude-agent-sdk {out['sdk_version']} sends:")
    print("argv (+ added by the options):")
    for item in _flags(run.argv):
        mark = "+" if item in added else " "
        print(f"  {mark} {' '.join(shlex.quote(w) for w in item)}")
    for item in removed:
        print(f"  - {' '.join(shlex.quote(w) for w in item)}   (sent without the options, not with them)")
    print("initialize request:")
    print("  " + json.dumps(out["initialize"]))
    print("environment set by the SDK:")
    for k, v in out["env"].items():
        print(f"  {k}={v}")
    for name in out["env_removed"]:
        print(f"  (removed {name})")
    for w in out["warnings"] + out["log"]:
        print(f"warning: {w}")
    if out["error"]:
        print(f"the SDK raised: {out['error']}")
    return 0


def _json_object(text: str, flag: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise BadInput(f"{flag} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise BadInput(f"{flag} must be a JSON object, not {type(value).__name__}")
    return value


def _flags(argv: list[str]) -> list[tuple[str, ...]]:
    """argv grouped into flags with their values: ('--tools', 'Bash,Read')."""
    items: list[list[str]] = []
    for word in argv:
        if word.startswith("--") or not items:
            items.append([word])
        else:
            items[-1].append(word)
    return [tuple(i) for i in items]


def _flag_diff(base: list[str], run: list[str]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    b, r = _flags(base), _flags(run)
    return [i for i in r if i not in b], [i for i in b if i not in r]


if __name__ == "__main__":
    sys.exit(main())
