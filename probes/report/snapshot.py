"""A syrupy extension whose snapshot store is a version's report, `reports/<version>.json`.

The report is the one record of what each behaviour observed on each version: the
parametrised pytest check compares a fresh result with its entry there, and
`pytest --snapshot-update` rewrites just the entries (and the report's Markdown page),
leaving the report's header and every other version's report as they are.

Snapshot names are pytest's own (`test_x[<behaviour id>]`), so syrupy's bookkeeping of
used and unused snapshots works unchanged; an entry is found by the id in brackets.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from syrupy.data import Snapshot, SnapshotCollection, SnapshotCollections
from syrupy.extensions.base import AbstractSyrupyExtension
from syrupy.location import PyTestLocation
from syrupy.types import SerializableData, SerializedData, SnapshotIndex

from sdkprobe.report.store import load, write

_BRACKETED = re.compile(r"\[(?P<id>[^\[\]]+)\]$")


def entry_text(entry: dict[str, Any]) -> str:
    """A report entry as the text both sides of the comparison are serialised to."""
    return json.dumps(entry, sort_keys=True, indent=2, ensure_ascii=False)


class ReportSnapshot(AbstractSyrupyExtension):
    """Bind with `bound(report_path, test_name, new_report)`: the report, the name of the
    test whose parametrised snapshots it holds, and the header of a report that does not
    exist yet (only --snapshot-update creates one)."""

    file_extension = "json"
    report_path: Path
    test_name: str
    new_report: Callable[[], dict[str, Any]]

    @classmethod
    def bound(cls, report_path: Path, test_name: str, new_report: Callable[[], dict[str, Any]]) -> type[ReportSnapshot]:
        attrs = {"report_path": Path(report_path), "test_name": test_name, "new_report": staticmethod(new_report)}
        return type("ReportSnapshot", (cls,), attrs)

    # --- where -------------------------------------------------------------------
    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(cls.report_path.parent)

    @classmethod
    def get_location(cls, *, test_location: PyTestLocation, index: SnapshotIndex) -> str:
        return str(cls.report_path)

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        return Path(snapshot_location) == cls.report_path

    def discover_snapshots(
        self, *, test_location: PyTestLocation, ignore_extensions: list[str] | None = None
    ) -> SnapshotCollections:
        """Only this version's report: no other file in reports/ is ever a snapshot."""
        found = SnapshotCollections()
        if self.report_path.is_file():
            found.add(self.read_snapshot_collection(snapshot_location=str(self.report_path)))
        return found

    # --- reading -----------------------------------------------------------------
    def serialize(self, data: SerializableData, **kwargs: Any) -> SerializedData:
        return entry_text(data)

    def read_snapshot_collection(self, *, snapshot_location: str) -> SnapshotCollection:
        collection = SnapshotCollection(location=snapshot_location)
        for entry in load(Path(snapshot_location))["behaviours"]:
            collection.add(Snapshot(name=self._name(entry["id"]), data=entry_text(entry)))
        return collection

    def read_snapshot_data_from_location(
        self, *, snapshot_location: str, snapshot_name: str, session_id: str
    ) -> SerializedData | None:
        if not Path(snapshot_location).is_file():
            return None
        bid = _id_of(snapshot_name)
        for entry in load(Path(snapshot_location))["behaviours"]:
            if entry["id"] == bid:
                return entry_text(entry)
        return None

    @classmethod
    def _name(cls, bid: str) -> str:
        return f"{cls.test_name}[{bid}]"

    # --- writing -----------------------------------------------------------------
    @classmethod
    def write_snapshot_collection(
        cls, *, snapshot_collection: SnapshotCollection, name_order: dict[str, int] | None = None
    ) -> None:
        updates = {_id_of(s.name): json.loads(str(s.data)) for s in snapshot_collection}
        with cls._locked() as report:
            entries = {b["id"]: b for b in report["behaviours"]}
            entries.update(updates)
            report["behaviours"] = list(entries.values())
            write(report, cls.report_path.parent)

    def delete_snapshots(self, *, snapshot_location: str, snapshot_names: set[str]) -> None:
        gone = {_id_of(n) for n in snapshot_names}
        with self._locked() as report:
            report["behaviours"] = [b for b in report["behaviours"] if b["id"] not in gone]
            write(report, self.report_path.parent)

    @classmethod
    @contextmanager
    def _locked(cls) -> Iterator[dict[str, Any]]:
        """The report, read and written under a lock: pytest-xdist workers write at once."""
        folder = cls.report_path.parent
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)  # the folder is the lock: nothing is left behind
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield load(cls.report_path) if cls.report_path.is_file() else cls.new_report()
        finally:
            os.close(fd)


def _id_of(snapshot_name: str) -> str:
    m = _BRACKETED.search(snapshot_name)
    if not m:
        raise ValueError(f"snapshot {snapshot_name!r} names no behaviour id in brackets")
    return m.group("id")
