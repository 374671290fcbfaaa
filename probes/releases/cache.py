"""The one cache folder every installed release lives under, and the lock that keeps two
installs of one release from building it at once.

`$SDKPROBE_CACHE` (default `~/.cache/sdkprobe`) holds `envs/` (SDK releases' Python
environments, releases/envcache.py), `cli/` (Claude Code CLI releases, releases/claude_code.py)
and `ts/` (TypeScript SDK releases, releases/ts_sdk.py).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def base() -> Path:
    """$SDKPROBE_CACHE, else ~/.cache/sdkprobe."""
    return Path(os.environ.get("SDKPROBE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "sdkprobe"))


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file `path` (made with its folder when missing) while inside;
    the lock goes with the process, so an install killed mid-way blocks no one after it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
