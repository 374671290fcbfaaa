"""What the SDK puts on the CLI's command line: which flag each option becomes, how values are
spelt, and what is never dropped."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, final

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.wire.support import Absent, NeverStarted, argv_of, never_started, option_absent, option_names
from sdkprobe.harness import (
    MAIN,
    Harness,
    WireRun,
    in_process_server,
)


def _shown(value: str | None) -> str:
    """A flag's value as a note shows it: absent, or its repr."""
    return "absent" if value is None else repr(value)


_TOOLS_SHAPES: dict[str, tuple[Any, str | None]] = {
    # sub-check: (the tools option, or None to leave it out; the --tools value claimed)
    "omitted-sends-no-flag": (None, None),
    "list-sent-comma-joined": (["Bash", "Read"], "Bash,Read"),
    "empty-list-sent-empty": ([], ""),
    "preset-sent-as-default": ({"type": "preset", "preset": "claude_code"}, "default"),
}

# sub-check -> the --tools value its shape sent (None: no flag)
ToolsSent = TypedDict("ToolsSent", {"--tools": dict[str, str | None]})


@behaviour(
    id="wire.tools-option-to-flag",
    claim=(
        "The tools option becomes --tools: omitted sends no flag, a list sends the names "
        "joined by commas, an empty list sends an empty value, the claude_code preset sends 'default'."
    ),
    summary="tools becomes --tools: names joined by commas, '' for [], 'default' for the preset",
    source=("003", "What each shape actually sends"),
    # What the CLI makes of these values (its help text, '' as none, the preset the same as no
    # flag) is the recipe's cli half: tools.tools-flag-as-help-defines.
    tier="wire",
    checks=tuple(_TOOLS_SHAPES),
    requires=("option:tools",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    pins={
        "omitted-sends-no-flag": ("option:tools",),
        "list-sent-comma-joined": ("option:tools",),
        "empty-list-sent-empty": ("option:tools",),
        "preset-sent-as-default": ("option:tools",),
    },
)
async def tools_option_to_flag(h: Harness) -> ToolsSent:
    sent: dict[str, str | None] = {}
    for name, (tools, _) in _TOOLS_SHAPES.items():
        run = await h.wire(**({} if tools is None else {"tools": tools}))
        sent[name] = run.flag("--tools")
    return {"--tools": sent}


@tools_option_to_flag.decide
def _(seen: ToolsSent) -> dict[str, Check]:
    sent = seen["--tools"]
    return {
        name: check(sent[name] == claimed, f"--tools was {_shown(sent[name])}, not {_shown(claimed)}")
        for name, (_, claimed) in _TOOLS_SHAPES.items()
    }


tools_option_to_flag.differs_on(
    {
        "--tools": {
            "omitted-sends-no-flag": "",
            "list-sent-comma-joined": "Bash Read",
            "empty-list-sent-empty": None,
            "preset-sent-as-default": "claude_code",
        }
    }
)


# flag: (the value its option is given, the kebab-case alias the CLI also accepts)
_CAMEL_FLAGS: dict[str, tuple[list[str], str]] = {
    "--allowedTools": (["Read", "mcp__*"], "--allowed-tools"),
    "--disallowedTools": (["TodoWrite"], "--disallowed-tools"),
}


@behaviour(
    id="wire.allowed-tools-flag-spelling",
    claim=(
        "The SDK writes tool approval lists as --allowedTools and --disallowedTools only, never as the "
        "kebab-case aliases --allowed-tools and --disallowed-tools that the CLI also accepts."
    ),
    summary="Approval lists are sent as --allowedTools/--disallowedTools, never the kebab-case aliases",
    source=("003", "What each shape actually sends"),
    tier="wire",
    checks=("allowed-tools-camel-case-only", "disallowed-tools-camel-case-only"),
    requires=("option:allowed_tools", "option:disallowed_tools"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    pins={
        "allowed-tools-camel-case-only": ("option:allowed_tools",),
        "disallowed-tools-camel-case-only": ("option:disallowed_tools",),
    },
)
async def allowed_tools_flag_spelling(h: Harness) -> dict[str, str | None]:
    run = await h.wire(
        allowed_tools=_CAMEL_FLAGS["--allowedTools"][0], disallowed_tools=_CAMEL_FLAGS["--disallowedTools"][0]
    )
    # flag_spelling tells `--x v` from `--x=v`; both spellings of each flag are looked for.
    return {flag: run.flag_spelling(flag) for camel, (_, kebab) in _CAMEL_FLAGS.items() for flag in (camel, kebab)}


@allowed_tools_flag_spelling.decide
def _(seen: dict[str, str | None]) -> dict[str, Check]:
    checks = {}
    for camel, (value, kebab) in _CAMEL_FLAGS.items():
        expected = f"{camel} {','.join(value)}"
        checks[f"{camel.lstrip('-').replace('Tools', '-tools')}-camel-case-only"] = check(
            seen[camel] == expected and seen[kebab] is None,
            f"{camel} was written {_shown(seen[camel])}, {kebab} {_shown(seen[kebab])}",
        )
    return checks


allowed_tools_flag_spelling.differs_on(
    {
        "--allowedTools": None,
        "--allowed-tools": "--allowed-tools Read,mcp__*",
        "--disallowedTools": "--disallowedTools=TodoWrite",
        "--disallowed-tools": None,
    }
)


# --- wire.empty-and-zero-values-reach-cli --------------------------------------------------


class Change(TypedDict):
    """What a run's argv added to, and took from, the default run's argv."""

    added: list[str]
    removed: list[str]


# sub-check: (option, its explicit empty or zero value)
_EMPTY_VALUES: dict[str, tuple[str, Any]] = {
    "empty-allowed-tools-sent": ("allowed_tools", []),
    "empty-disallowed-tools-sent": ("disallowed_tools", []),
    "zero-max-turns-sent": ("max_turns", 0),
    "empty-model-sent": ("model", ""),
    "empty-tools-sent": ("tools", []),
    "empty-setting-sources-sent": ("setting_sources", []),
}


@behaviour(
    id="wire.empty-and-zero-values-reach-cli",
    renamed_from=("wire.empty-lists-and-zero-send-no-flag",),
    claim=(
        "Giving an option an explicit empty or zero value (allowed_tools=[], disallowed_tools=[], "
        "max_turns=0, model='', tools=[], setting_sources=[]) changes what the CLI is started with, "
        "so it is not the same as leaving the option out."
    ),
    summary="An explicit empty or zero option value reaches the CLI, unlike leaving it out",
    source=("py#362", "maintainer reply"),
    tier="wire",
    checks=tuple(_EMPTY_VALUES),
    requires=(
        "option:allowed_tools",
        "option:disallowed_tools",
        "option:max_turns",
        "option:model",
        "option:tools",
        "option:setting_sources",
    ),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    pins={
        "empty-allowed-tools-sent": ("option:allowed_tools",),
        "empty-disallowed-tools-sent": ("option:disallowed_tools",),
        "zero-max-turns-sent": ("option:max_turns",),
        "empty-model-sent": ("option:model",),
        "empty-tools-sent": ("option:tools",),
        "empty-setting-sources-sent": ("option:setting_sources",),
    },
)
async def empty_and_zero_values_reach_cli(h: Harness) -> dict[str, Change]:
    default = Counter((await h.wire()).argv)
    seen: dict[str, Change] = {}
    for name, (option, value) in _EMPTY_VALUES.items():
        argv = Counter((await h.wire(**{option: value})).argv)
        # what this value added to, and took from, the default run's argv (order aside)
        seen[name] = {"added": sorted((argv - default).elements()), "removed": sorted((default - argv).elements())}
    return seen


@empty_and_zero_values_reach_cli.decide
def _(seen: dict[str, Change]) -> dict[str, Check]:
    checks = {}
    for name, (option, value) in _EMPTY_VALUES.items():
        diff = seen[name]
        checks[name] = check(
            bool(diff["added"] or diff["removed"]),
            f"{option}={value!r} started the CLI with the same argv as leaving it out",
        )
    return checks


empty_and_zero_values_reach_cli.differs_on({name: {"added": [], "removed": []} for name in _EMPTY_VALUES})


# --- wire.system-prompt-shapes-never-dropped -----------------------------------------------

_MARK = "SDKPROBE-SYSTEM-MARK"
_SYSTEM_FLAGS = ("--system-prompt", "--system-prompt-file", "--append-system-prompt")
_SYSTEM_SHAPES: dict[str, Any] = {
    "string claude_code": "claude_code",
    "text dict": {"type": "text", "text": _MARK},
    "preset without type": {"preset": "claude_code", "append": _MARK},
    "preset without append": {"type": "preset", "preset": "claude_code"},
    "None": None,
}


class SentSystem(TypedDict):
    """The system flags the SDK sent for one shape, or the error it raised instead."""

    flags: dict[str, str | None]
    error: str | None


# the literal 'claude_code' prompt the model got, against the preset's
LiteralPrompt = TypedDict(
    "LiteralPrompt", {"at least half the preset's length": bool, "holds the literal word claude_code": bool}
)
CliSystem = TypedDict("CliSystem", {"string claude_code": LiteralPrompt | None, "preset chars over 1000": bool})


class SystemSeen(TypedDict):
    wire: dict[str, SentSystem]  # shape -> what the SDK sent the fake CLI
    cli: CliSystem


@behaviour(
    id="wire.system-prompt-shapes-never-dropped",
    renamed_from=("wire.system-prompt-odd-shapes-dropped",),
    claim=(
        "system_prompt='claude_code' selects the Claude Code preset prompt, and a system_prompt dict of a "
        "shape the SDK does not understand is refused (or honoured), never silently dropped."
    ),
    summary="system_prompt='claude_code' picks the preset; an odd dict is refused or used, not dropped",
    source=("cc#18911", "report"),
    tier="cli",
    checks=("string-claude-code-selects-preset", "text-dict-not-dropped", "typeless-preset-dict-not-dropped"),
    requires=("option:system_prompt",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
)
async def system_prompt_shapes_never_dropped(h: Harness) -> SystemSeen:
    wire: dict[str, SentSystem] = {}
    for shape, value in _SYSTEM_SHAPES.items():
        run = await h.wire(system_prompt=value)
        wire[shape] = {
            "flags": {f: run.flag(f) for f in _SYSTEM_FLAGS if run.has_flag(f)},
            "error": run.error_line,
        }
    # The real CLI: what system prompt the literal string gives, against the preset (which the
    # wire shows is the CLI's own default: no system flag at all).
    systems = {}
    for shape in ("string claude_code", "preset without append"):
        session = await h.cli("hi", script=["ok"], system_prompt=_SYSTEM_SHAPES[shape])
        main = session.on(MAIN)
        systems[shape] = main[0].system_text if main else None
    literal, preset = systems["string claude_code"], systems["preset without append"]
    return {
        "wire": wire,
        "cli": {
            "string claude_code": None
            if literal is None or preset is None
            else {
                # relations, not lengths: the prompt carries the date and moves with every CLI release
                "at least half the preset's length": len(literal) >= len(preset) / 2,
                "holds the literal word claude_code": "claude_code" in literal,
            },
            "preset chars over 1000": preset is not None and len(preset) > 1000,
        },
    }


@system_prompt_shapes_never_dropped.decide
def _(seen: SystemSeen) -> dict[str, Check]:
    wire, cli = seen["wire"], seen["cli"]

    def not_dropped(shape: str) -> Check:
        w = wire[shape]
        kept = w["error"] is not None or any(_MARK in (v or "") for v in w["flags"].values())
        said = f"raised {w['error']}" if w["error"] else f"system flags {w['flags'] or 'none'}"
        return check(kept, f"{shape} {_SYSTEM_SHAPES[shape]!r}: {said}, {_MARK} never reached the CLI")

    string = cli["string claude_code"]
    flags = wire["string claude_code"]["flags"]
    return {
        "string-claude-code-selects-preset": check(
            string is not None
            and cli["preset chars over 1000"]
            and string["at least half the preset's length"]
            and not string["holds the literal word claude_code"],
            f"system_prompt='claude_code' sent {flags or 'no system flag'}; the model's system prompt "
            + (
                "was not seen"
                if string is None
                else ("held the literal word 'claude_code'" if string["holds the literal word claude_code"] else "")
                + ("" if string["at least half the preset's length"] else ", under half the preset's length")
            ),
        ),
        "text-dict-not-dropped": not_dropped("text dict"),
        "typeless-preset-dict-not-dropped": not_dropped("preset without type"),
    }


system_prompt_shapes_never_dropped.differs_on(
    {
        "wire": {
            "string claude_code": {"flags": {"--system-prompt": "claude_code"}, "error": None},
            "text dict": {"flags": {}, "error": None},
            "preset without type": {"flags": {}, "error": None},
            "preset without append": {"flags": {}, "error": None},
            "None": {"flags": {"--system-prompt": ""}, "error": None},
        },
        "cli": {
            "string claude_code": {
                "at least half the preset's length": False,
                "holds the literal word claude_code": True,
            },
            "preset chars over 1000": True,
        },
    }
)

_TRANSPORT = "claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command"


def _change(default: list[str], argv: list[str]) -> Change:
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


_MODES = ("default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto")
_BETA = "context-1m-2025-08-07"  # the one beta the SDKs' types declare (SdkBeta)
# sub-check: (option, {value's label: (the value, the argv tokens it adds to the default run)})
_FLAG_VALUES: dict[str, tuple[str, dict[str, tuple[Any, list[str]]]]] = {
    "continue-conversation-sent": ("continue_conversation", {"True": (True, ["--continue"])}),
    "max-turns-sent": ("max_turns", {"3": (3, ["--max-turns", "3"])}),
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
        {
            "two betas": (["beta-one", "beta-two"], ["--betas", "beta-one,beta-two"]),
            "the declared beta": ([_BETA], ["--betas", _BETA]),
        },
    ),
    "permission-mode-sent": (
        "permission_mode",
        {
            **{repr(mode): (mode, ["--permission-mode", mode]) for mode in _MODES},
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
# the members of a string union a sub-check sends, each (TypeScript's value: items)
_VALUE_PINS = {
    "permission-mode-sent": tuple(f"value:PermissionMode={mode}" for mode in _MODES),
    "betas-sent": (f"value:SdkBeta={_BETA}",),
    "output-format-sent": ("value:OutputFormatType=json_schema",),
}
# The options every listed SDK version has; the rest are checked where they exist.
_ALWAYS = (
    "continue_conversation",
    "max_turns",
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
    """The option value a table entry stands for (paths as Path objects, an in-process server)."""
    from pathlib import Path

    if not isinstance(value, _Built):
        return value
    if value.what == "paths":
        return ["/a", Path("/b")]
    if value.what == "mcp path":
        return Path(_MCP_PATH)
    if value.what == "sdk server":  # built by the SDK under test's own functions (the seam)
        return {"probe": in_process_server("probe")}
    raise ValueError(f"the table names a value no probe builds: {value.what!r}")


@behaviour(
    id="wire.option-flags-and-defaults",
    claim=(
        "ClaudeAgentOptions() starts the CLI with only --output-format stream-json, --verbose, an empty "
        "--system-prompt and --input-format stream-json; and each option that maps to a flag adds exactly "
        "its documented tokens to that (e.g. continue_conversation --continue, max_turns --max-turns, max_budget_usd "
        "--max-budget-usd with str(value) even for 0, one --add-dir per entry, extra_args None a bare flag, "
        "output_format json_schema --json-schema, any other type nothing), a flag's value read as the CLI reads "
        "it, whether written as the next token or as --flag=value."
    ),
    summary="The default argv is the fixed flags; each flag option adds exactly its documented tokens",
    source=("sdk-py", "ClaudeAgentOptions"),
    tier="wire",
    checks=("default-argv-fixed-flags-only", *_FLAG_VALUES),
    requires=tuple(f"option:{o}" for o in _ALWAYS),
    # every option its sub-check pins, also those only some versions have (not-applicable before)
    pins={name: (f"option:{option}", *_VALUE_PINS.get(name, ())) for name, (option, _) in _FLAG_VALUES.items()},
    sdk_ref=_TRANSPORT,
)
async def option_flags_and_defaults(h: Harness) -> dict[str, Any]:
    fields = option_names()
    default = (await h.wire()).argv
    seen: dict[str, Any] = {"default": default}
    for name, (option, values) in _FLAG_VALUES.items():
        if option not in fields:
            seen[name] = option_absent(option)
            continue
        runs: dict[str, Change | NeverStarted] = {}
        for label, (value, _) in values.items():
            run = await h.wire(**{option: _value(value)})
            argv = argv_of(run)
            runs[label] = _change(default, argv) if argv is not None and run.error_line is None else never_started(run)
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
            elif run["removed"] or not _same_tokens(_as_the_cli_reads(run["added"]), claimed):
                wrong.append(
                    f"{option}={label} added {run['added']}"
                    + (f" and removed {run['removed']}" if run["removed"] else "")
                    + f", not {claimed}"
                )
        checks[name] = check(not wrong, "; ".join(wrong))
    return checks


def _as_the_cli_reads(tokens: list[str]) -> list[str]:
    """`--flag=value` as the two tokens `--flag value`, which the CLI's option parser reads the
    same: whether a value travels in one token or two is wire.dash-leading-values-stay-values'
    question; here only what the CLI is told counts (a TypeScript release writes every value
    flag in one token, and a flag it dropped must still show)."""
    read: list[str] = []
    for token in tokens:
        flag, equals, value = token.partition("=")
        read.extend([flag, value] if token.startswith("--") and equals else [token])
    return read


def _sent_as_claimed() -> dict[str, dict[str, Change]]:
    return {
        name: {label: {"added": claimed, "removed": []} for label, (_, claimed) in values.items()}
        for name, (_, values) in _FLAG_VALUES.items()
    }


def _counterexample() -> dict[str, Any]:
    """Every option's first value sending nothing, the default run carrying a settings flag."""
    seen: dict[str, Any] = {"default": [*_DEFAULT_ARGV[:-2], "--setting-sources", "", *_DEFAULT_ARGV[-2:]]}
    for name, runs in _sent_as_claimed().items():
        first = next(iter(runs))
        wrong: Change = {"added": [], "removed": []} if runs[first]["added"] else {"added": ["--x"], "removed": []}
        seen[name] = {**runs, first: wrong}
    return seen


option_flags_and_defaults.differs_on(_counterexample())


def _one_token_forms(dropping: str | None = None) -> dict[str, Any]:
    """Every flag's value written in its flag's token (`--max-turns=3`), as a TypeScript release
    writes them; with `dropping`, that sub-check's option sending nothing."""
    seen: dict[str, Any] = {"default": list(_DEFAULT_ARGV)}
    for name, runs in _sent_as_claimed().items():
        seen[name] = {label: {"added": _joined(run["added"]), "removed": []} for label, run in runs.items()}
        if name == dropping:
            seen[name] = {label: {"added": [], "removed": []} for label in runs}
    return seen


def _joined(tokens: list[str]) -> list[str]:
    """`--flag value` pairs as `--flag=value` tokens; a bare flag stays as it is."""
    out: list[str] = []
    for token in tokens:
        if out and out[-1].startswith("--") and "=" not in out[-1] and not token.startswith("--"):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


option_flags_and_defaults.differs_on(_one_token_forms(dropping="max-turns-sent"))


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


@final
class Refused(TypedDict):
    """The SDK refused the value before starting any CLI."""

    refused: str


_Spelt = TypedDict("_Spelt", {"spelling": str | None, "value tokens preceded by": list[str | None]})


@final
class Spelt(_Spelt):
    """How the option's flag was written, and what stood before each bare copy of the value."""


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
async def dash_leading_values_stay_values(h: Harness) -> dict[str, Absent | Refused | Spelt]:
    fields = option_names()
    seen: dict[str, Absent | Refused | Spelt] = {}
    for name, (option, value, flag, _) in _DASHED_OPTIONS.items():
        if option not in fields:
            seen[name] = option_absent(option)
            continue
        run = await h.wire(**{option: value})
        argv = argv_of(run)
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
def _(seen: dict[str, Absent | Refused | Spelt]) -> dict[str, Check]:
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


# --- wire.settings-path-with-sandbox ----------------------------------------------------
# wire.host-guard-options (wire_options.py) already judges sandbox merged into --settings with
# inline JSON, an absolute path, a path relative to cwd and a missing file; this one judges the
# rest of the merge: a file with a BOM, inline JSON that does not parse, and no sandbox at all.

_SANDBOX = {"enabled": True}
_DENY = {"permissions": {"deny": ["Bash(rm:*)"]}}
_BAD_JSON = "{bad json}"
_FILE = "s.json"


class SettingsRun(TypedDict):
    """Whether the CLI started, the --settings it got (parsed where it is JSON), and the error."""

    started: bool
    settings: Any
    error: str | None


SettingsSeen = TypedDict(
    "SettingsSeen", {"BOM file": SettingsRun, "unparsable inline JSON": SettingsRun, "no sandbox": SettingsRun}
)


def _settings_run(run: WireRun) -> SettingsRun:
    """Whether the CLI started, the --settings it got (as JSON where it is JSON), and the error."""
    try:
        value = run.flag("--settings")
    except AssertionError:  # the SDK refused before starting the CLI
        return {"started": False, "settings": None, "error": run.error_line}
    try:
        sent: Any = None if value is None else json.loads(value)
    except ValueError:
        sent = value
    return {"started": True, "settings": sent, "error": run.error_line}


@behaviour(
    id="wire.settings-path-with-sandbox",
    claim=(
        "With sandbox set, a settings file is read as the CLI would read it, a UTF-8 BOM included, and its "
        "rules travel in --settings beside 'sandbox'; settings that cannot be loaded, inline JSON that does "
        "not parse among them, raise CLIConnectionError before the CLI starts; without sandbox the settings "
        "value passes to the CLI as given."
    ),
    summary="sandbox + settings: a BOM file is read, bad inline JSON refused, no sandbox verbatim",
    security="a caller's permission rules silently dropped from a sandboxed start",
    source=("sdk-py", "ClaudeAgentOptions.settings"),
    tier="wire",
    checks=("bom-settings-file-merged", "unparsable-inline-settings-refused", "settings-verbatim-without-sandbox"),
    requires=("option:sandbox", "option:settings"),
    pins={
        "bom-settings-file-merged": ("option:settings",),
        "unparsable-inline-settings-refused": ("option:settings",),
        "settings-verbatim-without-sandbox": ("option:sandbox", "option:settings"),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_settings_value",
)
async def settings_path_with_sandbox(h: Harness) -> SettingsSeen:
    folder = h.workdir("settings-cwd")
    (folder / _FILE).write_bytes(b"\xef\xbb\xbf" + json.dumps(_DENY).encode("utf-8"))
    bom = await h.wire(sandbox=dict(_SANDBOX), settings=_FILE, cwd=str(folder))
    bad = await h.wire(sandbox=dict(_SANDBOX), settings=_BAD_JSON, cwd=str(folder))
    plain = await h.wire(settings=_FILE, cwd=str(folder))
    return {
        "BOM file": _settings_run(bom),
        "unparsable inline JSON": _settings_run(bad),
        "no sandbox": _settings_run(plain),
    }


@settings_path_with_sandbox.decide
def _(seen: SettingsSeen) -> dict[str, Check]:
    def said(label: Literal["BOM file", "unparsable inline JSON", "no sandbox"], given: str) -> str:
        s = seen[label]
        return f"{given}: CLI started {s['started']}, --settings {s['settings']!r}, error {s['error']}"

    bad = seen["unparsable inline JSON"]
    return {
        "bom-settings-file-merged": check(
            seen["BOM file"]["settings"] == {**_DENY, "sandbox": _SANDBOX},
            said("BOM file", f"sandbox with settings={_FILE!r}, a file with a BOM holding {_DENY}"),
        ),
        "unparsable-inline-settings-refused": check(
            not bad["started"] and str(bad["error"]).startswith("CLIConnectionError"),
            said("unparsable inline JSON", f"sandbox with settings={_BAD_JSON!r}"),
        ),
        "settings-verbatim-without-sandbox": check(
            seen["no sandbox"]["settings"] == _FILE, said("no sandbox", f"settings={_FILE!r} without sandbox")
        ),
    }


settings_path_with_sandbox.differs_on(
    {
        # v0.2.143: the BOM made the file unparsable, and the SDK went on without its rules
        "BOM file": {"started": True, "settings": {"sandbox": {"enabled": True}}, "error": None},
        # v0.2.143: unparsable inline JSON read as a path, missing, dropped with a warning
        "unparsable inline JSON": {"started": True, "settings": {"sandbox": {"enabled": True}}, "error": None},
        "no sandbox": {"started": True, "settings": "<SPACE>/settings-cwd-1/s.json", "error": None},
    }
)
