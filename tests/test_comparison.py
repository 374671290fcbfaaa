"""The one comparison of two reports notices each kind of move: a verdict, a sub-check (one
only one report names included), an observation beyond the reports' own versions, a behaviour
and a public item on one side only."""

from __future__ import annotations

from sample_reports import info, report, result

from sdkprobe.report.comparison import VERSION, CheckMove, compare_reports


def two(
    first: list[dict], second: list[dict], surfaces: tuple[list[str] | None, list[str] | None] = (None, None)
) -> tuple[dict, dict]:
    """Reports of 0.2.180 and 0.2.189 with these entries, and these surfaces (None: none recorded)."""
    a = report(first, info("0.2.180", "2.1.321"))
    b = report(second, info("0.2.189", "2.1.332"))
    for side, items in zip((a, b), surfaces, strict=True):
        if items is not None:
            side["surface"] = sorted(items)
    return a, b


def test_identical_reports_compare_to_nothing():
    a, _ = two([result("wire.a", checks={"x": "holds"}, observed={"n": 1})], [])
    c = compare_reports(a, a)
    assert (c.shared, c.changes, c.added, c.removed) == (1, (), (), ())


def test_a_verdict_and_a_sub_check_move():
    a, b = two(
        [result("wire.a"), result("wire.b", "differs", checks={"x": "holds", "y": "differs"})],
        [result("wire.a", "differs"), result("wire.b", "differs", checks={"x": "differs", "y": "differs"})],
    )
    c = compare_reports(a, b)
    assert [(m.id, m.verdict_moved, m.checks) for m in c.moved] == [
        ("wire.a", True, ()),
        ("wire.b", False, (CheckMove("x", "holds", "differs"),)),
    ]


def test_a_sub_check_on_one_side_only_moved_from_or_to_absent():
    a, b = two(
        [result("wire.a", checks={"kept": "holds", "gone": "holds"})],
        [result("wire.a", checks={"kept": "holds", "new": "differs"})],
    )
    [m] = compare_reports(a, b).moved
    assert not m.verdict_moved and m.checks == (CheckMove("gone", "holds", None), CheckMove("new", None, "differs"))
    [back] = compare_reports(b, a).moved
    assert back.checks == (CheckMove("gone", None, "holds"), CheckMove("new", "differs", None))


def test_an_observation_change_beyond_the_reports_versions():
    a, b = two(
        [result("wire.a", observed={"v": "sdk 0.2.180 cli 2.1.321"}), result("wire.b", observed={"n": 1})],
        [result("wire.a", observed={"v": "sdk 0.2.189 cli 2.1.332"}), result("wire.b", observed={"n": 2})],
    )
    c = compare_reports(a, b)
    assert c.moved == []
    [seen] = c.seen_differently
    assert seen.id == "wire.b" and seen.seen() == ["observed.n: 1 → 2"]
    a2, b2 = two([result("wire.a", "differs", "on 0.2.180")], [result("wire.a", "differs", "on 0.2.190")])
    [note] = compare_reports(a2, b2).seen_differently
    assert note.note_moved and note.notes == (f"on {VERSION}", "on 0.2.190")


def test_behaviours_and_public_items_on_one_side():
    a, b = two(
        [result("hooks.a"), result("wire.old")],
        [result("hooks.a"), result("wire.new"), result("hooks.new")],
        (["option:a", "option:gone"], ["option:a", "option:new"]),
    )
    c = compare_reports(a, b)
    assert [e["id"] for e in c.added] == ["wire.new", "hooks.new"]  # the declared areas' order, not by name
    assert [e["id"] for e in c.removed] == ["wire.old"]
    assert (c.surface_added, c.surface_removed, c.surface_lacking) == (("option:new",), ("option:gone",), ())


def test_a_surface_only_one_report_records_is_not_compared():
    a, b = two([result("wire.a")], [result("wire.a")], (None, ["option:new"]))
    c = compare_reports(a, b)
    assert (c.surface_added, c.surface_removed, c.surface_lacking) == ((), (), ("0.2.180",))
