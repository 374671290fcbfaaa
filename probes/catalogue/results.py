"""Area `results`: what the ResultMessage says when a turn ends, well or badly."""

from __future__ import annotations

import json
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    Conversation,
    Harness,
    ProbeTimeout,
    Scenario,
    Script,
    http_error,
    reply,
    result_text,
    structured_output,
    tool_use,
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
async def success_subtype_with_is_error(h: Harness) -> dict[str, Any]:
    seen = {}
    for case, (status, kind, message, _) in _API_ERRORS.items():
        # A billing or access error is a standing condition: every request gets it (some
        # CLI versions retry a 400 once, and a one-off error would let the retry succeed).
        run = await h.session("hi", script=Script(fallback=http_error(status, message, kind)))
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


# --- results.usage-cumulative ---------------------------------------------------------


@behaviour(
    id="results.usage-cumulative",
    claim=(
        "In streaming-input mode (one ClaudeSDKClient, several turns) each result's usage and "
        "total_cost_usd add up over the whole session rather than counting only its own turn."
    ),
    summary="In one multi-turn client, each result's usage and cost add up over the session",
    source=("000", "Messages and results"),
    tier="cli",
    checks=("usage-cumulative", "cost-cumulative"),
    sdk_ref="claude_agent_sdk.types.ResultMessage",
)
async def usage_cumulative(h: Harness) -> dict[str, Any]:
    async def steps(c: Conversation) -> None:
        for prompt in ("first", "second"):
            await c.send(prompt)
            await c.response()

    # The double reports the same usage (10 in, 5 out) for every call: one call per turn.
    run = await h.converse(steps, script=Script(main=["one", "two"]))
    turns, costs = [], []
    for messages in run.turns:
        results = [m for m in messages if type(m).__name__ == "ResultMessage"]
        usage = (getattr(results[-1], "usage", None) or {}) if results else {}
        turns.append({"input_tokens": usage.get("input_tokens"), "output_tokens": usage.get("output_tokens")})
        costs.append(getattr(results[-1], "total_cost_usd", None) if results else None)
    return {
        "per call": {"input_tokens": 10, "output_tokens": 5},
        "turns": turns,
        # The cost is kept as a relation, not a figure: old CLIs add warm-up calls of their
        # own to the first turn's cost, in a number that may vary. Per-turn cost makes the
        # second (one call) at most the first (that call plus any warm-ups); cumulative makes
        # it larger.
        "second total_cost_usd vs first": _relation(costs),
        # calls answering the two prompts (old CLIs' warm-up calls left out: their number varies)
        "model calls for the prompts": sum(r.texts("user")[-1:] in (["first"], ["second"]) for r in run.requests),
    }


def _relation(costs: list[Any]) -> str | None:
    if len(costs) < 2 or costs[0] is None or costs[1] is None:
        return None
    first, second = float(costs[0]), float(costs[1])
    if abs(second - first) <= 1e-12:
        return "equal"
    return "larger" if second > first else "smaller"


@usage_cumulative.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    turns = seen["turns"]
    if len(turns) < 2 or seen["model calls for the prompts"] != 2:
        said = f"{len(turns)} turn(s), {seen['model calls for the prompts']} model call(s): not two turns of one call"
        return {"usage-cumulative": check(False, said), "cost-cumulative": check(False, said)}
    first, second = turns[0], turns[1]

    def doubled(key: str) -> bool:
        a, b = first[key], second[key]
        return a is not None and b is not None and a > 0 and b == 2 * a

    tokens = f"input_tokens {first['input_tokens']} then {second['input_tokens']}, output_tokens "
    tokens += f"{first['output_tokens']} then {second['output_tokens']}"
    return {
        "usage-cumulative": check(doubled("input_tokens") and doubled("output_tokens"), tokens),
        "cost-cumulative": check(
            seen["second total_cost_usd vs first"] == "larger",
            f"the second result's total_cost_usd was {seen['second total_cost_usd vs first']} to the first's",
        ),
    }


