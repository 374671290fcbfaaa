"""What a command writes: never a report shrunk by accident, a destination that cannot be
written found before any probe (one line, exit 2), files replaced whole or not at all, and
nothing a probe's processes print in the user's terminal. Driven through `sdkprobe` as a user
drives it."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sdkprobe import catalogue
from sdkprobe.commands import main

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "reports"
ONE = "wire.tools-option-to-flag"


def _installed_stem():
    from sdkprobe.report.store import file_stem
    from sdkprobe.runner import RunSettings, run_info

    return file_stem(run_info(RunSettings()))


@pytest.fixture
def no_probing(monkeypatch):
    """Fail the test if a probe would run."""

    monkeypatch.setattr(
        "sdkprobe.commands.shared.probe_installed", lambda *a, **k: pytest.fail("probed before refusing")
    )


def _report_with_two(tmp_path):
    """DIR/<installed>.json holding ONE and another behaviour, as a full report holds many."""
    from sdkprobe.report import build, write
    from sdkprobe.runner import RunSettings, run_info

    def entry(bid, area):
        return {
            "id": bid,
            "area": area,
            "tier": "wire",
            "claim": "an entry already in the report",
            "source": {"key": "003", "title": "t", "section": "s", "url": None},
            "verdict": "holds",
            "note": "",
            "checks": {},
            "observed": {"kept": True},
        }

    write(
        build([entry(ONE, "wire"), entry("tools.allowed-tools-does-not-restrict", "tools")], run_info(RunSettings())),
        tmp_path,
    )
    return tmp_path / f"{_installed_stem()}.json"


# --- no report is shrunk by accident ------------------------------------------------------


@pytest.mark.parametrize("selection", [["--only", ONE], ["--tier", "wire"]])
def test_a_partial_run_over_a_fuller_report_is_refused_before_probing(selection, tmp_path, no_probing, capsys):
    path = _report_with_two(tmp_path)
    before = path.read_bytes()
    assert main(["run", *selection, "--out", str(tmp_path), "-j", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "tools.allowed-tools-does-not-restrict" in err and "--merge" in err and "--replace" in err
    assert path.read_bytes() == before


def test_replace_writes_a_report_of_only_the_behaviours_run(tmp_path):
    path = _report_with_two(tmp_path)
    assert main(["run", "--only", ONE, "--out", str(tmp_path), "--replace", "-j", "1"]) == 0
    assert [b["id"] for b in json.loads(path.read_text())["behaviours"]] == [ONE]


def test_merge_and_replace_do_not_go_together(tmp_path, capsys):
    assert main(["run", "--only", ONE, "--out", str(tmp_path), "--merge", "--replace"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not allowed with argument" in err


def test_a_partial_run_of_only_what_the_report_holds_needs_no_flag(tmp_path):
    from sdkprobe.report import build, write
    from sdkprobe.runner import RunSettings, run_info

    write(build([], run_info(RunSettings())), tmp_path)
    assert main(["run", "--only", ONE, "--out", str(tmp_path), "-j", "1"]) == 0


def test_a_partial_run_over_a_broken_report_is_refused(tmp_path, no_probing, capsys):
    (tmp_path / f"{_installed_stem()}.json").write_text("{not json")
    assert main(["run", "--only", ONE, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not JSON" in err and "--replace" in err


def test_history_only_keeps_every_other_behaviours_entry(tmp_path, capsys):
    """`history --only ID` over the committed history, with reports that make most of its entries
    stale: entries of the other behaviours are kept as they were, none dropped."""
    history = REPORTS / "history" / "history.json"
    if not history.exists():
        pytest.skip("needs the committed history")
    reports = tmp_path / "reports"
    (reports / "history").mkdir(parents=True)
    for v in ("0.2.180", "0.2.181"):
        shutil.copy(REPORTS / f"{v}.json", reports)
    shutil.copy(history, reports / "history")
    a, b = (json.loads((reports / f"{v}.json").read_text()) for v in ("0.2.180", "0.2.181"))
    verdicts = {e["id"]: e["verdict"] for e in b["behaviours"]}
    steady = next(e["id"] for e in a["behaviours"] if verdicts.get(e["id"]) == e["verdict"])
    renames = catalogue.renames()  # a history from before a rename is written back under the new ids
    old = [{**e, "id": renames.get(e["id"], e["id"])} for e in json.loads(history.read_text())["entries"]]
    assert main(["history", "--only", steady, "--reports", str(reports)]) == 0
    new = json.loads((reports / "history" / "history.json").read_text())["entries"]

    def others(entries: list[dict]) -> list[str]:
        return sorted(json.dumps(e, sort_keys=True) for e in entries if e["id"] != renames.get(steady, steady))

    assert others(new) == others(old)


# --- outputs that cannot be written: found first, one line, exit 2 -------------------------


def _one_error_line(capsys, *words):
    """stderr is one error line (after the run's header and progress lines, if it probed)."""
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith(("claude-agent-sdk ", "["))]
    assert len(lines) == 1 and lines[0].startswith("sdkprobe") and "error" in lines[0], err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0], err


