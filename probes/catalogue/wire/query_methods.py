"""What the TypeScript SDK's Query methods send the CLI and give back: each control method's
request and the answer its promise resolves to (or the CLI's error it rejects with), the methods
that read the CLI's initialize answer, streamInput's messages on stdin, close() and an abort;
and the query a startup() handle runs on the CLI it started before the prompt was known.

TypeScript only: the Python SDK's client has no such methods (its own are the client's, probed
elsewhere), so each behaviour requires a Query method (`api:Query.NAME`) or function
(`api:startup`), which a Python SDK lacks: not-applicable there."""

from __future__ import annotations

from typing import Any, NamedTuple, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, leave_uncovered, undecidable
from sdkprobe.harness import Harness, Scenario, lacks, ts_iterable

# --- the Query methods called in turn, shared by the two behaviours that call them --------------


class Call(NamedTuple):
    """One call of a Query method and what its doc comment makes of it: the control request it
    sends (its subtype and the fields carrying the arguments), the CLI's answer the fake gives, and
    what the promise then resolves to (None for a Promise<void>)."""

    method: str
    args: tuple[Any, ...]
    subtype: str
    fields: dict[str, Any]
    answer: dict[str, Any]
    resolves: Any


_SERVERS = {"probe-stdio": {"type": "stdio", "command": "probe-mcp-command", "args": ["--probe"]}}
_MTIME = 1700000000123
_INIT = {"commands": [], "agents": [], "models": [], "output_style": "default", "available_output_styles": ["default"]}
_FRESH_INIT = {
    **_INIT,
    "output_style": "probe-fresh-style",
    "available_output_styles": ["default", "probe-fresh-style"],
}
_USAGE = {"session": {"total_cost_usd": 0.25, "total_api_duration_ms": 7}, "rate_limits_available": False}

# sub-check -> its calls, in the order the probe makes them
_CALLS: dict[str, tuple[Call, ...]] = {
    "apply-flag-settings": (
        Call(
            "applyFlagSettings",
            ({"model": "probe-flag-model", "permissions": {"deny": ["Bash(rm:*)"]}},),
            "apply_flag_settings",
            {"settings": {"model": "probe-flag-model", "permissions": {"deny": ["Bash(rm:*)"]}}},
            {},
            None,
        ),
    ),
    "update-settings": (
        Call(
            "updateSettings",
            ("localSettings", {"outputStyle": "probe-style"}),
            "update_settings",
            {"source": "localSettings", "settings": {"outputStyle": "probe-style"}},
            {},
            None,
        ),
    ),
    "set-max-thinking-tokens": (
        Call("setMaxThinkingTokens", (2048,), "set_max_thinking_tokens", {"max_thinking_tokens": 2048}, {}, None),
        Call("setMaxThinkingTokens", (None,), "set_max_thinking_tokens", {"max_thinking_tokens": None}, {}, None),
    ),
    "set-mcp-permission-mode-override": (
        Call(
            "setMcpPermissionModeOverride",
            ("probe-server", "default"),
            "set_mcp_permission_mode_override",
            {"serverName": "probe-server", "mode": "default"},
            {"warning": "probe: no MCP server named probe-server"},
            {"warning": "probe: no MCP server named probe-server"},
        ),
    ),
    "set-mcp-servers": (
        Call(
            "setMcpServers",
            (_SERVERS,),
            "mcp_set_servers",
            {"servers": _SERVERS},
            {"added": ["probe-stdio"], "removed": ["probe-old"], "errors": {"probe-stdio": "probe: slow"}},
            {"added": ["probe-stdio"], "removed": ["probe-old"], "errors": {"probe-stdio": "probe: slow"}},
        ),
    ),
    "seed-read-state": (
        Call(
            "seedReadState", ("notes.txt", _MTIME), "seed_read_state", {"path": "notes.txt", "mtime": _MTIME}, {}, None
        ),
    ),
    "read-file": (
        Call(
            "readFile",
            ("notes.txt", {"maxBytes": 64, "encoding": "base64"}),
            "read_file",
            {"path": "notes.txt", "max_bytes": 64, "encoding": "base64"},
            {"contents": "cHJvYmU=", "absPath": "/probe/notes.txt", "encoding": "base64"},
            {"contents": "cHJvYmU=", "absPath": "/probe/notes.txt", "encoding": "base64"},
        ),
    ),
    "read-mcp-resource": (
        Call(
            "readMcpResource",
            ("probe-server", "ui://probe/widget"),
            "mcp_read_resource",
            {"serverName": "probe-server", "uri": "ui://probe/widget"},
            {"contents": [{"uri": "ui://probe/widget", "mimeType": "text/html", "text": "<p>probe</p>"}]},
            {"contents": [{"uri": "ui://probe/widget", "mimeType": "text/html", "text": "<p>probe</p>"}]},
        ),
    ),
    "reload-plugins": (
        Call(
            "reloadPlugins",
            ({"holdOnCacheImpact": True},),
            "reload_plugins",
            {"hold_on_cache_impact": True},
            {"commands": [], "agents": [], "plugins": [], "mcpServers": [], "error_count": 0, "held": True},
            {"commands": [], "agents": [], "plugins": [], "mcpServers": [], "error_count": 0, "held": True},
        ),
    ),
    "reload-skills": (
        Call(
            "reloadSkills",
            (),
            "reload_skills",
            {},
            {"skills": [{"name": "probe-skill", "description": "a probe's skill", "argumentHint": ""}]},
            {"skills": [{"name": "probe-skill", "description": "a probe's skill", "argumentHint": ""}]},
        ),
    ),
    "reload-output-styles": (
        Call(
            "reloadOutputStyles",
            (),
            "reload_output_styles",
            {},
            {"available_output_styles": ["default", "probe-style"]},
            {"available_output_styles": ["default", "probe-style"]},
        ),
    ),
    "reinitialize": (Call("reinitialize", (), "initialize", {}, _FRESH_INIT, _FRESH_INIT),),
    "background-tasks": (
        Call(
            "backgroundTasks",
            ("toolu_probe_1",),
            "background_tasks",
            {"tool_use_id": "toolu_probe_1"},
            {"backgrounded": False},
            False,
        ),
    ),
    "usage": (
        Call(
            "usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET",
            ({"skipBehaviors": True},),
            "get_usage",
            {"skip_behaviors": True},
            _USAGE,
            _USAGE,
        ),
    ),
}


