"""pytest integration: one parametrised check per behaviour, compared with its report entry.

A test that asks for the `behaviour` fixture runs once per declared behaviour (`pytest -k
<id>` picks one). `report_snapshot` compares with, and `--snapshot-update` rewrites, that
behaviour's entry in the installed SDK version's report under reports/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from sdkprobe import catalogue
from sdkprobe.harness import Harness, Space, sdk
from sdkprobe.report.snapshot import ReportSnapshot

REPORTS = Path(__file__).resolve().parent.parent / "reports"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "behaviour" in metafunc.fixturenames:
        behaviours = catalogue.load()
        metafunc.parametrize("behaviour", behaviours, ids=[b.id for b in behaviours])


def installed_report() -> Path:
    """The committed report of the installed SDK version with its bundled CLI."""
    return REPORTS / f"{sdk.sdk_version()}.json"


def _new_report() -> dict[str, Any]:
    from sdkprobe.report.model import build
    from sdkprobe.runner import RunSettings, run_info

    return build([], run_info(RunSettings()))


@pytest.fixture
def report_snapshot(snapshot: SnapshotAssertion, request: pytest.FixtureRequest) -> SnapshotAssertion:
    extension = ReportSnapshot.bound(installed_report(), request.node.originalname, _new_report)
    return snapshot.use_extension(extension)


@pytest.fixture
def space() -> Iterator[Space]:
    with Space.create() as s:
        yield s


@pytest.fixture
def harness(space: Space) -> Harness:
    return Harness(space)
