"""`--sdk`, the one spelling for the SDK under test and its release: every command that
chooses an SDK takes it, the old spellings still work and say so in --help, and bad input
is one line and exit 2 before anything runs."""

from __future__ import annotations

import argparse

import pytest

from sdkprobe.commands import build_parser, main, sdk_flag
from sdkprobe.commands.sdk_flag import SdkChoice

RELEASE = ("run", "capture", "surface", "gate")  # run one release: python, python@V, ts@V
ALONE = ("releases", "bisect", "history", "update")  # list or walk releases: python, ts
BEFORE_ID = {"bisect": ["wire.tools-option-to-flag"], "gate": ["--baseline", "0.2.189"]}


def parsed(command: str, *words: str) -> argparse.Namespace:
    return build_parser().parse_args([command, *BEFORE_ID.get(command, []), *words])


@pytest.mark.parametrize("command", RELEASE)
@pytest.mark.parametrize(
    ("given", "chosen"),
    [
        ("python", SdkChoice("python")),
        ("python@0.2.189", SdkChoice("python", "0.2.189")),
        ("ts@0.3.336", SdkChoice("ts", "0.3.336")),
        ("py@0.2.189", SdkChoice("python", "0.2.189")),  # as under_test.parse read them before
        ("typescript@0.3.336", SdkChoice("ts", "0.3.336")),
    ],
)
def test_a_command_running_one_release_takes_the_sdk_with_its_release(command, given, chosen):
    assert parsed(command, "--sdk", given).sdk == chosen
    assert parsed(command, f"--sdk={given}").sdk == chosen
    assert parsed(command).sdk is None  # the installed Python SDK, or SDKPROBE_SDK's choice


@pytest.mark.parametrize("command", ALONE)
def test_a_command_walking_releases_takes_the_sdk_alone(command):
    assert str(parsed(command, "--sdk", "python").sdk) == "python"  # an SdkChoice, or update's own word
    assert str(parsed(command, "--sdk", "ts").sdk) == "ts"


def test_the_old_spellings_choose_the_same():
    assert parsed("run", "--sdk-version", "0.2.150").sdk == parsed("run", "--sdk", "python@0.2.150").sdk
    for command in ("bisect", "history"):
        old, new = parsed(command, "--axis", "ts"), parsed(command, "--sdk", "ts")
        assert sdk_flag.axis(old) == sdk_flag.axis(new) == "ts" and old.axis == new.axis == "sdk"
        assert sdk_flag.axis(parsed(command)) == "sdk" and sdk_flag.axis(parsed(command, "--axis", "cli")) == "cli"
    # the same choice spelt twice is one choice
    assert parsed("run", "--sdk", "python@0.2.150", "--sdk-version", "0.2.150").sdk == SdkChoice("python", "0.2.150")
    assert parsed("bisect", "--sdk", "ts", "--axis", "ts").sdk == SdkChoice("ts")


