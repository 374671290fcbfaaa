"""A declaration is checked where it is made, and sub-checks combine into one verdict."""

import dataclasses
import re
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
from sdkprobe.declaration import Declaration, required


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
    "overrides, key, message",
    [
        ({"id": "nowhere.toy-claim"}, "id", "area 'nowhere' is not declared"),
        ({"id": "Tools.Toy"}, "id", "an id is area.lower-case-words"),
        ({"tier": "nowhere"}, "tier", "one of wire, cli, live, not 'nowhere'"),
        ({"source": ("999", "s")}, "source", "a key of sdkprobe's sources or one declared with declare_source"),
        ({"checks": ()}, "checks", "at least one"),
        ({"checks": ("it", "it")}, "checks", "distinct"),
        ({"checks": ("Bad Name",)}, "checks", "lower-case words"),
        ({"requires": ("options:tools",)}, "requires", "not one of option:NAME"),
        ({"claim": "short"}, "claim", "says in a sentence"),
        ({"cannot_decide": ("other",)}, "cannot_decide", "names undeclared sub-checks: other"),
        ({"controls": ("other",)}, "controls", "names undeclared sub-checks: other"),
        ({"controls": ("it",)}, "controls", "every sub-check is a control"),
        ({"summary": "two\nlines of a summary here"}, "summary", "a summary is one line"),
        ({"summary": "too short"}, "summary", "15 to 90 characters"),
        ({"summary": "x" * 91}, "summary", "15 to 90 characters, with no space at either end, not 91"),
        ({"summary": " padded summary line here"}, "summary", "no space at either end"),
        ({"renamed_from": ("Tools.Old",)}, "renamed_from", "an old id is area.lower-case-words too"),
        ({"renamed_from": ("tools.toy-claim",)}, "renamed_from", "not its own"),
        ({"renamed_from": ("tools.old-claim", "tools.old-claim")}, "renamed_from", "distinct"),
        ({"pins": {"other": ("option:tools",)}}, "pins", "names an undeclared sub-check 'other'"),
        ({"pins": {"it": ()}}, "pins", "at least one"),
        ({"pins": {"it": ("options:tools",)}}, "pins", "KIND:NAME with KIND one of option, client"),
        ({"pins": {"it": ("add_dirs",)}}, "pins", "is not KIND:NAME"),
        ({"pins": {"it": ("option:add_dirs", "option:add_dirs")}}, "pins", "distinct"),
        (
            {"checks": ("it", "setup"), "controls": ("setup",), "pins": {"setup": ("option:tools",)}},
            "pins",
            "pins nothing",
        ),
        (
            {"checks": ("it", "model"), "cannot_decide": ("model",), "pins": {"model": ("option:tools",)}},
            "pins",
            "pins nothing",
        ),
        ({"security": "unsafe"}, "security", "one line \\(15 to 160 characters\\)"),
        ({"timeout": 0}, "timeout", "a number of seconds above 0, not 0"),
    ],
)
def test_a_bad_value_fails_where_it_is_declared_naming_the_behaviour_and_the_key(overrides, key, message, monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})
    bid = overrides.get("id", "tools.toy-claim")
    with pytest.raises(DeclarationError, match=message) as raised:
        declare(**overrides)
    assert str(raised.value).startswith(f"behaviour {bid!r}, key {key!r}: "), raised.value


@pytest.mark.parametrize(
    "overrides, key, message",
    [
        ({"checks": "it"}, "checks", "is tuple[str, ...], not str"),
        ({"checks": ["it"]}, "checks", "is tuple[str, ...], not list[str]"),
        ({"checks": ("it", 2)}, "checks", "is tuple[str, ...], not tuple[str, int]"),
        ({"renamed_from": "tools.old-claim"}, "renamed_from", "is tuple[str, ...], not str"),
        ({"source": "003"}, "source", "is tuple[str, str], not str"),
        ({"source": ("003", "s", "t")}, "source", "is tuple[str, str], not tuple[str, str, str]"),
        ({"claim": None}, "claim", "is str, not NoneType"),
        ({"summary": ["a list of words"]}, "summary", "is str | None, not list[str]"),
        ({"pins": ("option:tools",)}, "pins", "is Mapping[str, tuple[str, ...]], not tuple[str]"),
        ({"pins": {"it": "option:tools"}}, "pins", "is Mapping[str, tuple[str, ...]], not dict[str, str]"),
        ({"pins": None}, "pins", "is Mapping[str, tuple[str, ...]], not NoneType"),
        ({"timeout": True}, "timeout", "is float, not bool"),
        ({"timeout": "60"}, "timeout", "is float, not str"),
        ({"security": 1}, "security", "is str | None, not int"),
    ],
)
def test_a_key_of_the_wrong_type_is_named_with_the_type_it_takes(overrides, key, message, monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})
    with pytest.raises(DeclarationError) as raised:
        declare(**overrides)
    assert str(raised.value) == f"behaviour 'tools.toy-claim', key {key!r}: {message}"


