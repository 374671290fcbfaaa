"""TypeScript SDK releases (`@anthropic-ai/claude-agent-sdk` on npm), installed once into a cache.

The TS SDK is the second SDK under test. A release is its package (sdk.mjs, sdk.d.ts and a
package.json naming the CLI it was built with, "claudeCodeVersion") plus its peers
(@anthropic-ai/sdk, @modelcontextprotocol/sdk, zod; npm >= 7 installs peers) plus, from
0.2.113 on, this platform's `@anthropic-ai/claude-agent-sdk-<platform>` package holding the
native `claude` binary; older releases ship a `cli.js` inside the package instead.

`install(V)` runs `npm install PACKAGE@V --ignore-scripts` (no install script runs; npm
checks every package's integrity) into `$SDKPROBE_CACHE/ts/V/` (default
`~/.cache/sdkprobe/ts/V/`, about 460 MB for a recent release, mostly the binary). The folder
is built beside that one and renamed into place with `install.json` written last, under a
file lock per release: two installs of one release build it once, and an interrupted install
leaves only a hidden work folder, removed by the next install of that release, never reused.

What a release offers (Options' keys, Query's methods, the exported functions, its whole
public surface) is read from its sdk.d.ts by the pinned TypeScript compiler (releases/declarations.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sdkprobe.errors import UsageError
from sdkprobe.releases import cache, npm
from sdkprobe.releases.npm import platform_key

if TYPE_CHECKING:
    from sdkprobe.releases.declarations import Declarations

PACKAGE = "@anthropic-ai/claude-agent-sdk"
PEERS = ("@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "zod")
INSTALL_TIMEOUT = 1800.0
_LABEL = "TS SDK version"
_RELEASE = re.compile(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?")
_MARKER = "install.json"


class TsReleaseError(UsageError):
    """A TS SDK release that cannot be had or read here; the message is one line for the user (exit 2)."""


# --- the registry ---------------------------------------------------------------------------


def _npm(
    args: list[str], timeout: float, tick: Callable[[float], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """npm, the registry's ordinary client; tests replace this to run without network."""
    return npm.run(args, timeout, tick, error=TsReleaseError, needs="fetching TS SDK releases")


def check_version(version: str) -> None:
    """Only an exact release: a range or dist-tag would name a different SDK tomorrow."""
    if not _RELEASE.fullmatch(version):
        raise TsReleaseError(f"{_LABEL} {version!r} is not a release number like 0.3.333")


def releases(*, since: str | None = None, until: str | None = None) -> list[str]:
    """The releases on npm from `since` to `until` (both included, each a release there), oldest first."""
    known = npm.versions(PACKAGE, _npm, TsReleaseError)
    if not known:
        raise TsReleaseError(f"npm lists no releases of {PACKAGE}")
    for bound in (since, until):
        if bound is not None and bound not in known:
            check_version(bound)
            raise TsReleaseError(
                f"{_LABEL} {bound} is not on the npm registry ({PACKAGE} has {known[0]} to {known[-1]})"
            )
    first = known.index(since) if since is not None else 0
    last = known.index(until) if until is not None else len(known) - 1
    if first > last:
        raise TsReleaseError(f"{_LABEL} {since} comes after {until}")
    return known[first : last + 1]


def published() -> dict[str, str]:
    """When each release reached npm (ISO 8601), from `npm view PACKAGE time --json`."""
    done = _npm(["view", PACKAGE, "time", "--json"], timeout=120)
    try:
        times = json.loads(done.stdout) if done.stdout.strip() else None
    except ValueError:
        times = None
    if done.returncode != 0 or not isinstance(times, dict):
        raise TsReleaseError(f"npm view {PACKAGE} time failed: {npm.last_line(done.stderr or done.stdout)}")
    return {str(v): str(t) for v, t in times.items() if _RELEASE.fullmatch(str(v))}


def native_package(meta: dict[str, Any], version: str, plat: str) -> str | None:
    """The platform package holding the release's `claude` binary for `plat`, None for a release
    that ships cli.js instead; TsReleaseError when it has binaries but none for `plat`."""
    prefix = f"{PACKAGE}-"
    optional = meta.get("optionalDependencies") or {}
    natives = sorted(name[len(prefix) :] for name in optional if name.startswith(prefix))
    if not natives:
        return None
    if plat not in natives:
        raise TsReleaseError(f"{_LABEL} {version} has no build for {plat} (it has {', '.join(natives)})")
    return prefix + plat


# --- the cache --------------------------------------------------------------------------------


def cache_root() -> Path:
    """Where TS SDK releases are kept: $SDKPROBE_CACHE/ts, else ~/.cache/sdkprobe/ts."""
    return cache.base() / "ts"


