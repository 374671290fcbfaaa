"""Changing MCP servers during a session: status, toggling, reconnecting and replacing them."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypedDict, TypeVar, cast

from sdkprobe.behaviour import Check, behaviour, check, needs_live, undecidable
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Conversation,
    Harness,
    McpTool,
    Reply,
    in_process_server,
    in_process_tool,
    reply,
    sdk_class,
    stdio_mcp_server,
    tool_use,
)

_NO_SEARCH = {"ENABLE_TOOL_SEARCH": "false"}  # MCP tools in the request's tools, not the deferred list
_SETTLE = 30.0  # bound on waiting for something that should happen (a server connecting, a process ending)


def _in_process(tool: str, calls: list[str], **kw: Any) -> Any:
    """An in-process SDK tool `tool` (kw: in_process_tool's, e.g. annotations); each call appends
    `tool` to `calls`."""

    @in_process_tool(tool, "A tool of the probe's in-process server.", {"type": "object", "properties": {}}, **kw)
    async def handler(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(tool)
        return {"content": [{"type": "text", "text": f"{tool} ran"}]}

    return handler


def _server(name: str, *tools: Any) -> Any:
    return in_process_server(name, tools=list(tools))


async def _status(c: Conversation) -> dict[str, dict[str, Any]]:
    """get_mcp_status() by server name: its status and its tools' {short name: annotations}."""
    answer = await c.call("get_mcp_status")
    servers = answer.get("mcpServers", []) if isinstance(answer, dict) else []
    return {
        str(s.get("name")): {
            "status": s.get("status"),
            "tools": {str(t.get("name")): t.get("annotations") for t in s.get("tools") or []},
        }
        for s in servers
    }


_T = TypeVar("_T")


async def _until(read: Callable[[], Awaitable[_T]], ready: Callable[[_T], bool]) -> _T:
    """`read()` again until `ready(value)` or `_SETTLE` seconds; the last value read."""
    deadline = asyncio.get_running_loop().time() + _SETTLE
    while True:
        value = await read()
        if ready(value) or asyncio.get_running_loop().time() > deadline:
            return value
        await asyncio.sleep(0.1)


async def _settled(c: Conversation, ready: Callable[[dict[str, dict[str, Any]]], bool]) -> dict[str, dict[str, Any]]:
    """get_mcp_status() until `ready(status)` or `_SETTLE` seconds; the last status seen."""
    return await _until(lambda: _status(c), ready)


async def _eventually(condition: Callable[[], bool]) -> bool:
    """Whether `condition()` becomes true within `_SETTLE` seconds (checked every 50 ms)."""
    deadline = asyncio.get_running_loop().time() + _SETTLE
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def _result_of(run: CliRun, tool_use_id: str) -> bool | None:
    """is_error of the tool_result sent for `tool_use_id` (None if none was sent)."""
    for r in run.on(MAIN):
        block = r.tool_result(tool_use_id)
        if block is not None:
            return bool(block.get("is_error"))
    return None


# --- mcp.toggle-removes-server-tools ----------------------------------------------------

# server -> its tool; `a` (in-process) and `s` (stdio) are toggled, `b` (in-process) never is
_TOGGLED = {"a": "x", "s": "z"}
_KEPT = {"b": "y"}
_TOOLS = {f"mcp__{srv}__{tool}": srv for srv, tool in {**_TOGGLED, **_KEPT}.items()}
PhaseName = Literal["before", "toggled off", "toggled on"]
_PHASES: tuple[PhaseName, ...] = ("before", "toggled off", "toggled on")

# One turn: the _TOOLS its opening request offered (None: no such request), each call's
# is_error (None: no tool_result), the tools whose handler ran (None: the turn never ran).
Phase = TypedDict(
    "Phase", {"offered": list[str] | None, "call is_error": dict[str, bool | None], "ran": list[str] | None}
)
ToggleSeen = TypedDict(
    "ToggleSeen",
    {
        "before": Phase,
        "toggled off": Phase,
        "toggled on": Phase,
        "toggles refused": dict[str, str],  # "server off|on" -> the error the toggle raised
        "error": str | None,
    },
)


@behaviour(
    id="mcp.toggle-removes-server-tools",
    claim=(
        "toggle_mcp_server(name, False) takes a server given in mcp_servers out of the running session: "
        "the next request offers the model none of its tools and a call to one fails, while the other "
        "servers keep working; toggle_mcp_server(name, True) brings its tools back."
    ),
    summary="toggle_mcp_server off takes a server's tools away; on brings them back",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "off-tools-leave-request",
        "off-tool-call-fails",
        "other-server-keeps-working",
        "on-brings-tools-back",
        "model-says-it-has-none",
    ),
    requires=(
        "option:mcp_servers",
        "option:allowed_tools",
        "api:create_sdk_mcp_server",
        "api:ClaudeSDKClient.toggle_mcp_server",
        "api:ClaudeSDKClient.get_mcp_status",
        "package:mcp",
    ),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.toggle_mcp_server",
    timeout=120,
    cannot_decide=("model-says-it-has-none",),
    pins={
        "off-tools-leave-request": ("client:toggle_mcp_server",),
        "off-tool-call-fails": ("client:toggle_mcp_server",),
        "on-brings-tools-back": ("client:toggle_mcp_server",),
    },
)
async def toggle_removes_server_tools(h: Harness) -> ToggleSeen:
    calls: list[str] = []
    stdio = stdio_mcp_server(h.workdir("mcp"), "s", [McpTool(_TOGGLED["s"], result="z ran")])
    ran: dict[str, list[str]] = {}  # phase -> the tools whose handler ran in that turn
    refused: dict[str, str] = {}  # "server off|on" -> the error a toggle raised

    def called() -> Counter[str]:
        return Counter([*calls, *(c["tool"] for c in stdio.calls())])

    async def turn(c: Conversation, phase: str) -> None:
        before = called()
        await c.send(_prompt(phase))
        await c.response()
        ran[phase] = sorted((called() - before).elements())

    async def toggle(c: Conversation, enabled: bool) -> None:
        for server in _TOGGLED:
            try:
                await c.call("toggle_mcp_server", server, enabled)
            except Exception as exc:  # the CLI refused: the observation says so
                refused[f"{server} {'on' if enabled else 'off'}"] = f"{type(exc).__name__}: {exc}".splitlines()[0]

    async def steps(c: Conversation) -> None:
        # every server connected before the first turn, however slowly the stdio one starts
        await _settled(c, lambda st: all((st.get(n) or {}).get("status") == "connected" for n in ("a", "b", "s")))
        await turn(c, "before")
        await toggle(c, False)
        await turn(c, "toggled off")
        await toggle(c, True)
        await turn(c, "toggled on")

    script: list[Reply | str] = []
    for phase in _PHASES:
        script += [reply(*(tool_use(name, {}, id=_use_id(phase, name)) for name in _TOOLS)), "done"]
    run = await h.converse(
        steps,
        script=script,
        mcp_servers={
            "a": _server("a", _in_process(_TOGGLED["a"], calls)),
            "b": _server("b", _in_process(_KEPT["b"], calls)),
            "s": stdio.config,
        },
        allowed_tools=list(_TOOLS),
        env=_NO_SEARCH,
        timeout=110,
    )
    phases: dict[str, Phase] = {}
    for phase in _PHASES:
        opening = run.first(MAIN, carrying=_prompt(phase))  # the request opening its turn
        phases[phase] = {
            "offered": None if opening is None else sorted(t for t in opening.offered_tools if t in _TOOLS),
            "call is_error": {name: _result_of(run, _use_id(phase, name)) for name in _TOOLS},
            "ran": ran.get(phase),
        }
    # phases' keys are _PHASES, ToggleSeen's first three keys
    return cast(ToggleSeen, {**phases, "toggles refused": refused, "error": run.error_line})


