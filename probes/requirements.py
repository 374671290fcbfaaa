"""What a probe needs from the SDK under test, declared with the behaviour.

A behaviour lists its needs as short strings; each is checked once, before the probe
runs, so an SDK that lacks one gives `not-applicable` with the reason instead of a crash
somewhere inside the probe:

    option:NAME        ClaudeAgentOptions has the field NAME (a camelCase NAME: the TypeScript
                       SDK's Options declares this option only it has, `option:debugFile`)
    field:CLASS.NAME   the SDK dataclass CLASS has the field NAME (AgentDefinition.skills)
    api:DOTTED.NAME    claude_agent_sdk has this attribute (ClaudeSDKClient.interrupt)
    package:NAME       the Python package NAME can be imported (mcp)
    cli>=VERSION       the CLI under test is at least VERSION
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sdkprobe.harness.under_test import SdkUnderTest

KINDS = ("option", "field", "api", "package", "cli")
_FORMS = {
    "option": re.compile(r"^option:([A-Za-z_][A-Za-z0-9_]*)$"),  # camelCase: a TypeScript-only option
    "field": re.compile(r"^field:([A-Za-z_]\w*\.[a-z_]\w*)$"),
    "api": re.compile(r"^api:([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$"),
    "package": re.compile(r"^package:([A-Za-z_][\w.-]*)$"),
    "cli": re.compile(r"^cli>=(\d+(?:\.\d+)*)$"),
}


@dataclass(frozen=True)
class Target:
    """What is under test: the SDK (a harness.under_test.SdkUnderTest) and the CLI's version."""

    sdk: SdkUnderTest
    cli_version: str | None


@dataclass(frozen=True)
class Requirement:
    kind: str
    name: str

    def __str__(self) -> str:
        return f"cli>={self.name}" if self.kind == "cli" else f"{self.kind}:{self.name}"

    def unmet(self, target: Target) -> str | None:
        """Why the target lacks this, in one clause; None when it has it."""
        if self.kind in ("option", "field", "api"):
            return target.sdk.unmet(self.kind, self.name)
        if self.kind == "package":
            if importlib.util.find_spec(self.name) is None:
                return f"the Python package {self.name!r} is not installed"
        elif self.kind == "cli":
            if target.cli_version is None:
                return f"the CLI's version is unknown, and {self} is needed"
            if _release(target.cli_version) < _release(self.name):
                return f"the CLI is {target.cli_version}, older than {self.name}"
        return None


def parse(text: str) -> Requirement:
    """A Requirement from its declared form; ValueError naming the forms otherwise."""
    for kind, form in _FORMS.items():
        m = form.match(text)
        if m:
            return Requirement(kind, m.group(1))
    raise ValueError(
        f"requirement {text!r} is not one of option:NAME, field:CLASS.NAME, api:NAME, package:NAME, cli>=VERSION"
    )


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version.split("-")[0])[:3])
