"""What the options only the TypeScript SDK takes do on the wire: which flag, initialize field or
environment variable each becomes, how the two delivery options route servers and plugins, how the
host's dialog callbacks answer the CLI, and how a host's spawner and abortController take over the
CLI's process.

A probe passes each by its TypeScript name (`debugFile=...`); the Python SDK has none of them,
so every behaviour here is not-applicable there, and a sub-check is not-applicable on a
release whose `Options` does not declare its option yet.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, leave_uncovered, undecidable
from sdkprobe.harness import Harness, WireRun, lacks

# --- shared -----------------------------------------------------------------------------


class Added(TypedDict):
    """What one option added to the CLI's start and its initialize request, against a run without
    it: argv words, initialize fields, environment variables; or why the release lacks it."""

    argv: list[str]
    initialize: dict[str, Any]
    env: dict[str, str]
    lacking: str | None


def _flag(words: list[str], name: str) -> str | None:
    """The value `name` carries in these argv words (`--x v` or `--x=v`; '' for a bare `--x`), None
    when absent."""
    for i, word in enumerate(words):
        if word == name:
            following = words[i + 1] if i + 1 < len(words) else None
            return "" if following is None or following.startswith("--") else following
        if word.startswith(name + "="):
            return word[len(name) + 1 :]
    return None


def _added(run: WireRun, base: WireRun) -> Added:
    before = list(base.argv)
    argv = []
    for word in run.argv:  # in order, each word of the base run's taken once
        if word in before:
            before.remove(word)
        else:
            argv.append(word)
    init, base_init = run.initialize or {}, base.initialize or {}
    return {
        "argv": argv,
        "initialize": {k: v for k, v in sorted(init.items()) if base_init.get(k) != v},
        "env": {k: v for k, v in sorted(run.env_added.items()) if base.env_added.get(k) != v},
        "lacking": None,
    }


def _lacking(why: str) -> Added:
    return {"argv": [], "initialize": {}, "env": {}, "lacking": why}


# --- wire.ts-options-reach-cli -----------------------------------------------------------

_DEBUG_FILE = "<SPACE>/logs-1/sdk-debug.log"  # h.workdir("logs") / "sdk-debug.log", as normalised
_MANAGED = {"permissions": {"deny": ["WebFetch(domain:probe.invalid)"]}}
_ALIASES = {"Bash": "mcp__probe__bash"}
_PLAN = "Probe plan workflow: list the files, then stop."
_TITLE = "sdkprobe titled session"
_ROOT = "<SPACE>/trusted-1"  # h.workdir("trusted"), as normalised

# TypeScript option -> the value a probe gives (a path of the probe's own where None)
_GIVEN: dict[str, Any] = {
    "agent": "probe-reviewer",
    "debug": True,
    "debugFile": None,  # a path of the probe's own: h.workdir("logs") / "sdk-debug.log"
    "allowDangerouslySkipPermissions": True,
    "permissionPrompts": "none",
    "persistSession": False,
    "projectConfigRoot": None,  # a folder of the probe's own: h.workdir("trusted")
    "managedSettings": _MANAGED,
    "planModeInstructions": _PLAN,
    "toolAliases": _ALIASES,
    "title": _TITLE,
    "promptSuggestions": True,
    "agentProgressSummaries": True,
    "perTaskStopAffordance": True,
    "toolConfig": {"askUserQuestion": {"previewFormat": "html"}},
    "executableArgs": ["--probe-runtime-flag", "--smol"],
}
# TypeScript option -> what its doc comment says the CLI is told
_SAID = {
    "agent": "'equivalent to the --agent CLI flag': --agent carries the name",
    "debug": "'equivalent to --debug CLI flag': --debug is given",
    "debugFile": "'equivalent to --debug-file <path>': the path reaches the CLI",
    "allowDangerouslySkipPermissions": "the CLI is told bypassing is allowed (--allow-dangerously-skip-permissions)",
    "permissionPrompts": "'none': the CLI is told nobody answers prompts",
    "persistSession": "'when false, disables session persistence': the CLI is told not to persist",
    "projectConfigRoot": "the trusted checkout's path reaches the CLI",
    "managedSettings": "the policy-tier settings reach the CLI as given",
    "planModeInstructions": "the plan-mode workflow text reaches the CLI as given",
    "toolAliases": "the alias map reaches the CLI as given",
    "title": "the session's title reaches the CLI as given",
    "promptSuggestions": "the CLI is told to emit prompt suggestions",
    "agentProgressSummaries": "the CLI is told to summarise running subagents",
    "perTaskStopAffordance": "the CLI is told this consumer renders a per-task stop control",
    "toolConfig": "AskUserQuestion's previewFormat 'html' reaches the CLI",
    "executableArgs": "the runtime's arguments reach the process started, in order",
}


def _kebab(name: str) -> str:
    return "".join(f"-{c.lower()}" if c.isupper() else c for c in name)


def _check_name(option: str) -> str:
    return f"{_kebab(option)}-reaches-cli"


class ReachSeen(TypedDict):
    added: dict[str, Added]  # TypeScript option -> what giving it alone added
    error: str | None  # what the run without any of them raised


@behaviour(
    id="wire.ts-options-reach-cli",
    claim=(
        "Each option only the TypeScript SDK takes reaches the CLI as its doc comment says: agent as --agent, "
        "debug as --debug, debugFile as --debug-file with the path, allowDangerouslySkipPermissions and "
        "permissionPrompts 'none' as the CLI's flags for them, persistSession false as the CLI being told not "
        "to persist, projectConfigRoot and managedSettings with the path and settings given; planModeInstructions, "
        "toolAliases, title, promptSuggestions, agentProgressSummaries and perTaskStopAffordance in the initialize "
        "request as given (or as a flag of their name); toolConfig's AskUserQuestion previewFormat; executableArgs "
        "on the command line of the process started, in order."
    ),
    summary="Each TypeScript-only option reaches the CLI as a flag, initialize field or variable",
    source=("sdk-ts", "Options"),
    tier="wire",
    checks=tuple(_check_name(o) for o in _GIVEN),
    requires=("option:persistSession",),  # every TypeScript release recorded has it; the Python SDK none of them
    pins={_check_name(o): (f"option:{o}",) for o in _GIVEN},
    timeout=240,
)
async def ts_options_reach_cli(h: Harness) -> ReachSeen:
    base = await h.wire("go")
    given = dict(_GIVEN)
    given["debugFile"] = str(h.workdir("logs") / "sdk-debug.log")
    given["projectConfigRoot"] = str(h.workdir("trusted"))
    added: dict[str, Added] = {}
    for option, value in given.items():
        why = lacks(f"option:{option}")
        if why is not None:
            added[option] = _lacking(why)
            continue
        added[option] = _added(await h.wire("go", **{option: value}), base)
    return {"added": added, "error": base.error_line}


def _as_json(text: str | None) -> Any:
    try:
        return None if text is None else json.loads(text)
    except ValueError:
        return text


def _in_initialize_or_flag(got: Added, option: str, value: Any) -> bool:
    """In the initialize request under the option's name, or as a flag of its name (bare for true)."""
    if got["initialize"].get(option) == value:
        return True
    flag = _flag(got["argv"], f"--{_kebab(option)}")
    return flag is not None and (_as_json(flag) == value or (value is True and flag == ""))


