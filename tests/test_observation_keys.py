"""An observation's keys named once: a probe annotated with a TypedDict holds its decision and
its counterexamples to those keys, so a misspelt key fails the type check (.ci/typecheck), not a run."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

TYPED = """
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check

Seen = TypedDict("Seen", {"can_use_tool asked for": list[str], "ran": bool})


@behaviour(
    id="tools.typed-toy",
    claim="A disallowed tool is never asked about and never runs.",
    summary="A disallowed tool is never asked about, never runs",
    source=("003", "Quick answer"),
    tier="wire",
    checks=("never-asked",),
)
async def typed_toy(h: Any) -> Seen:
    return {PROBE_KEY: [], "ran": False}


@typed_toy.decide
def _(seen: Seen) -> dict[str, Check]:
    return {"never-asked": check(not seen[DECISION_KEY] and not seen["ran"], f"asked for {seen['ran']}")}


typed_toy.differs_on({COUNTEREXAMPLE_KEY: ["Bash"], "ran": True})
"""
KEY = '"can_use_tool asked for"'
MISSPELT = '"can_use_tool asked fr"'


def typecheck(tmp_path: Path, probe: str = KEY, decision: str = KEY, counterexample: str = KEY) -> str:
    tmp_path.mkdir()
    module = tmp_path / "typed_toy.py"
    text = TYPED.replace("PROBE_KEY", probe).replace("DECISION_KEY", decision)
    module.write_text(text.replace("COUNTEREXAMPLE_KEY", counterexample))
    done = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "typecheck"), "--cache-dir", str(tmp_path / "cache"), str(module)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    pytest.importorskip("mypy")
    return tmp_path_factory.mktemp("typed")


def test_keys_spelt_alike_type_check(folder):
    out = typecheck(folder / "same")
    assert "Success: no issues found" in out, out


def test_a_misspelt_key_fails_the_type_check_where_it_is_misspelt(folder):
    """One module with the key misspelt in the probe, the decision and a counterexample (one
    mypy run): each of the three lines is flagged."""
    out = typecheck(folder / "misspelt", probe=MISSPELT, decision=MISSPELT, counterexample=MISSPELT)
    lines = (folder / "misspelt" / "typed_toy.py").read_text().splitlines()
    flagged = {int(n) for n in re.findall(r"typed_toy\.py:(\d+): error", out)}
    for where, line in {"probe": "return {", "decision": "seen[", "counterexample": "differs_on("}.items():
        assert any(line in lines[n - 1] for n in flagged), (where, out)