def _label(call: Call) -> str:
    return f"{call.method}({', '.join(repr(a) for a in call.args)})"


class Returned(TypedDict):
    """What one call's promise gave: the value it resolved to, or the error it rejected with."""

    resolved: Any
    error: str | None


async def _run_calls(
    h: Harness, scenario: Scenario, groups: dict[str, tuple[Call, ...]]
) -> tuple[dict[str, Returned], dict[str, str], Any]:
    """Each group's calls made in turn on one client session (those of a method the release lacks
    left out, with why), then one turn: what each call gave, what was lacked, and the run."""
    lacked = {name: why for name, calls in groups.items() if (why := lacks(f"api:Query.{calls[0].method}")) is not None}
    seen: dict[str, Returned] = {}

    async def drive(client: Any, outcome: Any) -> None:
        await _call_each(client, [c for name, calls in groups.items() if name not in lacked for c in calls], seen)
        await client.query("done")
        async for message in client.receive_response():
            outcome.messages.append(message)

    run = await h.wire(None, scenario=scenario, client=True, drive=drive)
    return seen, lacked, run


async def _call_each(client: Any, calls: list[Call], seen: dict[str, Returned]) -> None:
    for call in calls:
        try:
            value = await client.query_method(call.method, *call.args)
        except Exception as exc:  # the promise rejected: what the SDK gave its caller
            seen[_label(call)] = {"resolved": None, "error": f"{type(exc).__name__}: {exc}"}
        else:
            seen[_label(call)] = {"resolved": value, "error": None}


# --- wire.query-control-methods-send-and-resolve ------------------------------------------------


class MethodsSeen(TypedDict):
    """Each call by its label (method and arguments) with what it gave, or why the release lacks
    the method; and every control request the SDK sent after its first initialize, in order (its
    fields but request_id)."""

    calls: dict[str, Returned]
    lacked: dict[str, str]
    requests: list[dict[str, Any]]
    error: str | None


def _requests_after_initialize(run: Any) -> list[dict[str, Any]]:
    sent = [dict(m.get("request") or {}) for m in run.control_requests()]
    first = next((i for i, r in enumerate(sent) if r.get("subtype") == "initialize"), -1)
    return sent[first + 1 :]


@behaviour(
    id="wire.query-control-methods-send-and-resolve",
    claim=(
        "Each control method of the TypeScript SDK's Query (applyFlagSettings, updateSettings, "
        "setMaxThinkingTokens, setMcpPermissionModeOverride, setMcpServers, seedReadState, readFile, "
        "readMcpResource, reloadPlugins, reloadSkills, reloadOutputStyles, reinitialize, backgroundTasks, "
        "usage_EXPERIMENTAL_...) sends the CLI one control request of its subtype carrying the arguments given, "
        "and its promise resolves to what the CLI answered, as its doc comment describes it: reinitialize() "
        "a fresh initialize answer, not the cached one; backgroundTasks() the answer's `backgrounded`."
    ),
    summary="Each Query control method sends its request and resolves to the CLI's answer",
    source=("sdk-ts", "Query"),
    tier="wire",
    checks=tuple(_CALLS),
    requires=("api:Query.applyFlagSettings",),
    pins={name: (f"query:{calls[0].method}",) for name, calls in _CALLS.items()},
)
async def query_control_methods_send_and_resolve(h: Harness) -> MethodsSeen:
    scenario = Scenario().answer_each("initialize", _INIT, _FRESH_INIT)
    for calls in _CALLS.values():
        for call in calls:
            if call.subtype != "initialize":
                scenario.answer(call.subtype, call.answer)
    seen, lacked, run = await _run_calls(h, scenario.turn(), _CALLS)
    return {"calls": seen, "lacked": lacked, "requests": _requests_after_initialize(run), "error": run.error_line}


