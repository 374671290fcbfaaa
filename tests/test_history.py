"""The history file: changes between listed versions bisected on scripted verdicts (nothing
installed, no network), kept on refresh while current, recomputed when stale, and shown in
the matrix's words only while it still explains the reports."""

from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path

import pytest
import sample_reports as sample
from sample_reports import info, result

from sdkprobe import commands
from sdkprobe.commands import history as history_command
from sdkprobe.releases.bisect import ReleaseVerdict
from sdkprobe.releases.index import Release
from sdkprobe.releases.refresh import Finder, refresh
from sdkprobe.report import render_matrix, write
from sdkprobe.report.grid import from_reports, load_reports
from sdkprobe.report.history import HISTORY_PATH, History, Step, dumps, load, steps
from sdkprobe.report.history import write as write_history

ERR = "results.error-names-real-cause"
PERMS = "perms.can-use-tool-with-string-prompt"
LISTED = ["0.2.82", "0.2.139", "0.2.140", "0.2.160"]
# Every release between 0.2.82 and 0.2.160 bundles a CLI; 0.2.100 is yanked.
INDEX = [Release(f"0.2.{i}", i == 100, True) for i in range(82, 161)]


def reports_dir(tmp: Path, verdicts: dict[str, list[str]]) -> Path:
    """One report per listed version; verdicts[id] gives each version's verdict, in LISTED order."""
    for i, v in enumerate(LISTED):
        entries = [
            result(bid, vs[i], checks={"typed": vs[i], "same": "holds"}, observed={"raised": vs[i]})
            for bid, vs in verdicts.items()
        ]
        write(sample.report(entries, info(v, "2.1.0")), tmp)
    return tmp


class Scripted:
    """probe(version): the verdict changes at `at[id]` (`before` until then, holds from there on)."""

    def __init__(self, at: dict[str, str], skip=(), calls: list | None = None, bid: str = "", before: str = "differs"):
        self.at, self.skip, self.bid, self.before = at, skip, bid, before
        self.calls: list[tuple[str, str]] = [] if calls is None else calls  # shared by every behaviour's prober
        self.runs = 0

    def for_id(self, bid: str) -> Scripted:
        """The prober of one behaviour, logging into the same calls."""
        return type(self)(self.at, self.skip, self.calls, bid, self.before)

    def __call__(self, version: str) -> ReleaseVerdict:
        self.calls.append((self.bid, version))
        if version in self.skip:
            return ReleaseVerdict(version, skipped="install failed: uv exited 1: boom")
        self.runs += 1
        v = self.before if _key(version) < _key(self.at[self.bid]) else "holds"
        return ReleaseVerdict(
            version, verdict=v, note=f"note {v}", checks={"typed": v, "same": "holds"}, observed={"raised": v}
        )


def _key(version: str) -> int:
    return int(version.rsplit(".", 1)[1])


def verdict_entries(history: History) -> list:
    """The entries of the verdict (not of a sub-check)."""
    return [e for e in history.entries if e.step.check is None]


def build(tmp: Path, verdicts: dict[str, list[str]], prober: Scripted, old: History | None = None, only=None):
    reports = load_reports(reports_dir(tmp, verdicts))
    entries = {r["sdk_version"]: {b["id"]: b for b in r["behaviours"]} for r in reports}
    finder = Finder(INDEX, entries, prober.for_id)
    return refresh(old, steps(reports, LISTED), only, LISTED, finder)


# --- finding the pairs ---------------------------------------------------------------


def test_history_from_a_scripted_bisect_names_the_exact_pair(tmp_path):
    prober = Scripted({ERR: "0.2.117"})
    done = build(tmp_path, {ERR: ["differs", "holds", "holds", "holds"]}, prober)
    entry, typed = done.history.entries  # the verdict's, then the one sub-check's that moved with it
    assert (entry.step.before, entry.step.after, entry.step.verdicts) == ("0.2.82", "0.2.139", ("differs", "holds"))
    assert entry.step.check is None and typed.step.check == "typed"
    assert [(a.version, b.version) for a, b in typed.pairs] == [("0.2.116", "0.2.117")]
    assert (entry.before.version, entry.before.verdict, entry.after.version, entry.after.verdict) == (
        "0.2.116",
        "differs",
        "0.2.117",
        "holds",
    )
    assert entry.found_by == "bisect" and entry.probe_runs == len(prober.calls) <= 6  # 56 releases between
    assert {v for _, v in prober.calls}.isdisjoint({"0.2.82", "0.2.139"})  # the ends come from the reports
    assert entry.moved == ('raised: "differs" -> "holds"',)
    assert done.history.listed == tuple(LISTED)


