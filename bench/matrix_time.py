"""Benchmark: wall time of the probe sessions over every listed SDK version, warm.

"Warm" means each version's nox environment already exists and uv's cache holds the
wheels: the script first makes sure of that (`nox -r --install-only`, timed separately as
the preparation), then runs every `probe(sdk=...)` session with `-R` (reuse, no install)
one after the other and times each. Reports go to a temporary folder, so reports/ is left
as it is. Target: the whole matrix in under 10 minutes.

    python bench/matrix_time.py [--budget SECONDS] [--strict] [-- SDKPROBE-RUN-ARGS ...]

Arguments after `--` go to `sdkprobe run` in every session (e.g. `-- --tier wire`).
With --strict the exit status is 1 when the matrix is over budget or a session failed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from sdkprobe.releases.versions import SDK_VERSIONS


def nox_command() -> list[str] | None:
    if importlib.util.find_spec("nox") is not None:
        return [sys.executable, "-m", "nox"]
    found = shutil.which("nox")
    return [found] if found else None


def run_nox(nox: list[str], args: list[str]) -> tuple[int, float, str]:
    start = time.monotonic()
    proc = subprocess.run(
        [*nox, "-f", str(ROOT / "noxfile.py"), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    return proc.returncode, time.monotonic() - start, proc.stdout


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{seconds % 60:04.1f}"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    run_args: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, run_args = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=600.0, help="seconds (default 600)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when over budget or a session failed")
    args = parser.parse_args(argv)

    print(
        f"matrix_time: probe sessions over {len(SDK_VERSIONS)} SDK versions "
        f"({SDK_VERSIONS[0]} .. {SDK_VERSIONS[-1]}), warm environments"
    )
    nox = nox_command()
    if nox is None:
        print("matrix_time: skipped: nox is not installed (pip install nox)")
        return 1 if args.strict else 0

    code, prep, out = run_nox(nox, ["-r", "--install-only", "-s", "probe"])
    if code != 0:
        print(out[-3000:])
        print(f"matrix_time: preparing the environments failed (nox exit {code})")
        return 1
    print(f"prepare (create/update {len(SDK_VERSIONS)} environments): {prep:.1f} s")

    rows: list[tuple[str, int, float]] = []
    failed_output: list[str] = []
    with tempfile.TemporaryDirectory(prefix="sdkprobe-matrix-") as out_dir:
        start = time.monotonic()
        for sdk in SDK_VERSIONS:
            code, seconds, out = run_nox(nox, ["-R", "-s", f"probe(sdk={sdk!r})", "--", "--out", out_dir, *run_args])
            rows.append((sdk, code, seconds))
            status = "ok" if code == 0 else f"exit {code}"
            print(f"  {f'probe(sdk={sdk!r})':22} {seconds:7.1f} s  {status}", flush=True)
            if code != 0:
                failed_output.append(f"--- probe(sdk={sdk!r}) ---\n" + "\n".join(out.splitlines()[-15:]))
        total = time.monotonic() - start
        written = sorted(p.name for p in Path(out_dir).glob("*.json"))

    slowest = max(rows, key=lambda r: r[2])
    failures = [r for r in rows if r[1] != 0]
    under = total < args.budget
    for text in failed_output:
        print(text)
    print(f"reports written: {len(written)} of {len(SDK_VERSIONS)}")
    print(f"slowest: {slowest[0]} {slowest[2]:.1f} s; mean {total / len(rows):.1f} s per version")
    print(
        f"matrix wall time (warm): {total:.1f} s ({minutes(total)}) for {len(rows)} versions"
        f"{' on ' + str(os.cpu_count()) + ' cores' if os.cpu_count() else ''}"
    )
    print(
        f"under {args.budget / 60:g} minutes: {'yes' if under else 'NO'}"
        + (f"; {len(failures)} session(s) failed" if failures else "")
    )
    if args.strict and (failures or not under):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