def _reached(option: str, got: Added) -> bool:
    argv = got["argv"]
    if option == "agent":
        return bool(_flag(argv, "--agent") == _GIVEN["agent"])
    if option == "debug":
        return _flag(argv, "--debug") is not None
    if option == "debugFile":
        return _flag(argv, "--debug-file") == _DEBUG_FILE
    if option == "allowDangerouslySkipPermissions":
        return _flag(argv, "--allow-dangerously-skip-permissions") is not None
    if option == "permissionPrompts":
        return _flag(argv, "--permission-prompts") == "none" or got["initialize"].get("permissionPrompts") == "none"
    if option == "persistSession":
        return _flag(argv, "--no-session-persistence") is not None or got["initialize"].get("persistSession") is False
    if option == "projectConfigRoot":
        return _flag(argv, "--project-config-root") == _ROOT or got["initialize"].get("projectConfigRoot") == _ROOT
    if option == "managedSettings":
        return _as_json(_flag(argv, "--managed-settings")) == _MANAGED or got["initialize"].get(option) == _MANAGED
    if option == "executableArgs":
        return bool(argv == _GIVEN[option])
    if option == "toolConfig":
        return "html" in got["env"].values() or got["initialize"].get(option) == _GIVEN[option]
    return _in_initialize_or_flag(got, option, _GIVEN[option])


def _shown(got: Added) -> str:
    parts = [
        f"argv {got['argv']}" if got["argv"] else "",
        f"initialize {got['initialize']}" if got["initialize"] else "",
    ]
    parts.append(f"environment {got['env']}" if got["env"] else "")
    return "; ".join(p for p in parts if p) or "nothing the run without it lacked"


@ts_options_reach_cli.decide
def _(seen: ReachSeen) -> dict[str, Check]:
    out: dict[str, Check] = {}
    error = f" (the run without it raised {seen['error']})" if seen["error"] else ""
    for option in _GIVEN:
        got = seen["added"].get(option)
        name = _check_name(option)
        if got is None:
            out[name] = check(False, f"{option} was not given")
        elif got["lacking"] is not None:
            out[name] = undecidable(got["lacking"])
        else:
            out[name] = check(
                _reached(option, got) and not error,
                f"{_SAID[option]}; giving {option} added {_shown(got)}{error}",
            )
    return out


