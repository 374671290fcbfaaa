"""The SDK a run puts under test, and the one seam through which the harness reaches it.

`sdkprobe run --sdk ts@0.3.333` installs that release into the cache and sets SDKPROBE_SDK
for the run, so its worker processes make the same choice. `current()` turns the choice
into an `SdkUnderTest`, a Python one (python_sdk.PythonSdk) or a TypeScript one
(typescript.sdk_under_test.TypeScriptSdk); everything the harness needs to know or do that
differs between the two is a method here, so no other part of it asks which SDK it is.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import NotApplicable

VARIABLE = "SDKPROBE_SDK"
PYTHON = "python"
TYPESCRIPT = "ts"


class SdkChoiceError(ValueError):
    """SDKPROBE_SDK names no SDK sdkprobe can drive, or a release not installed."""


class OptionMissing(NotApplicable):
    """The SDK under test has no such option: the one error for it, raised before anything
    starts, whoever asks (a probe's call, the harness's own options, `sdkprobe capture`).
    `names` are the options it lacks, so that the runner can tell one a behaviour declared
    (not-applicable) from one it did not (an error of the probe)."""

    def __init__(self, why: str, names: Iterable[str] = ()) -> None:
        super().__init__(why)
        self.names = tuple(names)


def spelling() -> str:
    """The choice as given: "python" (the default) or "ts@VERSION"."""
    return os.environ.get(VARIABLE) or PYTHON


def parse(text: str) -> tuple[str, str | None]:
    """("python", None) or ("ts", "0.3.333") from a choice's spelling; SdkChoiceError otherwise."""
    if text in ("python", "py"):
        return PYTHON, None
    kind, _, version = text.partition("@")
    if kind in ("ts", "typescript") and version:
        return TYPESCRIPT, version
    raise SdkChoiceError(f"--sdk {text!r}: expected python or ts@VERSION (e.g. ts@0.3.333)")


def is_typescript() -> bool:
    """Whether the choice names a TypeScript release (for the commands that file its report)."""
    return parse(spelling())[0] == TYPESCRIPT


def current() -> SdkUnderTest:
    """The SDK under test for this process, as SDKPROBE_SDK names it."""
    return _for(spelling())


@lru_cache(maxsize=4)
def _for(choice: str) -> SdkUnderTest:
    kind, version = parse(choice)
    if kind == PYTHON or version is None:
        import claude_agent_sdk

        from sdkprobe.harness.python_sdk import PythonSdk

        return PythonSdk(claude_agent_sdk)
    from sdkprobe.harness.typescript.sdk_under_test import TypeScriptSdk
    from sdkprobe.releases import ts_sdk

    release = ts_sdk.installed(version)
    if release is None:
        raise SdkChoiceError(
            f"TypeScript SDK {version} is not installed in the cache (sdkprobe run --sdk ts@{version})"
        )
    return TypeScriptSdk(release)


Drive = Callable[[Any, Any], Awaitable[None]]  # (client, sdk.Outcome) -> None
Watch = Callable[[Any], None]  # called with each message a query() run yields, as it is yielded


@dataclass(frozen=True)
class RunSpec:
    """One run as sdk.run_sdk was asked for it (see there)."""

    prompt: str | list[dict[str, Any]] | None
    client: bool = False
    drive: Drive | None = None
    connect_prompt: bool = False
    watch: Watch | None = None
    startup: dict[str, Any] | None = None  # pre-warm the CLI with startup(these parameters) first
    warmed: Callable[[], None] | None = None  # called once startup() has resolved


