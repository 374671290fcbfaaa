"""The upgrade gate notices changed verdicts, notes changed observations, honours a
relied-on list, and turns bad input into exit 2 with one line."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sample_reports import info, result

from sdkprobe.behaviour import VERDICTS
from sdkprobe.commands import main as cli_main
from sdkprobe.report import ReportError, build, compare, read_relied_on, write

ROOT = Path(__file__).resolve().parents[1]


def report(sdk, *results):
    return build(list(results), info(sdk))


BASE = report(
    "0.2.180",
    result("wire.tools", checks={"list": "holds", "empty": "holds"}, observed={"--tools": ["Bash,Read", ""]}),
    result("hooks.fire", observed={"fired": 1}),
    result("mcp.old"),
)


def moved(**changes) -> dict:
    """BASE as version 0.2.189, with behaviours replaced by id."""
    cand = copy.deepcopy(BASE)
    cand["sdk_version"] = "0.2.189"
    cand["behaviours"] = [changes.get(b["id"], b) for b in cand["behaviours"]]
    return cand


def test_identical_reports_pass_with_nothing_listed():
    result_ = compare(BASE, moved())
    assert result_.exit_code == 0 and result_.rows == []
    assert "Nothing moved" in result_.render()


def test_a_run_on_another_cli_is_named_with_it():
    cand = moved(**{"hooks.fire": result("hooks.fire", "differs", "no hook ran", observed={"fired": 0})})
    cand.update(cli="custom", cli_version="2.1.336")
    text = compare(BASE, cand).render()
    assert "candidate 0.2.189 + CLI 2.1.336" in text and "0.2.180 → 0.2.189 + CLI 2.1.336:" in text
    assert "baseline 0.2.180 + CLI" not in text  # the bundled CLI's run: its version alone


def test_a_changed_verdict_fails():
    cand = moved(**{"hooks.fire": result("hooks.fire", "differs", "no hook ran", observed={"fired": 0})})
    gate = compare(BASE, cand)
    assert gate.exit_code == 1
    [row] = gate.rows
    assert (row.id, row.baseline, row.candidate, row.kind, row.failing) == (
        "hooks.fire",
        "holds",
        "differs",
        "verdict",
        True,
    )
    assert "holds → differs: no hook ran" in row.moved
    table = gate.render()
    assert [c.strip() for c in table.splitlines()[0].split("|")[1:5]] == [
        "behaviour",
        "baseline 0.2.180",
        "candidate 0.2.189",
        "what moved",
    ]
    assert "✗ hooks.fire" in table and "FAIL" in table


def test_a_changed_sub_check_fails_even_under_the_same_verdict():
    old = dict(result("wire.tools", "differs", "differs in empty", {"list": "holds", "empty": "differs"}))
    new = dict(result("wire.tools", "differs", "differs in list", {"list": "differs", "empty": "holds"}))
    gate = compare(report("1", old), report("2", new))
    assert gate.exit_code == 1
    assert "sub-checks empty differs → holds, list holds → differs" in gate.rows[0].moved


def test_an_observation_change_is_a_note_unless_strict():
    cand = moved(
        **{
            "wire.tools": result(
                "wire.tools", checks={"list": "holds", "empty": "holds"}, observed={"--tools": ["Bash,Read", "default"]}
            )
        }
    )
    gate = compare(BASE, cand)
    assert gate.exit_code == 0
    [row] = gate.rows
    assert row.kind == "observation" and not row.failing
    assert 'observed.--tools[1]: "" → "default"' in row.moved
    assert "1 observation change(s)" in gate.summary() and "PASS" in gate.summary()
    assert compare(BASE, cand, strict=True).exit_code == 1


def test_a_sub_check_on_one_side_only_fails_as_a_move():
    """The comparison's rule (report/comparison.py): a sub-check that appears or disappears
    moved, from or to absent; the gate fails on it as on any sub-check move."""
    cand = moved(**{"hooks.fire": result("hooks.fire", checks={"extra": "holds"}, observed={"fired": 1})})
    gate = compare(BASE, cand)
    [row] = gate.rows
    assert gate.exit_code == 1 and (row.kind, row.failing) == ("verdict", True)
    assert row.moved == "sub-checks extra absent → holds"
    gone = compare(cand, moved())
    assert gone.exit_code == 1 and gone.rows[0].moved == "sub-checks extra holds → absent"
    # with a relied-on list, only when the behaviour is relied on
    assert compare(BASE, cand, relied_on={"wire.tools"}).exit_code == 0


def test_an_observation_differing_only_by_the_reports_own_versions_has_not_changed():
    """The SDK reporting its own version is no change, even with --strict; anything else
    that changed beside it still is."""
    base = report("0.2.180", result("wire.env", observed={"version": "0.2.180", "cli": "2.1.9"}))
    same = report("0.2.189", result("wire.env", observed={"version": "0.2.189", "cli": "2.1.9"}))
    assert compare(base, same, strict=True).rows == []
    other = report("0.2.189", result("wire.env", observed={"version": "0.2.189", "cli": "2.1.7"}))
    [row] = compare(base, other, strict=True).rows
    assert (row.kind, row.failing, row.moved) == ("observation", True, 'observed.cli: "2.1.9" → "2.1.7"')


def test_added_and_removed_behaviours_are_listed_and_pass():
    cand = moved()
    cand["behaviours"] = [b for b in cand["behaviours"] if b["id"] != "mcp.old"] + [result("mcp.new", "differs", "x")]
    gate = compare(BASE, cand)
    assert gate.exit_code == 0
    assert {(r.id, r.kind, r.baseline, r.candidate) for r in gate.rows} == {
        ("mcp.new", "added", "", "differs"),
        ("mcp.old", "removed", "holds", ""),
    }
    assert "1 added, 1 removed" in gate.summary()


def test_relied_on_limits_what_fails():
    cand = moved(**{"hooks.fire": result("hooks.fire", "differs", "no hook ran")})
    assert compare(BASE, cand, relied_on={"wire.tools"}).exit_code == 0
    gate = compare(BASE, cand, relied_on={"hooks.fire"})
    assert gate.exit_code == 1 and "hooks.fire (relied on)" in gate.table()
    # a change outside the list is still shown, just not failing
    not_relied = compare(BASE, cand, relied_on={"wire.tools"})
    assert [(r.id, r.failing) for r in not_relied.rows] == [("hooks.fire", False)]


def test_relied_on_rejects_an_id_in_neither_report():
    with pytest.raises(ReportError, match="relied-on id.* in neither report: wire.nope"):
        compare(BASE, moved(), relied_on={"wire.tools", "wire.nope"})


def test_read_relied_on_skips_comments_and_blanks(tmp_path):
    f = tmp_path / "relied-on.txt"
    f.write_text("# our code relies on these\n\nwire.tools\n  hooks.fire   # the audit hook\n#mcp.old\n")
    assert read_relied_on(f) == {"wire.tools", "hooks.fire"}
    f.write_text("wire.tools hooks.fire\n")
    with pytest.raises(ReportError, match=r"relied-on.txt:1: one behaviour id a line"):
        read_relied_on(f)
    with pytest.raises(ReportError, match="no such relied-on file"):
        read_relied_on(tmp_path / "missing.txt")


def test_different_schema_versions_are_refused():
    with pytest.raises(ReportError, match="cannot compare schema version 2 .baseline. with 3 .candidate."):
        compare(BASE, {**moved(), "schema": 3})


reports = st.lists(
    st.builds(
        result,
        bid=st.sampled_from(["wire.a", "wire.b", "hooks.c", "mcp.d", "tools.e"]),
        verdict=st.sampled_from(VERDICTS),
        checks=st.dictionaries(st.sampled_from("abc"), st.sampled_from(VERDICTS), max_size=3),
        observed=st.recursive(
            st.none() | st.integers() | st.text(max_size=4), lambda k: st.lists(k, max_size=3), max_leaves=5
        ),
    ),
    unique_by=lambda r: r["id"],
).map(lambda rs: report("0.2.1", *rs))


@settings(max_examples=80, deadline=None)
@given(a=reports, b=reports)
def test_gate_properties(a, b):
    assert compare(a, copy.deepcopy(a), strict=True).exit_code == 0
    gate = compare(a, b)
    old = {x["id"]: x for x in a["behaviours"]}
    new = {x["id"]: x for x in b["behaviours"]}
    changed = {i for i in set(old) & set(new) if old[i]["verdict"] != new[i]["verdict"]}
    assert {r.id for r in gate.rows if r.kind == "verdict"} >= changed
    assert gate.exit_code == (1 if any(r.kind == "verdict" for r in gate.rows) else 0)
    assert {r.id for r in gate.rows if r.kind in ("added", "removed")} == set(old) ^ set(new)


# --- the subcommand ---------------------------------------------------------------------


@pytest.fixture
def files(tmp_path):
    base, _ = write(BASE, tmp_path / "base")
    same, _ = write(moved(), tmp_path / "same")
    changed, _ = write(moved(**{"hooks.fire": result("hooks.fire", "differs", "no hook ran")}), tmp_path / "changed")
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": 1, "sdk_version": "0.2.1"')
    return {"base": base, "same": same, "changed": changed, "broken": broken, "dir": tmp_path}


def test_gate_command_exit_codes(files):
    def gate(*args):
        return subprocess.run(
            [sys.executable, "-m", "sdkprobe", "gate", *map(str, args)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )

    ok = gate("--baseline", files["base"], "--candidate", files["same"])
    assert ok.returncode == 0, ok.stderr
    assert "Nothing moved" in ok.stdout

    bad = gate("--baseline", files["base"], "--candidate", files["changed"])
    assert bad.returncode == 1, bad.stderr
    assert "hooks.fire" in bad.stdout and "holds → differs" in bad.stdout

    for args in (
        ("--baseline", files["broken"], "--candidate", files["same"]),
        ("--baseline", files["base"], "--candidate", files["dir"] / "missing.json"),
    ):
        broken = gate(*args)
        assert broken.returncode == 2
        assert len(broken.stderr.strip().splitlines()) == 1 and "Traceback" not in broken.stderr
        assert broken.stderr.startswith("sdkprobe gate: error: ")


def test_gate_command_relied_on_and_strict(files, capsys):
    relied = files["dir"] / "relied.txt"
    relied.write_text("wire.tools\n")
    assert (
        cli_main(
            ["gate", "--baseline", str(files["base"]), "--candidate", str(files["changed"]), "--relied-on", str(relied)]
        )
        == 0
    )
    relied.write_text("wire.unknown\n")
    assert (
        cli_main(
            ["gate", "--baseline", str(files["base"]), "--candidate", str(files["changed"]), "--relied-on", str(relied)]
        )
        == 2
    )
    assert "wire.unknown" in capsys.readouterr().err


def test_gate_without_candidate_probes_the_installed_sdk_as_run_does(files, monkeypatch, capsys):
    """The fresh candidate comes through `run`'s own code path, with the gate's -j."""
    calls = []

    def fake(behaviours, settings, jobs, info=None):
        calls.append(([b.id for b in behaviours], settings.cli_path, jobs))
        return json.loads(files["changed"].read_text())

    from sdkprobe import catalogue

    monkeypatch.setattr("sdkprobe.commands.shared.probe_installed", fake)
    assert cli_main(["gate", "--baseline", str(files["base"]), "-j", "3"]) == 1
    assert calls == [([b.id for b in catalogue.load()], None, 3)] and "hooks.fire" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["gate", "report"])
def test_help_is_complete(name, capsys):
    assert cli_main([name, "--help"]) == 0
    text = capsys.readouterr().out
    expected = {
        "gate": ["--baseline", "--candidate", "--relied-on", "--strict", "--jobs", "--out", "exit status"],
        "report": ["DIR", "COMPATIBILITY.md", "compatibility.html", "exit status"],
    }
    assert all(word in text for word in expected[name])


def test_a_list_of_names_moves_as_what_came_and_went():
    from sdkprobe.report.diff import differences

    assert differences({"t": ["Bash", "Read", "Edit"]}, {"t": ["Read", "Edit", "Agent"]}) == [
        'observed.t: +"Agent" -"Bash"'
    ]
    assert differences({"t": list("abc")}, {"t": list("cab")}) == ["observed.t: reordered"]
    assert differences({"t": ["x", ""]}, {"t": ["x", "default"]}) == ['observed.t[1]: "" → "default"']
    assert differences({"t": [{"x": 1}]}, {"t": [{"x": 2}]}) == ["observed.t[0].x: 1 → 2"]


# --- renamed behaviours -----------------------------------------------------------------

OLD, NEW = "wire.empty-lists-and-zero-send-no-flag", "wire.empty-and-zero-values-reach-cli"  # a declared rename


def test_a_baseline_naming_an_old_id_is_compared_with_the_renamed_entry():
    """Last month's baseline names the old id: one behaviour whose verdict moved, not one
    removed and one added; the output says it was renamed."""
    base = report("0.2.180", result(OLD, "holds"), result("hooks.fire"))
    cand = report("0.2.189", result(NEW, "differs", "empty lists sent no flag"), result("hooks.fire"))
    gate = compare(base, cand, renames={OLD: NEW})
    [row] = gate.rows
    assert (row.id, row.kind, row.failing, row.renamed_from) == (NEW, "verdict", True, OLD)
    text = gate.render()
    assert f"{NEW} (renamed from {OLD})" in text and f"{OLD} was renamed {NEW}" in text
    assert "0 added, 0 removed" in text
    same = compare(base, report("0.2.189", result(NEW, "holds"), result("hooks.fire")), renames={OLD: NEW})
    assert same.rows == [] and f"{OLD} was renamed {NEW}" in same.render()
    unmatched = compare(base, cand)  # without the map: what the gate would otherwise say
    assert {r.kind for r in unmatched.rows} == {"added", "removed"}


def test_a_relied_on_list_naming_an_old_id_still_counts_it():
    base = report("0.2.180", result(OLD, "holds"))
    cand = report("0.2.189", result(NEW, "differs"))
    gate = compare(base, cand, relied_on={OLD}, renames={OLD: NEW})
    assert gate.exit_code == 1 and gate.rows[0].relied_on and gate.relied_on == {NEW}


def test_gate_command_matches_an_old_baseline_and_an_old_relied_on_list(tmp_path, capsys, monkeypatch):
    """The command takes the renames from the catalogue: a committed baseline and a relied-on
    file written before the rename keep working, and stderr says the id was renamed."""
    from sdkprobe import catalogue

    monkeypatch.setattr(catalogue, "_TOLD", set())
    base, _ = write(report("0.2.180", result(OLD, "holds"), result("hooks.fire")), tmp_path / "base")
    cand, _ = write(report("0.2.189", result(NEW, "differs"), result("hooks.fire")), tmp_path / "cand")
    relied = tmp_path / "relied.txt"
    relied.write_text(f"# written last month\n{OLD}\n")
    argv = ["gate", "--baseline", str(base), "--candidate", str(cand), "--relied-on", str(relied)]
    assert cli_main(argv) == 1
    out, err = capsys.readouterr()
    assert f"✗ {NEW} (renamed from {OLD}) (relied on)" in out and "removed" not in out.split("\n\n")[0]
    assert err == f"sdkprobe: {OLD} was renamed {NEW}; the old id still works\n"


def test_gate_fresh_candidate_probes_an_old_relied_on_id(tmp_path, monkeypatch, capsys):
    """With a relied-on list of old ids the fresh candidate runs the renamed behaviour, and
    the baseline's old entry is kept to compare with it."""
    from sdkprobe import catalogue

    monkeypatch.setattr(catalogue, "_TOLD", set())
    base, _ = write(report("0.2.180", result(OLD, "holds"), result("hooks.fire")), tmp_path / "base")
    relied = tmp_path / "relied.txt"
    relied.write_text(f"{OLD}\n")
    calls = []

    def fake(behaviours, settings, jobs, info_=None):
        calls.append([b.id for b in behaviours])
        return report("0.2.189", result(NEW, "holds"))

    monkeypatch.setattr("sdkprobe.commands.shared.probe_installed", fake)
    assert cli_main(["gate", "--baseline", str(base), "--relied-on", str(relied)]) == 0
    out = capsys.readouterr().out
    assert calls == [[NEW]] and "Nothing moved" in out and f"{OLD} was renamed {NEW}" in out


