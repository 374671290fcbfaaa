"""Area `wire`, topic options: the ordinary contract of each option, as the SDK documents it.

What every option sends the CLI (its argv tokens, the environment, the initialize request),
for its default and a typical value, so that a gate notices when an option stops reaching
the CLI or starts sending something else. Where an option is newer than some SDK versions,
only its own sub-check is not-applicable there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    Harness,
    ProbeTimeout,
    Scenario,
    WireCapture,
    lacks,
    published_version,
    typed_keys,
)

_TRANSPORT = "claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command"


def _fields() -> set[str]:
    """The options the SDK under test takes, by their Python names (read while the probe runs)."""
    from sdkprobe.harness import option_fields

    return option_fields()


def _absent(option: str) -> dict[str, str]:
    return {"absent": f"ClaudeAgentOptions of this SDK has no field {option!r}"}


def _change(default: list[str], argv: list[str]) -> dict[str, list[str]]:
    """What a run's argv added to, and took from, the default run's argv, in order: the
    middles left once the longest common prefix and suffix are set aside."""
    head = 0
    while head < min(len(default), len(argv)) and default[head] == argv[head]:
        head += 1
    tail = 0
    while tail < min(len(default), len(argv)) - head and default[-1 - tail] == argv[-1 - tail]:
        tail += 1
    return {"added": argv[head : len(argv) - tail], "removed": default[head : len(default) - tail]}


def _same_tokens(seen: list[str], claimed: list[str]) -> bool:
    """Token by token equal, a JSON object token compared as the object it encodes (spacing
    aside); any other token exactly ('1.0' is not '1')."""
    if len(seen) != len(claimed):
        return False
    for a, b in zip(seen, claimed, strict=True):
        if a == b:
            continue
        if not (a.startswith("{") and b.startswith("{")):
            return False
        try:
            if json.loads(a) != json.loads(b):
                return False
        except ValueError:
            return False
    return True


def _argv(run: WireCapture) -> list[str] | None:
    """The session's argv, or None when the SDK never started the CLI (it refused first)."""
    try:
        return run.argv
    except AssertionError:
        return None


def _failed(run: WireCapture) -> dict[str, str]:
    return {"error": run.error_line or "the SDK never started the CLI and raised nothing"}


# --- wire.option-flags-and-defaults --------------------------------------------------------

# What ClaudeAgentOptions() starts the CLI with: the four fixed flags and an empty system prompt.
_DEFAULT_ARGV = ["--output-format", "stream-json", "--verbose", "--system-prompt", "", "--input-format", "stream-json"]
_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
_MCP_JSON = '{"mcpServers": {"probe": {"command": "probe-server"}}}'
_MCP_PATH = "/nonexistent/sdkprobe-mcp.json"


@dataclass(frozen=True)
class _Built:
    """A value the probe builds when it runs (a Path, an SDK server), named in the table."""

    what: str