class SdkUnderTest(ABC):
    """One SDK as the harness drives it. Probes speak the Python SDK's terms (option and
    method names; what they give it, a HookMatcher or a PermissionResultAllow, in the harness's
    types of those names, given.py); an implementation takes them to its SDK and hands back
    what that SDK gave in the same terms."""

    name: str  # the package as its users name it
    env_is_whole: bool  # `env` is the CLI's whole environment (TypeScript), not variables added (Python)

    @property
    @abstractmethod
    def version(self) -> str: ...

    def published_version(self) -> str:
        """The version it was published as (its package's metadata); `version` unless the SDK
        also carries a constant of its own that may disagree."""
        return self.version

    @abstractmethod
    def bundled_cli_version(self) -> str | None: ...

    @abstractmethod
    def bundled_cli_path(self) -> Path | None: ...

    def cli(self, cli_path: str | os.PathLike[str] | None) -> Path:
        """The CLI a session runs: `cli_path` when given, else the bundled one;
        NotApplicable when there is none."""
        cli = Path(cli_path) if cli_path else self.bundled_cli_path()
        if cli is None:
            raise NotApplicable(f"{self.name} {self.version} bundles no CLI; give one with --cli")
        return cli

    # --- options ------------------------------------------------------------------------

    @abstractmethod
    def option_fields(self) -> set[str]:
        """The options, by their Python names, this SDK can take."""

    def lacking_options(self, names: Iterable[str]) -> list[str]:
        """Those of `names` this SDK cannot take, sorted: the one place an option's existence
        is decided."""
        return sorted(set(names) - self.option_fields())

    @abstractmethod
    def why_lacking(self, lacking: list[str]) -> str:
        """Why this SDK cannot take the options `lacking`, in one clause."""

    def missing_options(self, names: Iterable[str]) -> str | None:
        """Why this SDK cannot take these options; None when it can."""
        lacking = self.lacking_options(names)
        return self.why_lacking(lacking) if lacking else None

    def require_options(self, names: Iterable[str]) -> None:
        """OptionMissing unless this SDK can take every one of `names`."""
        lacking = self.lacking_options(names)
        if lacking:
            raise OptionMissing(self.why_lacking(lacking), lacking)

    def make_options(self, **options: Any) -> Any:
        """This SDK's options from Python option names (OptionMissing for one it lacks)."""
        self.require_options(options)
        return self.build_options(options)

    @abstractmethod
    def build_options(self, options: dict[str, Any]) -> Any:
        """Options whose names are all known to this SDK, as `run` takes them."""

    # --- running --------------------------------------------------------------------------

    @abstractmethod
    async def run(self, options: Any, spec: RunSpec, out: Any) -> None:
        """One query() or client session with options from this SDK's make_options, filling
        `out` (an sdk.Outcome) with what it yields; the caller bounds its time."""

    def host_process_gap(self) -> str | None:
        """Why sdkprobe cannot run this SDK in a host process of its own; None when it can."""
        return None

    async def type_check(self, space: Any, source: str, timeout: float) -> list[dict[str, Any]] | None:
        """What a compiler says of `source` against this SDK's types; None when no compiler
        checks this SDK's code."""
        return None

    # --- what it declares -----------------------------------------------------------------

    @abstractmethod
    def typed_keys(self, name: str) -> list[str] | None:
        """The keys the typed dict NAME declares, in order; None when it has no such type."""

    @abstractmethod
    def hook_inputs(self) -> dict[str, list[str]]:
        """Each hook event this SDK lists (Python's HookEvent, TypeScript's HOOK_EVENTS), with
        the fields its input type declares (the common ones included), sorted."""

    @abstractmethod
    def hook_input_values(self) -> dict[str, dict[str, list[str]]]:
        """For the events of hook_inputs() whose input declares a field of string values (a union
        of literals), each such field's values, by event and field; {} for an SDK whose types are
        not read for values."""

    @abstractmethod
    def declared_messages(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Each message this SDK's types declare it yields, by `type` or `type/subtype`, with
        each field the type declares beside those two: `{"kinds": [...], "literals": [...]}`
        (TypeScript's SDKMessage union, ts_surface.messages); {} for an SDK declaring no such
        union (Python's messages are classes, told apart by class)."""

    @abstractmethod
    def unmet(self, kind: str, name: str) -> str | None:
        """Why this SDK lacks a requirement `kind:name` (option, field or api), in one clause;
        None when it has it."""

    def own_class(self, name: str) -> type | None:
        """Its own Python class `name` (an error class, AgentDefinition, ClaudeSDKClient), which a
        probe may build or test an exception against; None where it has none, as an SDK driven
        from another language has none."""
        return None

    @abstractmethod
    def session_functions(self) -> Any:
        """Its session functions as attributes named as in Python; one it lacks is absent."""

    @abstractmethod
    def run_info(self) -> dict[str, Any]:
        """What a report records of this SDK beyond the versions: its public surface
        (`kind:name` strings) and what else tells its runs apart."""
