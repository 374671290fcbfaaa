"""Which MCP servers load and how they live: stdio process trees, plugin servers, strict config,
and elicitation requests."""

from __future__ import annotations

import json
from typing import Any, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check, needs_live, undecidable
from sdkprobe.harness import (
    Elicitation,
    Harness,
    McpTool,
    allow_every_tool,
    plugin_folder,
    reply,
    stdio_mcp_server,
    tool_use,
)

_PLUGIN = "probe-plugin"
_SERVER = "pl"
_PLUGIN_SERVER = f"plugin:{_PLUGIN}:{_SERVER}"  # how the CLI names a plugin's server


class _StrictRun(TypedDict):
    init_mcp_servers: list[str]  # names only: a plugin server's status moves with timing
    claude_ai_connectors: list[str]
    plugin_loaded: bool
    error: str | None


class StrictRun(_StrictRun, total=False):
    offered_mcp_tools: list[str]  # only in the case that passes the servers in mcp_servers


@behaviour(
    id="mcp.strict-config-blocks-connectors-and-plugin-mcp",
    claim=(
        "strict_mcp_config keeps claude.ai connectors out of the session, and also the MCP servers of "
        "plugins; passing a plugin's .mcp.json servers in mcp_servers brings them back, named mcp__<server>__<tool>."
    ),
    summary="strict_mcp_config keeps out connectors and plugin MCP; mcp_servers brings them back",
    security="strict_mcp_config is how a host keeps MCP servers it did not configure out of the session",
    source=("004", "strictMcpConfig also blocks plugin MCP"),
    tier="cli",
    checks=("strict-blocks-claude-ai-connectors", "strict-blocks-plugin-mcp", "explicit-servers-load-under-strict"),
    requires=("option:strict_mcp_config", "option:plugins", "option:mcp_servers", "package:mcp"),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.strict_mcp_config",
)
async def strict_config_blocks_connectors_and_plugin_mcp(h: Harness) -> dict[str, StrictRun]:
    server = stdio_mcp_server(h.workdir("mcp"), _SERVER, [McpTool("ping", "Answers pong.", result="pong")])
    plugin = plugin_folder(h.workdir("plugin"), _PLUGIN, mcp_servers={_SERVER: server.config})
    cases: dict[str, dict[str, Any]] = {
        "not strict": {"strict_mcp_config": False},
        "strict": {"strict_mcp_config": True},
        "strict, .mcp.json servers passed": {"strict_mcp_config": True, "mcp_servers": plugin.mcp_json["mcpServers"]},
    }
    seen: dict[str, StrictRun] = {}
    for case, options in cases.items():
        # ENABLE_TOOL_SEARCH=false puts MCP tools in the request's tools instead of the deferred list
        run = await h.cli("hi", plugins=[plugin.config], env={"ENABLE_TOOL_SEARCH": "false"}, **options)
        # A plugin server may still be connecting at init (its status moves with timing): names only.
        servers = run.init.get("mcp_servers") or []
        seen[case] = {
            "init_mcp_servers": sorted(str(s.get("name")) for s in servers),
            # claude.ai connectors (named "claude.ai <Name>") load only for a logged-in claude.ai account
            "claude_ai_connectors": sorted(str(s.get("name")) for s in servers if _is_connector(s)),
            "plugin_loaded": any(p.get("name") == _PLUGIN for p in run.init.get("plugins") or []),
            "error": run.error,
        }
        if "mcp_servers" in options:
            seen[case]["offered_mcp_tools"] = sorted(t for t in run.offered_tools if t.startswith("mcp__"))
    return seen


def _is_connector(server: dict[str, Any]) -> bool:
    return str(server.get("name", "")).startswith("claude.ai ") or "claudeai" in str(server.get("source", ""))


