"""How a run ends: the result's subtype and is_error, the error raised, and the limits (turns,
budget) that end it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    SUBAGENT,
    CliRun,
    Harness,
    ProbeTimeout,
    Scenario,
    Script,
    http_error,
    reply,
    result_text,
    sdk_class,
    structured_output,
    tool_use,
    tool_use_offered,
)

# sub-check: (HTTP status, error type, the API's message, the gist `result` must carry)
_API_ERRORS = {
    "billing-error-success-with-is-error": (
        400,
        "invalid_request_error",
        "Your credit balance is too low to access the Anthropic API.",
        "credit balance",
    ),
    "access-error-success-with-is-error": (
        403,
        "permission_error",
        "Your organization does not have access to this model.",
        "does not have access",
    ),
}


class ApiErrorEnd(TypedDict):
    subtype: str | None
    is_error: bool | None
    result: str | None
    api_error_status: int | None
    raised: str | None  # the exception's type
    main_requests: int


@behaviour(
    id="results.success-subtype-with-is-error",
    claim=(
        "A turn that fails on an API error (billing, access) can end in a result with "
        "subtype 'success' and is_error true, the error text in `result`: read is_error, not the subtype."
    ),
    summary="An API error can end in subtype 'success' with is_error true: read is_error",
    source=("000", "Messages and results"),
    tier="cli",
    checks=tuple(_API_ERRORS),
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
)
async def success_subtype_with_is_error(h: Harness) -> dict[str, ApiErrorEnd]:
    seen: dict[str, ApiErrorEnd] = {}
    for case, (status, kind, message, _) in _API_ERRORS.items():
        # A billing or access error is a standing condition: every request gets it (some
        # CLI versions retry a 400 once, and a one-off error would let the retry succeed).
        run = await h.cli("hi", script=Script(fallback=http_error(status, message, kind)))
        result = run.result
        seen[case] = {
            "subtype": getattr(result, "subtype", None),
            "is_error": getattr(result, "is_error", None),
            "result": getattr(result, "result", None),
            "api_error_status": getattr(result, "api_error_status", None),
            "raised": type(run.exception).__name__ if run.exception else None,
            # Requests of the main conversation only: old CLIs also fire side requests whose
            # number depends on timing, which would make the observation flap.
            "main_requests": len(run.on(MAIN)),
        }
    return seen


@success_subtype_with_is_error.decide
def _(seen: dict[str, ApiErrorEnd]) -> dict[str, Check]:
    checks = {}
    for case, (_, _, _, gist) in _API_ERRORS.items():
        r = seen[case]
        # The CLI may reword the API's message; the claim needs the gist in `result`.
        ok = r["subtype"] == "success" and r["is_error"] is True and gist in (r["result"] or "").lower()
        checks[case] = check(
            ok, f"subtype {r['subtype']!r}, is_error {r['is_error']!r}, result {r['result']!r}, raised {r['raised']}"
        )
    return checks


success_subtype_with_is_error.differs_on(
    {
        case: {
            "subtype": "error_during_execution",
            "is_error": True,
            "result": None,
            "api_error_status": status,
            "raised": None,
            "main_requests": 1,
        }
        for case, (status, *_) in _API_ERRORS.items()
    }
)


# --- results.error-names-real-cause ---------------------------------------------------

# variant: (the error result the fake CLI sends before it exits 1, a word the raised text must hold)
_ERROR_RESULTS: dict[str, tuple[dict[str, Any], str]] = {
    "API error in result": (
        {"subtype": "success", "errors": [], "result": "API Error: 529 overloaded", "api_error_status": 529},
        "529 overloaded",
    ),
    "errors[] given": (
        {"subtype": "success", "errors": ["SDKPROBE-CAUSE"], "result": "API Error: 529 overloaded"},
        "SDKPROBE-CAUSE",
    ),
    "empty result, HTTP 404": ({"subtype": "success", "errors": [], "result": "", "api_error_status": 404}, "404"),
    "max turns": ({"subtype": "error_max_turns", "errors": []}, "max_turns"),
}
_PAYLOAD = ("subtype", "errors", "result", "api_error_status")

# one variant's exception
Raised = TypedDict(
    "Raised",
    {
        "yielded": list[str],
        "raised": str | None,
        "is ProcessError": bool | None,  # None: the SDK under test has no ProcessError class
        "text": str | None,  # its first line
        "exit_code": int | None,
        "payload": dict[str, Any],  # each of _PAYLOAD -> the exception's attribute ("<absent>": none)
    },
)


@behaviour(
    id="results.error-names-real-cause",
    claim=(
        "When a run ends on an error result, the SDK raises a typed exception (a ProcessError) whose text "
        "names the real cause and which carries the result's fields (subtype, errors, result, HTTP status) "
        "and the exit code."
    ),
    summary="A run ending on an error raises a ProcessError that names the real cause",
    source=("py#1203", "report"),
    tier="wire",
    checks=("raises-typed-process-error", "text-names-real-cause", "carries-result-payload"),
    sdk_ref="claude_agent_sdk._errors.ResultError",
)
async def error_names_real_cause(h: Harness) -> dict[str, Raised]:
    process_error = sdk_class("ProcessError")
    seen: dict[str, Raised] = {}
    for variant, (fields, _) in _ERROR_RESULTS.items():
        scenario = Scenario().wait_for_user().init().result(is_error=True, **fields).exit(1)
        run = await h.wire("hi", scenario=scenario)
        exc = run.exception
        seen[variant] = {
            "yielded": [type(m).__name__ for m in run.messages if type(m).__name__ != "SystemMessage"],
            "raised": None if exc is None else type(exc).__name__,
            "is ProcessError": None if process_error is None else isinstance(exc, process_error),
            "text": None if exc is None else (str(exc).splitlines() or [""])[0],
            "exit_code": getattr(exc, "exit_code", None),
            "payload": {k: getattr(exc, k, "<absent>") for k in _PAYLOAD},
        }
    return seen


@error_names_real_cause.decide
def _(seen: dict[str, Raised]) -> dict[str, Check]:
    untyped = {v: r["raised"] for v, r in seen.items() if not r["is ProcessError"]}
    unnamed = {v: r["text"] for v, r in seen.items() if _ERROR_RESULTS[v][1] not in (r["text"] or "")}
    missing = {}
    for variant, r in seen.items():
        fields = _ERROR_RESULTS[variant][0]
        expected = {k: fields.get(k) or ([] if k == "errors" else None) for k in _PAYLOAD}
        got = {k: r["payload"][k] for k in _PAYLOAD}
        # an empty result may come back as "" or None
        off = sorted(k for k in _PAYLOAD if got[k] != expected[k] and not (k == "result" and got[k] in ("", None)))
        if off:
            missing[variant] = {k: got[k] for k in off}
        elif r["exit_code"] != 1:
            missing[variant] = {"exit_code": r["exit_code"]}
    typed = check(not untyped, f"raised {untyped}")
    if any(r["is ProcessError"] is None for r in seen.values()):
        typed = undecidable(f"this SDK has no ProcessError class; raised {untyped}")
    return {
        "raises-typed-process-error": typed,
        "text-names-real-cause": check(not unnamed, f"the raised text was {unnamed}"),
        "carries-result-payload": check(not missing, f"the exception's fields were {missing}"),
    }


error_names_real_cause.differs_on(
    {
        variant: {
            "yielded": ["ResultMessage"],
            "raised": "Exception",
            "is ProcessError": False,
            "text": "Claude Code returned an error result: success",
            "exit_code": None,
            "payload": {k: "<absent>" for k in _PAYLOAD},
        }
        for variant in _ERROR_RESULTS
    }
)


# --- results.max-turns-error-result ---------------------------------------------------


class TurnsResult(TypedDict):
    subtype: str
    is_error: bool
    errors: list[str] | None
    result: str | None
    terminal_reason: str | None
    num_turns: int


# one max_turns run
TurnsRun = TypedDict(
    "TurnsRun",
    {"model requests": int, "results": int, "result": TurnsResult | None, "exception": str | None},
)


@behaviour(
    id="results.max-turns-error-result",
    claim=(
        "When max_turns is reached the caller gets a ResultMessage with subtype 'error_max_turns' "
        "and a readable reason, the model is not asked again, and the exception the SDK raises names it."
    ),
    summary="Reaching max_turns ends in an error_max_turns result with a readable reason",
    source=("ts#427", "report"),
    tier="cli",
    checks=("stops-at-limit", "result-message-error-max-turns", "reason-readable", "exception-names-max-turns"),
    requires=("option:max_turns",),
    sdk_ref="claude_agent_sdk._internal.query.Query",
    pins={"result-message-error-max-turns": ("option:max_turns",), "exception-names-max-turns": ("option:max_turns",)},
)
async def max_turns_error_result(h: Harness) -> dict[str, TurnsRun]:
    (h.cwd / "x.txt").write_text("x\n")
    read = tool_use("Read", {"file_path": str(h.cwd / "x.txt")})
    seen: dict[str, TurnsRun] = {}
    for limit in _LIMITS:
        # one Read per allowed turn, then one more the limit must keep the model from being asked for
        run = await h.cli(
            "read x.txt",
            script=[*(reply(read) for _ in range(limit)), "never asked for"],
            max_turns=limit,
        )
        results = run.of_type("ResultMessage")
        r = results[-1] if results else None
        seen[f"max_turns={limit}"] = {
            "model requests": len(run.on(MAIN)),
            "results": len(results),
            "result": None
            if r is None
            else {
                "subtype": r.subtype,
                "is_error": r.is_error,
                "errors": getattr(r, "errors", None),
                "result": r.result,
                "terminal_reason": getattr(r, "terminal_reason", None),
                "num_turns": r.num_turns,
            },
            "exception": run.error_line,
        }
    return seen


_LIMITS = (1, 2)  # the recipe's two runs


def _mentions_max_turns(text: Any) -> bool:
    low = str(text or "").lower()
    return "max_turns" in low or "maximum number of turns" in low or "max turns" in low


@max_turns_error_result.decide
def _(seen: dict[str, TurnsRun]) -> dict[str, Check]:
    runs = {limit: seen[f"max_turns={limit}"] for limit in _LIMITS}

    def every(ok: Callable[[int, TurnsRun], bool], said: Callable[[int, TurnsRun], str]) -> Check:
        wrong = [said(limit, run) for limit, run in runs.items() if not ok(limit, run)]
        return check(not wrong, "; ".join(wrong))

    def result(run: TurnsRun) -> TurnsResult | dict[str, Any]:
        return run["result"] or {}

    def reason(run: TurnsRun) -> list[Any]:
        r = result(run)
        return [*(r.get("errors") or []), r.get("result") or ""]

    return {
        "stops-at-limit": every(
            lambda limit, run: run["model requests"] == limit,
            lambda limit, run: f"{run['model requests']} model request(s) with max_turns={limit}",
        ),
        "result-message-error-max-turns": every(
            lambda limit, run: result(run).get("subtype") == "error_max_turns",
            lambda limit, run: f"max_turns={limit}: {run['results']} ResultMessage(s); the last: {run['result']}",
        ),
        "reason-readable": every(
            lambda limit, run: any(_mentions_max_turns(x) for x in reason(run)),
            lambda limit, run: (
                f"max_turns={limit}: the result's errors {result(run).get('errors')!r} "
                f"and result {result(run).get('result')!r} name no turn limit"
            ),
        ),
        "exception-names-max-turns": every(
            lambda limit, run: _mentions_max_turns(run["exception"]),
            lambda limit, run: f"max_turns={limit}: the SDK raised {run['exception'] or 'nothing'}",
        ),
    }


max_turns_error_result.differs_on(
    {
        f"max_turns={limit}": {
            "model requests": limit + 1,
            "results": 0,
            "result": None,
            "exception": "ProcessError: Command failed with exit code 1 (exit code: 1)",
        }
        for limit in _LIMITS
    }
)
max_turns_error_result.differs_on(  # the limit of 1 holds, but 2 lets the model be asked a third time
    {
        "max_turns=1": {
            "model requests": 1,
            "results": 1,
            "result": {
                "subtype": "error_max_turns",
                "is_error": True,
                "errors": ["Reached maximum number of turns (1)"],
                "result": None,
                "terminal_reason": "max_turns",
                "num_turns": 2,
            },
            "exception": "ResultError: Claude Code returned an error result: Reached maximum number of turns (1)",
        },
        "max_turns=2": {
            "model requests": 3,
            "results": 1,
            "result": {
                "subtype": "success",
                "is_error": False,
                "errors": [],
                "result": "never asked for",
                "terminal_reason": "completed",
                "num_turns": 3,
            },
            "exception": None,
        },
    }
)


# --- results.structured-output-roundtrip ----------------------------------------------

_ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
_ANSWER = {"answer": "42"}
_TEXT_ONLY_TURNS = 6
_TEXT_ONLY_WAIT = 30.0
# output_format shapes other than json_schema-with-schema (py#180 asked for them to be refused)
_OTHER_SHAPES = {"json_object": {"type": "json_object"}, "json_schema without schema": {"type": "json_schema"}}

# one output_format shape on the wire
Shape = TypedDict("Shape", {"--json-schema": str | None, "raised": str | None, "warned": bool})


class Outcome(TypedDict):
    subtype: str | None
    is_error: bool | None
    structured_output: Any
    exception: str | None


class TextOnly(TypedDict, total=False):  # {"ended": False} alone when the run never ended, else the rest
    ended: bool
    subtype: str | None
    is_error: bool | None
    structured_output: Any
    exception: str | None
    nudges: int


class WrappedCall(TypedDict):
    refused: bool
    said: str


StructuredSeen = TypedDict(
    "StructuredSeen",
    {
        "wire": dict[str, Shape],
        "tool offered": bool,
        "wrapped call": WrappedCall,
        "after a fitting call": Outcome,
        "text only": TextOnly,
    },
)


@behaviour(
    id="results.structured-output-roundtrip",
    claim=(
        "With output_format={'type': 'json_schema', 'schema': S} a successful ResultMessage always "
        "carries structured_output matching S (a call that does not fit is refused, and a model that "
        "never calls the tool does not end in success), and any other output_format shape is rejected."
    ),
    summary="A successful json_schema run always carries structured_output matching the schema",
    source=("ts#277", "report"),
    tier="cli",
    checks=(
        "schema-sent-as-flag",
        "other-shapes-rejected",
        "fitting-call-gives-structured-output",
        "wrapped-call-refused",
        "no-call-no-success",
    ),
    requires=("option:output_format", "option:max_turns"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=150,
)
async def structured_output_roundtrip(h: Harness) -> StructuredSeen:
    wire: dict[str, Shape] = {}
    for name, shape in {"json_schema": {"type": "json_schema", "schema": _ANSWER_SCHEMA}, **_OTHER_SHAPES}.items():
        w = await h.wire(output_format=shape)
        flag = w.flag("--json-schema")
        wire[name] = {
            "--json-schema": None if flag is None else ("the schema" if _json(flag) == _ANSWER_SCHEMA else flag),
            "raised": w.error_line,
            # a warning or log line about the option (not the ResourceWarnings old SDKs leave)
            "warned": any(
                k in line.lower() for line in [*w.warnings, *w.log] for k in ("output_format", "json_schema", "schema")
            ),
        }
    schema = {"type": "json_schema", "schema": _ANSWER_SCHEMA}
    # the py#571 shape first; the model then corrects itself
    wrapped = structured_output({"output": _ANSWER}, id="toolu_wrapped")
    called = await h.cli(
        "answer",
        script=[reply(wrapped), reply(structured_output(_ANSWER, id="toolu_fits")), "done"],
        output_format=schema,
        max_turns=_TEXT_ONLY_TURNS,  # bounds an old CLI that keeps asking after the fitting call
    )
    main = called.on(MAIN)
    refusal = main[1].tool_result("toolu_wrapped") if len(main) > 1 else None
    # Old CLIs nudge a model that never calls the tool without end, max_turns or not (CLI
    # 2.1.37 sent over a thousand messages in a minute): a run still going after
    # _TEXT_ONLY_WAIT seconds, where a new CLI ends in about two, is recorded as never ending.
    try:
        text_only = await h.cli(
            "answer",
            script=Script(fallback=reply(json.dumps(_ANSWER))),
            output_format=schema,
            max_turns=_TEXT_ONLY_TURNS,
            timeout=_TEXT_ONLY_WAIT,
        )
        text = cast(TextOnly, {**_outcome(text_only), "nudges": max(0, len(text_only.on(MAIN)) - 1)})
    except ProbeTimeout:
        text = {"ended": False}
    return {
        "wire": wire,
        "tool offered": "StructuredOutput" in called.offered_tools,
        "wrapped call": {"refused": bool(refusal and refusal.get("is_error")), "said": result_text(refusal)[:120]},
        "after a fitting call": _outcome(called),
        "text only": text,
    }


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _outcome(run: Any) -> Outcome:
    r = run.result
    return {
        "subtype": getattr(r, "subtype", None),
        "is_error": getattr(r, "is_error", None),
        "structured_output": getattr(r, "structured_output", None),
        "exception": run.error_line,
    }


@structured_output_roundtrip.decide
def _(seen: StructuredSeen) -> dict[str, Check]:
    wire, fit, text = seen["wire"], seen["after a fitting call"], seen["text only"]
    others = {k: v for k, v in wire.items() if k != "json_schema"}
    return {
        "schema-sent-as-flag": check(
            wire["json_schema"]["--json-schema"] == "the schema", f"--json-schema was {wire['json_schema']}"
        ),
        "other-shapes-rejected": check(
            all(v["raised"] or v["warned"] for v in others.values()),
            "; ".join(
                f"{k}: --json-schema {v['--json-schema']}, raised {v['raised']}, warned {v['warned']}"
                for k, v in others.items()
            ),
        ),
        "fitting-call-gives-structured-output": check(
            fit["subtype"] == "success" and fit["structured_output"] == _ANSWER,
            f"after a StructuredOutput call fitting S: {fit} (tool offered: {seen['tool offered']})",
        ),
        "wrapped-call-refused": check(
            seen["wrapped call"]["refused"], f"the {{'output': ...}} call's tool_result: {seen['wrapped call']}"
        ),
        "no-call-no-success": check(
            text.get("ended") is False or not (text["subtype"] == "success" and text["structured_output"] is None),
            f"a model answering only in text never ended: the CLI kept nudging past {_TEXT_ONLY_WAIT:g} s "
            f"(max_turns={_TEXT_ONLY_TURNS})"
            if text.get("ended") is False
            else f"a model answering only in text ended in subtype {text['subtype']!r}, is_error {text['is_error']}, "
            f"structured_output {text['structured_output']} after {text['nudges']} nudge(s) "
            f"(max_turns={_TEXT_ONLY_TURNS})",
        ),
    }


structured_output_roundtrip.differs_on(
    {
        "wire": {
            "json_schema": {"--json-schema": None, "raised": None, "warned": False},
            "json_object": {"--json-schema": None, "raised": None, "warned": False},
            "json_schema without schema": {"--json-schema": None, "raised": None, "warned": False},
        },
        "tool offered": False,
        "wrapped call": {"refused": False, "said": "ok"},
        "after a fitting call": {"subtype": "success", "is_error": False, "structured_output": None, "exception": None},
        "text only": {
            "subtype": "success",
            "is_error": False,
            "structured_output": None,
            "exception": None,
            "nudges": 1,
        },
    }
)

# --- results.max-budget-error-result ---------------------------------------------------

_BUDGET = 0.01
_BIG_USAGE = {"input_tokens": 1_000_000, "output_tokens": 100_000}  # dollars on any model's price
_SUB_PROMPT = "SUBAGENT-SPENDS: run the commands"
_BudgetRunName = Literal["main-thread-spend-ends-error-max-budget", "subagent-spend-ends-error-max-budget"]
_BUDGET_RUNS: dict[_BudgetRunName, str] = {
    "main-thread-spend-ends-error-max-budget": "main",
    "subagent-spend-ends-error-max-budget": "subagent",
}
_EXCEPTION = "raised-error-names-subtype"
_SUBTYPE = "error_max_budget_usd"
_AGENT_ID = "toolu_spender"


def _spending(n: int) -> list[Any]:
    """`n` Bash calls each reported with a costly usage, then a costly text."""
    calls = [reply(tool_use("Bash", {"command": f"echo {i}"}), usage=dict(_BIG_USAGE)) for i in range(n)]
    return [*calls, reply("spent", usage=dict(_BIG_USAGE))]


def _budget_script(where: str) -> Script:
    if where == "main":
        return Script(main=[*_spending(4), "main done"])
    agent = tool_use_offered(
        ["Agent", "Task"],
        {"description": "spend", "prompt": _SUB_PROMPT, "subagent_type": "general-purpose", "run_in_background": False},
        id=_AGENT_ID,
    )
    return Script(main=[reply(agent), "main done"], subagent=_spending(4))


# one budget run: {"spend on", "hung": True} alone when it never ended
BudgetRun = TypedDict(
    "BudgetRun",
    {
        "spend on": str,  # "main" or "subagent"
        "hung": bool,
        "asked the model": dict[str, bool],  # thread -> whether it asked
        "results": int,
        "subtype": str | None,
        "is_error": bool | None,
        "cost over budget": bool,
        "agent tool result starts": str | None,
        "error": str | None,
        "error subtype": str | None,
    },
    total=False,
)


BudgetSeen = TypedDict(
    "BudgetSeen",
    {
        "main-thread-spend-ends-error-max-budget": BudgetRun,
        "subagent-spend-ends-error-max-budget": BudgetRun,
        "sdk has ResultError": bool,
    },
)


def _budget_seen(run: CliRun | None) -> BudgetRun:
    if run is None:
        return {"hung": True}
    results = run.of_type("ResultMessage")
    last = results[-1] if results else None
    after = run.on(MAIN)[1:2]
    agent_result = after[0].tool_result(_AGENT_ID) if after else None
    exc = run.exception
    return {
        "hung": False,
        # whether each thread asked the model, not how often: a request already on its way when
        # the spend passes the cap may or may not be sent (timing), the stop itself is the claim
        "asked the model": {"main": bool(run.on(MAIN)), "subagent": bool(run.on(SUBAGENT))},
        "results": len(results),
        "subtype": getattr(last, "subtype", None),
        "is_error": getattr(last, "is_error", None),
        "cost over budget": (getattr(last, "total_cost_usd", None) or 0) > _BUDGET,
        "agent tool result starts": result_text(agent_result)[:40] if agent_result else None,
        "error": run.error_line,
        "error subtype": getattr(exc, "subtype", None) if exc is not None else None,
    }


_HANG_CEILING = 180.0  # seconds a budget run may take to end: one that ends does so in seconds; a hang reaches it


@behaviour(
    id="results.max-budget-error-result",
    claim=(
        "Once the spend passes max_budget_usd the query ends with a ResultMessage of subtype "
        "'error_max_budget_usd', whether the spend was the main thread's or a subagent's, and an "
        "exception the SDK raises after that result names that subtype."
    ),
    summary="Passing max_budget_usd ends the query with an error_max_budget_usd result",
    security="a spending cap that a subagent's spend slips past, or a query that never ends when it trips",
    source=("py#1273", "report"),
    tier="cli",
    checks=(*_BUDGET_RUNS, _EXCEPTION),
    requires=("option:max_budget_usd", "option:allowed_tools"),
    # the budget is seen in how each run ends (the ResultMessage's subtype), the error class in
    # what was raised: a run with no budget raises nothing to read, a ResultError that lost its
    # subtype ends the runs the same way
    pins={
        "main-thread-spend-ends-error-max-budget": ("option:max_budget_usd",),
        "subagent-spend-ends-error-max-budget": ("option:max_budget_usd",),
        "raised-error-names-subtype": ("error:ResultError",),
    },
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
    timeout=len(_BUDGET_RUNS) * _HANG_CEILING + 60,
)
async def max_budget_error_result(h: Harness) -> BudgetSeen:
    seen = cast(BudgetSeen, {})  # its keys written below
    for name, where in _BUDGET_RUNS.items():
        try:
            run: CliRun | None = await h.cli(
                "spend" if where == "main" else "delegate the spending",
                script=_budget_script(where),
                max_budget_usd=_BUDGET,
                allowed_tools=["Bash", "Agent", "Task"],
                timeout=_HANG_CEILING,
            )
        except ProbeTimeout:
            run = None
        seen[name] = {"spend on": where, **_budget_seen(run)}
    seen["sdk has ResultError"] = sdk_class("ResultError") is not None
    return seen


def _budget_said(run: BudgetRun) -> str:
    if run["hung"]:
        return f"spend on the {run['spend on']} thread: no end within {_HANG_CEILING:g} s"
    return (
        f"spend on the {run['spend on']} thread: {run['results']} result(s), the last {run['subtype']} "
        f"(is_error {run['is_error']}, cost over budget {run['cost over budget']}), "
        f"asked the model {run['asked the model']}, error {run['error']}"
    )


@max_budget_error_result.decide
def _(seen: BudgetSeen) -> dict[str, Check]:
    checks: dict[str, Check] = {
        name: check(not seen[name]["hung"] and seen[name]["subtype"] == _SUBTYPE, _budget_said(seen[name]))
        for name in _BUDGET_RUNS
    }
    raised = [seen[n] for n in _BUDGET_RUNS if not seen[n]["hung"] and seen[n]["error"]]
    if not seen["sdk has ResultError"]:
        checks[_EXCEPTION] = undecidable("this SDK has no ResultError to carry the subtype")
    elif not raised:
        checks[_EXCEPTION] = undecidable("no run raised an exception to read")
    else:
        checks[_EXCEPTION] = check(
            all(r["error subtype"] == _SUBTYPE or _SUBTYPE in (r["error"] or "") for r in raised),
            "the exceptions raised: " + "; ".join(f"{r['error']} (subtype {r['error subtype']})" for r in raised),
        )
    return checks


def _budget_run(where: str, subtype: str | None, error: str | None, hung: bool = False) -> BudgetRun:
    if hung:
        return {"spend on": where, "hung": True}
    return {
        "spend on": where,
        "hung": False,
        "asked the model": {"main": True, "subagent": where == "subagent"},
        "results": 1,
        "subtype": subtype,
        "is_error": True,
        "cost over budget": True,
        "agent tool result starts": None,
        "error": error,
        "error subtype": "success" if error else None,
    }


_GENERIC = "Exception: Claude Code returned an error result: Reached maximum budget ($0.01) (exit code: 1)"
# ResultError no longer raised: the runs end as they should, the exception a plain one without the subtype
max_budget_error_result.differs_on(
    {
        "main-thread-spend-ends-error-max-budget": {**_budget_run("main", _SUBTYPE, _GENERIC), "error subtype": None},
        "subagent-spend-ends-error-max-budget": {**_budget_run("subagent", _SUBTYPE, _GENERIC), "error subtype": None},
        "sdk has ResultError": True,
    }
)
# max_budget_usd no longer reaching the CLI: both runs spend on to a success
max_budget_error_result.differs_on(
    {
        "main-thread-spend-ends-error-max-budget": {**_budget_run("main", "success", None), "is_error": False},
        "subagent-spend-ends-error-max-budget": {**_budget_run("subagent", "success", None), "is_error": False},
        "sdk has ResultError": True,
    }
)
# py#1273: the subagent's spend runs on and the parent never ends; the cap ignored on the main
# thread, the exception saying only "error result"
max_budget_error_result.differs_on(
    {
        "main-thread-spend-ends-error-max-budget": _budget_run(
            "main", "success", "Exception: Claude Code returned an error result: success"
        ),
        "subagent-spend-ends-error-max-budget": _budget_run("subagent", None, None, hung=True),
        "sdk has ResultError": True,
    }
)
