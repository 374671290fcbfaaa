"""Where the Python SDK and the TypeScript SDK disagree while driving the same Claude Code CLI.

The two SDKs are probed by the same catalogue, so a behaviour that holds on one and differs on
the other, with the same CLI underneath, is a difference of the SDKs themselves: what this
view exists to show. A behaviour not applicable on one side (the SDK lacks the option), or
inconclusive there (error, needs-live), is listed apart, since it says nothing about how the
two SDKs behave. The two reports are compared as the gate and the upgrade view compare two
(report/comparison.py): a sub-check only one SDK's report names differs too. Written by
`sdkprobe report` as SDK-DIFFERENCES.md and sdk-differences.html beside the Python matrix
when its folder holds the TypeScript reports in ts/, one section per CLI version both SDKs
bundle; printed for two given reports by `sdkprobe report --sdks`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import ERROR, NEEDS_LIVE, NOT_APPLICABLE
from sdkprobe.releases.versions import version_key
from sdkprobe.report.cells import SECURITY_MARK, declaration, md, short_claim, symbol, text_table
from sdkprobe.report.comparison import BehaviourChange, CheckMove, Comparison, compare_reports
from sdkprobe.report.errors import ReportError
from sdkprobe.report.sdks import PYTHON, SDKS, TS_FOLDER, TYPESCRIPT, sdk_of
from sdkprobe.report.store import renamed

MD_NAME = "SDK-DIFFERENCES.md"
HTML_NAME = "sdk-differences.html"

# How a disagreement is grouped, in the order a page lists the groups.
DIFFERENCE = "difference"  # holds against differs, or the same verdict with a sub-check apart
NOT_APPLICABLE_ON_ONE = "not-applicable"  # not applicable on one side (or both, a sub-check apart)
INCONCLUSIVE = "inconclusive"  # error or needs-live on a side
KINDS: dict[str, str] = {
    DIFFERENCE: "Where the SDKs differ (holds against differs)",
    NOT_APPLICABLE_ON_ONE: "Not applicable on one side",
    INCONCLUSIVE: "Inconclusive on one side (error or needs-live)",
}
PY, TS = SDKS[PYTHON], SDKS[TYPESCRIPT]


@dataclass(frozen=True)
class SdkPair:
    """One Python report and one TypeScript report on one CLI version, compared as every view
    compares two reports (report/comparison.py), the Python report first."""

    cli_version: str
    python_version: str
    typescript_version: str
    comparison: Comparison

    @property
    def compared(self) -> int:
        """Behaviours both reports have."""
        return self.comparison.shared

    @property
    def disagreements(self) -> tuple[BehaviourChange, ...]:
        """Each behaviour whose verdict or a sub-check moved from Python to TypeScript, by area order."""
        return tuple(self.comparison.moved)

    @property
    def only_python(self) -> tuple[Mapping[str, Any], ...]:
        """Entries the TypeScript report lacks."""
        return self.comparison.removed

    @property
    def only_typescript(self) -> tuple[Mapping[str, Any], ...]:
        return self.comparison.added

    def of(self, kind: str) -> list[BehaviourChange]:
        return [d for d in self.disagreements if kind_of(d.before["verdict"], d.after["verdict"]) == kind]

    @property
    def sides(self) -> tuple[str, str]:
        """('Python 0.2.189', 'TypeScript 0.3.332'): how a page heads each side's column."""
        return f"{PY.short} {self.python_version}", f"{TS.short} {self.typescript_version}"

    @property
    def label(self) -> str:
        """'CLI 2.1.332: Python 0.2.189, TypeScript 0.3.332'."""
        return f"CLI {self.cli_version}: {', '.join(self.sides)}"

    def groups(self) -> list[tuple[str, list[BehaviourChange]]]:
        """(title, disagreements) of each group a page shows, in KINDS' order: the differences
        always (empty: say `none_differ`), the others when they have any."""
        return [(title, self.of(kind)) for kind, title in KINDS.items() if kind == DIFFERENCE or self.of(kind)]

    @property
    def none_differ(self) -> str:
        return f"No behaviour holds on one SDK and differs on the other on CLI {self.cli_version}."

    def one_sided(self) -> list[tuple[Mapping[str, Any], str]]:
        """Each entry only one report has, with the side it is on ('Python 0.2.189')."""
        py, ts = self.sides
        return [(e, py) for e in self.only_python] + [(e, ts) for e in self.only_typescript]

    def count_line(self) -> str:
        """N compared, M differ, K not-applicable on one side, E inconclusive, O in one report only."""
        said = [
            f"{_n(self.compared, 'behaviour')} compared",
            f"{len(self.of(DIFFERENCE))} differ between the SDKs",
            f"{len(self.of(NOT_APPLICABLE_ON_ONE))} not applicable on one side",
            f"{len(self.of(INCONCLUSIVE))} inconclusive on one side",
        ]
        one = len(self.only_python) + len(self.only_typescript)
        return ", ".join(said) + (f"; {one} in one report only" if one else "") + "."


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(d: BehaviourChange) -> str:
    """The behaviour's claim in one line, from the TypeScript entry when it has a summary."""
    return short_claim(d.after if d.after.get("summary") else d.before)


