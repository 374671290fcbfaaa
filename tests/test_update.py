"""`sdkprobe update` against offline indexes: a scripted release list for each SDK, a recorder
that writes the report a run would, and a copy of the version list to edit. What is checked is
what a maintainer relies on: a new release is recorded, listed, dated, noted and placed in the
history; nothing new writes nothing; a release that cannot be installed is named and the others
still recorded; an interrupted update is taken up where it stopped."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
import sample_reports as sample
from sample_reports import info, result

from sdkprobe import commands
from sdkprobe.commands import update
from sdkprobe.errors import UsageError
from sdkprobe.releases import index, tracked, versions
from sdkprobe.releases.bisect import ReleaseVerdict
from sdkprobe.releases.tracked import Available
from sdkprobe.releases.versions import add_listed
from sdkprobe.report import published, write
from sdkprobe.report.history import HISTORY_PATH
from sdkprobe.report.history import load as load_history

BID = "wire.tools-option-to-flag"
OTHER = "wire.b"
TS_INDEX = [
    Available("0.3.333", "2026-11-30T19:07:51+00:00"),
    Available("0.3.334", "2026-12-01T18:58:37.120Z"),
    Available("0.3.335", "2026-12-02T21:55:58+00:00"),
]
PY_INDEX = [Available("0.2.189", "2026-11-29T10:00:00.000000Z"), Available("0.2.190", None, "yanked")]


def ts_report(version: str, verdict: str) -> dict:
    run = {**info(version, f"2.1.{version.rsplit('.', 1)[1]}"), "sdk": "typescript", "node": "20.19.1"}
    entries = [result(BID, verdict, observed={"seen": verdict}), result(OTHER, "holds", observed={"seen": 1})]
    return {
        **sample.report(entries, run),
        "surface": ["option:tools", *(["value:PermissionDecisionClassification=config"] if verdict == "holds" else [])],
    }


# What each scripted release does: BID differs up to 0.3.334 and holds from 0.3.335 on.
def verdict_on(version: str) -> str:
    return "holds" if version >= "0.3.335" else "differs"


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A checkout-like folder: reports of Python 0.2.189 and TypeScript 0.3.333, a copy of the
    version list as update edits it, and offline indexes; returns what the fakes saw."""
    monkeypatch.chdir(tmp_path)
    write(sample.report([result(BID, "holds"), result(OTHER, "holds")], info("0.2.189", "2.1.332")), Path("reports"))
    write(ts_report("0.3.333", "differs"), Path("reports/ts"))
    listed = tmp_path / "versions.py"
    shutil.copy(versions.__file__, listed)
    monkeypatch.setattr(versions, "__file__", str(listed))
    monkeypatch.setattr(versions, "SDK_VERSIONS", ["0.1.19", "0.2.189"])
    monkeypatch.setattr(versions, "TS_VERSIONS", ["0.3.270", "0.3.333"])
    seen: dict[str, list[str]] = {"recorded": [], "installed": []}
    monkeypatch.setitem(tracked._INDEXES, "python", lambda: list(PY_INDEX))
    monkeypatch.setitem(tracked._INDEXES, "ts", lambda: list(TS_INDEX))
    monkeypatch.setitem(tracked._INSTALLERS, "python", lambda v, say: seen["installed"].append(v))
    monkeypatch.setitem(tracked._INSTALLERS, "ts", lambda v, say: seen["installed"].append(v))

    def record(t, version, jobs):
        seen["recorded"].append(version)
        write(ts_report(version, verdict_on(version)), t.reports)
        return 0

    monkeypatch.setattr(update, "record", record)
    # the history places changes among npm releases: with neighbours adjacent, nothing is probed
    from sdkprobe.releases import ts_sdk

    monkeypatch.setattr(ts_sdk, "releases", lambda **_: [a.version for a in TS_INDEX])
    monkeypatch.setattr("sdkprobe.releases.probe.TsReleaseProber", ScriptedProber)
    return seen


