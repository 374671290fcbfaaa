"""The daily job (.github/workflows/sdkprobe-update.yml): scheduled and startable by hand, with
least permissions, and its pull-request step run here for real: against a local bare remote
and a stand-in `gh` that records what it is asked. It must push the update branch only, never
the default branch, and open (or, when one is open, update) one pull request whose body is
the release notes. actionlint checks the file with the other workflows (tests/test_action.py)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "sdkprobe-update.yml"


def step_script(name: str) -> str:
    """The `run: |` block of the step called `name`, dedented."""
    lines = WORKFLOW.read_text().splitlines()
    start = lines.index(f"      - name: {name}")
    run = next(i for i in range(start, len(lines)) if lines[i].strip() == "run: |")
    indent = len(lines[run]) - len(lines[run].lstrip()) + 2
    body = []
    for line in lines[run + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
        body.append(line[indent:])
    return "\n".join(body) + "\n"


def test_runs_daily_and_by_hand_with_least_permissions():
    text = WORKFLOW.read_text()
    assert re.search(r"^  schedule:\n    - cron: ", text, re.M) and "\n  workflow_dispatch:\n" in text
    assert "\npermissions: {}\n" in text  # nothing for the workflow as a whole
    job_permissions = re.findall(r"^      (\w[\w-]*): (\w+)", text.split("    permissions:\n", 1)[1], re.M)[:2]
    assert job_permissions == [("contents", "write"), ("pull-requests", "write")]
    assert "sdkprobe update " in step_script("sdkprobe update")


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


@pytest.fixture
def checkout(tmp_path):
    """A clone of a bare 'origin' whose main holds one report, with two new reports (one per
    SDK), their notes and the version list changed in the work tree, as `sdkprobe update` leaves it."""
    origin = tmp_path / "origin.git"
    git("init", "-q", "--bare", "-b", "main", str(origin), cwd=tmp_path)
    work = tmp_path / "work"
    git("clone", "-q", str(origin), str(work), cwd=tmp_path)
    git("config", "user.email", "t@example.invalid", cwd=work)
    git("config", "user.name", "t", cwd=work)
    (work / "reports" / "ts").mkdir(parents=True)
    (work / "probes" / "releases").mkdir(parents=True)
    (work / "reports" / "0.2.189.json").write_text("{}\n")
    (work / "probes" / "releases" / "versions.py").write_text("V = ['0.2.189']\n")
    git("add", "-A", cwd=work)
    git("commit", "-q", "-m", "start", cwd=work)
    git("push", "-q", "origin", "main", cwd=work)
    (work / "reports" / "0.2.190.json").write_text("{}\n")
    (work / "reports" / "ts" / "0.3.336.json").write_text("{}\n")
    (work / "reports" / "ts" / "notes").mkdir()
    (work / "reports" / "ts" / "notes" / "published.json").write_text("{}\n")
    (work / "probes" / "releases" / "versions.py").write_text("V = ['0.2.189', '0.2.190']\n")
    (work / "stray.txt").write_text("not sdkprobe's\n")
    return origin, work


def run_step(work: Path, tmp_path: Path, pr_state: str) -> list[str]:
    """The step's script with a stand-in gh (which answers `pr view` with pr_state); gh's calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    calls = tmp_path / "gh-calls"
    gh = bin_dir / "gh"
    gh.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$*" >> {calls}\n'
        f'if [ "$1 $2" = "pr view" ]; then [ -n "{pr_state}" ] && echo "{pr_state}"; [ -n "{pr_state}" ]; fi\n'
    )
    gh.chmod(0o755)
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    (temp / "release-notes.md").write_text("# @anthropic-ai/claude-agent-sdk 0.3.336\n\nwhat moved\n")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "RUNNER_TEMP": str(temp),
        "BRANCH": "sdkprobe/update",
        "BASE": "main",
        "GH_TOKEN": "stand-in",
    }
    subprocess.run(
        ["bash", "-e", "-c", step_script("Open or update the pull request")], cwd=work, env=env, check=True, timeout=120
    )
    return calls.read_text().splitlines()


def test_the_pull_request_step_pushes_the_update_branch_only(checkout, tmp_path):
    origin, work = checkout
    main_before = git("rev-parse", "main", cwd=origin)
    calls = run_step(work, tmp_path, pr_state="")
    assert git("rev-parse", "main", cwd=origin) == main_before  # the default branch is untouched
    pushed = git("show", "--stat", "--format=%s%n%b", "sdkprobe/update", cwd=origin)
    assert pushed.startswith("sdkprobe: record Python 0.2.190, TypeScript 0.3.336\n")
    assert "# @anthropic-ai/claude-agent-sdk 0.3.336" in pushed  # the notes are the commit's body
    files = git("show", "--name-only", "--format=", "sdkprobe/update", cwd=origin).split()
    assert sorted(files) == [
        "probes/releases/versions.py",
        "reports/0.2.190.json",
        "reports/ts/0.3.336.json",
        "reports/ts/notes/published.json",
    ]  # only what update writes: a stray file stays out
    create = [c for c in calls if c.startswith("pr create")]
    assert len(create) == 1 and "--base main --head sdkprobe/update" in create[0]
    assert "--title sdkprobe: record Python 0.2.190, TypeScript 0.3.336" in create[0]
    assert str(tmp_path / "runner-temp" / "release-notes.md") in create[0]


def test_an_open_pull_request_is_updated_not_opened_again(checkout, tmp_path):
    _, work = checkout
    calls = run_step(work, tmp_path, pr_state="OPEN")
    assert not any(c.startswith("pr create") for c in calls)
    assert any(c.startswith("pr edit sdkprobe/update --title sdkprobe: record ") for c in calls)
