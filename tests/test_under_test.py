"""The seam for the SDK under test: chosen once, an option checked in one place with one
error whichever SDK it is, and no other part of sdkprobe asking which SDK runs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import claude_agent_sdk
import pytest
from ts_fake_release import FakeRelease

from sdkprobe.harness import under_test
from sdkprobe.harness.python_sdk import PythonSdk
from sdkprobe.harness.typescript.sdk_under_test import TypeScriptSdk
from sdkprobe.harness.under_test import OptionMissing, SdkChoiceError
from sdkprobe.requirements import Target, parse

PROBES = Path(__file__).resolve().parent.parent / "probes"
# The seam and the SDKs behind it; the commands, which choose the SDK and file its reports;
# the releases, which install TypeScript ones.
SEAM = ("harness/under_test.py", "harness/python_sdk.py", "harness/typescript/", "commands/", "releases/")
# Asking which SDK runs, or reaching a TypeScript part past the seam.
BRANCHING = re.compile(
    r"is_typescript\(|\.typescript\(\)|TsOptions|TypeScriptSdk|PythonSdk|harness\.typescript|harness import typescript"
    r"|under_test\.(?:PYTHON|TYPESCRIPT|spelling|parse|VARIABLE)|SDKPROBE_SDK"
)


@dataclass(frozen=True)
class Declaring(FakeRelease):
    """A TypeScript release whose Options declare three keys."""

    def options(self) -> tuple[str, ...]:
        return ("tools", "cwd", "pathToClaudeCodeExecutable")


SDKS = [PythonSdk(claude_agent_sdk), TypeScriptSdk(Declaring())]


def branching(text: str) -> list[str]:
    """The lines of a module that ask which SDK runs."""
    return [line.strip() for line in text.splitlines() if BRANCHING.search(line)]


def test_sdkprobe_branches_on_the_sdk_only_behind_the_seam() -> None:
    found = {}
    for path in sorted(PROBES.rglob("*.py")):
        rel = path.relative_to(PROBES).as_posix()
        if rel.startswith(SEAM):
            continue
        lines = branching(path.read_text(encoding="utf-8"))
        if lines:
            found[rel] = lines
    assert found == {}, "ask under_test.current() instead of branching on the SDK"


def test_the_scan_notices_a_branch_on_the_sdk() -> None:
    assert branching("if under_test.typescript() is None:\n    pass") == ["if under_test.typescript() is None:"]
    assert branching("if isinstance(options, TsOptions):") and branching("if under_test.is_typescript():")
    assert branching("from sdkprobe.harness.typescript.run import run_ts")
    assert branching("ts = under.version  # TypeScriptSdk") and not branching("under = under_test.current()")


def test_the_choice_is_made_once_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(under_test.VARIABLE, "python")
    assert isinstance(under_test.current(), PythonSdk) and under_test.current() is under_test.current()
    monkeypatch.setenv(under_test.VARIABLE, "ts@0.0.0-never-installed")
    with pytest.raises(SdkChoiceError, match="not installed"):
        under_test.current()


@pytest.mark.parametrize(
    "sdk, lacking",
    list(zip(SDKS, [("zz_unknown",), ("debug_stderr", "zz_unknown")], strict=True)),
    ids=["python", "typescript"],
)
def test_an_option_is_checked_in_one_place_with_one_error(sdk: under_test.SdkUnderTest, lacking: tuple[str]) -> None:
    assert sdk.missing_options(["tools", "cwd"]) is None and sdk.lacking_options(["tools"]) == []
    with pytest.raises(OptionMissing) as made:
        sdk.make_options(tools=["Read"], debug_stderr=None, zz_unknown=1)
    assert made.value.names == lacking
    assert str(made.value) == sdk.missing_options(["zz_unknown", "tools", "debug_stderr"])
    # a declared requirement says what the error says
    assert parse("option:zz_unknown").unmet(Target(sdk, None)) == sdk.missing_options(["zz_unknown"])
    assert parse("option:tools").unmet(Target(sdk, None)) is None
    assert "tools" in sdk.option_fields() and "zz_unknown" not in sdk.option_fields()


def test_each_sdk_names_itself_and_says_whether_env_is_the_whole_environment() -> None:
    python, typescript = SDKS
    assert (python.name, python.version) == ("claude-agent-sdk", claude_agent_sdk.__version__)
    assert (typescript.name, typescript.version) == ("@anthropic-ai/claude-agent-sdk", "0.0.0-fake")
    assert typescript.env_is_whole and not python.env_is_whole
    assert python.host_process_gap() is None and "TypeScript" in str(typescript.host_process_gap())


def test_a_callback_as_given_is_not_applicable_on_the_python_sdk() -> None:
    """It asks for the SDK's JSON; the Python SDK hands its callbacks its own objects."""
    from sdkprobe.behaviour import NotApplicable
    from sdkprobe.harness import AsGiven

    with pytest.raises(NotApplicable, match="can_use_tool given as AsGiven"):
        PythonSdk(claude_agent_sdk).build_options({"can_use_tool": AsGiven(print)})


def test_an_sdks_own_class_is_its_own_and_none_where_it_has_none() -> None:
    """A probe asks the SDK under test for a class (what an exception is an instance of), so a
    TypeScript run never tests against the Python SDK installed beside it."""
    python = PythonSdk(claude_agent_sdk)
    assert python.own_class("ProcessError") is claude_agent_sdk.ProcessError
    assert python.own_class("AgentDefinition") is claude_agent_sdk.AgentDefinition
    assert python.own_class("query") is None  # a function, not a class
    assert python.own_class("NoSuchClass") is None
    assert TypeScriptSdk(FakeRelease()).own_class("ProcessError") is None
