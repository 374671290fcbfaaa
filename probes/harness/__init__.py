"""The harness: what a behaviour's probe may call. Nothing here knows any behaviour.

A probe receives a `Harness` bound to its own isolated space and to its tier, and uses
only its public calls: `wire` (the SDK against the fake CLI) and `cli` (the SDK
against the real CLI and the model double, or the real API for a live behaviour run
with --live). Both take the prompt first and ClaudeAgentOptions fields as keywords.
`host_run` runs the host itself in a process of its own, for what becomes of the CLI
when its host returns without disconnect() or is SIGKILLed.
The builders of fake-CLI scenarios and model-double scripts are exported from here too, and
the types of what a probe gives the SDK (HookMatcher, AgentDefinition, PermissionResultAllow,
...; given.py), which the SDK under test gets as its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sdkprobe.fake_cli.blocks import (
    image,
    redacted_thinking,
    server_tool_use,
    text,
    thinking,
    tool_use,
    web_search_tool_result,
)
from sdkprobe.fake_cli.scenario import Scenario
from sdkprobe.harness import cli_text, host_process, processes, real_cli, under_test, wire
from sdkprobe.harness.arguments import iterable as ts_iterable
from sdkprobe.harness.context_files import (
    auto_memory,
    claude_md,
    git_repo,
    global_config,
    project_settings,
    user_settings,
    user_skill,
)
from sdkprobe.harness.conversation import Conversation, Steps
from sdkprobe.harness.given import (
    AgentDefinition,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    PermissionRuleValue,
    PermissionUpdate,
)
from sdkprobe.harness.held_callback import HeldCallback
from sdkprobe.harness.host_process import HostRun
from sdkprobe.harness.in_process import InProcessServer, InProcessTool, in_process_server, in_process_tool
from sdkprobe.harness.isolation import Space
from sdkprobe.harness.mcp_servers import Elicitation, McpTool, StdioMcpServer, stdio_mcp_server
from sdkprobe.harness.model_double import (
    AGENT_TOOL,
    AUX,
    COMPACT,
    MAIN,
    SUBAGENT,
    ByModel,
    Recorded,
    Reply,
    Script,
    http_error,
    reply,
    result_text,
    stream_error,
    structured_output,
    tool_use_offered,
)
from sdkprobe.harness.node_values import AsGiven, NodeAbort, NodeSpawn
from sdkprobe.harness.normalise import normalise
from sdkprobe.harness.plugins import PluginFolder, plugin_folder
from sdkprobe.harness.real_cli import CliRun
from sdkprobe.harness.recording import StdinRecording, StdoutRecording
from sdkprobe.harness.remote_mcp import RemoteMcpServer, RemoteRequest, mcp_oauth_store
from sdkprobe.harness.sdk import (
    Drive,
    OptionMissing,
    ProbeTimeout,
    allow_every_tool,
    config_dir_env,
    lacks,
    message_fields,
    option_fields,
    published_version,
    sdk_class,
    sdk_name,
    sdk_version,
    session_functions,
    typed_keys,
)
from sdkprobe.harness.wire import WireRun

__all__ = [
    "AGENT_TOOL",
    "AUX",
    "AgentDefinition",
    "AsGiven",
    "COMPACT",
    "MAIN",
    "SUBAGENT",
    "ByModel",
    "CliRun",
    "Conversation",
    "Elicitation",
    "Harness",
    "HeldCallback",
    "HookMatcher",
    "HostRun",
    "McpTool",
    "InProcessServer",
    "InProcessTool",
    "in_process_server",
    "in_process_tool",
    "NodeAbort",
    "NodeSpawn",
    "OptionMissing",
    "PermissionResultAllow",
    "PermissionResultDeny",
    "PermissionRuleValue",
    "PermissionUpdate",
    "PluginFolder",
    "ProbeTimeout",
    "Recorded",
    "RemoteMcpServer",
    "RemoteRequest",
    "Reply",
    "Scenario",
    "Script",
    "Space",
    "StdinRecording",
    "StdoutRecording",
    "StdioMcpServer",
    "TierError",
    "WireRun",
    "allow_every_tool",
    "auto_memory",
    "claude_md",
    "config_dir_env",
    "git_repo",
    "global_config",
    "http_error",
    "image",
    "lacks",
    "sdk_class",
    "message_fields",
    "mcp_oauth_store",
    "option_fields",
    "plugin_folder",
    "project_settings",
    "published_version",
    "redacted_thinking",
    "reply",
    "result_text",
    "sdk_name",
    "sdk_version",
    "server_tool_use",
    "session_functions",
    "stream_error",
    "stdio_mcp_server",
    "structured_output",
    "text",
    "thinking",
    "tool_use",
    "tool_use_offered",
    "ts_iterable",
    "typed_keys",
    "user_settings",
    "user_skill",
    "web_search_tool_result",
]

Prompt = str | Sequence[dict[str, Any]] | None


class TierError(RuntimeError):
    """A probe used a tier its behaviour did not declare (a wire behaviour started a real CLI)."""


class Harness:
    def __init__(self, space: Space, *, tier: str = "cli", cli_path: str | None = None, live: bool = False) -> None:
        self.space = space
        self.tier = tier
        self.cli_path = cli_path
        self.live = live

    @property
    def cwd(self) -> Path:
        """The probe's working directory (the CLI's cwd in a session)."""
        return self.space.cwd

    async def wire(
        self,
        prompt: Prompt = "hi",
        *,
        scenario: Scenario | None = None,
        client: bool = False,
        drive: Drive | None = None,
        timeout: float = 10.0,
        connect_prompt: bool = False,
        startup: dict[str, Any] | None = None,
        **options: Any,
    ) -> WireRun:
        """Run the SDK against the fake CLI playing `scenario`; what crossed the wire.
        `connect_prompt` (with client=True) gives the prompt to connect() instead of query();
        `startup` pre-warms the CLI with the SDK's startup(options, **startup) and runs the
        prompt on the warm handle (the run's `warmed`: what the fake recorded by then)."""
        _check_call("wire", prompt, options)
        return await wire.capture(
            self.space.path("wire"),
            scenario,
            _as_prompt(prompt),
            client=client,
            drive=drive,
            timeout=timeout,
            connect_prompt=connect_prompt,
            startup=startup,
            **options,
        )

    async def cli(
        self,
        prompt: Prompt = "hi",
        *,
        script: Script | Sequence[Reply | str] | None = None,
        client: bool = False,
        drive: real_cli.DriveWithDouble | None = None,
        timeout: float = 60.0,
        record_stdout: bool | StdoutRecording = False,
        record_stdin: StdinRecording | None = None,
        on_message: real_cli.Watch | None = None,
        **options: Any,
    ) -> CliRun:
        """Run the SDK against the real CLI (the model double answering from `script`);
        `record_stdout` keeps the CLI's raw stdout lines in `CliRun.stdout`, `record_stdin`
        (a StdinRecording a callback may wait on) what the SDK wrote to it; a query() run
        calls `on_message(message, double)` with each message as it is yielded (to let a
        held model stream go at a point of the stream: `double.release()`)."""
        if self.tier == "wire":
            raise TierError("a wire behaviour may not start a real CLI (h.cli); declare tier='cli'")
        _check_call("cli", prompt, options)
        return await real_cli.cli_run(
            self.space,
            _as_prompt(prompt),
            cli_path=self.cli_path,
            live=self.live,
            script=script if script is None or isinstance(script, Script) else list(script),
            client=client,
            drive=drive,
            timeout=timeout,
            record_stdout=record_stdout,
            record_stdin=record_stdin,
            on_message=on_message,
            **options,
        )

    async def host_run(
        self,
        prompt: str = "hi",
        *,
        ending: str,
        script: Script | Sequence[Reply | str] | None = None,
        timeout: float = 60.0,
    ) -> HostRun:
        """A host in a process of its own (ClaudeSDKClient: connect, one query read to its
        result) that then ends as `ending` says, "return" (no disconnect()) or "sigkill";
        how its CLI ended once it was gone, waited for with `timeout` as the ceiling."""
        if self.tier != "cli" or self.live:
            raise TierError("a host process runs the real CLI against the model double: declare tier='cli'")
        return await host_process.host_run(
            self.space,
            prompt,
            ending=ending,
            script=script if script is None or isinstance(script, Script) else list(script),
            cli_path=self.cli_path,
            timeout=timeout,
        )

    async def converse(
        self,
        steps: Steps,
        *,
        script: Script | Sequence[Reply | str] | None = None,
        timeout: float = 60.0,
        record_stdout: bool = False,
        **options: Any,
    ) -> CliRun:
        """A ClaudeSDKClient session driven by `steps(conversation)`: several turns, an
        interrupt, held streams released. The run's `turns` and `marks` say what each turn
        yielded and where each step fell in the message sequence. With `record_stdout` the
        steps can also wait for a raw CLI line (`Conversation.stdout_line`)."""
        driven: list[Conversation] = []
        recorded = StdoutRecording(self.space.path("stdout")) if record_stdout else None

        async def drive(client: Any, outcome: Any, double: Any) -> None:
            conversation = Conversation(client, outcome, double, recorded)
            driven.append(conversation)
            try:
                await steps(conversation)
            finally:
                await conversation.close()

        run = await self.cli(
            None, script=script, client=True, drive=drive, timeout=timeout, record_stdout=recorded or False, **options
        )
        if driven:
            run.turns, run.marks = driven[0].turns, driven[0].marks
        return run

    async def cli_output(self, *args: str, timeout: float = 30.0) -> str:
        """What the CLI under test (bundled, or --cli) prints for `args`, e.g. its `--help`:
        stdout and stderr as one text, run in this probe's space with nothing of the caller's."""
        if self.tier == "wire":
            raise TierError("a wire behaviour may not start the real CLI (h.cli_output); declare tier='cli'")
        cli = under_test.current().cli(self.cli_path)
        return await cli_text.cli_output(self.space, cli, args, timeout=timeout)

    async def type_check(self, source: str, timeout: float = 60.0) -> list[dict[str, Any]] | None:
        """What `tsc --strict` says of `source`, a TypeScript module that may import the SDK
        under test by its package name: its errors as {line, column, code, message} rows
        (none when it compiles). None when the SDK under test is not a TypeScript one: no
        compiler checks Python code."""
        return await under_test.current().type_check(self.space, source, timeout)

    def hook_inputs(self) -> dict[str, list[str]]:
        """Each hook event the SDK under test lists, with the fields its input type declares."""
        return under_test.current().hook_inputs()

    def hook_input_values(self) -> dict[str, dict[str, list[str]]]:
        """The string values each listed hook event's input declares a field takes, by event and
        field ({} where the SDK's types are not read for them)."""
        return under_test.current().hook_input_values()

    def declared_messages(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Each message the SDK under test declares it yields, by `type` or `type/subtype`,
        with the kinds (and string values) of each field its type declares; {} when it
        declares none that way."""
        return under_test.current().declared_messages()

    def children_in(self, cwd: str | Path) -> int | None:
        """How many live processes this host started run in `cwd` (a client's CLI given
        that cwd); None on a host that cannot tell (no /proc)."""
        return processes.children_in(cwd)

    @property
    def home(self) -> Path:
        """The HOME a session of this probe's runs with (unless its `env` says otherwise);
        `home / ".claude"` is the user's folder there."""
        return self.space.home

    @property
    def config_dir(self) -> Path:
        """The CLAUDE_CONFIG_DIR a session of this probe's uses (unless its `env` says otherwise)."""
        return self.space.config

    def workdir(self, name: str) -> Path:
        """A fresh folder of this probe's own (`name-1`, `name-2`, ...) for files a probe
        makes: MCP servers, plugins, documents. Removed with the probe."""
        return self.space.path(name)

    def observe(self, value: Any) -> Any:
        """`value` normalised: this probe's paths become placeholders."""
        return normalise(
            value,
            paths=[
                (self.space.cwd, "<CWD>"),
                (self.space.home, "<HOME>"),
                (self.space.tmp, "<TMPDIR>"),
                (self.space.root, "<SPACE>"),
            ],
        )


def _check_call(method: str, prompt: Any, options: dict[str, Any]) -> None:
    """One clear line for a wrong call, before anything starts."""
    if not (prompt is None or isinstance(prompt, str) or _is_message_list(prompt)):
        raise TypeError(f"h.{method}(): the prompt is a string, a list of message dicts or None, not {prompt!r}")
    under_test.current().require_options(options)  # before anything starts: OptionMissing


def _is_message_list(prompt: Any) -> bool:
    return isinstance(prompt, (list, tuple)) and all(isinstance(m, dict) for m in prompt)


def _as_prompt(prompt: Prompt) -> str | list[dict[str, Any]] | None:
    return prompt if prompt is None or isinstance(prompt, str) else list(prompt)
