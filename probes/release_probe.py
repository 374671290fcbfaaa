"""Probe one behaviour on one SDK release: its cached environment's own `sdkprobe run`.

Each release runs in its own interpreter (two SDK versions cannot share one), so this
starts `sdkprobe run --only ID --out TMP -j 1` there and reads the report it wrote, never
its table. Anything that keeps a release from giving a verdict becomes a skipped Outcome.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from probes.behaviour import ERROR
from probes.bisect import Outcome
from probes.envcache import EnvCache, InstallFailed

PROBE_TIMEOUT = 900.0


class ReleaseProber:
    """`probe(version)` for the bisect, counting the probe runs it started."""

    def __init__(self, behaviour_id: str, envs: EnvCache, progress: Callable[[str], None]) -> None:
        self.behaviour_id = behaviour_id
        self.envs = envs
        self.progress = progress
        self.runs = 0

    def __call__(self, version: str) -> Outcome:
        try:
            env = self.envs.ensure(version, self.progress)
        except InstallFailed as exc:
            self.progress(f"{version}: skipped, install failed: {exc}")
            return Outcome(version, skipped=f"install failed: {exc}")
        if not env.bundles_cli():
            self.progress(f"{version}: skipped, its wheel bundles no CLI")
            return Outcome(version, skipped="its wheel bundles no CLI")
        self.progress(f"probing {version}…")
        self.runs += 1
        start = time.monotonic()
        outcome = self._run(version, env.sdkprobe, env.bin)
        took = time.monotonic() - start
        said = f"skipped, {outcome.skipped}" if outcome.skipped else outcome.verdict
        self.progress(f"{version}: {said} ({took:.1f} s)")
        return outcome

    def _run(self, version: str, sdkprobe: Path, bin_dir: Path) -> Outcome:
        # No API key or endpoint of the caller's reaches the probe; without --live none is used anyway.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "PYTHONHOME"))}
        env.update(VIRTUAL_ENV=str(bin_dir.parent), PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}")
        with tempfile.TemporaryDirectory(prefix="sdkprobe-bisect-") as out:
            command = [str(sdkprobe), "run", "--only", self.behaviour_id, "--out", out, "-j", "1"]
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=PROBE_TIMEOUT, env=env)
            except (OSError, subprocess.TimeoutExpired) as exc:
                return Outcome(version, skipped=f"sdkprobe run failed: {exc}")
            reports = sorted(Path(out).glob("*.json"))
            if not reports:
                lines = [line for line in done.stderr.splitlines() if line.strip()]
                why = lines[-1].strip() if lines else "no output"
                return Outcome(version, skipped=f"sdkprobe run wrote no report (exit {done.returncode}): {why}")
            report = json.loads(reports[0].read_text())
        entry = next((b for b in report["behaviours"] if b["id"] == self.behaviour_id), None)
        if entry is None:
            return Outcome(version, skipped="the report has no entry for the behaviour")
        if entry["verdict"] == ERROR:
            return Outcome(version, skipped=f"the probe errored: {entry['note']}")
        return Outcome(
            version,
            verdict=entry["verdict"],
            note=entry.get("note") or "",
            checks=dict(entry.get("checks") or {}),
            observed=entry.get("observed"),
        )