usage_cumulative.differs_on(
    {
        "per call": {"input_tokens": 10, "output_tokens": 5},
        "turns": [{"input_tokens": 10, "output_tokens": 5}, {"input_tokens": 10, "output_tokens": 5}],
        "second total_cost_usd vs first": "equal",
        "model calls for the prompts": 2,
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
async def error_names_real_cause(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import ProcessError

    seen = {}
    for variant, (fields, _) in _ERROR_RESULTS.items():
        scenario = Scenario().wait_for_user().init().result(is_error=True, **fields).exit(1)
        run = await h.wire("hi", scenario=scenario)
        exc = run.exception
        seen[variant] = {
            "yielded": [type(m).__name__ for m in run.messages if type(m).__name__ != "SystemMessage"],
            "raised": None if exc is None else type(exc).__name__,
            "is ProcessError": isinstance(exc, ProcessError),
            "text": None if exc is None else (str(exc).splitlines() or [""])[0],
            "exit_code": getattr(exc, "exit_code", None),
            "payload": {k: getattr(exc, k, "<absent>") for k in _PAYLOAD},
        }
    return seen


@error_names_real_cause.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
    return {
        "raises-typed-process-error": check(not untyped, f"raised {untyped}"),
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
async def max_turns_error_result(h: Harness) -> dict[str, Any]:
    (h.cwd / "x.txt").write_text("x\n")
    read = tool_use("Read", {"file_path": str(h.cwd / "x.txt")})
    seen = {}
    for limit in _LIMITS:
        # one Read per allowed turn, then one more the limit must keep the model from being asked for
        run = await h.session(
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
    runs = {limit: seen[f"max_turns={limit}"] for limit in _LIMITS}

    def every(ok: Any, said: Any) -> Check:
        wrong = [said(limit, run) for limit, run in runs.items() if not ok(limit, run)]
        return check(not wrong, "; ".join(wrong))

    def reason(run: dict[str, Any]) -> list[Any]:
        r = run["result"] or {}
        return [*(r.get("errors") or []), r.get("result") or ""]

    return {
        "stops-at-limit": every(
            lambda limit, run: run["model requests"] == limit,
            lambda limit, run: f"{run['model requests']} model request(s) with max_turns={limit}",
        ),
        "result-message-error-max-turns": every(
            lambda limit, run: (run["result"] or {}).get("subtype") == "error_max_turns",
            lambda limit, run: f"max_turns={limit}: {run['results']} ResultMessage(s); the last: {run['result']}",
        ),
        "reason-readable": every(
            lambda limit, run: any(_mentions_max_turns(x) for x in reason(run)),
            lambda limit, run: (
                f"max_turns={limit}: the result's errors {(run['result'] or {}).get('errors')!r} "
                f"and result {(run['result'] or {}).get('result')!r} name no turn limit"
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


# --- results.permission-denials-coverage ----------------------------------------------

# sub-check -> the id of the call it is about: a Read under a path deny rule, a Bash
# command under a Bash deny rule, a Write that no rule allows in dontAsk mode
_DENIED_CALLS = {
    "path-rule-denial-listed": "toolu_deny_read",
    "bash-rule-denial-listed": "toolu_deny_bash",
    "dont-ask-denial-listed": "toolu_deny_write",
}


@behaviour(
    id="results.permission-denials-coverage",
    claim=(
        "ResultMessage.permission_denials lists every tool call that was refused (by a Read path "
        "deny rule, a Bash deny rule, or dontAsk mode), so a caller can gate on it."
    ),
    summary="permission_denials lists every refused tool call, whatever refused it",
    source=("cc#82747", "report"),
    tier="cli",
    checks=tuple(_DENIED_CALLS),
    requires=("option:settings", "option:permission_mode", "field:ResultMessage.permission_denials"),
    sdk_ref="claude_agent_sdk.types.ResultMessage.permission_denials",
)
async def permission_denials_coverage(h: Harness) -> dict[str, Any]:
    secret = h.cwd / "secretdir"
    secret.mkdir()
    (secret / "canary.txt").write_text("CANARY-CONTENT\n")
    touched, written = h.cwd / "m", h.cwd / "w"
    settings = {
        # an absolute path in a rule is '//' + the path (see perms.deny-rule-absolute-path-double-slash)
        "permissions": {"allow": ["Read", "Bash(echo:*)"], "deny": [f"Read(/{secret}/**)", "Bash(touch:*)"]}
    }
    calls = reply(
        tool_use("Read", {"file_path": str(secret / "canary.txt")}, id="toolu_deny_read"),
        tool_use("Bash", {"command": f"touch {touched}"}, id="toolu_deny_bash"),
        tool_use("Write", {"file_path": str(written), "content": "w"}, id="toolu_deny_write"),
    )
    run = await h.session("do these", script=[calls, "done"], settings=json.dumps(settings), permission_mode="dontAsk")
    main = run.on(MAIN)
    after = main[1] if len(main) > 1 else None
    r = run.result
    listed = {str(d.get("tool_use_id")) for d in (getattr(r, "permission_denials", None) or []) if isinstance(d, dict)}
    ran = {"toolu_deny_read": False, "toolu_deny_bash": touched.exists(), "toolu_deny_write": written.exists()}
    seen: dict[str, Any] = {"calls": {}}
    for call, tid in _DENIED_CALLS.items():
        block = after.tool_result(tid) if after else None
        text = result_text(block)
        seen["calls"][call] = {
            "refused": bool(block and block.get("is_error")) and "CANARY-CONTENT" not in text and not ran[tid],
            "listed": tid in listed,
        }
    seen.update(
        {
            "denials listed": len(listed),
            "subtype": getattr(r, "subtype", None),
            "is_error": getattr(r, "is_error", None),
            "exception": run.error_line,
        }
    )
    return seen


@permission_denials_coverage.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    out = {}
    for name in _DENIED_CALLS:
        c, call = seen["calls"][name], name.removesuffix("-denial-listed")
        if not c["refused"]:
            out[name] = undecidable(
                f"the {call} call was not refused on this version (subtype {seen['subtype']}, "
                f"exception {seen['exception']}), so it says nothing about permission_denials"
            )
            continue
        out[name] = check(
            c["listed"],
            f"the refused {call} call is missing from permission_denials ({seen['denials listed']} listed; "
            f"subtype {seen['subtype']}, is_error {seen['is_error']})",
        )
    return out


permission_denials_coverage.differs_on(
    {
        "calls": {call: {"refused": True, "listed": False} for call in _DENIED_CALLS},
        "denials listed": 0,
        "subtype": "success",
        "is_error": False,
        "exception": None,
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
async def structured_output_roundtrip(h: Harness) -> dict[str, Any]:
    wire: dict[str, Any] = {}
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
    called = await h.session(
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
        text_only = await h.session(
            "answer",
            script=Script(fallback=reply(json.dumps(_ANSWER))),
            output_format=schema,
            max_turns=_TEXT_ONLY_TURNS,
            timeout=_TEXT_ONLY_WAIT,
        )
        text: dict[str, Any] = {**_outcome(text_only), "nudges": max(0, len(text_only.on(MAIN)) - 1)}
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


def _outcome(run: Any) -> dict[str, Any]:
    r = run.result
    return {
        "subtype": getattr(r, "subtype", None),
        "is_error": getattr(r, "is_error", None),
        "structured_output": getattr(r, "structured_output", None),
        "exception": run.error_line,
    }


@structured_output_roundtrip.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
