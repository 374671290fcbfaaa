"""The matrix as data: every report in a folder as columns, every behaviour as a row.

Markdown and HTML both render this one grid, so they can never disagree on what a
cell holds or how footnotes are numbered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probes.report.cells import FOOTNOTED
from probes.report.errors import ReportError
from probes.report.store import file_stem, load
from probes.report.versions import version_key


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


@dataclass
class Row:
    id: str
    area: str
    claim: str
    source: list[str]
    cells: list[dict[str, Any] | None]  # aligned with Grid.columns; None = not in that report

    @property
    def verdicts(self) -> list[str | None]:
        return [c["verdict"] if c else None for c in self.cells]

    @property
    def moved(self) -> bool:
        """True when the probed versions do not all agree."""
        return len({v for v in self.verdicts if v is not None}) > 1


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

    def areas(self) -> list[tuple[str, list[Row]]]:
        out: dict[str, list[Row]] = {}
        for r in self.rows:
            out.setdefault(r.area, []).append(r)
        return list(out.items())


def from_reports(reports: list[dict[str, Any]]) -> Grid:
    """Grid from loaded reports, columns oldest to newest; row text from the newest report."""
    reports = sorted(
        reports, key=lambda r: (version_key(r["sdk_version"]), r["cli"], version_key(r["cli_version"] or ""))
    )
    columns = [Column(r["sdk_version"], r["cli_version"], r["cli"]) for r in reports]
    by_version = [{b["id"]: b for b in r["behaviours"]} for r in reports]
    newest: dict[str, dict[str, Any]] = {}
    for entries in by_version:
        newest.update(entries)
    rows = [
        Row(b["id"], b["area"], b["claim"], list(b["source"]), [e.get(b["id"]) for e in by_version])
        for b in sorted(newest.values(), key=lambda b: (b["area"], b["id"]))
    ]
    grid = Grid(columns, rows)
    _number_notes(grid)
    return grid


def _number_notes(grid: Grid) -> None:
    """One footnote per distinct (behaviour, verdict, note); versions sharing it share it."""
    by_key: dict[tuple[str, str, str], Note] = {}
    for row in grid.rows:
        for i, cell in enumerate(row.cells):
            if not cell or cell["verdict"] not in FOOTNOTED or not cell["note"]:
                continue
            key = (row.id, cell["verdict"], cell["note"])
            if key not in by_key:
                by_key[key] = Note(len(by_key) + 1, row.id, [], cell["verdict"], cell["note"])
                grid.notes.append(by_key[key])
            by_key[key].versions.append(grid.columns[i].label)
            grid.refs[(row.id, i)] = by_key[key].number


def load_dir(reports_dir: Path) -> Grid:
    """Grid of every <version>.json in a folder; ReportError if there are none or one is bad."""
    reports_dir = Path(reports_dir)
    if not reports_dir.is_dir():
        raise ReportError(f"{reports_dir}: no such folder")
    reports = []
    for path in sorted(reports_dir.glob("*.json")):
        report = load(path)
        if path.stem != file_stem(report):
            raise ReportError(f"{path}: the file name says {path.stem}, the report is for {file_stem(report)}")
        reports.append(report)
    if not reports:
        raise ReportError(f"{reports_dir}: no <sdk-version>.json reports to tabulate")
    return from_reports(reports)
