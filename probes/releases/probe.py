"""Probe one behaviour on one release: an SDK release, a CLI release under the installed SDK,
or a TypeScript SDK release.

Each SDK release runs in its own interpreter (two SDK versions cannot share one), so
`ReleaseProber` starts its cached environment's `sdkprobe run --only ID --out TMP -j 1`;
`CliReleaseProber` starts this interpreter's `sdkprobe run --only ID --cli PATH` with the CLI
release installed from npm; `TsReleaseProber` starts `sdkprobe run --sdk ts@V`. Either way
the verdict is read from the report the run wrote,
never its table, and anything that keeps a release from giving a verdict becomes a skipped
ReleaseVerdict.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sdkprobe import scope
from sdkprobe.behaviour import ERROR
from sdkprobe.releases.bisect import ReleaseVerdict
from sdkprobe.releases.envcache import EnvCache, InstallFailed

PROBE_TIMEOUT = 900.0

Progress = Callable[[str], None]


class _Prober:
    """`probe(version)` for the bisect, counting the probe runs it started.

    A subclass says how to run `sdkprobe run` for a release (`_command`), or why it cannot.
    """

    def __init__(self, behaviour_id: str, progress: Progress) -> None:
        self.behaviour_id = behaviour_id
        self.progress = progress
        self.runs = 0
        self._count = threading.Lock()  # a bisect may probe both ends at once

    def _command(self, version: str) -> tuple[list[str], dict[str, str]] | str:
        """The `sdkprobe run` command for the release (without --only/--out/-j) and its
        environment, or why there is none."""
        raise NotImplementedError

    def __call__(self, version: str) -> ReleaseVerdict:
        setup = self._command(version)
        if isinstance(setup, str):
            self.progress(f"{version}: skipped, {setup}")
            return ReleaseVerdict(version, skipped=setup)
        self.progress(f"probing {version}…")
        with self._count:
            self.runs += 1
        start = time.monotonic()
        outcome = self._run(version, *setup)
        said = f"skipped, {outcome.skipped}" if outcome.skipped else outcome.verdict
        self.progress(f"{version}: {said} ({time.monotonic() - start:.1f} s)")
        return outcome

    def _run(self, version: str, sdkprobe: list[str], env: dict[str, str]) -> ReleaseVerdict:
        with tempfile.TemporaryDirectory(prefix="sdkprobe-bisect-") as out:
            command = [*sdkprobe, "--only", self.behaviour_id, "--out", out, "-j", "1"]
            try:  # in a session and scope of its own: a Ctrl-C here ends it and its probes (sdkprobe.scope)
                done = scope.run(command, env=env, timeout=PROBE_TIMEOUT)
            except (OSError, subprocess.TimeoutExpired) as exc:
                return ReleaseVerdict(version, skipped=f"sdkprobe run failed: {exc}")
            reports = sorted(Path(out).glob("*.json"))
            if not reports:
                lines = [line for line in done.stderr.splitlines() if line.strip()]
                why = lines[-1].strip() if lines else "no output"
                return ReleaseVerdict(version, skipped=f"sdkprobe run wrote no report (exit {done.returncode}): {why}")
            report = json.loads(reports[0].read_text())
        entry = next((b for b in report["behaviours"] if b["id"] == self.behaviour_id), None)
        if entry is None:
            return ReleaseVerdict(version, skipped="the report has no entry for the behaviour")
        if entry["verdict"] == ERROR:
            return ReleaseVerdict(version, skipped=f"the probe errored: {entry['note']}")
        return ReleaseVerdict.from_entry(version, entry)


def _clean_env() -> dict[str, str]:
    """No API key or endpoint of the caller's reaches the probe; without --live none is used anyway."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "PYTHONHOME"))}


class ReleaseProber(_Prober):
    """Each SDK release in its own cached environment, with the CLI its wheel bundles."""

    def __init__(self, behaviour_id: str, envs: EnvCache, progress: Progress) -> None:
        super().__init__(behaviour_id, progress)
        self.envs = envs

    def _command(self, version: str) -> tuple[list[str], dict[str, str]] | str:
        try:
            env = self.envs.ensure(version, self.progress)
        except InstallFailed as exc:
            return f"install failed: {exc}"
        if not env.bundles_cli():
            return "its wheel bundles no CLI"
        variables = _clean_env()
        variables.update(VIRTUAL_ENV=str(env.path), PATH=f"{env.bin}{os.pathsep}{variables.get('PATH', '')}")
        return [str(env.sdkprobe), "run"], variables


class CliReleaseProber(_Prober):
    """Each CLI release from npm (installed once into the cache), under the SDK installed here."""

    def _command(self, version: str) -> tuple[list[str], dict[str, str]] | str:
        from sdkprobe.releases.claude_code import CliReleaseError, install_cli

        try:
            cli = install_cli(version, self.progress)
        except CliReleaseError as exc:
            return str(exc)
        return [sys.executable, "-m", "sdkprobe", "run", "--cli", str(cli)], _clean_env()


class TsReleaseProber(_Prober):
    """Each TypeScript SDK release from npm (installed once into the cache), with the CLI its
    platform package bundles, driven by this interpreter's sdkprobe (`run --sdk ts@V`)."""

    def _command(self, version: str) -> tuple[list[str], dict[str, str]] | str:
        from sdkprobe.releases.ts_sdk import TsReleaseError, install

        try:
            release = install(version, self.progress)
        except TsReleaseError as exc:
            return str(exc)
        if release.bundled_cli is None:
            return "its package bundles no CLI for this platform"
        return [sys.executable, "-m", "sdkprobe", "run", "--sdk", f"ts@{version}"], _clean_env()
