"""Declared requirements are parsed strictly and each notices what the SDK under test lacks."""

import dataclasses
from types import SimpleNamespace

import pytest

from sdkprobe.harness.python_sdk import PythonSdk
from sdkprobe.requirements import Target, parse


@dataclasses.dataclass
class Options:
    tools: list | None = None


@dataclasses.dataclass
class AgentDefinition:
    description: str = ""


class Client:
    def interrupt(self) -> None: ...


SDK = SimpleNamespace(ClaudeAgentOptions=Options, AgentDefinition=AgentDefinition, ClaudeSDKClient=Client)


def unmet(text, cli="2.1.100"):
    return parse(text).unmet(Target(PythonSdk(SDK, "9.9.9"), cli))


@pytest.mark.parametrize(
    "text, lacking",
    [
        ("option:tools", None),
        ("option:skills", "ClaudeAgentOptions in claude-agent-sdk 9.9.9 has no field 'skills'"),
        # an option only the TypeScript SDK has, by its TypeScript name: the Python SDK lacks it
        ("option:debugFile", "ClaudeAgentOptions in claude-agent-sdk 9.9.9 has no field 'debugFile'"),
        ("field:AgentDefinition.description", None),
        ("field:AgentDefinition.skills", "AgentDefinition in claude-agent-sdk 9.9.9 has no field 'skills'"),
        ("field:NoSuchClass.x", "NoSuchClass in claude-agent-sdk 9.9.9 has no field 'x'"),
        ("api:ClaudeSDKClient.interrupt", None),
        ("api:ClaudeSDKClient.get_mcp_status", "claude-agent-sdk 9.9.9 has no ClaudeSDKClient.get_mcp_status"),
        ("package:json", None),
        ("package:no_such_package_xyz", "the Python package 'no_such_package_xyz' is not installed"),
        ("cli>=2.1.100", None),
        ("cli>=2.1.99", None),
        ("cli>=2.1.101", "the CLI is 2.1.100, older than 2.1.101"),
        ("cli>=2.2", "the CLI is 2.1.100, older than 2.2"),
    ],
)
def test_each_kind_notices_what_is_missing(text, lacking):
    assert unmet(text) == lacking


def test_an_unknown_cli_version_does_not_count_as_new_enough():
    assert "unknown" in unmet("cli>=1.0", cli=None)


@pytest.mark.parametrize("text", ["option:", "opt:tools", "cli>2.1", "cli>=x", "api:", "field:NoDot", "tools"])
def test_malformed_requirements_are_refused(text):
    with pytest.raises(ValueError, match="not one of"):
        parse(text)


def test_a_requirement_prints_as_declared():
    for text in ("option:tools", "field:AgentDefinition.skills", "api:query", "package:mcp", "cli>=2.1.50"):
        assert str(parse(text)) == text