def _prompt(phase: str) -> str:
    return f"call every tool ({phase})"


def _use_id(phase: str, tool: str) -> str:
    return f"toolu_{_PHASES.index(phase)}_{tool.split('__')[1]}"


@toggle_removes_server_tools.decide
def _(seen: ToggleSeen) -> dict[str, Check]:
    off, on = seen["toggled off"], seen["toggled on"]
    toggled = sorted(t for t, srv in _TOOLS.items() if srv in _TOGGLED)
    kept = sorted(t for t, srv in _TOOLS.items() if srv in _KEPT)

    def ran(phase: Phase, tool: str) -> bool:
        return tool.split("__")[2] in (phase["ran"] or [])

    def works(phase: Phase, tool: str) -> bool:
        return phase["call is_error"][tool] is False and ran(phase, tool)

    def line(phase: PhaseName) -> str:
        p = seen[phase]
        return f"{phase}: offered {p['offered']}, is_error {p['call is_error']}, ran {p['ran']}"

    baseline = seen["before"]["offered"] == sorted(_TOOLS)
    return {
        "off-tools-leave-request": check(
            baseline and off["offered"] is not None and not set(toggled) & set(off["offered"]),
            ("" if baseline else f"{line('before')}; ")
            + f"{line('toggled off')} (toggles refused {seen['toggles refused']}; error {seen['error']})",
        ),
        "off-tool-call-fails": check(
            all(off["call is_error"][t] is True and not ran(off, t) for t in toggled),
            f"{line('toggled off')} (toggles refused {seen['toggles refused']})",
        ),
        "other-server-keeps-working": check(
            off["offered"] is not None and all(t in off["offered"] and works(off, t) for t in kept),
            line("toggled off"),
        ),
        "on-brings-tools-back": check(
            on["offered"] is not None and all(t in on["offered"] and works(on, t) for t in toggled),
            f"{line('toggled on')} (toggles refused {seen['toggles refused']})",
        ),
        "model-says-it-has-none": needs_live("whether the model, asked for a toggled-off tool, says it has none"),
    }


