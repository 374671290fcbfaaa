"""The cli tier: the SDK runs the real CLI, which talks to the model double on loopback.

One `cli_run` = one isolated run: the space's HOME, config dir, cwd and TMPDIR; the CLI
pointed at a fresh double (or, live, at the real API); the caller's own Anthropic and
Claude variables kept out; every process the run started killed when it ends, however
it ends. It returns a `CliRun`: what the SDK yielded, what the CLI asked the model,
what callbacks and hooks were asked, how the CLI process ended, and the versions involved.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import os
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from sdkprobe.behaviour import NotApplicable
from sdkprobe.harness import processes, recording, under_test
from sdkprobe.harness import sdk as sdk_runs
from sdkprobe.harness.isolation import Space
from sdkprobe.harness.model_double import MAIN, ModelDouble, Recorded, Reply, Script

DUMMY_KEY = "sdkprobe-dummy-key"
# Without a bound the CLI backs off for minutes on 429/5xx; 0 retries keeps an error
# reply to exactly one request, which is also what error probes want to see.
RETRY_ENV = {"CLAUDE_CODE_MAX_RETRIES": "0"}
# Inherited variables that could change where the CLI sends requests or what it sends, or
# what it allows (IS_SANDBOX: a container may set it, and the CLI reads it, e.g. to let
# root run bypassPermissions); the session drops the caller's own copies (its own `env`
# option still wins), so a run is the same whatever the caller's environment.
_CALLER_VARS = re.compile(r"^(ANTHROPIC_|CLAUDE|AWS_BEARER_TOKEN_BEDROCK$|(HTTPS?|ALL)_PROXY$|IS_SANDBOX$)", re.I)
# Set by the SDK itself after the merge; dropping them would change what the SDK sends.
_SDK_OWN = {
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_AGENT_SDK_VERSION",
    "CLAUDE_AGENT_SDK_CLIENT_APP",
    "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING",
    "CLAUDE_CODE_SDK_READS_SESSION_STATE",
}
_REMOTE_SWITCHES = ("CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY")


class RefusedNetwork(RuntimeError):
    """A cli run would reach something other than 127.0.0.1."""


@dataclass
class CliRun(sdk_runs.OutcomeView):
    """What one cli run saw, from the SDK's side and from the model's side.

    `exit_codes` has one entry per process the SDK started for the session, in start
    order (not its `claude -v` check): the status that process ended with, as the SDK's
    own asyncio child watcher read it. That is the exit code (0 or more), or -N when
    signal N ended it (e.g. -15 when the SDK's close sent SIGTERM; a CLI that catches the
    SIGTERM exits 143 instead), or None when the harness killed it because it was still
    running after the SDK was done (a session that hits its timeout raises ProbeTimeout
    instead). `exit_code` is the last entry, None when no CLI process started.
    `leftovers` are the session's pids still running when the SDK was done.
    """

    outcome: sdk_runs.Outcome
    double: ModelDouble | None
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    leftovers: list[int] = field(default_factory=list)
    exit_codes: list[int | None] = field(default_factory=list)
    sdk_version: str | None = None
    cli_version: str | None = None
    # h.converse: each turn's messages, and (message count, step) for each step taken
    turns: list[list[Any]] = field(default_factory=list)
    marks: list[tuple[int, str]] = field(default_factory=list)
    # record_stdout=True: the CLI's stdout lines as the SDK received them (JSON parsed)
    stdout: list[Any] = field(default_factory=list)
    # record_stdin=StdinRecording(...): the lines the SDK wrote to the CLI (JSON parsed)
    stdin: list[Any] = field(default_factory=list)

    @property
    def exit_code(self) -> int | None:
        """How the session's CLI process ended (see the class); None if none was started."""
        return self.exit_codes[-1] if self.exit_codes else None

    @property
    def init(self) -> dict[str, Any]:
        """The data of the first system/init message ({} if none came)."""
        for m in self.of_type("SystemMessage"):
            if getattr(m, "subtype", None) == "init":
                return dict(m.data)
        return {}

    # what the CLI asked the model
    @property
    def requests(self) -> list[Recorded]:
        """Messages API requests, in order (empty when live)."""
        return self.double.messages_requests if self.double else []

    @property
    def all_requests(self) -> list[Recorded]:
        """Every HTTP request, including count_tokens and unknown paths."""
        return list(self.double.requests) if self.double else []

    @property
    def offered_tools(self) -> list[str]:
        """The tools the model was offered in the main conversation's first request
        (loaded and deferred; see `Recorded.offered_tools`); [] when there was none."""
        first = self.first(MAIN)
        return first.offered_tools if first else []

    def on(self, route: str, carrying: str | None = None) -> list[Recorded]:
        """The requests of one route (MAIN, SUBAGENT, AUX), in order; with `carrying`, only
        those whose user text contains it (see `Recorded.carries`). Empty when live."""
        requests = self.double.on(route) if self.double else []
        return requests if carrying is None else [r for r in requests if r.carries(carrying)]

    def first(self, route: str, carrying: str | None = None) -> Recorded | None:
        """The first request of `route` (with `carrying`, the first whose user text contains
        it: a subagent's first request for the prompt it was given, the request that opened
        a turn), or None when none came."""
        return next(iter(self.on(route, carrying)), None)

    @property
    def unscripted(self) -> list[Recorded]:
        return self.double.unscripted if self.double else []


