"""Context files: written where the bundled CLI looks, and really read into the model's context."""

from __future__ import annotations

import json
import subprocess

import pytest

from sdkprobe.harness import MAIN, auto_memory, git_repo, global_config, project_settings, real_cli, sdk, user_settings
from sdkprobe.harness.context_files import project_key


def test_settings_and_global_config_are_written_where_the_cli_reads_them(space):
    assert user_settings(space.config, {"language": "x"}) == space.config / "settings.json"
    assert project_settings(space.cwd, {"a": 1}) == space.cwd / ".claude" / "settings.json"
    assert project_settings(space.cwd, {"a": 2}, local=True) == space.cwd / ".claude" / "settings.local.json"
    assert json.loads((space.config / "settings.json").read_text()) == {"language": "x"}
    path = global_config(space.config, {"oauthAccount": {"emailAddress": "a@b.example"}})
    assert path == space.config / ".claude.json"
    assert json.loads(path.read_text())["oauthAccount"]["emailAddress"] == "a@b.example"


def test_project_key_is_the_sdks(space):
    keyer = getattr(__import__("claude_agent_sdk"), "project_key_for_directory", None)
    if keyer is None:
        pytest.skip("this SDK has no project_key_for_directory")
    deep = space.cwd / ("a-long-folder-name-" * 12)
    deep.mkdir()
    for d in (space.cwd, deep):  # short, and over the 200-character cut that is hashed
        assert project_key(d) == keyer(str(d))
    assert len(project_key(deep)) > 200
    memory = auto_memory(space.config, space.cwd, "note")
    assert memory == space.config / "projects" / keyer(str(space.cwd)) / "memory" / "MEMORY.md"


def test_git_repo_is_the_same_every_run_and_ignores_the_machines_config(space, monkeypatch):
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Someone Else")  # the caller's git variables do not leak in
    first = git_repo(space.path("a"), user_name="Probe User", branch="probe-trunk", message="one")
    second_dir = space.path("b")
    second = git_repo(second_dir, user_name="Probe User", branch="probe-trunk", message="one")
    assert first == second and len(first) == 40

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=second_dir, capture_output=True, text=True, check=True).stdout.strip()

    assert git("config", "user.name") == "Probe User"
    assert git("branch", "--show-current") == "probe-trunk"
    assert git("log", "-1", "--format=%an|%s") == "Probe User|one"


@pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")
async def test_the_cli_reads_them_into_the_request(space):
    """One session: the user's language setting, the project's auto-memory and the git
    user of cwd all reach the model double."""
    user_settings(space.config, {"language": "Nederlands"})
    auto_memory(space.config, space.cwd, "- code word QUINCE-2291\n")
    git_repo(space.cwd, user_name="Probe User")
    preset = {"type": "preset", "preset": "claude_code"}
    run = await real_cli.cli_run(space, "hi", system_prompt=preset)
    context = run.on(MAIN)[0].context_text
    assert "Nederlands" in context
    assert "QUINCE-2291" in context
    assert "Probe User" in context
