"""The TypeScript SDK's releases as an axis: bisect and history over npm releases (--sdk ts,
and --axis ts, its old spelling), the gate and capture with --sdk, all offline (a fixed
release list, scripted probers); one slow test gates and bisects two real releases from the
cache."""

from __future__ import annotations

import json
import os
import shutil

import pytest
import sample_reports as sample
from sample_reports import info, result

from sdkprobe import commands
from sdkprobe.releases.bisect import ReleaseVerdict
from sdkprobe.report import write
from sdkprobe.report.history import HISTORY_PATH, load

BID = "wire.tools-option-to-flag"
TS_RELEASES = [f"0.3.{i}" for i in range(270, 281)]


def scripted(changes_at: dict[str, str], calls: list[tuple[str, str]]) -> type:
    """A TsReleaseProber stand-in: differs before `changes_at[id]`, holds from there on."""

    class FakeTsProber:
        def __init__(self, bid: str, *_args: object) -> None:
            self.bid, self.runs = bid, 0

        def __call__(self, version: str) -> ReleaseVerdict:
            calls.append((self.bid, version))
            self.runs += 1
            at = changes_at[self.bid]
            v = "holds" if [int(p) for p in version.split(".")] >= [int(p) for p in at.split(".")] else "differs"
            return ReleaseVerdict(version, verdict=v, note=f"note {v}", checks={}, observed={"seen": v})

    return FakeTsProber


def ts_report(version: str, verdict: str, bid: str = BID) -> dict:
    run = {**info(version, "2.1.300"), "sdk": "typescript", "node": "20.19.1"}
    return sample.report([result(bid, verdict, observed={"seen": verdict})], run)


@pytest.fixture
def ts_offline(monkeypatch):
    from sdkprobe.releases import ts_sdk

    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(ts_sdk, "releases", lambda **_: list(TS_RELEASES))
    monkeypatch.setattr("sdkprobe.releases.probe.TsReleaseProber", scripted({BID: "0.3.276"}, calls))
    monkeypatch.setattr("sdkprobe.releases.probe.ReleaseProber", None)  # no Python release is probed
    return calls


TS_SPELLINGS = pytest.mark.parametrize("ts", [["--sdk", "ts"], ["--axis", "ts"]], ids=["sdk-ts", "old-axis-ts"])


@TS_SPELLINGS
def test_bisect_sdk_ts_finds_the_npm_release_of_a_change(ts, tmp_path, ts_offline, capsys):
    reports = tmp_path / "ts"
    write(ts_report("0.3.270", "differs"), reports)
    assert commands.main(["bisect", BID, *ts, "--reports", str(reports), "--to", "0.3.280"]) == 0
    out = capsys.readouterr().out
    assert "across 11 TypeScript SDK releases, 0.3.270 to 0.3.280:" in out
    assert "changed between 0.3.275 and 0.3.276:" in out
    assert ("0.3.270", "0.3.270") not in [(v, v) for _, v in ts_offline]  # its report's verdict is reused


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--from", "0.3.269"], "--from 0.3.269: no such release of @anthropic-ai/claude-agent-sdk on npm"),
        (["--from", "0.3.279", "--to", "0.3.271"], "--from 0.3.279 comes after --to 0.3.271"),
        (["--no-yanked", "--from", "0.3.270"], "--no-yanked is for Python SDK releases"),
        ([], "no TypeScript report in"),
    ],
)
def test_bad_ts_axis_input_exits_2_with_one_line(argv, message, tmp_path, ts_offline, capsys):
    assert commands.main(["bisect", BID, "--sdk", "ts", "--reports", str(tmp_path / "none"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert ts_offline == []


@TS_SPELLINGS
def test_history_sdk_ts_places_each_change_between_typescript_columns(ts, tmp_path, ts_offline):
    reports = tmp_path / "ts"
    write(ts_report("0.3.270", "differs"), reports)
    write(ts_report("0.3.280", "holds"), reports)
    assert commands.main(["history", *ts, "--reports", str(reports)]) == 0
    hist = load(reports / HISTORY_PATH)
    assert hist is not None and hist.listed == ("0.3.270", "0.3.280")
    found = [(e.step.id, e.before.version, e.after.version) for e in hist.entries if e.step.check is None]
    assert found == [(BID, "0.3.275", "0.3.276")]
    assert {v for _, v in ts_offline} <= set(TS_RELEASES[1:-1])  # only releases between the columns


def test_the_gate_refuses_to_compare_two_sdks(tmp_path, capsys):
    py = tmp_path / "py"
    write(sample.report([result(BID, "holds")], info("0.2.189", "2.1.332")), py)
    write(ts_report("0.3.332", "holds"), tmp_path / "ts")
    argv = ["gate", "--baseline", str(py / "0.2.189.json"), "--candidate", str(tmp_path / "ts" / "0.3.332.json")]
    assert commands.main(argv) == 2
    assert "the baseline is a python SDK report and the candidate a typescript one" in capsys.readouterr().err


def test_sdk_choice_errors_are_one_line(capsys):
    assert commands.main(["capture", "--sdk", "rust@1", "--options", "{}"]) == 2
    assert capsys.readouterr().err == (
        "sdkprobe capture: error: argument --sdk: 'rust@1' names no SDK: give python, python@0.2.189 or ts@0.3.336\n"
    )
    assert commands.main(["run", "--sdk", "ts@0.3.333", "--sdk-version", "0.2.189"]) == 2
    assert capsys.readouterr().err == (
        "sdkprobe run: error: argument --sdk-version: --sdk-version 0.2.189 and --sdk ts@0.3.333 choose "
        "different SDKs; give one\n"
    )


def test_a_release_that_cannot_be_had_is_skipped_with_its_reason(monkeypatch):
    from sdkprobe.releases import ts_sdk
    from sdkprobe.releases.probe import TsReleaseProber

    def unavailable(version: str, progress: object = None) -> object:
        raise ts_sdk.TsReleaseError(f"TS SDK {version}: no build for this platform")

    monkeypatch.setattr(ts_sdk, "install", unavailable)
    outcome = TsReleaseProber(BID, lambda _line: None)("0.3.1")
    assert outcome.skipped == "TS SDK 0.3.1: no build for this platform"


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("SDKPROBE_SLOW") != "1" or shutil.which("node") is None,
    reason="installs two TypeScript SDK releases: set SDKPROBE_SLOW=1",
)
def test_gate_and_bisect_over_two_real_typescript_releases(tmp_path, capsys):
    base = tmp_path / "base"
    assert commands.main(["run", "--sdk", "ts@0.3.332", "--only", BID, "--out", str(base), "-j", "1"]) == 0
    relied = tmp_path / "relied-on.txt"
    relied.write_text(BID + "\n")
    gate = ["gate", "--sdk", "ts@0.3.333", "--baseline", str(base / "0.3.332.json"), "--relied-on", str(relied)]
    assert commands.main([*gate, "-j", "1"]) == 0
    bisect = ["bisect", BID, "--sdk", "ts", "--from", "0.3.332", "--to", "0.3.333", "--fresh", "--reports", str(base)]
    assert commands.main(bisect) == 0  # one verdict at both ends: exit 0 with "same verdict at both ends"
    out = capsys.readouterr().out
    assert "same verdict at both ends: holds on 0.3.332 and holds on 0.3.333" in out
    assert json.loads((base / "0.3.332.json").read_text())["sdk"] == "typescript"
