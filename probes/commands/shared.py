"""What several subcommands share: choosing behaviours, and probing the
installed SDK with progress (as `run` and the gate's fresh candidate do)."""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
from collections.abc import Iterable
from typing import Any

from sdkprobe import catalogue
from sdkprobe.areas import all_areas
from sdkprobe.behaviour import Behaviour
from sdkprobe.commands.sdk_flag import SdkChoice
from sdkprobe.errors import UsageError
from sdkprobe.result import Result
from sdkprobe.runner import RunSettings


def select(
    only: list[str] | None = None,
    tiers: list[str] | None = None,
    areas: list[str] | None = None,
    ids: list[str] | None = None,
    requires: list[str] | None = None,
) -> list[Behaviour]:
    """The behaviours matching every filter given; UsageError for an unknown id or area.
    An old id (a behaviour's renamed_from) in `only` or `ids` selects the behaviour, said on stderr."""
    behaviours = catalogue.load()
    known = {b.id for b in behaviours}
    only = [catalogue.resolve(i) for i in only or []]
    ids = [catalogue.resolve(p) for p in ids or []]
    unknown = [i for i in only if i not in known]
    if unknown:
        raise UsageError(f"no behaviour with id {', '.join(unknown)} (see `sdkprobe list`)")
    names = [a.name for a in all_areas()]
    bad_areas = [a for a in areas or [] if a not in names]
    if bad_areas:
        raise UsageError(f"no area {', '.join(bad_areas)}; areas are {', '.join(names)}")
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
    from sdkprobe import report
    from sdkprobe.runner import run_all, run_info

    info = info or run_info(settings)
    print(
        f"{sdk_name(info)} {info['sdk_version']}, CLI {info['cli_version']} ({info['cli']}): "
        f"{len(behaviours)} behaviours, {jobs} at a time",
        file=sys.stderr,
    )

    def progress(r: Result, done: int, total: int) -> None:
        print(f"[{done}/{total}] {r.verdict:<14} {r.id} ({r.seconds:.1f} s)", file=sys.stderr, flush=True)

    results = run_all(behaviours, settings, jobs=jobs, progress=progress)
    return report.build([r.to_dict() for r in results], info)


def release_cli(version: str | None) -> str | None:
    """The executable of CLI release `version` (installed into the cache when missing), or None."""
    from sdkprobe.releases.claude_code import install_cli  # its CliReleaseError is a UsageError

    return None if version is None else str(install_cli(version))


def catalogue_options() -> argparse.ArgumentParser:
    """--catalogue and --no-builtin, for every subcommand that reads behaviours (a parent parser)."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--catalogue",
        action="append",
        default=[],
        metavar="MODULE",
        help="also load the behaviours declared in MODULE (importable from the working directory; may repeat); "
        "modules registered under the entry-point group sdkprobe.catalogue are loaded too",
    )
    options.add_argument(
        "--no-builtin", action="store_true", help="leave sdkprobe's own behaviours out: only the catalogues given"
    )
    return options


def choose_catalogue(args: argparse.Namespace) -> None:
    """Apply a subcommand's --catalogue/--no-builtin (kept in the environment for the processes it starts)."""
    if getattr(args, "catalogue", None) or getattr(args, "no_builtin", False):
        catalogue.configure(args.catalogue, builtin=not args.no_builtin)


def choose_sdk(choice: SdkChoice | None) -> bool:
    """Put the SDK named by --sdk under test for this command and the processes it starts; True
    for TypeScript. A TypeScript release, and the compiler its type behaviours use, are installed
    into the cache first (a failure is one line, exit 2). A Python release (python@V) is not
    chosen here: the command runs in its environment instead (sdk_flag.in_release)."""
    from sdkprobe.harness import under_test

    if choice is None:
        return under_test.is_typescript()
    if not choice.typescript or choice.version is None:  # sdk_flag.release refuses ts without a release
        os.environ.pop(under_test.VARIABLE, None)
        return False
    install_typescript(choice.version)
    os.environ[under_test.VARIABLE] = f"ts@{choice.version}"
    return True


def install_typescript(version: str) -> Any:
    """TypeScript release `version` (a ts_sdk.TsRelease) and the pinned compiler, installed into
    the cache when they are not there, progress on stderr; a failure is one line, exit 2."""
    from sdkprobe.releases import ts_compiler, ts_sdk

    def say(line: str) -> None:
        print(f"sdkprobe: {line}", file=sys.stderr, flush=True)

    release = ts_sdk.install(version, say)
    ts_compiler.install(say)
    return release


def sdk_name(info: dict[str, Any]) -> str:
    """The package a report's header is about, as its users name it."""
    return "@anthropic-ai/claude-agent-sdk" if info.get("sdk") == "typescript" else "claude-agent-sdk"


def pinning_of(sdk: str, items: Iterable[str]) -> dict[str, dict[str, list[str]]]:
    """Surface item -> {id: the sub-checks pinning it}, for a surface of `sdk` (a report's `sdk`
    key) holding `items`: a TypeScript item is pinned by what pins its Python counterpart too."""
    pinning = catalogue.pinning()
    if sdk != "typescript":
        return pinning
    from sdkprobe.harness.typescript.coverage import pinned

    return pinned(pinning, items)


def coverage_of(sdk: str, items: Iterable[str]) -> dict[str, list[str]]:
    """Surface item -> the ids of the behaviours covering it (those pinning it), as pinning_of."""
    return {item: list(by) for item, by in pinning_of(sdk, items).items()}