# sub-check: (option, {value's label: (the value, the argv tokens it adds to the default run)})
_FLAG_VALUES: dict[str, tuple[str, dict[str, tuple[Any, list[str]]]]] = {
    "continue-conversation-sent": ("continue_conversation", {"True": (True, ["--continue"])}),
    "max-budget-usd-sent": (
        "max_budget_usd",
        {
            "0.5": (0.5, ["--max-budget-usd", "0.5"]),
            "1": (1, ["--max-budget-usd", "1"]),
            "0": (0, ["--max-budget-usd", "0"]),
        },
    ),
    "add-dirs-sent": ("add_dirs", {"['/a', Path('/b')]": (_Built("paths"), ["--add-dir", "/a", "--add-dir", "/b"])}),
    "fallback-model-sent": (
        "fallback_model",
        {"'probe-fallback'": ("probe-fallback", ["--fallback-model", "probe-fallback"])},
    ),
    "betas-sent": (
        "betas",
        {"two betas": (["beta-one", "beta-two"], ["--betas", "beta-one,beta-two"])},
    ),
    "permission-mode-sent": (
        "permission_mode",
        {
            **{
                repr(mode): (mode, ["--permission-mode", mode])
                for mode in ("default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto")
            },
            "''": ("", []),
        },
    ),
    "mcp-servers-sent": (
        "mcp_servers",
        {
            "JSON string": (_MCP_JSON, ["--mcp-config", _MCP_JSON]),
            "Path": (_Built("mcp path"), ["--mcp-config", _MCP_PATH]),
            "dict with an sdk server": (
                _Built("sdk server"),
                ["--mcp-config", json.dumps({"mcpServers": {"probe": {"type": "sdk", "name": "probe"}}})],
            ),
            "{}": ({}, []),
        },
    ),
    "include-partial-messages-sent": ("include_partial_messages", {"True": (True, ["--include-partial-messages"])}),
    "fork-session-sent": ("fork_session", {"True": (True, ["--fork-session"])}),
    "extra-args-sent": (
        "extra_args",
        {
            "{'probe-flag': None}": ({"probe-flag": None}, ["--probe-flag"]),
            "{'probe-flag': 'v'}": ({"probe-flag": "v"}, ["--probe-flag", "v"]),
        },
    ),
    "output-format-sent": (
        "output_format",
        {
            "json_schema": ({"type": "json_schema", "schema": _SCHEMA}, ["--json-schema", json.dumps(_SCHEMA)]),
            "type json": ({"type": "json", "schema": _SCHEMA}, []),
        },
    ),
    "max-thinking-tokens-sent": (
        "max_thinking_tokens",
        {
            "2048": (2048, ["--max-thinking-tokens", "2048"]),
            "0": (0, ["--max-thinking-tokens", "0"]),
        },
    ),
    # Newer than some listed SDK versions: their sub-checks are not-applicable there.
    "thinking-sent": (
        "thinking",
        {
            "adaptive": ({"type": "adaptive"}, ["--thinking", "adaptive"]),
            "enabled 1024": ({"type": "enabled", "budget_tokens": 1024}, ["--max-thinking-tokens", "1024"]),
            "disabled": ({"type": "disabled"}, ["--thinking", "disabled"]),
        },
    ),
    "effort-sent": ("effort", {"'high'": ("high", ["--effort", "high"])}),
    "task-budget-sent": ("task_budget", {"total 5000": ({"total": 5000}, ["--task-budget", "5000"])}),
    "strict-mcp-config-sent": ("strict_mcp_config", {"True": (True, ["--strict-mcp-config"])}),
    "include-hook-events-sent": ("include_hook_events", {"True": (True, ["--include-hook-events"])}),
}
# The options every listed SDK version has; the rest are checked where they exist.
_ALWAYS = (
    "continue_conversation",
    "max_budget_usd",
    "add_dirs",
    "fallback_model",
    "betas",
    "permission_mode",
    "mcp_servers",
    "include_partial_messages",
    "fork_session",
    "extra_args",
    "output_format",
    "max_thinking_tokens",
)


def _value(value: Any) -> Any:
    """The option value a table entry stands for, built with the SDK's own types."""
    from pathlib import Path

    if not isinstance(value, _Built):
        return value
    if value.what == "paths":
        return ["/a", Path("/b")]
    if value.what == "mcp path":
        return Path(_MCP_PATH)
    if value.what == "sdk server":
        from claude_agent_sdk import create_sdk_mcp_server

        return {"probe": create_sdk_mcp_server(name="probe")}
    raise ValueError(f"the table names a value no probe builds: {value.what!r}")


@behaviour(
    id="wire.option-flags-and-defaults",
    claim=(
        "ClaudeAgentOptions() starts the CLI with only --output-format stream-json, --verbose, an empty "
        "--system-prompt and --input-format stream-json; and each option that maps to a flag adds exactly "
        "its documented tokens to that (e.g. continue_conversation --continue, max_budget_usd "
        "--max-budget-usd with str(value) even for 0, one --add-dir per entry, extra_args None a bare flag, "
        "output_format json_schema --json-schema, any other type nothing)."
    ),
    summary="The default argv is the fixed flags; each flag option adds exactly its documented tokens",
    source=("sdk-py", "ClaudeAgentOptions"),
    tier="wire",
    checks=("default-argv-fixed-flags-only", *_FLAG_VALUES),
    requires=tuple(f"option:{o}" for o in _ALWAYS),
    # every option its sub-check pins, also those only some versions have (not-applicable before)
    pins={name: (f"option:{option}",) for name, (option, _) in _FLAG_VALUES.items()},
    sdk_ref=_TRANSPORT,
)
async def option_flags_and_defaults(h: Harness) -> dict[str, Any]:
    fields = _fields()
    default = (await h.wire()).argv
    seen: dict[str, Any] = {"default": default}
    for name, (option, values) in _FLAG_VALUES.items():
        if option not in fields:
            seen[name] = _absent(option)
            continue
        runs: dict[str, Any] = {}
        for label, (value, _) in values.items():
            run = await h.wire(**{option: _value(value)})
            argv = _argv(run)
            runs[label] = _change(default, argv) if argv is not None and run.error_line is None else _failed(run)
        seen[name] = runs
    return seen


