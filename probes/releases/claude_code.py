"""Claude Code CLI releases from npm, installed once into a cache, each as one executable.

`sdkprobe run --cli-version X` (and `gate`) probe the installed SDK against CLI release X,
not only the one its wheel bundles. The npm package `@anthropic-ai/claude-code` ships a
release one of two ways, told apart by its registry metadata (`npm view PKG@X --json`):

- recent releases list platform packages (`@anthropic-ai/claude-code-linux-x64`, ...) as
  optionalDependencies; the platform package holds the native `claude` binary;
- older ones have `bin.claude` pointing at a `cli.js` run by Node.

Either way only the one package needed is fetched with `npm pack` (npm checks its
integrity; no install script runs) and unpacked into `<cache>/cli/<version>/`, where
`install.json` names the executable: the native binary, or a launcher running node on
cli.js. The cache is `$SDKPROBE_CACHE` (default `~/.cache/sdkprobe`); an entry appears only
complete (built beside it, then renamed), so an interrupted install leaves nothing reused.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import tarfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sdkprobe.errors import UsageError
from sdkprobe.releases import cache, npm
from sdkprobe.releases.npm import platform_key as platform_key

PACKAGE = "@anthropic-ai/claude-code"
_RELEASE = re.compile(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?")
_JS = (".js", ".mjs", ".cjs")

Progress = Callable[[str], None]


class CliReleaseError(UsageError):
    """A CLI release that cannot be had here; the message is one line for the user (exit 2)."""


@dataclass(frozen=True)
class Build:
    """What to fetch for one release on one platform, and what to run from it."""

    version: str
    kind: str  # "native" (a platform package's binary) or "node" (cli.js)
    spec: str  # what `npm pack` fetches: "@anthropic-ai/claude-code-linux-x64@2.1.300"
    entry: str  # the file inside the package: "claude" or "cli.js"


def check_version(version: str) -> None:
    """Only an exact release: a range or dist-tag would name a different CLI tomorrow."""
    if not _RELEASE.fullmatch(version):
        raise CliReleaseError(f"CLI version {version!r} is not a release number like 2.1.300")


def build_for(meta: Any, version: str, plat: str) -> Build:
    """The build of `version` for platform `plat`, from the registry's metadata of that release."""
    meta = npm.release_metadata(meta, PACKAGE, version, "CLI version", CliReleaseError)
    prefix = f"{PACKAGE}-"
    optional = meta.get("optionalDependencies") or {}
    natives = {name[len(prefix) :]: str(v) for name, v in optional.items() if name.startswith(prefix)}
    if natives:
        if plat not in natives:
            raise CliReleaseError(
                f"CLI version {version} has no build for {plat} (it has {', '.join(sorted(natives))})"
            )
        binary = "claude.exe" if plat.startswith("win32") else "claude"
        return Build(version, "native", f"{prefix}{plat}@{natives[plat]}", binary)
    bins = meta.get("bin")
    entry = bins.get("claude") if isinstance(bins, dict) else bins if isinstance(bins, str) else None
    if isinstance(entry, str) and entry.endswith(_JS):
        return Build(version, "node", f"{PACKAGE}@{version}", os.path.normpath(entry))
    raise CliReleaseError(f"CLI version {version} has neither a native build nor a cli.js (bin: {bins!r})")


def cache_root() -> Path:
    """Where CLI releases are kept: $SDKPROBE_CACHE/cli, else ~/.cache/sdkprobe/cli."""
    return cache.base() / "cli"