def _judge_calls(
    calls: tuple[Call, ...], seen: dict[str, Returned], requests: list[dict[str, Any]], taken: set[int]
) -> tuple[bool, str]:
    """Whether each call sent one request of its subtype carrying its fields (the next of that
    subtype not yet matched to a call) and resolved to what the doc comment says of the answer."""
    wrong: list[str] = []
    for call in calls:
        label = _label(call)
        got = seen.get(label)
        at = next((i for i, r in enumerate(requests) if i not in taken and r.get("subtype") == call.subtype), None)
        if at is None:
            wrong.append(f"{label} sent no {call.subtype} request")
        else:
            taken.add(at)
            request = requests[at]
            off = {k: request.get(k, "<absent>") for k, v in call.fields.items() if request.get(k, "<absent>") != v}
            if off:
                wrong.append(f"{label} sent {call.subtype} with {off} (expected {call.fields})")
        if got is None:
            wrong.append(f"{label} was not called")
        elif got["error"] is not None:
            wrong.append(f"{label} rejected: {got['error']}")
        elif got["resolved"] != call.resolves:
            wrong.append(f"{label} resolved to {got['resolved']!r} (the CLI answered {call.answer!r})")
    if wrong:
        return False, "; ".join(wrong)
    return True, f"{', '.join(_label(c) for c in calls)}: {calls[0].subtype} sent as given, resolved to the answer"


@query_control_methods_send_and_resolve.decide
def _(seen: MethodsSeen) -> dict[str, Check]:
    taken: set[int] = set()
    out: dict[str, Check] = {}
    for name, calls in _CALLS.items():
        if name in seen["lacked"]:
            out[name] = undecidable(seen["lacked"][name])
            continue
        ok, note = _judge_calls(calls, seen["calls"], seen["requests"], taken)
        error = seen["error"]
        out[name] = check(ok and error is None, note + (f"; the run raised {error}" if error else ""))
    return out


def _methods_seen(**change: Any) -> MethodsSeen:
    """An observation where every call sent its request and resolved as the claim says, but for `change`."""
    calls: dict[str, Returned] = {}
    requests: list[dict[str, Any]] = []
    for group in _CALLS.values():
        for call in group:
            calls[_label(call)] = {"resolved": call.resolves, "error": None}
            requests.append({"subtype": call.subtype, **call.fields})
    seen: MethodsSeen = {"calls": calls, "lacked": {}, "requests": requests, "error": None}
    return {**seen, **change}  # type: ignore[typeddict-item]


def _without_request(subtype: str) -> list[dict[str, Any]]:
    return [r for r in _methods_seen()["requests"] if r.get("subtype") != subtype]


def _renamed_field(subtype: str, old: str, new: str) -> list[dict[str, Any]]:
    return [
        {(new if k == old else k): v for k, v in r.items()} if r.get("subtype") == subtype else r
        for r in _methods_seen()["requests"]
    ]


def _resolving(call: Call, value: Any, error: str | None = None) -> dict[str, Returned]:
    return {**_methods_seen()["calls"], _label(call): {"resolved": value, "error": error}}


_BY_NAME = {name: calls[0] for name, calls in _CALLS.items()}
# a release whose applyFlagSettings sends nothing (a no-op that still resolves)
query_control_methods_send_and_resolve.differs_on(_methods_seen(requests=_without_request("apply_flag_settings")))
# a release that sends updateSettings' source under another name the CLI does not read
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(requests=_renamed_field("update_settings", "source", "settingSource"))
)
# a release that drops setMaxThinkingTokens' null (clearing no longer reaches the CLI)
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(
        requests=[
            r
            for r in _methods_seen()["requests"]
            if not (r.get("subtype") == "set_max_thinking_tokens" and r.get("max_thinking_tokens") is None)
        ]
    )
)
# a release whose setMcpPermissionModeOverride resolves {} whatever the CLI warned
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(calls=_resolving(_BY_NAME["set-mcp-permission-mode-override"], {}))
)
# a release whose setMcpServers resolves to nothing (Promise<void>), losing added/removed/errors
query_control_methods_send_and_resolve.differs_on(_methods_seen(calls=_resolving(_BY_NAME["set-mcp-servers"], None)))
# a release that sends seedReadState's mtime in seconds
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(
        requests=[
            {**r, "mtime": _MTIME // 1000} if r.get("subtype") == "seed_read_state" else r
            for r in _methods_seen()["requests"]
        ]
    )
)
# a release whose readFile drops the maxBytes cap on the way
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(
        requests=[
            {k: v for k, v in r.items() if k != "max_bytes"} if r.get("subtype") == "read_file" else r
            for r in _methods_seen()["requests"]
        ]
    )
)
# a release whose readMcpResource resolves to the contents list alone, not the answer
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(calls=_resolving(_BY_NAME["read-mcp-resource"], _BY_NAME["read-mcp-resource"].answer["contents"]))
)
# a release that sends holdOnCacheImpact camel-cased, which the CLI does not read
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(requests=_renamed_field("reload_plugins", "hold_on_cache_impact", "holdOnCacheImpact"))
)
# a release whose reloadSkills resolves before asking (a cached list, no request)
query_control_methods_send_and_resolve.differs_on(_methods_seen(requests=_without_request("reload_skills")))
# a release whose reloadOutputStyles resolves to the names alone
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(calls=_resolving(_BY_NAME["reload-output-styles"], ["default", "probe-style"]))
)
# a release whose reinitialize() gives back the cached first answer instead of asking again
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(requests=_without_request("initialize"), calls=_resolving(_BY_NAME["reinitialize"], _INIT))
)
# a release whose backgroundTasks() resolves true whatever the CLI answered
query_control_methods_send_and_resolve.differs_on(_methods_seen(calls=_resolving(_BY_NAME["background-tasks"], True)))
# a release whose usage call lost skipBehaviors (the scan runs anyway)
query_control_methods_send_and_resolve.differs_on(
    _methods_seen(
        requests=[
            {"subtype": "get_usage"} if r.get("subtype") == "get_usage" else r for r in _methods_seen()["requests"]
        ]
    )
)