def test_neighbouring_releases_need_no_probe_and_a_short_gap_is_scanned(tmp_path):
    prober = Scripted({ERR: "0.2.140", PERMS: "0.2.141"})
    done = build(
        tmp_path,
        {ERR: ["differs", "differs", "holds", "holds"], PERMS: ["differs", "differs", "differs", "holds"]},
        prober,
    )
    by_id = {e.step.id: e for e in verdict_entries(done.history)}
    assert (by_id[ERR].found_by, by_id[ERR].probe_runs, by_id[ERR].after.version) == ("scan", 0, "0.2.140")
    assert (by_id[PERMS].before.version, by_id[PERMS].after.version) == ("0.2.140", "0.2.141")
    assert by_id[PERMS].found_by == "bisect"  # nineteen releases between 0.2.140 and 0.2.160


def test_skipped_releases_inside_the_pair_and_yanked_ends_are_recorded(tmp_path):
    prober = Scripted({ERR: "0.2.100"}, skip=("0.2.99",))
    done = build(tmp_path, {ERR: ["differs", "holds", "holds", "holds"]}, prober)
    [entry] = verdict_entries(done.history)
    assert (entry.before.version, entry.after.version, entry.after.yanked) == ("0.2.98", "0.2.100", True)
    assert entry.inside == (("0.2.99", "skipped: install failed: uv exited 1: boom"),)
    assert entry.after.words == "0.2.100 (yanked)"


class TwoChanges:
    """not-applicable up to 0.2.99, differs on 0.2.100-0.2.119, holds from 0.2.120: two changes
    between the neighbours 0.2.82 and 0.2.139, which one bisect alone would not both see."""

    def __init__(self) -> None:
        self.runs = 0

    def __call__(self, version: str) -> ReleaseVerdict:
        self.runs += 1
        n = _key(version)
        v = "not-applicable" if n < 100 else "differs" if n < 120 else "holds"
        return ReleaseVerdict(version, verdict=v, note=f"note {v}", checks={"typed": v}, observed={"raised": v})


def test_a_step_with_two_changes_records_both_and_the_matrix_words_them(tmp_path):
    reports = load_reports(reports_dir(tmp_path / "r", {ERR: ["not-applicable", "holds", "holds", "holds"]}))
    entries = {r["sdk_version"]: {b["id"]: b for b in r["behaviours"]} for r in reports}
    done = refresh(None, steps(reports, LISTED), None, LISTED, Finder(INDEX, entries, lambda _: TwoChanges()))
    [entry] = verdict_entries(done.history)
    assert [(a.version, a.verdict, b.version, b.verdict) for a, b in entry.pairs] == [
        ("0.2.99", "not-applicable", "0.2.100", "differs"),
        ("0.2.119", "differs", "0.2.120", "holds"),
    ]
    assert entry.last.version == "0.2.120" and entry.middle() == (("differs", "0.2.100 (yanked)", "0.2.119"),)
    assert entry.probe_runs <= 2 * 6  # two bisects over at most 56 releases
    path = tmp_path / "h.json"
    write_history(done.history, path)
    assert load(path) == done.history  # `later` round-trips
    grid = from_reports(reports, done.history)
    [row] = grid.rows
    assert row.change == "not-applicable on 0.2.82–0.2.99, differs on 0.2.100 (yanked)–0.2.119, holds from 0.2.120 on"


def test_a_chain_that_no_longer_ends_on_the_neighbours_verdict_is_not_used(tmp_path):
    reports = load_reports(reports_dir(tmp_path / "r", {ERR: ["not-applicable", "holds", "holds", "holds"]}))
    entries = {r["sdk_version"]: {b["id"]: b for b in r["behaviours"]} for r in reports}
    whole = refresh(None, steps(reports, LISTED), None, LISTED, Finder(INDEX, entries, lambda _: TwoChanges()))
    [entry] = verdict_entries(whole.history)
    cut = History(tuple(LISTED), (dataclasses.replace(entry, later=()),))  # only the first change
    assert not cut.entries[0].applies({"0.2.82": "not-applicable", "0.2.139": "holds"})
    assert from_reports(reports, cut).rows[0].change == "not-applicable on 0.2.82, holds from 0.2.139 on"
    # a refresh finds it again, whole, and keeps the whole one after that
    finder = Finder(INDEX, entries, lambda _: TwoChanges())
    again = refresh(cut, steps(reports, LISTED), None, LISTED, finder)
    assert again.found == list(whole.history.entries) and not again.kept
    assert refresh(again.history, steps(reports, LISTED), None, LISTED, Refuses({})).kept == again.found


RATE = "messages.rate-limit-and-unknown-types-survive"


