"""pytest integration: one parametrised check per behaviour, snapshots per SDK version.

A test that asks for the `behaviour` fixture is run once per declared behaviour. The
`version_snapshot` fixture stores observations under
`tests/__snapshots__/sdk-<version>/`, so a version that was recorded is a regression
test and a new version shows exactly what moved.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from probes.behaviour import all_behaviours
from probes.harness import Harness, Space
from probes.harness import sdk as sdk_info


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "behaviour" in metafunc.fixturenames:
        behaviours = all_behaviours()
        metafunc.parametrize("behaviour", behaviours, ids=[b.id for b in behaviours])


class VersionSnapshot(JSONSnapshotExtension):
    """JSON snapshots kept in one folder per installed SDK version."""

    @classmethod
    def dirname(cls, *, test_location) -> str:
        base = Path(test_location.filepath).parent / "__snapshots__" / f"sdk-{sdk_info.sdk_version()}"
        return str(base / test_location.basename)


@pytest.fixture
def version_snapshot(snapshot):
    return snapshot.use_extension(VersionSnapshot)


@pytest.fixture
def space():
    with Space.create() as s:
        yield s


@pytest.fixture
def harness(space):
    return Harness(space)