def _reaching(**changed: Added) -> ReachSeen:
    """The observation of a release on which every option reaches the CLI as 0.3.336 sends it,
    with `changed` options' observations replaced."""

    def flags(*words: str) -> Added:
        return {"argv": list(words), "initialize": {}, "env": {}, "lacking": None}

    def fields(**init: Any) -> Added:
        return {"argv": [], "initialize": init, "env": {}, "lacking": None}

    added: dict[str, Added] = {
        "agent": flags("--agent=probe-reviewer"),
        "debug": flags("--debug"),
        "debugFile": flags(f"--debug-file={_DEBUG_FILE}"),
        "allowDangerouslySkipPermissions": flags("--allow-dangerously-skip-permissions"),
        "permissionPrompts": flags("--permission-prompts=none"),
        "persistSession": flags("--no-session-persistence"),
        "projectConfigRoot": flags(f"--project-config-root={_ROOT}"),
        "managedSettings": flags("--managed-settings", json.dumps(_MANAGED, separators=(",", ":"))),
        "planModeInstructions": fields(planModeInstructions=_PLAN),
        "toolAliases": fields(toolAliases=_ALIASES),
        "title": fields(title=_TITLE),
        "promptSuggestions": fields(promptSuggestions=True),
        "agentProgressSummaries": fields(agentProgressSummaries=True),
        "perTaskStopAffordance": fields(perTaskStopAffordance=True),
        "executableArgs": flags("--probe-runtime-flag", "--smol"),
        "toolConfig": {
            "argv": [],
            "initialize": {},
            "env": {"CLAUDE_CODE_QUESTION_PREVIEW_FORMAT": "html"},
            "lacking": None,
        },
    }
    return {"added": {**added, **changed}, "error": None}


_NOTHING: Added = {"argv": [], "initialize": {}, "env": {}, "lacking": None}
# a release whose argv builder drops the TypeScript-only flags (a refactor of the flag table)
ts_options_reach_cli.differs_on(
    _reaching(
        **{
            o: _NOTHING
            for o in (
                "agent",
                "debug",
                "debugFile",
                "allowDangerouslySkipPermissions",
                "permissionPrompts",
                "persistSession",
                "projectConfigRoot",
                "managedSettings",
                "executableArgs",
            )
        }
    )
)
# a release that builds the initialize request without the session-shaping fields, and no longer maps toolConfig
ts_options_reach_cli.differs_on(
    _reaching(
        **{
            o: _NOTHING
            for o in (
                "planModeInstructions",
                "toolAliases",
                "title",
                "promptSuggestions",
                "agentProgressSummaries",
                "perTaskStopAffordance",
                "toolConfig",
            )
        }
    )
)
# a release that sends debugFile's flag with no path, persistSession false as true, and the aliases emptied
ts_options_reach_cli.differs_on(
    _reaching(
        debugFile={"argv": ["--debug-file"], "initialize": {}, "env": {}, "lacking": None},
        persistSession=_NOTHING,
        toolAliases={"argv": [], "initialize": {"toolAliases": {}}, "env": {}, "lacking": None},
    )
)


# --- wire.ts-dialog-callbacks-answer-cli ----------------------------------------------------

_ELICITATION = {
    "mcp_server_name": "probe-server",
    "message": "Which region?",
    "mode": "form",
    "elicitation_id": "elicit-7",
    "requested_schema": {"type": "object", "properties": {"region": {"type": "string"}}},
    "title": "Probe asks",
    "display_name": "Region picker",
    "description": "Pick the region to deploy to",
}
# what onElicitation's request is declared to carry, for the request above (ElicitationRequest)
_ELICITATION_AS_GIVEN = {
    "serverName": "probe-server",
    "message": "Which region?",
    "mode": "form",
    "elicitationId": "elicit-7",
    "requestedSchema": {"type": "object", "properties": {"region": {"type": "string"}}},
    "title": "Probe asks",
    "displayName": "Region picker",
    "description": "Pick the region to deploy to",
}
_ELICITED = {"action": "accept", "content": {"region": "eu-probe-1"}}
_DIALOG = {
    "dialog_kind": "refusal_fallback_prompt",
    "payload": {"probe": "dialog-payload"},
    "tool_use_id": "toolu_dialog",
}
_DIALOG_AS_GIVEN = {
    "dialogKind": "refusal_fallback_prompt",
    "payload": {"probe": "dialog-payload"},
    "toolUseID": "toolu_dialog",
}
_DIALOGGED = {"behavior": "completed", "result": {"choice": "probe-fallback"}}
_KINDS = ["refusal_fallback_prompt"]