def rate_limit_checks(version: str) -> dict[str, str]:
    """As issue 16 found it, on the 0.2 numbers: every sub-check differs up to 0.2.109; unknown
    types are skipped from 0.2.110, so all hold; from 0.2.125 a rate_limit_event without uuid
    raises again. The neighbours 0.2.82 and 0.2.139 both read differs."""
    n = _key(version)
    fixed = "differs" if n < 110 else "holds"
    return {"full": fixed, "unknown": fixed, "no-uuid": "differs" if n < 110 or n >= 125 else "holds"}


def one_check_moves(version: str) -> dict[str, str]:
    """`always` differs on every release; `moved` differs up to 0.2.116 and holds from 0.2.117:
    the verdict reads differs throughout."""
    return {"always": "differs", "moved": "differs" if _key(version) < 117 else "holds"}


def verdict_of(checks: dict[str, str]) -> str:
    if not checks:
        return "not-applicable"  # nothing to check on that release
    return "differs" if "differs" in checks.values() else "holds"


class ByChecks:
    """probe(version): the sub-checks a function of the version gives, the verdict from them."""

    def __init__(self, checks_of) -> None:
        self.checks_of = checks_of
        self.runs = 0
        self.calls: list[str] = []

    def __call__(self, version: str) -> ReleaseVerdict:
        self.runs += 1
        self.calls.append(version)
        checks = self.checks_of(version)
        v = verdict_of(checks)
        return ReleaseVerdict(version, verdict=v, note=f"note {v}", checks=checks, observed=checks)


def by_checks_reports(tmp: Path, bid: str, checks_of) -> list[dict]:
    for v in LISTED:
        checks = checks_of(v)
        write(sample.report([result(bid, verdict_of(checks), checks=checks, observed=checks)], info(v, "2.1.0")), tmp)
    return load_reports(tmp)


def search(reports: list[dict], prober: ByChecks, old: History | None = None):
    entries = {r["sdk_version"]: {b["id"]: b for b in r["behaviours"]} for r in reports}
    return refresh(old, steps(reports, LISTED), None, LISTED, Finder(INDEX, entries, lambda _: prober))


def test_a_verdict_that_moves_and_moves_back_where_a_sub_check_moved_is_found_and_worded(tmp_path):
    reports = by_checks_reports(tmp_path, RATE, rate_limit_checks)
    assert {b["verdict"] for r in reports for b in r["behaviours"]} == {"differs"}  # every column reads differs
    prober = ByChecks(rate_limit_checks)
    done = search(reports, prober)
    assert not done.unresolved
    chains = {e.step.check: [(a.version, a.verdict, b.version, b.verdict) for a, b in e.pairs] for e in done.found}
    there_and_back = [("0.2.109", "differs", "0.2.110", "holds"), ("0.2.124", "holds", "0.2.125", "differs")]
    assert chains == {
        None: there_and_back,  # the verdict: differs on both neighbours, holds between
        "full": [("0.2.109", "differs", "0.2.110", "holds")],
        "unknown": [("0.2.109", "differs", "0.2.110", "holds")],
        "no-uuid": there_and_back,  # equal on both neighbours too: seen where the others moved
    }
    [verdict] = verdict_entries(done.history)
    assert (verdict.step.before, verdict.step.after, verdict.step.verdicts) == ("0.2.82", "0.2.139", ("differs",) * 2)
    assert verdict.complete and verdict.probe_runs == prober.runs <= 2 * 6  # two bisects over 56 releases
    assert {"0.2.82", "0.2.139"}.isdisjoint(prober.calls)  # the neighbours come from their reports

    write_history(done.history, tmp_path / HISTORY_PATH)
    assert load(tmp_path / HISTORY_PATH) == done.history
    [row] = from_reports(reports, done.history).rows
    words = (
        "differs on 0.2.82–0.2.109, holds on 0.2.110–0.2.124, differs from 0.2.125 on; "
        "sub-checks full, unknown: differs up to 0.2.109, holds from 0.2.110 on"
    )
    assert row.words == words and row.exact and row.moved  # no-uuid reads as the verdict: said once
    md_path, html_path = render_matrix(tmp_path)
    md, html = md_path.read_text(), html_path.read_text()
    assert f"| {words} |" in md  # its row in the table
    assert md.count(words) == 2  # and in the list of changes that opens the page
    assert html.count(words) == 2 and 'data-changed="1"' in html
    # the next refresh keeps all four without probing
    again = search(reports, Refuses({}), old=done.history)
    assert again.kept == list(done.history.entries) and not again.found


