"""The SDKs whose releases sdkprobe records, each as `sdkprobe update` needs it: where its
releases are listed and when each was published, how one is installed and recorded, where its
reports go, and which version list names it.

One entry per SDK, so the update command itself says nothing about PyPI or npm.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sdkprobe.releases import versions
from sdkprobe.report.sdks import PYTHON, SDKS, TS_FOLDER, TYPESCRIPT, Sdk

REPORTS = Path("reports")


@dataclass(frozen=True)
class Available:
    """A release on the SDK's index: when it was published, and why it is not recorded ("" when it is)."""

    version: str
    published: str | None
    skip: str = ""


@dataclass(frozen=True)
class Tracked:
    key: str  # as --sdk names it: python or ts
    sdk: Sdk
    reports: Path  # where its reports are committed
    list_name: str  # its version list in releases/versions.py

    @property
    def listed(self) -> list[str]:
        """The releases sdkprobe reports on (the list object itself: an update appends to it)."""
        found: list[str] = getattr(versions, self.list_name)
        return found

    def available(self) -> list[Available]:
        """Every release on the index, oldest first (UsageError, one line, when it cannot be read)."""
        return _INDEXES[self.key]()

    def install(self, version: str, say: Callable[[str], None]) -> None:
        """Put the release into the cache; UsageError (one line) when it cannot be had here."""
        _INSTALLERS[self.key](version, say)

    def run_args(self, version: str, jobs: int) -> list[str]:
        """`sdkprobe run`'s arguments that record the whole catalogue on `version` into its folder."""
        return ["run", "--sdk", f"{self.key}@{version}", "--out", str(self.reports), "-j", str(jobs)]


def _python_index() -> list[Available]:
    from sdkprobe.releases.index import releases

    return [
        Available(
            r.version,
            r.published,
            "yanked" if r.yanked else "" if r.bundles_cli else "no wheel bundling the CLI for this machine",
        )
        for r in releases()
    ]


def _ts_index() -> list[Available]:
    from sdkprobe.releases import ts_sdk

    times = ts_sdk.published()
    return [Available(v, times.get(v)) for v in ts_sdk.releases()]


def _python_install(version: str, say: Callable[[str], None]) -> None:
    from sdkprobe.errors import UsageError
    from sdkprobe.releases.envcache import EnvCache, InstallFailed

    try:
        EnvCache().ensure(version, say)
    except InstallFailed as exc:
        raise UsageError(str(exc).splitlines()[-1] if str(exc) else "the install failed") from None


def _ts_install(version: str, say: Callable[[str], None]) -> None:
    from sdkprobe.releases import ts_sdk

    ts_sdk.install(version, say)


_INDEXES: dict[str, Callable[[], list[Available]]] = {PYTHON: _python_index, "ts": _ts_index}
_INSTALLERS: dict[str, Callable[[str, Callable[[str], None]], None]] = {PYTHON: _python_install, "ts": _ts_install}

TRACKED: dict[str, Tracked] = {
    PYTHON: Tracked(PYTHON, SDKS[PYTHON], REPORTS, "SDK_VERSIONS"),
    "ts": Tracked("ts", SDKS[TYPESCRIPT], REPORTS / TS_FOLDER, "TS_VERSIONS"),
}