_ALL_WORK: dict[str, bool | None] = {t: False for t in _TOOLS}


def _all_worked() -> Phase:
    return {"offered": sorted(_TOOLS), "call is_error": _ALL_WORK, "ran": ["x", "y", "z"]}


toggle_removes_server_tools.differs_on(
    {
        "before": _all_worked(),
        "toggled off": _all_worked(),
        "toggled on": {"offered": ["mcp__b__y"], "call is_error": {**_ALL_WORK, "mcp__a__x": True}, "ran": ["y"]},
        "toggles refused": {},
        "error": None,
    }
)
toggle_removes_server_tools.differs_on(
    {
        "before": {"offered": sorted(_TOOLS), "call is_error": _ALL_WORK, "ran": ["x", "y", "z"]},
        "toggled off": {"offered": [], "call is_error": {t: True for t in _TOOLS}, "ran": []},
        "toggled on": {"offered": sorted(_TOOLS), "call is_error": _ALL_WORK, "ran": ["x", "y", "z"]},
        "toggles refused": {},
        "error": None,
    }
)


# --- mcp.status-tools-annotations-and-pending -------------------------------------------

# short tool name -> its readOnlyHint (None: no hint); the in-process server `mem` offers
# these, the stdio server `slow` the same with an "s" in front
_HINTS: dict[str, bool | None] = {"ro": True, "rw": False, "plain": None}
_SLOW_START = 45.0  # `slow` answers nothing for this long unless released first (order, not clock)


class Brief(TypedDict):
    """A server's status and its tools' names only (_brief)."""

    status: Any
    tools: list[str]


# written step by step in the session: a key is absent when its step was not reached
_StatusSteps = TypedDict(
    "_StatusSteps",
    {
        "slow at connect": Brief | None,
        "once settled": dict[str, dict[str, Any] | None],  # mem's and slow's _status entries
        "slow after off and on": Brief | None,
    },
    total=False,
)


class StatusSeen(_StatusSteps):
    error: str | None