@strict_config_blocks_connectors_and_plugin_mcp.decide
def _(seen: dict[str, StrictRun]) -> dict[str, Check]:
    loose, strict, passed = seen["not strict"], seen["strict"], seen["strict, .mcp.json servers passed"]
    return {
        "strict-blocks-claude-ai-connectors": check(
            not strict["claude_ai_connectors"],
            f"claude.ai connectors without strict {loose['claude_ai_connectors']}, with strict "
            f"{strict['claude_ai_connectors']}",
        )
        if loose["claude_ai_connectors"]
        else needs_live("claude.ai connectors load only for a claude.ai account; none loaded here"),
        "strict-blocks-plugin-mcp": check(
            _PLUGIN_SERVER in loose["init_mcp_servers"]
            and not any(_SERVER in name for name in strict["init_mcp_servers"])
            and strict["plugin_loaded"],
            f"init mcp_servers without strict {loose['init_mcp_servers']}, with strict {strict['init_mcp_servers']} "
            f"(plugin loaded with strict: {strict['plugin_loaded']})",
        ),
        "explicit-servers-load-under-strict": check(
            _SERVER in passed["init_mcp_servers"] and passed.get("offered_mcp_tools") == [f"mcp__{_SERVER}__ping"],
            f"with strict and the .mcp.json servers passed: init mcp_servers {passed['init_mcp_servers']}, "
            f"MCP tools offered {passed.get('offered_mcp_tools')}",
        ),
    }


strict_config_blocks_connectors_and_plugin_mcp.differs_on(
    {
        "not strict": {
            "init_mcp_servers": ["claude.ai Gmail", _PLUGIN_SERVER],
            "claude_ai_connectors": ["claude.ai Gmail"],
            "plugin_loaded": True,
            "error": None,
        },
        "strict": {
            "init_mcp_servers": ["claude.ai Gmail", _PLUGIN_SERVER],
            "claude_ai_connectors": ["claude.ai Gmail"],
            "plugin_loaded": True,
            "error": None,
        },
        "strict, .mcp.json servers passed": {
            "init_mcp_servers": [],
            "claude_ai_connectors": [],
            "plugin_loaded": True,
            "error": None,
            "offered_mcp_tools": [],
        },
    }
)

# A ceiling only a hang reaches, for a process that is to end: the server once the CLI
# was told to end it, the CLI once the SDK disconnected.
_ENDS_WITHIN = 60.0
# Who of a server's tree survives is asked once the server (and, at disconnect, the CLI)
# is gone: a settle that ends early when they are gone. What the CLI ends, it ends with
# the server; a survivor of the settle is an orphan nobody is left to end.
_SETTLE = 10.0


# What was still running (wait_gone's roles) once the server was turned off or the session closed.
Toggled = TypedDict("Toggled", {"error": str | None, "still running": list[str]})
Disconnected = TypedDict("Disconnected", {"CLI gone": bool, "still running": list[str]})
# written step by step as the session is driven: a key is absent when its step was not reached
# ("toggle off" also when the server's tree never started); str: this SDK has no toggle
_TreeSteps = TypedDict(
    "_TreeSteps",
    {"trees started": dict[str, bool], "toggle off": str | Toggled, "disconnect": Disconnected | None},
    total=False,
)


class TreeSeen(_TreeSteps):
    error: str | None


@behaviour(
    id="mcp.stdio-process-tree-ends",
    claim=(
        "When a stdio MCP server is turned off (toggle_mcp_server(name, False)) or the session is closed, "
        "the CLI ends the server's whole process tree, its children and grandchildren too; on Windows "
        "within a second."
    ),
    summary="Turning off a stdio server or closing the session ends its whole process tree",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=("toggle-off-ends-tree", "disconnect-ends-tree", "windows-within-a-second"),
    requires=("option:mcp_servers", "package:mcp"),
    sdk_ref="claude_agent_sdk.ClaudeSDKClient.toggle_mcp_server",
    cannot_decide=("windows-within-a-second",),
    timeout=180.0,
)
async def stdio_process_tree_ends(h: Harness) -> TreeSeen:
    # Two servers, each starting a child which starts a grandchild (same session, no setsid):
    # "off" is turned off mid-session, "closed" stays until the client disconnects.
    off = stdio_mcp_server(h.workdir("mcp"), "off", [McpTool("x")], descendants=True)
    closed = stdio_mcp_server(h.workdir("mcp"), "closed", [McpTool("y")], descendants=True)
    seen: _TreeSteps = {}

    async def steps(client: Any, out: Any, double: Any) -> None:
        # The CLI starts its servers at connect (the harness makes it wait for them).
        started = {"off": bool(await off.wait_tree()), "closed": bool(await closed.wait_tree())}
        seen["trees started"] = started
        if not hasattr(client, "toggle_mcp_server"):
            seen["toggle off"] = "no ClaudeSDKClient.toggle_mcp_server in this SDK"
        elif started["off"]:
            answer = None
            try:
                await client.toggle_mcp_server("off", False)
            except Exception as exc:  # the CLI refusing the toggle is a finding
                answer = f"{type(exc).__name__}: {exc}"
            await off.wait_gone(_ENDS_WITHIN, ("server",))
            seen["toggle off"] = {"error": answer, "still running": await off.wait_gone(_SETTLE)}
        await client.disconnect()
        if started["closed"]:
            await closed.wait_gone(_ENDS_WITHIN, ("server",))
            cli_gone = await closed.wait_parent_gone(_ENDS_WITHIN)
            seen["disconnect"] = {"CLI gone": cli_gone, "still running": await closed.wait_gone(_SETTLE)}
        else:
            seen["disconnect"] = None

    run = await h.cli(
        None, client=True, drive=steps, mcp_servers={"off": off.config, "closed": closed.config}, timeout=150
    )
    return {**seen, "error": run.error_line}


