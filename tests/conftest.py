"""Suite-wide guard: when the whole test run ends, nothing it started may still run."""

import os

import pytest

from sdkprobe import scope
from sdkprobe.harness.processes import strays

# One scope for the whole test run, entered before xdist starts its workers (they inherit it):
# the guard below counts what this run started, not another run's on the same machine.
if "PYTEST_XDIST_WORKER" not in os.environ:
    scope.begin()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker; the controller checks once every worker is done
    left = strays()
    if left:
        session.config.get_terminal_writer().line(f"processes left behind by the test run: {left}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def double():
    """make(script) -> a started ModelDouble; every one made is stopped after the test."""
    from sdkprobe.harness.model_double import ModelDouble

    started: list[ModelDouble] = []

    def make(script=None) -> ModelDouble:
        started.append(ModelDouble(script).start())
        return started[-1]

    yield make
    for d in started:
        d.stop()
