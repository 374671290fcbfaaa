"""What one cli-tier turn costs, next to the bare CLI doing the same turn.

Runs, interleaved and after one warm-up each, (a) `real_cli.cli_run(space, "hi")` — the
SDK, the launcher, the bundled CLI, a fresh model double — and (b) `claude -p hi` as a
plain subprocess with the same isolated environment against one shared double. Prints
the median wall time of each, their ratio (the harness's overhead; target <= 1.3), and
the sampled peak RSS of the CLI's process tree and of this Python process.

    python bench/cli_turn.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from tabulate import tabulate

from sdkprobe.harness import (
    real_cli,  # noqa: E402
    sdk,  # noqa: E402
)
from sdkprobe.harness.isolation import Space  # noqa: E402
from sdkprobe.harness.model_double import ModelDouble, Script  # noqa: E402


def rss_kib(pid: int | str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class PeakRss:
    """Samples, every few ms, the summed RSS of processes running with one HOME, and our own."""

    def __init__(self, home: Path) -> None:
        self.needle = f"HOME={home}".encode()
        self.tree = self.python = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.005):
            total = 0
            for entry in os.listdir("/proc"):
                if not entry.isdigit() or int(entry) == os.getpid():
                    continue
                try:
                    if self.needle in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                        total += rss_kib(entry)
                except OSError:
                    continue
            self.tree = max(self.tree, total)
            self.python = max(self.python, rss_kib(os.getpid()))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def bare_env(space: Space, double: ModelDouble) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if not k.upper().startswith(("ANTHROPIC_", "CLAUDE"))}
    return {
        **inherited,
        "HOME": str(space.home),
        "CLAUDE_CONFIG_DIR": str(space.config),
        "TMPDIR": str(space.tmp),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "ANTHROPIC_BASE_URL": double.base_url,
        "ANTHROPIC_API_KEY": real_cli.DUMMY_KEY,
        **real_cli.RETRY_ENV,
    }


def one_session() -> tuple[float, int, int]:
    with Space.create() as space, PeakRss(space.home) as peak:
        start = time.perf_counter()
        run = asyncio.run(real_cli.cli_run(space, "hi", script=["hi"]))
        took = time.perf_counter() - start
    if run.error or run.result is None or run.result.is_error:
        raise SystemExit(f"session failed: {run.error or run.result}")
    return took, peak.tree, peak.python


def one_bare(cli: Path, double: ModelDouble) -> tuple[float, int]:
    with Space.create() as space, PeakRss(space.home) as peak:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [str(cli), "-p", "hi"],
            cwd=space.cwd,
            env=bare_env(space, double),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        out, err = proc.communicate(timeout=60)
        took = time.perf_counter() - start
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything it left behind
        except ProcessLookupError:
            pass
    if proc.returncode != 0 or out.strip() != b"hi":
        raise SystemExit(f"bare CLI failed ({proc.returncode}): {out[-200:]!r} {err[-400:]!r}")
    return took, peak.tree


def row(label: str, times: list[float], tree_kib: list[int], python_kib: list[int] | None) -> list:
    tree = round(statistics.median(tree_kib) / 1024)
    python = round(max(python_kib) / 1024) if python_kib else "-"
    return [label, statistics.median(times), min(times), max(times), tree, python]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="measured runs of each kind (default 10)")
    args = parser.parse_args()
    cli = sdk.bundled_cli_path()
    if cli is None:
        print("this claude-agent-sdk wheel bundles no CLI", file=sys.stderr)
        return 2
    sessions, bares = [], []
    with ModelDouble(Script(main=["hi"] * (args.runs + 1))) as double:
        one_session(), one_bare(cli, double)  # warm-up: page cache, imports
        for _ in range(args.runs):
            sessions.append(one_session())
            bares.append(one_bare(cli, double))
    s_time = statistics.median(t for t, _, _ in sessions)
    b_time = statistics.median(t for t, _ in bares)
    print(f"claude-agent-sdk {sdk.sdk_version()}, CLI {sdk.bundled_cli_version()}, ", end="")
    print(f"{args.runs} runs each, {os.cpu_count()} cores")
    rows = [
        row("cli-tier session (SDK)", *map(list, zip(*sessions, strict=True))),
        row("bare claude -p hi", *map(list, zip(*bares, strict=True)), None),
    ]
    headers = ["", "median s", "min s", "max s", "peak RSS CLI tree MiB", "peak RSS python MiB"]
    print(tabulate(rows, headers=headers, floatfmt=".3f"))
    ratio = s_time / b_time
    print(f"ratio session / bare: {ratio:.2f} (target <= 1.3)")
    return 0 if ratio <= 1.3 else 1


if __name__ == "__main__":
    sys.exit(main())
