"""Writes and reads report files.

Writing is canonical (sorted keys, two-space indent, UTF-8, one trailing newline,
behaviours in id order) so the same run gives byte-identical files and a version's
drift is a plain diff. Reading validates, so callers get a usable report or one line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sdkprobe.report.errors import ReportError
from sdkprobe.report.files import check_writable, write_atomic
from sdkprobe.report.leaks import find_leaks
from sdkprobe.report.schema import validate


def dumps(report: dict[str, Any]) -> str:
    """The canonical JSON text of a report."""
    ordered = {**report, "behaviours": sorted(report["behaviours"], key=lambda b: b["id"])}
    try:
        return json.dumps(ordered, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError as exc:  # NaN or infinity in an observation: not JSON
        raise ReportError(f"report for {report.get('sdk_version')}: {exc}") from None


def file_stem(report: dict[str, Any]) -> str:
    """`0.2.189` for the bundled CLI; `0.2.189+cli-2.1.321` for a run with --cli, so a
    report of another CLI never overwrites the one of the SDK as shipped."""
    if report.get("cli") == "custom":
        return f"{report['sdk_version']}+cli-{report.get('cli_version') or 'unknown'}"
    return str(report["sdk_version"])


def paths(out_dir: Path, stem: str) -> tuple[Path, Path]:
    """The .json and .md files of the report named `stem` in out_dir."""
    return Path(out_dir) / f"{stem}.json", Path(out_dir) / f"{stem}.md"


def check_destination(out_dir: Path, stem: str) -> None:
    """ReportError (one line) unless the report named `stem` can be written into out_dir."""
    for path in paths(out_dir, stem):
        check_writable(path)


def write(report: dict[str, Any], out_dir: Path) -> tuple[Path, Path]:
    """Write <file_stem>.json and .md into out_dir, each whole or not at all; refuse a report
    that leaks a path or key."""
    from sdkprobe.report.cells import project_from
    from sdkprobe.report.render import render_page

    validate(report, where=f"report for {report.get('sdk_version')}")
    leaks = find_leaks(report)
    if leaks:
        more = f" (and {len(leaks) - 1} more)" if len(leaks) > 1 else ""
        raise ReportError(
            f"refusing to write report for {report['sdk_version']}: machine path or key at {leaks[0]}{more}"
        )
    text = dumps(report)
    canonical = json.loads(text)
    json_path, md_path = paths(out_dir, file_stem(report))
    write_atomic(json_path, text.encode("utf-8"))
    write_atomic(md_path, render_page(canonical, project_from(out_dir)).encode("utf-8"))
    return json_path, md_path


def merge(existing: dict[str, Any], fresh: dict[str, Any]) -> dict[str, Any]:
    """`existing` with the entries of `fresh` put in (added, or replacing the same ids).

    For adding or re-probing a few behaviours on a version without running them all. Both
    must come from the same run conditions, or the report would mix two provenances.
    """
    check_mergeable(existing, fresh)
    entries = {b["id"]: b for b in existing["behaviours"]}
    entries.update({b["id"]: b for b in fresh["behaviours"]})
    surface = {"surface": fresh["surface"]} if "surface" in fresh else {}  # the same version's, as seen now
    return {**existing, **surface, "behaviours": sorted(entries.values(), key=lambda b: str(b["id"]))}


def renamed(report: dict[str, Any], renames: Mapping[str, str]) -> dict[str, Any]:
    """`report` with every entry of an old id (a key of `renames`, old -> current) under its
    current id, its area going with it; where the report has both, the current id's entry is
    kept. How a report written before a behaviour was renamed reads as one written after."""
    if not any(b["id"] in renames for b in report["behaviours"]):
        return report
    entries: dict[str, dict[str, Any]] = {}
    for b in sorted(report["behaviours"], key=lambda b: b["id"] in renames):  # current ids first
        current = renames.get(b["id"], b["id"])
        entries.setdefault(current, {**b, "id": current, "area": current.split(".", 1)[0]})
    return {**report, "behaviours": sorted(entries.values(), key=lambda b: str(b["id"]))}


def renamed_in(report: dict[str, Any], renames: Mapping[str, str]) -> dict[str, str]:
    """The old ids `report` names, each with its current id."""
    return {b["id"]: renames[b["id"]] for b in report["behaviours"] if b["id"] in renames}


def check_mergeable(existing: dict[str, Any], info: dict[str, Any]) -> None:
    """ReportError unless a run of these conditions (a report's header, or `run_info`) may be
    merged into `existing`."""
    fields = ("sdk", "sdk_version", "cli_version", "cli", "python", "node", "platform")
    moved = [k for k in fields if existing.get(k) != info.get(k)]
    if moved:
        k = moved[0]
        raise ReportError(
            f"cannot merge into the report of {existing['sdk_version']}: its {k} is {existing[k]!r}, "
            f"this run's {info[k]!r}; run every behaviour instead"
        )


def load(path: Path) -> dict[str, Any]:
    """A validated report from a file; ReportError (one line) if it is missing or malformed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such report file") from None
    except IsADirectoryError:
        raise ReportError(f"{path}: is a folder, not a report file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportError(f"{path}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    validate(data, where=str(path))
    report: dict[str, Any] = data
    return report
