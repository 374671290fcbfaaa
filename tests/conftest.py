"""Suite-wide guard: when the whole test run ends, nothing it started may still run."""

import pytest

from probes.harness.processes import strays


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker; the controller checks once every worker is done
    left = strays()
    if left:
        session.config.get_terminal_writer().line(f"processes left behind by the test run: {left}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
