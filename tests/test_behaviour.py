"""A declaration is checked where it is made, and sub-checks combine into one verdict."""

from pathlib import Path

import pytest

from sdkprobe import behaviour as declaring
from sdkprobe.behaviour import (
    DIFFERS,
    HOLDS,
    NEEDS_LIVE,
    NOT_APPLICABLE,
    Check,
    DeclarationError,
    Verdict,
    check,
    combine,
    needs_live,
    undecidable,
)


def test_any_differing_sub_check_makes_the_behaviour_differ_and_names_it():
    v = combine({"a": check(True, ""), "b": check(False, "saw 3, not 4"), "c": needs_live("model")})
    assert (v.verdict, v.note) == (DIFFERS, "b: saw 3, not 4; undecided: c needs-live: model")
    assert v.checks == {"a": HOLDS, "b": DIFFERS, "c": NEEDS_LIVE}


def test_holds_names_every_sub_check_left_undecided_and_why():
    assert combine({"a": check(True, ""), "b": needs_live("model"), "c": undecidable("TS only")}) == Verdict(
        HOLDS,
        "undecided: b needs-live: model; c not-applicable: TS only",
        {"a": HOLDS, "b": NEEDS_LIVE, "c": NOT_APPLICABLE},
    )
    assert combine({"a": check(True, "")}).note == ""


def test_nothing_decided_offline_is_needs_live_or_not_applicable():
    assert combine({"a": needs_live("a real model")}).verdict == NEEDS_LIVE
    assert combine({"a": undecidable("TypeScript only"), "b": undecidable("TypeScript only")}) == Verdict(
        NOT_APPLICABLE, "a, b not-applicable: TypeScript only", {"a": NOT_APPLICABLE, "b": NOT_APPLICABLE}
    )


def test_a_control_that_held_never_carries_an_undecided_claim():
    """The stand-in held, the original was not observed: that is no `holds`."""
    checks = {"stand-in": check(True, ""), "original": undecidable("Node only")}
    assert combine(checks) == Verdict(
        HOLDS,
        "undecided: original not-applicable: Node only",
        dict.fromkeys(checks) | {"stand-in": HOLDS, "original": NOT_APPLICABLE},
    )
    v = combine(checks, controls=("stand-in",))
    assert (v.verdict, v.note) == (NOT_APPLICABLE, "original not-applicable: Node only (controls held: stand-in)")
    live = combine({"peripheral": check(True, ""), "claim": needs_live("a claude.ai login")}, controls=("peripheral",))
    assert (live.verdict, live.note) == (NEEDS_LIVE, "claim needs-live: a claude.ai login (controls held: peripheral)")


def test_a_control_that_differs_makes_the_behaviour_differ():
    v = combine(
        {"positive-case": check(False, "marker never sent"), "excluded": undecidable("no control")},
        controls=("positive-case",),
    )
    assert (v.verdict, v.note) == (
        DIFFERS,
        "positive-case: marker never sent; undecided: excluded not-applicable: no control",
    )


def test_a_decided_claim_beside_controls_holds():
    v = combine({"control": check(True, ""), "claim": check(True, "")}, controls=("control",))
    assert (v.verdict, v.note) == (HOLDS, "")


def test_a_sub_check_that_does_not_hold_must_say_why():
    with pytest.raises(ValueError):
        check(False, " ")
    with pytest.raises(ValueError):
        Check("maybe")
    with pytest.raises(ValueError):
        Verdict("maybe")