# --- wire.query-control-method-errors-reject ------------------------------------------------------

# sub-check -> the calls whose doc comment says the promise rejects (throws) when the CLI refuses
_REJECTING = {
    "apply-flag-settings-rejects": _CALLS["apply-flag-settings"],
    "update-settings-rejects": _CALLS["update-settings"],
    "read-mcp-resource-rejects": _CALLS["read-mcp-resource"],
    "background-tasks-rejects": _CALLS["background-tasks"],
}
_READ_FILE = _CALLS["read-file"][0]
_REFUSAL = "probe: the CLI refused {subtype}"


class RefusedSeen(TypedDict):
    """Each call by its label with what its promise gave once the CLI answered its request with an
    error, and why the release lacks a method it lacks."""

    calls: dict[str, Returned]
    lacked: dict[str, str]
    error: str | None


@behaviour(
    id="wire.query-control-method-errors-reject",
    claim=(
        "When the CLI answers a Query control request with an error, the methods whose doc comment says they "
        "reject or throw on failure (applyFlagSettings, updateSettings, readMcpResource, backgroundTasks) reject "
        "with the CLI's error, and readFile(), which 'returns null on permission denial, missing file, or "
        "transport error', resolves to null."
    ),
    summary="A refused control request rejects its method's promise; readFile gives null",
    source=("sdk-ts", "Query"),
    tier="wire",
    checks=(*_REJECTING, "read-file-gives-null"),
    requires=("api:Query.applyFlagSettings",),
    pins={
        **{name: (f"query:{calls[0].method}",) for name, calls in _REJECTING.items()},
        "read-file-gives-null": ("query:readFile",),
    },
)
async def query_control_method_errors_reject(h: Harness) -> RefusedSeen:
    groups = {**_REJECTING, "read-file-gives-null": (_READ_FILE,)}
    scenario = Scenario()
    for calls in groups.values():
        scenario.fail(calls[0].subtype, _REFUSAL.format(subtype=calls[0].subtype))
    seen, lacked, run = await _run_calls(h, scenario.turn(), groups)
    return {"calls": seen, "lacked": lacked, "error": run.error_line}


@query_control_method_errors_reject.decide
def _(seen: RefusedSeen) -> dict[str, Check]:
    out: dict[str, Check] = {}
    for name, calls in {**_REJECTING, "read-file-gives-null": (_READ_FILE,)}.items():
        if name in seen["lacked"]:
            out[name] = undecidable(seen["lacked"][name])
            continue
        label = _label(calls[0])
        got = seen["calls"].get(label)
        refusal = _REFUSAL.format(subtype=calls[0].subtype)
        if name == "read-file-gives-null":
            ok = got is not None and got["error"] is None and got["resolved"] is None
        else:
            ok = got is not None and got["error"] is not None and refusal in got["error"]
        what = "was not called" if got is None else f"gave {got['resolved']!r} and raised {got['error']}"
        out[name] = check(ok and seen["error"] is None, f"refused with {refusal!r}, {label} {what}")
    return out


def _refused_seen(label: str, gave: Returned) -> RefusedSeen:
    """An observation where each refused call did what the claim says, but the call `label`, which gave `gave`."""
    calls: dict[str, Returned] = {
        _label(c[0]): {"resolved": None, "error": "Error: " + _REFUSAL.format(subtype=c[0].subtype)}
        for c in _REJECTING.values()
    }
    calls[_label(_READ_FILE)] = {"resolved": None, "error": None}
    return {"calls": {**calls, label: gave}, "lacked": {}, "error": None}