@behaviour(
    id="mcp.status-tools-annotations-and-pending",
    claim=(
        "get_mcp_status() lists each server's tools by short name, with annotations.readOnly present exactly "
        "when the server declares readOnlyHint: true (a false hint and no hint both leave it out); a stdio "
        "server still starting is listed pending without tools, and once connected, turned off and on again, "
        "it is connected with its tools."
    ),
    summary="MCP status lists tools, readOnly exactly when declared; a starting server is pending",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "tools-by-short-name",
        "read-only-exactly-when-hinted",
        "starting-server-pending-without-tools",
        "back-connected-after-toggle",
    ),
    requires=(
        "option:mcp_servers",
        "option:env",
        "api:create_sdk_mcp_server",
        "api:ToolAnnotations",
        "api:ClaudeSDKClient.get_mcp_status",
        "api:ClaudeSDKClient.toggle_mcp_server",
        "package:mcp",
    ),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.get_mcp_status",
    timeout=120,
    pins={
        "tools-by-short-name": ("client:get_mcp_status",),
        "read-only-exactly-when-hinted": ("client:get_mcp_status",),
        "starting-server-pending-without-tools": ("client:get_mcp_status",),
    },
)
async def status_tools_annotations_and_pending(h: Harness) -> StatusSeen:
    calls: list[str] = []
    hinted = {name: {} if hint is None else {"annotations": {"readOnlyHint": hint}} for name, hint in _HINTS.items()}
    mem = _server("mem", *(_in_process(name, calls, **kw) for name, kw in hinted.items()))
    slow_tools = [
        McpTool(f"s{n}", annotations=None if hint is None else {"readOnlyHint": hint}) for n, hint in _HINTS.items()
    ]
    slow = stdio_mcp_server(h.workdir("mcp"), "slow", slow_tools, start_delay=_SLOW_START)
    seen: _StatusSteps = {}

    def settled(status: dict[str, dict[str, Any]]) -> bool:
        return set(status) >= {"mem", "slow"} and all(v["status"] != "pending" for v in status.values())

    async def steps(c: Conversation) -> None:
        # `slow` cannot have answered initialize yet: it is released only after this look
        seen["slow at connect"] = _brief((await _status(c)).get("slow"))
        slow.release()
        status = await _settled(c, settled)
        seen["once settled"] = {srv: status.get(srv) for srv in ("mem", "slow")}
        await c.call("toggle_mcp_server", "slow", False)
        await c.call("toggle_mcp_server", "slow", True)
        seen["slow after off and on"] = _brief((await _status(c)).get("slow"))

    # The CLI's own default for MCP_CONNECTION_NONBLOCKING (the harness sets it to false).
    run = await h.converse(
        steps, mcp_servers={"mem": mem, "slow": slow.config}, env={"MCP_CONNECTION_NONBLOCKING": ""}, timeout=110
    )
    return {**seen, "error": run.error_line}


def _brief(server: dict[str, Any] | None) -> Brief | None:
    """A server's status and its tools' names only."""
    return None if server is None else {"status": server["status"], "tools": sorted(server["tools"])}


@status_tools_annotations_and_pending.decide
def _(seen: StatusSeen) -> dict[str, Check]:
    settled = seen["once settled"]
    first: Brief | dict[str, Any] = seen["slow at connect"] or {}
    back: Brief | dict[str, Any] = seen["slow after off and on"] or {}
    prefix = {"mem": "", "slow": "s"}
    expected = {srv: sorted(f"{p}{name}" for name in _HINTS) for srv, p in prefix.items()}
    tools = {srv: (settled.get(srv) or {}).get("tools") or {} for srv in prefix}
    read_only = {srv: {t: (a or {}).get("readOnly", "absent") for t, a in tools[srv].items()} for srv in prefix}
    wanted = {srv: {f"{p}{n}": True if hint else "absent" for n, hint in _HINTS.items()} for srv, p in prefix.items()}
    return {
        "tools-by-short-name": check(
            {srv: sorted(t) for srv, t in tools.items()} == expected,
            f"tools listed once settled { ({srv: sorted(t) for srv, t in tools.items()}) } (error {seen['error']})",
        ),
        "read-only-exactly-when-hinted": check(
            read_only == wanted,
            f"annotations.readOnly per tool {read_only} (hints: ro true, rw false, plain none)",
        ),
        "starting-server-pending-without-tools": check(
            first.get("status") == "pending" and not first.get("tools"),
            f"right after connect slow was {first.get('status')!r} with tools {first.get('tools')}",
        ),
        "back-connected-after-toggle": check(
            back.get("status") == "connected" and back.get("tools") == expected["slow"],
            f"after off and on slow was {back.get('status')!r} with tools {back.get('tools')}",
        ),
    }


status_tools_annotations_and_pending.differs_on(
    {
        "slow at connect": {"status": "connected", "tools": ["splain", "sro", "srw"]},
        "once settled": {
            "mem": {"status": "connected", "tools": {"mcp__mem__ro": {"readOnly": True}, "mcp__mem__rw": {}}},
            "slow": {"status": "connected", "tools": {"sro": {"readOnly": True}, "srw": {"readOnly": False}}},
        },
        "slow after off and on": {"status": "pending", "tools": []},
        "error": None,
    }
)


# --- mcp.reconnect-restarts-one-server --------------------------------------------------


# One server: the setting each of its processes read as it started; whether the processes
# running before the reconnect, and those started since, still run; who served its call.
ServerRun = TypedDict(
    "ServerRun",
    {
        "start settings": list[Any],
        "first processes running": list[bool],
        "later processes running": list[bool],
        "call served by": list[str],  # "first" or "later", per call
    },
)
# written step by step in the session: a key is absent when its step was not reached
_ReconnectSteps = TypedDict(
    "_ReconnectSteps", {"status before": dict[str, Any], "a": ServerRun, "b": ServerRun}, total=False
)