def test_a_sub_check_that_moves_while_the_verdict_stays_is_a_sub_check_window(tmp_path):
    reports = by_checks_reports(tmp_path, RATE, one_check_moves)
    done = search(reports, ByChecks(one_check_moves))
    [entry] = done.history.entries  # no verdict entry: it differs on every release probed
    assert entry.step == Step(RATE, "0.2.82", "0.2.139", ("differs", "holds"), "moved")
    assert [(a.version, a.verdict, b.version, b.verdict) for a, b in entry.pairs] == [
        ("0.2.116", "differs", "0.2.117", "holds")
    ]
    assert not done.unresolved  # the verdict's step does not move, so finding no change there is no failure
    write_history(done.history, tmp_path / HISTORY_PATH)
    [row] = from_reports(reports, load(tmp_path / HISTORY_PATH)).rows
    assert row.change == "" and row.check_change == "sub-check moved: differs up to 0.2.116, holds from 0.2.117 on"
    assert row.moved and row.exact
    md = render_matrix(tmp_path)[0].read_text()
    assert "sub-check moved: differs up to 0.2.116, holds from 0.2.117 on" in md
    assert search(reports, Refuses({}), old=done.history).kept == [entry]
    # stale once a neighbour's sub-check reads otherwise: the matrix falls back to no words
    other = by_checks_reports(tmp_path / "other", RATE, lambda v: {"always": "differs", "moved": "differs"})
    assert from_reports(other, done.history).rows[0].words == ""


def test_a_sub_check_that_moved_only_with_the_verdict_is_not_said_again(tmp_path):
    def checks_of(version: str) -> dict[str, str]:
        n = _key(version)  # not-applicable (no sub-checks) up to 0.2.99, then `x` decides the verdict
        return {} if n < 100 else {"x": "differs" if n < 150 else "holds"}

    reports = by_checks_reports(tmp_path, RATE, checks_of)
    done = search(reports, ByChecks(checks_of))
    assert {e.step.check for e in done.found} == {None, "x"}
    [row] = from_reports(reports, done.history).rows
    # x's own words would start at 0.2.139, where it first exists, but its one change is the verdict's
    assert row.change == "not-applicable on 0.2.82–0.2.99, differs on 0.2.100 (yanked)–0.2.149, holds from 0.2.150 on"
    assert row.check_change == ""


def test_a_schema_1_file_reads_as_the_verdicts_entries_and_its_sub_checks_are_searched_again(tmp_path):
    reports = by_checks_reports(tmp_path, RATE, rate_limit_checks)
    done = search(reports, ByChecks(rate_limit_checks))
    [verdict] = verdict_entries(done.history)
    # schema 1 held one entry per change of verdict, `check` naming the sub-check followed to place it
    followed = dataclasses.replace(verdict, step=dataclasses.replace(verdict.step, check="full"))
    one = json.loads(dumps(History(done.history.listed, (followed,))))
    one["schema"] = 1
    (tmp_path / "one.json").write_text(json.dumps(one))
    old = load(tmp_path / "one.json")
    assert old.entries == (verdict,)
    prober = ByChecks(rate_limit_checks)
    again = search(reports, prober, old=old)
    assert prober.calls and {e.step.check for e in again.found} == {None, "full", "unknown", "no-uuid"}


def test_error_and_needs_live_neighbours_are_not_steps(tmp_path):
    reports = load_reports(reports_dir(tmp_path, {ERR: ["holds", "error", "holds", "needs-live"]}))
    assert steps(reports, LISTED) == []


def test_the_file_is_canonical_and_round_trips(tmp_path):
    verdicts = {ERR: ["differs", "holds", "holds", "holds"], PERMS: ["holds", "holds", "differs", "differs"]}
    one = dumps(build(tmp_path / "a", verdicts, Scripted({ERR: "0.2.117", PERMS: "0.2.140"})).history)
    two = dumps(build(tmp_path / "b", verdicts, Scripted({ERR: "0.2.117", PERMS: "0.2.140"})).history)
    assert one == two and one.endswith("}\n")
    data = json.loads(one)
    assert [e["id"] for e in data["entries"]] == sorted(e["id"] for e in data["entries"])
    path = tmp_path / "h.json"
    path.write_text(one)
    assert dumps(load(path)) == one


def test_a_gap_lists_the_verdict_and_every_judged_sub_check_both_neighbours_have():
    def entry(verdict, **checks):
        return {"id": "a.b", "verdict": verdict, "checks": checks}

    def report(v, e):
        return {"sdk_version": v, "cli": "bundled", "behaviours": [e]}

    reports = [
        report("0.2.82", entry("differs", x="differs", y="holds", z="needs-live", old="holds")),
        report("0.2.139", entry("differs", x="holds", y="holds", z="holds", new="holds")),
        report("0.2.140", entry("differs", x="holds", y="holds", z="holds", new="holds")),  # nothing moved
        report("0.2.160", entry("holds", x="holds", y="holds", z="holds", new="holds")),
    ]
    assert steps(reports, LISTED) == [
        Step("a.b", "0.2.82", "0.2.139", ("differs", "differs"), None),  # it may move and move back
        Step("a.b", "0.2.82", "0.2.139", ("differs", "holds"), "x"),
        Step("a.b", "0.2.82", "0.2.139", ("holds", "holds"), "y"),  # z: needs-live says nothing
        Step("a.b", "0.2.140", "0.2.160", ("differs", "holds"), None),
        Step("a.b", "0.2.140", "0.2.160", ("holds", "holds"), "new"),
        Step("a.b", "0.2.140", "0.2.160", ("holds", "holds"), "x"),
        Step("a.b", "0.2.140", "0.2.160", ("holds", "holds"), "y"),
        Step("a.b", "0.2.140", "0.2.160", ("holds", "holds"), "z"),
    ]


