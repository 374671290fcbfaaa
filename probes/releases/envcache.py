"""One virtual environment per SDK release, installed once into a cache and reused.

A bisect probes a handful of the ~180 releases and the next bisect mostly the same ones,
so each environment (this sdkprobe, editable from a checkout or packed again from a plain
install (releases/itself.py), plus one exact release and its pins, as the nox sessions
install them) is kept under `envs/` of the cache dir (SDKPROBE_CACHE,
default ~/.cache/sdkprobe). uv installs it when there is one (seconds from its own cache), pip
otherwise. A marker written last says the install finished and for what; a lock keeps two
bisects from installing the same release at once. Each sdkprobe (each checkout, each packed
install) has environments of its own (`<version>-<digest of where sdkprobe comes from>`), so a
run from another checkout on the machine never reinstalls one that a run of this one is using.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sdkprobe import scope
from sdkprobe.errors import UsageError
from sdkprobe.releases import cache
from sdkprobe.releases.itself import Source, source
from sdkprobe.releases.versions import requirements

_MARKER = "sdkprobe-env.json"
INSTALL_TIMEOUT = 1800.0


class InstallFailed(UsageError):
    """A release's environment could not be installed; the message is one line."""


@dataclass(frozen=True)
class Env:
    version: str
    path: Path

    @property
    def bin(self) -> Path:
        return self.path / "bin"

    @property
    def sdkprobe(self) -> Path:
        return self.bin / "sdkprobe"

    def bundles_cli(self) -> bool:
        """Whether the installed wheel carries `_bundled/claude` (old wheels carry none)."""
        return any(self.path.glob("lib/python*/site-packages/claude_agent_sdk/_bundled/claude"))


def cache_dir() -> Path:
    """SDKPROBE_CACHE (default ~/.cache/sdkprobe) is shared with the CLI releases; SDKs go in envs/."""
    return cache.base() / "envs"


def find_uv() -> str | None:
    """uv on PATH, or the one installed beside this interpreter (nox's dependency)."""
    beside = Path(sys.executable).parent / "uv"
    return shutil.which("uv") or (str(beside) if beside.exists() else None)


class EnvCache:
    def __init__(self, root: Path | None = None, project: Path | None = None, uv: str | None = None) -> None:
        self.root = root or cache_dir()
        self.project = project  # a checkout to install instead of this sdkprobe (tests)
        self.uv = uv if uv is not None else find_uv()
        self._itself: Source | None = None

    def check_source(self) -> None:
        """NotInstalled (one line) when there is no sdkprobe to install into a release's environment,
        said before any release is probed."""
        self._source()

    def _source(self) -> Source:
        if self._itself is None:
            self._itself = source(self.root) if self.project is None else Source(("-e", str(self.project)), "")
        return self._itself

    def wanted(self, version: str) -> dict[str, object]:
        """What an environment must have been installed for to be reused as it is."""
        itself = self._source()
        return {
            "requirements": requirements(version),
            "sdkprobe": itself.identity or " ".join(itself.args),
            "python": sys.version.split()[0],
        }

    def path(self, version: str) -> Path:
        """Where this sdkprobe's environment for `version` lives: one folder per release and
        per sdkprobe source, shared only by runs of the same checkout or install."""
        whose = hashlib.sha256(" ".join(self._source().args).encode()).hexdigest()[:12]
        return self.root / f"{version}-{whose}"

    def is_ready(self, version: str) -> bool:
        marker = self.path(version) / _MARKER
        try:
            return bool(json.loads(marker.read_text()) == self.wanted(version))
        except (OSError, ValueError):
            return False

    def ensure(self, version: str, progress: Callable[[str], None] = lambda _: None) -> Env:
        """The release's environment, installed first unless the cache holds it."""
        self.wanted(version)  # NotInstalled at once when there is no sdkprobe to install
        env = Env(version, self.path(version))
        if self.is_ready(version):
            return env
        with self._lock(env.path.name):
            if self.is_ready(version):  # another bisect installed it meanwhile
                return env
            progress(f"installing {version} ({' '.join(requirements(version))}) into {env.path}…")
            shutil.rmtree(env.path, ignore_errors=True)
            try:
                for command in self._commands(env):
                    _run(command)
            except InstallFailed:
                shutil.rmtree(env.path, ignore_errors=True)
                raise
            (env.path / _MARKER).write_text(json.dumps(self.wanted(version)))
        return env

    def _commands(self, env: Env) -> list[list[str]]:
        python = str(env.bin / "python")
        packages = [*self._source().args, *requirements(env.version)]
        if self.uv:
            return [
                [self.uv, "venv", "--quiet", "--python", sys.executable, str(env.path)],
                [self.uv, "pip", "install", "--quiet", "--python", python, *packages],
            ]
        return [
            [sys.executable, "-m", "venv", str(env.path)],
            [python, "-m", "pip", "install", "--quiet", *packages],
        ]

    @contextmanager
    def _lock(self, name: str) -> Iterator[None]:
        with cache.locked(self.root / ".locks" / name):
            yield


def _run(command: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    try:
        done = scope.run(command, env=env, timeout=INSTALL_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallFailed(f"{Path(command[0]).name}: {exc}") from None
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        raise InstallFailed(f"{Path(command[0]).name} exited {done.returncode}: {lines[-1] if lines else 'no output'}")