DriveWithDouble = Callable[[Any, sdk_runs.Outcome, "ModelDouble | None"], Awaitable[None]]
Watch = Callable[[Any, "ModelDouble | None"], None]


async def cli_run(
    space: Space,
    prompt: Any = "hi",
    *,
    cli_path: str | os.PathLike[str] | None = None,
    live: bool = False,
    script: Script | list[Reply | str] | dict[str, list[Reply | str]] | None = None,
    timeout: float = 60.0,
    client: bool = False,
    drive: DriveWithDouble | None = None,
    record_stdout: bool | recording.StdoutRecording = False,
    record_stdin: recording.StdinRecording | None = None,
    on_message: Watch | None = None,
    **options: Any,
) -> CliRun:
    """Run the SDK against the real CLI once and return what happened.

    `options` are ClaudeAgentOptions fields by Python name; `env` given there is laid
    over the session's own environment. `script` is a Script, a list of replies for the
    main conversation, or a dict of route -> replies. With `client=True`, `drive(client,
    outcome, double)` drives a connected ClaudeSDKClient. `can_use_tool` and hook
    callbacks are wrapped so that every call is recorded in `CliRun.callbacks`. With
    `record_stdout` (True, or a StdoutRecording a drive waits on), the CLI's raw stdout
    is kept in `CliRun.stdout`; with `record_stdin` (a StdinRecording a callback may wait
    on) what the SDK wrote to the CLI is kept in `CliRun.stdin`. `on_message(message,
    double)` is called with each message a query() run yields, as it is yielded (to
    release a held model stream at that point).
    A ProbeTimeout still ends every process first.
    """
    if on_message is not None and client:
        raise ValueError("on_message watches a query() run; drive a client session step by step (h.converse)")
    under = under_test.current()
    cli = under.cli(cli_path)
    if not os.access(cli, os.X_OK):
        raise FileNotFoundError(f"the CLI {cli} is not an executable file")
    if live and not os.environ.get("ANTHROPIC_API_KEY"):
        raise RuntimeError("a live session needs ANTHROPIC_API_KEY in the environment")
    if live and script is not None:
        raise NotApplicable("scripted model replies exist only with the model double, not live")
    double = None if live else ModelDouble(as_script(script)).start()
    token = secrets.token_hex(8)
    run = CliRun(sdk_runs.Outcome(), double)
    try:
        env = cli_environment(space, double, token, live, options.pop("env", None) or {})
        drop = dropped_variables(env, live)
        if under.env_is_whole:  # the TypeScript SDK: env is the CLI's whole environment, not an addition
            env = {**{k: v for k, v in os.environ.items() if k not in drop}, **env}
        launcher, pidfile = processes.write_launcher(
            space.path("launcher"), cli, token, drop=drop, require_loopback=not live
        )
        recorded = None
        if record_stdout:
            recorded = (
                record_stdout
                if isinstance(record_stdout, recording.StdoutRecording)
                else recording.StdoutRecording(space.path("stdout"))
            )
            launcher = recorded.wrap(launcher)
        if record_stdin is not None:
            launcher = record_stdin.wrap(launcher)
        options.setdefault("cwd", str(space.cwd))
        if "stderr" in under.option_fields():  # old SDKs lack it; their CLI stderr is inherited
            options.setdefault("stderr", run.stderr.append)
        _record_callbacks(options, run.callbacks)
        opts = under.make_options(cli_path=str(launcher), env=env, **options)
        sdk_drive = None
        if drive is not None:

            async def sdk_drive(c: Any, out: sdk_runs.Outcome) -> None:
                await drive(c, out, double)

        watch = None
        if on_message is not None:
            seen_by = on_message

            def watch(message: Any) -> None:
                seen_by(message, double)

        with processes.exits(launcher) as exits:
            await _run_then_reap(
                run, token, pidfile, exits, opts, prompt, client=client, drive=sdk_drive, timeout=timeout, watch=watch
            )
    finally:
        if double is not None:
            double.stop()
    if recorded is not None:
        run.stdout = recorded.lines()
    if record_stdin is not None:
        run.stdin = record_stdin.lines()
    run.sdk_version = under.version
    run.cli_version = _cli_version(run, cli_path)
    if any(line.startswith("sdkprobe: refusing") for line in run.stderr):
        raise RefusedNetwork(run.stderr[-1])
    return run


