"""The matrix as data: every report in a folder as columns, every behaviour as a row.

Markdown and HTML both render this one grid, so they can never disagree on what a
cell holds, how footnotes are numbered, or how a row's change across versions is worded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe.areas import order
from sdkprobe.releases.versions import version_key
from sdkprobe.report.cells import FOOTNOTED
from sdkprobe.report.comparison import surface_moved
from sdkprobe.report.errors import ReportError
from sdkprobe.report.history import EXACT_NOTE, EXACT_NOTE_CLI, HISTORY_PATH, Entry, History
from sdkprobe.report.history import load as load_history
from sdkprobe.report.sdks import PYTHON, SDKS, Sdk, one_sdk
from sdkprobe.report.store import file_stem, load, renamed


@dataclass(frozen=True)
class Column:
    sdk_version: str
    cli_version: str | None
    cli: str

    @property
    def cli_label(self) -> str:
        label = f"CLI {self.cli_version or '?'}"
        return label if self.cli == "bundled" else f"{label}, custom"

    @property
    def label(self) -> str:
        """How notes name this column: the SDK version, and the CLI when it is not the bundled one."""
        return self.sdk_version if self.cli == "bundled" else f"{self.sdk_version} ({self.cli_label})"


@dataclass(frozen=True)
class SubCheck:
    """One sub-check of a row: its verdict on the newest version that has it, and where it
    moved across the columns, in words ("" when it never did)."""

    name: str
    verdict: str
    change: str


@dataclass
class Row:
    id: str
    area: str
    claim: str
    source: dict[str, Any]  # the report's source object: key, title, section, url
    cells: list[dict[str, Any] | None]  # aligned with Grid.columns; None = not in that report
    change: str = ""  # where the verdict changed, in words; "" when it never does
    exact: bool = False  # the words name releases the history file found between two columns
    # Where sub-checks changed other than as the verdict did, from the history file, in words.
    check_change: str = ""
    summary: str = ""  # the newest report's one-line summary of the claim, "" when it has none
    security: str = ""  # what a change of the contract exposes, when the newest report marks it
    checks: list[SubCheck] = field(default_factory=list)  # by name

    @property
    def newest(self) -> dict[str, Any] | None:
        """The cell of the newest column that has this behaviour."""
        return next((c for c in reversed(self.cells) if c), None)

    @property
    def verdicts(self) -> list[str | None]:
        return [c["verdict"] if c else None for c in self.cells]

    def values(self, check: str | None) -> list[str | None]:
        """Each column's verdict (check None) or that sub-check's verdict, None where it has none."""
        if check is None:
            return self.verdicts
        return [(c.get("checks") or {}).get(check) if c else None for c in self.cells]

    @property
    def moved(self) -> bool:
        """True when the probed versions do not all agree, or the history found the verdict or a
        sub-check moving between two of them."""
        return len({v for v in self.verdicts if v is not None}) > 1 or bool(self.change or self.check_change)

    @property
    def words(self) -> str:
        """What the matrix says changed: the verdict's words, then the sub-checks'."""
        return "; ".join(w for w in (self.change, self.check_change) if w)


@dataclass(frozen=True)
class SurfaceStep:
    """One version's public surface: how many items, how many the catalogue covers (None when
    no catalogue was given), and what it adds and removes against `since`, the next older
    version that records one (None for the oldest)."""

    label: str
    items: int
    covered: int | None
    since: str | None
    added: tuple[str, ...]
    removed: tuple[str, ...]

    @property
    def covered_text(self) -> str:
        """'200 (95.2%)', or "" when no catalogue was given."""
        if self.covered is None:
            return ""
        return f"{self.covered} ({round(100 * self.covered / self.items, 1) if self.items else 0.0}%)"


@dataclass
class Note:
    number: int
    id: str
    versions: list[str]
    verdict: str
    text: str


@dataclass
class Grid:
    columns: list[Column]
    rows: list[Row]  # ordered by area, then id
    notes: list[Note] = field(default_factory=list)
    refs: dict[tuple[str, int], int] = field(default_factory=dict)  # (id, column) -> note number
    project: str = ".."  # the project's root as a link from the matrix's folder (reports/ by default)
    history: History | None = None  # what the rows' words were bounded by (a part of the grid is worded by it too)
    renames: Mapping[str, str] = field(default_factory=dict)  # old id -> current id, as the rows were read
    # each column's public surface (`kind:name` items) when its report records one
    surfaces: list[tuple[str, ...] | None] = field(default_factory=list)
    coverage: Mapping[str, Sequence[str]] | None = None  # item -> covering ids, the catalogue's, when given
    sdk: Sdk = SDKS[PYTHON]  # the SDK every column is a release of

    def areas(self) -> list[tuple[str, list[Row]]]:
        """Rows by area, in the order probes/areas.py declares (rows are already sorted so)."""
        out: dict[str, list[Row]] = {}
        for r in self.rows:
            out.setdefault(r.area, []).append(r)
        return list(out.items())

    def changed(self) -> list[Row]:
        """The rows whose verdict is not the same on every version that has them."""
        return [r for r in self.rows if r.moved]

    def newest_first(self) -> list[int]:
        """Column indices in the order both pages show them: newest first, so the versions a
        reader upgrades to are the ones in view on any screen."""
        return list(reversed(range(len(self.columns))))

    def surface_steps(self) -> list[SurfaceStep]:
        """Each column that records its surface, newest first, with what it adds and removes
        against the next older column that records one (nothing for the oldest)."""
        recorded = [(i, s) for i, s in enumerate(self.surfaces) if s is not None]
        steps = []
        for k, (i, items) in enumerate(recorded):
            added, removed = surface_moved(recorded[k - 1][1], items) if k else ((), ())
            covered = None if self.coverage is None else sum(1 for item in items if self.coverage.get(item))
            since = self.columns[recorded[k - 1][0]].label if k else None
            steps.append(SurfaceStep(self.columns[i].label, len(items), covered, since, added, removed))
        return list(reversed(steps))

    def column_report(self, i: int) -> dict[str, Any]:
        """Column i as a report: its run, its entries and its public surface when recorded."""
        c, surface = self.columns[i], self.surfaces[i] if i < len(self.surfaces) else None
        return {
            "sdk": self.sdk.key,
            "sdk_version": c.sdk_version,
            "cli_version": c.cli_version,
            "cli": c.cli,
            "behaviours": [r.cells[i] for r in self.rows if r.cells[i] is not None],
            **({"surface": list(surface)} if surface is not None else {}),
        }

    def covering(self, item: str) -> Sequence[str]:
        """The ids covering an item, per the catalogue given ([] when none or none given)."""
        return (self.coverage or {}).get(item, [])

    @property
    def exact_note(self) -> str:
        """Said above the matrix when a row's words name releases from the history file."""
        if cli_axis_sdk(self.columns) is not None:
            return EXACT_NOTE_CLI
        return EXACT_NOTE.replace("on PyPI", f"on {self.sdk.registry}")  # where this SDK's releases are listed

    def notes_of(self, bid: str) -> list[Note]:
        """The footnotes of one row, in number order."""
        return [n for n in self.notes if n.id == bid]