@option_flags_and_defaults.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {
        "default-argv-fixed-flags-only": check(
            seen["default"] == _DEFAULT_ARGV, f"ClaudeAgentOptions() started the CLI with {seen['default']}"
        )
    }
    for name, (option, values) in _FLAG_VALUES.items():
        runs = seen[name]
        if "absent" in runs:
            checks[name] = undecidable(runs["absent"])
            continue
        wrong = []
        for label, (_, claimed) in values.items():
            run = runs[label]
            if "error" in run:
                wrong.append(f"{option}={label} raised {run['error']}")
            elif run["removed"] or not _same_tokens(run["added"], claimed):
                wrong.append(
                    f"{option}={label} added {run['added']}"
                    + (f" and removed {run['removed']}" if run["removed"] else "")
                    + f", not {claimed}"
                )
        checks[name] = check(not wrong, "; ".join(wrong))
    return checks


def _sent_as_claimed() -> dict[str, Any]:
    return {
        name: {label: {"added": claimed, "removed": []} for label, (_, claimed) in values.items()}
        for name, (_, values) in _FLAG_VALUES.items()
    }


def _counterexample() -> dict[str, Any]:
    """Every option's first value sending nothing, the default run carrying a settings flag."""
    seen: dict[str, Any] = {"default": [*_DEFAULT_ARGV[:-2], "--setting-sources", "", *_DEFAULT_ARGV[-2:]]}
    for name, runs in _sent_as_claimed().items():
        first = next(iter(runs))
        wrong = {"added": [], "removed": []} if runs[first]["added"] else {"added": ["--x"], "removed": []}
        seen[name] = {**runs, first: wrong}
    return seen


option_flags_and_defaults.differs_on(_counterexample())


# --- wire.dash-leading-values-stay-values ----------------------------------------------------

_DASHED = "--dangerously-skip-permissions"  # a value an attacker would like read as a flag
# sub-check: (option, the value given it, the argv form the value must travel in: its flag
# with the value as the next token (a required value), or one `--flag=value` token)
_DASHED_OPTIONS: dict[str, tuple[str, Any, str, str]] = {
    "model-stays-a-value": ("model", _DASHED, "--model", "pair"),
    "fallback-model-stays-a-value": ("fallback_model", _DASHED, "--fallback-model", "pair"),
    "system-prompt-stays-a-value": ("system_prompt", _DASHED, "--system-prompt", "pair"),
    "permission-prompt-tool-stays-a-value": (
        "permission_prompt_tool_name",
        _DASHED,
        "--permission-prompt-tool",
        "pair",
    ),
    "settings-stays-a-value": ("settings", _DASHED, "--settings", "pair"),
    "resume-stays-one-token": ("resume", _DASHED, "--resume", "equals"),
    "extra-args-value-stays-one-token": (
        "extra_args",
        {"append-system-prompt": _DASHED},
        "--append-system-prompt",
        "equals",
    ),
    # newer than some listed SDK versions
    "session-id-stays-one-token": ("session_id", _DASHED, "--session-id", "equals"),
    "resume-session-at-stays-one-token": ("resume_session_at", _DASHED, "--resume-session-at", "equals"),
    "resume-drops-turn-stays-one-token": ("resume_drops_turn", _DASHED, "--resume-drops-turn", "equals"),
}
_DASHED_ALWAYS = (
    "model",
    "fallback_model",
    "system_prompt",
    "permission_prompt_tool_name",
    "settings",
    "resume",
    "extra_args",
)


