"""pytest integration: one parametrised check per behaviour, snapshots per SDK version.

A test that asks for the `behaviour` fixture is run once per declared behaviour. The
`version_snapshot` fixture stores observations under
`tests/snapshots/sdk-<version>/`, so a version that was recorded is a regression
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

    @staticmethod
    def folder() -> Path:
        return Path(__file__).resolve().parent.parent / "tests" / "snapshots" / f"sdk-{sdk_info.sdk_version()}"

    @classmethod
    def recorded(cls) -> bool:
        """Whether snapshots were ever recorded for the installed SDK version."""
        return cls.folder().is_dir()

    @classmethod
    def dirname(cls, *, test_location) -> str:
        return str(cls.folder() / test_location.basename)

    @classmethod
    def discovery_dirname(cls, *, test_location) -> str:
        # Only this version's folder: --snapshot-update must not prune other versions.
        return cls.dirname(test_location=test_location)


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
