"""Verdicts are decided from findings, and a declaration is checked when it is made."""

import pytest

from probes.behaviour import DIFFERS, HOLDS, Verdict, behaviour, decide


def test_all_checks_must_hold():
    v = decide(checks={"a": True, "b": False}, observed={"x": 1})
    assert v.verdict == DIFFERS
    assert v.checks == {"a": HOLDS, "b": DIFFERS}
    assert "b" in v.note


def test_single_finding():
    assert decide(holds=True).verdict == HOLDS
    assert decide(holds=False, note="saw y").note == "saw y"


def test_exactly_one_kind_of_finding():
    with pytest.raises(TypeError):
        decide()
    with pytest.raises(TypeError):
        decide(holds=True, checks={"a": True})


def test_unknown_verdict_and_tier_are_rejected():
    with pytest.raises(ValueError):
        Verdict("maybe")
    with pytest.raises(ValueError):
        behaviour(id="x.y", claim="c", source=("f", "s"), tier="nowhere")