class Called(TypedDict):
    request: Any  # the callback's first argument, as the SDK gave it
    request_id_given: bool  # its second carried the control request's id


class DialogSeen(TypedDict):
    elicitation_calls: list[Called]
    dialog_calls: list[Called]
    answered: dict[str, Any]  # with the callbacks: "elicitation" / "dialog" -> the SDK's control response
    unanswered: dict[str, Any]  # without them, the same
    supported_kinds: Any  # initialize's supportedDialogKinds with the callbacks
    error: str | None


_ON_ELICITATION = "on-elicitation-asked-and-answer-sent"
_NO_ELICITATION = "without-on-elicitation-declined"
_ON_DIALOG = "on-user-dialog-asked-and-answer-sent"
_NO_DIALOG = "without-on-user-dialog-no-answer"
_KINDS_SENT = "supported-dialog-kinds-declared"


def _dialog_scenario() -> Any:
    """The dialog first, as a line the fake does not wait on, then the elicitation it waits for:
    once that is answered, the SDK has taken the dialog request too."""
    from sdkprobe.harness import Scenario

    dialog = {
        "type": "control_request",
        "request_id": "fake_dialog",
        "request": {"subtype": "request_user_dialog", **_DIALOG},
    }
    return Scenario().wait_for_user().init().emit(dialog).request("elicitation", **_ELICITATION).result()


def _response(answer: dict[str, Any] | None) -> Any:
    if answer is None:
        return None
    return answer.get("response") if answer.get("subtype") == "success" else {"error": answer.get("error")}


@behaviour(
    id="wire.ts-dialog-callbacks-answer-cli",
    claim=(
        "The CLI's elicitation request reaches onElicitation as an ElicitationRequest carrying each field sent, "
        "with the request's id, and what it returns is the control response; without onElicitation the request "
        "is declined. A request_user_dialog reaches onUserDialog as {dialogKind, payload, toolUseID} and its "
        "answer is the response; without onUserDialog the SDK sends no answer. supportedDialogKinds is declared "
        "to the CLI as given."
    ),
    summary="onElicitation and onUserDialog answer the CLI's requests; dialog kinds are declared",
    source=("sdk-ts", "Options.onElicitation, onUserDialog, supportedDialogKinds"),
    tier="wire",
    checks=(_ON_ELICITATION, _NO_ELICITATION, _ON_DIALOG, _NO_DIALOG, _KINDS_SENT),
    requires=("option:onElicitation", "option:onUserDialog", "option:supportedDialogKinds"),
    pins={
        _ON_ELICITATION: ("option:onElicitation",),
        _NO_ELICITATION: ("option:onElicitation",),
        _ON_DIALOG: ("option:onUserDialog",),
        _NO_DIALOG: ("option:onUserDialog",),
        _KINDS_SENT: ("option:supportedDialogKinds",),
    },
    timeout=120,
)
async def ts_dialog_callbacks_answer_cli(h: Harness) -> DialogSeen:
    elicitations: list[Called] = []
    dialogs: list[Called] = []

    async def on_elicitation(request: Any, options: Any = None) -> Any:
        elicitations.append({"request": request, "request_id_given": bool((options or {}).get("requestId"))})
        return _ELICITED

    async def on_user_dialog(request: Any, options: Any = None) -> Any:
        dialogs.append({"request": request, "request_id_given": bool((options or {}).get("requestId"))})
        return _DIALOGGED

    asked = await h.wire(
        "go",
        scenario=_dialog_scenario(),
        client=True,
        onElicitation=on_elicitation,
        onUserDialog=on_user_dialog,
        supportedDialogKinds=_KINDS,
    )
    bare = await h.wire("go", scenario=_dialog_scenario(), client=True)
    return {
        "elicitation_calls": elicitations,
        "dialog_calls": dialogs,
        "answered": {
            "elicitation": _response(asked.answers.get("fake_req_1")),
            "dialog": _response(asked.answers.get("fake_dialog")),
        },
        "unanswered": {
            "elicitation": _response(bare.answers.get("fake_req_1")),
            "dialog": _response(bare.answers.get("fake_dialog")),
        },
        "supported_kinds": (asked.initialize or {}).get("supportedDialogKinds"),
        "error": asked.error_line or bare.error_line,
    }