def declare(**overrides):
    fields = dict(
        id="tools.toy-claim", claim="a claim long enough to read", source=("003", "s"), tier="wire", checks=("it",)
    )
    fields.update(overrides)
    return declaring.behaviour(**fields)


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"id": "nowhere.toy-claim"}, "area 'nowhere' is not declared"),
        ({"id": "Tools.Toy"}, "an id is area.lower-case-words"),
        ({"tier": "nowhere"}, "tier must be one of"),
        ({"source": ("999", "s")}, "a key of sdkprobe's sources or one declared with declare_source"),
        ({"checks": ()}, "at least one"),
        ({"checks": "it"}, "a tuple"),
        ({"checks": ("it", "it")}, "distinct"),
        ({"checks": ("Bad Name",)}, "lower-case words"),
        ({"requires": ("options:tools",)}, "not one of option:NAME"),
        ({"claim": "short"}, "the claim says"),
        ({"cannot_decide": ("other",)}, "cannot_decide names undeclared sub-checks: other"),
        ({"controls": ("other",)}, "controls names undeclared sub-checks: other"),
        ({"controls": ("it",)}, "every sub-check is a control"),
        ({"summary": "two\nlines of a summary here"}, "a summary is one line"),
        ({"summary": "too short"}, "15 to 90 characters"),
        ({"summary": "x" * 91}, "15 to 90 characters, with no space at either end, not 91"),
        ({"summary": " padded summary line here"}, "no space at either end"),
        ({"summary": ["a list of words"]}, "a summary is a string"),
        ({"renamed_from": "tools.old-claim"}, "renamed_from is a tuple of old ids"),
        ({"renamed_from": ("Tools.Old",)}, "an old id in renamed_from is area.lower-case-words too"),
        ({"renamed_from": ("tools.toy-claim",)}, "not its own"),
        ({"renamed_from": ("tools.old-claim", "tools.old-claim")}, "distinct"),
        ({"covers": ("option:tools",)}, "covers= became pins="),
        ({"pins": ("option:tools",)}, "pins maps a sub-check to the surface items"),
        ({"pins": {"other": ("option:tools",)}}, "pins names an undeclared sub-check 'other'"),
        ({"pins": {"it": "option:tools"}}, "a tuple of distinct surface items"),
        ({"pins": {"it": ()}}, "at least one"),
        ({"pins": {"it": ("options:tools",)}}, "KIND:NAME with KIND one of option, client"),
        ({"pins": {"it": ("add_dirs",)}}, "is not KIND:NAME"),
        ({"pins": {"it": ("option:add_dirs", "option:add_dirs")}}, "distinct"),
        ({"checks": ("it", "setup"), "controls": ("setup",), "pins": {"setup": ("option:tools",)}}, "pins nothing"),
        (
            {"checks": ("it", "model"), "cannot_decide": ("model",), "pins": {"model": ("option:tools",)}},
            "pins nothing",
        ),
    ],
)
def test_a_bad_declaration_fails_where_it_is_made(overrides, message, monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})
    with pytest.raises(DeclarationError, match=message):
        declare(**overrides)


def test_a_teams_own_area_and_source_are_declared_once_and_then_accepted(monkeypatch):
    """declare_area/declare_source let a catalogue of a team's own use its own words: the same
    declaration again is a no-op (a module imported twice), other words under a taken name are refused."""
    from sdkprobe import areas, sources

    monkeypatch.setattr(declaring, "REGISTRY", {})
    monkeypatch.setattr(areas, "BY_NAME", dict(areas.BY_NAME))
    monkeypatch.setattr(sources, "SOURCES", dict(sources.SOURCES))
    monkeypatch.setattr(declaring, "AREAS", areas.BY_NAME)
    monkeypatch.setattr(declaring, "SOURCES", sources.SOURCES)
    with pytest.raises(DeclarationError, match="area 'myapp' is not declared"):
        declare(id="myapp.toy-claim")
    declaring.declare_area("myapp", "What myapp relies on", "its options")
    declaring.declare_area("myapp", "What myapp relies on", "its options")
    declaring.declare_source("myapp-notes", "myapp's notes")
    declare(id="myapp.toy-claim", source=("myapp-notes", "Limits"))
    assert [a.name for a in areas.all_areas()][-1] == "myapp" and areas.order("myapp") == (12, "")
    with pytest.raises(ValueError, match="declared already"):
        declaring.declare_area("myapp", "Other words", "its options")
    with pytest.raises(ValueError, match="declared already"):
        declaring.declare_area("tools", "Tools offered", "mine now")
    with pytest.raises(ValueError, match="declared already"):
        declaring.declare_source("003", "another document")
    with pytest.raises(ValueError, match="one lower-case word"):
        declaring.declare_area("My App", "t", "c")


def test_a_summary_of_15_to_90_characters_is_kept_and_none_is_optional(monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})

    async def probe(h):
        return {}

    shortest, longest = "x" * 15, "y" * 90
    assert declare(summary=shortest)(probe).behaviour.summary == shortest
    assert declare(id="tools.toy-other", summary=longest)(probe).behaviour.summary == longest
    assert declare(id="tools.toy-none")(probe).behaviour.summary is None


def test_a_security_mark_is_one_line_saying_what_a_change_would_expose(monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})

    async def probe(h):
        return {}

    marked = declare(security="  a deny that stops being honoured runs the tool  ")(probe)
    assert marked.behaviour.security == "a deny that stops being honoured runs the tool"
    assert declare(id="tools.toy-unmarked")(probe).behaviour.security is None
    for bad in ("unsafe", "x" * 161):
        with pytest.raises(DeclarationError, match="security says in one line"):
            declare(id="tools.toy-bad", security=bad)(probe)


def test_declared_twice_or_decided_twice_is_refused(monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})

    async def probe(h):
        return {}

    toy = declare()(probe)
    toy.decide(lambda seen: {"it": check(True, "")})
    with pytest.raises(DeclarationError, match="decided twice"):
        toy.decide(lambda seen: {"it": check(True, "")})
    with pytest.raises(DeclarationError, match="declared twice"):
        declare()(probe)


def test_a_behaviour_without_a_decision_cannot_be_judged(monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})

    async def probe(h):
        return {}

    toy = declare()(probe)
    with pytest.raises(DeclarationError, match="no decision"):
        toy.behaviour.judge({})


