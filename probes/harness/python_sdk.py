"""The Python SDK under test: the installed `claude_agent_sdk` (or a module standing in for it).

Probes speak its terms, so little is translated: options are its ClaudeAgentOptions,
callbacks its own, messages its own classes, requirements its attributes and dataclass fields.
What a probe gives it in the harness's types (given.py: HookMatcher, AgentDefinition, a
permission answer) becomes its own class of the same name (`own`).
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import AsyncIterable
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import NotApplicable
from sdkprobe.harness.given import Given
from sdkprobe.harness.in_process import InProcessServer
from sdkprobe.harness.under_test import Drive, RunSpec, SdkUnderTest, Watch


class PythonSdk(SdkUnderTest):
    name = "claude-agent-sdk"
    env_is_whole = False

    def __init__(self, module: Any, version: str | None = None) -> None:
        self.module = module
        self._version = version

    @property
    def version(self) -> str:
        if self._version is not None:
            return self._version
        version = getattr(self.module, "__version__", None)
        return str(version or _module_attr("claude_agent_sdk._version", "__version__"))

    def published_version(self) -> str:
        """Its distribution's metadata (what pip installed); `version` when it is not installed
        as a distribution (a checkout on sys.path)."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("claude-agent-sdk")
        except PackageNotFoundError:
            return self.version

    def bundled_cli_version(self) -> str | None:
        version = _module_attr("claude_agent_sdk._cli_version", "__cli_version__")
        return None if version is None else str(version)

    def bundled_cli_path(self) -> Path | None:
        path = Path(self.module.__file__).parent / "_bundled" / "claude"
        return path if path.exists() else None

    # --- options ------------------------------------------------------------------------

    def option_fields(self) -> set[str]:
        return _fields(getattr(self.module, "ClaudeAgentOptions", None))

    def why_lacking(self, lacking: list[str]) -> str:
        return f"ClaudeAgentOptions in {self.name} {self.version} has no field " + ", ".join(repr(n) for n in lacking)

    def build_options(self, options: dict[str, Any]) -> Any:
        """ClaudeAgentOptions; `agents` may be given as plain dicts, which become AgentDefinitions.
        The harness's types in `hooks` and `agents` become this SDK's own (`own`), and so does
        what `can_use_tool` answers with; an in-process server in `mcp_servers` is built with
        this SDK's tool() and create_sdk_mcp_server() (`_server`)."""
        from sdkprobe.harness.node_values import AsGiven

        given = sorted(name for name, value in options.items() if isinstance(value, AsGiven))
        if given:
            raise NotApplicable(
                f"{self.name} hands its callbacks its own objects, not the JSON it got ({', '.join(given)} "
                "given as AsGiven)"
            )
        agents = options.get("agents")
        if isinstance(agents, dict):
            definition = self.module.AgentDefinition
            options["agents"] = {n: definition(**a) if isinstance(a, dict) else self.own(a) for n, a in agents.items()}
        hooks = options.get("hooks")
        if isinstance(hooks, dict):
            options["hooks"] = {event: self.own(matchers) for event, matchers in hooks.items()}
        if options.get("can_use_tool") is not None:
            options["can_use_tool"] = self._answering(options["can_use_tool"])
        servers = options.get("mcp_servers")
        if isinstance(servers, dict):
            options["mcp_servers"] = {
                k: self._server(v) if isinstance(v, InProcessServer) else v for k, v in servers.items()
            }
        return self.module.ClaudeAgentOptions(**options)

    def own(self, value: Any) -> Any:
        """A harness type (given.py) as this SDK's class of its name, given the fields set on it
        (harness types among them as this SDK's too); a list or tuple of values each so; anything
        else (a dict, None, this SDK's own object) as it is. NotApplicable when this SDK has no
        such class, or its class lacks a field set on it."""
        if isinstance(value, (list, tuple)):
            return type(value)(self.own(v) for v in value)
        if not isinstance(value, Given):
            return value
        name = type(value).__name__
        cls = self.own_class(name)
        if cls is None:
            raise NotApplicable(f"{self.name} {self.version} has no {name}")
        given = value.set_fields()
        lacking = [field for field in given if field not in _fields(cls)]
        if lacking:
            raise NotApplicable(f"{name} in {self.name} {self.version} has no field {lacking[0]!r}")
        return cls(**{field: self.own(v) for field, v in given.items()})

    def _class(self, name: str) -> Any:
        """This SDK's class `name`: exported, or only in its `types` (PermissionRuleValue)."""
        found = getattr(self.module, name, None)
        module = getattr(self.module, "__name__", None)
        return _module_attr(f"{module}.types", name) if found is None and module else found

    def own_class(self, name: str) -> type | None:
        found = self._class(name)
        return found if isinstance(found, type) else None

    def _answering(self, can_use_tool: Any) -> Any:
        """`can_use_tool` answering in this SDK's own types (an answer of the harness's types
        converted, anything else as it is)."""

        async def answer(*args: Any) -> Any:
            return self.own(await can_use_tool(*args))

        return answer

    def _server(self, server: InProcessServer) -> Any:
        """An in-process server built with this SDK's tool() and create_sdk_mcp_server()."""
        tools = []
        for t in server.tools:
            extra = {} if t.annotations is None else {"annotations": self.module.ToolAnnotations(**t.annotations)}
            tools.append(self.module.tool(t.name, t.description, dict(t.schema), **extra)(t.handler))
        return self.module.create_sdk_mcp_server(server.name, version=server.version, tools=tools)

    # --- running --------------------------------------------------------------------------

    async def run(self, options: Any, spec: RunSpec, out: Any) -> None:
        if spec.connect_prompt:
            await self._run_connected(options, spec.prompt, spec.drive, out)
        elif not spec.client:
            await self._query(options, spec.prompt, out, spec.watch)
        else:
            await self._client(options, spec.prompt, spec.drive, out)

    async def _query(self, options: Any, prompt: Any, out: Any, watch: Watch | None) -> None:
        stream: Any = self.module.query(prompt=_as_prompt(prompt), options=options)  # an async generator
        try:
            async for message in stream:
                out.messages.append(message)
                if watch is not None:
                    watch(message)
        finally:
            await stream.aclose()

    async def _client(self, options: Any, prompt: Any, drive: Drive | None, out: Any) -> None:
        async with self.module.ClaudeSDKClient(options=options) as c:
            if drive is not None:
                await drive(c, out)
                return
            if prompt is not None:
                await c.query(_as_prompt(prompt))
                async for message in c.receive_response():
                    out.messages.append(message)

    async def _run_connected(self, options: Any, prompt: Any, drive: Drive | None, out: Any) -> None:
        """A ClaudeSDKClient given its prompt at connect(), as a streaming-input session starts."""
        c = self.module.ClaudeSDKClient(options=options)
        await c.connect(_as_prompt(prompt))
        try:
            if drive is not None:
                await drive(c, out)
            else:
                async for message in c.receive_response():
                    out.messages.append(message)
        finally:
            await c.disconnect()

    # --- what it declares -----------------------------------------------------------------

    def typed_keys(self, name: str) -> list[str] | None:
        """The keys of the TypedDict `claude_agent_sdk.types.NAME` (a hook output newer than
        this version has none)."""
        types = importlib.import_module(self.module.__name__ + ".types")
        typed = getattr(types, name, None)
        return None if typed is None else list(getattr(typed, "__annotations__", {}))

    def hook_inputs(self) -> dict[str, list[str]]:
        """The values of types.HookEvent (a union of Literals), each with the keys of its
        `<Event>HookInput` TypedDict (BaseHookInput's alone when this version has none)."""
        types = importlib.import_module(self.module.__name__ + ".types")

        def values(tp: Any) -> list[str]:
            if typing.get_origin(tp) is typing.Literal:
                return [str(v) for v in typing.get_args(tp)]
            return [v for member in typing.get_args(tp) for v in values(member)]

        base = getattr(types, "BaseHookInput", None)
        inputs = {}
        for event in values(getattr(types, "HookEvent", None)):
            typed = getattr(types, f"{event}HookInput", base)
            inputs[event] = sorted(getattr(typed, "__annotations__", {}))
        return inputs

    def hook_input_values(self) -> dict[str, dict[str, list[str]]]:
        """Not read from its TypedDicts: every input field is sent as a marker string only."""
        return {}

    def declared_messages(self) -> dict[str, dict[str, dict[str, Any]]]:
        """None declared by type and subtype: its messages are classes (AssistantMessage, ...)."""
        return {}

    def unmet(self, kind: str, name: str) -> str | None:
        sdk = f"{self.name} {self.version}"
        if kind == "option":
            return self.missing_options([name])
        if kind == "field":
            cls_name, field = name.split(".")
            if field not in _fields(getattr(self.module, cls_name, None)):
                return f"{cls_name} in {sdk} has no field {field!r}"
            return None
        if kind == "api":
            obj = self.module
            for part in name.split("."):
                obj = getattr(obj, part, None)
                if obj is None:
                    return f"{sdk} has no {name}"
            return None
        raise ValueError(f"{kind}: is not a requirement on the SDK itself")

    def session_functions(self) -> Any:
        return self.module

    def run_info(self) -> dict[str, Any]:
        from sdkprobe import surface

        return {"surface": surface.names(self.module)}


def _fields(cls: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()


def _module_attr(module: str, attr: str) -> Any:
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None


def _as_prompt(prompt: Any) -> Any:
    if isinstance(prompt, list):
        return _iterate(prompt)
    return prompt if prompt is not None else ""


async def _iterate(items: list[dict[str, Any]]) -> AsyncIterable[dict[str, Any]]:
    for item in items:
        yield item