# --- refreshing ----------------------------------------------------------------------


class Refuses(Scripted):
    def __call__(self, version: str) -> ReleaseVerdict:
        raise AssertionError(f"probed {version}, though every entry was current")


def test_a_refresh_keeps_current_entries_without_probing(tmp_path):
    verdicts = {ERR: ["differs", "holds", "holds", "holds"]}
    first = build(tmp_path / "a", verdicts, Scripted({ERR: "0.2.117"}))
    again = build(tmp_path / "b", verdicts, Refuses({}), old=first.history)
    assert again.kept == list(first.history.entries) and not again.found
    assert dumps(again.history) == dumps(first.history)


def test_a_stale_entry_is_recomputed_by_the_refresh(tmp_path):
    first = build(tmp_path / "a", {ERR: ["differs", "holds", "holds", "holds"]}, Scripted({ERR: "0.2.117"}))
    prober = Scripted({ERR: "0.2.120"}, before="not-applicable")
    # 0.2.82 now says not-applicable: same neighbours, other verdicts, so the old pair says nothing
    again = build(tmp_path / "b", {ERR: ["not-applicable", "holds", "holds", "holds"]}, prober, old=first.history)
    assert not again.kept and again.dropped == list(first.history.entries) and prober.calls
    [entry] = verdict_entries(again.history)
    assert entry.step.verdicts == ("not-applicable", "holds") and entry.after.version == "0.2.120"


def test_only_refreshes_those_and_keeps_every_other_entry_as_it_was(tmp_path):
    """--only never drops another behaviour's entry, even a stale one; a full refresh does."""
    verdicts = {ERR: ["differs", "holds", "holds", "holds"], PERMS: ["holds", "holds", "differs", "differs"]}
    first = build(tmp_path / "a", verdicts, Scripted({ERR: "0.2.117", PERMS: "0.2.140"}))
    verdicts[ERR] = ["differs", "differs", "holds", "holds"]  # ERR moved: its old entry is stale
    prober = Scripted({ERR: "0.2.140", PERMS: "0.2.140"})
    again = build(tmp_path / "b", verdicts, prober, old=first.history, only=[PERMS])
    order = lambda entries: sorted(entries, key=lambda e: (e.step.id, e.step.before, e.step.check or ""))  # noqa: E731
    assert order(again.history.entries) == order(first.history.entries)  # ERR's stale entries kept, not recomputed
    assert again.kept == [e for e in first.history.entries if e.step.id == PERMS] and not prober.calls
    assert again.dropped == []
    full = build(tmp_path / "c", verdicts, prober, old=first.history)
    assert {e.step.id for e in full.dropped} == {ERR}


def test_jobs_find_steps_at_once_and_give_the_same_file(tmp_path):
    verdicts = {ERR: ["differs", "holds", "holds", "holds"], PERMS: ["holds", "holds", "differs", "differs"]}
    reports = load_reports(reports_dir(tmp_path, verdicts))
    entries = {r["sdk_version"]: {b["id"]: b for b in r["behaviours"]} for r in reports}
    finder = Finder(INDEX, entries, Scripted({ERR: "0.2.117", PERMS: "0.2.140"}).for_id)
    both_in_flight = threading.Barrier(2, timeout=10)

    def find(step):
        both_in_flight.wait()  # breaks (raises) unless the two steps are found at the same time
        return finder(step)

    together = refresh(None, steps(reports, LISTED), None, LISTED, find, jobs=2)
    alone = refresh(None, steps(reports, LISTED), None, LISTED, finder, jobs=1)
    assert [e.step.id for e in verdict_entries(together.history)] == sorted([ERR, PERMS])
    assert dumps(together.history) == dumps(alone.history)


# --- the matrix ----------------------------------------------------------------------


def test_the_matrix_words_use_the_exact_pair(tmp_path):
    verdicts = {ERR: ["differs", "holds", "holds", "holds"]}
    done = build(tmp_path, verdicts, Scripted({ERR: "0.2.117"}))
    write_history(done.history, tmp_path / HISTORY_PATH)
    md_path, html_path = render_matrix(tmp_path)
    md, html = md_path.read_text(), html_path.read_text()
    assert "differs up to 0.2.116, holds from 0.2.117 on" in md
    assert "differs up to 0.2.116, holds from 0.2.117 on" in html
    assert "0.2.82, holds from 0.2.139" not in md
    assert "found by bisecting (history/history.json" in md and 'class="exact"' in html