# a release whose applyFlagSettings swallows the CLI's refusal and resolves
query_control_method_errors_reject.differs_on(
    _refused_seen(_label(_CALLS["apply-flag-settings"][0]), {"resolved": None, "error": None})
)
# a release whose updateSettings rejects with an error of its own, the CLI's reason lost
query_control_method_errors_reject.differs_on(
    _refused_seen(_label(_CALLS["update-settings"][0]), {"resolved": None, "error": "Error: request failed"})
)
# a release whose readMcpResource resolves to undefined on a refusal
query_control_method_errors_reject.differs_on(
    _refused_seen(_label(_CALLS["read-mcp-resource"][0]), {"resolved": None, "error": None})
)
# a release whose backgroundTasks reads a refusal as "nothing backgrounded"
query_control_method_errors_reject.differs_on(
    _refused_seen(_label(_CALLS["background-tasks"][0]), {"resolved": False, "error": None})
)
# a release whose readFile lets the refusal through as a rejection instead of null
query_control_method_errors_reject.differs_on(
    _refused_seen(_label(_READ_FILE), {"resolved": None, "error": "Error: " + _REFUSAL.format(subtype="read_file")})
)


# --- wire.query-initialize-answer-read-back -------------------------------------------------------

_COMMANDS = [{"name": "probe-command", "description": "a probe's command", "argumentHint": "<what>"}]
_MODELS = [{"value": "probe-model", "displayName": "Probe Model", "description": "a probe's model"}]
_AGENTS = [{"name": "probe-agent", "description": "a probe's agent", "model": "probe-model"}]
_ACCOUNT = {"email": "probe@example.invalid", "organization": "Probe Org", "subscriptionType": "probe"}
# sub-check -> (the method, the initialize answer's field it reads, the value the fake answers)
_READ_BACK: dict[str, tuple[str, str, Any]] = {
    "supported-commands": ("supportedCommands", "commands", _COMMANDS),
    "supported-models": ("supportedModels", "models", _MODELS),
    "supported-agents": ("supportedAgents", "agents", _AGENTS),
    "account-info": ("accountInfo", "account", _ACCOUNT),
}


class ReadBackSeen(TypedDict):
    """What each method gave, by method name, and why the release lacks a method it lacks."""

    returned: dict[str, Returned]
    lacked: dict[str, str]
    error: str | None


@behaviour(
    id="wire.query-initialize-answer-read-back",
    claim=(
        "supportedCommands(), supportedModels(), supportedAgents() and accountInfo() of the TypeScript SDK's "
        "Query give the session's commands, models, agents and account as the CLI's answer to initialize "
        "carried them."
    ),
    summary="supportedCommands/Models/Agents and accountInfo give what initialize answered",
    source=("sdk-ts", "Query"),
    tier="wire",
    checks=tuple(_READ_BACK),
    requires=("api:Query.supportedCommands",),
    pins={name: (f"query:{method}",) for name, (method, _, _) in _READ_BACK.items()},
)
async def query_initialize_answer_read_back(h: Harness) -> ReadBackSeen:
    answer = {"output_style": "default", "available_output_styles": ["default"], "commands": [], "models": []}
    answer.update({field: value for _, field, value in _READ_BACK.values()})
    scenario = Scenario().answer("initialize", answer).turn()
    lacked = {m: why for m, _, _ in _READ_BACK.values() if (why := lacks(f"api:Query.{m}")) is not None}
    returned: dict[str, Returned] = {}

    async def drive(client: Any, outcome: Any) -> None:
        for method, _, _ in _READ_BACK.values():
            if method in lacked:
                continue
            try:
                returned[method] = {"resolved": await client.query_method(method), "error": None}
            except Exception as exc:
                returned[method] = {"resolved": None, "error": f"{type(exc).__name__}: {exc}"}
        await client.query("done")
        async for message in client.receive_response():
            outcome.messages.append(message)

    run = await h.wire(None, scenario=scenario, client=True, drive=drive)
    return {"returned": returned, "lacked": lacked, "error": run.error_line}


@query_initialize_answer_read_back.decide
def _(seen: ReadBackSeen) -> dict[str, Check]:
    out: dict[str, Check] = {}
    for name, (method, field, value) in _READ_BACK.items():
        if method in seen["lacked"]:
            out[name] = undecidable(seen["lacked"][method])
            continue
        got = seen["returned"].get(method)
        ok = got is not None and got["error"] is None and got["resolved"] == value
        what = "was not called" if got is None else f"gave {got['resolved']!r} and raised {got['error']}"
        out[name] = check(ok and seen["error"] is None, f"initialize answered {field}={value!r}; {method}() {what}")
    return out


def _read_back_seen(**change: Returned) -> ReadBackSeen:
    returned: dict[str, Returned] = {m: {"resolved": v, "error": None} for m, _, v in _READ_BACK.values()}
    return {"returned": {**returned, **change}, "lacked": {}, "error": None}


