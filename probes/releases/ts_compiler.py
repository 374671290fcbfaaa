"""The TypeScript compiler (`typescript` on npm), installed once into the cache beside the
TypeScript SDK releases.

Some claims are about what `tsc --strict` says of the SDK's types (source 003: an
AgentDefinition with allowedTools fails to compile). Every TypeScript release is checked
with one pinned compiler, so a verdict that moves is the SDK's types moving, not the
compiler's: `$SDKPROBE_CACHE/tsc/VERSION/` (about 23 MB), built beside that folder and
renamed into place with its record written last, under a file lock, as a release is.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from sdkprobe.releases import cache, npm
from sdkprobe.releases.ts_sdk import INSTALL_TIMEOUT, TsReleaseError

PACKAGE = "typescript"
VERSION = "5.9.3"
_MARKER = "install.json"


def root() -> Path:
    return cache.base() / "tsc"


def installed() -> Path | None:
    """The compiler's tsc.js (run with node), or None when it is not (completely) installed."""
    folder = root() / VERSION
    tsc = folder / "node_modules" / PACKAGE / "lib" / "tsc.js"
    try:
        record = json.loads((folder / _MARKER).read_text())
    except (OSError, ValueError):
        return None
    return tsc if isinstance(record, dict) and record.get("version") == VERSION and tsc.is_file() else None


def api(tsc: Path) -> Path:
    """The compiler API module (typescript.js) beside an installed tsc.js: what declarations.mjs loads."""
    return tsc.with_name("typescript.js")


def _npm(
    args: list[str], timeout: float, tick: Callable[[float], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """npm, the registry's ordinary client; tests replace this to run without network."""
    return npm.run(args, timeout, tick, error=TsReleaseError, needs="the TypeScript compiler")


def install(progress: Callable[[str], None] | None = None) -> Path:
    """tsc.js, installed into the cache first when it is not there yet; TsReleaseError (one
    line) when it cannot be had here."""
    say = progress or npm.to_stderr
    found = installed()
    if found is not None:
        return found
    base = root()
    with cache.locked(base / ".locks" / VERSION):
        found = installed()
        if found is not None:  # another install finished while this one waited
            return found
        final = base / VERSION
        if final.exists():
            raise TsReleaseError(f"the TypeScript compiler: {final} is there but incomplete; remove it")
        spec = f"{PACKAGE}@{VERSION}"
        with cache.work_folder(base, VERSION, clear_interrupted=True) as work:
            say(f"npm install {spec} (the compiler TypeScript behaviours check types with)")
            done = _npm(
                npm.install_args(work, spec),
                INSTALL_TIMEOUT,
                tick=lambda s: say(f"  still installing {spec} ({s:.0f} s)"),
            )
            if done.returncode != 0:
                raise TsReleaseError(f"npm install {spec} failed: {npm.last_line(done.stderr)}")
            (work / _MARKER).write_text(json.dumps({"package": PACKAGE, "version": VERSION}, indent=2) + "\n")
            work.rename(final)
    found = installed()
    if found is None:
        raise TsReleaseError(f"the TypeScript compiler: npm install {spec} left no lib/tsc.js in {final}")
    say(f"TypeScript compiler {VERSION}: installed at {final}")
    return found