# (label before, label after) of two neighbouring columns -> the release the first verdict is last
# seen on, the release the second is first seen on, and the verdicts between them when it moved
# more than once there: (verdict, first release, last release). The two columns may agree: then
# the verdict moved and moved back between them.
Exact = Mapping[tuple[str, str], tuple[str, str, tuple[tuple[str, str, str], ...]]]


def describe_change(verdicts: Sequence[str | None], labels: Sequence[str], exact: Exact | None = None) -> str:
    """Where a row's verdict changes, in words, skipping versions that lack the behaviour.

    Consecutive probed versions with one verdict form a run. One run says nothing ("").
    Two runs read "holds up to 0.1.33, differs from 0.1.58 on"; with a change back every
    run but the last is a range: "holds on 0.1.19–0.1.33, differs on 0.1.58, holds from
    0.1.81 on". "up to" and "from ... on" are open-ended, so they are said only when the
    run reaches the oldest or newest column; otherwise the run is a range ("on 0.1.58–0.2.160").
    Readers scan for the boundary versions, so each one is named rather than implied.
    Where `exact` knows the releases a change lies between, they bound the runs instead of
    the columns: "differs up to 0.2.139, holds from 0.2.140 on"; between two columns that
    agree, it splits their run where the verdict moved and moved back: "differs on
    0.1.19–0.1.39, holds on 0.1.40–0.1.47, differs from 0.1.48 on".
    """
    present = [(v, label) for v, label in zip(verdicts, labels, strict=True) if v is not None]
    if not present:
        return ""
    # Each run as (verdict, first, last), its ends at the exact releases where known, with the
    # runs the history found between two columns put in between.
    bounds = [(present[0][0], present[0][1], present[0][1])]
    for (va, la), (vb, lb) in zip(present, present[1:], strict=False):
        pair = (exact or {}).get((la, lb))
        if pair:
            bounds[-1] = (bounds[-1][0], bounds[-1][1], pair[0])
            bounds += [*pair[2], (vb, pair[1], lb)]
        elif va != vb:
            bounds.append((vb, lb, lb))
        else:
            bounds[-1] = (bounds[-1][0], bounds[-1][1], lb)
    if len(bounds) < 2:
        return ""

    def span(start: str, end: str) -> str:
        return start if start == end else f"{start}–{end}"

    from_oldest, to_newest = verdicts[0] is not None, verdicts[-1] is not None
    (first_verdict, first_start, first_end), (last_verdict, last_start, last_end) = bounds[0], bounds[-1]
    if len(bounds) == 2 and from_oldest and first_start != first_end:
        head = f"{first_verdict} up to {first_end}"
    else:
        head = f"{first_verdict} on {span(first_start, first_end)}"
    middle = [f"{v} on {span(a, b)}" for v, a, b in bounds[1:-1]]
    tail = f"{last_verdict} from {last_start} on" if to_newest else f"{last_verdict} on {span(last_start, last_end)}"
    return ", ".join([head, *middle, tail])