# a release whose supportedCommands lists only the built-in commands, not the CLI's
query_initialize_answer_read_back.differs_on(_read_back_seen(supportedCommands={"resolved": [], "error": None}))
# a release whose supportedModels reads a field the CLI no longer fills
query_initialize_answer_read_back.differs_on(_read_back_seen(supportedModels={"resolved": None, "error": None}))
# a release whose supportedAgents gives the agent names alone
query_initialize_answer_read_back.differs_on(
    _read_back_seen(supportedAgents={"resolved": ["probe-agent"], "error": None})
)
# a release whose accountInfo asks the CLI again and rejects where the CLI does not answer
query_initialize_answer_read_back.differs_on(
    _read_back_seen(accountInfo={"resolved": None, "error": "Error: Unsupported control request subtype"})
)


# --- wire.query-stream-input-and-close ------------------------------------------------------------

_STREAMED = ("probe streamed one", "probe streamed two")
_AFTER_CLOSE = "probe sent after close"


def _user(text: str) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None}


def _content(message: Any) -> Any:
    return (message.get("message") or {}).get("content") if isinstance(message, dict) else None


class ClosedSeen(TypedDict):
    """What streamInput gave and which of its messages reached the CLI's stdin, in order; after
    close(): whether every process the SDK spawned had ended (None: the run ended first), what the
    SDK still yielded (each message's type), and whether a message sent then reached the CLI."""

    stream_input: Returned
    streamed: list[str]
    processes_ended: bool | None
    yielded_after_close: list[str]
    reached_cli_after_close: bool
    error: str | None


@behaviour(
    id="wire.query-stream-input-and-close",
    claim=(
        "Query.streamInput(stream) of the TypeScript SDK writes each user message of the stream to the CLI, in "
        "order; close() terminates the CLI process and ends the query: after it no further message is received, "
        "and a message sent after it does not reach the CLI."
    ),
    summary="streamInput writes each message to the CLI; close() ends the CLI and the messages",
    source=("sdk-ts", "Query"),
    tier="wire",
    checks=("stream-input-writes-each-message", "close-ends-the-cli", "close-ends-the-messages"),
    requires=("api:Query.streamInput", "api:Query.close"),
    pins={
        "stream-input-writes-each-message": ("query:streamInput",),
        "close-ends-the-cli": ("query:close",),
        "close-ends-the-messages": ("query:close",),
    },
)
async def query_stream_input_and_close(h: Harness) -> ClosedSeen:
    scenario = Scenario()
    for text in _STREAMED:
        scenario.wait_for(type="user", message={"content": text})
    scenario.init().assistant("got both").result(result="got both")
    scenario.wait_for(type="user", message={"content": _AFTER_CLOSE}).assistant("too late").result(result="late")
    state: dict[str, Any] = {"after": [], "ended": None}
    returned: dict[str, Returned] = {}

    async def drive(client: Any, outcome: Any) -> None:
        try:
            returned["streamInput"] = {
                "resolved": await client.query_method("streamInput", ts_iterable([_user(t) for t in _STREAMED])),
                "error": None,
            }
        except Exception as exc:
            returned["streamInput"] = {"resolved": None, "error": f"{type(exc).__name__}: {exc}"}
        async for message in client.receive_response():
            outcome.messages.append(message)
        await client.query_method("close")
        children = await client.processes_ended()
        state["ended"] = bool(children) and all(c["returncode"] is not None for c in children)
        await client.query(_AFTER_CLOSE)
        async for message in client.receive_messages():
            state["after"].append(type(message).__name__)

    run = await h.wire(None, scenario=scenario, client=True, drive=drive)
    texts = [_content(m) for m in run.user_messages]
    return {
        "stream_input": returned.get("streamInput", {"resolved": None, "error": "never called"}),
        "streamed": [t for t in texts if t in _STREAMED],
        "processes_ended": state["ended"],
        "yielded_after_close": state["after"],
        "reached_cli_after_close": _AFTER_CLOSE in texts,
        "error": run.error_line,
    }


@query_stream_input_and_close.decide
def _(seen: ClosedSeen) -> dict[str, Check]:
    streamed, call = seen["streamed"], seen["stream_input"]
    after, error = seen["yielded_after_close"], seen["error"]
    return {
        "stream-input-writes-each-message": check(
            streamed == list(_STREAMED) and call["error"] is None,
            f"streamInput of {list(_STREAMED)} gave {call['resolved']!r} (raised {call['error']}); "
            f"the CLI read {streamed}",
        ),
        "close-ends-the-cli": check(
            seen["processes_ended"] is True,
            f"after close(), every process the SDK spawned had ended: {seen['processes_ended']}",
        ),
        "close-ends-the-messages": check(
            not after and not seen["reached_cli_after_close"] and error is None,
            f"after close() the SDK yielded {after}; a message sent then reached the CLI: "
            f"{seen['reached_cli_after_close']}; the run raised {error}",
        ),
    }


