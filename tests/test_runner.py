"""The runner turns every way a probe can end into the right verdict, never a crash."""

import asyncio
import dataclasses
from pathlib import Path

from sdkprobe.behaviour import ERROR, HOLDS, NEEDS_LIVE, NOT_APPLICABLE, Behaviour, NotApplicable, check
from sdkprobe.runner import RunSettings, judge, run_all, run_one


def make(probe, tier="wire", timeout=5.0, id="tools.x", decision=None, checks=("it",), requires=()):
    return Behaviour(
        id=id,
        claim="a claim long enough to read",
        source=("003", "s"),
        tier=tier,
        checks=checks,
        requires=tuple(requires),
        probe=probe,
        decision=decision or (lambda seen: {"it": check(bool(seen.get("ok")), f"saw {seen}")}),
        timeout=timeout,
    )


async def holds(h):
    return {"ok": True, "cwd": str(h.cwd)}


async def differs_in_cwd(h):
    return {"ok": False, "wrote": f"{h.cwd}/x"}


async def broken(h):
    raise KeyError("no such thing")


async def undeclared_option(h):
    await h.wire(no_such_option=True)


async def starts_a_session(h):
    await h.cli("hi")


async def hangs(h):
    await asyncio.sleep(60)


async def asks_live(h):
    return {"ok": h.live}


async def ts_only(h):
    raise NotApplicable("zod is TypeScript-only")


def test_observation_is_normalised_before_it_is_judged():
    seen = []
    r = run_one(make(holds, decision=lambda o: seen.append(o) or {"it": check(True, "")}), RunSettings())
    assert r.verdict == HOLDS and r.observed == {"ok": True, "cwd": "<CWD>"} and seen == [r.observed]


def test_note_names_the_normalised_values_and_not_applicable_passes_through():
    r = run_one(make(differs_in_cwd), RunSettings())
    assert r.note == "it: saw {'ok': False, 'wrote': '<CWD>/x'}"
    r = run_one(make(ts_only), RunSettings())
    assert (r.verdict, r.note) == (NOT_APPLICABLE, "zod is TypeScript-only")


def test_a_result_carries_the_declared_summary_and_the_sources_page():
    unmet = make(holds, requires=("option:no_such_field",))  # not-applicable before anything runs
    d = run_one(dataclasses.replace(unmet, summary="the toy claim in a line"), RunSettings()).to_dict()
    assert d["summary"] == "the toy claim in a line"
    assert d["source"]["page"] == "docs/sources/003.md" and d["source"]["url"] is None
    assert "summary" not in run_one(unmet, RunSettings()).to_dict()  # none declared: left out


def test_a_probe_that_raises_is_an_error_not_a_finding():
    r = run_one(make(broken), RunSettings())
    assert r.verdict == ERROR and "KeyError" in r.note


def test_a_decision_that_raises_is_an_error():
    r = run_one(make(holds, decision=lambda seen: {"it": check(seen["missing"], "")}), RunSettings())
    assert r.verdict == ERROR and "decision of tools.x raised KeyError 'missing'" in r.note


def _(seen):  # named as every decision of the catalogue is
    return {"it": check(seen["missing"], "")}


def _fate(seen):
    return seen["missing"]


def _through_a_helper(seen):
    return {"it": check(_fate(seen), "")}


def test_a_raising_decisions_note_names_the_behaviour_and_its_file_and_line():
    here = Path(__file__).resolve().relative_to(Path(__file__).resolve().parent.parent).as_posix()
    r = run_one(make(holds, id="tools.named-by-id", decision=_), RunSettings())
    line = _.__code__.co_firstlineno + 1
    assert (r.verdict, r.note) == (ERROR, f"decision of tools.named-by-id raised KeyError 'missing' at {here}:{line}")
    # raised in a helper of the decision's module: that line, and the helper's name
    r = run_one(make(holds, decision=_through_a_helper), RunSettings())
    line = _fate.__code__.co_firstlineno + 1
    assert r.note == f"decision of tools.x raised KeyError 'missing' at {here}:{line} in _fate"
    # judged again from a report (sdkprobe rejudge): the same note
    assert judge(make(holds, decision=_), {}).note.startswith("decision of tools.x raised KeyError 'missing' at ")


def test_sub_checks_other_than_the_declared_are_an_error_naming_the_difference():
    r = run_one(
        make(holds, checks=("it", "other"), decision=lambda s: {"it": check(True, ""), "typo": check(True, "")}),
        RunSettings(),
    )
    assert r.verdict == ERROR
    assert "undeclared: typo" in r.note and "missing: other" in r.note


def test_an_unmet_requirement_is_not_applicable_before_the_probe_runs():
    ran = []

    async def probe(h):
        ran.append(1)
        return {"ok": True}

    r = run_one(make(probe, requires=("option:no_such_field", "package:no_such_package_xyz")), RunSettings())
    assert r.verdict == NOT_APPLICABLE and ran == []
    assert "no field 'no_such_field'" in r.note and "'no_such_package_xyz' is not installed" in r.note


def test_an_undeclared_missing_option_is_an_error_that_says_what_to_declare():
    r = run_one(make(undeclared_option), RunSettings())
    assert r.verdict == ERROR and "no_such_option" in r.note and "requires=" in r.note


def test_a_missing_option_the_behaviour_declared_is_not_applicable():
    from sdkprobe.harness import OptionMissing

    async def probe(h):
        raise OptionMissing("the SDK under test cannot take tools here", ["tools"])

    declared = run_one(make(probe, requires=("option:tools",)), RunSettings())
    assert declared.verdict == NOT_APPLICABLE and declared.note == "the SDK under test cannot take tools here"
    undeclared = run_one(make(probe), RunSettings())
    assert undeclared.verdict == ERROR and "requires=('option:tools',)" in undeclared.note


def test_a_wire_behaviour_may_not_start_a_real_cli():
    r = run_one(make(starts_a_session, tier="wire"), RunSettings())
    assert r.verdict == ERROR and "TierError" in r.note


def test_timeout_is_an_error():
    r = run_one(make(hangs, timeout=0.2), RunSettings())
    assert r.verdict == ERROR and "timed out" in r.note


def test_live_behaviour_without_live_is_needs_live():
    r = run_one(make(asks_live, tier="live"), RunSettings(live=False))
    assert r.verdict == NEEDS_LIVE and r.checks == {"it": NEEDS_LIVE}


def test_live_flag_reaches_only_live_behaviours():
    assert run_one(make(asks_live, tier="cli"), RunSettings(live=True)).verdict != HOLDS
    assert run_one(make(asks_live, tier="live"), RunSettings(live=True)).verdict == HOLDS


def test_results_come_back_in_the_order_given_with_progress():
    seen = []
    results = run_all(
        [make(holds, id="wire.b"), make(holds, id="tools.a")],
        RunSettings(),
        progress=lambda r, done, total: seen.append((r.id, done, total)),
    )
    assert [r.id for r in results] == ["wire.b", "tools.a"]
    assert seen == [("wire.b", 1, 2), ("tools.a", 2, 2)]


def test_a_team_catalogues_decision_is_named_from_the_working_directory(monkeypatch, tmp_path):
    import sdkprobe.runner

    monkeypatch.setattr(sdkprobe.runner, "_PROJECT", tmp_path / "elsewhere")  # the file lies outside sdkprobe
    monkeypatch.chdir(Path(__file__).parent)
    r = run_one(make(holds, decision=_), RunSettings())
    assert r.note.endswith(f" at test_runner.py:{_.__code__.co_firstlineno + 1}"), r.note
