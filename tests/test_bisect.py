"""The bisection over SDK releases: the search on scripted verdicts (nothing installed, no
network), the release list, the pins any release gets, and the command's bad input.
One slow test installs two real releases into the cache and probes them."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sdkprobe import commands
from sdkprobe.commands import bisect as bisect_command
from sdkprobe.commands import releases as releases_command
from sdkprobe.releases import index as release_index
from sdkprobe.releases.bisect import ReleaseVerdict, bisect, observation_diff, resolver_picks, scan
from sdkprobe.releases.index import INDEX_URL, IndexUnreachable, Release, fetch_index, parse
from sdkprobe.releases.versions import PINS, SDK_VERSIONS, pins, requirements

ROOT = str(Path(__file__).resolve().parents[1])

BID = "results.error-names-real-cause"


def releases_named(n: int) -> list[str]:
    return [f"0.2.{i}" for i in range(100, 100 + n)]


class Scripted:
    """probe(version) from a table of verdicts; a missing verdict is a failed install."""

    def __init__(self, verdicts: dict[str, str | None]) -> None:
        self.verdicts = verdicts
        self.calls: list[str] = []

    def __call__(self, version: str) -> ReleaseVerdict:
        self.calls.append(version)
        v = self.verdicts[version]
        if v is None:
            return ReleaseVerdict(version, skipped="install failed: uv exited 1: boom")
        return ReleaseVerdict(version, verdict=v, note=f"note {v}", checks={"c": v}, observed={"seen": v})


def step(vs: list[str], at: int, before: str = "differs", after: str = "holds") -> dict[str, str | None]:
    return {v: (before if i < at else after) for i, v in enumerate(vs)}


# --- the search ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 108, 130])
def test_one_change_is_found_at_every_position_within_the_log_bound(n):
    vs = releases_named(n)
    bound = 2 + math.ceil(math.log2(n - 1)) if n > 2 else 2
    for at in range(1, n):
        probe = Scripted(step(vs, at))
        answer = bisect(vs, probe)
        assert [(a.version, b.version) for a, b in answer.changes] == [(vs[at - 1], vs[at])]
        assert len(probe.calls) == len(set(probe.calls)) <= bound


@pytest.mark.parametrize("at", [1, 30, 57, 58, 61, 62, 100, 107])
def test_known_outcomes_cost_no_run_and_the_search_splits_at_them_first(at):
    vs = releases_named(108)
    verdicts = step(vs, at)
    known = {vs[i]: Scripted(verdicts)(vs[i]) for i in (0, 57, 62, 107)}  # committed reports
    probe = Scripted(verdicts)
    answer = bisect(vs, probe, known=known)
    assert [(a.version, b.version) for a, b in answer.changes] == [(vs[at - 1], vs[at])]
    assert not set(probe.calls) & set(known)
    gap = 57 if at <= 57 else 5 if at <= 62 else 45  # releases left between the known ones around it
    assert len(probe.calls) <= math.ceil(math.log2(gap))


def test_both_ends_can_be_probed_at_once_with_the_same_answer():
    vs = releases_named(40)
    verdicts = step(vs, 17)
    both = threading.Barrier(2, timeout=10)

    def probe(version: str) -> ReleaseVerdict:
        if version in (vs[0], vs[-1]):
            both.wait()  # breaks (raises) unless the two ends are probed at the same time
        return Scripted(verdicts)(version)

    together = bisect(vs, probe, ends_at_once=True)
    alone = bisect(vs, Scripted(verdicts))
    assert [(a.version, b.version) for a, b in together.changes] == [(vs[16], vs[17])]
    assert [o.version for o in together.probed] == [o.version for o in alone.probed]


def test_no_change_says_both_ends_agree():
    vs = releases_named(20)
    probe = Scripted(dict.fromkeys(vs, "holds"))
    answer = bisect(vs, probe)
    assert answer.agree and not answer.changes
    assert probe.calls == [vs[0], vs[-1]]


def test_a_change_and_a_change_back_bisect_sees_agreement_scan_sees_both():
    vs = releases_named(30)
    verdicts: dict[str, str | None] = {v: "differs" if 10 <= i < 17 else "holds" for i, v in enumerate(vs)}
    answer = bisect(vs, Scripted(verdicts))
    assert answer.agree
    lines = bisect_command.render(answer, BID, None, [(v, False) for v in vs], scanned=False)
    assert any("a change and a change back" in line for line in lines)
    full = scan(vs, Scripted(verdicts))
    assert [(a.version, b.version) for a, b in full.changes] == [(vs[9], vs[10]), (vs[16], vs[17])]


def test_a_failing_install_in_the_middle_is_skipped_and_the_search_goes_on():
    vs = releases_named(40)
    verdicts = step(vs, 29)
    for i in (19, 20, 21):  # where the first midpoints would land
        verdicts[vs[i]] = None
    probe = Scripted(verdicts)
    answer = bisect(vs, probe)
    assert [(a.version, b.version) for a, b in answer.changes] == [(vs[28], vs[29])]
    assert {o.version for o in answer.skipped} >= {vs[19]}
    assert all(o.skipped == "install failed: uv exited 1: boom" for o in answer.skipped)


def test_a_skipped_release_on_the_boundary_is_named_as_where_the_change_may_lie():
    vs = releases_named(10)
    verdicts = step(vs, 5)
    verdicts[vs[5]] = None
    answer = bisect(vs, Scripted(verdicts))
    assert [(a.version, b.version) for a, b in answer.changes] == [(vs[4], vs[6])]
    text = "\n".join(bisect_command.render(answer, BID, None, [(v, False) for v in vs], False))
    assert f"may lie at any of {vs[5]}" in text


def test_ends_that_fail_to_install_move_inwards():
    vs = releases_named(12)
    verdicts = step(vs, 6)
    verdicts[vs[0]] = verdicts[vs[-1]] = None
    answer = bisect(vs, Scripted(verdicts))
    assert answer.first is not None and answer.first.version == vs[1]
    assert answer.last is not None and answer.last.version == vs[-2]
    assert [(a.version, b.version) for a, b in answer.changes] == [(vs[5], vs[6])]


def test_no_release_giving_a_verdict_is_no_answer():
    vs = releases_named(3)
    answer = bisect(vs, Scripted(dict.fromkeys(vs)))
    assert answer.first is None and not answer.changes and not answer.agree


def test_check_follows_one_sub_check_not_the_verdict():
    vs = releases_named(8)

    def probe(v: str) -> ReleaseVerdict:
        moved = vs.index(v) >= 3
        return ReleaseVerdict(v, verdict="differs", checks={"a": "differs", "b": "holds" if moved else "differs"})

    assert not bisect(vs, probe).changes
    assert [(a.version, b.version) for a, b in bisect(vs, probe, check="b").changes] == [(vs[2], vs[3])]


def test_observation_diff_names_the_leaves_that_moved():
    before = {"raised": {"x": "Exception", "y": "Exception"}, "same": 1}
    after = {"raised": {"x": "ProcessError", "y": "Exception"}, "same": 1, "new": [1]}
    assert observation_diff(before, after) == [
        "new[0]: (absent) -> 1",
        'raised.x: "Exception" -> "ProcessError"',
    ]
    assert observation_diff(None, None) == []


# --- yanked releases -----------------------------------------------------------------


def test_a_change_on_a_yanked_release_names_the_first_one_a_resolver_picks():
    flags = [("0.1.52", False), ("0.1.53", True), ("0.1.54", True), ("0.1.55", False)]
    assert resolver_picks("0.1.53", flags) == "0.1.55"
    assert resolver_picks("0.1.55", flags) == "0.1.55"
    assert resolver_picks("0.1.54", flags[:3]) is None
    index = [Release(v, y, True) for v, y in flags]
    vs = [v for v, _ in flags]
    answer = bisect(vs, Scripted(step(vs, 1)))
    text = "\n".join(bisect_command.render(answer, BID, None, [(r.version, r.yanked) for r in index], False))
    assert "0.1.53 (yanked)" in text
    assert "the first release a resolver picks from there is 0.1.55" in text


def test_no_yanked_leaves_them_out_and_refuses_a_yanked_end():
    index = [Release("0.1.7", False, False), *(Release(v, y, True) for v, y in [("0.1.8", True), ("0.1.19", False)])]
    chosen, notes = release_index.select_range(index, None, None, no_yanked=True)
    assert [r.version for r in chosen] == ["0.1.19"]
    assert any("bundles no CLI" in n for n in notes) and any("yanked" in n for n in notes)
    chosen, _ = release_index.select_range(index, None, None, no_yanked=False)
    assert [r.version for r in chosen] == ["0.1.8", "0.1.19"]
    with pytest.raises(release_index.BadRange, match="yanked"):
        release_index.select_range(index, "0.1.8", None, no_yanked=True)


def test_the_index_page_gives_yanked_flags_and_which_wheels_bundle_a_cli():
    def whl(v: str, tag: str, yanked: bool | str = False) -> dict[str, object]:
        return {"filename": f"claude_agent_sdk-{v}-py3-none-{tag}.whl", "yanked": yanked}

    page = {
        "versions": ["0.1.7", "0.1.10", "0.1.9"],
        "files": [
            whl("0.1.7", "any"),
            {"filename": "claude_agent_sdk-0.1.7.tar.gz", "yanked": False},
            whl("0.1.9", "manylinux_2_17_x86_64", "deleted soon"),
            whl("0.1.9", "win_amd64", "deleted soon"),
            whl("0.1.10", "manylinux_2_17_x86_64"),
            whl("0.1.10", "macosx_11_0_arm64"),
        ],
    }
    assert parse(page, machine="x86_64") == [
        Release("0.1.7", yanked=False, bundles_cli=False),
        Release("0.1.9", yanked=True, bundles_cli=True),
        Release("0.1.10", yanked=False, bundles_cli=True),
    ]
    assert [r.bundles_cli for r in parse(page, machine="aarch64")] == [False, False, False]


def test_an_unreachable_index_is_one_line():
    with pytest.raises(IndexUnreachable) as caught:
        fetch_index("http://127.0.0.1:9/simple/", timeout=5)
    assert "\n" not in str(caught.value) and "JSON simple API" in str(caught.value)
    assert INDEX_URL.startswith("https://")


# --- the pins every release gets -----------------------------------------------------


def test_pin_rule_covers_any_release_and_keeps_the_listed_pins():
    assert pins("0.1.8") == pins("0.1.45") == pins("0.2.99") == ["mcp<2"]
    assert pins("0.2.100") == pins("0.2.140") == pins("0.2.189") == []
    assert requirements("0.1.45") == ["claude-agent-sdk==0.1.45", "mcp<2"]
    assert requirements("0.2.150") == ["claude-agent-sdk==0.2.150"]
    assert PINS == {v: ["mcp<2"] for v in SDK_VERSIONS if v.startswith("0.1.") or v == "0.2.82"}


# --- the command ---------------------------------------------------------------------

INDEX = [Release(v, v in ("0.2.83", "0.2.84"), True) for v in ("0.2.82", "0.2.83", "0.2.84", "0.2.85", "0.2.86")]


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """The command with a fixed index and a scripted prober: no network, no installs, and
    no reports/ folder in the working directory to reuse."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bisect_command, "releases", lambda: INDEX)
    monkeypatch.setattr(releases_command, "releases", lambda: INDEX)
    calls: list[str] = []
    monkeypatch.setattr(
        "sdkprobe.releases.probe.ReleaseProber", fake_prober(step([r.version for r in INDEX], 2), calls)
    )
    return calls


