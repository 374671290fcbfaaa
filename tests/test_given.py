"""What a probe gives the SDK (sdkprobe.harness.given) reaches each SDK as that SDK's own: the
installed Python SDK's dataclasses, or the JSON a TypeScript caller writes, whichever Python
SDK is installed beside."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import types
from typing import Any

import claude_agent_sdk
import claude_agent_sdk.types as py_types
import pytest

from sdkprobe.behaviour import NotApplicable
from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import (
    AgentDefinition,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    PermissionRuleValue,
    PermissionUpdate,
    under_test,
    wire,
)
from sdkprobe.harness.python_sdk import PythonSdk
from sdkprobe.harness.typescript import callbacks
from sdkprobe.harness.typescript import options as table


async def _hook(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
    return {}


def _fields(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


def _allow() -> PermissionResultAllow:
    rules = [PermissionRuleValue(tool_name="Bash"), PermissionRuleValue(tool_name="Read", rule_content="*.md")]
    update = PermissionUpdate(type="addRules", rules=rules, behavior="allow", destination="session")
    return PermissionResultAllow(updated_input={"command": "pwd"}, updated_permissions=[update])


def test_the_python_sdk_gets_its_own_classes_with_the_fields_set() -> None:
    python = PythonSdk(claude_agent_sdk)
    asked: list[Any] = []

    async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        asked.append(name)
        return _allow() if name == "Bash" else PermissionResultDeny(message="no", interrupt=True)

    options = python.build_options(
        {
            "hooks": {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[_hook], timeout=5, on_failure="block")]},
            "agents": {"r": AgentDefinition(description="d", prompt="p", tools=["Read"], maxTurns=2)},
            "can_use_tool": can_use_tool,
        }
    )
    matcher = options.hooks["PreToolUse"][0]
    assert type(matcher) is claude_agent_sdk.HookMatcher
    assert _fields(matcher) == {"matcher": "Bash", "hooks": [_hook], "timeout": 5, "on_failure": "block"}
    agent = options.agents["r"]
    assert type(agent) is claude_agent_sdk.AgentDefinition
    assert (agent.description, agent.prompt, agent.tools, agent.maxTurns, agent.model) == ("d", "p", ["Read"], 2, None)

    allow = asyncio.run(options.can_use_tool("Bash", {}, None))
    assert type(allow) is claude_agent_sdk.PermissionResultAllow and allow.updated_input == {"command": "pwd"}
    (update,) = allow.updated_permissions
    assert type(update) is claude_agent_sdk.PermissionUpdate
    assert update.to_dict() == {
        "type": "addRules",
        "destination": "session",
        "rules": [{"toolName": "Bash"}, {"toolName": "Read", "ruleContent": "*.md"}],
        "behavior": "allow",
    }
    assert {type(rule) for rule in update.rules} == {py_types.PermissionRuleValue}
    deny = asyncio.run(options.can_use_tool("Write", {}, None))
    assert type(deny) is claude_agent_sdk.PermissionResultDeny and (deny.message, deny.interrupt) == ("no", True)
    assert asked == ["Bash", "Write"]


def test_what_else_a_callback_answers_reaches_the_python_sdk_as_it_is() -> None:
    own = claude_agent_sdk.PermissionResultAllow(updated_input={"a": 1})
    for answer in (None, {"behavior": "allow"}, own):

        async def can_use_tool(name: str, tool_input: dict[str, Any], context: Any, answer: Any = answer) -> Any:
            return answer

        options = PythonSdk(claude_agent_sdk).build_options({"can_use_tool": can_use_tool})
        assert asyncio.run(options.can_use_tool("Bash", {}, None)) is answer


def test_typescript_gets_the_json_a_typescript_caller_writes() -> None:
    hooks = {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[_hook], timeout=5), HookMatcher(hooks=[_hook])]}
    agents = {"r": AgentDefinition(description="d", prompt="p", maxTurns=2, extra={"observer": True})}
    sent = table.translate({"hooks": hooks, "agents": agents}).options
    undefined = table.UNDEFINED
    assert json.dumps(sent["hooks"]) == json.dumps(
        {
            "PreToolUse": [
                {"hooks": [{"$callback": "hook:PreToolUse:0:0", "kind": "hook"}], "matcher": "Bash", "timeout": 5}
                | {"onFailure": undefined},
                {"hooks": [{"$callback": "hook:PreToolUse:1:0", "kind": "hook"}]}
                | {"matcher": undefined, "timeout": undefined, "onFailure": undefined},
            ]
        }
    )
    unset = ["disallowedTools", "model", "skills", "memory", "mcpServers", "initialPrompt"]
    assert json.dumps(sent["agents"]["r"]) == json.dumps(
        {"description": "d", "prompt": "p", "tools": undefined}
        | {k: undefined for k in unset}
        | {"maxTurns": 2, "background": undefined, "effort": undefined, "permissionMode": undefined}
        | {"observer": True}
    )
    assert callbacks.permission_result(_allow()) == {
        "behavior": "allow",
        "updatedInput": {"command": "pwd"},
        "updatedPermissions": [
            {
                "type": "addRules",
                "rules": [{"toolName": "Bash"}, {"toolName": "Read", "ruleContent": "*.md"}],
                "behavior": "allow",
                "destination": "session",
            }
        ],
    }
    assert callbacks.permission_result(PermissionResultDeny(message="no")) == {"behavior": "deny", "message": "no"}
    classified = PermissionResultDeny(message="no", interrupt=True, decision_classification="user_reject")
    assert callbacks.permission_result(classified) == {
        "behavior": "deny",
        "message": "no",
        "interrupt": True,
        "decisionClassification": "user_reject",
    }


@dataclasses.dataclass
class _OldHookMatcher:
    """claude-agent-sdk 0.2.82's HookMatcher: no on_failure."""

    matcher: str | None = None
    hooks: list[Any] = dataclasses.field(default_factory=list)
    timeout: float | None = None


@pytest.fixture
def old_python(monkeypatch: pytest.MonkeyPatch) -> PythonSdk:
    """The installed Python SDK as the SDK under test, its HookMatcher without on_failure."""
    module = types.ModuleType("claude_agent_sdk")
    module.__dict__.update(vars(claude_agent_sdk))
    module.HookMatcher = _OldHookMatcher
    old = PythonSdk(module, version="0.2.82")
    monkeypatch.setattr(under_test, "current", lambda: old)
    return old


async def test_an_unset_field_the_python_sdk_lacks_runs_and_a_set_one_is_not_applicable(old_python, space) -> None:
    scenario = Scenario().wait_for_user().init().result()
    run = await wire.capture(
        space.path("unset"), scenario, client=True, hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[_hook])]}
    )
    assert run.error is None
    assert run.initialize["hooks"]["PreToolUse"] == [{"matcher": "Bash", "hookCallbackIds": ["hook_0"]}]
    assert type(old_python.own(HookMatcher(hooks=[_hook], on_failure=None))) is _OldHookMatcher  # None: not set

    with pytest.raises(NotApplicable, match="HookMatcher in claude-agent-sdk 0.2.82 has no field 'on_failure'"):
        await wire.capture(
            space.path("set"), scenario, client=True, hooks={"PreToolUse": [HookMatcher(on_failure="continue")]}
        )
    with pytest.raises(NotApplicable, match="PermissionResultAllow in claude-agent-sdk 0.2.82 has no field"):
        old_python.own(PermissionResultAllow(decision_classification="user_temporary"))
