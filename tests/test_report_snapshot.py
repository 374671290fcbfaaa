"""The report is the snapshot store: pytest compares with a version's report entries, and
--snapshot-update rewrites just those entries, leaving the header and other reports alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sample_reports import info, report, result

from sdkprobe.report.store import dumps, load

pytest_plugins = ["pytester"]

INNER = """
import json
from pathlib import Path

import pytest

from sdkprobe.report.model import build
from sdkprobe.report.snapshot import ReportSnapshot

ENTRIES = json.loads(Path("entries.json").read_text())


def header():
    return build([], {{"sdk_version": "9.9.9", "cli_version": "0.0.1", "cli": "bundled", "python": "new",
                       "platform": "new"}})


@pytest.fixture
def report_snapshot(snapshot, request):
    return snapshot.use_extension(ReportSnapshot.bound(Path({path!r}), request.node.originalname, header))


@pytest.mark.parametrize("bid", sorted(ENTRIES))
def test_entry(bid, report_snapshot):
    assert ENTRIES[bid] == report_snapshot
"""


@pytest.fixture
def toy(pytester: pytest.Pytester, monkeypatch):
    """A reports folder with this version's report (two entries) and another version's.

    The inner run is a plain session even when this one is an xdist worker (syrupy leaves
    unused snapshots to the controller when it believes it is a worker)."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    reports = pytester.path / "reports"
    reports.mkdir()
    entries = {"wire.a": result("wire.a", observed={"n": 1}), "wire.b": result("wire.b", "differs", "saw 2")}
    (reports / "9.9.9.json").write_text(dumps(report(list(entries.values()), info(sdk="9.9.9", python="3.11.7"))))
    (reports / "1.0.0.json").write_text(dumps(report([result("wire.a")], info(sdk="1.0.0"))))
    pytester.makepyfile(test_inner=INNER.format(path=str(reports / "9.9.9.json")))

    def run(current: dict, *args: str) -> pytest.RunResult:
        (pytester.path / "entries.json").write_text(json.dumps(current))
        return pytester.runpytest("-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function", *args)

    return reports, entries, run


def test_a_result_equal_to_its_entry_passes(toy):
    reports, entries, run = toy
    run(entries).assert_outcomes(passed=2)


def test_a_moved_observation_fails_and_the_report_is_untouched(toy):
    reports, entries, run = toy
    before = (reports / "9.9.9.json").read_bytes()
    out = run({**entries, "wire.a": result("wire.a", observed={"n": 2})})
    out.assert_outcomes(passed=1, failed=1)
    assert (reports / "9.9.9.json").read_bytes() == before


def test_snapshot_update_rewrites_entries_only(toy):
    reports, entries, run = toy
    other = (reports / "1.0.0.json").read_bytes()
    moved = result("wire.a", "differs", "now it differs", observed={"n": 2})
    run({**entries, "wire.a": moved}, "--snapshot-update").assert_outcomes(passed=2)
    updated = load(reports / "9.9.9.json")
    assert {b["id"]: b for b in updated["behaviours"]}["wire.a"] == moved
    assert updated["python"] == "3.11.7"  # the header is the report's own, not the run's
    assert (reports / "1.0.0.json").read_bytes() == other
    assert "now it differs" in (reports / "9.9.9.md").read_text()
    run({**entries, "wire.a": moved}).assert_outcomes(passed=2)


def test_new_entries_are_added_and_dropped_behaviours_removed_on_update(toy):
    reports, entries, run = toy
    now = {"wire.a": entries["wire.a"], "wire.c": result("wire.c")}
    run(now).assert_outcomes(passed=1, failed=1)  # wire.c is not recorded yet
    run(now, "--snapshot-update").assert_outcomes(passed=2)
    assert [b["id"] for b in load(reports / "9.9.9.json")["behaviours"]] == ["wire.a", "wire.c"]


def test_an_update_of_a_selection_keeps_the_entries_it_did_not_run(toy):
    reports, entries, run = toy
    run(entries, "--snapshot-update", "-k", "wire.a").assert_outcomes(passed=1)
    assert [b["id"] for b in load(reports / "9.9.9.json")["behaviours"]] == ["wire.a", "wire.b"]


def test_an_update_without_a_report_creates_one_from_the_runs_header(toy):
    reports, entries, run = toy
    (reports / "9.9.9.json").unlink()
    run(entries, "--snapshot-update").assert_outcomes(passed=2)
    created = load(reports / "9.9.9.json")
    assert created["python"] == "new" and len(created["behaviours"]) == 2
    assert sorted(p.name for p in Path(reports).iterdir()) == ["1.0.0.json", "9.9.9.json", "9.9.9.md"]
