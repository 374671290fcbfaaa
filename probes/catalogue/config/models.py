"""Which model answers and how: fallback_model, set_model mid-turn, and the thinking and effort
options."""

from __future__ import annotations

from typing import Any, TypedDict, final

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    ByModel,
    CliRun,
    Harness,
    HeldCallback,
    Script,
    http_error,
    reply,
    tool_use,
)

# --- config.fallback-model-triggers ----------------------------------------------------

_MAIN_MODEL, _FB_MODEL = "m-main", "m-fb"
_FB_ANSWER = "FB-ANSWER"
# Retries bounded but not off: the CLI counts consecutive overloads before it falls back.
_FALLBACK_ENV = {"CLAUDE_CODE_MAX_RETRIES": "3"}
# sub-check -> (status m-main answers, prompt shape); 429 is recorded, not judged (see claim).
_FALLBACK_RUNS: dict[str, tuple[int, str]] = {
    "overloaded-moves-to-fallback-string-prompt": (529, "string"),
    "overloaded-moves-to-fallback-iterable-prompt": (529, "iterable"),
    "server-error-moves-to-fallback": (500, "string"),
    "unavailable-moves-to-fallback": (404, "string"),
}
_RECORDED_RUNS = {"rate-limited": (429, "string")}
_VISIBLE = "fallback-is-visible"
_SAME = "fallback-equal-to-model-refused"


def _models_script(status: int) -> ByModel:
    return ByModel(
        {
            _MAIN_MODEL: Script(fallback=http_error(status, f"scripted {status} for {_MAIN_MODEL}")),
            _FB_MODEL: Script(fallback=reply(_FB_ANSWER)),
        }
    )


# a system message other than init
Notice = TypedDict("Notice", {"subtype": str | None, "names fallback": bool})
# one session: the first two keys given with a status, fallback_model where it equals model
FallbackRun = TypedDict(
    "FallbackRun",
    {
        "m-main answers": int,
        "prompt": str,  # "string" or "iterable"
        "fallback_model": str,
        "models asked": list[str | None],
        "statuses": list[int],
        "notices": list[Notice],
        "assistant models": list[str],
        "result": str | None,  # the result's subtype
        "result text": str | None,
        "error": str | None,
    },
    total=False,
)


def _notices(run: CliRun) -> list[Notice]:
    """System messages other than init, each as its subtype and whether it names the fallback model."""
    return [
        {"subtype": getattr(m, "subtype", None), "names fallback": _FB_MODEL in repr(getattr(m, "data", None))}
        for m in run.of_type("SystemMessage")
        if getattr(m, "subtype", None) != "init"
    ]


def _fallback_seen(run: CliRun) -> FallbackRun:
    result = run.result
    return {
        "models asked": [r.model for r in run.on(MAIN)],
        "statuses": [r.status for r in run.on(MAIN)],
        "notices": _notices(run),
        "assistant models": sorted({str(getattr(m, "model", None)) for m in run.of_type("AssistantMessage")}),
        "result": getattr(result, "subtype", None),
        "result text": getattr(result, "result", None),
        "error": run.error_line,
    }


@behaviour(
    id="config.fallback-model-triggers",
    claim=(
        "With model='m-main' and fallback_model='m-fb', a turn whose main model is overloaded (529), fails "
        "(500) or is unavailable (404) is answered by m-fb instead, for a string prompt and for an iterable "
        "one, and the session says so with a system message naming the fallback model; a fallback_model "
        "equal to model is refused when the session starts."
    ),
    summary="fallback_model answers when the main model is overloaded, failing or unavailable",
    source=("cc#8413", "report"),
    tier="cli",
    checks=(*_FALLBACK_RUNS, _VISIBLE, _SAME),
    requires=("option:fallback_model", "option:model"),
    pins={"fallback-equal-to-model-refused": ("option:fallback_model", "option:model")},
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=300,
)
async def fallback_model_triggers(h: Harness) -> dict[str, FallbackRun]:
    seen: dict[str, FallbackRun] = {}
    for name, (status, shape) in {**_FALLBACK_RUNS, **_RECORDED_RUNS}.items():
        prompt: Any = "answer me" if shape == "string" else [_user("answer me")]
        run = await h.cli(
            prompt,
            script=_models_script(status),
            model=_MAIN_MODEL,
            fallback_model=_FB_MODEL,
            env=_FALLBACK_ENV,
            timeout=90,
        )
        seen[name] = {"m-main answers": status, "prompt": shape, **_fallback_seen(run)}
    same = await h.cli(
        "answer me",
        script=ByModel({_MAIN_MODEL: Script(fallback=reply("MAIN-ANSWER"))}),
        model=_MAIN_MODEL,
        fallback_model=_MAIN_MODEL,
        env=_FALLBACK_ENV,
    )
    seen[_SAME] = {"fallback_model": _MAIN_MODEL, **_fallback_seen(same)}
    return seen


