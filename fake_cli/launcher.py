"""Writes the executable the SDK runs as its CLI (`ClaudeAgentOptions.cli_path`).

The SDK executes the path directly, so it must be a file with a shebang. The launcher
names the current interpreter with -I -S (no site import: the fake needs only the
standard library), which keeps a start at about 20 ms.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parent.parent)


def install(directory: Path, scenario_json: str) -> tuple[Path, Path]:
    """Write scenario, capture file and launcher into `directory`; return (launcher, capture)."""
    directory.mkdir(parents=True, exist_ok=True)
    scenario = directory / "scenario.json"
    capture = directory / "capture.jsonl"
    launcher = directory / "claude"
    scenario.write_text(scenario_json, encoding="utf-8")
    capture.write_text("", encoding="utf-8")
    launcher.write_text(
        f"#!{sys.executable} -IS\n"
        "import sys\n"
        f"sys.path.insert(0, {_ROOT!r})\n"
        "from fake_cli.__main__ import main\n"
        f"sys.exit(main({str(scenario)!r}, {str(capture)!r}))\n",
        encoding="utf-8",
    )
    os.chmod(launcher, 0o755)
    return launcher, capture