@ts_dialog_callbacks_answer_cli.decide
def _(seen: DialogSeen) -> dict[str, Check]:
    elicited, dialogged = seen["elicitation_calls"], seen["dialog_calls"]
    error = f"; a run raised {seen['error']}" if seen["error"] else ""
    want_elicited = [{"request": _ELICITATION_AS_GIVEN, "request_id_given": True}]
    want_dialog = [{"request": _DIALOG_AS_GIVEN, "request_id_given": True}]
    return {
        _ON_ELICITATION: check(
            elicited == want_elicited and seen["answered"]["elicitation"] == _ELICITED and not error,
            f"onElicitation was called {elicited}, and the CLI was answered {seen['answered']['elicitation']}{error}",
        ),
        _NO_ELICITATION: check(
            seen["unanswered"]["elicitation"] == {"action": "decline"},
            f"without onElicitation the CLI was answered {seen['unanswered']['elicitation']}",
        ),
        _ON_DIALOG: check(
            dialogged == want_dialog and seen["answered"]["dialog"] == _DIALOGGED and not error,
            f"onUserDialog was called {dialogged}, and the CLI was answered {seen['answered']['dialog']}{error}",
        ),
        _NO_DIALOG: check(
            seen["unanswered"]["dialog"] is None,
            f"without onUserDialog the dialog was answered {seen['unanswered']['dialog']}",
        ),
        _KINDS_SENT: check(
            seen["supported_kinds"] == _KINDS,
            f"the initialize request's supportedDialogKinds was {seen['supported_kinds']!r}, given {_KINDS}",
        ),
    }


def _dialogs_seen(**changed: Any) -> DialogSeen:
    seen: DialogSeen = {
        "elicitation_calls": [{"request": _ELICITATION_AS_GIVEN, "request_id_given": True}],
        "dialog_calls": [{"request": _DIALOG_AS_GIVEN, "request_id_given": True}],
        "answered": {"elicitation": _ELICITED, "dialog": _DIALOGGED},
        "unanswered": {"elicitation": {"action": "decline"}, "dialog": None},
        "supported_kinds": _KINDS,
        "error": None,
    }
    return {**seen, **changed}  # type: ignore[typeddict-item]


# a release that drops the permission-display fields from the request and answers the CLI without the content
ts_dialog_callbacks_answer_cli.differs_on(
    _dialogs_seen(
        elicitation_calls=[
            {
                "request": {
                    k: v for k, v in _ELICITATION_AS_GIVEN.items() if k not in ("title", "displayName", "description")
                },
                "request_id_given": True,
            }
        ],
        answered={"elicitation": {"action": "accept"}, "dialog": _DIALOGGED},
    )
)
# a release that, with no callback, cancels dialogs itself and accepts elicitations unasked
ts_dialog_callbacks_answer_cli.differs_on(
    _dialogs_seen(unanswered={"elicitation": {"action": "accept"}, "dialog": {"behavior": "cancelled"}})
)
# a release that never calls onUserDialog (answers cancelled) and no longer declares the kinds
ts_dialog_callbacks_answer_cli.differs_on(
    _dialogs_seen(
        dialog_calls=[], answered={"elicitation": _ELICITED, "dialog": {"behavior": "cancelled"}}, supported_kinds=None
    )
)


# --- wire.ts-delivery-options-route ------------------------------------------------------

_SERVERS = {"probe-stdio": {"type": "stdio", "command": "probe-mcp-server", "env": {"PROBE_TOKEN": "t-123"}}}


class Routed(TypedDict):
    mcp_config: Any  # --mcp-config's value, parsed (None: no flag)
    init_servers: Any  # the initialize request's mcpServers
    plugin_dirs: list[str]  # each --plugin-dir's value
    init_plugins: Any  # the initialize request's plugins
    awaits_initialize: bool  # --await-initialize was given
    error: str | None


class DeliverySeen(TypedDict):
    runs: dict[str, Routed | None]  # "mcpServersDelivery=argv", ... -> what that run sent; None: option lacking
    lacking: dict[str, str]  # option -> why the release lacks it


_ROUTES = {
    "mcpServersDelivery=argv": ("mcpServersDelivery", "argv"),
    "mcpServersDelivery=initialize": ("mcpServersDelivery", "initialize"),
    "pluginDelivery=argv": ("pluginDelivery", "argv"),
    "pluginDelivery=initialize": ("pluginDelivery", "initialize"),
}
_MCP_ARGV, _MCP_INIT = "mcp-servers-argv-in-mcp-config-flag", "mcp-servers-initialize-over-stdin"
_PLUGIN_ARGV, _PLUGIN_INIT = "plugins-argv-one-plugin-dir-each", "plugins-initialize-in-request-and-awaited"


def _routed(run: WireRun) -> Routed:
    argv = run.argv
    init = run.initialize or {}
    dirs = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w == "--plugin-dir"]
    dirs += [w.split("=", 1)[1] for w in argv if w.startswith("--plugin-dir=")]
    return {
        "mcp_config": _as_json(_flag(argv, "--mcp-config")),
        "init_servers": init.get("mcpServers"),
        "plugin_dirs": dirs,
        "init_plugins": init.get("plugins"),
        "awaits_initialize": "--await-initialize" in argv,
        "error": run.error_line,
    }