def _user(text: str) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": None}


def _fell_back(run: FallbackRun) -> bool:
    return _FB_MODEL in run["models asked"] and run["result"] == "success" and _FB_ANSWER in str(run["result text"])


def _said(run: FallbackRun) -> str:
    return (
        f"models asked {run['models asked']} (statuses {run['statuses']}), result {run['result']} "
        f"{run['result text']!r}, error {run['error']}"
    )


@fallback_model_triggers.decide
def _(seen: dict[str, FallbackRun]) -> dict[str, Check]:
    checks = {
        name: check(
            _fell_back(seen[name]),
            f"m-main answered {seen[name]['m-main answers']} to a {seen[name]['prompt']} prompt: {_said(seen[name])}",
        )
        for name in _FALLBACK_RUNS
    }
    first = seen["overloaded-moves-to-fallback-string-prompt"]
    checks[_VISIBLE] = check(
        _fell_back(first) and any(n["names fallback"] for n in first["notices"]),
        f"after the fall back to m-fb the session yielded system messages {first['notices']} "
        f"(assistant models {first['assistant models']})",
    )
    same = seen[_SAME]
    checks[_SAME] = check(
        same["result"] != "success",
        f"fallback_model equal to model: {_said(same)}",
    )
    return checks


def _fallback_run(status: int, shape: str, models: list[str | None], result: str, text: str) -> FallbackRun:
    return {
        "m-main answers": status,
        "prompt": shape,
        "models asked": models,
        "statuses": [status if m == _MAIN_MODEL else 200 for m in models],
        "notices": [],
        "assistant models": [],
        "result": result,
        "result text": text,
        "error": None,
    }


_NO_FALLBACK = {
    name: _fallback_run(status, shape, [_MAIN_MODEL], "error_during_execution", "API Error")
    for name, (status, shape) in _FALLBACK_RUNS.items()
}
_SILENT_FALLBACK = {
    name: _fallback_run(status, shape, [_MAIN_MODEL, _FB_MODEL], "success", _FB_ANSWER)
    for name, (status, shape) in _FALLBACK_RUNS.items()
}
_SAME_ACCEPTED: FallbackRun = {
    "fallback_model": _MAIN_MODEL,
    **_fallback_run(200, "string", [_MAIN_MODEL], "success", "ok"),
}
fallback_model_triggers.differs_on({**_NO_FALLBACK, _SAME: _SAME_ACCEPTED})
fallback_model_triggers.differs_on({**_SILENT_FALLBACK, _SAME: _SAME_ACCEPTED})


# --- config.set-model-mid-turn ---------------------------------------------------------

_FIRST_MODEL, _SWITCHED_MODEL = "m-one", "m-two"
_ANSWERS = {_FIRST_MODEL: "ONE-ANSWER", _SWITCHED_MODEL: "TWO-ANSWER"}
_HELD_BASH = "toolu_held_bash"  # the Bash call its PreToolUse hook holds until set_model() returned
_MID_TURN = "next-request-of-turn-names-new-model"
_ACCEPTED = "set-model-returns-accepted"
_RESET = "set-model-none-leaves-new-model"
_SECOND_PROMPT = "and now?"


def _switch_script() -> ByModel:
    return ByModel(
        {
            _FIRST_MODEL: Script(
                main=[reply(tool_use("Bash", {"command": "true"}, id=_HELD_BASH))],
                fallback=reply(_ANSWERS[_FIRST_MODEL]),
            ),
            _SWITCHED_MODEL: Script(fallback=reply(_ANSWERS[_SWITCHED_MODEL])),
        },
        other=Script(fallback=reply("DEFAULT-ANSWER")),
    )


