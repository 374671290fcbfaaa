"""Every behaviour, checked on the installed SDK.

Each must decide (never `error`; tests never go live), and its verdict and normalised
observation must match what was recorded for this SDK version under
`tests/snapshots/sdk-<version>/`. A version nobody recorded yet has nothing to
regress against: its snapshot check is skipped with a note on how to record it.
"""

import functools

import pytest

from probes.behaviour import ERROR, NEEDS_LIVE
from probes.harness import sdk as sdk_info
from probes.pytest_plugin import VersionSnapshot
from probes.runner import RunSettings, run_one


@functools.cache
def result_of(behaviour):
    return run_one(behaviour, RunSettings())


def test_behaviour_decides(behaviour):
    result = result_of(behaviour)
    assert result.verdict != ERROR, result.note
    if behaviour.tier == "live":
        assert result.verdict == NEEDS_LIVE


def test_behaviour_matches_its_snapshot(behaviour, version_snapshot, request):
    if not VersionSnapshot.recorded() and not request.config.option.update_snapshots:
        pytest.skip(
            f"no snapshots recorded for claude-agent-sdk {sdk_info.sdk_version()}; "
            "record them with: pytest tests/test_behaviours.py --snapshot-update"
        )
    assert result_of(behaviour).to_dict() == version_snapshot
