"""How the SDK starts the CLI: which binary, as whom, with what environment, and the options it
keeps for itself (stores, stderr)."""

from __future__ import annotations

import json
import os
from typing import Any, Literal, TypedDict, cast, final

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.wire.support import Absent, NeverStarted, argv_of, never_started, option_absent, option_names
from sdkprobe.harness import (
    Harness,
    ProbeTimeout,
    Scenario,
    WireRun,
    lacks,
    published_version,
    sdk_class,
)

# --- wire.sdk-set-environment ----------------------------------------------------------------

_ENTRYPOINT, _VERSION = "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_AGENT_SDK_VERSION"
_STATE, _CHECKPOINTS, _CLIENT_APP = (
    "CLAUDE_CODE_SDK_READS_SESSION_STATE",
    "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING",
    "CLAUDE_AGENT_SDK_CLIENT_APP",
)
# What the SDK documents adding to its own environment when the options add nothing.
_SDK_ADDS = (_ENTRYPOINT, _VERSION, _STATE, "PWD")
_OVERRIDES = {_ENTRYPOINT: "probe-entry", _VERSION: "0.0.0-probe", "SDKPROBE_ENV_MARK": "mark"}
_ENV_WATCHED = (_ENTRYPOINT, _VERSION, _STATE, _CHECKPOINTS, _CLIENT_APP, "PWD", "SDKPROBE_ENV_MARK")


class EnvRun(TypedDict):
    """The watched variables of the child's environment, its cwd, what else the SDK added or removed."""

    watched: dict[str, str | None]
    cwd: str
    added: list[str]
    removed: list[str]


# each run's EnvRun, or NeverStarted (client_app: Absent on an SDK without it); Any, as the
# decision reads them only once none failed
EnvSeen = TypedDict(
    "EnvSeen",
    {
        "sdk version": str,
        "default": Any,
        "env overrides": Any,
        "env lower-case state key": Any,
        "checkpointing on": Any,
        "client_app 'probe/1'": Any,
    },
)


def _env_seen(run: WireRun) -> EnvRun | NeverStarted:
    """The watched variables of the child's environment, what else the SDK added or removed."""
    if argv_of(run) is None:
        return never_started(run)
    return {
        "watched": {k: run.env.get(k) for k in _ENV_WATCHED},
        "cwd": run.cwd,
        "added": sorted(run.env_added),
        "removed": run.env_removed,
    }