def kind_of(a: str, b: str) -> str:
    """The group of two verdicts that disagree (or agree, a sub-check apart)."""
    verdicts = {a, b}
    if NOT_APPLICABLE in verdicts:
        return NOT_APPLICABLE_ON_ONE
    if verdicts & {ERROR, NEEDS_LIVE}:
        return INCONCLUSIVE
    return DIFFERENCE


def pair(python: Mapping[str, Any], typescript: Mapping[str, Any]) -> SdkPair:
    """The two reports compared: every behaviour both have whose verdict or a sub-check (one
    only one report names included) differs, and what only one has. The reports' ids are
    taken as they are (rename them first)."""
    return SdkPair(
        str(python["cli_version"]),
        str(python["sdk_version"]),
        str(typescript["sdk_version"]),
        compare_reports(python, typescript),
    )


def check_pair(
    a: Mapping[str, Any], b: Mapping[str, Any], names: tuple[str, str]
) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """(Python report, TypeScript report) of two given reports, in either order; ReportError
    naming the files (`names`) unless they are one of each SDK on one known CLI version."""
    kinds = (sdk_of(a).key, sdk_of(b).key)
    if set(kinds) != {PYTHON, TYPESCRIPT}:
        raise ReportError(
            f"{names[0]} and {names[1]} are both {SDKS[kinds[0]].name} reports; "
            f"--sdks compares one {PY.name} report with one {TS.name} report"
        )
    if a["cli_version"] is None or b["cli_version"] is None:
        unknown = names[0] if a["cli_version"] is None else names[1]
        raise ReportError(f"{unknown} does not say which CLI it ran; --sdks compares the two SDKs on one CLI")
    if a["cli_version"] != b["cli_version"]:
        raise ReportError(
            f"{names[0]} ran CLI {a['cli_version']}, {names[1]} CLI {b['cli_version']}; "
            "--sdks compares the two SDKs on one CLI"
        )
    return (a, b) if kinds[0] == PYTHON else (b, a)


# --- a folder and its ts/ ----------------------------------------------------------


@dataclass(frozen=True)
class Beside:
    """The Python SDK's reports and the TypeScript SDK's, from a folder and its ts/: each CLI
    version both bundle, compared; and the CLI versions each side bundles, newest first."""

    pairs: tuple[SdkPair, ...]  # newest CLI first
    python_clis: tuple[str, ...]
    typescript_clis: tuple[str, ...]


def has_typescript(folder: Path) -> bool:
    """Whether the folder has a ts/ subfolder holding reports."""
    ts = Path(folder) / TS_FOLDER
    return ts.is_dir() and any(ts.glob("*.json"))


def load_beside(folder: Path, python_reports: Sequence[Mapping[str, Any]], renames: Mapping[str, str] | None) -> Beside:
    """The comparisons of the folder's (Python) reports with those in its ts/ (old ids read as
    `renames` says); ReportError when a report there is broken or is not the TypeScript SDK's."""
    from sdkprobe.report.grid import load_reports

    ts_dir = Path(folder) / TS_FOLDER
    ts_reports = load_reports(ts_dir, renames)
    for r in ts_reports:
        if sdk_of(r).key != TYPESCRIPT:
            raise ReportError(
                f"{ts_dir}: the report of {r['sdk_version']} is a {sdk_of(r).name} report; "
                f"{TS_FOLDER}/ holds the {TS.name}'s"
            )
    py = [renamed(dict(r), renames) if renames else r for r in python_reports]
    return pair_up(py, ts_reports)


def pair_up(python_reports: Sequence[Mapping[str, Any]], ts_reports: Sequence[Mapping[str, Any]]) -> Beside:
    """For each CLI version a bundled-CLI report of each SDK ran, the newest release of each
    that bundles it, compared; newest CLI first."""
    py, ts = _newest_by_cli(python_reports), _newest_by_cli(ts_reports)
    shared = sorted(set(py) & set(ts), key=version_key, reverse=True)
    return Beside(
        tuple(pair(py[cli], ts[cli]) for cli in shared),
        tuple(sorted(py, key=version_key, reverse=True)),
        tuple(sorted(ts, key=version_key, reverse=True)),
    )