@stdio_process_tree_ends.decide
def _(seen: TreeSeen) -> dict[str, Check]:
    toggle, closed = seen.get("toggle off"), seen.get("disconnect")
    if isinstance(toggle, str):
        toggled = undecidable(toggle)
    elif toggle is None:
        toggled = check(False, f"the server's tree never started ({seen['trees started']}; error {seen['error']})")
    else:
        toggled = check(
            toggle["error"] is None and not toggle["still running"],
            f"after toggle_mcp_server('off', False) (error {toggle['error']}), once the server was gone "
            f"and its tree had settled, still running: {toggle['still running']}",
        )
    return {
        "toggle-off-ends-tree": toggled,
        "disconnect-ends-tree": check(
            closed is not None and not closed["still running"],
            f"after disconnect(), once the server and the CLI were gone (CLI gone: {closed['CLI gone']}) "
            f"and the tree had settled, still running: {closed['still running']}"
            if closed
            else f"the server's tree never started (error {seen['error']})",
        ),
        "windows-within-a-second": undecidable("a Windows timing; this harness reads a POSIX process table"),
    }


stdio_process_tree_ends.differs_on(
    {
        "trees started": {"off": True, "closed": True},
        "toggle off": {"error": None, "still running": ["child", "grandchild"]},
        "disconnect": {"CLI gone": True, "still running": ["grandchild"]},
        "error": None,
    }
)


# --- elicitation ---------------------------------------------------------------------

_ASK = Elicitation("Name?")  # the tool `ask` sends it when called, and waits for the answer
_EARLY = Elicitation("Early?", wait=10.0)  # sent while the CLI's first tools/list waits
_FIELDS = ("mcp_server_name", "message", "mode", "requested_schema")
# The server speaks the last protocol before 2026-07-28. Over 2026-07-28 a server asks
# only through a tool's InputRequiredResult, so nothing can be sent while the server is
# still starting; over the handshake protocols an `elicitation/create` can be, which is
# what the claim is about. The CLI falls back to the handshake for such a server.
_PROTOCOL = "2025-06-18"


def _eliciting_server(h: Harness) -> Any:
    return stdio_mcp_server(
        h.workdir("mcp"), "e", [McpTool("ask", elicit=_ASK)], elicit_at_start=_EARLY, protocol=_PROTOCOL
    )


class Answered(TypedDict):
    """The last word the server got on one of its messages."""

    via: str
    answer: Any  # {"action", "content"}, an error, "unanswered", or "none"


Elicited = TypedDict(
    "Elicited",
    {
        "handshake": dict[str, Any] | None,
        "answered": dict[str, Answered],  # by message
        "asked the SDK": list[dict[str, Any]],  # the elicitation requests' _FIELDS
        "tool called": list[str],
    },
)


