"""The SDK under test, seen from one place: its version, its options, and one run of it.

Both tiers drive the SDK the same way (a `query()` or a `ClaudeSDKClient` turn) and
collect the same things: the messages it yielded, the exception it raised, the warnings
it emitted. What differs between the Python and the TypeScript SDK is the seam's
(under_test.SdkUnderTest); the functions here ask it. Old SDK versions lack options and
methods that new ones have; that surfaces as `OptionMissing`, which the runner reports as
not-applicable.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import os
import warnings
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import NotApplicable
from sdkprobe.harness import processes, under_test
from sdkprobe.harness.given import PermissionResultAllow
from sdkprobe.harness.under_test import Drive as Drive
from sdkprobe.harness.under_test import OptionMissing as OptionMissing
from sdkprobe.harness.under_test import RunSpec, SdkUnderTest
from sdkprobe.harness.under_test import Watch as Watch


class ProbeTimeout(Exception):
    """The SDK or its CLI did not finish within the probe's time."""


def sdk_version() -> str:
    """The version of the SDK under test (the TypeScript release's, when that is it)."""
    return under_test.current().version


def published_version() -> str:
    """The version the SDK under test was published as (its distribution's metadata), not the
    constant the SDK reads itself: a release whose _version.py went stale shows the two apart."""
    return under_test.current().published_version()


def sdk_name() -> str:
    """The package under test, as its users name it."""
    return under_test.current().name


def bundled_cli_version() -> str | None:
    return under_test.current().bundled_cli_version()


def bundled_cli_path() -> Path | None:
    return under_test.current().bundled_cli_path()


def option_fields() -> set[str]:
    """The options, by their Python names, the SDK under test can take."""
    return under_test.current().option_fields()


def typed_keys(name: str) -> list[str] | None:
    """The keys the SDK's TypedDict `claude_agent_sdk.types.NAME` declares, in order; None
    when this SDK version has no such type (a hook output newer than it)."""
    return under_test.current().typed_keys(name)


def session_functions() -> Any:
    """The SDK under test's session functions (get_session_info, rename_session, ...), as
    attributes named as in Python: the claude_agent_sdk module itself, or for a TypeScript
    release its own functions called through Node. A function the SDK lacks is absent
    (`getattr(..., name, None)` is None)."""
    return under_test.current().session_functions()


def message_fields(message: Any) -> dict[str, Any]:
    """A yielded message's (or content block's) fields by name, whichever SDK yielded it: a
    dataclass's fields, or what a message read from JSON gives as its fields (`as_fields`:
    every field as yielded, with the names the harness reads one level down)."""
    if dataclasses.is_dataclass(message) and not isinstance(message, type):
        return {f.name: getattr(message, f.name) for f in dataclasses.fields(message)}
    as_fields = getattr(message, "as_fields", None)
    if callable(as_fields):
        return dict(as_fields())
    return dict(vars(message)) if hasattr(message, "__dict__") else {}


def sdk_class(name: str) -> type | None:
    """The SDK under test's own Python class `name` (ProcessError, AgentDefinition,
    ClaudeSDKClient), None where it has none (a TypeScript release): what an exception is an
    instance of, or which keywords a class refuses, is asked of the SDK under test, never of
    the Python SDK installed beside it."""
    return under_test.current().own_class(name)


def lacks(requirement: str) -> str | None:
    """Why the SDK under test lacks `requirement` (written as a behaviour's `requires`:
    option:NAME, field:CLASS.NAME, api:NAME, package:NAME), or None when it has it: for a
    sub-check that needs more than its behaviour does."""
    from sdkprobe.requirements import Target, parse

    return parse(requirement).unmet(Target(under_test.current(), None))


@contextmanager
def config_dir_env(config: Path) -> Iterator[None]:
    """CLAUDE_CONFIG_DIR set to `config` in this process while SDK functions that read the
    CLI's files (list_sessions, get_session_messages, ...) run, the caller's value put back
    after: they take no directory argument. Safe because one probe runs at a time in a process."""
    old = os.environ.get("CLAUDE_CONFIG_DIR")
    os.environ["CLAUDE_CONFIG_DIR"] = str(config)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("CLAUDE_CONFIG_DIR", None)
        else:
            os.environ["CLAUDE_CONFIG_DIR"] = old


def make_options(**options: Any) -> Any:
    """The SDK under test's options from Python field names; OptionMissing for one it lacks.

    `agents` may be given as plain dicts (the Python SDK makes AgentDefinitions of them).
    """
    return under_test.current().make_options(**options)


@dataclass
class Outcome:
    """What the SDK gave back to its caller in one run."""

    messages: list[Any] = field(default_factory=list)
    exception: BaseException | None = None
    warnings: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    # The processes a TypeScript SDK spawned, as its driver saw them end ({pid, argv, returncode});
    # a Python SDK's children are watched in this process instead (processes.exits).
    children: list[dict[str, Any]] = field(default_factory=list)
    # Each message as the SDK yielded it, as JSON, in order, for an SDK whose messages are the
    # CLI's JSON objects (TypeScript's query()); None for one yielding objects of its own classes.
    as_json: list[dict[str, Any]] | None = None

    @property
    def error(self) -> str | None:
        """The exception as `Type: message`, or None."""
        if self.exception is None:
            return None
        return f"{type(self.exception).__name__}: {self.exception}"

    @property
    def error_line(self) -> str | None:
        """The first line of `error`: enough to name it, and a stored note stays one line."""
        return None if self.error is None else (self.error.splitlines() or [""])[0]

    def of_type(self, name: str) -> list[Any]:
        return [m for m in self.messages if type(m).__name__ == name]

    @property
    def result(self) -> Any:
        results = self.of_type("ResultMessage")
        return results[-1] if results else None


