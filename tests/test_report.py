"""One version's report: build, canonical write, validating load, rendering."""

from __future__ import annotations

import json
import random
import string

import pytest
import sample_reports as sample
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sample_reports import info, result

from sdkprobe.behaviour import TIERS, VERDICTS
from sdkprobe.report import (
    ReportError,
    build,
    dumps,
    load,
    render_page,
    render_table,
    write,
)
from sdkprobe.report.schema import SCHEMA_PATH, SCHEMA_VERSION
from sdkprobe.result import REQUIRED_FIELDS, STORED_FIELDS, Result

# --- schema -----------------------------------------------------------------------------


def test_schema_is_draft_2020_12_and_knows_every_verdict_and_tier():
    from jsonschema import Draft202012Validator

    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema"]["const"] == SCHEMA_VERSION == 2
    assert tuple(schema["$defs"]["verdict"]["enum"]) == VERDICTS
    assert tuple(schema["$defs"]["behaviour"]["properties"]["tier"]["enum"]) == TIERS


def test_schema_names_exactly_the_fields_a_result_stores():
    behaviour = json.loads(SCHEMA_PATH.read_text())["$defs"]["behaviour"]
    assert set(behaviour["properties"]) == set(STORED_FIELDS)
    assert set(behaviour["required"]) == set(REQUIRED_FIELDS) == set(STORED_FIELDS) - {"summary", "security"}


def test_schema_points_readers_to_the_interpretation_guide():
    assert "docs/interpreting.md" in json.loads(SCHEMA_PATH.read_text())["description"]


# --- build ------------------------------------------------------------------------------


def test_build_sorts_by_id_and_keeps_only_report_fields():
    results = [
        Result(**result("wire.z"), seconds=3.2),
        Result(**result("hooks.a", "differs", "saw x", {"a": "differs"})),
    ]
    report = build([r.to_dict() for r in results], {**info(), "extra": "dropped"})
    assert [b["id"] for b in report["behaviours"]] == ["hooks.a", "wire.z"]
    assert "seconds" not in report["behaviours"][1] and "extra" not in report
    assert report["schema"] == SCHEMA_VERSION and report["cli"] == "bundled"


def test_build_keeps_a_summary_and_a_page_and_accepts_entries_without_them():
    cited = {**sample.DOC, "page": "docs/sources/003.md"}
    with_both = {**result("wire.a", source=cited), "summary": "the claim in one line"}
    report = build([with_both, result("wire.b")], info())  # wire.b: as written before summaries
    a, b = report["behaviours"]
    assert a["summary"] == "the claim in one line" and a["source"]["page"] == "docs/sources/003.md"
    assert "summary" not in b and "page" not in b["source"]
    assert "summary" not in build([{**result("wire.c"), "summary": None}], info())["behaviours"][0]


@pytest.mark.parametrize(
    "entry, where",
    [
        ({**result(), "summary": "two\nlines"}, r"\$\.behaviours\[0\]\.summary"),
        (result(source={**sample.DOC, "page": "../../etc/passwd"}), r"\$\.behaviours\[0\]\.source\.page"),
        (result(source={**sample.DOC, "page": "javascript:alert(1).md"}), r"\$\.behaviours\[0\]\.source\.page"),
    ],
)
def test_a_summary_on_two_lines_or_a_page_outside_the_project_is_refused(entry, where):
    with pytest.raises(ReportError, match=where):
        build([entry], info())


def test_build_rejects_incomplete_input_in_one_line():
    with pytest.raises(ReportError, match="run info lacks python"):
        build([], {k: v for k, v in info().items() if k != "python"})
    with pytest.raises(ReportError, match="appears twice"):
        build([result("wire.a"), result("wire.a")], info())
    with pytest.raises(ReportError, match=r"schema mismatch at \$\.behaviours\[0\]\.verdict"):
        build([{**result(), "verdict": "fine"}], info())


# --- write ------------------------------------------------------------------------------


def test_write_is_byte_identical_whatever_the_input_order(tmp_path):
    results = [result(f"area{i % 3}.b{i}", VERDICTS[i % 5], observed={"k": [i, "v"], "a": None}) for i in range(12)]
    shuffled = results[:]
    random.Random(4).shuffle(shuffled)
    j1, m1 = write(build(results, info()), tmp_path / "one")
    j2, m2 = write(build(shuffled, info()), tmp_path / "two")
    assert j1.name == "0.2.189.json" and m1.name == "0.2.189.md"
    assert j1.read_bytes() == j2.read_bytes() and m1.read_bytes() == m2.read_bytes()
    text = j1.read_text()
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize(
    "bad, where",
    [
        (result(observed={"argv": ["--cwd", "/tmp/pytest-7/x"]}), "wire.a.observed.argv[1]"),
        (result(verdict="differs", note="read /home/alice/.claude"), "wire.a.note"),
        (result(observed={"/root/.config": 1}), "wire.a.observed (key)"),
        (result(observed="key sk-ant-" + "api03-abcdefgh"), "wire.a.observed"),
    ],
)
def test_write_refuses_a_machine_path_or_key(tmp_path, bad, where):
    with pytest.raises(ReportError) as exc:
        write(build([bad, result("wire.ok")], info()), tmp_path)
    assert "refusing to write" in str(exc.value) and where in str(exc.value)
    assert "\n" not in str(exc.value)
    assert list(tmp_path.iterdir()) == []