@pytest.mark.parametrize(
    ("command", "flag", "says"),
    [
        ("run", "--sdk-version V", "(old spelling of --sdk python@V)"),
        ("bisect", "--axis {sdk,cli,ts}", "(ts: old spelling of --sdk ts)"),
        ("history", "--axis {sdk,cli,ts}", "(ts: old spelling of --sdk ts)"),
    ],
)
def test_an_old_spelling_says_so_in_help(command, flag, says, capsys):
    assert main([command, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"{flag} " in out and says in out


@pytest.mark.parametrize("command", RELEASE + ALONE)
def test_every_command_choosing_an_sdk_shows_the_flag_in_help(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert ("--sdk SDK[@V]" if command in RELEASE else "--sdk SDK") in out


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["run", "--sdk", "ruby@1"], "--sdk: 'ruby@1' names no SDK: give python, python@0.2.189 or ts@0.3.336"),
        (["capture", "--sdk", "python@notaversion"], "argument --sdk: 'notaversion' is not a release number"),
        (["surface", "--sdk", "ts@latest"], "argument --sdk: 'latest' is not a release number (e.g. 0.3.336)"),
        (["gate", "--baseline", "0.2.189", "--sdk", "ts"], "argument --sdk: ts names no release: give ts@VERSION"),
        (["run", "--sdk", "python@"], "argument --sdk: '' is not a release number (e.g. 0.2.189)"),
        (
            ["run", "--sdk", "python@0.2.189", "--sdk-version", "0.2.188"],
            "argument --sdk-version: --sdk-version 0.2.188 and --sdk python@0.2.189 choose different SDKs; give one",
        ),
        (
            ["run", "--sdk-version", "0.2.188", "--sdk", "ts@0.3.336"],
            "argument --sdk: --sdk ts@0.3.336 and --sdk-version 0.2.188 choose different SDKs; give one",
        ),
        (["run", "--sdk-version", "ts@0.3.336"], "argument --sdk-version: 'ts@0.3.336' is not a release number"),
        (["releases", "--sdk", "ts@0.3.336"], "argument --sdk: 'ts@0.3.336' names a release; this command takes the"),
        (["bisect", "wire.x", "--sdk", "python@0.2.189"], "'python@0.2.189' names a release"),
        (["history", "--sdk", "rust"], "argument --sdk: 'rust' names no SDK: give python or ts"),
        (["update", "--sdk", "rust"], "argument --sdk: 'rust' names no SDK: give python, ts or all"),
        (["update", "--sdk", "ts@0.3.336"], "'ts@0.3.336' names a release; this command takes the SDK alone"),
        (
            ["bisect", "wire.x", "--axis", "ts", "--sdk", "python"],
            "argument --sdk: --sdk python and --axis ts choose different SDKs; give one",
        ),
        (["history", "--sdk", "ts", "--axis", "cli"], "--axis cli holds the installed Python SDK fixed"),
        (["bisect", "wire.tools-option-to-flag", "--axis", "cli", "--sdk", "ts"], "takes no --sdk ts"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_before_anything_runs(argv, line, monkeypatch, capsys):
    def nothing_runs(*_args, **_kwargs):
        raise AssertionError("ran before refusing")

    monkeypatch.setattr(sdk_flag, "in_release", nothing_runs)
    monkeypatch.setattr("sdkprobe.commands.shared.install_typescript", nothing_runs)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"sdkprobe {argv[0]}: error: ") and line in err


# --- python@V: the command, as given, by that release's own sdkprobe ----------------------


@pytest.fixture
def release_env(monkeypatch, tmp_path):
    """Release 0.2.150's environment, its `sdkprobe` a script writing down how it was called
    (and exiting 3); the index knows 0.2.150 only."""
    from sdkprobe.releases import envcache
    from sdkprobe.releases import index as releases

    env = envcache.Env("0.2.150", tmp_path / "env")
    env.bin.mkdir(parents=True)
    said = tmp_path / "said"
    env.sdkprobe.write_text(f'#!/bin/sh\necho "$VIRTUAL_ENV" "${{SDKPROBE_SDK:-python}}" "$@" > {said}\nexit 3\n')
    env.sdkprobe.chmod(0o755)
    monkeypatch.setattr(releases, "releases", lambda: [releases.Release("0.2.150", True, True)])
    monkeypatch.setattr(envcache.EnvCache, "ensure", lambda self, version, progress: env)
    return env, said


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--only", "a.b", "--sdk", "python@0.2.150", "--out", "OUT", "-j", "2", "--replace"],
        ["run", "--only", "a.b", "--sdk=python@0.2.150", "--out", "OUT", "-j", "2", "--replace"],
        ["run", "--only", "a.b", "--sdk-version", "0.2.150", "--out", "OUT", "-j", "2", "--replace"],  # old spelling
        ["capture", "--options", '{"tools":[]}', "--sdk", "python@0.2.150", "--json"],
        ["surface", "--sdk", "python@0.2.150", "--uncovered"],
        ["gate", "--baseline", "0.2.140", "--sdk", "python@0.2.150", "--relied-on", "ids.txt"],
    ],
)
def test_python_at_a_release_hands_the_command_to_that_releases_sdkprobe(argv, release_env, tmp_path, monkeypatch):
    """The release's environment runs the same command with the arguments as given, less the
    SDK flag (forwarded, not rebuilt: a new flag cannot be dropped), on its own Python SDK
    whatever SDKPROBE_SDK says here; its exit status is the command's."""
    env, said = release_env
    monkeypatch.setenv("SDKPROBE_SDK", "ts@0.3.336")
    argv = [str(tmp_path / "out") if word == "OUT" else word for word in argv]
    assert main(argv) == 3
    sdk = {"--sdk", "--sdk-version", "python@0.2.150", "0.2.150", "--sdk=python@0.2.150"}
    assert said.read_text().split() == [str(env.path), "python", *[w for w in argv if w not in sdk]]


@pytest.mark.parametrize("argv", [["run", "--sdk", "python@0.2.999"], ["run", "--sdk-version", "0.2.999"]])
def test_a_python_release_not_on_the_index_is_one_line_and_exit_2(argv, release_env, tmp_path, capsys):
    assert main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == "sdkprobe run: error: --sdk python@0.2.999: no such release of claude-agent-sdk on the index\n"


def test_without_sdk_keeps_every_other_word():
    argv = ["capture", "--options", "{}", "--sdk", "python@1.0", "--sdk-version=1.0", "--prompt", "capture"]
    assert sdk_flag.without_sdk(argv, "capture") == ["--options", "{}", "--prompt", "capture"]


def test_update_records_each_release_in_the_one_spelling():
    """`sdkprobe update` runs `sdkprobe run --sdk python@V` / `--sdk ts@V` for a new release."""
    from sdkprobe.releases.tracked import TRACKED

    for key, tracked in TRACKED.items():
        args = build_parser().parse_args(tracked.run_args("0.9.1", 2))
        assert args.command == "run" and args.sdk == SdkChoice(key, "0.9.1") and str(args.out) == str(tracked.reports)


OLD_SPELLINGS = ("--sdk-version", "--axis ts", "--axis=ts")


def test_help_and_docs_name_an_old_spelling_only_as_one(capsys):
    """--help of every command, the README and docs/ spell the SDK one way; an old spelling
    appears only where it is said to be one."""
    from pathlib import Path

    from sdkprobe.commands import SUBCOMMANDS

    texts = {}
    for module in SUBCOMMANDS:
        command = module.rstrip("_")
        assert main([command, "--help"]) == 0
        texts[f"sdkprobe {command} --help"] = capsys.readouterr().out.split("\n\n", 1)[1]  # past the usage
    root = Path(__file__).resolve().parent.parent
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        texts[path.name] = path.read_text()
    for name, text in texts.items():
        for sentence in " ".join(text.split()).replace("|", ".").split(". "):
            if any(old in sentence for old in OLD_SPELLINGS):
                assert "old spelling" in sentence, f"{name}: {sentence}"
