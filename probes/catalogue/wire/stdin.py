"""What the SDK writes on the CLI's stdin: the prompt, the initialize request and the client's
control requests."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.wire.support import NeverStarted, argv_of, never_started, option_names
from sdkprobe.harness import (
    Harness,
    ProbeTimeout,
    Scenario,
    WireRun,
    lacks,
    typed_keys,
)

# --- wire.connect-string-prompt-sent -------------------------------------------------------

_CONNECT_WAIT = 30.0  # seconds a connect(prompt) run may take to its result: only a hang reaches it

# the user lines the CLI got, whether a result came, and what was raised
QueryRun = TypedDict("QueryRun", {"user lines": list[dict[str, Any]], "result": bool, "error": str | None})


class ConnectRun(QueryRun):
    hung: bool  # reading the response outlasted _CONNECT_WAIT


ConnectSeen = TypedDict("ConnectSeen", {"connect(prompt)": ConnectRun, "connect() then query()": QueryRun})


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
async def connect_string_prompt_sent(h: Harness) -> ConnectSeen:
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
def _(seen: ConnectSeen) -> dict[str, Check]:
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


def _control_scenario() -> Scenario:
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


# Built as the session goes, so no key is required; "hung" only when it never finished,
# "requests" and "error" only when it did.
ControlSeen = TypedDict(
    "ControlSeen",
    {
        "calls": dict[str, dict[str, str]],  # sub-check -> {"returned": repr} or {"raised": error}
        "lacks": list[str],  # the methods this SDK's client has not
        "server info": Any,
        "receive_response": list[str],
        "receive_messages": list[str],
        "CLI processes": dict[str, int | None],
        "query after disconnect": str | None,
        "hung": str,
        "requests": list[dict[str, Any]],
        "error": str | None,
    },
    total=False,
)


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
async def client_control_methods(h: Harness) -> ControlSeen:
    import os

    seen: ControlSeen = {"calls": {}, "lacks": []}
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
        run = await h.wire(None, scenario=_control_scenario(), client=True, drive=drive, cwd=cwd)
    except ProbeTimeout as exc:  # receive_messages() stopped at 'two' and waited for ever, or worse
        seen["hung"] = str(exc)
        return seen
    seen["requests"] = [m["request"] for m in run.control_requests() if m["request"].get("subtype") in _SUBTYPES]
    # Whether the CLI saw its stdin close is not recorded: an SDK that closes it and terminates the
    # CLI at once (0.1.19) kills it before it can note the end of its input, some runs and not others.
    seen["error"] = run.error_line
    return seen


@client_control_methods.decide
def _(seen: ControlSeen) -> dict[str, Check]:
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


def _held() -> ControlSeen:
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


# --- wire.initialize-request-fields ----------------------------------------------------------


async def _no_opinion(input_data: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
    return {}


# the initialize request, and whether argv stayed its baseline run's
Initialized = TypedDict("Initialized", {"initialize": dict[str, Any] | None, "argv as baseline": bool})


def _initialize_seen(run: WireRun, baseline: list[str] | None) -> Initialized | NeverStarted:
    """The initialize request, and whether argv stayed its baseline run's (the default run's,
    or for a preset prompt the plain preset's: a preset drops the empty --system-prompt)."""
    argv = argv_of(run)
    if argv is None:
        return never_started(run)
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
    from sdkprobe.harness import HookMatcher

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
    if need is None:
        return None
    kind, name = need
    if kind == "option":
        return None if name in option_names() else f"ClaudeAgentOptions of this SDK has no field {name!r}"
    owner, key = name.split(".")
    has = lacks(f"field:{name}") is None if kind == "field" else key in (typed_keys(owner) or ())
    return None if has else f"{owner} of this SDK has no {key!r}"


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
    baselines = {False: argv_of(default_run)}  # by whether the run's prompt is a preset
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
            baselines[True] = argv_of(run)
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

_PROMPT = "what is the plum count?"
_TEXTS = ("first part", "second part")
_RESULT = "plum count: 7"
# what the CLI writes, in order: what query() must yield, in that order
_YIELDS = ["SystemMessage", "AssistantMessage", "AssistantMessage", "ResultMessage"]


_EOF_CEILING = 15.0  # seconds the fake waits for stdin to close before its result: only a close kept back reaches it


def _query_scenario() -> Scenario:
    """A CLI that waits for the prompt, answers in two assistant messages and a result, then
    waits for its stdin to close before exiting 0. Between the two messages it waits for the
    close too, so a close that comes once the prompt is written lands before the result by
    order; one kept back until the result lands after it (the ceiling lets the run go on)."""
    scenario = Scenario().wait_for_user().init().assistant(_TEXTS[0]).wait_for_eof(ceiling=_EOF_CEILING)
    return scenario.assistant(_TEXTS[1]).result(result=_RESULT)


# "timed out" alone when the iteration never ended, every other key when it did
LifecycleSeen = TypedDict(
    "LifecycleSeen",
    {
        "timed out": str,
        "user lines": list[dict[str, Any]],
        "yielded": list[str],
        "texts": list[str],
        "result": str | None,
        "stdin closed": str,
        "cli exited": list[str],
        "error": str | None,
    },
    total=False,
)


def _texts(message: Any) -> list[str]:
    return [b.text for b in getattr(message, "content", None) or [] if isinstance(getattr(b, "text", None), str)]