@behaviour(
    id="wire.ts-delivery-options-route",
    claim=(
        "mcpServersDelivery 'argv' sends the servers in one --mcp-config flag and 'initialize' sends them in the "
        "initialize request instead (their env off the command line); pluginDelivery 'argv' sends one --plugin-dir "
        "per plugin, 'initialize' sends the list in the initialize request and starts the CLI with "
        "--await-initialize, with no --plugin-dir."
    ),
    summary="mcpServersDelivery and pluginDelivery route servers and plugins to argv or initialize",
    source=("sdk-ts", "Options.mcpServersDelivery, pluginDelivery"),
    tier="wire",
    checks=(_MCP_ARGV, _MCP_INIT, _PLUGIN_ARGV, _PLUGIN_INIT),
    requires=("option:pluginDelivery",),  # every TypeScript release recorded has it; the Python SDK has neither
    pins={
        _MCP_ARGV: ("option:mcpServersDelivery",),
        _MCP_INIT: ("option:mcpServersDelivery",),
        _PLUGIN_ARGV: ("option:pluginDelivery",),
        _PLUGIN_INIT: ("option:pluginDelivery",),
    },
    timeout=120,
)
async def ts_delivery_options_route(h: Harness) -> DeliverySeen:
    from sdkprobe.harness import Scenario

    plugin = h.workdir("plugin")
    runs: dict[str, Routed | None] = {}
    lacking: dict[str, str] = {}
    for label, (option, value) in _ROUTES.items():
        why = lacks(f"option:{option}")
        if why is not None:
            lacking[option], runs[label] = why, None
            continue
        # a CLI that took what it was given at launch, as the initialize answer says
        scenario = (
            Scenario()
            .answer("initialize", {"commands": [], "mcp_servers_applied": True, "plugins_applied": True})
            .turn()
        )
        given: dict[str, Any] = (
            {"mcp_servers": _SERVERS}
            if option == "mcpServersDelivery"
            else {"plugins": [{"type": "local", "path": str(plugin)}]}
        )
        given[option] = value
        runs[label] = _routed(await h.wire("go", scenario=scenario, **given))
    return {"runs": runs, "lacking": lacking}


_PLUGIN = "<SPACE>/plugin-1"  # h.workdir("plugin"), as normalised


def _route_check(seen: DeliverySeen, label: str) -> Check:
    option = _ROUTES[label][0]
    got = seen["runs"].get(label)
    if got is None:
        return undecidable(seen["lacking"].get(option, f"{label} was not run"))
    servers = {"mcpServers": _SERVERS}
    ok = {
        "mcpServersDelivery=argv": got["mcp_config"] == servers and not got["init_servers"],
        "mcpServersDelivery=initialize": got["init_servers"] == _SERVERS and got["mcp_config"] is None,
        "pluginDelivery=argv": got["plugin_dirs"] == [_PLUGIN] and not got["init_plugins"],
        "pluginDelivery=initialize": (
            got["init_plugins"] == [{"type": "local", "path": _PLUGIN}]
            and not got["plugin_dirs"]
            and got["awaits_initialize"]
        ),
    }[label]
    error = f"; the run raised {got['error']}" if got["error"] else ""
    return check(ok and not error, f"{label} sent {dict(got)}{error}")


@ts_delivery_options_route.decide
def _(seen: DeliverySeen) -> dict[str, Check]:
    return {
        _MCP_ARGV: _route_check(seen, "mcpServersDelivery=argv"),
        _MCP_INIT: _route_check(seen, "mcpServersDelivery=initialize"),
        _PLUGIN_ARGV: _route_check(seen, "pluginDelivery=argv"),
        _PLUGIN_INIT: _route_check(seen, "pluginDelivery=initialize"),
    }


def _delivered(**changed: Routed) -> DeliverySeen:
    def routed(**fields: Any) -> Routed:
        base: Routed = {
            "mcp_config": None,
            "init_servers": None,
            "plugin_dirs": [],
            "init_plugins": None,
            "awaits_initialize": False,
            "error": None,
        }
        return {**base, **fields}  # type: ignore[typeddict-item]

    runs: dict[str, Routed | None] = {
        "mcpServersDelivery=argv": routed(mcp_config={"mcpServers": _SERVERS}),
        "mcpServersDelivery=initialize": routed(init_servers=_SERVERS, awaits_initialize=True),
        "pluginDelivery=argv": routed(plugin_dirs=[_PLUGIN]),
        "pluginDelivery=initialize": routed(init_plugins=[{"type": "local", "path": _PLUGIN}], awaits_initialize=True),
    }
    return {"runs": {**runs, **{k.replace("_", "="): v for k, v in changed.items()}}, "lacking": {}}