class ReconnectSeen(_ReconnectSteps):
    error: str | None


@behaviour(
    id="mcp.reconnect-restarts-one-server",
    claim=(
        "reconnect_mcp_server(name) restarts that one server: its process ends and a new one starts with the "
        "session's config, reading what is on disk anew, and serves its tools; the other servers' processes "
        "are left running untouched."
    ),
    summary="reconnect_mcp_server restarts that one server and leaves the others running",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=("old-process-ends", "new-process-rereads-disk", "new-process-serves", "others-untouched"),
    requires=(
        "option:mcp_servers",
        "option:allowed_tools",
        "api:ClaudeSDKClient.reconnect_mcp_server",
        "api:ClaudeSDKClient.get_mcp_status",
        "package:mcp",
    ),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.reconnect_mcp_server",
    timeout=120,
    pins={
        "old-process-ends": ("client:reconnect_mcp_server",),
        "new-process-rereads-disk": ("client:reconnect_mcp_server",),
        "new-process-serves": ("client:reconnect_mcp_server",),
        "others-untouched": ("client:reconnect_mcp_server",),
    },
)
async def reconnect_restarts_one_server(h: Harness) -> ReconnectSeen:
    servers = {name: stdio_mcp_server(h.workdir("mcp"), name, [McpTool("which")]) for name in ("a", "b")}
    for server in servers.values():
        server.setting_file.write_text("v1", encoding="utf-8")
    seen: _ReconnectSteps = {}

    async def steps(c: Conversation) -> None:
        status = await _settled(c, lambda s: all((s.get(n) or {}).get("status") == "connected" for n in servers))
        seen["status before"] = {n: (status.get(n) or {}).get("status") for n in servers}
        first = {n: [s["pid"] for s in server.starts()] for n, server in servers.items()}
        for server in servers.values():
            server.setting_file.write_text("v2", encoding="utf-8")
        await c.call("reconnect_mcp_server", "a")
        await c.send("call both")
        await c.response()
        # the old process may still be on its way out when the turn ends: wait for it, bounded
        await _eventually(lambda: not set(first["a"]) & set(servers["a"].running()))
        for n, server in servers.items():
            running, served = server.running(), server.served_by()
            # n runs over the servers' names, "a" and "b"
            cast(dict[str, ServerRun], seen)[n] = {
                "start settings": [s["setting"] for s in server.starts()],
                "first processes running": sorted({pid in running for pid in first[n]}),
                "later processes running": sorted({s["pid"] in running for s in server.starts()[len(first[n]) :]}),
                "call served by": ["first" if pid in first[n] else "later" for pid in served],
            }

    run = await h.converse(
        steps,
        script=[reply(tool_use("mcp__a__which", {}), tool_use("mcp__b__which", {})), "done"],
        mcp_servers={n: s.config for n, s in servers.items()},
        allowed_tools=["mcp__a__which", "mcp__b__which"],
        timeout=110,
    )
    return {**seen, "error": run.error_line}


@reconnect_restarts_one_server.decide
def _(seen: ReconnectSeen) -> dict[str, Check]:
    a: ServerRun | dict[str, Any] = seen.get("a") or {}
    b: ServerRun | dict[str, Any] = seen.get("b") or {}

    def line(name: Literal["a", "b"]) -> str:
        s: ServerRun | dict[str, Any] = seen.get(name) or {}
        return (
            f"{name}: start settings {s.get('start settings')}, "
            f"first process running {s.get('first processes running')}, "
            f"later {s.get('later processes running')}, call served by {s.get('call served by')}"
        )

    return {
        "old-process-ends": check(a.get("first processes running") == [False], f"{line('a')} (error {seen['error']})"),
        "new-process-rereads-disk": check(
            a.get("start settings") == ["v1", "v2"] and a.get("later processes running") == [True], line("a")
        ),
        "new-process-serves": check(a.get("call served by") == ["later"], line("a")),
        "others-untouched": check(
            b.get("start settings") == ["v1"]
            and b.get("first processes running") == [True]
            and b.get("call served by") == ["first"],
            line("b"),
        ),
    }