def test_without_a_history_the_words_name_the_columns(tmp_path):
    reports_dir(tmp_path, {ERR: ["differs", "holds", "holds", "holds"]})
    md = render_matrix(tmp_path)[0].read_text()
    assert "differs on 0.2.82, holds from 0.2.139 on" in md and "found by bisecting" not in md


def test_a_stale_entry_is_ignored_by_the_matrix(tmp_path):
    done = build(tmp_path / "a", {ERR: ["differs", "holds", "holds", "holds"]}, Scripted({ERR: "0.2.117"}))
    reports = load_reports(reports_dir(tmp_path / "b", {ERR: ["not-applicable", "holds", "holds", "holds"]}))
    [row] = from_reports(reports, done.history).rows
    assert row.change == "not-applicable on 0.2.82, holds from 0.2.139 on" and not row.exact
    [row] = from_reports(load_reports(tmp_path / "a"), done.history).rows
    assert row.change == "differs up to 0.2.116, holds from 0.2.117 on" and row.exact
    assert row.check_change == ""  # the sub-check moved as the verdict did: said once


def test_a_pair_in_the_middle_bounds_both_runs(tmp_path):
    verdicts = {ERR: ["holds", "differs", "differs", "holds"]}
    reports = load_reports(reports_dir(tmp_path, verdicts))
    hist = refresh(None, steps(reports, LISTED), None, LISTED, _fixed_pairs(reports)).history
    [row] = from_reports(reports, hist).rows
    assert row.change == "holds on 0.2.82–0.2.90, differs on 0.2.91–0.2.150, holds from 0.2.151 on"


def _fixed_pairs(reports):
    """A finder that changes right after 0.2.90 and 0.2.150, whatever the neighbours."""
    entries = {r["sdk_version"]: {b["id"]: b for b in r["behaviours"]} for r in reports}

    class Flip(Scripted):
        def __call__(self, version: str) -> ReleaseVerdict:
            self.runs += 1
            v = "differs" if 90 < _key(version) <= 150 else "holds"
            return ReleaseVerdict(version, verdict=v, checks={"typed": v, "same": "holds"})

    return Finder(INDEX, entries, Flip({}).for_id)


def test_a_malformed_history_is_one_line(tmp_path):
    reports_dir(tmp_path, {ERR: ["differs", "holds", "holds", "holds"]})
    (tmp_path / HISTORY_PATH).parent.mkdir()
    (tmp_path / HISTORY_PATH).write_text('{"schema": 1}')
    assert commands.main(["report", str(tmp_path)]) == 2


# --- the command ---------------------------------------------------------------------


@pytest.fixture
def offline(monkeypatch):
    """The command with a fixed index and a scripted prober: no network, no installs."""
    monkeypatch.setattr(history_command, "releases", lambda: INDEX)
    monkeypatch.setattr(history_command, "SDK_VERSIONS", LISTED)
    prober = Scripted({ERR: "0.2.117", PERMS: "0.2.150"})

    class FakeProber:
        def __init__(self, bid: str, *_args: object) -> None:
            self.bid = bid
            self.runs = 0

        def __call__(self, version: str) -> ReleaseVerdict:
            self.runs += 1
            return prober.for_id(self.bid)(version)

    monkeypatch.setattr("sdkprobe.releases.probe.ReleaseProber", FakeProber)
    return prober


def test_the_command_writes_the_file_and_keeps_it_on_a_second_run(tmp_path, offline, capsys):
    reports_dir(tmp_path, {ERR: ["differs", "holds", "holds", "holds"], PERMS: ["holds", "holds", "holds", "differs"]})
    out = tmp_path.parent / f"{tmp_path.name}-history.json"  # not among the reports, which are every *.json
    assert commands.main(["history", "--reports", str(tmp_path), "--out", str(out), "--only", ERR]) == 0
    text = capsys.readouterr().out
    assert f"{ERR} (sub-check typed): differs up to 0.2.116, holds from 0.2.117 on (found by bisect" in text
    assert [e.step.id for e in verdict_entries(load(out))] == [ERR]
    calls = len(offline.calls)
    assert commands.main(["history", "--reports", str(tmp_path), "--out", str(out)]) == 0
    assert "(kept)" in capsys.readouterr().out
    assert [e.step.id for e in verdict_entries(load(out))] == [PERMS, ERR]
    assert {b for b, _ in offline.calls[calls:]} == {PERMS}  # ERR's entry was kept, not bisected again