class ScriptedProber:
    """A release probed by the history: what the scripted releases do."""

    def __init__(self, bid: str, *_args: object) -> None:
        self.bid, self.runs = bid, 0

    def __call__(self, version: str) -> ReleaseVerdict:
        self.runs += 1
        v = verdict_on(version) if self.bid == BID else "holds"
        return ReleaseVerdict(version, verdict=v, note=f"note {v}", checks={}, observed={"seen": v})


def tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_new_releases_are_recorded_listed_dated_noted_and_placed(workspace, tmp_path, capsys):
    assert commands.main(["update", "--note", "note.md"]) == 0
    out, err = capsys.readouterr()
    assert workspace["recorded"] == ["0.3.334", "0.3.335"] == workspace["installed"]
    assert "claude-agent-sdk on PyPI: newest listed 0.2.189; nothing newer to record" in err
    assert "0.2.190: yanked, not recorded" in err
    ts = Path("reports/ts")
    assert (ts / "0.3.334.json").is_file() and (ts / "0.3.335.json").is_file()
    # dated from the index, in one form, never by the clock
    assert published.load(ts) == {
        "0.3.333": "2026-11-30T19:07:51Z",
        "0.3.334": "2026-12-01T18:58:37Z",
        "0.3.335": "2026-12-02T21:55:58Z",
    }
    # listed last in the version list, every other line as it was
    text = (tmp_path / "versions.py").read_text()
    assert '    "0.3.334",  # recorded by sdkprobe update (CLI 2.1.334)\n    "0.3.335",  # recorded' in text
    assert text.replace('    "0.3.334",  # recorded by sdkprobe update (CLI 2.1.334)\n', "").replace(
        '    "0.3.335",  # recorded by sdkprobe update (CLI 2.1.335)\n', ""
    ) == Path(versions.__file__).read_text().replace(
        '    "0.3.334",  # recorded by sdkprobe update (CLI 2.1.334)\n', ""
    ).replace('    "0.3.335",  # recorded by sdkprobe update (CLI 2.1.335)\n', "")
    # the history knows the exact pair, and the note of 0.3.335 names the move and the new item
    history = load_history(ts / HISTORY_PATH)
    assert history is not None and [
        (e.step.id, e.before.version, e.after.version) for e in history.entries if e.step.check is None
    ] == [(BID, "0.3.334", "0.3.335")]
    note = (ts / "notes" / "0.3.335.md").read_text()
    assert note.startswith("# @anthropic-ai/claude-agent-sdk 0.3.335\n")
    assert "Published on npm 2026-12-02; bundles Claude Code CLI 2.1.335." in note
    assert "Compared with 0.3.334 (CLI 2.1.334)" in note
    assert f"`{BID}`: ❌ differs on 0.3.334 → ✅ holds on 0.3.335" in note
    assert "- `value:PermissionDecisionClassification=config`: covered by `perms.ts-answer-classification-sent`" in note
    assert "Nothing moved between 0.3.333 and 0.3.334." in (ts / "notes" / "0.3.334.md").read_text()
    # printed, and the whole text in --note's file (a pull request's body)
    assert Path("note.md").read_text() == out and note in out
    # the matrices are rendered again, the TypeScript one with the new columns
    assert "0.3.335" in (ts / "COMPATIBILITY.md").read_text()
    assert (Path("reports") / "COMPATIBILITY.md").is_file()