def cli_axis_sdk(columns: Sequence[Column]) -> str | None:
    """The SDK of a CLI axis (columns of one SDK, some of them run with another CLI than the one
    it bundles: the history names their CLI releases), None for columns of SDK releases."""
    sdks = {c.sdk_version for c in columns}
    return next(iter(sdks)) if len(sdks) == 1 and any(c.cli != "bundled" for c in columns) else None


def history_versions(columns: Sequence[Column]) -> list[str | None]:
    """Each column's version as the history names it: its CLI release on a CLI axis, else its
    SDK release (None for a column the history does not follow: a custom CLI among SDK releases)."""
    if cli_axis_sdk(columns) is not None:
        return [c.cli_version for c in columns]
    return [c.sdk_version if c.cli == "bundled" else None for c in columns]


def current_entries(
    row: Row, columns: Sequence[Column], history: History | None, check: str | None = None
) -> list[Entry]:
    """The history's entries of the verdict (or of one sub-check) that still explain this row:
    stale ones (a neighbour's value moved since the refresh) are left out, so the row falls
    back to its columns."""
    if history is None:
        return []
    value_of = {k: v for k, v in zip(history_versions(columns), row.values(check), strict=True) if k is not None}
    return [e for e in history.for_id(row.id) if e.step.check == check and e.applies(value_of)]


def exact_pairs(
    row: Row, columns: Sequence[Column], history: History | None, check: str | None = None
) -> dict[tuple[str, str], tuple[str, str, tuple[tuple[str, str, str], ...]]]:
    """The current entries' pairs, by the columns they lie between, as describe_change takes them
    (on a CLI axis each release said as "CLI 2.1.207")."""
    label = {k: c.label for k, c in zip(history_versions(columns), columns, strict=True) if k is not None}
    cli = "CLI " if cli_axis_sdk(columns) is not None else ""
    return {
        (label[e.step.before], label[e.step.after]): (
            cli + e.before.words,
            cli + e.last.words,
            tuple((v, cli + a, cli + b) for v, a, b in e.middle()),
        )
        for e in current_entries(row, columns, history, check)
    }


