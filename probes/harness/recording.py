"""Recordings of the real CLI's stdout (as the SDK received it) and stdin (as the SDK
wrote it), line by line.

The SDK parses the CLI's stdout and drops what it does not know (a `prompt_suggestion`,
an unknown system subtype); a claim about that raw stream needs the lines before the
SDK saw them. `StdoutRecording.wrap` puts a small shell script between the SDK and the
launcher: it runs the launcher with stdout through `tee` into a file, and exits with
the launcher's own status so the SDK sees the same exit code as without it. A probe can
wait, mid-session, for a line the SDK will never show it (`wait_for`).

`StdinRecording.wrap` does the same for what the SDK writes: its stdin goes through `tee`,
which hands each line to the CLI before it writes it to the file, so a line seen in the
recording is already in the CLI's stdin: a probe can order what the SDK sends next after
it (e.g. answer one control request only once another's reply is on its way).
"""

from __future__ import annotations

import asyncio
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

POLL = 0.05  # how often wait_for looks at the file: the wait ends on a line, not on a time


class _LineRecording:
    """Lines in a file of the probe's space, read back as JSON."""

    file_name = "lines.jsonl"

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.path = directory / self.file_name
        self.path.write_text("")

    def lines(self) -> list[Any]:
        """The complete lines so far, each parsed as JSON (a line that is not JSON stays a string)."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        out: list[Any] = []
        for line in text.splitlines(keepends=True):
            if not line.endswith("\n") or not line.strip():
                continue  # a line still being written, or blank
            try:
                out.append(json.loads(line))
            except ValueError:
                out.append(line.rstrip("\n"))
        return out

    async def wait_for(self, predicate: Callable[[Any], bool], timeout: float = 30.0) -> Any:
        """Wait until a recorded line satisfies `predicate`; return it. RuntimeError after
        `timeout` (not TimeoutError, which the SDK runner would take for its own deadline)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for line in self.lines():
                if predicate(line):
                    return line
            if loop.time() > deadline:
                raise RuntimeError(f"no matching stdout line within {timeout:g} s")
            await asyncio.sleep(POLL)


class StdoutRecording(_LineRecording):
    """The CLI's stdout of one session, in a file of the probe's space."""

    file_name = "stdout.jsonl"

    def wrap(self, launcher: Path) -> Path:
        """Write a recorder that runs `launcher` with its stdout copied here; return it."""
        recorder, status = self.directory / "claude", self.directory / "status"
        q = shlex.quote
        recorder.write_text(
            "#!/bin/sh\n"
            # stdin and stderr go straight through; only stdout is copied.
            f'{{ {q(str(launcher))} "$@"; echo $? > {q(str(status))}; }} | tee -a {q(str(self.path))}\n'
            f"exit $(cat {q(str(status))} 2>/dev/null || echo 1)\n"
        )
        recorder.chmod(0o755)
        return recorder


class StdinRecording(_LineRecording):
    """What the SDK wrote to the CLI's stdin in one session, in a file of the probe's space."""

    file_name = "stdin.jsonl"

    def wrap(self, launcher: Path) -> Path:
        """Write a recorder that runs `launcher` with its stdin copied here; return it. tee
        writes each line to the CLI before the file, and the pipeline's status is the
        launcher's own."""
        recorder = self.directory / "claude"
        q = shlex.quote
        recorder.write_text(f'#!/bin/sh\ntee -a {q(str(self.path))} | {q(str(launcher))} "$@"\n')
        recorder.chmod(0o755)
        return recorder