def cached(version: str) -> Path | None:
    """The executable of an installed release, or None when it is not (completely) installed."""
    try:
        record = json.loads((cache_root() / version / "install.json").read_text())
        path = cache_root() / version / str(record["executable"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return path if os.access(path, os.X_OK) else None


def _npm(
    args: list[str], timeout: float, tick: Callable[[float], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """npm, the registry's ordinary client, with `tick(seconds)` every 15 s while it runs;
    tests replace this to run without network."""
    return npm.run(args, timeout, tick, error=CliReleaseError, needs="installing a CLI release")


def registry_metadata(version: str) -> Any:
    """`npm view @anthropic-ai/claude-code@X --json`: the release's metadata (or npm's error)."""
    return npm.view(f"{PACKAGE}@{version}", _npm, CliReleaseError)


def release_list() -> list[str]:
    """Every release of the CLI on npm (`npm view PKG versions --json`), oldest first; only
    plain release numbers, no pre-release tags, since bisecting follows what users install."""
    return npm.versions(PACKAGE, _npm, CliReleaseError)


def install_cli(version: str, progress: Progress | None = None) -> Path:
    """The executable of Claude Code CLI release `version`, installed into the cache first
    when it is not there yet; CliReleaseError (one line) when it cannot be had here.

    Progress lines go to `progress` (default: stderr).
    """
    say = progress or _to_stderr
    check_version(version)
    found = cached(version)
    if found is not None:
        say(f"CLI {version}: cached at {found}")
        return found
    start = time.monotonic()
    # No progress line before the metadata is read: a bad version is then one line alone.
    build = build_for(registry_metadata(version), version, platform_key())
    node = _node() if build.kind == "node" else None
    root = cache_root()
    with cache.work_folder(root, version) as work:  # no lock here: another install's folder is left be
        what = "native build" if build.kind == "native" else "cli.js (runs on Node)"
        say(f"CLI {version}: fetching {build.spec}, {what}")
        tarball = _pack(build.spec, work, say)
        say(f"CLI {version}: unpacking {tarball.name} ({tarball.stat().st_size / 1e6:.0f} MB)")
        try:
            with tarfile.open(tarball) as tar:
                tar.extractall(work, filter="data")
        except (tarfile.TarError, OSError) as exc:
            raise CliReleaseError(f"CLI version {version}: cannot unpack {tarball.name}: {exc}") from None
        tarball.unlink()
        entry = work / "package" / build.entry
        if not entry.is_file():
            raise CliReleaseError(f"CLI version {version}: {build.spec} has no {build.entry}")
        if build.kind == "native":
            entry.chmod(0o755)
            executable = f"package/{build.entry}"
        else:
            # Relative to the launcher itself: the folder is renamed into place after this.
            launcher = work / "claude"
            launcher.write_text(
                f'#!/bin/sh\nexec {shlex.quote(str(node))} "$(dirname "$0")/package/{build.entry}" "$@"\n'
            )
            launcher.chmod(0o755)
            executable = "claude"
        record = {**asdict(build), "executable": executable, "node": node}
        (work / "install.json").write_text(json.dumps(record, indent=2) + "\n")
        final = root / version
        try:
            work.rename(final)
        except OSError:  # another install of the same release finished first: use that one
            if cached(version) is None:
                raise CliReleaseError(f"CLI version {version}: {final} is there but incomplete; remove it") from None
    path = cached(version)
    if path is None:
        raise CliReleaseError(f"CLI version {version}: the install in {root / version} is incomplete")
    say(f"CLI {version}: installed in {time.monotonic() - start:.0f} s at {path}")
    return path


def _pack(spec: str, into: Path, say: Progress) -> Path:
    """`npm pack SPEC` into a folder: the one tarball, integrity checked by npm, no script run."""
    done = _npm(
        ["pack", spec, "--pack-destination", str(into), "--json"],
        timeout=1800,
        tick=lambda s: say(f"  still fetching {spec} ({s:.0f} s)"),
    )
    if done.returncode != 0:
        raise CliReleaseError(f"npm pack {spec} failed: {_last_line(done.stderr)}")
    tarballs = sorted(into.glob("*.tgz"))
    if len(tarballs) != 1:
        raise CliReleaseError(f"npm pack {spec} left {len(tarballs)} tarballs, not one")
    return tarballs[0]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise CliReleaseError("this CLI release is a cli.js, which needs Node; no `node` on PATH")
    return node


_last_line = npm.last_line
_to_stderr = npm.to_stderr
