"""A release note: what moved on one recorded release against the release recorded before it.

`sdkprobe update` writes one per release it records (DIR/notes/<version>.md), prints it, and a
daily job opens its pull request with them; the site shows each on the release's page. It is
the upgrade view (report/upgrade.py) between the two neighbouring columns, so a change names
the exact release the history placed it on, followed by the public items the release adds and
removes, each with what covers it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sdkprobe.report import upgrade
from sdkprobe.report.cells import md
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
    said += [
        f"Compared with {grid.columns[before].sdk_version} (CLI {md(grid.columns[before].cli_version or '?')}), "
        "the release recorded before it.",
        "",
        upgrade.render_markdown(upgrade.between(grid, before, index), level=2).rstrip("\n"),
    ]
    said += _surface(grid, before, index)
    return "\n".join(said) + "\n"


def _previous(grid: Grid, index: int) -> int | None:
    """The newest column before `index` that ran its own bundled CLI."""
    return next((i for i in range(index - 1, -1, -1) if grid.columns[i].cli == "bundled"), None)


def _surface(grid: Grid, before: int, after: int) -> list[str]:
    a, b = grid.surfaces[before], grid.surfaces[after]
    head = ["", "## Public surface", ""]
    if a is None or b is None:
        lacking = grid.columns[after if b is None else before].sdk_version
        return [*head, f"Not compared: the report of {lacking} records no public surface."]
    added, removed = sorted(set(b) - set(a)), sorted(set(a) - set(b))
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
