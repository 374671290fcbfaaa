"""User-level files a session reads: a CLAUDE.md and a skill in the config dir, found by
the CLI under setting_sources=['user']; h.home is the HOME the session runs with."""

from __future__ import annotations

import json

import pytest

from sdkprobe.harness import MAIN, Harness, claude_md, reply, result_text, sdk, tool_use, user_skill


def test_files_land_where_the_cli_looks(tmp_path):
    assert claude_md(tmp_path / "cfg", "M").read_text() == "M"
    assert (tmp_path / "cfg" / "CLAUDE.md").is_file()
    skill = user_skill(tmp_path / "cfg", "sk", "does things")
    assert skill == tmp_path / "cfg" / "skills" / "sk" / "SKILL.md"
    assert skill.read_text().startswith("---\nname: sk\ndescription: does things\n---\n")


def test_home_holds_the_config_dir(harness: Harness):
    assert harness.config_dir == harness.home / ".claude"


@pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")
async def test_a_session_reads_them_and_runs_with_that_home(harness: Harness):
    claude_md(harness.config_dir, "USER-MEMORY-MARK")
    user_skill(harness.config_dir, "probeskill", "SKILL-LISTING-MARK")
    run = await harness.cli(
        "where is home?",
        script=[reply(tool_use("Bash", {"command": "echo $HOME"}, id="toolu_home")), "done"],
        setting_sources=["user"],
        allowed_tools=["Bash"],
    )
    sent = "\n".join(json.dumps(r.body) for r in run.on(MAIN))
    assert "USER-MEMORY-MARK" in sent and "SKILL-LISTING-MARK" in sent
    assert result_text(run.on(MAIN)[1].tool_result("toolu_home")).strip() == str(harness.home)
