"""Area `wire`, topic control: what ClaudeSDKClient's methods send the CLI and give back.

One client session against the fake CLI calls every control method, reads two turns with
receive_response() and receive_messages(), and ends with disconnect(): the control requests
each method wrote (subtype and every field), what each returned, and how the session ended.
A method an SDK version lacks leaves only its own sub-check not-applicable there.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import Harness, ProbeTimeout, Scenario

_CHECKPOINT = "probe-user-message-1"  # a user message's uuid stands here (a real uuid would be normalised away)
_TASK = "task-probe-1"
# method sub-check: (method, its arguments, the control request it sends)
_CALLS: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    "set-model-sends-model": ("set_model", ("probe-model",), {"subtype": "set_model", "model": "probe-model"}),
    "set-model-none-sends-null": ("set_model", (None,), {"subtype": "set_model", "model": None}),
    "set-permission-mode-sends-mode": (
        "set_permission_mode",
        ("acceptEdits",),
        {"subtype": "set_permission_mode", "mode": "acceptEdits"},
    ),
    "rewind-files-sends-user-message-id": (
        "rewind_files",
        (_CHECKPOINT,),
        {"subtype": "rewind_files", "user_message_id": _CHECKPOINT},
    ),
    "stop-task-sends-task-id": ("stop_task", (_TASK,), {"subtype": "stop_task", "task_id": _TASK}),
}
# What the fake answers initialize with: get_server_info() returns it.
_SERVER_INFO = {
    "commands": [{"name": "probe-command", "description": "a probe's command", "argumentHint": ""}],
    "output_style": "probe-style",
    "available_output_styles": ["default", "probe-style"],
}
_SUBTYPES = sorted({request["subtype"] for _, _, request in _CALLS.values()})


def _scenario() -> Scenario:
    """Turn one ends with result 'one'; turn two sends results 'two' and 'three' back to back."""
    return (
        Scenario()
        .answer("initialize", _SERVER_INFO)
        .wait_for_user()
        .init()
        .assistant("one")
        .result(result="one")
        .wait_for_user()
        .assistant("two")
        .result(result="two")
        .assistant("three")
        .result(result="three")
    )


def _raised(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]


def _read(message: Any) -> str:
    """A message as `Type` or, for a result, `ResultMessage(result)`."""
    kind = type(message).__name__
    return f"{kind}({getattr(message, 'result', None)})" if kind == "ResultMessage" else kind


@behaviour(
    id="wire.client-control-methods",
    claim=(
        "ClaudeSDKClient's set_model(model) sends the control request {subtype: set_model, model} (model null for "
        "None), set_permission_mode(mode) {subtype: set_permission_mode, mode}, rewind_files(id) {subtype: "
        "rewind_files, user_message_id}, stop_task(id) {subtype: stop_task, task_id}, each returning None once the "
        "CLI answers success; get_server_info() returns the CLI's initialize response; receive_response() yields "
        "messages up to and including the ResultMessage, while receive_messages() goes on past it; disconnect() "
        "ends the CLI process before it returns, and the client then refuses a query as not connected."
    ),
    summary="Client control methods send their documented requests; receive and disconnect behave",
    source=("sdk-py", "ClaudeSDKClient"),
    tier="wire",
    checks=(
        *_CALLS,
        "get-server-info-is-initialize-response",
        "receive-response-stops-after-result",
        "receive-messages-goes-past-result",
        "disconnect-ends-cli-and-refuses-queries",
    ),
    requires=("api:ClaudeSDKClient",),
    pins={
        "set-model-sends-model": ("client:set_model",),
        "set-model-none-sends-null": ("client:set_model",),
        "set-permission-mode-sends-mode": ("client:set_permission_mode",),
        "rewind-files-sends-user-message-id": ("client:rewind_files",),
        "stop-task-sends-task-id": ("client:stop_task",),
        "get-server-info-is-initialize-response": ("client:get_server_info",),
        "receive-response-stops-after-result": ("client:receive_response",),
        "receive-messages-goes-past-result": ("client:receive_messages",),
        "disconnect-ends-cli-and-refuses-queries": ("client:disconnect",),
    },
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient",
)
async def client_control_methods(h: Harness) -> dict[str, Any]:
    import os

    seen: dict[str, Any] = {"calls": {}, "lacks": []}
    cwd = os.path.realpath(h.workdir("client"))

    async def drive(client: Any, out: Any) -> None:
        seen["server info"] = await client.get_server_info()
        for name, (method, args, _) in _CALLS.items():
            if not hasattr(client, method):
                seen["lacks"].append(method)
                continue
            try:
                seen["calls"][name] = {"returned": repr(await getattr(client, method)(*args))}
            except Exception as exc:  # what the SDK raises is the finding
                seen["calls"][name] = {"raised": _raised(exc)}
        await client.query("first")
        seen["receive_response"] = [_read(m) async for m in client.receive_response()]
        await client.query("second")
        went_on: list[str] = []
        async for message in client.receive_messages():
            went_on.append(_read(message))
            if went_on[-1] == "ResultMessage(three)":
                break
        seen["receive_messages"] = went_on
        seen["CLI processes"] = {"before disconnect": h.children_in(cwd)}
        await client.disconnect()
        seen["CLI processes"]["after disconnect"] = h.children_in(cwd)
        try:
            await client.query("after disconnect")
            seen["query after disconnect"] = None
        except Exception as exc:  # the SDK's refusal is the finding
            seen["query after disconnect"] = _raised(exc)

    try:
        run = await h.wire(None, scenario=_scenario(), client=True, drive=drive, cwd=cwd)
    except ProbeTimeout as exc:  # receive_messages() stopped at 'two' and waited for ever, or worse
        seen["hung"] = str(exc)
        return seen
    seen["requests"] = [m["request"] for m in run.control_requests() if m["request"].get("subtype") in _SUBTYPES]
    # Whether the CLI saw its stdin close is not recorded: an SDK that closes it and terminates the
    # CLI at once (0.1.19) kills it before it can note the end of its input, some runs and not others.
    seen["error"] = run.error_line
    return seen


@client_control_methods.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    if "hung" in seen:
        return {
            name: check(False, f"the session never finished: {seen['hung']} (read {seen.get('receive_response')})")
            for name in client_control_methods.behaviour.checks
        }
    if "CLI processes" not in seen:  # the session failed before the drive got to disconnect()
        return {
            name: check(False, f"the session failed: {seen['error']} (calls {seen['calls']})")
            for name in client_control_methods.behaviour.checks
        }
    checks: dict[str, Check] = {}
    unclaimed = list(seen["requests"])
    for name, (method, args, claimed) in _CALLS.items():
        if method in seen["lacks"]:
            checks[name] = undecidable(f"this SDK's ClaudeSDKClient has no {method}")
            continue
        call = seen["calls"].get(name, {})
        sent = claimed in unclaimed
        if sent:
            unclaimed.remove(claimed)
        same_kind = [r for r in unclaimed if r.get("subtype") == claimed["subtype"]]
        checks[name] = check(
            sent and call.get("returned") == "None",
            f"{method}{args!r} "
            + (f"returned {call['returned']}" if "returned" in call else f"raised {call.get('raised')}")
            + (", sent as claimed" if sent else f", sent {same_kind or 'no such request'}, not {claimed}"),
        )
    info = seen["server info"]
    checks["get-server-info-is-initialize-response"] = check(
        info == _SERVER_INFO, f"get_server_info() returned {info!r}; the CLI answered initialize with {_SERVER_INFO}"
    )
    response, went_on = seen["receive_response"], seen["receive_messages"]
    checks["receive-response-stops-after-result"] = check(
        bool(response) and response[-1] == "ResultMessage(one)" and response.count("ResultMessage(one)") == 1,
        f"receive_response() read {response}",
    )
    checks["receive-messages-goes-past-result"] = check(
        went_on[-2:] == ["AssistantMessage", "ResultMessage(three)"] and "ResultMessage(two)" in went_on,
        f"receive_messages() over two results read {went_on}",
    )
    processes, refused = seen["CLI processes"], seen["query after disconnect"]
    if processes["before disconnect"] is None:
        checks["disconnect-ends-cli-and-refuses-queries"] = undecidable("this host has no /proc to see the CLI end")
        return checks
    checks["disconnect-ends-cli-and-refuses-queries"] = check(
        processes == {"before disconnect": 1, "after disconnect": 0} and refused is not None and "connect" in refused,
        f"CLI processes running {processes}; a query after "
        f"disconnect() raised {refused or 'nothing'}" + (f" (error {seen['error']})" if seen["error"] else ""),
    )
    return checks


def _held() -> dict[str, Any]:
    return {
        "calls": {name: {"returned": "None"} for name in _CALLS},
        "lacks": [],
        "server info": _SERVER_INFO,
        "receive_response": ["SystemMessage", "AssistantMessage", "ResultMessage(one)"],
        "receive_messages": ["AssistantMessage", "ResultMessage(two)", "AssistantMessage", "ResultMessage(three)"],
        "query after disconnect": "CLIConnectionError: Not connected. Call connect() first.",
        "requests": [request for _, _, request in _CALLS.values()],
        "CLI processes": {"before disconnect": 1, "after disconnect": 0},
        "error": None,
    }


client_control_methods.differs_on(
    {"calls": {}, "lacks": [], "requests": [], "error": "CLIConnectionError: Failed to start Claude Code"}
)
client_control_methods.differs_on(
    {
        **_held(),
        # fields renamed or dropped, None sent as a string, a method raising on success
        "calls": {**_held()["calls"], "stop-task-sends-task-id": {"raised": "Exception: boom"}},
        "requests": [
            {"subtype": "set_model", "modelId": "probe-model"},
            {"subtype": "set_model", "model": "None"},
            {"subtype": "set_permission_mode", "permissionMode": "acceptEdits"},
            {"subtype": "rewind_files", "userMessageId": _CHECKPOINT},
            {"subtype": "stop_task", "task_id": _TASK},
        ],
        "server info": {"subtype": "success", "response": _SERVER_INFO},
        "receive_response": ["SystemMessage", "AssistantMessage", "ResultMessage(one)", "AssistantMessage"],
        "receive_messages": ["AssistantMessage", "ResultMessage(two)"],
        "query after disconnect": None,
        "CLI processes": {"before disconnect": 1, "after disconnect": 1},
    }
)