@dataclass(frozen=True)
class TsRelease:
    """One installed release: its folder and what its package says about itself."""

    version: str
    root: Path  # the folder holding node_modules/

    @property
    def package_dir(self) -> Path:
        return self.root / "node_modules" / PACKAGE

    @property
    def manifest(self) -> dict[str, Any]:
        """The package's package.json."""
        try:
            data = json.loads((self.package_dir / "package.json").read_text())
        except (OSError, ValueError) as exc:
            raise TsReleaseError(f"TS SDK {self.version}: cannot read its package.json: {exc}") from None
        return data if isinstance(data, dict) else {}

    @property
    def entry(self) -> Path:
        """The module `import {query} from PACKAGE` loads: exports ".", else "main", else sdk.mjs."""
        manifest = self.manifest
        target = _export_target(_root_export(manifest), types=False)
        main = manifest.get("main")
        return self.package_dir / (target or (main if isinstance(main, str) else None) or "sdk.mjs")

    @property
    def types(self) -> Path:
        """The declaration file of that module: exports "." types, else "types"/"typings", else sdk.d.ts."""
        manifest = self.manifest
        target = _export_target(_root_export(manifest), types=True)
        named = next((manifest[k] for k in ("types", "typings") if isinstance(manifest.get(k), str)), None)
        return self.package_dir / (target or named or "sdk.d.ts")

    @property
    def bundled_cli(self) -> Path | None:
        """The CLI the release runs unless told otherwise: its platform package's `claude`
        binary, or the package's cli.js on releases before 0.2.113; None when it has neither."""
        scope = self.root / "node_modules" / "@anthropic-ai"
        binary = "claude.exe" if platform_key().startswith("win32") else "claude"
        own = scope / f"claude-agent-sdk-{platform_key()}" / binary
        if own.is_file():
            return own
        other = sorted(scope.glob(f"claude-agent-sdk-*/{binary}"))
        if other:
            return other[0]
        cli_js = self.package_dir / "cli.js"
        return cli_js if cli_js.is_file() else None

    @property
    def cli_version(self) -> str | None:
        """The CLI release the SDK was built with: package.json "claudeCodeVersion" (0.1.45 on),
        else the `// Version: X` line the bundled cli.js opens with."""
        found = self.manifest.get("claudeCodeVersion")
        if isinstance(found, str) and found:
            return found
        cli = self.bundled_cli
        if cli is None or cli.suffix != ".js":
            return None
        with open(cli, encoding="utf-8", errors="replace") as handle:
            head = handle.read(2048)
        match = re.search(r"^// Version: (\S+)\s*$", head, re.M)
        return match.group(1) if match else None

    def options(self) -> tuple[str, ...]:
        """The keys of `Options` (what `query({options})` takes), sorted."""
        return self.type_fields("Options") or ()

    def query_methods(self) -> tuple[str, ...]:
        """The methods of `interface Query` (interrupt, setPermissionMode, setModel, ...), sorted."""
        return tuple(self.declarations().methods("Query"))

    def exports(self) -> tuple[str, ...]:
        """The functions the package exports (query, tool, createSdkMcpServer, ...), sorted."""
        return tuple(self.declarations().of_kind("function"))

    def type_fields(self, name: str) -> tuple[str, ...] | None:
        """The top-level keys of type or interface `name`, sorted; None when the package exports none."""
        found = self.declarations().fields(name)
        return None if found is None else tuple(sorted(found))

    def declarations(self) -> Declarations:
        """What its declaration file exports, read by the pinned compiler (installed into the
        cache first when it is not there); TsReleaseError (one line) when it cannot be read."""
        from sdkprobe.releases import declarations, ts_compiler

        try:
            return declarations.read(self.types, ts_compiler.api(ts_compiler.install()))
        except (OSError, declarations.DeclarationsError) as exc:
            raise TsReleaseError(f"TS SDK {self.version}: cannot read {self.types.name}: {exc}") from None


def _root_export(manifest: dict[str, Any]) -> Any:
    exports = manifest.get("exports")
    if isinstance(exports, dict) and any(k.startswith(".") for k in exports):
        return exports.get(".")
    return exports  # `"exports": "./sdk.mjs"` or a conditions object for "." alone


def _export_target(node: Any, types: bool) -> str | None:
    """The file an exports entry gives for the module (its declarations when `types`), nested
    conditions followed; a declaration file counts only under a "types" condition."""
    if isinstance(node, str):
        return None if types else os.path.normpath(node)
    if not isinstance(node, dict):
        return None
    declared = node.get("types")
    if types and isinstance(declared, str):
        return os.path.normpath(declared)
    for key in ("import", "node", "default"):
        found = _export_target(node.get(key), types)
        if found is not None:
            return found
    return None


