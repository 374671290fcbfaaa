"""A behaviour declared in a module of its own goes through run -> report -> matrix -> gate
with nothing else edited: the declaration is all a new behaviour needs."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from sdkprobe import behaviour as declaring
from sdkprobe.commands import main as sdkprobe
from sdkprobe.report import build, load, render_matrix, write
from sdkprobe.runner import RunSettings, judge, run_one

TOY = """
from sdkprobe.behaviour import behaviour, check
from sdkprobe.harness import Harness


@behaviour(
    id="tools.toy-claim",
    claim="A list given as the tools option reaches the CLI as --tools with the names joined by commas.",
    source=("003", "What each shape actually sends"),
    tier="wire",
    checks=("list-joined",),
    requires=("option:tools",),
)
async def toy(h: Harness) -> dict:
    run = await h.wire("hi", tools=["Bash", "Read"])
    return {"--tools": run.flag("--tools")}


@toy.decide
def _(seen: dict) -> dict:
    return {"list-joined": check(seen["--tools"] == "Bash,Read", f"--tools was {seen['--tools']!r}")}


toy.differs_on({"--tools": "Bash Read"})
"""


@pytest.fixture
def toy(tmp_path, monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})
    path = tmp_path / "toy_area.py"
    path.write_text(TOY)
    spec = importlib.util.spec_from_file_location("toy_area", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "toy_area", module)
    spec.loader.exec_module(module)
    return declaring.REGISTRY["tools.toy-claim"]


def info(version: str) -> dict:
    return {"sdk_version": version, "cli_version": "2.1.0", "cli": "bundled", "python": "3.11", "platform": "x"}


def test_a_toy_behaviour_goes_from_declaration_to_gate(toy, tmp_path, capsys):
    fresh = run_one(toy, RunSettings())
    assert (fresh.verdict, fresh.checks, fresh.observed) == (
        "holds",
        {"list-joined": "holds"},
        {"--tools": "Bash,Read"},
    )
    assert fresh.source["key"] == "003" and fresh.area == "tools"

    # An older version on which the claim failed, judged from its observation alone.
    old = judge(toy, toy.counterexamples[0])
    assert (old.verdict, old.note) == ("differs", "list-joined: --tools was 'Bash Read'")
    then = {
        **fresh.to_dict(),
        "verdict": old.verdict,
        "note": old.note,
        "checks": old.checks,
        "observed": toy.counterexamples[0],
    }

    reports = tmp_path / "reports"
    write(build([then], info("9.9.8")), reports)
    write(build([fresh.to_dict()], info("9.9.9")), reports)
    assert load(reports / "9.9.9.json")["behaviours"][0]["id"] == "tools.toy-claim"

    md_path, html_path = render_matrix(reports)
    matrix = md_path.read_text()
    assert "tools.toy-claim" in matrix and "list-joined: --tools was 'Bash Read'" in matrix
    assert "tools.toy-claim" in html_path.read_text()

    code = sdkprobe(["gate", "--baseline", str(reports / "9.9.8.json"), "--candidate", str(reports / "9.9.9.json")])
    out = capsys.readouterr().out
    assert code == 1 and "tools.toy-claim" in out and "verdict differs → holds" in out
