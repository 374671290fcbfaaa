"""Benchmark: one wire capture, against a fake that waits a fixed 2 s.

Source 003's harness captured argv with a fake CLI that recorded stdin and exited after
a fixed 2 s timer. Ours reacts to the protocol instead. Both are timed in the same run,
same machine, so the ratio is what counts. Target: median <= 0.1 s and >= 20x faster.

    python bench/wire_capture.py [--runs N]
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

from sdkprobe.harness import sdk
from sdkprobe.harness.wire import capture

# The timer-based fake: answer initialize (the Python SDK waits for that), record argv
# and stdin, and exit after a fixed 2 s whatever happened.
TIMED_FAKE = """#!{python} -IS
import json, sys, threading, time
data = []
def read():
    for line in sys.stdin:
        data.append(line)
        msg = json.loads(line)
        if msg.get("type") == "control_request":
            reply = {{"subtype": "success", "request_id": msg["request_id"], "response": {{}}}}
            sys.stdout.write(json.dumps({{"type": "control_response", "response": reply}}) + "\\n")
            sys.stdout.flush()
threading.Thread(target=read, daemon=True).start()
time.sleep(2.0)
open({out!r}, "w").write(repr(sys.argv) + "".join(data))
"""


async def ours(root: Path) -> float:
    start = time.perf_counter()
    run = await capture(Path(tempfile.mkdtemp(dir=root)), tools=["Bash", "Read"])
    elapsed = time.perf_counter() - start
    assert run.flag("--tools") == "Bash,Read", run.argv
    return elapsed


async def timed(root: Path) -> float:
    d = Path(tempfile.mkdtemp(dir=root))
    fake = d / "claude"
    fake.write_text(TIMED_FAKE.format(python=sys.executable, out=str(d / "captured.txt")))
    os.chmod(fake, 0o755)
    options = sdk.make_options(cli_path=str(fake), cwd=str(d), tools=["Bash", "Read"])
    start = time.perf_counter()
    await sdk.run_sdk(options, "hi", timeout=30)  # ends when the fake exits
    elapsed = time.perf_counter() - start
    assert "Bash,Read" in (d / "captured.txt").read_text()
    return elapsed


def figures(name: str, times: list[float], width: int = 22) -> str:
    median = statistics.median(times)
    return f"{name:<{width}} median {median:7.3f} s   min {min(times):.3f}   max {max(times):.3f}   n={len(times)}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="captures of each kind (default 20)")
    parser.add_argument("--timed-runs", type=int, default=5, help="runs of the 2 s fake (default 5; each takes 2 s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        await ours(root)  # warm-up: first query pays imports
        mine = [await ours(root) for _ in range(args.runs)]
        theirs = [await timed(root) for _ in range(args.timed_runs)]
    m, t = statistics.median(mine), statistics.median(theirs)
    print(f"claude-agent-sdk {sdk.sdk_version()}: one wire capture (tools=['Bash','Read'])")
    print(figures("sdkprobe fake", mine))
    print(figures("fixed 2 s fake", theirs))
    print(
        f"speed-up {t / m:.1f}x (target >= 20x); median {m:.3f} s (target <= 0.1 s): "
        f"{'met' if m <= 0.1 and t / m >= 20 else 'NOT met'}"
    )


if __name__ == "__main__":
    asyncio.run(main())
