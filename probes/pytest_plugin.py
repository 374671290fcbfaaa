"""pytest integration (the `pytest11` entry point `sdkprobe`): one parametrised check per
behaviour, compared with its report entry.

A test that asks for the `behaviour` fixture runs once per selected behaviour (`pytest -k
<id>` picks one). `report_snapshot` compares with, and `--snapshot-update` rewrites, that
behaviour's entry in the installed SDK version's report in the project's reports folder.
A project chooses, in its pytest configuration or on the command line:

    sdkprobe_reports = reports            --sdkprobe-reports DIR   (relative to the rootdir)
    sdkprobe_catalogue = myapp.behaviours --sdkprobe-catalogue MODULE (may repeat)
    sdkprobe_builtin = false              --sdkprobe-no-builtin    (leave sdkprobe's own out)

A test run that asks for none of these fixtures is untouched by the plugin.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sdkprobe import catalogue
from sdkprobe.harness import Harness, Space, sdk

_reports: list[Path] = []  # the folder chosen at configure time (one per pytest process)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sdkprobe")
    group.addoption("--sdkprobe-reports", metavar="DIR", help="the reports folder (default: the ini value)")
    group.addoption("--sdkprobe-catalogue", action="append", default=[], metavar="MODULE", help="also these behaviours")
    group.addoption("--sdkprobe-no-builtin", action="store_true", help="leave sdkprobe's own behaviours out")
    parser.addini("sdkprobe_reports", "the reports folder, relative to the rootdir", default="reports")
    parser.addini("sdkprobe_catalogue", "modules of behaviours to load besides sdkprobe's", type="linelist")
    parser.addini("sdkprobe_builtin", "load sdkprobe's own behaviours", type="bool", default=True)


def pytest_configure(config: pytest.Config) -> None:
    given = config.getoption("sdkprobe_reports")
    reports = Path(given) if given else config.rootpath / str(config.getini("sdkprobe_reports"))
    _reports[:] = [reports if reports.is_absolute() else Path.cwd() / reports]
    modules = [*config.getini("sdkprobe_catalogue"), *config.getoption("sdkprobe_catalogue")]
    builtin = bool(config.getini("sdkprobe_builtin")) and not config.getoption("sdkprobe_no_builtin")
    if modules or not builtin:
        catalogue.configure(modules, builtin=builtin)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "behaviour" in metafunc.fixturenames:
        behaviours = catalogue.load()
        metafunc.parametrize("behaviour", behaviours, ids=[b.id for b in behaviours])


def reports_dir() -> Path:
    """The project's reports folder, as configured (its rootdir's reports/ by default)."""
    return _reports[0] if _reports else Path.cwd() / "reports"


def installed_report() -> Path:
    """The project's report of the installed SDK version with its bundled CLI."""
    return reports_dir() / f"{sdk.sdk_version()}.json"


def _new_report() -> dict[str, Any]:
    from sdkprobe.report.model import build
    from sdkprobe.runner import RunSettings, run_info

    return build([], run_info(RunSettings()))


@pytest.fixture
def report_snapshot(request: pytest.FixtureRequest) -> Any:
    """syrupy's `snapshot`, stored in the installed version's report (syrupy comes with
    `pip install sdkprobe[pytest]`; a project that never asks for this fixture needs none of it)."""
    try:
        from sdkprobe.report.snapshot import ReportSnapshot
    except ImportError as exc:
        pytest.fail(f"report_snapshot needs syrupy ({exc}): pip install 'sdkprobe[pytest]'", pytrace=False)
    extension = ReportSnapshot.bound(installed_report(), request.node.originalname, _new_report)
    return request.getfixturevalue("snapshot").use_extension(extension)


@pytest.fixture
def space() -> Iterator[Space]:
    with Space.create() as s:
        yield s


@pytest.fixture
def harness(space: Space) -> Harness:
    return Harness(space)