def test_placeholders_are_not_leaks(tmp_path):
    write(build([result(observed={"cwd": "<TMP>/work", "home": "<HOME>/.claude"})], info()), tmp_path)


def test_authored_text_is_not_a_leak(tmp_path):
    """A claim or summary may name a path the behaviour is about; only machine output is scanned."""
    entry = {**result(claim="the CLI reads /home/<user>/.claude"), "summary": "Reads /home/<user>/.claude first"}
    write(build([entry], info()), tmp_path)


def test_write_refuses_nan(tmp_path):
    with pytest.raises(ReportError, match="Out of range float"):
        write(build([result(observed={"x": float("nan")})], info()), tmp_path)


# Text the strategy builds itself, from an alphabet that cannot spell a machine path or a
# key ("/" and "\\" are out, so is "k" of "sk-ant-"); leak-shaped text is added only on
# purpose, so whether the writer must refuse is known from how the example was drawn.
CLEAN = "".join(c for c in string.ascii_letters + string.digits + "<>|_ .-é✓:" if c not in "k")
# The key shape is assembled at run time, so no committed file holds one.
LEAKS = ["/tmp/probe-1", "/home/someone", "/root/.claude", "sk-" + "ant-api03-abcdef", "C:\\Users\\x", "/Users/me"]
clean_text = st.text(alphabet=CLEAN, max_size=12)
json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | clean_text
observed = st.recursive(
    json_leaf,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(alphabet=CLEAN, max_size=5), kids, max_size=3),
    max_leaves=8,
)
ident = st.text(alphabet=string.ascii_lowercase + "-", min_size=1, max_size=6).filter(lambda s: s[0] != "-")
results_strategy = st.lists(
    st.builds(
        result,
        bid=st.tuples(st.sampled_from(["wire", "tools", "hooks"]), ident).map(".".join),
        verdict=st.sampled_from(VERDICTS),
        note=st.text(alphabet=CLEAN, max_size=20).map(lambda s: " ".join(s.split())),
        checks=st.dictionaries(ident, st.sampled_from(VERDICTS), max_size=3),
        observed=observed,
        tier=st.sampled_from(TIERS),
    ),
    min_size=1,
    max_size=6,
    unique_by=lambda r: r["id"],
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    results=results_strategy, leak=st.none() | st.tuples(st.sampled_from(LEAKS), st.sampled_from(["note", "observed"]))
)
def test_results_round_trip_unless_they_hold_a_path_or_key(tmp_path_factory, results, leak):
    out = tmp_path_factory.mktemp("r")
    if leak is not None:
        text, where = leak
        first = results[0]
        if where == "note":
            first["note"] = f"{first['note']} {text}".strip()
        else:
            first["observed"] = {"seen": [first["observed"], text]}
    report = build(results, info())
    if leak is not None:
        with pytest.raises(ReportError, match="refusing to write"):
            write(report, out)
        assert list(out.iterdir()) == []
        return
    json_path, _ = write(report, out)
    loaded = load(json_path)
    assert loaded == json.loads(dumps(report))
    again, _ = write(loaded, tmp_path_factory.mktemp("again"))
    assert again.read_bytes() == json_path.read_bytes()


# --- load -------------------------------------------------------------------------------


def _one_line_error(path) -> str:
    with pytest.raises(ReportError) as exc:
        load(path)
    message = str(exc.value)
    assert "\n" not in message and str(path) in message
    return message


def test_load_rejects_broken_files_with_one_clear_line(tmp_path):
    good, _ = write(build([result(), result("wire.b", "differs", "x")], info()), tmp_path)
    data = json.loads(good.read_text())

    assert "no such report file" in _one_line_error(tmp_path / "nope.json")

    (tmp_path / "cut.json").write_text(good.read_text()[:50])
    assert "not JSON" in _one_line_error(tmp_path / "cut.json")

    del data["behaviours"][1]["verdict"]
    (tmp_path / "field.json").write_text(json.dumps(data))
    message = _one_line_error(tmp_path / "field.json")
    assert "schema mismatch at $.behaviours[1]" in message and "'verdict' is a required property" in message

    (tmp_path / "v1.json").write_text(json.dumps({**json.loads(good.read_text()), "schema": 1}))
    assert "schema version 1; this sdkprobe reads version 2" in _one_line_error(tmp_path / "v1.json")

    (tmp_path / "list.json").write_text("[]")
    assert "expected a JSON object" in _one_line_error(tmp_path / "list.json")

    differs_without_note = json.loads(good.read_text())
    differs_without_note["behaviours"][1]["note"] = ""
    (tmp_path / "note.json").write_text(json.dumps(differs_without_note))
    assert "$.behaviours[1].note" in _one_line_error(tmp_path / "note.json")