def _written(argv: list[str], flag: str) -> str | None:
    """`flag` as written: `--x=v` as is, `--x` with the next token joined by a space, None when absent."""
    for i, arg in enumerate(argv):
        if arg.startswith(flag + "="):
            return arg
        if arg == flag:
            return f"{flag} {argv[i + 1]}" if i + 1 < len(argv) else flag
    return None


@behaviour(
    id="wire.dash-leading-values-stay-values",
    claim=(
        "A value starting with '--' (here --dangerously-skip-permissions) given to model, fallback_model, "
        "system_prompt, permission_prompt_tool_name or settings travels bound to its flag (the token after it, "
        "or one --flag=value token), and given to resume, session_id, resume_session_at, resume_drops_turn or "
        "as an extra_args value as one --flag=value token (their flags take an optional value), or it stays "
        "off the command line: it never stands in argv as a flag of its own."
    ),
    summary="A dash-leading option value stays bound to its flag, never a flag token of its own",
    security="a value read as a flag (--dangerously-skip-permissions) would switch off permission checks",
    source=("sdk-py", "ClaudeAgentOptions"),
    tier="wire",
    checks=tuple(_DASHED_OPTIONS),
    requires=tuple(f"option:{o}" for o in _DASHED_ALWAYS),
    pins={name: (f"option:{option}",) for name, (option, *_) in _DASHED_OPTIONS.items()},
    sdk_ref=_TRANSPORT,
)
async def dash_leading_values_stay_values(h: Harness) -> dict[str, Any]:
    fields = _fields()
    seen: dict[str, Any] = {}
    for name, (option, value, flag, _) in _DASHED_OPTIONS.items():
        if option not in fields:
            seen[name] = _absent(option)
            continue
        run = await h.wire(**{option: value})
        argv = _argv(run)
        if argv is None:  # refused before any CLI started: the value reached no argv
            seen[name] = {"refused": run.error_line or "the SDK never started the CLI"}
            continue
        # how the flag was written (read here: flag_spelling takes a dash-leading next token for
        # a flag of its own, which is the question), and what stands before each bare value token
        seen[name] = {
            "spelling": _written(argv, flag),
            "value tokens preceded by": [argv[i - 1] if i else None for i, a in enumerate(argv) if a == _DASHED],
        }
    return seen


@dash_leading_values_stay_values.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for name, (option, _, flag, form) in _DASHED_OPTIONS.items():
        run = seen[name]
        if "absent" in run:
            checks[name] = undecidable(run["absent"])
            continue
        if "refused" in run:
            checks[name] = check(True, "")
            continue
        # safe: bound to its flag in a form the CLI reads as its value, or not on argv at all
        bound = [f"{flag}={_DASHED}", *([f"{flag} {_DASHED}"] if form == "pair" else [])]
        alone = [p for p in run["value tokens preceded by"] if form == "equals" or p != flag]
        checks[name] = check(
            run["spelling"] in (*bound, None) and not alone,
            f"{option}={_DASHED!r} was written {run['spelling'] or 'nowhere'}"
            + (f"; {_DASHED} stood as a token of its own after {alone}" if alone else "")
            + f", not {' or '.join(map(repr, bound))}",
        )
    return checks