def check_words(row: Row, columns: Sequence[Column], history: History | None) -> str:
    """Where sub-checks changed, for those the history found changing other than as the
    verdict did between two columns (a chain of pairs not the verdict's there): "sub-check x:
    differs up to 0.1.39, holds from 0.1.40 on", sub-checks that read alike together. A
    sub-check that only ever moved with the verdict is said by the verdict's words."""
    if history is None:
        return ""
    labels = [c.label for c in columns]
    verdict_chain = {e.step.gap: _versions(e) for e in current_entries(row, columns, history)}
    by_words: dict[str, list[str]] = {}
    for check in sorted({e.step.check for e in history.for_id(row.id) if e.step.check is not None}):
        own = current_entries(row, columns, history, check)
        if all(verdict_chain.get(e.step.gap) == _versions(e) for e in own):
            continue
        words = describe_change(row.values(check), labels, exact_pairs(row, columns, history, check))
        if words:
            by_words.setdefault(words, []).append(check)
    return "; ".join(
        f"{'sub-check' if len(names) == 1 else 'sub-checks'} {', '.join(names)}: {words}"
        for words, names in by_words.items()
    )


def sub_checks(row: Row, columns: Sequence[Column], history: History | None) -> list[SubCheck]:
    """Every sub-check any column of the row has, by name: its newest verdict and where it
    moved (bounded by the history's exact releases, as the verdict's words are)."""
    labels = [c.label for c in columns]
    names = sorted({name for c in row.cells if c for name in c.get("checks") or {}})
    out = []
    for name in names:
        values = row.values(name)
        newest = next(v for v in reversed(values) if v is not None)
        out.append(SubCheck(name, newest, describe_change(values, labels, exact_pairs(row, columns, history, name))))
    return out


def _versions(e: Entry) -> tuple[tuple[str, str], ...]:
    return tuple((a.version, b.version) for a, b in e.pairs)


def from_reports(
    reports: list[dict[str, Any]], history: History | None = None, renames: Mapping[str, str] | None = None
) -> Grid:
    """Grid from loaded reports, columns oldest to newest; row text from the newest report;
    a change's words bounded by the history's exact releases where it has current ones.
    `renames` (old id -> current id, the catalogue's) puts an old report's entries, and the
    history's, in the current id's row. ReportError when the reports are of two SDKs."""
    sdk = one_sdk(reports)
    if renames:
        reports = [renamed(r, renames) for r in reports]
        history = history.renamed(renames) if history else None
    reports = sorted(reports, key=_column_order(reports))
    columns = [Column(r["sdk_version"], r["cli_version"], r["cli"]) for r in reports]
    by_version = [{b["id"]: b for b in r["behaviours"]} for r in reports]
    newest: dict[str, dict[str, Any]] = {}
    for entries in by_version:
        newest.update(entries)
    rows = [
        Row(
            b["id"],
            b["area"],
            b["claim"],
            dict(b["source"]),
            [e.get(b["id"]) for e in by_version],
            summary=str(b.get("summary") or ""),
            security=str(b.get("security") or ""),
        )
        for b in sorted(newest.values(), key=lambda b: (order(b["area"]), b["id"]))
    ]
    labels = [c.label for c in columns]
    for row in rows:
        exact = exact_pairs(row, columns, history)
        row.change = describe_change(row.verdicts, labels, exact)
        row.check_change = check_words(row, columns, history)
        row.exact = row.change != describe_change(row.verdicts, labels) or bool(row.check_change)
        row.checks = sub_checks(row, columns, history)
    surfaces = [tuple(r["surface"]) if r.get("surface") is not None else None for r in reports]
    grid = Grid(columns, rows, history=history, renames=dict(renames or {}), surfaces=surfaces, sdk=sdk)
    _number_notes(grid)
    return grid


