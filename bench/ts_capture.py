"""Benchmark: one wire capture through the TypeScript SDK's Node driver beside one through
the Python SDK, interleaved in the same run, and what a cached TypeScript release costs on
disk. Target: the TypeScript capture's median within 3x the Python one's.

    python bench/ts_capture.py [--ts 0.3.333] [--runs N]

Needs node, and the release in the cache (installed here once if it is not).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wire_capture import figures

from sdkprobe.harness import sdk, under_test
from sdkprobe.harness.wire import capture
from sdkprobe.releases import ts_sdk


async def one(root: Path, typescript: str | None) -> float:
    if typescript is None:
        os.environ.pop(under_test.VARIABLE, None)
    else:
        os.environ[under_test.VARIABLE] = typescript
    start = time.perf_counter()
    run = await capture(Path(tempfile.mkdtemp(dir=root)), tools=["Bash", "Read"])
    elapsed = time.perf_counter() - start
    assert run.flag("--tools") == "Bash,Read", (run.argv, run.error)
    return elapsed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ts", default="0.3.333", help="the TypeScript release (default 0.3.333)")
    parser.add_argument("--runs", type=int, default=20, help="captures of each SDK (default 20)")
    args = parser.parse_args()
    release = ts_sdk.install(args.ts, lambda line: print(f"sdkprobe: {line}", flush=True))
    typescript = f"ts@{args.ts}"
    python_version = sdk.sdk_version()
    py: list[float] = []
    ts: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        await one(root, None)  # warm-up: the first query of each pays its imports (and the first driver's start)
        await one(root, typescript)
        for _ in range(args.runs):  # interleaved, so both see the same load
            py.append(await one(root, None))
            ts.append(await one(root, typescript))
    ratio = statistics.median(ts) / statistics.median(py)
    print("one wire capture (tools=['Bash','Read']) against the fake CLI")
    print(figures(f"claude-agent-sdk {python_version}", py, 40))
    print(figures(f"@anthropic-ai/claude-agent-sdk {args.ts}", ts, 40))
    print(f"TypeScript / Python: {ratio:.2f}x (target <= 3x): {'met' if ratio <= 3 else 'NOT met'}")
    mb = 1024 * 1024
    print(
        f"cache: {args.ts} takes {ts_sdk.cache_size(args.ts) / mb:.0f} MB "
        f"({release.root}); every cached TypeScript release together {ts_sdk.cache_size() / mb:.0f} MB"
    )


if __name__ == "__main__":
    asyncio.run(main())