# --- the public surface -------------------------------------------------------------------


def with_surface(rep: dict, items: list[str]) -> dict:
    return {**copy.deepcopy(rep), "surface": sorted(items)}


def test_items_a_release_adds_or_removes_are_notes_naming_what_covers_them():
    base = with_surface(BASE, ["option:tools", "option:gone", "client:interrupt"])
    cand = with_surface(moved(), ["option:tools", "option:foo", "client:interrupt", "client:new_method"])
    coverage = {"client:new_method": ["wire.x", "wire.y"], "option:gone": ["wire.tools"]}
    gate = compare(base, cand, coverage=coverage)
    assert gate.exit_code == 0 and gate.rows == []  # a note, never a failure
    assert [(n.item, n.added, n.covered_by) for n in gate.surface] == [
        ("client:new_method", True, ("wire.x", "wire.y")),
        ("option:foo", True, ()),
        ("option:gone", False, ("wire.tools",)),
    ]
    text = gate.render()
    assert "note: 0.2.189 adds option:foo: no behaviour covers it\n" in text
    assert "note: 0.2.189 adds client:new_method: covered by wire.x, wire.y\n" in text
    assert "note: 0.2.189 removes option:gone (in 0.2.180): covered by wire.tools\n" in text
    assert "PASS" in text