_CLOSED: ClosedSeen = {
    "stream_input": {"resolved": None, "error": None},
    "streamed": list(_STREAMED),
    "processes_ended": True,
    "yielded_after_close": [],
    "reached_cli_after_close": False,
    "error": None,
}
# a release whose streamInput writes only the first message of the stream
query_stream_input_and_close.differs_on({**_CLOSED, "streamed": [_STREAMED[0]]})
# a release whose close() leaves the CLI running (its stdin closed, the process never ended)
query_stream_input_and_close.differs_on({**_CLOSED, "processes_ended": False})
# a release whose close() only stops the SDK reading: the next prompt still goes out and is answered
query_stream_input_and_close.differs_on(
    {**_CLOSED, "yielded_after_close": ["AssistantMessage", "ResultMessage"], "reached_cli_after_close": True}
)


# --- wire.query-abort-rejects-with-abort-error ----------------------------------------------------


class AbortedSeen(TypedDict):
    """After the query's AbortController was aborted mid-turn: how the iteration ended (the error's
    message, and the SDK's exported error class it is of), what it still yielded, and whether every
    process the SDK spawned had ended then."""

    error: str | None
    error_class: str | None
    yielded_after_abort: list[str]
    processes_ended: bool | None


@behaviour(
    id="wire.query-abort-rejects-with-abort-error",
    claim=(
        "When the AbortController given to query() is aborted mid-turn, the query stops and cleans up: its "
        "iteration rejects with the SDK's exported AbortError, and the CLI process ends."
    ),
    summary="An aborted query rejects with AbortError and its CLI ends",
    source=("sdk-ts", "Options.abortController"),
    tier="wire",
    checks=("rejects-with-abort-error", "the-cli-ends"),
    requires=("api:AbortError",),
    pins={"rejects-with-abort-error": ("error:AbortError",)},
)
async def query_abort_rejects_with_abort_error(h: Harness) -> AbortedSeen:
    scenario = Scenario().wait_for_user().init()  # then nothing: the turn stays open until the abort
    state: dict[str, Any] = {"after": [], "ended": None, "error": None, "class": None}

    async def drive(client: Any, outcome: Any) -> None:
        await client.query("hi")
        async for message in client.receive_messages():
            outcome.messages.append(message)
            break  # the init message: the turn runs
        client.abort()
        try:
            async for message in client.receive_messages():
                state["after"].append(type(message).__name__)
        except Exception as exc:  # how the iteration ended: the finding
            state["error"] = str(exc)  # its message: the class's own name is minified, and moves with each build
            state["class"] = getattr(exc, "exported", None)
        children = await client.processes_ended()
        state["ended"] = bool(children) and all(c["returncode"] is not None for c in children)

    await h.wire(None, scenario=scenario, client=True, drive=drive)
    return {
        "error": state["error"],
        "error_class": state["class"],
        "yielded_after_abort": state["after"],
        "processes_ended": state["ended"],
    }


@query_abort_rejects_with_abort_error.decide
def _(seen: AbortedSeen) -> dict[str, Check]:
    return {
        "rejects-with-abort-error": check(
            seen["error_class"] == "AbortError",
            f"after abort() the iteration ended with {seen['error']!r} (an error of the exported class "
            f"{seen['error_class']}), "
            f"having yielded {seen['yielded_after_abort']}",
        ),
        "the-cli-ends": check(
            seen["processes_ended"] is True,
            f"after abort(), every process the SDK spawned had ended: {seen['processes_ended']}",
        ),
    }


_ABORTED: AbortedSeen = {
    "error": "Operation aborted",
    "error_class": "AbortError",
    "yielded_after_abort": [],
    "processes_ended": True,
}
# a release whose aborted query just ends its iteration, as if the turn had finished
query_abort_rejects_with_abort_error.differs_on({**_ABORTED, "error": None, "error_class": None})
# a release that rejects with a plain Error, which a host's `instanceof AbortError` no longer catches
query_abort_rejects_with_abort_error.differs_on({**_ABORTED, "error": "Operation aborted", "error_class": None})
# a release whose abort leaves the CLI running
query_abort_rejects_with_abort_error.differs_on({**_ABORTED, "processes_ended": False})


# --- wire.startup-prewarms-the-cli: a query started before its prompt is known -------------

_TIMEOUT_MS = 2000  # startup()'s initializeTimeoutMs when the fake never answers initialize


class WarmSeen(TypedDict):
    """What the fake CLI had recorded when startup() resolved, and what the run did after."""

    resolved: bool  # startup() resolved (False: it rejected, or the run ended before)
    error: str | None  # what the run raised, named as the SDK named it
    at_resolve: list[str]  # the fake's exchange by then, as WireRun.timeline labels it
    sessions_started: int  # CLI processes started for a session in the whole run
    prompt_reached_cli: bool  # the prompt's user message was written to the CLI
    result: str | None  # the result message's subtype, None when none was yielded


