"""Every behaviour, checked on the installed SDK, and every decision shown able to fail.

A probe must decide (never `error`; tests never go live), and its result must equal the
entry recorded in the installed version's report (reports/<version>.json): a `differs`
that matches is a recorded finding, not a failure. A version with no report yet has
nothing to regress against and is skipped with a note on how to record it.
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

import pytest

from sdkprobe import catalogue
from sdkprobe.behaviour import DIFFERS, ERROR, HOLDS, NEEDS_LIVE, NOT_APPLICABLE, Behaviour
from sdkprobe.pytest_plugin import installed_report, reports_dir
from sdkprobe.report.store import load
from sdkprobe.result import Result
from sdkprobe.runner import RunSettings, judge, run_one


def result_of(behaviour: Behaviour) -> Result:
    return _result_of(behaviour.id)


@functools.cache
def _result_of(bid: str) -> Result:
    """One run per behaviour, shared by the checks that read it."""
    return run_one(catalogue.by_id(bid), RunSettings())


def test_behaviour_decides(behaviour):
    result = result_of(behaviour)
    assert result.verdict != ERROR, result.note
    if behaviour.tier == "live":
        assert result.verdict == NEEDS_LIVE


def test_behaviour_matches_its_report(behaviour, report_snapshot, request):
    if not installed_report().is_file() and not request.config.option.update_snapshots:
        pytest.skip(
            f"no report for this SDK version ({installed_report().name}); "
            "record it with: pytest tests/test_behaviours.py --snapshot-update"
        )
    assert result_of(behaviour).to_dict() == report_snapshot


def test_decision_can_fail(behaviour):
    """Handed each declared counterexample, the decision says differs, naming values;
    together they make every sub-check differ at least once, except those declared
    `cannot_decide`, which must then never be decided. A behaviour whose every sub-check is
    `cannot_decide` (a Node-only claim) has nothing that could differ: it declares no
    counterexample, and its decision decides nothing on the observation its probe makes."""
    if set(behaviour.cannot_decide) == set(behaviour.checks):
        assert not behaviour.counterexamples, f"{behaviour.id} can decide nothing, yet declares a counterexample"
        v = behaviour.judge(asyncio.run(behaviour.probe(None)))
        assert v.verdict in (NEEDS_LIVE, NOT_APPLICABLE) and v.note.strip(), v
        return
    assert behaviour.counterexamples, f"{behaviour.id} declares no observation it differs on (differs_on)"
    made_to_differ = set()
    for observed in behaviour.counterexamples:
        v = behaviour.judge(observed)
        assert v.verdict == DIFFERS, (observed, v)
        assert v.note.strip()
        made_to_differ |= {name for name, verdict in v.checks.items() if verdict == DIFFERS}
        assert all(v.checks[name] in (NEEDS_LIVE, NOT_APPLICABLE) for name in behaviour.cannot_decide), v.checks
    assert made_to_differ == set(behaviour.checks) - set(behaviour.cannot_decide)


def test_each_pin_is_a_sub_check_a_counterexample_makes_differ(behaviour):
    """An item a behaviour says it pins is covered only when its sub-check notices a change:
    some counterexample makes that very sub-check differ (`pinned` drops it otherwise, and the
    surface would count the item uncovered without saying why)."""
    shown = behaviour.shown_differing()
    unproven = {name: items for name, items in behaviour.pins.items() if name not in shown}
    assert not unproven, f"{behaviour.id}: no counterexample makes these pinning sub-checks differ: {unproven}"
    assert set(behaviour.covered) == {item for items in behaviour.pins.values() for item in items}


def _stored() -> list:
    """Every decided entry of every committed report, each report read once (at collection:
    reading and validating them is most of this module's collection time)."""
    known = {b.id for b in catalogue.load()}
    renames = catalogue.renames()  # a report from before a rename names the old id: judged as the new one
    return [
        pytest.param(path.stem, entry, id=f"{path.stem}-{entry['id']}")
        for path in sorted(reports_dir().glob("*.json"))
        for entry in load(path)["behaviours"]
        if renames.get(entry["id"], entry["id"]) in known and entry["verdict"] in (HOLDS, DIFFERS)
    ]


@pytest.mark.parametrize(("version", "entry"), _stored())
def test_stored_observation_judges_the_same(version: str, entry: dict) -> None:
    """A committed report can be judged again without running anything, and gives what it says."""
    v = judge(catalogue.by_id(entry["id"]), entry["observed"])
    assert (v.verdict, v.note, v.checks) == (entry["verdict"], entry["note"], entry["checks"]), Path(version)
