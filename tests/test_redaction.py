"""No secret of the caller reaches a file, and a cli-tier report is reproducible.

A key-shaped canary is planted in the environment; cli-tier sessions and `sdkprobe run`
then execute, and every file written under their spaces or into the report directory is
searched for it. The same run twice must give byte-identical reports.
"""

from __future__ import annotations

import asyncio
import secrets
import shutil
from pathlib import Path

import pytest

from sdkprobe import commands
from sdkprobe.harness import real_cli, reply, sdk, tool_use
from sdkprobe.harness.isolation import Space

CLI_TRACERS = ["tools.allowed-tools-does-not-restrict", "results.success-subtype-with-is-error"]

pytestmark = pytest.mark.skipif(sdk.bundled_cli_path() is None, reason="this SDK wheel bundles no CLI")


def files_containing(roots: list[Path], needle: str) -> list[Path]:
    data = needle.encode()
    return [f for root in roots for f in root.rglob("*") if f.is_file() and data in f.read_bytes()]


def test_the_search_finds_a_planted_canary(tmp_path):
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "f.jsonl").write_text('{"k": "sk-ant-' + 'api03-planted"}')
    assert files_containing([tmp_path], "sk-ant-" + "api03-planted") == [tmp_path / "deep" / "er" / "f.jsonl"]


def test_a_canary_key_reaches_no_file_and_reports_repeat_exactly(tmp_path, monkeypatch):
    canary = f"sk-ant-api03-{secrets.token_urlsafe(48)}-canaryAA"
    monkeypatch.setenv("ANTHROPIC_API_KEY", canary)
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", canary)
    spaces: list[Space] = []
    create = Space.create
    monkeypatch.setattr(Space, "create", classmethod(lambda cls: spaces.append(create()) or spaces[-1]))
    monkeypatch.setattr(Space, "remove", lambda self: None)  # kept until searched
    try:
        # A tool prints the CLI's whole environment into the conversation and transcript.
        session_space = Space.create()
        run = asyncio.run(
            real_cli.cli_run(
                session_space,
                "env",
                script=[reply(tool_use("Bash", {"command": "env", "description": "env"})), "ok"],
                allowed_tools=["Bash"],
            )
        )
        assert "ANTHROPIC_API_KEY=" + real_cli.DUMMY_KEY in run.requests[1].tool_results[0]["content"]
        reports = [tmp_path / "first", tmp_path / "second"]
        for out in reports:
            assert commands.main(["run", "--only", *CLI_TRACERS, "--out", str(out), "-j", "1"]) == 0
        written = [p for s in spaces for p in s.root.rglob("*") if p.is_file()]
        assert any(p.suffix == ".jsonl" for p in written)  # transcripts were written and searched
        assert files_containing([s.root for s in spaces] + reports, canary) == []
        first, second = (sorted(p.name for p in out.iterdir()) for out in reports)
        assert first == second and first
        for name in first:
            assert (reports[0] / name).read_bytes() == (reports[1] / name).read_bytes(), name
    finally:
        for s in spaces:
            shutil.rmtree(s.root, ignore_errors=True)