class RejectSeen(TypedDict):
    resolved: bool
    error: str | None


class StartupSeen(TypedDict):
    answered: WarmSeen
    unanswered: RejectSeen


@behaviour(
    id="wire.startup-prewarms-the-cli",
    claim=(
        "startup() of the TypeScript SDK spawns the CLI and completes its initialize handshake before its "
        "promise resolves, sending no prompt; the WarmQuery's query(prompt) then writes the prompt to that same "
        "process, which runs the session (no second CLI is started); and a CLI that does not answer initialize "
        "within initializeTimeoutMs makes startup() reject."
    ),
    summary="startup() resolves on a started, initialized CLI that its query() then uses",
    source=("sdk-ts", "startup"),
    tier="wire",
    checks=(
        "initialized-before-resolving",
        "no-prompt-before-query",
        "query-runs-on-the-warm-cli",
        "unanswered-initialize-rejects",
    ),
    requires=("api:startup",),
    pins={
        "initialized-before-resolving": ("function:startup",),
        "no-prompt-before-query": ("function:startup",),
        "query-runs-on-the-warm-cli": ("function:startup",),
        "unanswered-initialize-rejects": ("function:startup",),
    },
    timeout=60,
)
async def startup_prewarms_the_cli(h: Harness) -> StartupSeen:
    run = await h.wire("hi", startup={}, timeout=20)
    sessions = [s for s in run.starts if s["argv"][:1] not in (["-v"], ["--version"])]
    result = run.result
    answered: WarmSeen = {
        "resolved": run.warmed is not None,
        "error": None if run.error is None else str(run.error),
        "at_resolve": run.timeline(run.warmed or []),
        "sessions_started": len(sessions),
        "prompt_reached_cli": bool(run.user_messages),
        "result": None if result is None else str(result.subtype),
    }
    silent = await h.wire("hi", scenario=Scenario().ignore("initialize"), startup={"initializeTimeoutMs": _TIMEOUT_MS})
    return {
        "answered": answered,
        "unanswered": {
            "resolved": silent.warmed is not None,
            "error": None if silent.error is None else str(silent.error),
        },
    }


@startup_prewarms_the_cli.decide
def _(seen: StartupSeen) -> dict[str, Check]:
    a, u = seen["answered"], seen["unanswered"]
    by_then = a["at_resolve"]
    asked = by_then.index("in:control_request/initialize") if "in:control_request/initialize" in by_then else None
    answered = asked is not None and any(x.startswith("out:control_response/") for x in by_then[asked:])
    return {
        "initialized-before-resolving": check(
            a["resolved"] and answered,
            f"startup() resolved: {a['resolved']} (error {a['error']}); the CLI had exchanged {by_then} by then",
        ),
        "no-prompt-before-query": check(
            a["resolved"] and "in:user" not in by_then,
            f"by the time startup() resolved the CLI had been sent {[x for x in by_then if x.startswith('in:')]}",
        ),
        "query-runs-on-the-warm-cli": check(
            a["sessions_started"] == 1 and a["prompt_reached_cli"] and a["result"] == "success",
            f"{a['sessions_started']} CLI session process(es) started; the prompt reached the CLI: "
            f"{a['prompt_reached_cli']}; the result: {a['result']}",
        ),
        "unanswered-initialize-rejects": check(
            not u["resolved"] and u["error"] is not None,
            f"with initialize unanswered and initializeTimeoutMs {_TIMEOUT_MS}, startup() resolved: "
            f"{u['resolved']}; the run raised {u['error']}",
        ),
    }


_WARM: StartupSeen = {
    "answered": {
        "resolved": True,
        "error": None,
        "at_resolve": ["in:control_request/initialize", "out:control_response/success"],
        "sessions_started": 1,
        "prompt_reached_cli": True,
        "result": "success",
    },
    "unanswered": {"resolved": False, "error": "Error: startup() timed out"},
}
# a release whose startup() resolves as soon as the process is spawned, before initialize is answered
startup_prewarms_the_cli.differs_on(
    {**_WARM, "answered": {**_WARM["answered"], "at_resolve": ["in:control_request/initialize"]}}
)
# a release that sends the prompt while warming
startup_prewarms_the_cli.differs_on(
    {**_WARM, "answered": {**_WARM["answered"], "at_resolve": [*_WARM["answered"]["at_resolve"], "in:user"]}}
)
# a release whose WarmQuery.query() starts a second CLI instead of using the warm one
startup_prewarms_the_cli.differs_on({**_WARM, "answered": {**_WARM["answered"], "sessions_started": 2}})
# a release whose startup() waits forever (or resolves) on a CLI that never answers initialize
startup_prewarms_the_cli.differs_on({**_WARM, "unanswered": {"resolved": True, "error": None}})


leave_uncovered(
    __name__,
    "function:prewarm",
    "a spare's claim() needs the CLI's --await-claim handshake, which the fake CLI does not play",
)