async def _run_then_reap(
    run: CliRun, token: str, pidfile: Path, exits: processes.Exits, *args: Any, timeout: float, **kw: Any
) -> None:
    """run_sdk, then end the launched tree, noting what was still alive (`run.leftovers`)
    and how each process the SDK started for the session ended (`run.exit_codes`).

    On a timeout the SDK's own close waits 5 s for the CLI to exit; killing the tree at
    the deadline lets it return at once. The status of every process the SDK started is
    awaited here, so that asyncio's watcher hands it over while the loop still runs.
    """
    killed: set[int] = set()

    def at_deadline() -> None:
        killed.update(processes.reap(token, processes.launched_pids(pidfile)))

    watchdog = asyncio.get_running_loop().call_later(timeout, at_deadline)
    try:
        run.outcome = await sdk_runs.run_sdk(*args, timeout=timeout, **kw)
    finally:
        watchdog.cancel()
        roots = processes.launched_pids(pidfile)
        run.leftovers = sorted(processes.tree(token, roots))
        killed.update(processes.reap(token, roots))
        statuses = {pid: await exits.of(pid) for pid, _ in exits.started}
        started = list(exits.started)
        if not started:  # a TypeScript SDK: its driver, the CLI's parent, saw it start and end
            children = [c for c in run.outcome.children if c["argv"][:1] == [exits.program]]
            started = [(c["pid"], c["argv"][1:]) for c in children]
            statuses = {c["pid"]: c["returncode"] for c in children}
        run.exit_codes = [
            None if pid in killed else statuses[pid]
            for pid, argv in started
            if argv[:1] not in (["-v"], ["--version"])  # the SDK's version check
        ]


def as_script(script: Any) -> Script:
    if script is None or isinstance(script, Script):
        return script or Script()
    if isinstance(script, dict):
        return Script(**script)
    return Script(main=list(script))


