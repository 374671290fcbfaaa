"""The runner turns every way a probe can end into the right verdict, never a crash."""

import asyncio

from probes.behaviour import ERROR, HOLDS, NEEDS_LIVE, NOT_APPLICABLE, Behaviour, decide, not_applicable
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


async def differs_in_cwd(h):
    return h.verdict(holds=False, note=f"wrote {h.cwd}/x")


async def ts_only(h):
    return not_applicable("zod is TypeScript-only")


def test_note_is_normalised_and_not_applicable_passes_through():
    assert run_one(make(differs_in_cwd), RunSettings()).note == "wrote <CWD>/x"
    r = run_one(make(ts_only), RunSettings())
    assert (r.verdict, r.note) == (NOT_APPLICABLE, "zod is TypeScript-only")


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
