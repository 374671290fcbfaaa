"""Every behaviour, checked on the installed SDK: it must decide (never `error`), and
its verdict and normalised observation must match what was recorded for this version."""

from probes.behaviour import ERROR, NEEDS_LIVE
from probes.runner import RunSettings, run_one


def test_behaviour(behaviour, version_snapshot):
    result = run_one(behaviour, RunSettings())
    assert result.verdict != ERROR, result.note
    if behaviour.tier == "live":
        assert result.verdict == NEEDS_LIVE  # tests never go live
    assert result.to_dict() == version_snapshot