def test_an_old_id_is_neither_a_declared_id_nor_another_behaviours_old_id(monkeypatch):
    """renamed_from names ids no one else answers to: otherwise an old report's entry, or an
    --only naming it, would have two behaviours to go to."""
    monkeypatch.setattr(declaring, "REGISTRY", {})

    async def probe(h):
        return {}

    renamed = declare(id="tools.new-claim", renamed_from=("tools.old-claim",))(probe)
    assert renamed.behaviour.renamed_from == ("tools.old-claim",)
    declare(id="tools.other-claim")(probe)
    with pytest.raises(DeclarationError, match="'tools.other-claim': a declared behaviour has that id"):
        declare(id="tools.third-claim", renamed_from=("tools.other-claim",))(probe)
    with pytest.raises(DeclarationError, match="tools.new-claim was renamed from it already"):
        declare(id="tools.third-claim", renamed_from=("tools.old-claim",))(probe)
    with pytest.raises(DeclarationError, match="tools.new-claim was renamed from it: .* cannot be declared again"):
        declare(id="tools.old-claim")(probe)


def _pinning_toy(bid: str, **overrides):
    """A behaviour whose sub-check `sent` differs when the flag was not sent, `ran` when it did
    not run; its counterexamples are given with `differs_on` by each test."""

    async def probe(h):
        return {}

    declared = declare(id=bid, checks=("sent", "ran"), **overrides)(probe)
    declared.decide(lambda seen: {"sent": check(seen["sent"], "not sent"), "ran": check(seen["ran"], "did not run")})
    return declared


def test_an_item_is_covered_only_by_a_pin_a_counterexample_shows_failing(monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})
    toy = _pinning_toy(
        "tools.toy-pins",
        requires=("option:tools", "api:ClaudeSDKClient.interrupt", "field:AgentDefinition.skills", "package:mcp"),
        pins={"ran": ("client:interrupt",), "sent": ("option:add_dirs", "option:tools")},
    )
    b = toy.behaviour
    assert b.pins == (("sent", ("option:add_dirs", "option:tools")), ("ran", ("client:interrupt",)))  # declared order
    assert b.named == ("agent:skills", "client:interrupt", "option:add_dirs", "option:tools")
    assert b.covered == () and b.pinned() == {}  # no counterexample yet: no pin is shown to notice anything
    toy.differs_on({"sent": False, "ran": True})
    assert toy.behaviour.pinned() == {"option:add_dirs": ("sent",), "option:tools": ("sent",)}
    # the requirement names agent:skills, and `ran` pins client:interrupt, but no counterexample makes it differ
    assert toy.behaviour.covered == ("option:add_dirs", "option:tools")
    toy.differs_on({"sent": True, "ran": False})
    assert toy.behaviour.covered == ("client:interrupt", "option:add_dirs", "option:tools")
    assert toy.behaviour.shown_differing() == {"sent", "ran"}


def test_the_catalogue_counts_coverage_from_pins_never_from_requires(monkeypatch):
    from sdkprobe import catalogue

    monkeypatch.setattr(declaring, "REGISTRY", {})
    by_need = _pinning_toy("tools.by-need", requires=("option:tools",))
    by_need.differs_on({"sent": False, "ran": False})
    by_claim = _pinning_toy("tools.by-claim", pins={"sent": ("option:tools",), "ran": ("client:interrupt",)})
    by_claim.differs_on({"sent": False, "ran": False})
    unproven = _pinning_toy("tools.unproven", pins={"ran": ("option:add_dirs",)})
    unproven.differs_on({"sent": False, "ran": True})
    behaviours = [by_need.behaviour, by_claim.behaviour, unproven.behaviour]
    monkeypatch.setattr(catalogue, "load", lambda: behaviours)
    assert catalogue.covering("option:tools") == ["tools.by-claim"]
    assert catalogue.covering("option:add_dirs") == []
    assert catalogue.pinning() == {
        "client:interrupt": {"tools.by-claim": ["ran"]},
        "option:tools": {"tools.by-claim": ["sent"]},
    }
    assert catalogue.coverage() == {"client:interrupt": ["tools.by-claim"], "option:tools": ["tools.by-claim"]}
    assert catalogue.naming()["option:tools"] == ["tools.by-claim", "tools.by-need"]
    assert catalogue.naming()["option:add_dirs"] == ["tools.unproven"]


def test_every_declared_pin_names_an_item_of_the_installed_sdk():
    """A `pins=` in sdkprobe's catalogue names items as `sdkprobe surface` spells them, or as
    `surface --sdk ts@V` does for the newest TypeScript release recorded (its report's surface)."""
    import json

    from sdkprobe import catalogue
    from sdkprobe.releases.versions import TS_VERSIONS
    from sdkprobe.surface import names

    newest_ts = Path(__file__).resolve().parent.parent / "reports" / "ts" / f"{TS_VERSIONS[-1]}.json"
    known = set(names()) | set(json.loads(newest_ts.read_text())["surface"])
    declared = {item for b in catalogue.load() for _, items in b.pins for item in items}
    assert declared and declared <= known, sorted(declared - known)