def test_run_out_that_cannot_be_made_is_found_before_probing(no_probing, capsys):
    assert main(["run", "--only", ONE, "--out", "/proc/nope", "-j", "1"]) == 2
    _one_error_line(capsys, "/proc/nope")


def test_run_out_whose_report_path_is_a_folder_is_found_before_probing(tmp_path, no_probing, capsys):
    (tmp_path / f"{_installed_stem()}.json").mkdir()
    assert main(["run", "--only", ONE, "--out", str(tmp_path), "--replace", "-j", "1"]) == 2
    _one_error_line(capsys, "is a folder")


def test_report_whose_matrix_path_is_a_folder_writes_nothing(tmp_path, capsys):
    shutil.copy(REPORTS / "0.2.189.json", tmp_path)
    (tmp_path / "COMPATIBILITY.md").mkdir()
    assert main(["report", str(tmp_path)]) == 2
    _one_error_line(capsys, "COMPATIBILITY.md", "is a folder")
    assert not (tmp_path / "compatibility.html").exists()


def test_history_out_that_cannot_be_made_is_found_before_anything(monkeypatch, capsys):
    from sdkprobe.releases import index as releases

    monkeypatch.setattr(releases, "releases", lambda: pytest.fail("asked the index before checking --out"))
    assert main(["history", "--out", "/sys/nope/h.json"]) == 2
    _one_error_line(capsys, "/sys/nope")


def test_a_write_that_fails_leaves_the_old_report_whole(tmp_path, monkeypatch, capsys):
    """An OSError while writing (here: the disk refuses the sync) is one line and exit 2, and the
    report that was there is still there, byte for byte, with no temporary file beside it."""
    import os

    path = _report_with_two(tmp_path)
    before = path.read_bytes()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    assert main(["run", "--only", ONE, "--out", str(tmp_path), "--merge", "-j", "1"]) == 2
    _one_error_line(capsys, "No space left on device")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, path.with_suffix(".md").name])


# --- a command that cannot do its job says so up front --------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["bisect", ONE, "--from", "0.2.180", "--to", "0.2.189"],
        ["history"],
    ],
)
def test_commands_that_install_releases_refuse_with_no_sdkprobe_to_install(argv, tmp_path, monkeypatch, capsys):
    """With neither a checkout nor an installed distribution to put into a release's
    environment: one line, exit 2, before the index is asked."""
    from importlib.metadata import PackageNotFoundError

    from sdkprobe.releases import index as releases
    from sdkprobe.releases import itself

    def not_installed(name):
        raise PackageNotFoundError(name)

    monkeypatch.setattr(itself, "_CHECKOUT", tmp_path / "site-packages")
    monkeypatch.setattr(itself, "distribution", not_installed)
    monkeypatch.setattr(releases, "releases", lambda: pytest.fail("asked the index before refusing"))
    assert main(argv) == 2
    _one_error_line(capsys, "neither a checkout nor an installed package")


# --- probe output stays out of the terminal ------------------------------------------------


def test_what_a_probes_cli_writes_to_stderr_stays_out_of_the_terminal(tmp_path):
    """process.process-error-carries-stderr's fake CLI writes boom-diagnostic-XYZ to a stderr the SDK
    does not read; it is not the run's to print. The observation is what the report records."""
    bid = "process.process-error-carries-stderr"
    done = subprocess.run(
        [sys.executable, "-m", "sdkprobe", "run", "--only", bid, "--out", str(tmp_path), "-j", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "boom-diagnostic-XYZ" not in done.stderr and "boom-diagnostic-XYZ" not in done.stdout
    written = json.loads((tmp_path / f"{_installed_stem()}.json").read_text())["behaviours"]
    committed = REPORTS / f"{_installed_stem()}.json"
    if committed.exists():
        renames = catalogue.renames()  # a report from before the rename names the old id
        recorded = next(
            b for b in json.loads(committed.read_text())["behaviours"] if renames.get(b["id"], b["id"]) == bid
        )
        assert written[0]["observed"] == recorded["observed"]


def test_what_a_probe_leaves_to_the_garbage_collector_stays_out_of_the_terminal(tmp_path):
    """An SDK transport outliving the probe's event loop complains from its `__del__` ("Event
    loop is closed"); with -j 1 that ran at interpreter exit, on the user's terminal."""
    done = subprocess.run(
        [sys.executable, "-m", "sdkprobe", "run", "--only", "process.oversized-stdout-line-delivered"]
        + ["--out", str(tmp_path), "-j", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