class SetModelCall(TypedDict):
    model: str | None
    raised: str | None  # the exception's type


MainRequest = TypedDict(
    "MainRequest",
    {"model": str | None, "turn": int, "carries the tool result": bool, "mentions the new model": bool},
)
SwitchSeen = TypedDict(
    "SwitchSeen",
    {
        "set_model calls": list[SetModelCall],
        "main requests": list[MainRequest],
        "turn results": list[str | None],
        "error": str | None,
    },
)


@behaviour(
    id="config.set-model-mid-turn",
    claim=(
        "ClaudeSDKClient.set_model('m-two'), called while a turn of a session started on model 'm-one' "
        "runs a tool, returns once the CLI accepted it, and the model request that follows within that "
        "same turn names 'm-two'; set_model(None) afterwards moves the next turn off 'm-two' to the default."
    ),
    summary="set_model() during a turn takes effect from that turn's next model request",
    source=("ts#212", "report"),
    tier="cli",
    checks=(_MID_TURN, _ACCEPTED, _RESET),
    requires=("api:ClaudeSDKClient.set_model", "option:model", "option:allowed_tools", "option:hooks"),
    # the model option only names the first model, which no sub-check reads: set_model is what
    # each of them decides on
    pins={
        "next-request-of-turn-names-new-model": ("client:set_model",),
        "set-model-returns-accepted": ("client:set_model",),
        "set-model-none-leaves-new-model": ("client:set_model",),
    },
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.set_model",
    timeout=120,
)
async def set_model_mid_turn(h: Harness) -> SwitchSeen:
    from sdkprobe.harness import HookMatcher

    calls: list[SetModelCall] = []
    # The Bash call waits in its PreToolUse hook until set_model() has returned, so the switch
    # lands mid-turn by order, however slow the machine: never a tool that merely takes long.
    bash_held = HeldCallback(hold=1, ceiling=60)

    async def set_model(c: Any, model: str | None) -> None:
        try:
            await c.call("set_model", model)
            calls.append({"model": model, "raised": None})
        except Exception as exc:  # the contract: it returns; what it raised is the observation
            calls.append({"model": model, "raised": type(exc).__name__})

    async def steps(c: Any) -> None:
        await c.send("run the command")
        await bash_held.asked()
        await set_model(c, _SWITCHED_MODEL)
        bash_held.release()
        await c.response()
        await set_model(c, None)
        await c.send(_SECOND_PROMPT)
        await c.response()

    run = await h.converse(
        steps,
        script=_switch_script(),
        model=_FIRST_MODEL,
        allowed_tools=["Bash"],
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[bash_held.hook({})])]},
    )
    results = [m for turn in run.turns for m in turn if type(m).__name__ == "ResultMessage"]
    return {
        "set_model calls": calls,
        "main requests": [
            {
                "model": r.model,
                "turn": 2 if r.carries(_SECOND_PROMPT) else 1,
                "carries the tool result": r.tool_result(_HELD_BASH) is not None,
                "mentions the new model": _SWITCHED_MODEL in r.context_text,
            }
            for r in run.on(MAIN)
        ],
        "turn results": [getattr(m, "result", None) for m in results],
        "error": run.error_line,
    }


def _of_turn(seen: SwitchSeen, turn: int) -> list[MainRequest]:
    return [r for r in seen["main requests"] if r["turn"] == turn]


@set_model_mid_turn.decide
def _(seen: SwitchSeen) -> dict[str, Check]:
    after = [r for r in _of_turn(seen, 1) if r["carries the tool result"]]
    first_after = after[0] if after else None
    calls = seen["set_model calls"]
    requests = seen["main requests"]
    last_turn = next(iter(_of_turn(seen, 2)), None)
    return {
        _MID_TURN: check(
            first_after is not None and first_after["model"] == _SWITCHED_MODEL,
            f"set_model({_SWITCHED_MODEL!r}) during the Bash call; the request after it named "
            f"{first_after['model'] if first_after else 'nothing (none came)'} (requests {requests}, "
            f"turn results {seen['turn results']})",
        ),
        _ACCEPTED: check(
            len(calls) == 2 and all(c["raised"] is None for c in calls),
            f"set_model calls {calls} (error {seen['error']})",
        ),
        _RESET: check(  # the default is the CLI's own model: neither the one set nor the session's first
            last_turn is not None and last_turn["model"] not in (_SWITCHED_MODEL, _FIRST_MODEL),
            f"after set_model(None) the next turn's request named {last_turn['model'] if last_turn else 'nothing'}",
        ),
    }