@behaviour(
    id="wire.query-string-prompt-lifecycle",
    claim=(
        "query(prompt='...') sends the prompt to the CLI once, as one user message on its stdin "
        "({'type': 'user', 'message': {'role': 'user', 'content': prompt}}); yields the CLI's messages in "
        "the order the CLI wrote them; ends its iteration after the ResultMessage; closes the CLI's stdin "
        "once the prompt is written (no hook, SDK MCP server or can_use_tool needing it open), and by the "
        "iteration's end the CLI has exited."
    ),
    summary="query() sends the prompt once on stdin, yields in order, ends after the result",
    source=("sdk-py", "query"),
    tier="wire",
    checks=(
        "prompt-one-user-message-on-stdin",
        "messages-yielded-in-order",
        "iteration-ends-after-result",
        "stdin-closed-after-prompt",
        "cli-exited-at-end",
    ),
    pins={
        "prompt-one-user-message-on-stdin": ("function:query",),
        "messages-yielded-in-order": ("function:query",),
        "iteration-ends-after-result": ("function:query",),
        "stdin-closed-after-prompt": ("function:query",),
        "cli-exited-at-end": ("function:query",),
    },
    sdk_ref="claude_agent_sdk.query",
)
async def query_string_prompt_lifecycle(h: Harness) -> LifecycleSeen:
    try:
        run = await h.wire(_PROMPT, scenario=_query_scenario(), timeout=_EOF_CEILING + 45)
    except ProbeTimeout as exc:  # the iteration never ended: the finding, not a harness failure
        return {"timed out": str(exc)}
    # what crossed the wire, bar the control protocol: user lines, CLI output, eof, exit
    timeline = [t for t in run.timeline() if "control_" not in t]
    return {
        "user lines": [
            {
                "via": m.get("via", "stdin"),
                "type": m.get("type"),
                "role": (m.get("message") or {}).get("role"),
                "content": (m.get("message") or {}).get("content"),
            }
            for m in run.user_messages
        ]
        + [
            # old SDKs pass a string prompt on argv (`--print -- PROMPT`); the fake reads it there
            {"via": "argv", "type": "user", "role": "user", "content": run.argv[run.argv.index("--") + 1]}
            for _ in [0]
            if "--print" in run.argv and "--" in run.argv
        ],
        "yielded": [type(m).__name__ for m in run.messages],
        "texts": [t for m in run.messages for t in _texts(m)],
        "result": getattr(run.result, "result", None),
        # when the CLI's stdin closed and it exited, relative to what the SDK wrote (the CLI's
        # own output races a close that comes at once, so it is not the reference)
        "stdin closed": _closed(timeline),
        "cli exited": [
            f"{t} after stdin closed" if "eof" in timeline[: timeline.index(t)] else t
            for t in timeline
            if t.startswith("exit:")
        ],
        "error": run.error_line,
    }


def _closed(timeline: list[str]) -> str:
    """When the SDK closed the CLI's stdin: after writing the prompt there (before the CLI's
    result or only after it), before any prompt, or never."""
    if "eof" not in timeline:
        return "never"
    before = timeline[: timeline.index("eof")]
    if "in:user" not in before:
        return "with no prompt written"
    return "after the result" if "out:result" in before else "after the prompt, before the result"


@query_string_prompt_lifecycle.decide
def _(seen: LifecycleSeen) -> dict[str, Check]:
    if "timed out" in seen:
        why = f"the iteration never ended: {seen['timed out']}"
        return {name: check(False, why) for name in query_string_prompt_lifecycle.behaviour.checks}
    users, yielded = seen["user lines"], seen["yielded"]
    claimed_user = {"via": "stdin", "type": "user", "role": "user", "content": _PROMPT}
    return {
        "prompt-one-user-message-on-stdin": check(
            users == [claimed_user], f"the prompt reached the CLI as {users or 'nothing'}"
        ),
        "messages-yielded-in-order": check(
            yielded == _YIELDS and seen["texts"] == list(_TEXTS) and seen["result"] == _RESULT,
            f"query() yielded {yielded} with texts {seen['texts']} and result {seen['result']!r}",
        ),
        "iteration-ends-after-result": check(
            yielded[-1:] == ["ResultMessage"] and seen["error"] is None,
            f"the iteration's last message was {yielded[-1:] or 'none'}, raising {seen['error'] or 'nothing'}",
        ),
        "stdin-closed-after-prompt": check(
            seen["stdin closed"] == "after the prompt, before the result",
            f"the CLI's stdin closed: {seen['stdin closed']}",
        ),
        "cli-exited-at-end": check(
            seen["cli exited"] == ["exit:0 after stdin closed"],
            f"when query() returned the CLI had exited: {seen['cli exited'] or 'not at all'}",
        ),
    }


query_string_prompt_lifecycle.differs_on(
    {
        "user lines": [
            {"via": "argv", "type": "user", "role": "user", "content": _PROMPT},
            {"via": "stdin", "type": "user", "role": "user", "content": _PROMPT},
        ],
        "yielded": ["SystemMessage", "AssistantMessage", "ResultMessage", "AssistantMessage"],
        "texts": ["first part"],
        "result": _RESULT,
        "stdin closed": "never",
        "cli exited": [],
        "error": "CLIConnectionError: the CLI ended",
    }
)
query_string_prompt_lifecycle.differs_on(  # stdin kept open until the run ends, all else as claimed
    {
        "user lines": [{"via": "stdin", "type": "user", "role": "user", "content": _PROMPT}],
        "yielded": _YIELDS,
        "texts": list(_TEXTS),
        "result": _RESULT,
        "stdin closed": "after the result",
        "cli exited": ["exit:0 after stdin closed"],
        "error": None,
    }
)
query_string_prompt_lifecycle.differs_on({"timed out": "the SDK did not finish within 10 s (4 messages received)"})