@behaviour(
    id="wire.sdk-set-environment",
    claim=(
        "The CLI's environment is the SDK process's plus the env option, plus exactly what the SDK documents "
        "adding: CLAUDE_CODE_ENTRYPOINT=sdk-py unless env sets it, CLAUDE_AGENT_SDK_VERSION (always the "
        "package's version), CLAUDE_CODE_SDK_READS_SESSION_STATE=1 unless env sets it in any case, PWD set to "
        "cwd, CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true with enable_file_checkpointing, and "
        "CLAUDE_AGENT_SDK_CLIENT_APP from client_app."
    ),
    summary="The CLI gets the parent's environment plus env plus only the SDK's documented variables",
    security="what the SDK adds to the CLI's environment is what the CLI and its tools inherit",
    source=("sdk-py", "ClaudeAgentOptions"),
    tier="wire",
    checks=(
        "nothing-else-added-or-removed",
        "entrypoint-sdk-py-unless-env-sets-it",
        "sdk-version-always-the-packages",
        "env-entries-passed-on",
        "pwd-is-cwd",
        "session-state-frames-requested-unless-env-sets-it",
        "checkpointing-variable-only-when-on",
        "client-app-variable-from-option",
    ),
    requires=("option:env", "option:cwd", "option:enable_file_checkpointing"),
    pins={
        "env-entries-passed-on": ("option:env",),
        "pwd-is-cwd": ("option:cwd",),
        "checkpointing-variable-only-when-on": ("option:enable_file_checkpointing",),
        "client-app-variable-from-option": ("option:client_app",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
)
async def sdk_set_environment(h: Harness) -> EnvSeen:
    seen: EnvSeen = {
        "sdk version": published_version(),  # as published, not the constant the SDK reads itself
        "default": _env_seen(await h.wire()),
        "env overrides": _env_seen(await h.wire(env=dict(_OVERRIDES))),
        "env lower-case state key": _env_seen(await h.wire(env={_STATE.lower(): "0"})),
        "checkpointing on": _env_seen(await h.wire(enable_file_checkpointing=True)),
        "client_app 'probe/1'": _env_seen(await h.wire(client_app="probe/1"))
        if "client_app" in option_names()
        else option_absent("client_app"),
    }
    return seen


@sdk_set_environment.decide
def _(seen: EnvSeen) -> dict[str, Check]:
    runs = cast("dict[str, Any]", seen)  # each run looked at alike, by its label
    failed = [f"{run}: {runs[run]['error']}" for run in runs if isinstance(runs[run], dict) and "error" in runs[run]]
    if failed:
        return {name: check(False, "; ".join(failed)) for name in sdk_set_environment.behaviour.checks}
    default, overrides = seen["default"], seen["env overrides"]
    lower, checkpoints, app = seen["env lower-case state key"], seen["checkpointing on"], seen["client_app 'probe/1'"]
    d, o = default["watched"], overrides["watched"]
    extra = sorted(set(default["added"]) - set(_SDK_ADDS))
    removed = [k for k in default["removed"] if k != "CLAUDECODE"]
    return {
        "nothing-else-added-or-removed": check(
            not extra and not removed, f"the SDK also added {extra or 'nothing'} and removed {removed or 'nothing'}"
        ),
        "entrypoint-sdk-py-unless-env-sets-it": check(
            d[_ENTRYPOINT] == "sdk-py" and o[_ENTRYPOINT] == _OVERRIDES[_ENTRYPOINT],
            f"{_ENTRYPOINT} was {d[_ENTRYPOINT]!r} by default, {o[_ENTRYPOINT]!r} with env setting it",
        ),
        "sdk-version-always-the-packages": check(
            d[_VERSION] == seen["sdk version"] == o[_VERSION],
            f"{_VERSION} was {d[_VERSION]!r} by default and {o[_VERSION]!r} with env setting it "
            f"{_OVERRIDES[_VERSION]!r}; the package is {seen['sdk version']!r}",
        ),
        "env-entries-passed-on": check(
            o["SDKPROBE_ENV_MARK"] == "mark", f"env={{'SDKPROBE_ENV_MARK': 'mark'}} gave {o['SDKPROBE_ENV_MARK']!r}"
        ),
        "pwd-is-cwd": check(d["PWD"] == default["cwd"], f"PWD was {d['PWD']!r}, the CLI's cwd {default['cwd']!r}"),
        "session-state-frames-requested-unless-env-sets-it": check(
            d[_STATE] == "1" and lower["watched"][_STATE] is None,
            f"{_STATE} was {d[_STATE]!r} by default, {lower['watched'][_STATE]!r} with env setting {_STATE.lower()}",
        ),
        "checkpointing-variable-only-when-on": check(
            d[_CHECKPOINTS] is None and checkpoints["watched"][_CHECKPOINTS] == "true",
            f"{_CHECKPOINTS} was {d[_CHECKPOINTS]!r} by default, {checkpoints['watched'][_CHECKPOINTS]!r} "
            "with enable_file_checkpointing=True",
        ),
        "client-app-variable-from-option": undecidable(app["absent"])
        if "absent" in app
        else check(
            app["watched"][_CLIENT_APP] == "probe/1",
            f"{_CLIENT_APP} was {app['watched'][_CLIENT_APP]!r} with client_app='probe/1'",
        ),
    }


def _env_run(**watched: str | None) -> EnvRun:
    values: dict[str, str | None] = {k: None for k in _ENV_WATCHED}
    values.update(watched)
    return {"watched": values, "cwd": "/w", "added": sorted(k for k, v in values.items() if v), "removed": []}


_ENV_HOLDS: EnvSeen = {  # what a release that keeps the claim gives
    "sdk version": "0.2.189",
    "default": _env_run(**{_ENTRYPOINT: "sdk-py", _VERSION: "0.2.189", _STATE: "1", "PWD": "/w"}),
    "env overrides": _env_run(**{_ENTRYPOINT: "probe-entry", _VERSION: "0.2.189", "SDKPROBE_ENV_MARK": "mark"}),
    "env lower-case state key": _env_run(),
    "checkpointing on": _env_run(**{_CHECKPOINTS: "true"}),
    "client_app 'probe/1'": _env_run(**{_CLIENT_APP: "probe/1"}),
}
# a release published as 0.2.190 whose _version.py still says 0.2.189
sdk_set_environment.differs_on(_ENV_HOLDS | {"sdk version": "0.2.190"})
# the env option's entries lost on the way
sdk_set_environment.differs_on(_ENV_HOLDS | {"env overrides": _env_run(**{_ENTRYPOINT: "probe-entry"})})
sdk_set_environment.differs_on(
    {
        "sdk version": "0.2.189",
        "default": {
            **_env_run(**{_ENTRYPOINT: "sdk-ts", _VERSION: "0.0.0", _CHECKPOINTS: "true", "PWD": "/elsewhere"}),
            "added": [_ENTRYPOINT, "NODE_OPTIONS"],
            "removed": ["HOME"],
        },
        "env overrides": _env_run(**{_ENTRYPOINT: "sdk-py", _VERSION: "0.0.0-probe"}),
        "env lower-case state key": _env_run(**{_STATE: "1"}),
        "checkpointing on": _env_run(),
        "client_app 'probe/1'": _env_run(),
    }
)


# --- wire.host-guard-options -----------------------------------------------------------------

_MISSING_CLI = "/nonexistent/sdkprobe-claude"
_NO_SUCH_USER = "sdkprobe-no-such-user"
_SANDBOX = {"enabled": True, "autoAllowBashIfSandboxed": False, "excludedCommands": ["docker"]}
_SETTINGS = '{"permissions": {"allow": ["Read"]}}'
_MISSING_SETTINGS = "/nonexistent/sdkprobe-settings.json"
_VERBATIM_OLD_CLI = "2.1.200"  # older than the 2.1.248 the SDK names as the first to honour client_composed


def _raised(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]


async def _missing_cli(h: Harness, as_path: bool) -> str | None:
    """What query() raises when cli_path (a str, or a Path) names no file (the harness always
    names its fake, so this one run calls the SDK itself)."""
    from pathlib import Path

    from claude_agent_sdk import ClaudeAgentOptions, query

    cli_path = Path(_MISSING_CLI) if as_path else _MISSING_CLI
    options = ClaudeAgentOptions(cli_path=cli_path, cwd=str(h.workdir("cli-path")))
    try:
        async for _ in query(prompt="hi", options=options):
            pass
    except Exception as exc:  # what the SDK raises is the finding
        return _raised(exc)
    return None


def _settings_sent(run: WireRun) -> Any:
    """The --settings value as the JSON it encodes (the raw token when it is not JSON)."""
    if argv_of(run) is None:
        return never_started(run)
    value = run.flag("--settings")
    try:
        return None if value is None else json.loads(value)
    except ValueError:
        return value


def _composed(run: WireRun) -> Any:
    """Each user line's client_composed ('absent' without one), or why there was none."""
    if argv_of(run) is None or run.error_line:
        return never_started(run)
    return [m.get("client_composed", "absent") for m in run.user_messages]


@final
class Started(TypedDict):
    """Whether the SDK started the CLI, and what it raised."""

    started: bool
    error: str | None


# --settings as JSON (Any: the JSON, the raw token, or NeverStarted)
SettingsFiles = TypedDict(
    "SettingsFiles",
    {
        "sandbox with settings file": Any,
        "sandbox with settings file relative to cwd": Any,
        "sandbox with missing settings file": Started,
    },
)


async def _settings_files(h: Harness) -> SettingsFiles:
    """--settings with sandbox and a settings file named by an absolute path, by a path relative
    to cwd, and by a path to no file (then: whether the CLI started, and the error)."""
    folder = h.workdir("settings")
    (folder / "probe-settings.json").write_text(_SETTINGS, encoding="utf-8")
    absolute = await h.wire(sandbox=dict(_SANDBOX), settings=str(folder / "probe-settings.json"))
    relative = await h.wire(sandbox=dict(_SANDBOX), settings="probe-settings.json", cwd=str(folder))
    missing = await h.wire(sandbox=dict(_SANDBOX), settings=_MISSING_SETTINGS)
    return {
        "sandbox with settings file": _settings_sent(absolute),
        "sandbox with settings file relative to cwd": _settings_sent(relative),
        "sandbox with missing settings file": {"started": argv_of(missing) is not None, "error": missing.error_line},
    }


def _own_user() -> str | None:
    """The name of the user this process runs as: the one user any host lets it start a process
    as (None when the host's user database has no entry for it)."""
    import os
    import pwd

    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return None


Users = TypedDict("Users", {"own user": Absent | Started, "unknown user": Absent | Started})


async def _users(h: Harness) -> Users:
    """The CLI started as this process's own user and as a user that does not exist (each
    absent, with why, where the SDK has no user option or the user no name)."""
    no_user = lacks("option:user")
    if no_user is not None:
        return {"own user": {"absent": no_user}, "unknown user": {"absent": no_user}}
    me = _own_user()
    own = None if me is None else await h.wire(user=me)
    unknown = await h.wire(user=_NO_SUCH_USER)
    return {
        "own user": {"absent": "this process's user has no name in the host's user database"}
        if own is None
        else {"started": argv_of(own) is not None, "error": own.error_line},
        "unknown user": {"started": argv_of(unknown) is not None, "error": unknown.error_line},
    }


_HostRuns = TypedDict(
    "_HostRuns",
    {
        "default run started": bool,
        "missing cli_path": dict[str, str | None],  # str, Path -> what query() raised
        "sandbox alone": Any,  # --settings as JSON, as _settings_sent gives it
        "sandbox with settings": Any,
    },
)


class _Verbatim(TypedDict, total=False):  # not required: the probe adds it last
    # Absent, or each run's client_composed marks and the warnings logged (a key names the old CLI)
    verbatim: Any


class HostSeen(_HostRuns, _Verbatim, Users, SettingsFiles):
    """What wire.host-guard-options saw."""


@behaviour(
    id="wire.host-guard-options",
    claim=(
        "cli_path names the program the SDK starts (a path to no file raises CLINotFoundError naming it); user is "
        "the OS user the CLI is started as (the process's own user starts it, a user that does not exist fails the "
        "start, never running the CLI as the caller instead); sandbox is merged into the --settings JSON under "
        "'sandbox', beside what settings holds (inline JSON, or a file read relative to cwd), and settings that "
        "cannot be loaded raise CLIConnectionError rather than start the CLI without them; verbatim_prompts marks "
        "every user message client_composed: true (query() and ClaudeSDKClient.query() alike, none without it) and "
        "logs a warning with a CLI older than 2.1.248."
    ),
    summary="cli_path, user, sandbox and verbatim_prompts reach the process as documented",
    source=("sdk-py", "ClaudeAgentOptions"),
    tier="wire",
    checks=(
        "cli-path-is-the-program-started",
        "missing-cli-path-not-found",
        "own-user-starts-the-cli",
        "unknown-user-fails-the-start",
        "sandbox-alone-sent-in-settings",
        "sandbox-merged-with-settings",
        "sandbox-merged-with-settings-file",
        "settings-path-read-relative-to-cwd",
        "unloadable-settings-refused",
        "verbatim-prompts-marks-user-messages",
        "verbatim-prompts-warns-on-old-cli",
    ),
    requires=("option:cli_path", "option:sandbox", "option:settings"),
    pins={
        "cli-path-is-the-program-started": ("option:cli_path",),
        "missing-cli-path-not-found": ("option:cli_path",),
        "own-user-starts-the-cli": ("option:user",),
        "unknown-user-fails-the-start": ("option:user",),
        "sandbox-alone-sent-in-settings": ("option:sandbox", "option:settings"),
        "sandbox-merged-with-settings": ("option:sandbox", "option:settings"),
        "sandbox-merged-with-settings-file": ("option:sandbox", "option:settings"),
        "settings-path-read-relative-to-cwd": ("option:settings",),
        "unloadable-settings-refused": ("option:settings",),
        "verbatim-prompts-marks-user-messages": ("option:verbatim_prompts",),
        "verbatim-prompts-warns-on-old-cli": ("option:verbatim_prompts",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
    security="the SDK running another program, as another user, unsandboxed, or letting @path text read files",
)
async def host_guard_options(h: Harness) -> HostSeen:
    plain = await h.wire()
    seen: HostSeen = {
        "default run started": argv_of(plain) is not None and plain.error_line is None,
        **await _users(h),
        "missing cli_path": {"str": await _missing_cli(h, False), "Path": await _missing_cli(h, True)}
        if sdk_class("CLINotFoundError") is not None
        else {"absent": "this SDK has no CLINotFoundError class (a missing cli_path is tried only with one)"},
        "sandbox alone": _settings_sent(await h.wire(sandbox=dict(_SANDBOX))),
        "sandbox with settings": _settings_sent(await h.wire(sandbox=dict(_SANDBOX), settings=_SETTINGS)),
        # mypy wants "verbatim" (not required, set below) in a ** item; a misspelt key is still flagged
        **await _settings_files(h),  # type: ignore[typeddict-item]
    }
    if "verbatim_prompts" not in option_names():
        seen["verbatim"] = option_absent("verbatim_prompts")
        return seen
    on = await h.wire(verbatim_prompts=True)
    old = await h.wire(scenario=Scenario(cli_version=_VERBATIM_OLD_CLI).turn(), verbatim_prompts=True)
    seen["verbatim"] = {
        "query()": _composed(on),
        "client.query()": _composed(await h.wire(client=True, verbatim_prompts=True)),
        "off": _composed(plain),
        "warnings, current CLI": [x for x in on.log if "verbatim" in x],
        f"warnings, CLI {_VERBATIM_OLD_CLI}": [x for x in old.log if "verbatim" in x],
    }
    return seen


@host_guard_options.decide
def _(seen: HostSeen) -> dict[str, Check]:
    own, unknown, missing = seen["own user"], seen["unknown user"], seen["missing cli_path"]
    alone, merged = seen["sandbox alone"], seen["sandbox with settings"]
    checks = {
        "cli-path-is-the-program-started": check(
            seen["default run started"], "the program cli_path named (the fake CLI) was not started for the session"
        ),
        "missing-cli-path-not-found": undecidable(str(missing["absent"]))
        if "absent" in missing
        else check(
            all(m is not None and m.startswith("CLINotFoundError") and _MISSING_CLI in m for m in missing.values()),
            "; ".join(f"cli_path={_MISSING_CLI!r} as a {kind} raised {m or 'nothing'}" for kind, m in missing.items()),
        ),
        "own-user-starts-the-cli": undecidable(own["absent"])
        if "absent" in own
        else check(
            own["started"] and own["error"] is None,
            f"user=<this process's user> started the CLI: {own['started']} (error {own['error']})",
        ),
        "unknown-user-fails-the-start": undecidable(unknown["absent"])
        if "absent" in unknown
        else check(
            not unknown["started"] and unknown["error"] is not None,
            f"user={_NO_SUCH_USER!r} started the CLI: {unknown['started']} (error {unknown['error']})",
        ),
        "sandbox-alone-sent-in-settings": check(
            alone == {"sandbox": _SANDBOX}, f"sandbox={_SANDBOX} alone sent --settings {alone!r}"
        ),
        "sandbox-merged-with-settings": check(
            merged == {**json.loads(_SETTINGS), "sandbox": _SANDBOX},
            f"sandbox with settings={_SETTINGS} sent --settings {merged!r}",
        ),
    }
    files: tuple[
        tuple[str, Literal["sandbox with settings file", "sandbox with settings file relative to cwd"], str], ...
    ] = (
        ("sandbox-merged-with-settings-file", "sandbox with settings file", "an absolute path"),
        ("settings-path-read-relative-to-cwd", "sandbox with settings file relative to cwd", "a path relative to cwd"),
    )
    for name, run, given in files:
        got = seen[run]
        checks[name] = check(
            got == {**json.loads(_SETTINGS), "sandbox": _SANDBOX},
            f"sandbox with settings as {given} to a file holding {_SETTINGS} sent --settings {got!r}",
        )
    unloadable = seen["sandbox with missing settings file"]
    checks["unloadable-settings-refused"] = check(
        not unloadable["started"] and (unloadable["error"] or "").startswith("CLIConnectionError"),
        f"sandbox with settings={_MISSING_SETTINGS!r} started the CLI: {unloadable['started']} "
        f"(error {unloadable['error']})",
    )
    verbatim = seen["verbatim"]
    if "absent" in verbatim:
        checks["verbatim-prompts-marks-user-messages"] = undecidable(verbatim["absent"])
        checks["verbatim-prompts-warns-on-old-cli"] = undecidable(verbatim["absent"])
        return checks
    marked = {k: verbatim[k] for k in ("query()", "client.query()", "off")}
    checks["verbatim-prompts-marks-user-messages"] = check(
        marked == {"query()": [True], "client.query()": [True], "off": ["absent"]},
        f"client_composed per user line: {marked}",
    )
    current, old = verbatim["warnings, current CLI"], verbatim[f"warnings, CLI {_VERBATIM_OLD_CLI}"]
    checks["verbatim-prompts-warns-on-old-cli"] = check(
        bool(old) and not current,
        f"with CLI {_VERBATIM_OLD_CLI} the SDK logged {old or 'no warning'}; with the current CLI {current or 'none'}",
    )
    return checks


host_guard_options.differs_on(
    {
        "default run started": False,
        "missing cli_path": {"str": "CLIConnectionError: Failed to start Claude Code", "Path": None},
        "own user": {
            "started": False,
            "error": "CLIConnectionError: Failed to start Claude Code: Operation not permitted",
        },
        "unknown user": {"started": True, "error": None},
        "sandbox alone": None,
        "sandbox with settings": {"sandbox": _SANDBOX},
        "sandbox with settings file": {"sandbox": _SANDBOX},
        "sandbox with settings file relative to cwd": {"sandbox": _SANDBOX},
        "sandbox with missing settings file": {"started": True, "error": None},
        "verbatim": {
            "query()": ["absent"],
            "client.query()": [True],
            "off": [True],
            "warnings, current CLI": [],
            f"warnings, CLI {_VERBATIM_OLD_CLI}": [],
        },
    }
)


# --- wire.store-and-stderr-options -----------------------------------------------------------

_CONFIG_DIR = "/nonexistent/sdkprobe-config"  # CLAUDE_CONFIG_DIR: where the SDK reads transcript paths from
_RESUMED = "0e3c8a5e-1f7d-4a55-9d3c-6c1f1e2d3b4a"  # a session id to resume (resume takes only a UUID)
_LOAD_TIMEOUT_MS = 200  # far below the 10 s the run may take; the default 60 000 ms is far above it
_STDERR_LINE = "probe stderr line"
# An eager flush is a background task: waited for (the store says when its appends reach the
# two frames), up to a ceiling only a flush that never comes reaches. A batched one is judged
# on order alone: the frames came before the assistant message, and a batch flushes once per
# turn, so nothing is in the store while the caller holds that message.
_EAGER_CEILING = 60.0


class _Store:
    """A SessionStore (duck-typed, as the SDK allows): records append() calls; load() never settles."""

    def __init__(self) -> None:
        import asyncio

        self.appended: list[int] = []  # the entries of each append() call
        self.grew = asyncio.Event()  # set at each append(): a waiter looks again

    async def append(self, key: Any, entries: list[Any]) -> None:
        self.appended.append(len(entries))
        self.grew.set()

    async def holds(self, entries: int, ceiling: float) -> None:
        """Return once `entries` entries were appended, or at the ceiling (the count tells which)."""
        import asyncio

        async def grown() -> None:
            while sum(self.appended) < entries:
                self.grew.clear()
                await self.grew.wait()

        try:
            await asyncio.wait_for(grown(), ceiling)
        except asyncio.TimeoutError:
            pass

    async def load(self, key: Any) -> Any:
        import asyncio

        await asyncio.Event().wait()  # an adapter that never answers


def _mirrored() -> Scenario:
    """A turn whose CLI mirrors two transcript frames before its assistant message, and sends
    its result only once a second user line comes (the SDK reads ahead of its caller: a
    result already sent would be read, and a batch flushed, before the caller saw the
    assistant message)."""
    path = f"{_CONFIG_DIR}/projects/-probe/{_RESUMED}.jsonl"
    scenario = Scenario().wait_for_user().init()
    for n in (1, 2):
        scenario.emit({"type": "transcript_mirror", "filePath": path, "entries": [{"type": "probe-entry", "n": n}]})
    return scenario.assistant("mirrored").wait_for_user().result(result="mirrored")


# how many entries the store had when the assistant message came, and when the result came
_Counts = TypedDict("_Counts", {"at assistant": int, "at result": int}, total=False)


@final
class Flushed(_Counts):
    error: str | None


# Built key by key, so no key is required; "hung load" is Absent, {"error", "cli started"} or {"hung"};
# "debug run error" is there only when the SDK has debug_stderr.
StoreSeen = TypedDict(
    "StoreSeen",
    {
        "hung load": Any,
        "flush eager": Absent | Flushed,
        "flush batched": Absent | Flushed,
        "debug_stderr got": list[str] | Absent,
        "debug run error": str | None,
    },
    total=False,
)


async def _flush_seen(h: Harness, mode: str) -> Flushed:
    """How many entries the store had when the assistant message came, and when the result came."""
    import asyncio

    store = _Store()
    counts: _Counts = {}

    async def drive(client: Any, out: Any) -> None:
        await client.query("go")
        async for message in client.receive_response():
            kind = type(message).__name__
            if kind == "AssistantMessage":
                if mode == "eager":
                    await store.holds(2, _EAGER_CEILING)
                else:
                    for _ in range(20):  # let every task the frames started run; no clock decides
                        await asyncio.sleep(0)
                counts["at assistant"] = sum(store.appended)
                await client.query("release the result")
            elif kind == "ResultMessage":
                counts["at result"] = sum(store.appended)

    run = await h.wire(
        None,
        scenario=_mirrored(),
        client=True,
        drive=drive,
        session_store=store,
        session_store_flush=mode,
        env={"CLAUDE_CONFIG_DIR": _CONFIG_DIR},
        timeout=_EAGER_CEILING + 30,
    )
    return {**counts, "error": run.error_line}


@behaviour(
    id="wire.store-and-stderr-options",
    claim=(
        "load_timeout_ms bounds each session_store.load() while resume is materialized: a load that never settles "
        "fails the query with a timeout error within it, before any CLI starts; session_store_flush 'eager' hands "
        "each mirrored transcript frame to session_store.append() as it comes, 'batched' (the default) only once the "
        "turn's result comes; debug_stderr is deprecated and no longer read: with debug-to-stderr in extra_args "
        "nothing of the CLI's stderr is written to it."
    ),
    summary="load_timeout_ms bounds store loads; flush mode times appends; debug_stderr is unread",
    source=("sdk-py", "ClaudeAgentOptions"),
    tier="wire",
    checks=(
        "load-timeout-fails-hung-load",
        "eager-flush-appends-each-frame",
        "batched-flush-appends-at-result",
        "debug-stderr-not-written",
    ),
    requires=("option:extra_args",),
    pins={
        "load-timeout-fails-hung-load": ("option:load_timeout_ms",),
        "eager-flush-appends-each-frame": ("option:session_store_flush", "value:SessionStoreFlush=eager"),
        "batched-flush-appends-at-result": ("option:session_store_flush", "value:SessionStoreFlush=batched"),
        "debug-stderr-not-written": ("option:debug_stderr",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions",
)
async def store_and_stderr_options(h: Harness) -> StoreSeen:
    import io

    fields = option_names()
    seen: StoreSeen = {}
    if {"session_store", "load_timeout_ms"} <= fields:
        try:
            run = await h.wire(session_store=_Store(), resume=_RESUMED, load_timeout_ms=_LOAD_TIMEOUT_MS)
            seen["hung load"] = {"error": run.error_line, "cli started": argv_of(run) is not None}
        except ProbeTimeout as exc:  # the timeout was not honoured: the run outlived its ceiling
            seen["hung load"] = {"hung": str(exc)}
    else:
        seen["hung load"] = option_absent("load_timeout_ms")
    for mode in ("eager", "batched"):
        cast("dict[str, Any]", seen)[f"flush {mode}"] = (
            await _flush_seen(h, mode) if "session_store_flush" in fields else option_absent("session_store_flush")
        )
    no_debug_stderr = lacks("option:debug_stderr")
    if no_debug_stderr is not None:
        seen["debug_stderr got"] = {"absent": no_debug_stderr}
        return seen
    sink = io.StringIO()
    run = await h.wire(
        scenario=Scenario().stderr(_STDERR_LINE + "\n").turn(), extra_args={"debug-to-stderr": None}, debug_stderr=sink
    )
    seen["debug_stderr got"] = sink.getvalue().splitlines()
    seen["debug run error"] = run.error_line
    return seen


@store_and_stderr_options.decide
def _(seen: StoreSeen) -> dict[str, Check]:
    hung, eager, batched = seen["hung load"], seen["flush eager"], seen["flush batched"]
    checks: dict[str, Check] = {}
    if "absent" in hung:
        checks["load-timeout-fails-hung-load"] = undecidable(hung["absent"])
    else:
        error = hung.get("error") or ""
        checks["load-timeout-fails-hung-load"] = check(
            "timed out" in error.lower() and hung.get("cli started") is False,
            f"a load() that never settles, load_timeout_ms={_LOAD_TIMEOUT_MS}: "
            + (hung["hung"] if "hung" in hung else f"raised {error or 'nothing'}, CLI started {hung['cli started']}"),
        )
    for name, run, claimed in (
        ("eager-flush-appends-each-frame", eager, {"at assistant": 2, "at result": 2}),
        ("batched-flush-appends-at-result", batched, {"at assistant": 0, "at result": 2}),
    ):
        if "absent" in run:
            checks[name] = undecidable(run["absent"])
            continue
        counted = {k: run.get(k) for k in claimed}
        checks[name] = check(
            counted == claimed and run["error"] is None,
            f"entries appended to the store {counted}, not {claimed}"
            if counted != claimed
            else f"error {run['error']}",
        )
    got = seen["debug_stderr got"]
    if isinstance(got, dict):
        checks["debug-stderr-not-written"] = undecidable(got["absent"])
        return checks
    checks["debug-stderr-not-written"] = check(
        not got and seen["debug run error"] is None,
        f"with debug-to-stderr the CLI's stderr line {_STDERR_LINE!r} was written to debug_stderr as {got}"
        if got
        else f"error {seen['debug run error']}",
    )
    return checks


store_and_stderr_options.differs_on(
    {
        "hung load": {"error": None, "cli started": True},
        "flush eager": {"at assistant": 0, "at result": 2, "error": None},
        "flush batched": {"at assistant": 2, "at result": 2, "error": None},
        "debug_stderr got": [_STDERR_LINE],
        "debug run error": None,
    }
)
store_and_stderr_options.differs_on(
    {
        "hung load": {"hung": "the SDK did not finish within 10 s (0 messages received)"},
        "flush eager": {"at assistant": 2, "at result": 2, "error": "CLIConnectionError: boom"},
        "flush batched": {"at assistant": 0, "at result": 1, "error": None},
        "debug_stderr got": [],
        "debug run error": "CLIConnectionError: boom",
    }
)

# --- wire.version-probe-spawn ----------------------------------------------------------

_SKIP = "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK"
_OLD = "1.0.0"
_VERSION_WARNING = "Minimum required version"


# how the fake was started for one session, and whether the SDK warned about its version
Spawns = TypedDict("Spawns", {"starts": int, "version probes": int, "version warnings": int, "error": str | None})
_Session = Literal["query", "client", "no version", "skip variable"]
VersionSeen = TypedDict(
    "VersionSeen", {"query": Spawns, "client": Spawns, "no version": Spawns, "skip variable": Spawns}
)


def _spawns(run: WireRun) -> Spawns:
    """How the fake was started for one session, and whether the SDK warned about its version."""
    said = [*run.log, *run.warnings]
    return {
        "starts": len(run.starts),
        "version probes": sum(1 for s in run.starts if s["argv"][:1] in (["-v"], ["--version"])),
        "version warnings": sum(1 for line in said if _VERSION_WARNING in line),
        "error": run.error_line,
    }


async def _with_skip(h: Harness, scenario: Scenario) -> WireRun:
    """A query() with the skip variable in the caller's environment (where the SDK reads it)."""
    before = os.environ.get(_SKIP)
    os.environ[_SKIP] = "1"
    try:
        return await h.wire(scenario=scenario)
    finally:
        if before is None:
            del os.environ[_SKIP]
        else:
            os.environ[_SKIP] = before


@behaviour(
    id="wire.version-probe-spawn",
    claim=(
        "connect(), for query() and for ClaudeSDKClient alike, starts cli_path once per session, with the "
        "session's arguments, and no separate `-v` process; a CLI older than the SDK's minimum, or one that "
        "reports no version, is warned about, and CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK only silences that warning."
    ),
    summary="connect() starts the CLI once, no -v probe; an old CLI is warned about unless skipped",
    source=("sdk-py", "SubprocessCLITransport._check_claude_version"),
    tier="wire",
    checks=(
        "query-starts-cli-once",
        "client-starts-cli-once",
        "old-version-warned",
        "missing-version-warned",
        "skip-variable-silences-warning",
    ),
    requires=("option:cli_path",),
    pins={
        "query-starts-cli-once": ("option:cli_path",),
        "client-starts-cli-once": ("option:cli_path",),
        "old-version-warned": ("option:cli_path",),
        "missing-version-warned": ("option:cli_path",),
        "skip-variable-silences-warning": ("option:cli_path",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._check_claude_version",
)
async def version_probe_spawn(h: Harness) -> VersionSeen:
    def old() -> Scenario:
        return Scenario(cli_version=_OLD).turn()

    def unversioned() -> Scenario:
        # an init without a version; the fake still answers a `-v` probe with _OLD
        return Scenario(cli_version=_OLD).wait_for_user().init(claude_code_version=None).assistant("hi").result()

    return {
        "query": _spawns(await h.wire(scenario=old())),
        "client": _spawns(await h.wire(scenario=old(), client=True)),
        "no version": _spawns(await h.wire(scenario=unversioned())),
        "skip variable": _spawns(await _with_skip(h, unversioned())),
    }


@version_probe_spawn.decide
def _(seen: VersionSeen) -> dict[str, Check]:
    def said(label: _Session) -> str:
        s = seen[label]
        return (
            f"{label}: the fake was started {s['starts']} time(s), {s['version probes']} of them a -v probe; "
            f"{s['version warnings']} version warning(s) (error {s['error']})"
        )

    def once(label: _Session) -> bool:
        s = seen[label]
        return bool(s["starts"] == 1 and s["version probes"] == 0)

    skipped = seen["skip variable"]
    return {
        "query-starts-cli-once": check(once("query"), said("query")),
        "client-starts-cli-once": check(once("client"), said("client")),
        "old-version-warned": check(seen["query"]["version warnings"] > 0, f"CLI version {_OLD}: " + said("query")),
        "missing-version-warned": check(
            seen["no version"]["version warnings"] > 0, "init without claude_code_version: " + said("no version")
        ),
        "skip-variable-silences-warning": check(
            skipped["version warnings"] == 0 and skipped["error"] is None and skipped["starts"] >= 1,
            f"{_SKIP}=1, init without claude_code_version: " + said("skip variable"),
        ),
    }


version_probe_spawn.differs_on(
    {
        "query": {"starts": 2, "version probes": 1, "version warnings": 0, "error": None},
        "client": {"starts": 2, "version probes": 1, "version warnings": 1, "error": None},
        "no version": {"starts": 1, "version probes": 0, "version warnings": 0, "error": None},
        "skip variable": {"starts": 1, "version probes": 0, "version warnings": 1, "error": None},
    }
)
