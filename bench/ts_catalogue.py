"""Benchmark: the whole catalogue on the TypeScript SDK beside the whole catalogue on the
installed Python SDK, in the same run, alternating, so both see the same machine. Each run
is `sdkprobe run` as a user starts it, into a temporary folder (reports/ is left as it is).
Target: the TypeScript catalogue's wall time within 1.5x the Python one's.

    python bench/ts_catalogue.py [--ts 0.3.336] [--rounds N] [-j N] [--tier wire|cli]

Needs node, and the release in the cache (installed here once if it is not). Prints each
run's time, the median of each SDK and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sdkprobe.harness import sdk, under_test
from sdkprobe.releases import ts_sdk
from sdkprobe.releases.versions import TS_VERSIONS


def one(out: Path, extra: list[str]) -> float:
    """Seconds of one whole `sdkprobe run` (its own progress kept off the terminal)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sdkprobe", "run", "--out", str(out), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k != under_test.VARIABLE},  # the SDK is chosen by argv
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: a probe errored, which its report says; the time still counts
        raise SystemExit(f"sdkprobe run {' '.join(extra)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ts", default=TS_VERSIONS[-1], help=f"the TypeScript release (default {TS_VERSIONS[-1]})")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each SDK, alternating (default 1)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="probes at once (default: cores)")
    parser.add_argument("--tier", choices=("wire", "cli"), help="only this tier's behaviours")
    args = parser.parse_args()
    ts_sdk.install(args.ts, lambda line: print(f"sdkprobe: {line}", flush=True))
    common = ["-j", str(args.jobs), *(["--tier", args.tier] if args.tier else [])]
    py: list[float] = []
    ts: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.rounds):
            # The order alternates round by round, so neither SDK always runs on a warmer machine.
            order = [("py", []), ("ts", ["--sdk", f"ts@{args.ts}"])]
            for name, which in order if n % 2 == 0 else reversed(order):
                seconds = one(Path(tmp) / f"{name}{n}", [*which, *common])
                (py if name == "py" else ts).append(seconds)
                print(f"round {n + 1}: {name} {seconds:.1f} s", flush=True)
    ratio = statistics.median(ts) / statistics.median(py)
    what = f"the {args.tier} tier" if args.tier else "the whole catalogue"
    print(f"{what}, -j {args.jobs}, {args.rounds} round(s)")
    print(f"claude-agent-sdk {sdk.sdk_version()}: median {statistics.median(py):.1f} s")
    print(f"@anthropic-ai/claude-agent-sdk {args.ts}: median {statistics.median(ts):.1f} s")
    print(f"TypeScript / Python: {ratio:.2f}x (target <= 1.5x): {'met' if ratio <= 1.5 else 'NOT met'}")


if __name__ == "__main__":
    main()