class OutcomeView:
    """What the SDK gave its caller, read through a run record that holds an `outcome`."""

    outcome: Outcome

    @property
    def messages(self) -> list[Any]:
        return self.outcome.messages

    @property
    def exception(self) -> BaseException | None:
        return self.outcome.exception

    @property
    def error(self) -> str | None:
        return self.outcome.error

    @property
    def error_line(self) -> str | None:
        return self.outcome.error_line

    @property
    def warnings(self) -> list[str]:
        return self.outcome.warnings

    @property
    def log(self) -> list[str]:
        """What the SDK logged at WARNING and above (version checks, task errors)."""
        return self.outcome.log

    @property
    def result(self) -> Any:
        return self.outcome.result

    @property
    def yielded_json(self) -> list[dict[str, Any]] | None:
        """Each message exactly as the SDK yielded it, as JSON, in order, never read into a
        class (the messages a TypeScript SDK's query() yields are such objects); None for an
        SDK that yields objects of its own classes (Python's)."""
        return self.outcome.as_json

    def of_type(self, name: str) -> list[Any]:
        return self.outcome.of_type(name)


async def allow_every_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
    """A can_use_tool that lets every call run: for probes where what matters is whether
    (and with what) the callback is asked; the cli tier records each call."""
    return PermissionResultAllow()


class _LogTap(logging.Handler):
    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(f"{record.levelname}: {record.getMessage()}")


async def run_sdk(
    options: Any,
    prompt: str | list[dict[str, Any]] | None,
    *,
    client: bool = False,
    drive: Drive | None = None,
    timeout: float,
    connect_prompt: bool = False,
    watch: Watch | None = None,
    startup: dict[str, Any] | None = None,
    warmed: Callable[[], None] | None = None,
    under: SdkUnderTest | None = None,
) -> Outcome:
    """Run one query() (or ClaudeSDKClient session) and collect what came back.

    `prompt` as a list of dicts is sent as an async iterable. With `client=True`,
    `drive(client, outcome)` may do anything with the connected client and record what
    it reads into `outcome.messages`; by default it sends `prompt` and reads one
    response. With `connect_prompt` the client is connected with `prompt` instead
    (`ClaudeSDKClient.connect(prompt)`, a list sent as an iterable that then ends) and
    `drive`, or else one receive_response(), reads what comes. `watch` sees each message
    a query() run yields at the moment it is yielded (to act at a point of the stream,
    e.g. release a held model stream once the result has come). With `startup` (the
    parameters of the SDK's startup() but its options) the CLI is pre-warmed first and the
    query is the warm handle's, `warmed()` called in between; an SDK without startup() makes
    the run not-applicable. A run longer than
    `timeout` raises ProbeTimeout. `under` is the SDK that runs it (the one under test by
    default), which took `options` from its own make_options.

    The CLI's exit status reaches the SDK from asyncio's child watcher alone: see
    `processes.track_exits`, without which an old Python can hand the SDK 255 instead.
    """
    processes.track_exits()
    under = under or under_test.current()
    lacking = None if startup is None else under.unmet("api", "startup")
    if lacking is not None:
        raise NotApplicable(lacking)
    out = Outcome()
    tap = _LogTap(out.log)
    logger = logging.getLogger("claude_agent_sdk")
    logger.addHandler(tap)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                spec = RunSpec(
                    prompt,
                    client=client,
                    drive=drive,
                    connect_prompt=connect_prompt,
                    watch=watch,
                    startup=startup,
                    warmed=warmed,
                )
                run = under.run(options, spec, out)
                await _within(run, timeout)
            except asyncio.TimeoutError:
                raise ProbeTimeout(
                    f"the SDK did not finish within {timeout:g} s ({len(out.messages)} messages received)"
                ) from None
            except Exception as exc:  # what the SDK raises is a finding, not a harness failure
                out.exception = exc
        out.warnings = [f"{w.category.__name__}: {w.message}" for w in caught]
    finally:
        logger.removeHandler(tap)
    return out


_CANCEL_GRACE = 5.0  # seconds a timed-out run may take to unwind before it is left behind


async def _within(run: Awaitable[None], timeout: float) -> None:
    """`run`, or asyncio.TimeoutError after `timeout` seconds.

    Unlike asyncio.wait_for, a run that does not unwind when cancelled (a hung SDK whose
    cleanup waits on the same stuck stream) is left behind after a short grace rather
    than awaited for ever; the caller then ends the CLI, which lets it finish.
    """
    task = asyncio.ensure_future(run)
    done, _ = await asyncio.wait({task}, timeout=timeout)
    if task in done:
        task.result()
        return
    task.cancel()
    await asyncio.wait({task}, timeout=_CANCEL_GRACE)
    raise asyncio.TimeoutError


@functools.lru_cache(maxsize=8)
def cli_version(cli_path: str | None = None) -> str | None:
    """The version of the CLI under test: the bundled one's, or what `--cli PATH --version` says.

    The one place that answers this; reports, requirements and sessions all ask here.
    """
    if cli_path is None:
        return bundled_cli_version()
    import subprocess

    try:
        out = subprocess.run([cli_path, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.split()[0] if out.split() else None