# a release that ignores mcpServersDelivery: servers always in the initialize request (the default)
ts_delivery_options_route.differs_on(
    _delivered(
        mcpServersDelivery_argv={
            "mcp_config": None,
            "init_servers": _SERVERS,
            "plugin_dirs": [],
            "init_plugins": None,
            "awaits_initialize": True,
            "error": None,
        },
    )
)
# a release whose 'initialize' delivery still puts the servers (and their env) on the command line too
ts_delivery_options_route.differs_on(
    _delivered(
        mcpServersDelivery_initialize={
            "mcp_config": {"mcpServers": _SERVERS},
            "init_servers": _SERVERS,
            "plugin_dirs": [],
            "init_plugins": None,
            "awaits_initialize": True,
            "error": None,
        },
    )
)
# a release that ignores pluginDelivery 'initialize' (plugins stay --plugin-dir) and drops --plugin-dir for 'argv'
ts_delivery_options_route.differs_on(
    _delivered(
        pluginDelivery_initialize={
            "mcp_config": None,
            "init_servers": None,
            "plugin_dirs": [_PLUGIN],
            "init_plugins": None,
            "awaits_initialize": False,
            "error": None,
        },
        pluginDelivery_argv={
            "mcp_config": None,
            "init_servers": None,
            "plugin_dirs": [],
            "init_plugins": None,
            "awaits_initialize": False,
            "error": None,
        },
    )
)


# --- wire.ts-host-spawns-cli ---------------------------------------------------------------

_SPAWNED = "spawner-called-with-the-cli-command"
_TALKED = "session-runs-on-the-hosts-process"


class SpawnSeen(TypedDict):
    calls: list[dict[str, Any]]  # each call of the host's spawner: command, args, cwd, and whether env came
    cli_argv: list[str] | None  # the argv the CLI was started with, as the fake recorded it
    cli_marked: str | None  # SDKPROBE_HOST_SPAWN in the CLI's environment: set by the host's spawner only
    cli_cwd: str | None
    result: str | None  # the turn's result text
    error: str | None


@behaviour(
    id="wire.ts-host-spawns-cli",
    claim=(
        "With spawnClaudeCodeProcess, the SDK calls it instead of spawning the CLI itself, once, with the command, "
        "args, cwd and environment it would have used, and runs the session over the process it returns."
    ),
    summary="spawnClaudeCodeProcess is called to start the CLI, and the session runs on what it returns",
    source=("sdk-ts", "Options.spawnClaudeCodeProcess"),
    tier="wire",
    checks=(_SPAWNED, _TALKED),
    requires=("option:spawnClaudeCodeProcess",),
    pins={_SPAWNED: ("option:spawnClaudeCodeProcess",), _TALKED: ("option:spawnClaudeCodeProcess",)},
)
async def ts_host_spawns_cli(h: Harness) -> SpawnSeen:
    from sdkprobe.harness import NodeSpawn

    calls: list[dict[str, Any]] = []

    def seen(options: dict[str, Any]) -> None:
        env = options.get("env")
        calls.append(
            {
                "command": options.get("command"),
                "args": options.get("args"),
                "cwd": options.get("cwd"),
                "env given": isinstance(env, dict) and bool(env),
            }
        )

    run = await h.wire("go", spawnClaudeCodeProcess=NodeSpawn(seen))
    started = [s for s in run.starts if s["argv"][:1] not in (["-v"], ["--version"])]
    last = started[-1] if started else None
    return {
        "calls": calls,
        "cli_argv": None if last is None else [str(a) for a in last["argv"]],
        "cli_marked": None if last is None else last["env"].get("SDKPROBE_HOST_SPAWN"),
        "cli_cwd": None if last is None else str(last["cwd"]),
        "result": None if run.result is None else run.result.result,
        "error": run.error_line,
    }


@ts_host_spawns_cli.decide
def _(seen: SpawnSeen) -> dict[str, Check]:
    calls = seen["calls"]
    call = calls[0] if len(calls) == 1 else None
    return {
        _SPAWNED: check(
            call is not None
            and str(call["command"]).endswith("/fake/claude")
            and call["args"] == seen["cli_argv"]
            and call["cwd"] == seen["cli_cwd"]
            and call["env given"],
            f"the spawner was called {calls}; the CLI was started with {seen['cli_argv']} in {seen['cli_cwd']}",
        ),
        _TALKED: check(
            seen["cli_marked"] == "spawnClaudeCodeProcess" and seen["result"] is not None and not seen["error"],
            f"the CLI's environment had SDKPROBE_HOST_SPAWN={seen['cli_marked']!r} (the host's spawn sets it); "
            f"the turn's result {seen['result']!r}" + (f"; the run raised {seen['error']}" if seen["error"] else ""),
        ),
    }