def test_a_note_goes_with_a_failing_change_and_leaves_the_exit_status_alone():
    cand = moved(**{"hooks.fire": result("hooks.fire", "differs", "no hook ran")})
    gate = compare(with_surface(BASE, []), with_surface(cand, ["option:foo"]))
    assert gate.exit_code == 1 and "note: 0.2.189 adds option:foo: no behaviour covers it" in gate.render()


def test_surfaces_are_compared_only_when_both_reports_record_one():
    assert compare(BASE, moved()).surface_notes() == ""  # old reports on both sides: nothing to say
    one_sided = compare(BASE, with_surface(moved(), ["option:foo"]))
    assert one_sided.surface == []
    assert one_sided.surface_notes() == (
        "note: public surface not compared: the report of 0.2.180 records none (written before reports did)\n"
    )
    same = compare(with_surface(BASE, ["option:tools"]), with_surface(moved(), ["option:tools"]))
    assert same.surface_notes() == "" and same.render().startswith("Nothing moved")


def test_the_gate_command_notes_a_new_option_of_a_patched_sdk(tmp_path, monkeypatch, capsys):
    """A release that adds a public option: its report's surface has it, no behaviour covers
    it, and the gate says so without failing."""
    import dataclasses

    import claude_agent_sdk

    from sdkprobe.surface import names

    @dataclasses.dataclass
    class Patched(claude_agent_sdk.ClaudeAgentOptions):
        sdkprobe_fake_option: str | None = None

    from sdkprobe import catalogue

    # the baseline's version lacked client:interrupt too, which behaviours do cover
    base, _ = write(with_surface(BASE, [i for i in names() if i != "client:interrupt"]), tmp_path / "base")
    monkeypatch.setattr(claude_agent_sdk, "ClaudeAgentOptions", Patched)
    cand, _ = write(with_surface(moved(), names()), tmp_path / "cand")
    assert cli_main(["gate", "--baseline", str(base), "--candidate", str(cand)]) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    covering = ", ".join(catalogue.covering("client:interrupt"))
    assert notes == [
        f"note: 0.2.189 adds client:interrupt: covered by {covering}",
        "note: 0.2.189 adds option:sdkprobe_fake_option: no behaviour covers it",
    ]


def test_a_failing_change_of_a_security_marked_contract_says_what_it_exposes():
    why = "a tools list that widens offers the model more tools"
    tools = next(b for b in BASE["behaviours"] if b["id"] == "wire.tools")
    base = copy.deepcopy(BASE)
    next(b for b in base["behaviours"] if b["id"] == "wire.tools")["security"] = why
    gate = compare(base, moved(**{"wire.tools": {**tools, "security": why, "verdict": "differs", "note": "sent all"}}))
    assert gate.exit_code == 1
    assert "wire.tools (security)" in gate.table()
    assert f"security: wire.tools: {why}\n" in gate.render()
    unmarked = compare(BASE, moved(**{"wire.tools": {**tools, "verdict": "differs", "note": "sent all"}}))
    assert unmarked.exit_code == 1 and "security" not in unmarked.render()
