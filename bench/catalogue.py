"""Benchmark: the whole catalogue on the installed SDK against its physical floor.

The floor is what the CLI alone must spend: the number of model turns the probes
needed (Messages API requests the double answered) times the median of one bare
`claude -p hi` turn, divided by the cores. Both are measured in this run, so the ratio
is what counts on a shared, noisy machine. Target: ratio <= 1.3.

    python bench/catalogue.py [-j N] [--bare-runs N]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cli_turn import one_bare

from sdkprobe.catalogue import load as all_behaviours
from sdkprobe.harness import real_cli, sdk
from sdkprobe.harness.model_double import ModelDouble, Script, reply
from sdkprobe.runner import RunSettings, run_all

_TURN_LOG = "SDKPROBE_BENCH_TURNS"


def count_turns() -> None:
    """Wrap real_cli.session so each session appends its model requests to a log file.

    The runner's worker processes are forked, so they inherit the wrapper.
    """
    original = real_cli.session

    async def counted(*args, **kwargs):
        run = await original(*args, **kwargs)
        with open(os.environ[_TURN_LOG], "a") as log:
            log.write(json.dumps({"requests": len(run.requests)}) + "\n")
        return run

    real_cli.session = counted


def bare_batch(cli: Path, double: ModelDouble, n: int) -> float:
    """Wall time of n bare CLI turns started together."""
    with concurrent.futures.ThreadPoolExecutor(n) as pool:
        start = time.perf_counter()
        list(pool.map(lambda _: one_bare(cli, double), range(n)))
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel probes (default: cores)")
    parser.add_argument("--bare-runs", type=int, default=7, help="bare CLI turns to take the median of (default 7)")
    args = parser.parse_args()
    cli = sdk.bundled_cli_path()
    if cli is None:
        print("this claude-agent-sdk wheel bundles no CLI", file=sys.stderr)
        return 2
    behaviours = all_behaviours()
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as log:
        os.environ[_TURN_LOG] = log.name
        count_turns()
        start = time.perf_counter()
        results = run_all(behaviours, RunSettings(), jobs=args.jobs)
        wall = time.perf_counter() - start
        sessions = [json.loads(line) for line in Path(log.name).read_text().splitlines()]
    turns = sum(s["requests"] for s in sessions)
    with ModelDouble(Script(fallback=reply("hi"))) as double:
        one_bare(cli, double)  # warm-up
        bare = statistics.median(one_bare(cli, double)[0] for _ in range(args.bare_runs))
        batch = statistics.median(bare_batch(cli, double, args.jobs) for _ in range(args.bare_runs))
    floor = turns * bare / args.jobs
    measured_floor = turns * batch / args.jobs
    print(f"claude-agent-sdk {sdk.sdk_version()}, CLI {sdk.bundled_cli_version()}, {args.jobs} jobs")
    print(f"behaviours            {len(results)} ({sum(r.tier == 'cli' for r in results)} cli tier)")
    print(f"catalogue wall time   {wall:.2f} s")
    for tier in ("wire", "cli"):
        spent = sorted(r.seconds for r in results if r.tier == tier)
        if spent:
            median = statistics.median(spent)
            print(
                f"{tier} tier probes       {len(spent)}: {sum(spent):.2f} s in all, median {median:.3f} s, "
                f"slowest {spent[-1]:.2f} s"
            )
    print(f"cli sessions / turns  {len(sessions)} / {turns}")
    print(f"one bare CLI turn     {bare:.3f} s (median of {args.bare_runs})")
    print(f"floor                 {floor:.2f} s  (turns x bare turn / jobs)")
    if floor == 0:
        print("no CLI turns were counted: nothing to compare against")
        return 1
    print(f"ratio wall / floor    {wall / floor:.2f} (target <= 1.3)")
    # The CLI uses more than one core while it starts, so N bare turns at once take
    # longer than one alone: the floor as measured with the cores really shared.
    print(
        f"{args.jobs} bare turns at once {batch:.3f} s; floor so measured {measured_floor:.2f} s, "
        f"ratio {wall / measured_floor:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
