"""Suite-wide guard: when the whole test run ends, nothing it started may still run; and the
one lock every test that builds this checkout with pip takes."""

import fcntl
import os
from contextlib import contextmanager

import pytest

from sdkprobe import scope
from sdkprobe.harness.processes import strays

# One scope for the whole test run, entered before xdist starts its workers (they inherit it):
# the guard below counts what this run started, not another run's on the same machine.
if "PYTEST_XDIST_WORKER" not in os.environ:
    scope.begin()


@pytest.fixture(scope="session", autouse=True)
def catalogue_loaded():
    """sdkprobe's own behaviours registered before any test swaps the registry for a toy one
    (monkeypatching behaviour.REGISTRY): a catalogue module first imported under the swap
    would register into the toy registry and be missing from every later load in the worker."""
    from sdkprobe import catalogue

    catalogue.load()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker; the controller checks once every worker is done
    left = strays()
    if left:
        session.config.get_terminal_writer().line(f"processes left behind by the test run: {left}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def checkout_build(tmp_path_factory):
    """A context in which this test alone builds the checkout: pip builds it in the tree's own
    build/, and two xdist workers building it at once collide there ("File exists:
    build/bdist.../sdkprobe-0.1.0.dist-info")."""

    @contextmanager
    def alone():
        with open(tmp_path_factory.getbasetemp().parent / "sdkprobe-build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    return alone


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