def _switch_seen(models: list[str | None], calls: list[str | None] | None = None) -> SwitchSeen:
    return {
        "set_model calls": [{"model": m, "raised": None} for m in (calls or [_SWITCHED_MODEL, None])],
        "main requests": [
            {"model": m, "turn": 2 if i == 2 else 1, "carries the tool result": i > 0, "mentions the new model": False}
            for i, m in enumerate(models)
        ],
        "turn results": ["ONE-ANSWER", "TWO-ANSWER"],
        "error": None,
    }


# the switch waits for the turn's end; set_model(None) ignored, and the call raising
set_model_mid_turn.differs_on(_switch_seen([_FIRST_MODEL, _FIRST_MODEL, _SWITCHED_MODEL]))
# set_model no longer sending its request: it returns, and every request names the session's first model
set_model_mid_turn.differs_on(_switch_seen([_FIRST_MODEL, _FIRST_MODEL, _FIRST_MODEL]))
# set_model(None) reverting to the session's first model, not to the default
set_model_mid_turn.differs_on(_switch_seen([_FIRST_MODEL, _SWITCHED_MODEL, _FIRST_MODEL]))
set_model_mid_turn.differs_on(
    {
        **_switch_seen([_FIRST_MODEL, _SWITCHED_MODEL, _SWITCHED_MODEL]),
        "set_model calls": [{"model": _SWITCHED_MODEL, "raised": "CLIConnectionError"}],
    }
)


def _fields() -> set[str]:
    """The options the SDK under test takes, by their Python names (read while the probe runs)."""
    from sdkprobe.harness import option_fields

    return option_fields()


# --- config.thinking-options-reach-request --------------------------------------------

# sub-check -> (option, value given): each run is one session, its first main request read.
# The CLI's default model is one it treats as adaptive-capable; _OLDER_MODEL is one from before.
_OLDER_MODEL = "claude-sonnet-4-5"
_ON_OLDER_MODEL = "max-thinking-tokens-budget-on-older-model"
_THINKING_RUNS: dict[str, tuple[str, Any]] = {
    "adaptive-reaches-request": ("thinking", {"type": "adaptive"}),
    "enabled-budget-reaches-request": ("thinking", {"type": "enabled", "budget_tokens": 1024}),
    "disabled-sends-no-thinking": ("thinking", {"type": "disabled"}),
    "max-thinking-tokens-budget-reaches-request": ("max_thinking_tokens", 2048),
    "zero-max-thinking-tokens-sends-no-thinking": ("max_thinking_tokens", 0),
    "effort-reaches-request": ("effort", "high"),
    _ON_OLDER_MODEL: ("max_thinking_tokens", 2048),
}


class ThinkingSent(TypedDict):
    thinking: dict[str, Any] | None
    effort: str | None


class ThinkingRequest(ThinkingSent):
    model: Any


@final  # final: `"absent" in run` tells the two apart
class Absent(TypedDict):
    absent: str  # why the run was not made: the SDK lacks the option


@final
class ThinkingRun(TypedDict):
    given: dict[str, Any]  # the option -> its value
    request: ThinkingRequest | None  # None: no main request
    error: str | None


def _thinking_seen(body: Any) -> ThinkingRequest:
    """What of the request body concerns thinking and effort."""
    body = body if isinstance(body, dict) else {}
    output_config = body.get("output_config") if isinstance(body.get("output_config"), dict) else {}
    return {
        "model": body.get("model"),
        "thinking": body.get("thinking"),
        "effort": body.get("effort", output_config.get("effort")),
    }


