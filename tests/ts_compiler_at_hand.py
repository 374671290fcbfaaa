"""The pinned TypeScript compiler for the tests that read declarations with it: the one in the
machine's cache (installed there first when SDKPROBE_TS=1 or SDKPROBE_SLOW=1), linked into a
test's own cache. Without node, or without the compiler and leave to install it, they skip."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sdkprobe.releases import ts_compiler

REAL = ts_compiler.root()  # the machine's cache, read before a test points SDKPROBE_CACHE elsewhere
_WANTED = os.environ.get("SDKPROBE_TS") == "1" or os.environ.get("SDKPROBE_SLOW") == "1"

needs_compiler = pytest.mark.skipif(
    shutil.which("node") is None or not (_WANTED or ts_compiler.installed() is not None),
    reason=f"reads declarations with typescript {ts_compiler.VERSION} from the cache: set SDKPROBE_TS=1 to install it",
)


def link_into(cache: Path) -> None:
    """Make `cache` (a test's SDKPROBE_CACHE) hold the machine's compiler; call before pointing
    SDKPROBE_CACHE at it."""
    ts_compiler.install(lambda _: None)
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "tsc").symlink_to(REAL, target_is_directory=True)