def _column_order(reports: Sequence[Mapping[str, Any]]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """Columns by SDK release, each SDK's bundled CLI before the others by CLI release; on a CLI
    axis by CLI release alone, the bundled one where it falls among the others."""
    axis = cli_axis_sdk([Column(r["sdk_version"], r["cli_version"], r["cli"]) for r in reports]) is not None

    def key(r: Mapping[str, Any]) -> tuple[Any, ...]:
        sdk, cli = version_key(r["sdk_version"]), version_key(r["cli_version"] or "")
        return (sdk, cli, r["cli"]) if axis else (sdk, r["cli"], cli)

    return key


def _number_notes(grid: Grid) -> None:
    """One footnote per distinct (behaviour, verdict, note); versions sharing it share it.
    Numbered in reading order (rows, then columns newest first) so a row's numbers rise
    left to right; a note lists its versions oldest first, as the change words do."""
    by_key: dict[tuple[str, str, str], Note] = {}
    columns: dict[int, list[int]] = {}
    for row in grid.rows:
        for i in grid.newest_first():
            cell = row.cells[i]
            if not cell or cell["verdict"] not in FOOTNOTED or not cell["note"]:
                continue
            key = (row.id, cell["verdict"], cell["note"])
            if key not in by_key:
                by_key[key] = Note(len(by_key) + 1, row.id, [], cell["verdict"], cell["note"])
                grid.notes.append(by_key[key])
            columns.setdefault(by_key[key].number, []).append(i)
            grid.refs[(row.id, i)] = by_key[key].number
    for note in grid.notes:
        note.versions = [grid.columns[i].label for i in sorted(columns[note.number])]


def load_dir(
    reports_dir: Path, renames: Mapping[str, str] | None = None, reports: list[dict[str, Any]] | None = None
) -> Grid:
    """Grid of every <version>.json in a folder (on a CLI axis with its SDK's bundled-CLI report,
    see with_bundled), with its history file when there is one, old ids read as `renames` says;
    ReportError if there are no reports or one is bad. `reports`: the folder's, already loaded."""
    reports = with_bundled(reports_dir, reports if reports is not None else load_reports(reports_dir))
    return from_reports(reports, load_history(Path(reports_dir) / HISTORY_PATH), renames)


def with_bundled(
    reports_dir: Path, reports: list[dict[str, Any]], renames: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """A CLI axis's reports (one SDK, each run with another CLI: reports/cli-axis/) with, as one
    more column, the report of that SDK with its bundled CLI from the folder above
    (reports/<sdk>.json, old ids read as `renames` says), cut to the behaviours the axis has;
    the reports as they are otherwise, or when there is no such report or its CLI is a column."""
    sdk = cli_axis_sdk([Column(r["sdk_version"], r["cli_version"], r["cli"]) for r in reports])
    path = Path(reports_dir).parent / f"{sdk}.json"
    if sdk is None or any(r["cli"] == "bundled" for r in reports) or not path.is_file():
        return reports
    bundled = renamed(load(path), renames) if renames else load(path)
    if bundled["cli"] != "bundled" or bundled["cli_version"] in {r["cli_version"] for r in reports}:
        return reports
    ids = {b["id"] for r in reports for b in r["behaviours"]}
    return [*reports, {**bundled, "behaviours": [b for b in bundled["behaviours"] if b["id"] in ids]}]


def load_reports(reports_dir: Path, renames: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every <version>.json in a folder, checked, old ids read as `renames` (old -> current)
    says; ReportError if there are none or one is bad."""
    reports_dir = Path(reports_dir)
    if not reports_dir.is_dir():
        raise ReportError(f"{reports_dir}: no such folder")
    reports: list[dict[str, Any]] = []
    for path in sorted(reports_dir.glob("*.json")):
        report = load(path)
        if path.stem != file_stem(report):
            raise ReportError(f"{path}: the file name says {path.stem}, the report is for {file_stem(report)}")
        reports.append(renamed(report, renames) if renames else report)
    if not reports:
        raise ReportError(f"{reports_dir}: no <sdk-version>.json reports to tabulate")
    return reports