def cli_environment(
    space: Space, double: ModelDouble | None, token: str, live: bool, extra: dict[str, str]
) -> dict[str, str]:
    """The env option: isolation, the double, bounded retries; the probe's own `env` over it."""
    env = {
        "HOME": str(space.home),
        "CLAUDE_CONFIG_DIR": str(space.config),
        "TMPDIR": str(space.tmp),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        # MCP servers connect before the first request. CLI 2.1.142 otherwise starts with a
        # server still "pending" (and 2.1.97 waits 5 s at most), so which MCP tools a request
        # offered depended on how fast a server started on a loaded machine. 2.1.332 waits
        # either way. A probe of pending servers sets it back in its own `env`.
        "MCP_CONNECTION_NONBLOCKING": "false",
        "NO_PROXY": "127.0.0.1,localhost",
        processes.MARKER: token,
        **RETRY_ENV,
    }
    if double is not None:
        env["ANTHROPIC_BASE_URL"] = double.base_url
        env["ANTHROPIC_API_KEY"] = DUMMY_KEY
    env.update({k: str(v) for k, v in extra.items()})
    env[processes.MARKER] = token
    if not live:
        _refuse_remote(env)
    return env


def _refuse_remote(env: dict[str, str]) -> None:
    """Fail closed: the API must be the loopback double, and no cloud provider switched on."""
    url = urlparse(env.get("ANTHROPIC_BASE_URL", ""))
    if url.scheme != "http" or url.hostname != "127.0.0.1":
        raise RefusedNetwork(
            f"ANTHROPIC_BASE_URL must be http://127.0.0.1:<port>, not {env.get('ANTHROPIC_BASE_URL')!r}"
        )
    for name in _REMOTE_SWITCHES:
        if env.get(name, "") not in ("", "0", "false"):
            raise RefusedNetwork(f"{name} would send requests to a cloud provider")
    if env.get("ANTHROPIC_API_KEY") != DUMMY_KEY and env.get("ANTHROPIC_API_KEY", "").startswith("sk-ant-"):
        raise RefusedNetwork("a real-looking ANTHROPIC_API_KEY was given to an offline session")


def dropped_variables(env: dict[str, str], live: bool) -> list[str]:
    """Caller variables the launcher removes before the CLI starts."""
    keep = set(env) | _SDK_OWN | ({"ANTHROPIC_API_KEY"} if live else set())
    return [n for n in os.environ if _CALLER_VARS.match(n) and n not in keep]


def _record_callbacks(options: dict[str, Any], sink: list[dict[str, Any]]) -> None:
    """Wrap can_use_tool and hook callbacks so each call is appended to `sink`."""
    can_use_tool = options.get("can_use_tool")
    if can_use_tool is not None:

        async def recorded_can_use_tool(name: str, tool_input: dict[str, Any], context: Any) -> Any:
            sink.append(
                {
                    "kind": "can_use_tool",
                    "tool": name,
                    "input": tool_input,
                    "agent_id": getattr(context, "agent_id", None),
                }
            )
            return await _maybe_await(can_use_tool(name, tool_input, context))

        options["can_use_tool"] = recorded_can_use_tool
    hooks = options.get("hooks")
    if hooks:
        options["hooks"] = {
            event: [dataclasses.replace(m, hooks=[_recorded_hook(event, f, sink) for f in m.hooks]) for m in matchers]
            for event, matchers in hooks.items()
        }


def _recorded_hook(event: str, fn: Callable[..., Any], sink: list[dict[str, Any]]) -> Callable[..., Any]:
    async def hook(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        sink.append({"kind": "hook", "event": event, "input": hook_input, "tool_use_id": tool_use_id})
        return await _maybe_await(fn(hook_input, tool_use_id, context))

    return hook


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _cli_version(run: CliRun, cli_path: Any) -> str | None:
    version = run.init.get("claude_code_version")
    if version:
        return str(version)
    return under_test.current().bundled_cli_version() if cli_path is None else None