def installed(version: str) -> TsRelease | None:
    """The cached release, or None when it is not (completely) installed; never installs."""
    if not _RELEASE.fullmatch(version):
        return None
    root = cache_root() / version
    try:
        record = json.loads((root / _MARKER).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("version") != version:
        return None
    release = TsRelease(version, root)
    return release if (release.package_dir / "package.json").is_file() else None


def install(version: str, progress: Callable[[str], None] | None = None) -> TsRelease:
    """Release `version`, installed into the cache first when it is not there yet;
    TsReleaseError (one line) when it cannot be had here. Progress lines go to `progress`
    (default: stderr)."""
    say = progress or npm.to_stderr
    check_version(version)
    found = installed(version)
    if found is not None:
        say(f"TS SDK {version}: cached at {found.root}")
        return found
    # No progress line before the metadata is read: a bad version is then one line alone.
    meta = npm.release_metadata(
        npm.view(f"{PACKAGE}@{version}", _npm, TsReleaseError), PACKAGE, version, _LABEL, TsReleaseError
    )
    native = native_package(meta, version, platform_key())
    node = _check_node(meta, version)
    root = cache_root()
    with cache.locked(root / ".locks" / version):
        found = installed(version)
        if found is not None:  # another install of it finished while this one waited
            say(f"TS SDK {version}: cached at {found.root}")
            return found
        return _build(version, native, node, root, say)


def _build(version: str, native: str | None, node: str, root: Path, say: Callable[[str], None]) -> TsRelease:
    """Install into a work folder beside the cache entry, then rename it into place (the lock is held)."""
    final = root / version
    if final.exists():
        raise TsReleaseError(f"TS SDK {version}: {final} is there but incomplete; remove it")
    start = time.monotonic()
    with cache.work_folder(root, version, clear_interrupted=True) as work:
        what = f"its peers and {native}" if native else "its peers (its CLI is the package's cli.js)"
        say(f"TS SDK {version}: npm install {PACKAGE}@{version} with {what}")
        spec = f"{PACKAGE}@{version}"
        done = _npm(
            npm.install_args(work, spec), INSTALL_TIMEOUT, tick=lambda s: say(f"  still installing {spec} ({s:.0f} s)")
        )
        if done.returncode != 0:
            raise TsReleaseError(f"npm install {spec} failed: {npm.last_line(done.stderr)}")
        release = TsRelease(version, work)
        record = _record(release, native, node)
        (work / _MARKER).write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
        work.rename(final)
    done_release = installed(version)
    if done_release is None:
        raise TsReleaseError(f"TS SDK {version}: the install in {final} is incomplete")
    size = cache_size(version)
    say(f"TS SDK {version}: installed in {time.monotonic() - start:.0f} s at {final} ({size / 1e6:.0f} MB)")
    return done_release


def _record(release: TsRelease, native: str | None, node: str) -> dict[str, Any]:
    """What install.json says: the release as npm installed it, checked to be the one asked for."""
    version = release.version
    got = release.manifest.get("version")
    if got != version:
        raise TsReleaseError(f"npm install {PACKAGE}@{version} installed version {got!r}")
    cli = release.bundled_cli
    if native is not None:
        if cli is None or cli.name == "cli.js":
            raise TsReleaseError(f"TS SDK {version}: npm did not install {native} (its claude binary)")
        cli.chmod(0o755)
    return {
        "package": PACKAGE,
        "version": version,
        "platform": platform_key(),
        "bundled_cli": None if cli is None else str(cli.relative_to(release.root)),
        "cli_version": release.cli_version,
        "peers": {peer: v for peer in PEERS if (v := _installed_version(release.root, peer)) is not None},
        "node": node,
    }


def _installed_version(root: Path, name: str) -> str | None:
    try:
        found = json.loads((root / "node_modules" / name / "package.json").read_text()).get("version")
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def _check_node(meta: dict[str, Any], version: str) -> str:
    """Node's version, when it meets the release's `engines.node` (">=18.14.0"); TsReleaseError otherwise."""
    wanted = (meta.get("engines") or {}).get("node") if isinstance(meta.get("engines"), dict) else None
    need = f" (it wants {wanted})" if isinstance(wanted, str) else ""
    node = shutil.which("node")
    if node is None:
        raise TsReleaseError(f"{_LABEL} {version} runs on Node{need}; no `node` on PATH")
    try:
        have = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise TsReleaseError(f"`node --version` failed: {exc}") from None
    floor = re.fullmatch(r"\s*>=\s*v?(\d+(?:\.\d+){0,2})\s*", wanted) if isinstance(wanted, str) else None
    if floor is not None and _numbers(have) < _numbers(floor.group(1)):
        raise TsReleaseError(f"{_LABEL} {version} needs Node {wanted}; `node` on PATH is {have}")
    return have


def _numbers(version: str) -> tuple[int, ...]:
    parts = [int(p) for p in re.findall(r"\d+", version)[:3]]
    return tuple(parts + [0] * (3 - len(parts)))


def cache_size(version: str | None = None) -> int:
    """Bytes the TS cache takes (every release, work and lock files too), or one release's folder."""
    if version is not None:
        check_version(version)
    top = cache_root() if version is None else cache_root() / version
    total = 0
    for folder, _dirs, files in os.walk(top):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total