def _elicitations(run: Any, server: Any) -> Elicited:
    """What the server was answered (the last word on each message), and what the CLI
    asked the SDK (`control_request` elicitation lines of its stdout, when recorded)."""
    answered: dict[str, Answered] = {}
    for e in server.elicitations():
        if "asked" in e:
            answered.setdefault(e["message"], {"via": e["via"], "answer": "none"})
            continue
        answer = {k: e[k] for k in ("action", "content", "error", "unanswered") if k in e}
        answered[e["message"]] = {"via": e["via"], "answer": answer or "none"}
    forwarded = [
        {k: line["request"].get(k) for k in _FIELDS}
        for line in run.stdout
        if isinstance(line, dict)
        and line.get("type") == "control_request"
        and (line.get("request") or {}).get("subtype") == "elicitation"
    ]
    return {
        "handshake": server.handshake(),
        "answered": dict(sorted(answered.items())),
        "asked the SDK": sorted(forwarded, key=lambda f: str(f.get("message"))),
        "tool called": [c["tool"] for c in server.calls()],
    }


def _answer(seen: Elicited, message: str) -> Any:
    got = seen["answered"].get(message)
    return None if got is None else got["answer"]


def _early_check(seen: Elicited) -> Check:
    early = seen["answered"].get(_EARLY.message)
    if seen["handshake"] is None:
        return undecidable(f"the CLI never sent initialize to a server of MCP {_PROTOCOL}, so none could ask early")
    asked_sdk = [f["message"] for f in seen["asked the SDK"]]
    cancelled = early is not None and early["answer"] == {"action": "cancel", "content": None}
    return check(
        cancelled and _EARLY.message not in asked_sdk,
        f"an elicitation sent during tools/list was answered {early and early['answer']}; "
        f"the CLI asked the SDK about {asked_sdk}",
    )


_ForwardOwn = TypedDict("_ForwardOwn", {"capabilities": list[str], "hook asked": list[str], "error": str | None})


class ForwardSeen(Elicited, _ForwardOwn):
    """What the server and the CLI saw (_elicitations), the capabilities the CLI declared,
    and whom the Elicitation hook was asked about."""


@behaviour(
    id="mcp.elicitation-forwarded-to-host",
    claim=(
        "The CLI declares the elicitation capability to every MCP server and hands a server's elicitation "
        "to the SDK host (server name, message, mode, requested schema); the host's answer goes back to "
        "the server. One sent while the server is still starting is answered cancel without asking the host."
    ),
    summary="An MCP server's elicitation reaches the host, and the host's answer goes back",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "capability-declared",
        "forwarded-with-fields",
        "host-answer-reaches-server",
        "early-request-cancelled-unasked",
    ),
    requires=("option:mcp_servers", "option:hooks", "option:can_use_tool", "api:HookMatcher", "package:mcp"),
    sdk_ref="claude_agent_sdk.types.ElicitationHookSpecificOutput",
)
async def elicitation_forwarded_to_host(h: Harness) -> ForwardSeen:
    from sdkprobe.harness import HookMatcher

    server = _eliciting_server(h)

    # Python has no on_elicitation; its one host callback for an elicitation is the
    # "Elicitation" hook, which accepts on the user's behalf.
    async def accept(hook_input: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
        return {"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept", "content": {"name": "Ada"}}}

    hook: Any = accept  # the SDK's HookCallback type has no Elicitation input (its HookEvent omits it)

    run = await h.cli(
        "ask me",
        client=True,  # a ClaudeSDKClient: old SDKs take can_use_tool only with a streamed prompt
        script=[reply(tool_use("mcp__e__ask", {})), "done"],
        mcp_servers={"e": server.config},
        can_use_tool=allow_every_tool,  # keeps stdin open so the SDK can answer the CLI
        hooks={"Elicitation": [HookMatcher(hooks=[hook])]},
        record_stdout=True,
        timeout=60,
    )
    return {
        "capabilities": sorted(server.client_capabilities() or {}),
        **_elicitations(run, server),
        "hook asked": sorted({str(c["input"].get("message")) for c in run.callbacks if c["kind"] == "hook"}),
        "error": run.error_line,
    }