reconnect_restarts_one_server.differs_on(
    {
        "status before": {"a": "connected", "b": "connected"},
        "a": {
            "start settings": ["v1"],
            "first processes running": [True],
            "later processes running": [],
            "call served by": ["first"],
        },
        "b": {
            "start settings": ["v1", "v2"],
            "first processes running": [False],
            "later processes running": [True],
            "call served by": ["later"],
        },
        "error": None,
    }
)


# --- mcp.set-servers-semantics ----------------------------------------------------------

# The first bundled CLI seen answering mcp_set_servers: 2.1.1 (SDK 0.1.19, the oldest bundling one).
_SET_SERVERS_CLI = "2.1.1"


async def _listed(c: Conversation) -> list[str]:
    """Every server get_mcp_status() lists (Conversation.mcp_status: the same request on
    0.1.19, which lacks the method), as "name: status", sorted; a second copy shows twice."""
    return sorted(f"{s.get('name')}: {s.get('status')}" for s in (await c.mcp_status()).get("mcpServers") or [])


async def _listed_once(c: Conversation, ready: Callable[[list[str]], bool]) -> list[str]:
    """_listed() until `ready(listed)` or `_SETTLE` seconds; the last list seen."""
    return await _until(lambda: _listed(c), ready)


StepName = Literal["set {}", "set {st: same config}", "set {st: another config}"]


class _SetAnswer(TypedDict):
    answer: str  # "success", "error: ...", or "none" (no answer at all: then this key alone)


# the response's added, removed and errors; the servers listed; whether the first st process
# runs; the setting each later st process still running read as it started
_SetDone = TypedDict(
    "_SetDone",
    {
        "added": list[str],
        "removed": list[str],
        "errors": dict[str, Any],
        "listed": list[str],
        "first st process running": bool,
        "later st processes running": list[str],
    },
    total=False,
)


class SetStep(_SetAnswer, _SetDone):
    """One mcp_set_servers request: its answer, then (when answered) what it did."""


_SetAsked = TypedDict("_SetAsked", {"python set_mcp_servers": bool})
# written step by step in the session: a key is absent when its step was not reached
_SetSteps = TypedDict(
    "_SetSteps",
    {"at start": list[str], "set {}": SetStep, "set {st: same config}": SetStep, "set {st: another config}": SetStep},
    total=False,
)


class _SetSoFar(_SetAsked, _SetSteps):
    """Whether Python has set_mcp_servers, and the session's steps."""


class SetSeen(_SetSoFar):
    error: str | None


@behaviour(
    id="mcp.set-servers-semantics",
    claim=(
        "Replacing a running session's MCP servers (the CLI's mcp_set_servers request, TypeScript "
        "setMcpServers(); Python has no set_mcp_servers, so the request goes through the client's control "
        "channel) leaves the servers the session started with alone and replaces only those it added itself: "
        "leaving a start-up stdio server out removes nothing (it stays connected), naming it again adds a "
        "second, dynamic copy, naming it with another config starts a process with that config while the old "
        "one keeps running, and in-process servers it does not name are removed."
    ),
    summary="Setting MCP servers replaces those it added; start-up stdio servers keep running",
    source=("000", "Changing a running session"),
    tier="cli",
    checks=(
        "leaving-out-removes-nothing",
        "naming-again-adds-copy",
        "new-config-starts-beside-old",
        "unnamed-in-process-removed",
    ),
    requires=("option:mcp_servers", "api:create_sdk_mcp_server", "package:mcp", f"cli>={_SET_SERVERS_CLI}"),
    timeout=120,
)
async def set_servers_semantics(h: Harness) -> SetSeen:
    st = stdio_mcp_server(h.workdir("mcp"), "st", [McpTool("which")])
    st.setting_file.write_text("v1", encoding="utf-8")
    seen: _SetSoFar = {"python set_mcp_servers": hasattr(sdk_class("ClaudeSDKClient"), "set_mcp_servers")}
    # the steps' keys are configs' keys, StepName
    steps_seen = cast(dict[str, SetStep], seen)

    async def steps(c: Conversation) -> None:
        seen["at start"] = await _listed_once(c, lambda s: s == ["st: connected", "time: connected"])
        first = [s["pid"] for s in st.starts()]
        configs = {
            "set {}": {},
            "set {st: same config}": {"st": st.config},
            "set {st: another config}": {"st": {**st.config, "env": {"SDKPROBE_CONFIG": "2"}}},
        }
        for step, servers in configs.items():
            if step == "set {st: another config}":
                st.setting_file.write_text("v2", encoding="utf-8")  # what a process started from now on reads
            try:
                answer = await c.control({"subtype": "mcp_set_servers", "servers": servers})
            except RuntimeError:  # no answer at all: the CLI does not know the request
                steps_seen[step] = {"answer": "none"}
                return
            response = answer.get("response") or {}
            # Order, not clock: the CLI answers once it has connected what it adds and ended
            # what it replaces (2.1.1, 2.1.97, 2.1.332); the list settles any server still pending.
            listed = await _listed_once(c, lambda s: not any(x.endswith(": pending") for x in s))
            running = st.running()
            steps_seen[step] = {
                "answer": answer["subtype"] if answer["subtype"] == "success" else f"error: {answer.get('error')}",
                "added": sorted(map(str, response.get("added") or [])),
                "removed": sorted(map(str, response.get("removed") or [])),
                "errors": response.get("errors") or {},
                "listed": listed,
                "first st process running": all(pid in running for pid in first),
                # the setting each later st process read as it started, for those still running
                "later st processes running": sorted(
                    str(s["setting"]) for s in st.starts() if s["pid"] not in first and s["pid"] in running
                ),
            }

    time = _server("time", _in_process("now", []))
    run = await h.converse(steps, mcp_servers={"st": st.config, "time": time}, timeout=110)
    return {**seen, "error": run.error_line}


