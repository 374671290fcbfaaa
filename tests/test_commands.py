"""The `sdkprobe` commands (sdkprobe's own command line, not the Claude Code CLI): true help,
clear errors for bad input, capture as promised."""

import json
import subprocess
import sys

import pytest

from sdkprobe.commands import main


def sdkprobe(*args):
    return subprocess.run([sys.executable, "-m", "sdkprobe", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "options, message",
    [
        ("not json", "not JSON"),
        ("[1]", "JSON object"),
        ('{"tols": []}', "has no field 'tols'"),
        ('{"tools": 5}', "does not fit"),
        ('{"max_turns": "many"}', "does not fit"),
    ],
)
def test_capture_bad_options_exit_2_with_one_line(options, message, capsys):
    assert main(["capture", "--options", options]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_capture_rejected_agent(capsys):
    assert main(["capture", "--agents", '{"r": {"description": "d", "prompt": "p", "bogus": 1}}']) == 2
    assert "bogus" in capsys.readouterr().err


@pytest.mark.parametrize(
    "tools, flag",
    [(None, None), (["Bash", "Read"], "Bash,Read"), ([], ""), ({"type": "preset", "preset": "claude_code"}, "default")],
)
def test_capture_json_shows_the_argv_the_sdk_builds(tools, flag, capsys):
    options = {} if tools is None else {"tools": tools}
    assert main(["capture", "--json", "--options", json.dumps(options)]) == 0
    out = json.loads(capsys.readouterr().out)
    argv = out["argv"]
    assert isinstance(out["initialize"], dict)
    if flag is None:
        assert "--tools" not in argv and out["added"] == []
    else:
        assert argv[argv.index("--tools") + 1] == flag
        assert out["added"] == [["--tools", flag]]


def test_capture_text_marks_added_flags(capsys):
    assert main(["capture", "--options", '{"disallowed_tools": ["Bash"]}']) == 0
    assert "+ --disallowedTools Bash" in capsys.readouterr().out


def test_run_rejects_unknown_id():
    out = sdkprobe("run", "--only", "no.such-behaviour")
    assert out.returncode == 2 and "no behaviour with id no.such-behaviour" in out.stderr
    assert "Traceback" not in out.stderr


def test_run_rejects_a_cli_that_is_not_executable(tmp_path):
    out = sdkprobe("run", "--cli", str(tmp_path / "nothing"))
    assert out.returncode == 2 and "not an executable" in out.stderr


def test_list_json_shows_what_each_behaviour_declares(capsys):
    from sdkprobe import catalogue

    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [b.id for b in catalogue.load()]
    by_id = {r["id"]: r for r in rows}
    wire = by_id["wire.tools-option-to-flag"]
    assert wire["area"] == "wire" and wire["tier"] == "wire"
    assert wire["source"]["key"] == "003" and wire["source"]["url"] is None and wire["source"]["section"]
    assert wire["source"]["page"] == "docs/sources/003.md" and wire["summary"] == catalogue.by_id(wire["id"]).summary
    assert "empty-list-sent-empty" in wire["checks"]
    assert wire["requires"] == ["option:tools"] and wire["unmet_on_installed"] == []
    assert wire["covers"] == list(catalogue.by_id(wire["id"]).covered) and "option:tools" in wire["covers"]
    assert wire["sdk_ref"].startswith("claude_agent_sdk.")


def test_list_filters_combine(capsys):
    from sdkprobe import catalogue

    assert main(["list", "--json", "--requires", "option:allowed", "--tier", "cli"]) == 0
    listed = [r["id"] for r in json.loads(capsys.readouterr().out)]
    expected = [
        b.id
        for b in catalogue.load()
        if b.tier == "cli" and any(str(r).startswith("option:allowed") for r in b.requires)
    ]
    assert listed == expected and "tools.allowed-tools-does-not-restrict" in listed
    assert all(b.tier == "cli" for b in catalogue.load() if b.id in listed)
    assert main(["list", "--json", "--id", "wire.*", "results.*"]) == 0
    ids = [r["id"] for r in json.loads(capsys.readouterr().out)]
    assert ids == [b.id for b in catalogue.load() if b.area in ("wire", "results")]
    assert "wire.tools-option-to-flag" in ids and "results.success-subtype-with-is-error" in ids
    assert main(["list", "--json", "--area", "plugins"]) == 0
    plugins = [r["id"] for r in json.loads(capsys.readouterr().out)]
    assert plugins and plugins == [b.id for b in catalogue.load() if b.area == "plugins"]


def test_list_covers_combines_with_the_other_filters(capsys):
    from sdkprobe import catalogue

    assert main(["list", "--json", "--covers", "option:tools", "--tier", "wire"]) == 0
    listed = [r["id"] for r in json.loads(capsys.readouterr().out)]
    expected = [b.id for b in catalogue.load() if b.tier == "wire" and "option:tools" in b.covered]
    assert listed == expected and "wire.tools-option-to-flag" in listed
    assert main(["list", "--covers", "option:no_such_option"]) == 2
    assert capsys.readouterr().err.startswith("sdkprobe list: error: --covers option:no_such_option: ")


def test_a_run_records_the_installed_sdks_surface_in_its_report(tmp_path):
    from sdkprobe.harness import sdk
    from sdkprobe.report import load
    from sdkprobe.surface import names

    assert main(["run", "--only", "wire.tools-option-to-flag", "--out", str(tmp_path), "-j", "1"]) == 0
    assert load(tmp_path / f"{sdk.sdk_version()}.json")["surface"] == names()


def test_list_unknown_area(capsys):
    assert main(["list", "--area", "nowhere"]) == 2
    assert "areas are wire, tools, perms" in capsys.readouterr().err


def test_run_refused_by_the_report_writer_exits_2_with_one_line(tmp_path, monkeypatch, capsys):
    """A report the writer refuses (here: it would publish a home directory) is bad input."""
    import sdkprobe.report as report

    real_build = report.build

    def leaky_build(results, info):
        built = real_build(results, info)
        built["behaviours"][0]["note"] = "seen in /home/someone/.claude"
        built["behaviours"][0]["verdict"] = "differs"
        return built

    monkeypatch.setattr(report, "build", leaky_build)
    code = main(["run", "--only", "wire.tools-option-to-flag", "--out", str(tmp_path), "-j", "1"])
    assert code == 2 and list(tmp_path.iterdir()) == []
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("sdkprobe run: error: refusing to write report") and "/home/" in last


@pytest.mark.parametrize("command", ["run", "list", "show", "surface", "capture", "report", "bisect", "history"])
def test_help_lists_every_option(command):
    out = sdkprobe(command, "--help")
    assert out.returncode == 0
    expected = {
        "run": [
            "--only",
            "--tier",
            "--out",
            "--merge",
            "--replace",
            "--cli",
            "--cli-version",
            "--sdk",
            "--sdk-version",
            "--live",
            "-j",
        ],
        "list": ["--tier", "--area", "--id", "--requires", "--covers", "--json"],
        "show": ["ID", "--reports"],
        "surface": ["--uncovered", "--json", "--catalogue", "list --covers"],
        "capture": ["--options", "--agents", "--prompt", "--json"],
        "report": ["DIR", "--from", "--to", "--out", "behaviours/<id>.html", "--sdks", "SDK-DIFFERENCES.md"],
        "bisect": ["--axis", "--from", "--to", "--reports", "--fresh", "--check", "--scan", "--no-yanked"],
        "history": ["--only", "--out", "--reports", "--merge", "-j"],
    }[command]
    for flag in expected:
        assert flag in out.stdout


def test_show_needs_an_id_and_names_the_close_ones(tmp_path, capsys):
    import sample_reports as sample

    from sdkprobe.report import write

    write(sample.report([sample.result("wire.tools-flag")]), tmp_path)
    assert sdkprobe("show").returncode == 2  # argparse: the id is required
    assert main(["show", "wire.tools-flags", "--reports", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"sdkprobe show: error: no behaviour wire.tools-flags in the reports in {tmp_path}; "
        "did you mean wire.tools-flag?\n"
    )


def test_rejudge_rewrites_what_a_changed_decision_says_and_nothing_else(tmp_path, capsys):
    """A stored observation is judged again by the decision as declared now."""
    from sdkprobe.report import build, load, write

    entry = {
        "id": "wire.tools-option-to-flag",
        "area": "wire",
        "tier": "wire",
        "claim": "a claim long enough to read",
        "source": {"key": "003", "title": "t", "section": "s", "url": None},
        "verdict": "holds",  # as an older decision might have said; this observation does not hold
        "note": "",
        "checks": {},
        "observed": {
            "--tools": {
                "omitted-sends-no-flag": None,
                "list-sent-comma-joined": "Bash Read",
                "empty-list-sent-empty": "",
                "preset-sent-as-default": "default",
            }
        },
    }
    untouched = {**entry, "id": "wire.no-longer-declared", "observed": {"x": 1}}
    info = {"sdk_version": "9.9.9", "cli_version": "1", "cli": "bundled", "python": "3", "platform": "p"}
    write(build([entry, untouched], info), tmp_path)
    assert main(["rejudge", str(tmp_path)]) == 0
    assert "1 of 2 entries judged differently now" in capsys.readouterr().out
    after = {b["id"]: b for b in load(tmp_path / "9.9.9.json")["behaviours"]}
    assert after["wire.tools-option-to-flag"]["verdict"] == "differs"
    assert (
        after["wire.tools-option-to-flag"]["note"] == "list-sent-comma-joined: --tools was 'Bash Read', not 'Bash,Read'"
    )
    assert after["wire.tools-option-to-flag"]["observed"] == entry["observed"]
    assert after["wire.no-longer-declared"] == untouched
    assert main(["rejudge", str(tmp_path / "none")]) == 2


def test_run_merge_puts_its_results_into_the_existing_report(tmp_path, capsys):
    """`--merge` adds or replaces only the behaviours run; a report of other run conditions is refused."""
    from sdkprobe.harness import sdk
    from sdkprobe.report import load
    from sdkprobe.report.store import dumps
    from sdkprobe.runner import RunSettings, run_info

    info = run_info(RunSettings())
    other = {
        "id": "tools.kept-entry",
        "area": "tools",
        "tier": "cli",
        "claim": "an entry of a behaviour this run does not touch",
        "source": {"key": "003", "title": "t", "section": "s", "url": None},
        "verdict": "holds",
        "note": "",
        "checks": {},
        "observed": {"kept": True},
    }
    path = tmp_path / f"{sdk.sdk_version()}.json"
    path.write_text(dumps({"schema": 2, **info, "behaviours": [other]}))
    assert main(["run", "--only", "wire.tools-option-to-flag", "--out", str(tmp_path), "--merge", "-j", "1"]) == 0
    ids = [b["id"] for b in load(path)["behaviours"]]
    assert ids == ["tools.kept-entry", "wire.tools-option-to-flag"]

    path.write_text(dumps({"schema": 2, **info, "python": "2.7", "behaviours": [other]}))
    assert main(["run", "--only", "wire.tools-option-to-flag", "--out", str(tmp_path), "--merge", "-j", "1"]) == 2
    assert "its python is '2.7'" in capsys.readouterr().err
    assert [b["id"] for b in load(path)["behaviours"]] == ["tools.kept-entry"]


def test_a_catalogue_that_cannot_be_imported_is_one_line_and_exit_2(monkeypatch, capsys):
    # configure() keeps the choice in the environment for the processes a command starts:
    # monkeypatch restores it, so no later test loads this catalogue
    monkeypatch.setenv("SDKPROBE_CATALOGUE", "")
    monkeypatch.setenv("SDKPROBE_BUILTIN", "1")
    assert main(["list", "--catalogue", "no_such_team.behaviours"]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == "sdkprobe list: error: catalogue no_such_team.behaviours: cannot import it: No module named 'no_such_team'\n"
    )


# --- renamed behaviours -----------------------------------------------------------------

OLD, NEW = "wire.empty-lists-and-zero-send-no-flag", "wire.empty-and-zero-values-reach-cli"  # a declared rename


def test_an_old_id_selects_the_renamed_behaviour_and_says_so_once(tmp_path, monkeypatch, capsys):
    """--only and list --id take the id a behaviour had before; stderr says it was renamed,
    once however often it is given; a run merged into a report from before the rename
    replaces the old id's entry with the current id's."""
    from sdkprobe import catalogue
    from sdkprobe.report import build, load, write
    from sdkprobe.runner import RunSettings, run_info

    monkeypatch.setattr(catalogue, "_TOLD", set())
    assert catalogue.resolve(NEW) == NEW and catalogue.renames()[OLD] == NEW
    assert main(["list", "--json", "--id", OLD, OLD]) == 0
    out, err = capsys.readouterr()
    assert [r["id"] for r in json.loads(out)] == [NEW]
    assert err == f"sdkprobe: {OLD} was renamed {NEW}; the old id still works\n"
    monkeypatch.setattr(catalogue, "_TOLD", set())
    stale = {"id": OLD, "area": "wire", "tier": "wire", "claim": "the old words of the claim", "verdict": "error"}
    stale |= {"source": {"key": "003", "title": "t", "section": "s", "url": None}, "note": "x", "checks": {}}
    write(build([{**stale, "observed": None}], run_info(RunSettings())), tmp_path)  # a report from before
    assert main(["run", "--only", OLD, "--out", str(tmp_path), "--merge", "-j", "1"]) == 0
    assert f"{OLD} was renamed {NEW}" in capsys.readouterr().err
    [written] = tmp_path.glob("*.json")
    [entry] = load(written)["behaviours"]  # merged over the old id's entry, not beside it
    assert entry["id"] == NEW and entry["verdict"] != "error"


def test_rejudge_refreshes_declared_fields_and_renames_old_ids(tmp_path, capsys):
    """An old report (an old id, an outdated claim, source and tier) reads as a run now would
    write it; the verdict stays as the decision says; the history file's old ids are renamed."""
    from sdkprobe import catalogue
    from sdkprobe.report import build, load, write
    from sdkprobe.report.history import HISTORY_PATH, Entry, History, Side, Step
    from sdkprobe.report.history import load as load_history
    from sdkprobe.report.history import write as write_history
    from sdkprobe.runner import judge
    from sdkprobe.sources import cite

    b = catalogue.by_id(OLD)
    observed = b.counterexamples[0]
    v = judge(b, observed)
    entry = {
        "id": OLD,
        "area": "wire",
        "tier": "cli",  # outdated
        "claim": "empty lists and zero send no flag (the old words)",
        "source": {"key": "003", "title": "t", "section": "an old section", "url": None},
        "verdict": v.verdict,
        "note": v.note,
        "checks": dict(v.checks),
        "observed": observed,
    }
    gone = {**entry, "id": "wire.empty-b-no-longer-declared"}  # sorts between the old id and the new
    info = {"sdk_version": "9.9.9", "cli_version": "1", "cli": "bundled", "python": "3", "platform": "p"}
    write(build([entry, gone], info), tmp_path)
    step = Step(OLD, "9.9.8", "9.9.9", ("holds", "differs"))
    history = History(("9.9.8", "9.9.9"), (Entry(step, Side("9.9.8", "holds"), Side("9.9.9", "differs"), "scan", 1),))
    write_history(history, tmp_path / HISTORY_PATH)
    assert main(["rejudge", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "0 of 2 entries judged differently now, 1 with declared fields refreshed, 1 renamed" in out
    assert "history/history.json: 1 of 1 entries renamed" in out
    after = load(tmp_path / "9.9.9.json")["behaviours"]
    assert [e["id"] for e in after] == [NEW, gone["id"]]
    fresh = after[0]
    assert (fresh["claim"], fresh["source"], fresh["tier"]) == (b.claim, cite(*b.source), b.tier)
    assert (fresh["verdict"], fresh["note"], fresh["checks"], fresh["observed"]) == (
        entry["verdict"],
        entry["note"],
        entry["checks"],
        observed,
    )
    assert after[1] == gone
    renamed_history = load_history(tmp_path / HISTORY_PATH)
    assert renamed_history is not None and [e.step.id for e in renamed_history.entries] == [NEW]
    assert NEW in (tmp_path / "9.9.9.md").read_text()
