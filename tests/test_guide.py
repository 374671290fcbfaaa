"""The guide to writing a cli-tier behaviour (docs/own-behaviours.md) is true as written: its
worked example, taken from the page, is checked and recorded by the commands the page shows,
in a project folder of its own, on the installed SDK and its bundled CLI; it holds, the
report holds the observation the page shows, and each counterexample makes the decision say
differs. So the example cannot go stale while the harness moves under it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sdkprobe.harness import sdk
from sdkprobe.releases import ts_sdk
from sdkprobe.releases.versions import TS_VERSIONS

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "own-behaviours.md"
MODULE = "myapp_permissions"
ID = "myapp.denied-call-reason-reaches-the-model"


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def _example() -> str:
    """The module, from its block (fenced ```python myapp_permissions.py, so that the
    adoption test's plain ```python blocks are still the first example and its test)."""
    (block,) = re.findall(rf"```python {MODULE}\.py\n(.*?)```", _page(), flags=re.S)
    return block


def _shown(start: str) -> list[str]:
    """The page's shell command that begins with `start`, as arguments (a code line)."""
    lines = [line for block in re.findall(r"```sh\n(.*?)```", _page(), flags=re.S) for line in block.splitlines()]
    (line,) = [line for line in lines if line.startswith(start)]
    return shlex.split(line)


def _observed_shown() -> dict:
    """The observation the page shows the report holding (its ```json block)."""
    (block,) = [b for b in re.findall(r"```json\n(.*?)```", _page(), flags=re.S) if '"observed"' in b]
    return json.loads("{" + block + "}")["observed"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / f"{MODULE}.py").write_text(_example(), encoding="utf-8")
    return tmp_path


def _in(project: Path, argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`argv` run in the project's folder as a user would, by this environment's Python
    (`python ...`) or sdkprobe (`sdkprobe ...`: `python -m sdkprobe`), with no choice of
    catalogue or SDK inherited from the test process."""
    command = [sys.executable, *argv[1:]] if argv[0] == "python" else [sys.executable, "-m", "sdkprobe", *argv[1:]]
    env = {k: v for k, v in os.environ.items() if k not in ("SDKPROBE_CATALOGUE", "SDKPROBE_BUILTIN", "SDKPROBE_SDK")}
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=timeout)


def _entry(report: Path) -> dict:
    (entry,) = json.loads(report.read_text())["behaviours"]
    assert entry["id"] == ID
    return entry


def test_the_worked_example_holds_and_each_counterexample_differs(project: Path) -> None:
    judged = _in(project, _shown("python -c"))
    assert judged.returncode == 0, judged.stderr
    assert judged.stdout.strip() == "['differs', 'differs']"
    assert "It prints `['differs', 'differs']`" in _page()

    ran = _in(project, [*_shown(f"sdkprobe run --catalogue {MODULE}"), "-j", "1"])
    assert ran.returncode == 0, ran.stdout + ran.stderr
    entry = _entry(project / "sdkprobe-reports" / f"{sdk.sdk_version()}.json")
    assert (entry["verdict"], set(entry["checks"].values())) == ("holds", {"holds"}), entry
    assert entry["observed"] == _observed_shown()

    shown = _in(project, ["sdkprobe", "show", ID, "--reports", "sdkprobe-reports"])
    assert shown.returncode == 0 and "holds" in shown.stdout, shown.stdout + shown.stderr
    listed = _in(project, ["sdkprobe", "list", "--catalogue", MODULE, "--no-builtin", "--json"])
    assert listed.returncode == 0, listed.stderr
    (declared,) = json.loads(listed.stdout)
    assert declared["covers"] == ["permission:PermissionResultDeny.message"]


_TS = TS_VERSIONS[-1]
_TS_WANTED = os.environ.get("SDKPROBE_TS") == "1" or os.environ.get("SDKPROBE_SLOW") == "1"


@pytest.mark.skipif(
    shutil.which("node") is None or not (_TS_WANTED or ts_sdk.installed(_TS) is not None),
    reason=f"installs @anthropic-ai/claude-agent-sdk {_TS} from npm: set SDKPROBE_TS=1",
)
def test_the_worked_example_runs_unchanged_on_the_typescript_sdk(project: Path) -> None:
    argv = _shown("sdkprobe run --sdk ts@")
    argv[argv.index(next(a for a in argv if a.startswith("ts@")))] = f"ts@{_TS}"  # the newest listed release
    ran = _in(project, [*argv, "-j", "1"], timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    entry = _entry(project / "sdkprobe-reports" / "ts" / f"{_TS}.json")
    assert (entry["verdict"], set(entry["checks"].values())) == ("holds", {"holds"}), entry
    assert entry["observed"] == _observed_shown()