def test_nothing_new_says_so_and_writes_nothing(workspace, monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(tracked._INDEXES, "ts", lambda: list(TS_INDEX[:1]))
    before = tree(tmp_path)
    assert commands.main(["update"]) == 0
    assert "nothing new" in capsys.readouterr().err
    assert tree(tmp_path) == before and workspace["recorded"] == []


def test_dry_run_names_what_it_would_record_and_writes_nothing(workspace, tmp_path, capsys):
    before = tree(tmp_path)
    assert commands.main(["update", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert (
        "@anthropic-ai/claude-agent-sdk on npm: newest listed 0.3.333; to record into reports/ts/: 0.3.334, 0.3.335"
        in err
    )
    assert "0.2.190: yanked, not recorded" in err
    assert tree(tmp_path) == before and workspace["recorded"] == []


def test_a_release_that_cannot_be_installed_is_named_and_the_others_recorded(workspace, monkeypatch, capsys):
    def install(version, say):
        if version == "0.3.334":
            raise UsageError("npm install failed: E404")
        workspace["installed"].append(version)

    monkeypatch.setitem(tracked._INSTALLERS, "ts", install)
    assert commands.main(["update", "--sdk", "ts"]) == 1
    err = capsys.readouterr().err
    assert "not recorded: @anthropic-ai/claude-agent-sdk 0.3.334: cannot be installed: npm install failed: E404" in err
    assert workspace["recorded"] == ["0.3.335"]
    assert versions.TS_VERSIONS[-1] == "0.3.335" and "0.3.334" not in versions.TS_VERSIONS
    note = Path("reports/ts/notes/0.3.335.md").read_text()
    assert "Compared with 0.3.333" in note  # the release recorded before it


def test_an_interrupted_update_is_taken_up_where_it_stopped(workspace, monkeypatch, capsys):
    recorded = update.record

    def interrupted(t, version, jobs):
        if version == "0.3.335":
            raise KeyboardInterrupt
        return recorded(t, version, jobs)

    monkeypatch.setattr(update, "record", interrupted)
    with pytest.raises(KeyboardInterrupt):  # main() makes it exit 130 (tests/test_interrupt.py)
        update.invoke(["update", "--sdk", "ts"])
    assert Path("reports/ts/0.3.334.json").is_file() and not Path("reports/ts/notes").exists()
    assert versions.TS_VERSIONS[-1] == "0.3.333"  # listed only once settled
    monkeypatch.setattr(update, "record", recorded)
    workspace["recorded"].clear()
    assert commands.main(["update", "--sdk", "ts"]) == 0
    assert workspace["recorded"] == ["0.3.335"]  # 0.3.334's report kept, not run again
    assert "0.3.334: recorded by an earlier run, kept" in capsys.readouterr().err
    assert Path("reports/ts/notes/0.3.334.md").is_file() and versions.TS_VERSIONS[-2:] == ["0.3.334", "0.3.335"]


def test_newest_records_only_the_newest(workspace):
    assert commands.main(["update", "--sdk", "ts", "--newest"]) == 0
    assert workspace["recorded"] == ["0.3.335"]
    note = Path("reports/ts/notes/0.3.335.md").read_text()
    assert "Compared with 0.3.333" in note


def test_an_unreadable_index_is_one_line_before_anything_is_recorded(workspace, monkeypatch, capsys):
    def down():
        raise index.IndexUnreachable("cannot read the release list from https://pypi.org/simple/claude-agent-sdk/")

    monkeypatch.setitem(tracked._INDEXES, "python", down)
    assert commands.main(["update"]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("cannot read the release list from https://pypi.org/simple/claude-agent-sdk/")
    )
    assert workspace["recorded"] == []


def test_add_listed_appends_once_and_keeps_every_other_line(tmp_path):
    copy = tmp_path / "versions.py"
    shutil.copy(versions.__file__, copy)
    before = copy.read_text()
    assert add_listed("TS_VERSIONS", "9.9.9", "why", str(copy))
    assert not add_listed("TS_VERSIONS", "9.9.9", "why", str(copy))
    after = copy.read_text()
    assert after.replace('    "9.9.9",  # why\n', "") == before
    namespace: dict = {}
    exec(compile(after, str(copy), "exec"), namespace)
    assert namespace["TS_VERSIONS"][-1] == "9.9.9" and "9.9.9" not in namespace["SDK_VERSIONS"]
    with pytest.raises(ValueError):
        add_listed("NO_SUCH_LIST", "1.0.0", "why", str(copy))


@pytest.mark.parametrize(
    "stamp",
    ["2026-12-01T18:58:37.123456Z", "2026-12-01T18:58:37+00:00", "2026-12-01T19:58:37+01:00", "2026-12-01T18:58:37"],
)
def test_publish_times_are_written_in_one_form(stamp):
    assert published.normalised(stamp) == "2026-12-01T18:58:37Z"


def test_a_release_is_dated_by_its_first_upload():
    page = {
        "files": [
            {
                "filename": "claude_agent_sdk-0.2.189-py3-none-manylinux_2_17_x86_64.whl",
                "upload-time": "2026-11-29T10:05:00Z",
            },
            {"filename": "claude_agent_sdk-0.2.189.tar.gz", "upload-time": "2026-11-29T10:00:00Z"},
            {"filename": "claude_agent_sdk-0.2.190.tar.gz"},
        ]
    }
    dated = {r.version: r.published for r in index.parse(page, "x86_64")}
    assert dated == {"0.2.189": "2026-11-29T10:00:00Z", "0.2.190": None}


def test_published_times_file_is_checked(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "published.json").write_text(json.dumps(["0.3.333"]))
    from sdkprobe.report.errors import ReportError

    with pytest.raises(ReportError, match="not a mapping"):
        published.load(tmp_path)


def test_a_note_names_what_was_seen_differently_but_not_the_version_numbers():
    from sdkprobe.report.grid import from_reports
    from sdkprobe.report.release_note import release_note

    def one(version: str, observed: dict) -> dict:
        run = {**info(version, f"2.1.{version.rsplit('.', 1)[1]}"), "sdk": "typescript", "node": "20.19.1"}
        entries = [
            result(BID, "holds", observed=observed),
            result(OTHER, "holds", observed={"cli": f"CLI {run['cli_version']}"}),
        ]
        return sample.report(entries, run)

    grid = from_reports([one("0.3.333", {"again": None}), one("0.3.334", {"again": "Error"})])
    note = release_note(grid, "0.3.334", {})
    assert "## Seen differently, same verdict" in note
    assert f'- `{BID}` (still holds): observed.again: null → "Error"' in note
    assert OTHER not in note  # only its CLI's version number changed
    same = release_note(from_reports([one("0.3.333", {"a": 1}), one("0.3.334", {"a": 1})]), "0.3.334", {})
    assert "Seen differently" not in same


def test_report_writes_a_note_per_release_and_removes_a_stale_one(tmp_path, capsys):
    folder = tmp_path / "ts"
    write(ts_report("0.3.333", "differs"), folder)
    write(ts_report("0.3.334", "holds"), folder)
    (folder / "notes").mkdir()
    (folder / "notes" / "0.3.100.md").write_text("a release whose report is gone\n")
    assert commands.main(["report", str(folder)]) == 0
    assert sorted(p.name for p in (folder / "notes").iterdir()) == ["0.3.333.md", "0.3.334.md"]
    assert "nothing to compare with" in (folder / "notes" / "0.3.333.md").read_text()
    assert f"`{BID}`: ❌ differs on 0.3.333 → ✅ holds on 0.3.334" in (folder / "notes" / "0.3.334.md").read_text()
    assert f"wrote {folder / 'notes'}/ (a release note per release)" in capsys.readouterr().out


def test_a_cli_axis_gets_no_release_notes(tmp_path):
    axis = tmp_path / "reports" / "cli-axis"
    write(sample.report([result(BID, "holds")], info("0.2.189", "2.1.300", custom=True)), axis)
    assert commands.main(["report", str(axis)]) == 0
    assert not (axis / "notes").exists()


def test_a_recorded_release_prints_its_table_to_stderr_not_stdout(capfd):
    """A release's run shows its progress and table, but update's stdout stays the notes alone."""
    from sdkprobe import scope

    with scope.entered():
        done = scope.run(
            [sys.executable, "-c", "print('the table'); import sys; print('progress', file=sys.stderr)"],
            env=dict(os.environ),
            capture=False,
            stdout_to_stderr=True,
        )
    out, err = capfd.readouterr()
    assert done.returncode == 0 and out == "" and "the table" in err and "progress" in err


def test_a_second_update_of_one_checkout_is_refused_while_the_first_runs(workspace, capsys):
    key = hashlib.sha256(str(Path("reports").resolve()).encode()).hexdigest()[:12]
    from sdkprobe.releases import cache

    with cache.held_alone(cache.base() / ".locks" / f"update-{key}", "held by this test"):
        assert commands.main(["update", "--sdk", "ts"]) == 2
    assert "another sdkprobe update is running on" in capsys.readouterr().err
    assert workspace["recorded"] == []
    assert commands.main(["update", "--sdk", "ts"]) == 0  # once it is free
