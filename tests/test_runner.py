"""The runner turns every way a probe can end into the right verdict, never a crash."""

import asyncio

from probes.behaviour import ERROR, HOLDS, NEEDS_LIVE, NOT_APPLICABLE, Behaviour, decide
from probes.runner import RunSettings, run_all, run_one


def make(probe, tier="wire", timeout=5.0, id="test.x"):
    return Behaviour(id=id, claim="c", source=("f", "s"), tier=tier, probe=probe, timeout=timeout)


async def holds(h):
    return h.verdict(holds=True, observed={"cwd": str(h.cwd)})


async def broken(h):
    raise KeyError("no such thing")


async def old_sdk(h):
    await h.wire(no_such_option=True)


async def hangs(h):
    await asyncio.sleep(60)


async def asks_live(h):
    return decide(holds=h.live)


def test_observation_is_normalised():
    r = run_one(make(holds), RunSettings())
    assert r.verdict == HOLDS and r.observed == {"cwd": "<CWD>"}


def test_a_probe_that_raises_is_an_error_not_a_finding():
    r = run_one(make(broken), RunSettings())
    assert r.verdict == ERROR and "KeyError" in r.note


def test_missing_option_is_not_applicable():
    r = run_one(make(old_sdk), RunSettings())
    assert r.verdict == NOT_APPLICABLE and "no_such_option" in r.note


def test_timeout_is_an_error():
    r = run_one(make(hangs, timeout=0.2), RunSettings())
    assert r.verdict == ERROR and "timed out" in r.note


def test_live_behaviour_without_live_is_needs_live():
    r = run_one(make(asks_live, tier="live"), RunSettings(live=False))
    assert r.verdict == NEEDS_LIVE


def test_live_flag_reaches_only_live_behaviours():
    assert run_one(make(asks_live, tier="cli"), RunSettings(live=True)).verdict != HOLDS
    assert run_one(make(asks_live, tier="live"), RunSettings(live=True)).verdict == HOLDS


def test_results_come_back_in_id_order_with_progress():
    seen = []
    results = run_all(
        [make(holds, id="b.b"), make(holds, id="a.a")],
        RunSettings(),
        progress=lambda r, done, total: seen.append((r.id, done, total)),
    )
    assert [r.id for r in results] == ["a.a", "b.b"]
    assert seen == [("b.b", 1, 2), ("a.a", 2, 2)]