def test_an_unknown_key_is_named_with_the_one_meant(monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})
    with pytest.raises(DeclarationError) as raised:
        declare(claims="a claim long enough to read")
    assert str(raised.value).startswith("behaviour 'tools.toy-claim', key 'claims': no such key (did you mean 'claim'?")
    with pytest.raises(DeclarationError, match="key 'color': no such key \\(the keys: docs/own-behaviours.md\\)"):
        declare(color="red")
    with pytest.raises(DeclarationError, match="key 'covers': became pins="):
        declare(covers=("option:tools",))


@pytest.mark.parametrize("key", required())
def test_a_missing_required_key_is_named(key, monkeypatch):
    monkeypatch.setattr(declaring, "REGISTRY", {})
    fields = dict(
        id="tools.toy-claim", claim="a claim long enough to read", source=("003", "s"), tier="wire", checks=("it",)
    )
    assert set(fields) == set(required())
    del fields[key]
    who = "(no id)" if key == "id" else "'tools.toy-claim'"
    with pytest.raises(DeclarationError, match=rf"^behaviour {re.escape(who)}, key {key!r}: is required$"):
        declaring.behaviour(**fields)


def test_the_declared_form_is_kept_as_written_and_ready_to_read(monkeypatch):
    """pins in declared sub-check order, whatever order the mapping was written in; security
    trimmed; requires kept as written, and parsed as `requirements`; an int timeout is a number."""
    monkeypatch.setattr(declaring, "REGISTRY", {})

    async def probe(h):
        return {}

    toy = declare(
        checks=("a", "b"),
        pins={"b": ("option:tools",), "a": ("client:interrupt",)},
        requires=("option:tools", "cli>=2.1.3"),
        security="  a deny that stops being honoured runs the tool  ",
        timeout=90,
    )(probe).behaviour
    assert list(toy.pins) == ["a", "b"] and toy.security == "a deny that stops being honoured runs the tool"
    assert toy.requires == ("option:tools", "cli>=2.1.3")
    assert [str(r) for r in toy.requirements] == ["option:tools", "cli>=2.1.3"] and toy.timeout == 90


def test_the_keys_table_in_the_docs_lists_exactly_the_declarations_fields():
    """docs/own-behaviours.md documents every key once, as a table: the key, whether it is
    required, its type as the dataclass spells it, and what it means. Held to the dataclass,
    so neither a new key nor a changed type goes undocumented."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "own-behaviours.md").read_text(encoding="utf-8")
    section = doc.split("\n## The declaration's keys\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    assert all(len(c) == 4 and c[3] for c in cells), cells  # key, required, type, meaning
    table = [(key, required_, kind.replace("\\|", "|")) for key, required_, kind, _ in cells]
    expected = [
        (f"`{f.name}`", "yes" if f.name in required() else "no", f"`{f.type}`") for f in dataclasses.fields(Declaration)
    ]
    assert table == expected


def test_a_teams_own_area_and_source_are_declared_once_and_then_accepted(monkeypatch):
    """declare_area/declare_source let a catalogue of a team's own use its own words: the same
    declaration again is a no-op (a module imported twice), other words under a taken name are refused."""
    from sdkprobe import areas, sources

    monkeypatch.setattr(declaring, "REGISTRY", {})
    monkeypatch.setattr(areas, "BY_NAME", dict(areas.BY_NAME))
    monkeypatch.setattr(sources, "SOURCES", dict(sources.SOURCES))
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

    assert declare(security="a deny that stops being honoured")(probe).behaviour.security
    assert declare(id="tools.toy-unmarked")(probe).behaviour.security is None
    for bad in ("unsafe", "x" * 161):
        with pytest.raises(DeclarationError, match="key 'security': one line"):
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
    assert list(b.pins.items()) == [("sent", ("option:add_dirs", "option:tools")), ("ran", ("client:interrupt",))]
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
    declared = {item for b in catalogue.load() for items in b.pins.values() for item in items}
    assert declared and declared <= known, sorted(declared - known)