dash_leading_values_stay_values.differs_on(
    {
        name: {
            "spelling": flag if form == "pair" else f"{flag} {_DASHED}",
            "value tokens preceded by": [flag if form == "equals" else "--verbose"],
        }
        for name, (_, _, flag, form) in _DASHED_OPTIONS.items()
    }
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


def _env_seen(run: WireCapture) -> dict[str, Any]:
    """The watched variables of the child's environment, what else the SDK added or removed."""
    if _argv(run) is None:
        return _failed(run)
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
async def sdk_set_environment(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {
        "sdk version": published_version(),  # as published, not the constant the SDK reads itself
        "default": _env_seen(await h.wire()),
        "env overrides": _env_seen(await h.wire(env=dict(_OVERRIDES))),
        "env lower-case state key": _env_seen(await h.wire(env={_STATE.lower(): "0"})),
        "checkpointing on": _env_seen(await h.wire(enable_file_checkpointing=True)),
    }
    seen["client_app 'probe/1'"] = (
        _env_seen(await h.wire(client_app="probe/1")) if "client_app" in _fields() else _absent("client_app")
    )
    return seen


@sdk_set_environment.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    failed = [f"{run}: {seen[run]['error']}" for run in seen if isinstance(seen[run], dict) and "error" in seen[run]]
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


def _env_run(**watched: str | None) -> dict[str, Any]:
    values: dict[str, str | None] = {k: None for k in _ENV_WATCHED}
    values.update(watched)
    return {"watched": values, "cwd": "/w", "added": sorted(k for k, v in values.items() if v), "removed": []}


_ENV_HOLDS = {  # what a release that keeps the claim gives
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


# --- wire.initialize-request-fields ----------------------------------------------------------


async def _no_opinion(input_data: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
    return {}


def _initialize_seen(run: WireCapture, baseline: list[str] | None) -> dict[str, Any]:
    """The initialize request, and whether argv stayed its baseline run's (the default run's,
    or for a preset prompt the plain preset's: a preset drops the empty --system-prompt)."""
    argv = _argv(run)
    if argv is None:
        return _failed(run)
    return {"initialize": run.initialize, "argv as baseline": baseline is None or argv == baseline}


# run: (the options, what they need of the SDK (None: nothing), the run whose argv it must keep)
_INIT_RUNS: dict[str, tuple[dict[str, Any], tuple[str, str] | None]] = {
    "plain preset": ({"system_prompt": {"type": "preset", "preset": "claude_code"}}, None),
    "two matchers with timeout": ({"hooks": "matchers"}, ("field", "HookMatcher.timeout")),
    "on_failure continue": ({"hooks": "on_failure"}, ("field", "HookMatcher.on_failure")),
    "skills 'all'": ({"skills": "all"}, ("option", "skills")),
    "skills ['probe-skill']": ({"skills": ["probe-skill"]}, ("option", "skills")),
    "forward_subagent_text False": ({"forward_subagent_text": False}, ("option", "forward_subagent_text")),
    "forward_subagent_text True": ({"forward_subagent_text": True}, ("option", "forward_subagent_text")),
    "exclude_dynamic_sections False": (
        {"system_prompt": {"type": "preset", "preset": "claude_code", "exclude_dynamic_sections": False}},
        ("typed", "SystemPromptPreset.exclude_dynamic_sections"),
    ),
    "exclude_dynamic_sections True": (
        {"system_prompt": {"type": "preset", "preset": "claude_code", "exclude_dynamic_sections": True}},
        ("typed", "SystemPromptPreset.exclude_dynamic_sections"),
    ),
    "custom prompt with snapshot": (
        {"system_prompt": {"type": "custom", "prompt": "probe prompt", "snapshot": True}},
        ("typed", "SystemPromptCustom.snapshot"),
    ),
}
# sub-check: (the runs it reads, the initialize fields each run claims beside subtype and hooks
# (None: the field absent), and whether argv must stay the default run's)
_HOOKS_CLAIMED = [
    {"matcher": "Bash", "hookCallbackIds": ["hook_0"], "timeout": 5},
    {"matcher": None, "hookCallbackIds": ["hook_1", "hook_2"]},
]
_INIT_FIELDS: dict[str, dict[str, tuple[str, Any, bool]]] = {
    # sub-check: {run: (field, claimed value, argv stays the default's)}
    "hooks-map-as-documented": {"two matchers with timeout": ("hooks", {"PreToolUse": _HOOKS_CLAIMED}, True)},
    "on-failure-sent-as-onfailure": {
        "on_failure continue": (
            "hooks",
            {"PreToolUse": [{"matcher": None, "hookCallbackIds": ["hook_0"], "onFailure": "continue"}]},
            True,
        )
    },
    "skills-list-only-in-initialize": {
        "skills 'all'": ("skills", None, False),
        "skills ['probe-skill']": ("skills", ["probe-skill"], False),
    },
    "forward-subagent-text-only-when-true": {
        "forward_subagent_text False": ("forwardSubagentText", None, True),
        "forward_subagent_text True": ("forwardSubagentText", True, True),
    },
    "exclude-dynamic-sections-sent-when-set": {
        "exclude_dynamic_sections False": ("excludeDynamicSections", False, True),
        "exclude_dynamic_sections True": ("excludeDynamicSections", True, True),
    },
    "snapshot-sent-for-custom-prompt": {"custom prompt with snapshot": ("systemPromptSnapshot", True, False)},
}


def _init_options(options: dict[str, Any]) -> dict[str, Any]:
    """A run's options, its hooks built with the SDK's own HookMatcher."""
    hooks = options.get("hooks")
    if not isinstance(hooks, str):
        return options
    from claude_agent_sdk import HookMatcher

    callback: Any = _no_opinion  # the SDK's HookCallback type is a union this probe need not spell
    if hooks == "matchers":
        matchers = [
            HookMatcher(matcher="Bash", hooks=[callback], timeout=5),
            HookMatcher(hooks=[callback, callback]),
        ]
    else:
        matchers = [HookMatcher(hooks=[callback], on_failure="continue")]
    return {**options, "hooks": {"PreToolUse": matchers}}


def _lacks(need: tuple[str, str] | None) -> str | None:
    """Why this SDK cannot make a run (it lacks the option, field or key), or None."""
    import dataclasses

    import claude_agent_sdk

    if need is None:
        return None
    kind, name = need
    if kind == "option":
        return None if name in _fields() else f"ClaudeAgentOptions of this SDK has no field {name!r}"
    owner, key = name.split(".")
    if kind == "field":
        cls = getattr(claude_agent_sdk, owner, None)
        known = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    else:
        known = set(typed_keys(owner) or ())
    return None if key in known else f"{owner} of this SDK has no {key!r}"


@behaviour(
    id="wire.initialize-request-fields",
    claim=(
        "The initialize request carries hooks (null with none; per event, each matcher's matcher, its callbacks "
        "as hook_0, hook_1, ..., timeout and onFailure when set), skills only as an explicit list, "
        "forwardSubagentText only when True, excludeDynamicSections whenever a preset sets it (False too) and "
        "systemPromptSnapshot from a custom prompt's snapshot, and none of them as an argv flag."
    ),
    summary="initialize carries hooks, skills, forwardSubagentText and prompt fields only when set",
    source=("sdk-py", "ClaudeAgentOptions"),
    tier="wire",
    checks=("no-options-sends-null-hooks-only", *_INIT_FIELDS),
    requires=("option:hooks", "api:HookMatcher"),
    pins={
        "no-options-sends-null-hooks-only": ("option:hooks",),
        "hooks-map-as-documented": (
            "hook-matcher:matcher",
            "hook-matcher:hooks",
            "hook-matcher:timeout",
            "option:hooks",
        ),
        "on-failure-sent-as-onfailure": ("hook-matcher:on_failure",),
        "skills-list-only-in-initialize": ("option:skills",),
        "forward-subagent-text-only-when-true": ("option:forward_subagent_text",),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query.initialize",
)
async def initialize_request_fields(h: Harness) -> dict[str, Any]:
    default_run = await h.wire()
    baselines = {False: _argv(default_run)}  # by whether the run's prompt is a preset
    seen: dict[str, Any] = {"default": _initialize_seen(default_run, None)}
    for label, (options, need) in _INIT_RUNS.items():
        why = _lacks(need)
        if why:
            seen[label] = {"absent": why}
            continue
        run = await h.wire(**_init_options(options))
        preset = "preset" in str(options.get("system_prompt"))
        seen[label] = _initialize_seen(run, None if label == "plain preset" else baselines[preset])
        if label == "plain preset":
            baselines[True] = _argv(run)
    return seen


@initialize_request_fields.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    default = seen["default"]
    checks = {
        "no-options-sends-null-hooks-only": check(
            default.get("initialize") == {"subtype": "initialize", "hooks": None},
            "ClaudeAgentOptions() sent "
            + (
                f"initialize {default['initialize']}"
                if default.get("initialize")
                else default.get("error", "no initialize request")
            ),
        )
    }
    for name, runs in _INIT_FIELDS.items():
        absent = [seen[run]["absent"] for run in runs if "absent" in seen[run]]
        if absent:
            checks[name] = undecidable(absent[0])
            continue
        wrong = []
        for run, (key, claimed, argv_kept) in runs.items():
            got = seen[run]
            if "error" in got:
                wrong.append(f"{run}: {got['error']}")
                continue
            request = got["initialize"]
            if request is None:
                wrong.append(f"{run}: no initialize request was sent")
            elif request.get(key) != claimed:
                wrong.append(f"{run}: {key} was {request.get(key, 'absent')!r}, not {claimed!r}")
            if argv_kept and not got["argv as baseline"]:
                wrong.append(f"{run}: argv moved from the run without it")
        checks[name] = check(not wrong, "; ".join(wrong))
    return checks


initialize_request_fields.differs_on(
    {
        "default": {"initialize": {"subtype": "initialize", "hooks": {}}, "argv as baseline": True},
        **{
            run: {"initialize": {"subtype": "initialize", "hooks": None}, "argv as baseline": False}
            for run in _INIT_RUNS
        },
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


def _settings_sent(run: WireCapture) -> Any:
    """The --settings value as the JSON it encodes (the raw token when it is not JSON)."""
    if _argv(run) is None:
        return _failed(run)
    value = run.flag("--settings")
    try:
        return None if value is None else json.loads(value)
    except ValueError:
        return value


def _composed(run: WireCapture) -> Any:
    """Each user line's client_composed ('absent' without one), or why there was none."""
    if _argv(run) is None or run.error_line:
        return _failed(run)
    return [m.get("client_composed", "absent") for m in run.user_messages]


async def _settings_files(h: Harness) -> dict[str, Any]:
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
        "sandbox with missing settings file": {"started": _argv(missing) is not None, "error": missing.error_line},
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


async def _users(h: Harness) -> dict[str, Any]:
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
        else {"started": _argv(own) is not None, "error": own.error_line},
        "unknown user": {"started": _argv(unknown) is not None, "error": unknown.error_line},
    }


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
async def host_guard_options(h: Harness) -> dict[str, Any]:
    plain = await h.wire()
    seen: dict[str, Any] = {
        "default run started": _argv(plain) is not None and plain.error_line is None,
        **await _users(h),
        "missing cli_path": {"str": await _missing_cli(h, False), "Path": await _missing_cli(h, True)},
        "sandbox alone": _settings_sent(await h.wire(sandbox=dict(_SANDBOX))),
        "sandbox with settings": _settings_sent(await h.wire(sandbox=dict(_SANDBOX), settings=_SETTINGS)),
        **await _settings_files(h),
    }
    if "verbatim_prompts" not in _fields():
        seen["verbatim"] = _absent("verbatim_prompts")
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
    own, unknown, missing = seen["own user"], seen["unknown user"], seen["missing cli_path"]
    alone, merged = seen["sandbox alone"], seen["sandbox with settings"]
    checks = {
        "cli-path-is-the-program-started": check(
            seen["default run started"], "the program cli_path named (the fake CLI) was not started for the session"
        ),
        "missing-cli-path-not-found": check(
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
    for name, run, given in (
        ("sandbox-merged-with-settings-file", "sandbox with settings file", "an absolute path"),
        ("settings-path-read-relative-to-cwd", "sandbox with settings file relative to cwd", "a path relative to cwd"),
    ):
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


async def _flush_seen(h: Harness, mode: str) -> dict[str, Any]:
    """How many entries the store had when the assistant message came, and when the result came."""
    import asyncio

    store = _Store()
    counts: dict[str, Any] = {}

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
        "eager-flush-appends-each-frame": ("option:session_store_flush",),
        "batched-flush-appends-at-result": ("option:session_store_flush",),
        "debug-stderr-not-written": ("option:debug_stderr",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions",
)
async def store_and_stderr_options(h: Harness) -> dict[str, Any]:
    import io

    fields = _fields()
    seen: dict[str, Any] = {}
    if {"session_store", "load_timeout_ms"} <= fields:
        try:
            run = await h.wire(session_store=_Store(), resume=_RESUMED, load_timeout_ms=_LOAD_TIMEOUT_MS)
            seen["hung load"] = {"error": run.error_line, "cli started": _argv(run) is not None}
        except ProbeTimeout as exc:  # the timeout was not honoured: the run outlived its ceiling
            seen["hung load"] = {"hung": str(exc)}
    else:
        seen["hung load"] = _absent("load_timeout_ms")
    for mode in ("eager", "batched"):
        seen[f"flush {mode}"] = (
            await _flush_seen(h, mode) if "session_store_flush" in fields else _absent("session_store_flush")
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
        got = {k: run.get(k) for k in claimed}
        checks[name] = check(
            got == claimed and run["error"] is None,
            f"entries appended to the store {got}, not {claimed}" if got != claimed else f"error {run['error']}",
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
