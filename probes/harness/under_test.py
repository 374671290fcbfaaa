"""Which SDK a run puts under test: the installed Python SDK, or a TypeScript release.

`sdkprobe run --sdk ts@0.3.333` installs that release into the cache and sets
SDKPROBE_SDK for the run, so its worker processes see the same choice; every part of the
harness asks here, and only here.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

VARIABLE = "SDKPROBE_SDK"
PYTHON = "python"
TYPESCRIPT = "ts"


class SdkChoiceError(ValueError):
    """SDKPROBE_SDK names no SDK sdkprobe can drive, or a release not installed."""


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
    return parse(spelling())[0] == TYPESCRIPT


@lru_cache(maxsize=4)
def _release(version: str) -> Any:
    from sdkprobe.releases import ts_sdk

    release = ts_sdk.installed(version)
    if release is None:
        raise SdkChoiceError(
            f"TypeScript SDK {version} is not installed in the cache (sdkprobe run --sdk ts@{version})"
        )
    return release


def typescript() -> Any:
    """The TypeScript release under test (a ts_sdk.TsRelease); None when it is Python's."""
    kind, version = parse(spelling())
    return None if kind == PYTHON or version is None else _release(version)
