"""The reports as a static site (`sdkprobe site OUT`), for people who follow SDK releases.

Laid out as reports/ is, so each matrix's own relative links hold there:

    index.html                  both SDKs: the newest release of each and what moved in it
    compatibility.html          the Python SDK's matrix      ts/compatibility.html  the TypeScript SDK's
    sdk-differences.html        where the two SDKs differ on one CLI
    cli-axis/compatibility.html one Python release on other CLI releases
    behaviours/<id>.html        a behaviour's story on every version of both SDKs (and the CLI axis);
                                ts/behaviours/ and cli-axis/behaviours/ lead there (their matrices link so)
    releases/<v>.html           a release's note and report; ts/releases/<v>.html the TypeScript SDK's
    feed.xml                    an Atom entry per recorded release with a publish time

Every page is rendered by the renderers `sdkprobe report` uses; this module only places them
and writes the few pages of its own (index, releases). Links are relative, so the site reads
from the file system and under any URL prefix. Nothing depends on the clock: a release is
dated by notes/published.json, and two builds are the same bytes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe.report import feed, published, sdkdiff, story, upgrade
from sdkprobe.report.cells import counts, project_from
from sdkprobe.report.errors import ReportError
from sdkprobe.report.files import check_folder_writable, replace_folder
from sdkprobe.report.grid import Grid, cli_axis_sdk
from sdkprobe.report.html import differences
from sdkprobe.report.html import story as story_html
from sdkprobe.report.html.markdown import to_html
from sdkprobe.report.html.matrix import render_html
from sdkprobe.report.html.page import esc, page
from sdkprobe.report.matrix import HTML_NAME, CoverageOf, load_folder
from sdkprobe.report.release_note import release_note
from sdkprobe.report.render import render_page
from sdkprobe.report.sdks import PYTHON, SDKS, TS_FOLDER, TYPESCRIPT
from sdkprobe.report.store import file_stem

CLI_AXIS = "cli-axis"  # the CLI axis's reports, beside the Python SDK's: reports/cli-axis/
RELEASES = "releases"  # a shelf's release pages, in its folder
MARKER = ".sdkprobe-site"  # in OUT: the folder is a site this command wrote, and may be replaced
MARKER_TEXT = b"Written by `sdkprobe site`; the next build replaces this folder whole.\n"


@dataclass(frozen=True)
class Shelf:
    """One folder of reports as the site shows it."""

    folder: str  # where its pages go in the site ("" for the top): ts, cli-axis
    key: str  # the section id its behaviours' stories go under: python, typescript, cli-axis
    title: str  # what its reports are of
    grid: Grid
    beside: sdkdiff.Beside | None
    python_above: bool
    reports: Mapping[str, Mapping[str, Any]]  # by file stem
    times: Mapping[str, str]  # version -> its publish time, RFC 3339 in UTC (notes/published.json)
    notes: Mapping[str, str]  # file stem -> its release note (notes/<stem>.md), as Markdown
    is_sdk: bool  # a shelf of one SDK's releases (not the CLI axis): it has release pages and feed entries
    said: dict[tuple[str, int], str] = field(default_factory=dict, compare=False)  # what note() and count() worked out

    def path(self, name: str) -> str:
        return f"{self.folder}/{name}" if self.folder else name

    def releases(self) -> list[int]:
        """The columns that are releases of the SDK with the CLI it bundles, oldest first."""
        return [i for i, c in enumerate(self.grid.columns) if c.cli == "bundled"] if self.is_sdk else []

    def stem(self, i: int) -> str:
        return upgrade.stem(self.grid.columns[i])

    def release_page(self, i: int) -> str:
        return self.path(f"{RELEASES}/{self.stem(i)}.html")

    def note(self, i: int) -> str:
        """Release column i's note as Markdown: the one `update` wrote (notes/<version>.md), else
        the one it would write, from the reports (worked out once: a page, the index and the
        feed show it)."""
        if ("note", i) not in self.said:
            written = self.notes.get(self.stem(i))
            self.said["note", i] = (
                written
                if written is not None
                else f"_No release note was recorded for {self.stem(i)}; from the reports:_\n\n"
                + release_note(self.grid, self.grid.columns[i].sdk_version, self.times)
            )
        return self.said["note", i]

    def count(self, i: int) -> str:
        """How many behaviours moved in release column i since the release recorded before it."""
        if ("count", i) not in self.said:
            releases = self.releases()
            k = releases.index(i)
            self.said["count", i] = _moved_since(self, releases[k - 1], i) if k else "the first recorded release"
        return self.said["count", i]


@dataclass(frozen=True)
class Site:
    files: dict[str, bytes]  # path in OUT -> content
    undated: tuple[str, ...]  # releases with no publish time, left out of the feed ("package version")


def build(
    reports_dir: Path,
    out: Path,
    repository: str | None = None,
    renames: Mapping[str, str] | None = None,
    coverage: CoverageOf | None = None,
) -> Site:
    """Every page of the site of `reports_dir` (its ts/ and cli-axis/ when they hold reports).
    Links into the project (a declaration, a source's page) lead under `repository` (a URL of
    the project's files, such as https://github.com/OWNER/REPO/blob/COMMIT) when given, else to
    the checkout relative to `out`. ReportError when reports_dir holds no usable report."""
    reports_dir, out = Path(reports_dir), Path(out)

    def project(folder: str) -> str:
        return repository.rstrip("/") if repository else project_from(out / folder)

    shelves = [_shelf(reports_dir, "", project, renames, coverage)]
    for folder in (TS_FOLDER, CLI_AXIS):
        if any((reports_dir / folder).glob("*.json")):
            shelves.append(_shelf(reports_dir / folder, folder, project, renames, coverage))
    files: dict[str, str] = {}
    for shelf in shelves:
        top = _nav(shelves, shelf.folder)
        files[shelf.path(HTML_NAME)] = render_html(shelf.grid, shelf.beside, shelf.python_above, top)
        if shelf.beside:
            files[sdkdiff.HTML_NAME] = differences.render_html(shelf.beside, top)
        for i in shelf.releases():
            files[shelf.release_page(i)] = _release_page(shelves, shelf, i, project)
    files.update(_behaviour_pages(shelves, project))
    files["index.html"] = _index(shelves)
    entries, undated = _feed_entries(shelves)
    files[feed.NAME] = feed.render(
        "sdkprobe: what holds on each release of the Claude Agent SDK",
        f"A release of {' or '.join(SDKS[k].package for k in (PYTHON, TYPESCRIPT))} recorded by sdkprobe: "
        "what moved in it.",
        "index.html",
        entries,
    )
    encoded = {name: text.encode("utf-8") for name, text in sorted(files.items())}
    return Site({**encoded, MARKER: MARKER_TEXT}, tuple(undated))


def _shelf(
    folder: Path,
    where: str,
    project: Callable[[str], str],
    renames: Mapping[str, str] | None,
    coverage: CoverageOf | None,
) -> Shelf:
    grid, beside, python_above, loaded = load_folder(folder, renames, coverage)
    grid = dataclasses.replace(grid, project=project(where))
    axis = cli_axis_sdk(grid.columns)
    title = f"{grid.sdk.package} {axis} on other CLI releases" if axis else grid.sdk.package
    key = CLI_AXIS if axis else grid.sdk.key
    reports = {file_stem(r): r for r in loaded}
    return Shelf(where, key, title, grid, beside, python_above, reports, _times(folder), _notes(folder), axis is None)


def _times(folder: Path) -> dict[str, str]:
    """The folder's publish times, each checked to be a time an Atom feed can carry."""
    times = published.load(folder)
    try:
        return {version: published.normalised(stamp) for version, stamp in times.items()}
    except ValueError as exc:
        raise ReportError(f"{folder / published.PUBLISHED_PATH}: a publish time is not ISO 8601: {exc}") from None


def _notes(folder: Path) -> dict[str, str]:
    notes = {}
    for path in sorted((folder / published.NOTES).glob("*.md")):
        try:
            notes[path.stem] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ReportError(f"{path}: cannot be read: {exc}") from None
    return notes


def _up(folder: str) -> str:
    """The site's root as a link from a folder of it."""
    return "../" * len([p for p in folder.split("/") if p])


def _nav(shelves: Sequence[Shelf], folder: str) -> str:
    """The site's links, first on every page."""
    up = _up(folder)
    links = [("index.html", "sdkprobe")]
    links += [(s.path(HTML_NAME), s.grid.sdk.name if s.is_sdk else "other CLI releases") for s in shelves]
    links += [(sdkdiff.HTML_NAME, "SDK differences") for s in shelves if s.beside]
    links.append((feed.NAME, "Atom feed"))
    items = "".join(f'<a href="{esc(up + href)}">{esc(text)}</a>' for href, text in links)
    return f'<nav class="site" aria-label="sdkprobe">{items}</nav>\n'


# --- what moved in a release ---------------------------------------------------------


def _summary(shelf: Shelf, i: int) -> str:
    """One line for a release: its CLI, how much moved in it and its verdicts."""
    c = shelf.grid.columns[i]
    return f"{c.cli_label}; {shelf.count(i)}; {counts(r.verdicts[i] for r in shelf.grid.rows)}."


def _moved_since(shelf: Shelf, before: int, i: int) -> str:
    u = upgrade.between(shelf.grid, before, i)
    moved = len(u.moved) + len(u.added) + len(u.dropped)
    if not moved:
        return f"nothing moved since {shelf.stem(before)}"
    return f"{moved} behaviour{'' if moved == 1 else 's'} moved since {shelf.stem(before)}"


def _published(shelf: Shelf, i: int) -> str:
    when = shelf.times.get(shelf.grid.columns[i].sdk_version)
    registry = shelf.grid.sdk.registry
    return (
        f"published on {registry} {when[:10]} {when[11:16]} UTC" if when else f"publish time on {registry} not recorded"
    )


# --- the pages of its own --------------------------------------------------------------


def _release_page(shelves: Sequence[Shelf], shelf: Shelf, i: int, project: Callable[[str], str]) -> str:
    folder = shelf.path(RELEASES)
    up, c = _up(folder), shelf.grid.columns[i]
    releases = shelf.releases()
    k = releases.index(i)
    older, newer = releases[:k], releases[k + 1 :]
    around = [
        f'<a href="{esc(Path(shelf.release_page(j)).name)}">{word} {esc(shelf.stem(j))}</a>'
        for word, j in (("older:", older[-1] if older else None), ("newer:", newer[0] if newer else None))
        if j is not None
    ]
    matrix = f'<a href="{esc(up + shelf.path(HTML_NAME))}">the matrix</a>'
    meta = [esc(_published(shelf, i)), esc(_summary(shelf, i)), matrix]
    report = render_page(dict(shelf.reports[shelf.stem(i)]), project(folder))
    body = (
        f"<h1>{esc(shelf.grid.sdk.package)} {esc(c.sdk_version)}</h1>\n"
        f'<p class="meta">{" · ".join(meta + around)}</p>\n'
        f'<div class="moved-in">\n{to_html(shelf.note(i), 1)}</div>\n'
        f"{to_html(report, 1)}"
    )
    return page(f"{shelf.grid.sdk.package} {c.sdk_version}", body, top=_nav(shelves, folder))


def _index(shelves: Sequence[Shelf]) -> str:
    sdk_shelves = [s for s in shelves if s.is_sdk]
    names = " and ".join(f"<code>{esc(s.grid.sdk.package)}</code> (the {esc(s.grid.sdk.name)})" for s in sdk_shelves)
    sections = ['<div class="sdks">\n' + "\n".join(_index_section(s) for s in sdk_shelves) + "\n</div>"]
    for s in shelves:
        if s.beside:
            lines = "".join(f"<li>{esc(c.label)}: {esc(c.count_line())}</li>" for c in s.beside.pairs)
            sections.append(
                f'<h2>Where the SDKs differ</h2>\n<p><a href="{sdkdiff.HTML_NAME}">The behaviours whose verdict '
                f"differs between the two SDKs on one CLI</a>, for each CLI version both bundle:</p>\n"
                f"<ul>{lines}</ul>"
            )
    for s in shelves:
        if not s.is_sdk:
            sections.append(
                f'<h2>On other CLI releases</h2>\n<p><a href="{esc(s.path(HTML_NAME))}">{esc(s.title)}</a>: '
                f"{len(s.grid.columns)} CLI releases under one SDK release.</p>"
            )
    body = (
        "<h1>What holds on each release of the Claude Agent SDK</h1>\n"
        f"<p>sdkprobe checks which behaviours of {names} and the Claude Code CLI each bundles hold on "
        f'every recorded release. Each release has its page; the <a href="{feed.NAME}">Atom feed</a> has an '
        "entry for each release as it is recorded.</p>\n" + "\n".join(sections)
    )
    head = f'<link rel="alternate" type="application/atom+xml" title="sdkprobe releases" href="{feed.NAME}">\n'
    return page("sdkprobe: what holds on each Claude Agent SDK release", body, top=_nav(shelves, ""), head=head)


def _index_section(shelf: Shelf) -> str:
    sdk, releases = shelf.grid.sdk, shelf.releases()
    if not releases:
        return f'<section class="sdk"><h2>{esc(sdk.package)}</h2><p>No release with its bundled CLI.</p></section>'
    newest = releases[-1]
    every = "".join(
        f'<li><a href="{esc(shelf.release_page(i))}">{esc(shelf.stem(i))}</a> '
        f'<span class="meta">{esc((shelf.times.get(shelf.grid.columns[i].sdk_version) or "")[:10])}</span></li>'
        for i in reversed(releases)
    )
    return f"""<section class="sdk" id="{esc(sdk.key)}">
<h2>{esc(sdk.package)} <small>(the {esc(sdk.name)}, on {esc(sdk.registry)})</small></h2>
<p>Newest recorded release: <a href="{esc(shelf.release_page(newest))}"><strong>{esc(shelf.stem(newest))}</strong></a>,
{esc(_published(shelf, newest))}; {esc(_summary(shelf, newest))}
<a href="{esc(shelf.path(HTML_NAME))}">The matrix</a> has every release.</p>
<details class="moved-in"><summary>What moved in {esc(shelf.stem(newest))}: {esc(shelf.count(newest))}</summary>
{to_html(shelf.note(newest), 2)}</details>
<details><summary>Every recorded release ({len(releases)})</summary>
<ul class="releases">{every}</ul>
</details>
</section>"""


def _feed_entries(shelves: Sequence[Shelf]) -> tuple[list[feed.Entry], list[str]]:
    """An entry per recorded release with a publish time; the others named."""
    entries, undated = [], []
    for shelf in shelves:
        for i in shelf.releases():
            package, version = shelf.grid.sdk.package, shelf.grid.columns[i].sdk_version
            when = shelf.times.get(version)
            if when is None:
                undated.append(f"{package} {version}")
                continue
            entries.append(
                feed.Entry(package, version, when, shelf.release_page(i), _summary(shelf, i), to_html(shelf.note(i), 1))
            )
    return entries, undated


# --- a behaviour's story on every SDK -------------------------------------------------------


def _behaviour_pages(shelves: Sequence[Shelf], project: Callable[[str], str]) -> dict[str, str]:
    """behaviours/<id>.html joining every shelf's story of the behaviour, and in each other
    shelf's behaviours/ a page leading to it (where that shelf's matrix links)."""
    folder = story.PAGES
    up = _up(folder)
    rows = {s.key: {r.id: r for r in s.grid.rows} for s in shelves}
    ids = sorted({bid for by_id in rows.values() for bid in by_id})
    files = {}
    for bid in ids:
        parts = [
            story_html.Part(s.key, s.title, story.story(s.grid, rows[s.key][bid]), up + s.path(HTML_NAME), not s.is_sdk)
            for s in shelves
            if bid in rows[s.key]
        ]
        files[f"{folder}/{bid}.html"] = story_html.render_joined_html(parts, project(folder), _nav(shelves, folder))
        for s in shelves:
            if s.folder and bid in rows[s.key]:
                files[s.path(f"{folder}/{bid}.html")] = _lead(f"{_up(s.path(folder))}{folder}/{bid}.html#{s.key}")
    return files


def _lead(href: str) -> str:
    """A page that sends the reader on to `href` (at once, or by its link without a browser's refresh)."""
    head = f'<meta http-equiv="refresh" content="0; url={esc(href)}">\n'
    return page("Moved", f'<p><a href="{esc(href)}">This behaviour\'s page</a></p>', head=head)


def check_out(out: Path) -> None:
    """ReportError unless `out` can take the site: new, empty, or a site this command wrote
    (replaced whole), never a file or a folder of other things. Checked before any work."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ReportError(f"{out} is a file; the site is written into a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise ReportError(f"{out} holds files no `sdkprobe site` wrote; give a new or empty folder")
    check_folder_writable(out)


def write(out: Path, site: Site) -> None:
    """The site into `out`, replacing it whole: a reader sees the old site or the new, never a mix."""
    check_out(out)
    replace_folder(Path(out), site.files)
