"""npm, the registry's ordinary client, as the release tools of both npm packages use it.

The Claude Code CLI (releases/claude_code.py) and the TypeScript SDK (releases/ts_sdk.py)
both come from npm: the same client call with a heartbeat, the same reading of `npm view
--json` (which answers a missing release with nothing or with an E404 object), the same
platform names. Each caller passes its own UsageError subclass, so a failure is one line
saying which release tool failed.
"""

from __future__ import annotations

import json
import platform
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from sdkprobe.errors import UsageError

Progress = Callable[[str], None]


class Runner(Protocol):
    """How a release tool calls npm: `run(args, timeout, tick)`; tests replace it."""

    def __call__(
        self, args: list[str], timeout: float, tick: Callable[[float], None] | None = None
    ) -> subprocess.CompletedProcess[str]: ...


def platform_key(system: str | None = None, machine: str | None = None, musl: bool | None = None) -> str:
    """This machine as npm's platform packages name it: linux-x64, linux-arm64-musl, darwin-arm64."""
    system = (system or platform.system()).lower()
    system = {"windows": "win32"}.get(system, system)
    machine = (machine or platform.machine()).lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(machine, machine)
    if musl is None:
        musl = system == "linux" and platform.libc_ver()[0] != "glibc"
    return f"{system}-{arch}" + ("-musl" if musl else "")


def run(
    args: list[str],
    timeout: float,
    tick: Callable[[float], None] | None = None,
    *,
    error: type[UsageError],
    needs: str,
    cwd: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """`npm ARGS`, with `tick(seconds)` every 15 s while it runs; `error` (one line) when npm
    is not on PATH (`needs` says what wanted it) or does not finish within `timeout` s."""
    npm = shutil.which("npm")
    if npm is None:
        raise error(f"{needs} needs npm, which is not on PATH")
    start = time.monotonic()
    with subprocess.Popen([npm, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd) as proc:
        while True:
            try:
                out, err = proc.communicate(timeout=15)
                return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
            except subprocess.TimeoutExpired:
                elapsed = time.monotonic() - start
                if elapsed > timeout:
                    proc.kill()
                    proc.communicate()
                    raise error(f"npm {args[0]} did not finish within {timeout:g} s") from None
                if tick is not None:
                    tick(elapsed)


def install_args(prefix: Path, spec: str) -> list[str]:
    """`npm install` of exactly `spec` into `prefix`, with no package's install script run."""
    return ["install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--ignore-scripts", "--save-exact", spec]


def view(spec: str, npm: Runner, error: type[UsageError]) -> Any:
    """`npm view SPEC --json`: the release's metadata, {} when npm has none, or npm's error object."""
    done = npm(["view", spec, "--json"], timeout=120)
    text = done.stdout.strip()
    if not text:
        if done.returncode == 0:
            return {}  # npm prints nothing for a version it does not have
        raise error(f"npm view {spec} failed: {last_line(done.stderr)}")
    try:
        return json.loads(text)
    except ValueError:
        raise error(f"npm view {spec} did not print JSON: {last_line(text)}") from None


def release_metadata(meta: Any, package: str, version: str, label: str, error: type[UsageError]) -> dict[str, Any]:
    """The metadata `view` gave for exactly `package@version`, or `error` saying why there is none;
    `label` names the version for the user ("CLI version", "TS SDK version")."""
    if isinstance(meta, list):  # npm answers a range with one entry per matching release
        raise error(f"{label} {version} matches {len(meta)} releases on npm, not one")
    if not isinstance(meta, dict) or not meta:
        raise error(f"{label} {version} is not on the npm registry ({package})")
    problem = meta.get("error")
    if isinstance(problem, dict):
        if problem.get("code") == "E404":
            raise error(f"{label} {version} is not on the npm registry ({package}@{version})")
        raise error(f"npm could not look up {package}@{version}: {problem.get('summary') or problem}")
    if meta.get("version") != version:
        raise error(f"npm answered {package}@{version} with version {meta.get('version')!r}")
    return meta


def versions(package: str, npm: Runner, error: type[UsageError]) -> list[str]:
    """Every plain release number of `package` on npm (`npm view PKG versions --json`), oldest
    first; pre-release tags are left out, since what is probed is what users install."""
    done = npm(["view", package, "versions", "--json"], timeout=120)
    try:
        names = json.loads(done.stdout) if done.stdout.strip() else None
    except ValueError:
        names = None
    if isinstance(names, str):  # a package with one release answers with a string
        names = [names]
    if done.returncode != 0 or not isinstance(names, list):
        raise error(f"npm view {package} versions failed: {last_line(done.stderr or done.stdout)}")
    from sdkprobe.releases.versions import version_key

    plain = [str(v) for v in names if re.fullmatch(r"\d+\.\d+\.\d+", str(v))]
    return sorted(plain, key=version_key)


def last_line(text: str) -> str:
    """The last non-blank line of a tool's output: npm ends with what went wrong."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def to_stderr(line: str) -> None:
    print(f"sdkprobe: {line}", file=sys.stderr, flush=True)
