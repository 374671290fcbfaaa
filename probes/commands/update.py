"""`sdkprobe update`: record every release newer than the ones sdkprobe reports on, and bring
everything that is read from the reports up to date with them.

For each SDK (releases/tracked.py) the releases on its index newer than the newest it lists
(releases/versions.py) are recorded one by one, each by `sdkprobe run` in a process of its own,
into the SDK's reports folder. Then, for the SDK: the publish dates (notes/published.json), the
history (the exact release of each change), a release note per recorded release
(notes/<version>.md), its place in the version list; last, every matrix and the
SDK-differences page. A release is listed only once all of that is written, so an interrupted
update is taken up by the next: a recorded report is kept, not run again.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe import scope
from sdkprobe.commands import sdk_flag
from sdkprobe.errors import UsageError
from sdkprobe.releases.tracked import REPORTS, TRACKED, Available, Tracked
from sdkprobe.releases.versions import add_listed, version_key

HELP = """\
Record each release of the Python SDK (claude-agent-sdk on PyPI) and of the TypeScript SDK
(@anthropic-ai/claude-agent-sdk on npm) that is newer than the newest one sdkprobe lists
(probes/releases/versions.py): the whole catalogue is run on it (`sdkprobe run --sdk python@V`
or `--sdk ts@V`) into reports/ or reports/ts/. Then, for each SDK with a new report: its publish
date goes into DIR/notes/published.json, and the history places each change between the
recorded releases (`sdkprobe history`). Then every matrix, the SDK-differences page and the
release notes are rendered again (`sdkprobe report` of reports/, reports/ts/, reports/cli-axis/):
DIR/notes/<version>.md says what moved against the release recorded before it (verdicts,
sub-checks, the exact release of each change, what was seen differently under the same
verdict, public items added and removed). Last, each new release is added to the version list.
The new releases' notes are printed, and with --note FILE written to FILE as one text.

Yanked releases, and Python releases with no wheel bundling the CLI for this machine, are named
and not recorded. A release that cannot be installed is one line naming it; the others are still
recorded. When nothing is new, it says so and writes nothing. Interrupted, every report it
finished stays, and the next `sdkprobe update` goes on from there; a second update of the same
checkout while one runs is refused. Run it in a checkout
(pip install -e .): it edits probes/releases/versions.py and writes into reports/."""

EPILOG = """\
exit status: 0 every new release recorded (or nothing new), 1 some release could not be
recorded (named; the others were), 2 bad input or an index that cannot be read (found
before recording anything), 130 interrupted (finished reports are kept)."""


def register(sub: Any) -> None:
    up = sub.add_parser(
        "update",
        help="record every release newer than the listed ones, then the history, notes and matrices",
        description=HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    up.add_argument(
        "--sdk",
        type=_which,
        default=ALL,
        metavar="SDK",
        help="which SDK's releases: python (the Python SDK's), ts (the TypeScript SDK's) or all (both, the default)",
    )
    up.add_argument("--dry-run", action="store_true", help="only say what would be recorded; write nothing")
    up.add_argument(
        "--newest",
        action="store_true",
        help="record only the newest new release of each SDK (the history still places each change "
        "among the releases between, by probing them without recording them)",
    )
    up.add_argument("--note", type=Path, metavar="FILE", help="also write the release notes, as one text, to FILE")
    up.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="probes run in parallel within a release's run, and changes bisected at once (default: the cores)",
    )
    up.set_defaults(func=cmd_update)


ALL = "all"


def _which(text: str) -> str:
    """--sdk: python, ts (as sdk_flag reads them) or all."""
    return ALL if text == ALL else sdk_flag.alone(text, "python, ts or all").kind


@dataclass
class Plan:
    """What one SDK's update does."""

    tracked: Tracked
    newest_listed: str
    to_record: list[Available]  # oldest first
    skipped: list[Available]  # newer, named, not recorded
    on_index: dict[str, str | None]  # every release on the index -> when it was published
    recorded: list[str] = field(default_factory=list)  # what has a report once recording ends
    failed: list[str] = field(default_factory=list)  # one line each