def test_parts_written_by_separate_jobs_merge_without_probing(tmp_path, offline, capsys):
    """Two jobs each refresh one behaviour; the merge takes both entries and probes nothing,
    and gives the file one job refreshing both would have written."""
    reports = reports_dir(
        tmp_path / "r", {ERR: ["differs", "holds", "holds", "holds"], PERMS: ["holds", "holds", "holds", "differs"]}
    )
    parts = [tmp_path / "part-err.json", tmp_path / "part-perms.json"]
    for bid, part in zip((ERR, PERMS), parts, strict=True):
        assert commands.main(["history", "--reports", str(reports), "--out", str(part), "--only", bid]) == 0
    whole = tmp_path / "whole.json"
    assert commands.main(["history", "--reports", str(reports), "--out", str(whole)]) == 0
    calls = len(offline.calls)
    merged = tmp_path / "merged.json"
    assert commands.main(["history", "--reports", str(reports), "--out", str(merged), "--merge", *map(str, parts)]) == 0
    assert len(offline.calls) == calls
    assert merged.read_bytes() == whole.read_bytes()
    capsys.readouterr()
    # a part missing a change leaves it unresolved (exit 1), a missing part is bad input (exit 2)
    assert (
        commands.main(
            ["history", "--reports", str(reports), "--out", str(tmp_path / "m2.json"), "--merge", str(parts[0])]
        )
        == 1
    )
    assert commands.main(["history", "--reports", str(reports), "--merge", str(tmp_path / "nope.json")]) == 2
    assert "--merge " in capsys.readouterr().err and len(offline.calls) == calls


def test_the_command_refuses_an_unknown_id(tmp_path, offline, capsys):
    reports_dir(tmp_path, {ERR: ["differs", "holds", "holds", "holds"]})
    assert commands.main(["history", "--reports", str(tmp_path), "--only", "no.such-id"]) == 2
    assert "no behaviour with id no.such-id" in capsys.readouterr().err
    assert not (tmp_path / HISTORY_PATH).exists() and not offline.calls


def test_nox_has_a_history_session():
    from test_versions import nox_list

    assert "history" in nox_list()


# --- the CLI axis --------------------------------------------------------------------

CLI_RELEASES = [f"2.1.{i}" for i in range(95, 111)]
# Two reports against other CLI releases (named so that file order is not CLI order) and the
# installed SDK's report with the CLI it bundles, 2.1.108, in the folder above.
CLI_COLUMNS = [("2.1.97", True), ("2.1.101", True), ("2.1.108", False)]
CLI_VERDICTS = {ERR: ["differs", "differs", "holds"], PERMS: ["differs", "holds", "holds"]}


def cli_axis_dir(tmp: Path, verdicts: dict[str, list[str]] = CLI_VERDICTS) -> Path:
    """tmp/reports/cli-axis with the custom-CLI reports, tmp/reports with the bundled one."""
    axis = tmp / "reports" / "cli-axis"
    axis.mkdir(parents=True)
    for i, (cli, custom) in enumerate(CLI_COLUMNS):
        entries = [
            result(bid, vs[i], checks={"typed": vs[i], "same": "holds"}, observed={"raised": vs[i]})
            for bid, vs in verdicts.items()
        ]
        write(sample.report(entries, info("0.2.189", cli, custom=custom)), axis if custom else axis.parent)
    return axis


@pytest.fixture
def cli_offline(monkeypatch):
    """--axis cli with a fixed npm release list, the installed SDK 0.2.189 and a scripted
    prober of CLI releases: no npm, no installs."""
    from sdkprobe.harness import sdk
    from sdkprobe.releases import claude_code

    monkeypatch.setattr(claude_code, "release_list", lambda: CLI_RELEASES)
    monkeypatch.setattr(sdk, "sdk_version", lambda: "0.2.189")
    prober = Scripted({ERR: "2.1.105", PERMS: "2.1.99"})

    class FakeCliProber:
        def __init__(self, bid: str, *_args: object) -> None:
            self.bid = bid
            self.runs = 0

        def __call__(self, version: str) -> ReleaseVerdict:
            self.runs += 1
            return prober.for_id(self.bid)(version)

    monkeypatch.setattr("sdkprobe.releases.probe.CliReleaseProber", FakeCliProber)
    monkeypatch.setattr("sdkprobe.releases.probe.ReleaseProber", None)  # no SDK release is probed
    return prober