@elicitation_forwarded_to_host.decide
def _(seen: ForwardSeen) -> dict[str, Check]:
    wanted = {
        "mcp_server_name": "e",
        "message": _ASK.message,
        "mode": "form",
        "requested_schema": _ASK.schema,
    }
    forwarded = [f for f in seen["asked the SDK"] if f.get("message") == _ASK.message]
    got = _answer(seen, _ASK.message)
    return {
        "capability-declared": check(
            "elicitation" in seen["capabilities"], f"the CLI declared capabilities {seen['capabilities']}"
        ),
        "forwarded-with-fields": check(wanted in forwarded, f"the CLI asked the SDK {forwarded or 'nothing'}"),
        "host-answer-reaches-server": check(
            got == {"action": "accept", "content": {"name": "Ada"}},
            f"the Elicitation hook (asked about {seen['hook asked']}) accepted {{'name': 'Ada'}}; "
            f"the server was answered {got}",
        ),
        "early-request-cancelled-unasked": _early_check(seen),
    }


elicitation_forwarded_to_host.differs_on(
    {
        "handshake": {"discover refused": True, "client proposed": "2025-11-25", "answered": _PROTOCOL},
        "capabilities": ["roots"],
        "answered": {
            "Early?": {"via": "elicitation/create", "answer": {"action": "decline", "content": None}},
            "Name?": {"via": "elicitation/create", "answer": {"error": {"code": -32601, "message": "no"}}},
        },
        "asked the SDK": [{"mcp_server_name": "e", "message": "Early?", "mode": None, "requested_schema": None}],
        "tool called": ["ask"],
        "hook asked": [],
        "error": None,
    }
)


# One case: the handshake, the answer to _ASK (None: never sent), whose messages the CLI asked the SDK about.
DeclinedRun = TypedDict(
    "DeclinedRun",
    {"handshake": dict[str, Any] | None, "answered": Answered | None, "asked the SDK": list[Any], "error": str | None},
)


@behaviour(
    id="mcp.elicitation-declined-without-handler",
    claim="With no elicitation handler on the host, every elicitation an MCP server sends is answered decline.",
    summary="With no elicitation handler, every MCP elicitation is answered decline",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=("declined-with-client-open", "declined-in-query-without-callbacks"),
    requires=("option:mcp_servers", "option:can_use_tool", "option:allowed_tools", "package:mcp"),
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
)
async def elicitation_declined_without_handler(h: Harness) -> dict[str, DeclinedRun]:
    seen: dict[str, DeclinedRun] = {}
    cases: dict[str, dict[str, Any]] = {
        # stdin stays open: the SDK can answer the CLI (it has no handler for an elicitation)
        "can_use_tool set": {"can_use_tool": allow_every_tool, "client": True},
        # no callbacks: the SDK closes stdin after the prompt, so the CLI cannot ask it
        "query without callbacks": {"allowed_tools": ["mcp__e__ask"]},
    }
    for case, options in cases.items():
        server = _eliciting_server(h)
        run = await h.cli(
            "ask me",
            script=[reply(tool_use("mcp__e__ask", {})), "done"],
            mcp_servers={"e": server.config},
            record_stdout=True,
            timeout=60,
            **options,
        )
        observed = _elicitations(run, server)
        seen[case] = {
            "handshake": observed["handshake"],
            "answered": observed["answered"].get(_ASK.message),
            "asked the SDK": [f["message"] for f in observed["asked the SDK"]],
            "error": run.error_line,
        }
    return seen


@elicitation_declined_without_handler.decide
def _(seen: dict[str, DeclinedRun]) -> dict[str, Check]:
    def declined(case: str) -> Check:
        got = seen[case]["answered"]
        return check(
            got is not None and got["answer"] == {"action": "decline", "content": None},
            f"the server was answered {got and got['answer']} (the CLI asked the SDK about "
            f"{seen[case]['asked the SDK']})",
        )

    return {
        "declined-with-client-open": declined("can_use_tool set"),
        "declined-in-query-without-callbacks": declined("query without callbacks"),
    }


elicitation_declined_without_handler.differs_on(
    {
        case: {
            "handshake": {"discover refused": True, "client proposed": "2025-11-25", "answered": _PROTOCOL},
            "answered": {"via": "elicitation/create", "answer": {"action": "cancel", "content": None}},
            "asked the SDK": ["Name?"],
            "error": None,
        }
        for case in ("can_use_tool set", "query without callbacks")
    }
)