def cmd_update(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise UsageError("-j must be at least 1")
    chosen = list(TRACKED.values()) if args.sdk == ALL else [TRACKED[args.sdk]]
    plans = [_plan(t, args.newest) for t in chosen]  # every index is read before anything is recorded
    for p in plans:
        for line in _plan_lines(p):
            _say(line)
    if args.dry_run:
        return 0
    work = [p for p in plans if p.to_record]
    if not work:
        _say("nothing new: every release on the indexes is recorded; nothing written")
        return 0
    _check_can_write(work, args.note)
    with _alone():
        return _update(work, args)


def _alone() -> contextlib.AbstractContextManager[None]:
    """One update at a time per checkout: a second would record the same releases into the same
    folders. The lock is in the cache, keyed by the checkout, so the work tree stays clean."""
    import hashlib

    from sdkprobe.releases import cache

    key = hashlib.sha256(str(REPORTS.resolve()).encode()).hexdigest()[:12]
    busy = f"another sdkprobe update is running on {REPORTS.resolve()}; wait for it to finish"
    return cache.held_alone(cache.base() / ".locks" / f"update-{key}", busy)


def _update(work: list[Plan], args: argparse.Namespace) -> int:
    for p in work:
        _record_all(p, args.jobs)
    for p in work:
        _settle(p, args.jobs)
    notes: list[str] = []
    if any(p.recorded for p in work):
        _render_matrices()  # the matrices, and a release note per release
        for p in work:
            notes += _list(p)
    whole = "\n".join(notes)
    if notes:
        sys.stdout.write(whole)
    if args.note is not None and notes:
        from sdkprobe.report.files import write_atomic

        write_atomic(args.note, whole.encode("utf-8"))
        _say(f"wrote {args.note}")
    failed = [line for p in work for line in p.failed]
    for line in failed:
        _say(f"not recorded: {line}")
    return 1 if failed else 0


def _plan(t: Tracked, newest_only: bool) -> Plan:
    listed = sorted(t.listed, key=version_key)
    if not listed:
        raise UsageError(f"probes/releases/versions.py lists no {t.sdk.name} release to go on from")
    newest = listed[-1]
    available = t.available()
    newer = [a for a in available if version_key(a.version) > version_key(newest)]
    wanted = [a for a in newer if not a.skip]
    if newest_only and wanted:
        already = [a for a in wanted[:-1] if (t.reports / f"{a.version}.json").is_file()]
        wanted = [*already, wanted[-1]]  # a report an interrupted update finished still counts
    return Plan(t, newest, wanted, [a for a in newer if a.skip], {a.version: a.published for a in available})


def _plan_lines(p: Plan) -> list[str]:
    t = p.tracked
    head = f"{t.sdk.package} on {t.sdk.registry}: newest listed {p.newest_listed}"
    lines = []
    if not p.to_record:
        lines.append(f"{head}; nothing newer to record")
    else:
        names = ", ".join(
            a.version + (" (report kept from an earlier run)" if (t.reports / f"{a.version}.json").is_file() else "")
            for a in p.to_record
        )
        lines.append(f"{head}; to record into {t.reports}/: {names}")
    lines += [f"  {a.version}: {a.skip}, not recorded" for a in p.skipped]
    return lines


def _check_can_write(work: Sequence[Plan], note: Path | None) -> None:
    """What would keep the update from finishing, found before the first release is recorded."""
    from sdkprobe.releases import versions
    from sdkprobe.report.files import check_writable

    for p in work:
        check_writable(p.tracked.reports / "notes" / f"{p.to_record[-1].version}.md")
        if p.tracked.key == sdk_flag.PYTHON:
            from sdkprobe.releases.envcache import EnvCache

            EnvCache().check_source()  # each release's environment installs this sdkprobe
    if not os.access(versions.__file__, os.W_OK):
        raise UsageError(f"{versions.__file__} cannot be written: run sdkprobe update in a checkout (pip install -e .)")
    if note is not None:
        check_writable(note)


def _record_all(p: Plan, jobs: int) -> None:
    """Record each release of the plan that has no report yet; a failure is one line, the rest go on."""
    t = p.tracked
    for n, a in enumerate(p.to_record, start=1):
        label = f"[{t.key} {n}/{len(p.to_record)}] {t.sdk.package} {a.version}"
        if (t.reports / f"{a.version}.json").is_file():
            _say(f"{label}: recorded by an earlier run, kept")
            p.recorded.append(a.version)
            continue
        _say(f"{label}: installing")
        try:
            t.install(a.version, lambda line: _say(f"  {line}"))
        except UsageError as exc:
            p.failed.append(f"{t.sdk.package} {a.version}: cannot be installed: {exc}")
            _say(f"{label}: cannot be installed: {exc}")
            continue
        _say(f"{label}: running the catalogue")
        code = record(t, a.version, jobs)
        if (t.reports / f"{a.version}.json").is_file() and code in (0, 1):
            p.recorded.append(a.version)
            _say(f"{label}: recorded" + (" (a probe errored: see its report)" if code == 1 else ""))
        else:
            p.failed.append(f"{t.sdk.package} {a.version}: its run exited {code} without a report")


def record(t: Tracked, version: str, jobs: int) -> int:
    """Run the catalogue on one release, in a process of its own; its exit status."""
    done = scope.run(
        [sys.executable, "-m", "sdkprobe", *t.run_args(version, jobs)],
        env=dict(os.environ),
        capture=False,
        stdout_to_stderr=True,
    )  # its table goes with the progress: stdout is for the release notes
    if done.returncode == 130:
        raise KeyboardInterrupt
    return done.returncode


def _settle(p: Plan, jobs: int) -> None:
    """After recording: the publish dates, and the history placing each change."""
    from sdkprobe.report import published

    t = p.tracked
    if not p.recorded:
        return
    published.save(t.reports, published.dated(t.reports, p.on_index))
    for v in p.recorded:
        if v not in t.listed:
            t.listed.append(v)  # the history reads the list (the file is edited once all is written)
    t.listed.sort(key=version_key)
    _say(f"{t.sdk.package}: placing each change in {t.reports}/history/history.json")
    code = invoke(["history", "--sdk", t.key, "--reports", str(t.reports), "-j", str(jobs)])
    if code == 1:
        _say(f"{t.sdk.package}: some change was not seen again between its neighbours (see above); the rest is placed")


def _list(p: Plan) -> list[str]:
    """The last step: each recorded release goes into the version list; its note's text."""
    from sdkprobe.report import store
    from sdkprobe.report.published import NOTES

    t = p.tracked
    notes = []
    for v in sorted(p.recorded, key=version_key):
        cli = store.load(t.reports / f"{v}.json").get("cli_version")
        add_listed(t.list_name, v, f"recorded by sdkprobe update (CLI {cli or '?'})")
        notes.append((t.reports / NOTES / f"{v}.md").read_text(encoding="utf-8"))
    return notes


def _render_matrices() -> None:
    """Every matrix (the Python SDK's renders the SDK-differences page beside it) from the reports."""
    folders = dict.fromkeys([REPORTS, *(t.reports for t in TRACKED.values()), REPORTS / "cli-axis"])
    for folder in folders:
        if any(folder.glob("*.json")):
            invoke(["report", str(folder)])


def invoke(argv: list[str]) -> int:
    """Another sdkprobe command, in this process (its UsageError is this command's); what it
    prints goes to stderr, beside update's progress, so stdout holds the release notes alone."""
    from sdkprobe.commands import build_parser

    args = build_parser().parse_args(argv)
    args.argv = argv
    with contextlib.redirect_stdout(sys.stderr):
        code: int = args.func(args)
    return code


def _say(line: str) -> None:
    print(f"sdkprobe update: {line}", file=sys.stderr, flush=True)