# --- rendering --------------------------------------------------------------------------


def test_page_escapes_pipes_and_placeholders():
    page = render_page(build([result("wire.a", "differs", "got a|b from <TMP>", {"x|y": "differs"})], info()))
    row = next(line for line in page.splitlines() if "wire.a" in line)
    assert "got a\\|b from &lt;TMP&gt;" in row and "❌ x\\|y" in row
    assert row.count("|") - row.count("\\|") == 8  # seven columns (the claim added), no stray separators


def test_versions_stay_text_in_the_page():
    # tabulate parses a column whose cells all look numeric: "1.10" would print as 1.1
    results = [result("wire.a", "differs", "1.10"), result("wire.b", "not-applicable", "2.0")]
    page = render_page(build(results, info(sdk="1.10", cli="2.10", python="3.10")))
    cells = {c.strip() for line in page.splitlines() for c in line.split("|")}
    assert {"1.10", "2.10 (bundled)", "3.10", "2.0"} <= cells
    assert not {"1.1", "2", "3.1"} & cells
    assert page.startswith("# claude-agent-sdk 1.10\n")


def test_page_groups_by_area_in_the_declared_order():
    page = render_page(build([result("wire.a"), result("hooks.b"), result("wire.c")], info()))
    assert (
        page.index("## wire")
        < page.index("wire.a")
        < page.index("wire.c")
        < page.index("## hooks")
        < page.index("hooks.b")
    )


def test_render_table_takes_results_or_dicts():
    rs = [Result(**result("wire.a")), Result(**result("wire.b", "differs", "it did not"))]
    table = render_table(rs)
    assert table == render_table([r.to_dict() for r in rs])
    lines = table.splitlines()
    assert lines[0].split() == ["behaviour", "tier", "verdict", "note"]
    assert lines[3].split() == ["wire.b", "wire", "differs", "it", "did", "not"]
    assert render_table([]).splitlines()[0].split() == ["behaviour", "tier", "verdict", "note"]


# --- the version's public surface ---------------------------------------------------------


def test_a_report_records_the_surface_its_run_info_has_sorted():
    built = build([result("wire.a")], {**info(), "surface": ["option:tools", "client:interrupt", "agent:skills"]})
    assert built["surface"] == ["agent:skills", "client:interrupt", "option:tools"]
    assert "surface" not in build([result("wire.a")], info())  # optional: info from before has none


def test_the_run_info_carries_the_installed_sdks_surface():
    from sdkprobe.runner import RunSettings, run_info
    from sdkprobe.surface import names

    recorded = build([], run_info(RunSettings()))["surface"]
    assert recorded == names() and "option:tools" in recorded and "error:ProcessError" in recorded


def test_committed_reports_without_a_surface_still_load():
    from pathlib import Path

    committed = sorted((Path(__file__).resolve().parents[1] / "reports").glob("*.json"))
    assert committed and all(load(path)["sdk_version"] for path in committed)


@pytest.mark.parametrize(
    "surface",
    [["option:tools", "option:tools"], ["not an item"], "option:tools", [3]],
    ids=["repeated", "no-kind", "not-a-list", "not-a-string"],
)
def test_a_malformed_surface_is_refused_in_one_line(tmp_path, surface):
    path = tmp_path / "9.9.9.json"
    path.write_text(json.dumps({**sample.report([result("wire.a")], info(sdk="9.9.9")), "surface": surface}))
    with pytest.raises(ReportError, match=r"schema mismatch at \$\.surface"):
        load(path)


def test_the_surface_round_trips_and_a_merge_takes_the_fresh_runs():
    from sdkprobe.report.store import merge

    old = build([result("wire.a")], {**info(), "surface": ["option:gone"]})
    assert json.loads(dumps(old))["surface"] == ["option:gone"]
    fresh = build([result("wire.b")], {**info(), "surface": ["option:new"]})
    assert merge(old, fresh)["surface"] == ["option:new"]
    unrecorded = build([result("wire.a")], info())
    assert merge(unrecorded, fresh)["surface"] == ["option:new"]  # an old report gets its version's surface
    assert merge(old, unrecorded)["surface"] == ["option:gone"]  # a fresh run that recorded none keeps the old
