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


# --- every view reads it -------------------------------------------------------------------


def test_the_gate_the_upgrade_view_and_the_sdk_differences_page_give_one_answer():
    """For the same two reports the three views name the same moved behaviours, the same
    sub-check moves (one that appears and one that disappears among them) and the same
    behaviours on one side only."""
    from sdkprobe.report import compare, sdkdiff, upgrade
    from sdkprobe.report.grid import from_reports

    a, b = two(
        [
            result("wire.verdict"),
            result("wire.check", "differs", checks={"x": "holds", "y": "differs"}),
            result("wire.appears", checks={"kept": "holds"}),
            result("wire.disappears", checks={"kept": "holds", "gone": "holds"}),
            result("wire.seen", observed={"n": 1}),
            result("wire.old"),
        ],
        [
            result("wire.verdict", "differs"),
            result("wire.check", "differs", checks={"x": "differs", "y": "differs"}),
            result("wire.appears", checks={"kept": "holds", "extra": "holds"}),
            result("wire.disappears", checks={"kept": "holds"}),
            result("wire.seen", observed={"n": 2}),
            result("wire.new"),
        ],
    )
    moved = {"wire.verdict", "wire.check", "wire.appears", "wire.disappears"}
    check_moves = {("wire.check", "x", "holds", "differs"), ("wire.appears", "extra", None, "holds")}
    check_moves.add(("wire.disappears", "gone", "holds", None))

    gate = compare(a, b)
    assert {r.id for r in gate.rows if r.failing} == moved and gate.exit_code == 1
    assert {r.id for r in gate.rows if r.kind == "observation"} == {"wire.seen"}
    assert {(r.id, r.kind) for r in gate.rows if r.kind in ("added", "removed")} == {
        ("wire.new", "added"),
        ("wire.old", "removed"),
    }
    gate_text = {r.id: r.moved for r in gate.rows}
    assert "extra absent → holds" in gate_text["wire.appears"] and "gone holds → absent" in gate_text["wire.disappears"]

    up = upgrade.between(from_reports([a, b]), 0, 1)
    assert {m.id for m in up.moved} == moved and [c.id for c in up.seen_differently] == ["wire.seen"]
    assert {r.id for r, _ in up.added} == {"wire.new"} and {r.id for r, _ in up.dropped} == {"wire.old"}
    assert {(m.id, c.name, c.before, c.after) for m in up.moved for c in m.checks} == check_moves
    up_text = upgrade.render_markdown(up)
    assert "extra — → holds" in up_text and "gone holds → —" in up_text

    ts = {**b, "sdk": "typescript", "sdk_version": "0.3.332"}
    sdks = sdkdiff.pair(a, ts)
    assert {d.id for d in sdks.disagreements} == moved
    assert {(d.id, c.name, c.before, c.after) for d in sdks.disagreements for c in d.checks} == check_moves
    assert [e["id"] for e in sdks.only_typescript] == ["wire.new"]
    assert [e["id"] for e in sdks.only_python] == ["wire.old"]
    sdks_text = sdkdiff.comparison_markdown(sdks)
    assert "`extra` — · ✅ holds" in sdks_text and "`gone` ✅ holds · —" in sdks_text