# --- ${user_config.KEY} in a plugin server's env -----------------------------------------

_PLACEHOLDER = "${user_config.KEY}"
_CONFIGURED = "configured-value"
_USER_CONFIG = {"KEY": {"type": "string", "title": "Key", "description": "What the server needs", "sensitive": False}}


class PluginEnv(TypedDict):
    """Whether a plugin's server started, and the TOKEN it was started with."""

    started: bool
    TOKEN: str | None


# by plugin; written once the session's turn ended, so absent if it never did
_PluginEnvs = TypedDict("_PluginEnvs", {"unset-plugin": PluginEnv, "set-plugin": PluginEnv}, total=False)
_PluginsLoaded = TypedDict("_PluginsLoaded", {"plugins loaded": list[str], "error": str | None})


class UserConfigSeen(_PluginEnvs, _PluginsLoaded):
    """Each plugin's server's TOKEN, and which of the two plugins loaded."""


@behaviour(
    id="mcp.user-config-placeholder-untouched",
    claim=(
        "A plugin MCP server whose env holds ${user_config.KEY}, with no value stored for KEY, is started "
        "with the placeholder text itself: the CLI does not substitute it."
    ),
    summary="An unset ${user_config.KEY} in a plugin server's env is passed on as is",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=("unset-placeholder-passed-literally",),
    requires=("option:plugins", "option:setting_sources", "package:mcp"),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.plugins",
)
async def user_config_placeholder_untouched(h: Harness) -> UserConfigSeen:
    # Two plugins in one session: "unset-plugin" with no stored value, and "set-plugin"
    # whose value is in the user's settings (pluginConfigs, keyed <plugin>@inline for a
    # plugin passed by path), to record what a configured value does.
    servers, plugins = {}, []
    for name in ("unset-plugin", "set-plugin"):
        server = stdio_mcp_server(h.workdir("mcp"), "s", [McpTool("x")], record_env=["TOKEN"])
        entry = {**server.config, "env": {"TOKEN": _PLACEHOLDER}}
        plugins.append(plugin_folder(h.workdir("plugin"), name, mcp_servers={"s": entry}, user_config=_USER_CONFIG))
        servers[name] = server
    settings = {"pluginConfigs": {"set-plugin@inline": {"options": {"KEY": _CONFIGURED}}}}
    (h.config_dir / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    seen: _PluginEnvs = {}

    async def steps(client: Any, out: Any, double: Any) -> None:
        await client.query("hi")
        async for message in client.receive_response():
            out.messages.append(message)
        budget = 15.0  # plugin servers connect in the background; one that never starts costs once
        for name, server in servers.items():
            env = await server.wait_environment(budget)
            # name runs over the plugins' names, the keys of _PluginEnvs
            cast(dict[str, PluginEnv], seen)[name] = {"started": bool(env), "TOKEN": env.get("TOKEN")}
            budget = budget if env else 1.0

    run = await h.cli(
        None,
        client=True,
        drive=steps,
        script=["ok"],
        plugins=[p.config for p in plugins],
        setting_sources=["user"],
        timeout=60,
    )
    loaded = run.init.get("plugins") or []
    return {
        **seen,
        "plugins loaded": sorted(str(p.get("name")) for p in loaded if p.get("name") in servers),
        "error": run.error_line,
    }


@user_config_placeholder_untouched.decide
def _(seen: UserConfigSeen) -> dict[str, Check]:
    unset = seen["unset-plugin"]
    return {
        "unset-placeholder-passed-literally": check(
            unset["started"] and unset["TOKEN"] == _PLACEHOLDER,
            f"with no value stored the server started ({unset['started']}) with TOKEN={unset['TOKEN']!r} "
            f"(with a value stored: {seen['set-plugin']})",
        )
    }


user_config_placeholder_untouched.differs_on(
    {
        "unset-plugin": {"started": True, "TOKEN": ""},
        "set-plugin": {"started": True, "TOKEN": _CONFIGURED},
        "plugins loaded": ["set-plugin", "unset-plugin"],
        "error": None,
    }
)