@behaviour(
    id="config.thinking-options-reach-request",
    claim=(
        "thinking={'type': 'adaptive'} makes the CLI ask the model for adaptive thinking, "
        "{'type': 'enabled', 'budget_tokens': N} and max_thinking_tokens=N for thinking with a budget of N, "
        "{'type': 'disabled'} and max_thinking_tokens=0 for no thinking at all, and effort sets the "
        "request's effort: each option reaches the Messages API request as given, on the CLI's default "
        "model and on an older one."
    ),
    summary="thinking, max_thinking_tokens and effort reach the model request as given",
    source=("ts#168", "report"),
    tier="cli",
    checks=tuple(_THINKING_RUNS),
    pins={
        "disabled-sends-no-thinking": ("option:thinking",),
        "max-thinking-tokens-budget-reaches-request": ("option:thinking", "option:max_thinking_tokens"),
        "zero-max-thinking-tokens-sends-no-thinking": ("option:thinking", "option:max_thinking_tokens"),
        "effort-reaches-request": ("option:effort",),
        "max-thinking-tokens-budget-on-older-model": ("option:thinking", "option:max_thinking_tokens"),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=180,
)
async def thinking_options_reach_request(h: Harness) -> dict[str, ThinkingRun | Absent]:
    fields = _fields()
    seen: dict[str, ThinkingRun | Absent] = {}
    for name, (option, value) in _THINKING_RUNS.items():
        if option not in fields:
            seen[name] = {"absent": f"ClaudeAgentOptions of this SDK has no field {option!r}"}
            continue
        options: dict[str, Any] = {option: value, **({"model": _OLDER_MODEL} if name == _ON_OLDER_MODEL else {})}
        run = await h.cli("think about it", script=["ok"], **options)
        first = run.first(MAIN)
        seen[name] = {
            "given": {option: value},
            "request": _thinking_seen(first.body) if first else None,
            "error": run.error_line,
        }
    return seen


def _thinking_ok(name: str, request: ThinkingRequest) -> bool:
    thinking = request.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    budget = thinking.get("budget_tokens") if isinstance(thinking, dict) else None
    if name == "adaptive-reaches-request":
        return kind == "adaptive"
    if name == "enabled-budget-reaches-request":
        return kind == "enabled" and budget == 1024
    if name in ("max-thinking-tokens-budget-reaches-request", _ON_OLDER_MODEL):
        return kind == "enabled" and budget == 2048
    if name in ("disabled-sends-no-thinking", "zero-max-thinking-tokens-sends-no-thinking"):
        return thinking is None or kind == "disabled"
    return request.get("effort") == "high"


@thinking_options_reach_request.decide
def _(seen: dict[str, ThinkingRun | Absent]) -> dict[str, Check]:
    checks: dict[str, Check] = {}
    for name in _THINKING_RUNS:
        run = seen[name]
        if "absent" in run:
            checks[name] = undecidable(run["absent"])
            continue
        request = run["request"]
        checks[name] = check(
            request is not None and _thinking_ok(name, request),
            f"{run['given']} sent the model {request if request is not None else 'no request'} (error {run['error']})",
        )
    return checks


def _thinking_run(option: str, value: Any, request: ThinkingSent) -> ThinkingRun:
    return {"given": {option: value}, "request": {"model": "claude-x", **request}, "error": None}


thinking_options_reach_request.differs_on(
    {
        "adaptive-reaches-request": _thinking_run("thinking", {"type": "adaptive"}, {"thinking": None, "effort": None}),
        "enabled-budget-reaches-request": _thinking_run(
            "thinking",
            {"type": "enabled", "budget_tokens": 1024},
            {"thinking": {"type": "adaptive"}, "effort": None},
        ),
        "disabled-sends-no-thinking": _thinking_run(
            "thinking", {"type": "disabled"}, {"thinking": {"type": "adaptive"}, "effort": None}
        ),
        "max-thinking-tokens-budget-reaches-request": _thinking_run(
            "max_thinking_tokens", 2048, {"thinking": {"type": "enabled", "budget_tokens": 31999}, "effort": None}
        ),
        "zero-max-thinking-tokens-sends-no-thinking": _thinking_run(
            "max_thinking_tokens", 0, {"thinking": {"type": "enabled", "budget_tokens": 0}, "effort": None}
        ),
        "effort-reaches-request": _thinking_run("effort", "high", {"thinking": None, "effort": None}),
        _ON_OLDER_MODEL: _thinking_run("max_thinking_tokens", 2048, {"thinking": None, "effort": None}),
    }
)