def fake_prober(verdicts: dict[str, str | None], calls: list[str]) -> type:
    """A stand-in for the release probers: scripted verdicts, each release probed logged in `calls`."""

    class FakeProber:
        def __init__(self, *_args: object) -> None:
            self.runs = 0

        def __call__(self, version: str) -> ReleaseVerdict:
            calls.append(version)
            self.runs += 1
            return Scripted(verdicts)(version)

    return FakeProber


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no.such-id"], "no behaviour with id no.such-id"),
        ([BID, "--from", "0.2.81"], "--from 0.2.81: no such release"),
        ([BID, "--to", "9.9.9"], "--to 9.9.9: no such release"),
        ([BID, "--from", "0.2.85", "--to", "0.2.83"], "--from 0.2.85 comes after --to 0.2.83"),
        ([BID, "--check", "nope"], "has no sub-check nope"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, message, offline, capsys):
    assert commands.main(["bisect", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert offline == []


def test_an_unreachable_index_exits_2_with_one_line(monkeypatch, capsys):
    def down() -> list[Release]:
        raise IndexUnreachable("cannot read the release list from X (JSON simple API): refused")

    monkeypatch.setattr(bisect_command, "releases", down)
    assert commands.main(["bisect", BID]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "sdkprobe bisect: error: cannot read the release list from X (JSON simple API): refused"
    )


def test_the_command_prints_the_pair_both_verdicts_and_what_moved(offline, capsys):
    assert commands.main(["bisect", BID, "--from", "0.2.82", "--to", "0.2.86"]) == 0
    out = capsys.readouterr().out
    assert "changed between 0.2.83 and 0.2.84:" in out
    assert "0.2.83 (yanked): differs - note differs" in out and "0.2.84 (yanked): holds - note holds" in out
    assert 'seen: "differs" -> "holds"' in out
    assert "the first release a resolver picks from there is 0.2.85" in out


def test_the_command_without_yanked_releases(offline, capsys):
    assert commands.main(["bisect", BID, "--no-yanked"]) == 0
    assert "changed between 0.2.82 and 0.2.85:" in capsys.readouterr().out
    assert "0.2.83" not in offline and "0.2.84" not in offline


def test_the_command_reuses_committed_reports_unless_fresh(offline, tmp_path, capsys):
    import sample_reports as sample
    from sample_reports import info, result

    from sdkprobe.report import write

    folder = tmp_path / "committed"
    for version, verdict in (("0.2.82", "differs"), ("0.2.86", "holds")):
        write(sample.report([result(BID, verdict)], info(version, "2.1.0")), folder)
    assert commands.main(["bisect", BID, "--reports", str(folder)]) == 0
    captured = capsys.readouterr()
    assert "changed between 0.2.83 and 0.2.84:" in captured.out
    assert "0.2.82" not in offline and "0.2.86" not in offline
    assert "reusing the verdicts of 2 releases from their reports" in captured.err
    assert "and 2 verdicts from reports over 5 releases" in captured.err
    offline.clear()
    assert commands.main(["bisect", BID, "--reports", str(folder), "--fresh"]) == 0
    assert "0.2.82" in offline and "0.2.86" in offline


def test_an_old_id_bisects_the_renamed_behaviour_reusing_reports_that_name_either(
    offline, tmp_path, capsys, monkeypatch
):
    """`bisect OLD-ID` follows the behaviour now called otherwise, and a committed report from
    before the rename still spares its release a probe."""
    import sample_reports as sample
    from sample_reports import info, result

    from sdkprobe import catalogue
    from sdkprobe.report import write

    old, new = "wire.empty-lists-and-zero-send-no-flag", "wire.empty-and-zero-values-reach-cli"
    monkeypatch.setattr(catalogue, "_TOLD", set())
    folder = tmp_path / "committed"
    write(sample.report([result(old, "differs")], info("0.2.82", "2.1.0")), folder)
    write(sample.report([result(new, "holds")], info("0.2.86", "2.1.0")), folder)
    assert commands.main(["bisect", old, "--reports", str(folder)]) == 0
    captured = capsys.readouterr()
    assert f"{old} was renamed {new}" in captured.err
    assert "reusing the verdicts of 2 releases from their reports" in captured.err
    assert "0.2.82" not in offline and "0.2.86" not in offline


def test_a_malformed_report_to_reuse_is_one_line(offline, tmp_path, capsys):
    folder = tmp_path / "committed"
    folder.mkdir()
    (folder / "0.2.82.json").write_text("{not json")
    assert commands.main(["bisect", BID, "--reports", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert "0.2.82.json" in err and err.endswith("(--fresh reuses no report)") and "\n" not in err
    assert offline == []


def test_releases_lists_what_bisect_would_probe(offline, capsys):
    assert commands.main(["releases", "--from", "0.2.83", "--json"]) == 0
    assert capsys.readouterr().out.strip() == '["0.2.83", "0.2.84", "0.2.85", "0.2.86"]'
    assert commands.main(["releases", "--no-yanked"]) == 0
    assert capsys.readouterr().out.split() == ["0.2.82", "0.2.85", "0.2.86"]
    assert commands.main(["releases", "--to", "0.2.99"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "sdkprobe releases: error: --to 0.2.99: no such release of claude-agent-sdk on the index"
    )


def test_sdkprobe_neither_checked_out_nor_installed_says_so_before_installing(tmp_path, monkeypatch):
    from importlib.metadata import PackageNotFoundError

    from sdkprobe.releases import itself
    from sdkprobe.releases.envcache import EnvCache

    def not_installed(name):
        raise PackageNotFoundError(name)

    monkeypatch.setattr(itself, "_CHECKOUT", tmp_path / "site-packages")
    monkeypatch.setattr(itself, "distribution", not_installed)
    cache = EnvCache(root=tmp_path / "envs", uv="/bin/false")
    with pytest.raises(itself.NotInstalled, match=r"neither a checkout nor an installed package"):
        cache.ensure("0.2.150")
    assert not (tmp_path / "envs" / "0.2.150").exists()


def test_a_plain_install_is_packed_again_into_a_wheel_of_the_same_files(tmp_path, checkout_build):
    """From no checkout, a release's environment gets this sdkprobe's own files as a wheel:
    every package file the distribution installed, its metadata, a RECORD whose hashes match."""
    import base64
    import hashlib
    import zipfile
    from importlib.metadata import PathDistribution

    from sdkprobe.releases.itself import repack

    site = tmp_path / "site"  # a plain (non-editable) install of this checkout, as pip makes one
    with checkout_build():
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--target",
                str(site),
                ROOT,
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert done.returncode == 0, done.stderr
    dist = PathDistribution(next(site.glob("sdkprobe-*.dist-info")))
    wheel = repack(dist, tmp_path / "cache")
    names = zipfile.ZipFile(wheel).namelist()
    assert wheel.name == f"sdkprobe-{dist.version}-py3-none-any.whl"
    assert any(n.endswith(".dist-info/METADATA") for n in names) and any(n.endswith(".dist-info/WHEEL") for n in names)
    assert not any(n.endswith(("INSTALLER", "direct_url.json")) or "__pycache__" in n for n in names)
    z = zipfile.ZipFile(wheel)
    record = z.read(next(n for n in names if n.endswith("RECORD"))).decode().splitlines()
    for line in record:
        name, digest, _ = line.rsplit(",", 2)
        if digest:
            data = z.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert "sdkprobe/commands/__init__.py" in names and "sdkprobe/fake_cli/__main__.py" in names
    assert "sdkprobe/baselines/0.2.181.json" in names
    assert repack(dist, tmp_path / "cache") == wheel  # the same files, the same wheel: built once


# --- the CLI axis --------------------------------------------------------------------

CLI_BID = "agents.subagent-tools-within-session-tools"  # a cli-tier behaviour
CLI_RELEASES = ["2.1.200", "2.1.201", "2.1.202", "2.1.203", "2.1.204", "2.1.205"]


@pytest.fixture
def cli_offline(monkeypatch):
    """--axis cli with a fixed npm release list and a scripted prober: no npm, no installs."""
    from sdkprobe.harness import sdk
    from sdkprobe.releases import claude_code

    monkeypatch.setattr(claude_code, "release_list", lambda: CLI_RELEASES)
    monkeypatch.setattr(sdk, "bundled_cli_version", lambda: "2.1.201")
    calls: list[str] = []
    verdicts = step(CLI_RELEASES, 4, before="holds", after="differs")
    monkeypatch.setattr("sdkprobe.releases.probe.CliReleaseProber", fake_prober(verdicts, calls))
    return calls


def test_the_cli_axis_bisects_cli_releases_from_the_bundled_one(cli_offline, capsys):
    assert commands.main(["bisect", "--axis", "cli", CLI_BID]) == 0
    out = capsys.readouterr().out
    assert "across 5 CLI releases (with the installed SDK), 2.1.201 to 2.1.205:" in out
    assert "changed between 2.1.203 and 2.1.204:" in out and "(yanked)" not in out
    assert "2.1.200" not in cli_offline  # before the bundled CLI, the default start


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([BID], f"{BID} is a wire-tier behaviour: it runs no real CLI"),
        ([CLI_BID, "--from", "2.1.199"], "--from 2.1.199: no such release of the CLI on npm"),
        ([CLI_BID, "--to", "latest"], "CLI version 'latest' is not a release number"),
        ([CLI_BID, "--from", "2.1.204", "--to", "2.1.202"], "--from 2.1.204 comes after --to 2.1.202"),
        ([CLI_BID, "--no-yanked"], "--no-yanked is for SDK releases"),
        ([CLI_BID, "--fresh"], "--reports and --fresh are for SDK releases"),
    ],
)
def test_bad_cli_axis_input_exits_2_with_one_line(argv, message, cli_offline, capsys):
    assert commands.main(["bisect", "--axis", "cli", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert cli_offline == []


def test_a_cli_release_that_cannot_be_had_is_skipped_with_its_reason(monkeypatch):
    from sdkprobe.releases import claude_code
    from sdkprobe.releases.probe import CliReleaseProber

    def no_build(version: str, progress: object = None) -> object:
        raise claude_code.CliReleaseError(f"CLI version {version} has no build for linux-x64 (it has darwin-arm64)")

    monkeypatch.setattr(claude_code, "install_cli", no_build)
    said: list[str] = []
    prober = CliReleaseProber(CLI_BID, said.append)
    outcome = prober("2.1.203")
    assert outcome.skipped == "CLI version 2.1.203 has no build for linux-x64 (it has darwin-arm64)"
    assert prober.runs == 0 and said == [f"2.1.203: skipped, {outcome.skipped}"]


# --- real releases -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("SDKPROBE_SLOW") != "1", reason="installs two SDK releases: set SDKPROBE_SLOW=1")
def test_two_real_releases_from_the_cache_show_the_change():
    """0.2.139 raises a bare Exception for an error result, 0.2.140 a ProcessError naming the cause."""
    from sdkprobe.releases.envcache import EnvCache
    from sdkprobe.releases.probe import ReleaseProber

    prober = ReleaseProber(BID, EnvCache(), lambda _: None)
    answer = bisect(["0.2.139", "0.2.140"], prober)
    assert [(a.version, a.verdict, b.version, b.verdict) for a, b in answer.changes] == [
        ("0.2.139", "differs", "0.2.140", "holds")
    ]
    assert prober.runs == 2


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("SDKPROBE_SLOW") != "1", reason="installs two CLI releases: set SDKPROBE_SLOW=1")
def test_two_real_cli_releases_under_the_installed_sdk_show_the_change():
    """Under SDK 0.2.189, CLI 2.1.301 still lets auto mode's classifier grade the Agent call
    (blocked: the double gives it no grade), 2.1.302 refuses the zero-tool agent itself."""
    from sdkprobe.releases.probe import CliReleaseProber

    prober = CliReleaseProber(CLI_BID, lambda _: None)
    answer = bisect(["2.1.301", "2.1.302"], prober)
    assert [(a.version, a.verdict, b.version, b.verdict) for a, b in answer.changes] == [
        ("2.1.301", "differs", "2.1.302", "holds")
    ]
    assert prober.runs == 2