def test_the_cli_axis_bisects_each_gap_between_cli_columns_among_npm_releases(tmp_path, cli_offline, capsys):
    axis = cli_axis_dir(tmp_path)
    assert commands.main(["history", "--axis", "cli", "--reports", str(axis)]) == 0
    hist = load(axis / HISTORY_PATH)
    assert hist is not None and hist.listed == ("2.1.97", "2.1.101", "2.1.108")  # by CLI release, bundled last
    pairs = {
        (e.step.id, e.step.before, e.step.after): (e.before.version, e.after.version) for e in verdict_entries(hist)
    }
    assert pairs == {
        (ERR, "2.1.101", "2.1.108"): ("2.1.104", "2.1.105"),  # against the bundled CLI's column
        (PERMS, "2.1.97", "2.1.101"): ("2.1.98", "2.1.99"),
    }
    # each gap probed only the npm releases strictly between its two columns
    assert {v for b, v in cli_offline.calls if b == ERR} <= {"2.1.102", "2.1.103", "2.1.104", "2.1.105", "2.1.106"}
    assert {v for b, v in cli_offline.calls if b == PERMS} <= {"2.1.98", "2.1.99", "2.1.100"}
    about = json.loads((axis / HISTORY_PATH).read_text())["about"]
    assert "Claude Code CLI release, run under claude-agent-sdk 0.2.189" in about and "--axis cli" in about
    assert f"{ERR}: differs up to 2.1.104, holds from 2.1.105 on" in capsys.readouterr().out


def test_the_cli_axis_matrix_words_the_history_with_cli_releases(tmp_path, cli_offline):
    axis = cli_axis_dir(tmp_path)
    assert commands.main(["history", "--axis", "cli", "--reports", str(axis)]) == 0
    md_path, html_path = render_matrix(axis)
    md, html = md_path.read_text(), html_path.read_text()
    for text in (md, html):
        assert "differs up to CLI 2.1.104, holds from CLI 2.1.105 on" in text
        assert "differs up to CLI 2.1.98, holds from CLI 2.1.99 on" in text
        assert "every release of the CLI on npm" in text and "every release on PyPI" not in text
    grid = from_reports(load_reports(axis), load(axis / HISTORY_PATH))
    assert [c.cli_version for c in grid.columns] == ["2.1.97", "2.1.101"]  # no bundled column: ERR's gap unworded
    words = {r.id: r.change for r in grid.rows}
    assert words == {ERR: "", PERMS: "differs up to CLI 2.1.98, holds from CLI 2.1.99 on"}
    assert "../0.2.189.json" in md  # the bundled column's report, named


def test_only_on_the_cli_axis_keeps_the_other_entries(tmp_path, cli_offline):
    axis = cli_axis_dir(tmp_path)
    assert commands.main(["history", "--axis", "cli", "--reports", str(axis), "--only", ERR]) == 0
    first = load(axis / HISTORY_PATH)
    assert first is not None and {e.step.id for e in first.entries} == {ERR}
    calls = len(cli_offline.calls)
    assert commands.main(["history", "--axis", "cli", "--reports", str(axis), "--only", PERMS]) == 0
    again = load(axis / HISTORY_PATH)
    assert again is not None and {e.step.id for e in again.entries} == {ERR, PERMS}
    assert [e for e in again.entries if e.step.id == ERR] == list(first.entries)
    assert {b for b, _ in cli_offline.calls[calls:]} == {PERMS}


def test_the_cli_axis_refuses_a_folder_that_is_not_one(tmp_path, cli_offline, capsys, monkeypatch):
    axis = cli_axis_dir(tmp_path)
    assert commands.main(["history", "--axis", "cli", "--reports", str(axis.parent)]) == 2
    err = capsys.readouterr().err.strip()
    assert "--axis cli:" in err and "holds no CLI-axis reports of one SDK" in err and "\n" not in err
    from sdkprobe.harness import sdk

    monkeypatch.setattr(sdk, "sdk_version", lambda: "0.2.190")
    assert commands.main(["history", "--axis", "cli", "--reports", str(axis)]) == 2
    err = capsys.readouterr().err.strip()
    assert "ran under claude-agent-sdk 0.2.189, but 0.2.190 is installed here" in err and "\n" not in err
    assert not cli_offline.calls and not (axis / HISTORY_PATH).exists()


def test_cli_axis_parts_merge_into_the_file_one_job_writes(tmp_path, cli_offline):
    axis = cli_axis_dir(tmp_path)
    parts = [tmp_path / "err.json", tmp_path / "perms.json"]
    for bid, part in zip((ERR, PERMS), parts, strict=True):
        assert (
            commands.main(["history", "--axis", "cli", "--reports", str(axis), "--out", str(part), "--only", bid]) == 0
        )
    whole, merged = tmp_path / "whole.json", tmp_path / "merged.json"
    assert commands.main(["history", "--axis", "cli", "--reports", str(axis), "--out", str(whole)]) == 0
    calls = len(cli_offline.calls)
    argv = ["history", "--axis", "cli", "--reports", str(axis), "--out", str(merged), "--merge", *map(str, parts)]
    assert commands.main(argv) == 0
    assert merged.read_bytes() == whole.read_bytes() and len(cli_offline.calls) == calls
