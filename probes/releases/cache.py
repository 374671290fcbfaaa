"""The one cache folder every installed release lives under, the lock that keeps two
installs of one release from building it at once, and the hidden folder each is built in.

`$SDKPROBE_CACHE` (default `~/.cache/sdkprobe`) holds `envs/` (SDK releases' Python
environments, releases/envcache.py), `cli/` (Claude Code CLI releases, releases/claude_code.py)
`ts/` (TypeScript SDK releases, releases/ts_sdk.py) and `tsc/` (the TypeScript compiler,
releases/ts_compiler.py).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
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


@contextmanager
def held_alone(path: Path, busy: str) -> Iterator[None]:
    """Like `locked`, but a lock another process holds is no wait: UsageError(`busy`) at once."""
    from sdkprobe.errors import UsageError

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(busy) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def work_folder(root: Path, name: str, *, clear_interrupted: bool = False) -> Iterator[Path]:
    """A hidden folder `root/.NAME-...` to build the install of NAME in, readable by all
    (mkdtemp makes it private; an install is no secret), removed on the way out unless the
    build renamed it into place. With `clear_interrupted` (only while holding NAME's lock),
    the folders that interrupted builds of NAME left are removed first, never reused."""
    root.mkdir(parents=True, exist_ok=True)
    if clear_interrupted:
        for stale in root.glob(f".{name}-*"):
            shutil.rmtree(stale, ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=root))
    work.chmod(0o755)
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)