def _newest_by_cli(reports: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """Each CLI version a bundled-CLI report ran, with the newest such report."""
    out: dict[str, Mapping[str, Any]] = {}
    for r in sorted(reports, key=lambda r: version_key(str(r["sdk_version"]))):
        if r["cli"] == "bundled" and r["cli_version"]:
            out[str(r["cli_version"])] = r
    return out


# --- Markdown ----------------------------------------------------------------------


SAME_NOTE = f"the note as on the {PY.short} side"  # said rather than a long note twice in one row


def side_note(entry: Mapping[str, Any], beside: Mapping[str, Any] | None) -> str:
    """The entry's note; SAME_NOTE for the TypeScript side when it is the Python side's (`beside`)."""
    note = str(entry.get("note") or "")
    return SAME_NOTE if note and beside is not None and note == beside.get("note") else note


def _verdict(entry: Mapping[str, Any], beside: Mapping[str, Any] | None = None) -> str:
    note = side_note(entry, beside)
    return f"{symbol(entry['verdict'])} {md(entry['verdict'])}" + (f": {md(note)}" if note else "")


def _link(bid: str, security: bool, project: str) -> str:
    mark = f" {SECURITY_MARK}" if security else ""
    return f"[`{md(bid)}`]({declaration(bid, project)}){mark}"


def _check_md(verdict: str | None) -> str:
    """A sub-check's verdict on one side; absent (the report does not name it) as the matrix says it."""
    return f"{symbol(verdict)} {md(verdict)}" if verdict else symbol(None)


def _checks_md(checks: Sequence[CheckMove]) -> str:
    return "; ".join(f"`{md(c.name)}` {_check_md(c.before)} · {_check_md(c.after)}" for c in checks)


def comparison_markdown(c: SdkPair, project: str = "..", level: int = 2) -> str:
    """One CLI version's section: the count line, each group's table, what one report only has."""
    sub = "#" * (level + 1)
    headers = ["behaviour", *c.sides, f"sub-checks that differ ({PY.short} · {TS.short})", "claim"]
    parts = [f"{'#' * level} {md(c.label)}", "", md(c.count_line())]
    for title, group in c.groups():
        parts += ["", f"{sub} {title}", ""]
        if not group:
            parts.append(md(c.none_differ))
            continue
        rows = [
            [
                _link(d.id, bool(d.security), project),
                _verdict(d.before),
                _verdict(d.after, d.before),
                _checks_md(d.checks),
                md(summary(d)),
            ]
            for d in group
        ]
        parts.append(text_table(rows, headers))
    if c.one_sided():
        parts += ["", f"{sub} In one report only", ""]
        parts += [f"- `{md(e['id'])}` only in {md(side)} ({_verdict(e)})" for e, side in c.one_sided()]
    return "\n".join(parts) + "\n"


def render_markdown(beside: Beside, project: str = "..") -> str:
    """SDK-DIFFERENCES.md: what the page is, then one section per shared CLI version, newest first."""
    parts = [
        f"# {PY.package} and {TS.package} on one CLI",
        "",
        f"Where the {PY.name} (`{PY.package}`, the reports in this folder) and the {TS.name} "
        f"(`{TS.package}`, the reports in `{TS_FOLDER}/`) disagree on a behaviour while running the same "
        "Claude Code CLI: for each CLI version both bundle, the newest release of each SDK that bundles it. "
        "A behaviour that holds on one and differs on the other (or whose sub-checks differ) is a "
        "difference of the SDKs; one not applicable, or inconclusive (error, needs-live), on one side is "
        "listed apart. Generated by `sdkprobe report`.",
        "",
        f"The matrices: [COMPATIBILITY.md](COMPATIBILITY.md) ({PY.name}), "
        f"[{TS_FOLDER}/COMPATIBILITY.md]({TS_FOLDER}/COMPATIBILITY.md) ({TS.name}).",
    ]
    if not beside.pairs:
        parts += ["", md(no_shared_cli(beside))]
    for c in beside.pairs:
        parts += ["", comparison_markdown(c, project).rstrip("\n")]
    return "\n".join(parts) + "\n"


def no_shared_cli(beside: Beside) -> str:
    return (
        f"No CLI version has both a {PY.name} report and a {TS.name} report run with its bundled CLI: "
        f"the {PY.name}'s reports bundle CLI {_list(beside.python_clis)}; "
        f"the {TS.name}'s, CLI {_list(beside.typescript_clis)}."
    )


def _list(versions: Sequence[str]) -> str:
    return ", ".join(versions) if versions else "none (no bundled-CLI report)"


def matrix_section(beside: Beside) -> list[str]:
    """The Python matrix's lines pointing at the TypeScript matrix and at SDK-DIFFERENCES.md."""
    lines = [
        "",
        f"## The {TS.name}",
        "",
        f"`{TS.package}` has its own matrix, [{TS_FOLDER}/COMPATIBILITY.md]({TS_FOLDER}/COMPATIBILITY.md); "
        f"where it and `{PY.package}` disagree on one CLI: [{MD_NAME}]({MD_NAME}).",
        "",
    ]
    if not beside.pairs:
        return [*lines, md(no_shared_cli(beside))]
    return lines + [f"- {md(c.label)}: {md(c.count_line())}" for c in beside.pairs]


def python_above(folder: Path) -> bool:
    """Whether a TypeScript folder is the ts/ of a folder of (Python) reports."""
    folder = Path(folder)
    return folder.name == TS_FOLDER and any(folder.parent.glob("*.json"))


def python_above_line() -> str:
    """The TypeScript matrix's line pointing back at the Python matrix and the differences."""
    return (
        f"The {PY.name}'s matrix is [../COMPATIBILITY.md](../COMPATIBILITY.md); where the two SDKs "
        f"disagree on one CLI: [../{MD_NAME}](../{MD_NAME})."
    )
