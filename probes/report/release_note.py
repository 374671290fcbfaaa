"""A release note: what moved on one recorded release against the release recorded before it.

`sdkprobe update` writes one per release it records (DIR/notes/<version>.md), prints it, and a
daily job opens its pull request with them; the site shows each on the release's page. It is
the upgrade view (report/upgrade.py) between the two neighbouring columns, so a change names
the exact release the history placed it on, followed by the public items the release adds and
removes, each with what covers it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from sdkprobe.releases.versions import version_key
from sdkprobe.report import upgrade
from sdkprobe.report.cells import md
from sdkprobe.report.diff import in_short
from sdkprobe.report.errors import ReportError
from sdkprobe.report.grid import Grid


def release_note(grid: Grid, version: str, published: Mapping[str, str]) -> str:
    """The note of `version` (a column of `grid` with its bundled CLI), as Markdown headed at level 1."""
    index = next((i for i, c in enumerate(grid.columns) if c.sdk_version == version and c.cli == "bundled"), None)
    if index is None:
        raise ReportError(f"no report of {grid.sdk.package} {version} to write a release note of")
    column = grid.columns[index]
    when = published.get(version)
    said = [
        f"# {grid.sdk.package} {version}",
        "",
        f"Published on {grid.sdk.registry} {when[:10] if when else '(date unknown)'}; "
        f"bundles Claude Code CLI {md(column.cli_version or '?')}.",
    ]
    before = _previous(grid, index)
    if before is None:
        return (
            "\n".join([*said, "", "The first release of this SDK sdkprobe recorded: nothing to compare with."]) + "\n"
        )
    since = upgrade.between(grid, before, index)
    said += [
        f"Compared with {grid.columns[before].sdk_version} (CLI {md(grid.columns[before].cli_version or '?')}), "
        "the release recorded before it.",
        "",
        upgrade.render_markdown(since, level=2).rstrip("\n"),
    ]
    said += _seen_differently(since)
    said += _surface(grid, since, before, index)
    return "\n".join(said) + "\n"


def _seen_differently(u: upgrade.Upgrade) -> list[str]:
    """Behaviours whose verdict and sub-checks stayed but whose note or observation changed
    for more than the two releases' own version numbers: the finer moves a gate notes."""
    lines = []
    for c in u.seen_differently:
        seen = c.seen(width=200)
        said = in_short(seen, each=md) if seen else f"its note now reads: {md(c.after.get('note'))}"
        lines.append(f"- `{md(c.id)}` (still {md(c.after['verdict'])}): {said}")
    if not lines:
        return []
    return ["", "## Seen differently, same verdict", "", *lines]


def write_notes(reports_dir: Path, grid: Grid) -> list[Path]:
    """DIR/notes/<version>.md for every release of the folder's SDK with a report (a note whose
    report is gone is removed); none on a CLI axis, whose columns are CLI releases. Like the
    matrix, the notes are drawn from the reports, so `sdkprobe report` writes them again."""
    from sdkprobe.report import published
    from sdkprobe.report.files import check_folder_writable, write_atomic
    from sdkprobe.report.grid import cli_axis_sdk

    if cli_axis_sdk(grid.columns) is not None:
        return []
    folder = Path(reports_dir) / published.NOTES
    check_folder_writable(folder)
    times = published.load(reports_dir)
    texts = {
        folder / f"{c.sdk_version}.md": release_note(grid, c.sdk_version, times).encode("utf-8")
        for c in grid.columns
        if c.cli == "bundled"
    }
    for path, text in texts.items():
        write_atomic(path, text)
    for stale in set(folder.glob("*.md")) - set(texts):
        stale.unlink()
    return sorted(texts, key=lambda p: version_key(p.stem))


def _previous(grid: Grid, index: int) -> int | None:
    """The newest column before `index` that ran its own bundled CLI."""
    return next((i for i in range(index - 1, -1, -1) if grid.columns[i].cli == "bundled"), None)


def _surface(grid: Grid, u: upgrade.Upgrade, before: int, after: int) -> list[str]:
    a, b = grid.surfaces[before], grid.surfaces[after]
    head = ["", "## Public surface", ""]
    if a is None or b is None:
        return [*head, f"Not compared: the report of {u.comparison.surface_lacking[-1]} records no public surface."]
    added, removed = u.comparison.surface_added, u.comparison.surface_removed
    if not added and not removed:
        return [*head, f"The same {len(b)} public items as {grid.columns[before].sdk_version}."]
    lines = [*head, f"{len(b)} public items ({len(a)} before)."]
    if added:
        lines += ["", "Added:", "", *(_item(grid, i) for i in added)]
    if removed:
        lines += ["", "Removed:", "", *(_item(grid, i) for i in removed)]
    return lines


def _item(grid: Grid, item: str) -> str:
    covering: Sequence[str] = grid.covering(item)
    by = f"covered by {', '.join(f'`{md(c)}`' for c in covering)}" if covering else "no behaviour covers it"
    return f"- `{md(item)}`: {by}"
