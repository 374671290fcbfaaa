"""The compatibility matrix: reports/COMPATIBILITY.md and reports/compatibility.html.

Rows are behaviours grouped by declared area, each with its claim in one short line,
columns SDK versions (newest first, each with its CLI: the versions a reader upgrades to
are the ones in view), cells a verdict symbol with a footnote carrying the note where it
did not hold. Both pages open with the behaviours that changed, since with seventy rows of ten
versions the few that moved are what a reader came for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from sdkprobe.report import sdkdiff, upgrade
from sdkprobe.report.cells import (
    LEGEND,
    SECURITY_LEGEND,
    SECURITY_MARK,
    area_heading,
    counts,
    declaration,
    md,
    project_from,
    short_claim,
    source_md,
    sources_md,
    symbol,
    text_table,
)
from sdkprobe.report.files import check_folder_writable, check_writable, replace_folder, write_atomic
from sdkprobe.report.grid import Grid, Row, cli_axis_sdk, load_dir, load_reports
from sdkprobe.report.sdks import PYTHON, TYPESCRIPT

MD_NAME = "COMPATIBILITY.md"
HTML_NAME = "compatibility.html"


def render_matrix(
    reports_dir: Path,
    renames: Mapping[str, str] | None = None,
    coverage: CoverageOf | None = None,
) -> tuple[Path, Path]:
    """Write the Markdown and HTML matrix of every report in reports_dir, a page per
    behaviour in reports_dir/behaviours/ and a release note per release in reports_dir/notes/
    (each file whole or not at all, the pages' folder replaced as a whole, and nothing when one
    cannot be written), an old id's cells in its
    current id's row (`renames`: old -> current), each version's public surface counted
    against `coverage` (item -> covering ids, for the folder's SDK) when given; return the matrix's paths."""
    from sdkprobe.report.html import differences
    from sdkprobe.report.html.matrix import render_html
    from sdkprobe.report.html.story import pages
    from sdkprobe.report.published import NOTES
    from sdkprobe.report.release_note import write_notes
    from sdkprobe.report.story import PAGES

    reports_dir = Path(reports_dir)
    grid, beside, python_above, _ = load_folder(reports_dir, renames, coverage)
    md_path, html_path = reports_dir / MD_NAME, reports_dir / HTML_NAME
    diff_paths = (reports_dir / sdkdiff.MD_NAME, reports_dir / sdkdiff.HTML_NAME) if beside else ()
    for path in (md_path, html_path, *diff_paths):
        check_writable(path)
    check_folder_writable(reports_dir / PAGES)
    check_folder_writable(reports_dir / NOTES)
    behaviour_pages = {name: text.encode("utf-8") for name, text in pages(grid).items()}
    write_atomic(md_path, render_markdown(grid, beside, python_above).encode("utf-8"))
    write_atomic(html_path, render_html(grid, beside, python_above).encode("utf-8"))
    replace_folder(reports_dir / PAGES, behaviour_pages)
    write_notes(reports_dir, grid)
    if beside:
        write_atomic(reports_dir / sdkdiff.MD_NAME, sdkdiff.render_markdown(beside, grid.project).encode("utf-8"))
        write_atomic(reports_dir / sdkdiff.HTML_NAME, differences.render_html(beside).encode("utf-8"))
    return md_path, html_path


# The catalogue's coverage of a surface: (the SDK's key, its items) -> item -> covering ids.
CoverageOf = Callable[[str, Iterable[str]], Mapping[str, Sequence[str]]]


class Folder(NamedTuple):
    """A folder's matrix as data: its grid (links to the project from the folder), the TypeScript
    reports of its ts/ compared with its own when it holds the Python SDK's, whether it is the
    ts/ of a folder of Python reports (its pages then point back up), and its reports as read."""

    grid: Grid
    beside: sdkdiff.Beside | None
    python_above: bool
    reports: list[dict[str, Any]]


def load_folder(
    reports_dir: Path,
    renames: Mapping[str, str] | None = None,
    coverage: CoverageOf | None = None,
) -> Folder:
    """What `render_matrix` renders from a folder (and `sdkprobe site` too); ReportError when it
    holds no usable report."""
    reports_dir = Path(reports_dir)
    reports = load_reports(reports_dir)
    grid = load_dir(reports_dir, renames, reports)
    covered = None if coverage is None else coverage(grid.sdk.key, {i for s in grid.surfaces if s for i in s})
    grid = dataclasses.replace(grid, project=project_from(reports_dir), coverage=covered)
    # The TypeScript SDK's reports in ts/, compared with these on each CLI both bundle.
    beside = None
    if grid.sdk.key == PYTHON and sdkdiff.has_typescript(reports_dir):
        beside = sdkdiff.load_beside(reports_dir, reports, renames)
    return Folder(grid, beside, grid.sdk.key == TYPESCRIPT and sdkdiff.python_above(reports_dir), reports)


def column_header(grid: Grid, i: int) -> str:
    c = grid.columns[i]
    return f"{md(c.sdk_version)} ({md(c.cli_label)})"


def _behaviour_link(row: Row, project: str) -> str:
    mark = f" {SECURITY_MARK}" if row.security else ""
    return f"[`{md(row.id)}`]({declaration(row.id, project)}){mark}"


def _bundled_from_above(grid: Grid) -> str:
    """On a CLI axis, where its bundled-CLI column comes from (grid.with_bundled)."""
    sdk = cli_axis_sdk(grid.columns)
    if sdk is None or not any(c.cli == "bundled" for c in grid.columns):
        return ""
    return f" and, as the column of the CLI it bundles, `../{md(sdk)}.json`"


def render_markdown(grid: Grid, beside: sdkdiff.Beside | None = None, python_above: bool = False) -> str:
    """COMPATIBILITY.md; `beside`: the TypeScript reports of ts/ compared with these (a section
    points at them), `python_above`: a TypeScript folder whose parent holds the Python SDK's matrix."""
    shown = grid.newest_first()
    # the verdicts right after the id, newest first, so they are in view however wide the text
    headers = ["behaviour", *(column_header(grid, i) for i in shown), "claim", "changes", "source"]
    changed = grid.changed()
    parts = [
        f"# {grid.sdk.package} compatibility",
        "",
        f"Which behaviours of `{grid.sdk.package}` (the {grid.sdk.name}) and its Claude Code CLI hold on each "
        "SDK version.",
        "Generated by `sdkprobe report` from the `<sdk-version>.json` reports in this folder"
        + _bundled_from_above(grid)
        + ";",
        "[compatibility.html](compatibility.html) is the same table, filterable. Versions run newest first.",
    ]
    if python_above:
        parts.append(sdkdiff.python_above_line())
    if any(r.exact for r in grid.rows):
        parts.append(md(grid.exact_note))
    # What an upgrader to the newest version came for, before the whole history.
    parts += upgrade.newest_section(grid)
    parts += ["", "## Changed across these versions", ""]
    if changed:
        parts.append(
            text_table(
                [[_behaviour_link(r, grid.project), md(short_claim(r)), md(r.words)] for r in changed],
                ["behaviour", "claim", "what changed"],
            )
        )
    else:
        parts.append(f"No behaviour changed across these {len(grid.columns)} versions.")
    if beside:
        parts += sdkdiff.matrix_section(beside)
    parts += [
        "",
        "## Versions",
        "",
        text_table(
            [
                [md(c.sdk_version), md(c.cli_label), md(counts(r.verdicts[i] for r in grid.rows))]
                for i, c in ((i, grid.columns[i]) for i in shown)
            ],
            ["SDK", "CLI", "verdicts"],
        ),
        "",
        "Legend: " + " · ".join(f"{s} {name}" for s, name in LEGEND) + f" · {md(SECURITY_LEGEND)}",
    ]
    for area, rows in grid.areas():
        table = [
            [_behaviour_link(r, grid.project)]
            + [_cell(grid, r.id, i, r.verdicts[i]) for i in shown]
            + [md(short_claim(r)), md(r.words), source_md(r.source, grid.project)]
            for r in rows
        ]
        parts += ["", f"## {md(area_heading(area))}", "", text_table(table, headers)]
    parts += _surface_md(grid)
    if grid.notes:
        parts += ["", "## Notes", ""]
        parts += [f"[^{n.number}]: `{md(n.id)}` on {md(', '.join(n.versions))}: {md(n.text)}" for n in grid.notes]
    parts += sources_md((r.source for r in grid.rows), grid.project)
    return "\n".join(parts) + "\n"


def _surface_md(grid: Grid) -> list[str]:
    """Each version's public surface, newest first: its size, how much the catalogue covers,
    and the items it adds and removes, an added item no behaviour covers marked ✗."""
    steps = grid.surface_steps()
    if not steps:
        return []
    rows = [
        [
            md(s.label),
            str(s.items),
            s.covered_text,
            _items_md(grid, s.added, mark=True) if s.since else "",
            _items_md(grid, s.removed) if s.since else "",
        ]
        for s in steps
    ]
    return [
        "",
        "## Public surface",
        "",
        "The SDK's public items (`sdkprobe surface`) each report records, what each version adds and "
        "removes against the next older one, and how many the catalogue covers; ✗ marks an added item "
        "no behaviour covers.",
        "",
        text_table(rows, ["version", "items", "covered", "adds", "removes"]),
    ]


def _items_md(grid: Grid, items: Sequence[str], mark: bool = False) -> str:
    return ", ".join(
        f"`{md(i)}`" + (" ✗" if mark and grid.coverage is not None and not grid.covering(i) else "") for i in items
    )


def _cell(grid: Grid, bid: str, i: int, verdict: str | None) -> str:
    ref = grid.refs.get((bid, i))
    return symbol(verdict) + (f"[^{ref}]" if ref else "")
