"""Area `wire`: what the SDK puts on the CLI's command line, in initialize and its environment."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import MAIN, Harness


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
async def tools_option_to_flag(h: Harness) -> dict[str, Any]:
    sent = {}
    for name, (tools, _) in _TOOLS_SHAPES.items():
        run = await h.wire(**({} if tools is None else {"tools": tools}))
        sent[name] = run.flag("--tools")
    return {"--tools": sent}


@tools_option_to_flag.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
async def allowed_tools_flag_spelling(h: Harness) -> dict[str, Any]:
    run = await h.wire(
        allowed_tools=_CAMEL_FLAGS["--allowedTools"][0], disallowed_tools=_CAMEL_FLAGS["--disallowedTools"][0]
    )
    # flag_spelling tells `--x v` from `--x=v`; both spellings of each flag are looked for.
    return {flag: run.flag_spelling(flag) for camel, (_, kebab) in _CAMEL_FLAGS.items() for flag in (camel, kebab)}


@allowed_tools_flag_spelling.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
async def empty_and_zero_values_reach_cli(h: Harness) -> dict[str, Any]:
    default = Counter((await h.wire()).argv)
    seen = {}
    for name, (option, value) in _EMPTY_VALUES.items():
        argv = Counter((await h.wire(**{option: value})).argv)
        # what this value added to, and took from, the default run's argv (order aside)
        seen[name] = {"added": sorted((argv - default).elements()), "removed": sorted((default - argv).elements())}
    return seen


@empty_and_zero_values_reach_cli.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
async def system_prompt_shapes_never_dropped(h: Harness) -> dict[str, Any]:
    wire: dict[str, Any] = {}
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
        session = await h.session("hi", script=["ok"], system_prompt=_SYSTEM_SHAPES[shape])
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


# --- wire.connect-string-prompt-sent -------------------------------------------------------

_CONNECT_WAIT = 30.0  # seconds a connect(prompt) run may take to its result: only a hang reaches it


@behaviour(
    id="wire.connect-string-prompt-sent",
    claim=(
        "ClaudeSDKClient.connect(prompt='hi') sends that prompt to the CLI, just as connect() followed "
        "by query('hi') does, so reading the response afterwards gets an answer instead of hanging."
    ),
    summary="connect(prompt='hi') sends the prompt, as connect() then query('hi') does",
    source=("py#766", "report"),
    tier="wire",
    checks=("connect-prompt-sent-as-query-sends-it", "connect-prompt-run-gets-result"),
    requires=("api:ClaudeSDKClient.connect",),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.connect",
    pins={
        "connect-prompt-sent-as-query-sends-it": ("client:connect",),
        "connect-prompt-run-gets-result": ("client:connect",),
    },
)
async def connect_string_prompt_sent(h: Harness) -> dict[str, Any]:
    hung: list[bool] = []

    async def read_bounded(client: Any, out: Any) -> None:
        async def read() -> None:
            async for message in client.receive_response():
                out.messages.append(message)

        try:
            await asyncio.wait_for(read(), _CONNECT_WAIT)
        except asyncio.TimeoutError:
            hung.append(True)

    connected = await h.wire("hi", client=True, connect_prompt=True, drive=read_bounded, timeout=_CONNECT_WAIT + 10)
    queried = await h.wire("hi", client=True)

    def user_lines(run: Any) -> list[dict[str, Any]]:
        return [
            {"content": (m.get("message") or {}).get("content"), "session_id": m.get("session_id")}
            for m in run.user_messages
        ]

    return {
        "connect(prompt)": {
            "user lines": user_lines(connected),
            "result": connected.result is not None,
            "hung": bool(hung),
            "error": connected.error_line,
        },
        "connect() then query()": {
            "user lines": user_lines(queried),
            "result": queried.result is not None,
            "error": queried.error_line,
        },
    }


@connect_string_prompt_sent.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    a, b = seen["connect(prompt)"], seen["connect() then query()"]
    return {
        "connect-prompt-sent-as-query-sends-it": check(
            bool(a["user lines"]) and a["user lines"] == b["user lines"],
            f"connect(prompt='hi') wrote user lines {a['user lines']}, connect()+query('hi') {b['user lines']}",
        ),
        "connect-prompt-run-gets-result": check(
            a["result"] and a["error"] is None,
            "receive_response() after connect(prompt='hi') "
            + (f"gave no result within {_CONNECT_WAIT:g} s" if a["hung"] else f"ended without a result ({a['error']})"),
        ),
    }


connect_string_prompt_sent.differs_on(
    {
        "connect(prompt)": {"user lines": [], "result": False, "hung": True, "error": None},
        "connect() then query()": {
            "user lines": [{"content": "hi", "session_id": "default"}],
            "result": True,
            "error": None,
        },
    }
)
