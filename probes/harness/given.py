"""What a probe gives the SDK: a hook matcher, an agent definition, a permission answer and
the updates and rules inside one.

These are the probe's spelling of those inputs, named and keyworded as the Python SDK names
them (`HookMatcher(matcher="Bash", hooks=[cb], on_failure="block")`,
`PermissionResultAllow(updated_input=...)`), and the seam (under_test.SdkUnderTest) turns
each into the SDK under test's own: for the Python SDK the installed `claude_agent_sdk`'s
classes of the same names (python_sdk.py), for a TypeScript release the JSON a TypeScript
caller writes (typescript/options.py, typescript/callbacks.py). They are the harness's, not
the installed Python SDK's, so that what a probe can say to a TypeScript release does not
depend on which Python SDK is installed beside it (a HookMatcher's on_failure, which
claude-agent-sdk takes only from 0.2.180 on).

A field left at its default is not set: every optional field defaults to None (a deny's
message to "" and interrupt to False, as in the SDK), and both seams read None as not given
(the Python SDK's own default is None too; the TypeScript relay writes a None matcher or
definition field as a key holding undefined, and leaves a None answer or update field out),
so a field left unset and one set to None reach either SDK alike. A set field the installed
Python SDK's class lacks makes the run not-applicable there (in a can_use_tool answer, the
callback's error, which the SDK relays to the CLI); a probe declares such a need
(`requires=("field:HookMatcher.on_failure",)`) or asks `lacks(...)` first, so that is only a
safety net.

A probe that is about the Python SDK's own classes (what its AgentDefinition refuses, what
PermissionUpdate.to_dict sends) builds those itself; the seams pass such an object on as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Given:
    """What the harness types share: their fields by name, and which of them are set."""

    def fields(self) -> dict[str, Any]:
        """Each field by its SDK name, in declaration order, then any `extra` ones."""
        named = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "extra"}
        return {**named, **getattr(self, "extra", {})}

    def set_fields(self) -> dict[str, Any]:
        """The fields given something other than their default: what an SDK must have to take this."""
        defaults = {f.name: _default(f) for f in dataclasses.fields(self)}
        return {k: v for k, v in self.fields().items() if v is not None and v != defaults.get(k)}


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return _REQUIRED


_REQUIRED = object()  # a field with no default is always set


@dataclass
class HookMatcher(Given):
    """Which hook callbacks run for an event (`hooks={"PreToolUse": [HookMatcher(...)]}`)."""

    matcher: str | None = None
    hooks: list[Callable[..., Any]] = field(default_factory=list)
    timeout: float | None = None
    on_failure: str | None = None  # "continue" or "block"


@dataclass
class AgentDefinition(Given):
    """A subagent (`agents={"name": AgentDefinition(...)}`); its fields keep the SDKs' camelCase
    names. `extra` holds fields an SDK has that this type does not name, by their SDK names
    (TypeScript's `observer`, ...): sent after the others."""

    description: str
    prompt: str
    tools: list[str] | None = None
    disallowedTools: list[str] | None = None
    model: str | None = None
    skills: list[str] | None = None
    memory: str | None = None
    mcpServers: list[str | dict[str, Any]] | None = None
    initialPrompt: str | None = None
    maxTurns: int | None = None
    background: bool | None = None
    effort: str | int | None = None
    permissionMode: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class PermissionRuleValue(Given):
    """One rule of a PermissionUpdate: a tool, and what it matches within it (None: all of it)."""

    tool_name: str
    rule_content: str | None = None


@dataclass
class PermissionUpdate(Given):
    """A change to the permission rules, mode or directories, as an allow carries it. Not
    checked here: what each SDK makes of one its types would refuse is a finding."""

    type: str
    rules: list[PermissionRuleValue] | None = None
    behavior: str | None = None
    mode: str | None = None
    directories: list[str] | None = None
    destination: str | None = None


@dataclass
class PermissionResultAllow(Given):
    """can_use_tool's allow; `updated_permissions` may also hold what the SDK suggested (its
    own objects, or on TypeScript its JSON), passed on as they are."""

    behavior: str = "allow"
    updated_input: dict[str, Any] | None = None
    updated_permissions: list[Any] | None = None
    decision_classification: str | None = None  # TypeScript's decisionClassification


@dataclass
class PermissionResultDeny(Given):
    """can_use_tool's deny: the message the model gets, and whether the turn stops."""

    behavior: str = "deny"
    message: str = ""
    interrupt: bool = False
    decision_classification: str | None = None  # TypeScript's decisionClassification