@set_servers_semantics.decide
def _(seen: SetSeen) -> dict[str, Check]:
    api = "no public set_mcp_servers" if not seen["python set_mcp_servers"] else "set_mcp_servers exists"

    def line(step: StepName) -> str:
        s: SetStep | dict[str, Any] = seen.get(step) or {}
        return (
            f"{step} answered {s.get('answer')} (added {s.get('added')}, removed {s.get('removed')}, "
            f"errors {s.get('errors')}); listed {s.get('listed')}; first st process running "
            f"{s.get('first st process running')}, later ones running {s.get('later st processes running')} "
            f"({api}: sent as the mcp_set_servers control request; error {seen.get('error')})"
        )

    def decided(step: StepName, ok: Callable[[SetStep], bool]) -> Check:
        s = seen.get(step)
        if s is None or s.get("answer") == "none":
            return undecidable(f"the CLI did not answer mcp_set_servers ({step}); start-up list {seen.get('at start')}")
        return check(s["answer"] == "success" and ok(s), line(step))

    return {
        "leaving-out-removes-nothing": decided(
            "set {}",
            lambda s: "st" not in s["removed"] and "st: connected" in s["listed"] and s["first st process running"],
        ),
        # a copy: the CLI lists st twice (CLI 2.1.1 and 2.1.37 do, sharing one process), or a
        # second st process runs beside the first
        "naming-again-adds-copy": decided(
            "set {st: same config}",
            lambda s: (
                s["listed"].count("st: connected") >= 2
                or (s["first st process running"] and len(s["later st processes running"]) >= 1)
            ),
        ),
        "new-config-starts-beside-old": decided(
            "set {st: another config}",
            lambda s: s["first st process running"] and "v2" in s["later st processes running"],
        ),
        "unnamed-in-process-removed": decided(
            "set {}", lambda s: "time" in s["removed"] and not any(x.startswith("time: ") for x in s["listed"])
        ),
    }


def _set_step(removed: list[str], listed: list[str], first: bool, later: list[str]) -> SetStep:
    return {
        "answer": "success",
        "added": [],
        "removed": removed,
        "errors": {},
        "listed": listed,
        "first st process running": first,
        "later st processes running": later,
    }


set_servers_semantics.differs_on(
    {
        "python set_mcp_servers": False,
        "at start": ["st: connected", "time: connected"],
        "set {}": _set_step(["st"], ["time: connected"], False, []),
        "set {st: same config}": _set_step([], ["st: connected"], True, []),
        "set {st: another config}": _set_step([], ["st: connected"], False, ["v2"]),
        "error": None,
    }
)
set_servers_semantics.differs_on(
    {
        "python set_mcp_servers": False,
        "at start": ["st: connected", "time: connected"],
        "set {}": {"answer": "error: Unsupported control request subtype: mcp_set_servers"},
        "set {st: same config}": {"answer": "error: Unsupported control request subtype: mcp_set_servers"},
        "set {st: another config}": {"answer": "error: Unsupported control request subtype: mcp_set_servers"},
        "error": None,
    }
)