_ARGV = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]
_HOST_SPAWNED: SpawnSeen = {
    "calls": [{"command": "<SPACE>/wire-1/fake/claude", "args": _ARGV, "cwd": "<SPACE>/wire-1", "env given": True}],
    "cli_argv": _ARGV,
    "cli_marked": "spawnClaudeCodeProcess",
    "cli_cwd": "<SPACE>/wire-1",
    "result": "Hello from the fake CLI",
    "error": None,
}
# a release that ignores the option and spawns the CLI itself
ts_host_spawns_cli.differs_on({**_HOST_SPAWNED, "calls": [], "cli_marked": None})
# a release that calls the spawner, then spawns its own process anyway and talks to that one
ts_host_spawns_cli.differs_on({**_HOST_SPAWNED, "cli_marked": None})


# --- wire.ts-abort-controller-stops-query --------------------------------------------------

_STOPPED, _CLEANED = "abort-ends-the-query", "abort-closes-the-cli"


class AbortSeen(TypedDict):
    yielded: list[str]  # the types of the messages yielded, in order
    error: str | None  # what the iteration ended with
    hung: bool  # the run hit the harness's ceiling instead of ending
    cli_saw: list[str]  # the CLI's side after the first assistant line: its stdin closing, its exit


@behaviour(
    id="wire.ts-abort-controller-stops-query",
    claim=(
        "Aborting the abortController given stops the query: its iteration ends with nothing after the abort, "
        "and the CLI's resources are cleaned up (its stdin closed and the process ended) though the CLI would "
        "have waited for ever."
    ),
    summary="Aborting abortController ends the query and closes the CLI",
    source=("sdk-ts", "Options.abortController"),
    tier="wire",
    checks=(_STOPPED, _CLEANED),
    requires=("option:abortController",),
    pins={_STOPPED: ("option:abortController",), _CLEANED: ("option:abortController",)},
)
async def ts_abort_controller_stops_query(h: Harness) -> AbortSeen:
    from sdkprobe.harness import NodeAbort, ProbeTimeout, Scenario

    controller = NodeAbort()

    async def drive(client: Any, outcome: Any) -> None:
        await client.query("go")
        async for message in client.receive_messages():
            outcome.messages.append(message)
            if type(message).__name__ == "AssistantMessage":
                controller.abort()  # the CLI writes nothing more and waits for stdin to close

    scenario = Scenario().wait_for_user().init().assistant("first").wait_for_eof()
    try:
        run = await h.wire(None, scenario=scenario, client=True, drive=drive, timeout=20, abortController=controller)
    except ProbeTimeout:
        return {"yielded": [], "error": None, "hung": True, "cli_saw": []}
    timeline = run.timeline()
    after = timeline[timeline.index("out:assistant") + 1 :] if "out:assistant" in timeline else timeline
    return {
        "yielded": [type(m).__name__ for m in run.messages],
        "error": None if run.error_line is None else run.error_line.split(": ", 1)[-1],  # a minified class's name left
        "hung": False,
        "cli_saw": [label for label in after if label == "eof" or label.startswith("exit")],
    }


@ts_abort_controller_stops_query.decide
def _(seen: AbortSeen) -> dict[str, Check]:
    yielded = seen["yielded"]
    ended = not seen["hung"] and yielded[-1:] == ["AssistantMessage"]
    return {
        _STOPPED: check(
            ended,
            "the query did not end within the ceiling after the abort"
            if seen["hung"]
            else f"yielded {yielded}, ending with {seen['error']!r}",
        ),
        _CLEANED: check(
            not seen["hung"] and "eof" in seen["cli_saw"],
            f"after the abort the CLI saw {seen['cli_saw']}" + (" (the run hung)" if seen["hung"] else ""),
        ),
    }


_ABORTED: AbortSeen = {
    "yielded": ["SystemMessage", "AssistantMessage"],
    "error": "Operation aborted",
    "hung": False,
    "cli_saw": ["eof", "exit:0"],
}
# a release that never hands the controller to the transport: the query waits on, the CLI with it
ts_abort_controller_stops_query.differs_on({"yielded": [], "error": None, "hung": True, "cli_saw": []})
# a release that ends the iteration on abort but leaves the CLI running with its stdin open
ts_abort_controller_stops_query.differs_on({**_ABORTED, "cli_saw": []})

leave_uncovered(
    __name__,
    "option:executable",
    "the runtime is used only for a CLI that is a .js file; every release recorded bundles a native binary, and "
    "so is sdkprobe's fake CLI, which the SDK starts directly, with no runtime to observe",
)
