"""Area `results`, reported: the max_budget_usd error result, and costs priced by the model that served."""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    SUBAGENT,
    CliRun,
    Harness,
    ProbeTimeout,
    Script,
    reply,
    result_text,
    tool_use,
    tool_use_offered,
)

# --- results.max-budget-error-result ---------------------------------------------------

_BUDGET = 0.01
_BIG_USAGE = {"input_tokens": 1_000_000, "output_tokens": 100_000}  # dollars on any model's price
_SUB_PROMPT = "SUBAGENT-SPENDS: run the commands"
_BUDGET_RUNS = {
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


def _budget_seen(run: CliRun | None) -> dict[str, Any]:
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
    pins={
        "main-thread-spend-ends-error-max-budget": ("option:max_budget_usd", "error:ResultError"),
        "subagent-spend-ends-error-max-budget": ("option:max_budget_usd", "error:ResultError"),
        "raised-error-names-subtype": ("option:max_budget_usd", "error:ResultError"),
    },
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
    timeout=len(_BUDGET_RUNS) * _HANG_CEILING + 60,
)
async def max_budget_error_result(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for name, where in _BUDGET_RUNS.items():
        try:
            run: CliRun | None = await h.session(
                "spend" if where == "main" else "delegate the spending",
                script=_budget_script(where),
                max_budget_usd=_BUDGET,
                allowed_tools=["Bash", "Agent", "Task"],
                timeout=_HANG_CEILING,
            )
        except ProbeTimeout:
            run = None
        seen[name] = {"spend on": where, **_budget_seen(run)}
    import claude_agent_sdk

    seen["sdk has ResultError"] = hasattr(claude_agent_sdk, "ResultError")
    return seen


def _budget_said(run: dict[str, Any]) -> str:
    if run["hung"]:
        return f"spend on the {run['spend on']} thread: no end within {_HANG_CEILING:g} s"
    return (
        f"spend on the {run['spend on']} thread: {run['results']} result(s), the last {run['subtype']} "
        f"(is_error {run['is_error']}, cost over budget {run['cost over budget']}), "
        f"asked the model {run['asked the model']}, error {run['error']}"
    )


@max_budget_error_result.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {
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
            all(r["error subtype"] == _SUBTYPE or _SUBTYPE in r["error"] for r in raised),
            "the exceptions raised: " + "; ".join(f"{r['error']} (subtype {r['error subtype']})" for r in raised),
        )
    return checks


def _budget_run(where: str, subtype: str | None, error: str | None, hung: bool = False) -> dict[str, Any]:
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


# --- results.cost-follows-model --------------------------------------------------------

# model -> dollars for 100k input and 10k output tokens at Anthropic's published prices
# (under 200k input tokens: no long-context price applies)
_PRICED: dict[str, float] = {
    "claude-sonnet-4-5": 0.3 + 0.15,  # $3 / $15 per million
    "claude-opus-4-5": 0.5 + 0.25,  # $5 / $25
    "claude-haiku-4-5": 0.1 + 0.05,  # $1 / $5
}
_COST_USAGE = {"input_tokens": 100_000, "output_tokens": 10_000}
_DIFFER = "costs-differ-by-model"
_CANONICAL = "model-usage-names-served-model"


def _priced_check(model: str) -> str:
    return f"total-priced-as-{model}"


def _usage_entries(result: Any) -> dict[str, Any] | None:
    usage = getattr(result, "model_usage", None)
    if not isinstance(usage, dict):
        return None
    return {
        str(k): {
            "costUSD": round(float(v.get("costUSD") or 0), 6),
            "canonicalModel": v.get("canonicalModel"),
        }
        for k, v in sorted(usage.items())
        if isinstance(v, dict)
    }


@behaviour(
    id="results.cost-follows-model",
    claim=(
        "ResultMessage.total_cost_usd and each model_usage entry's costUSD are priced by the model that "
        "served the requests: the same usage (100k input, 10k output tokens) costs what Sonnet 4.5, Opus "
        "4.5 and Haiku 4.5 each charge, and the entry for that model names it as its canonicalModel."
    ),
    summary="total_cost_usd and model_usage costs use the price of the model that answered",
    source=("py#609", "report"),
    tier="cli",
    checks=(_DIFFER, *(_priced_check(m) for m in _PRICED), _CANONICAL),
    requires=("option:model",),
    pins={
        "costs-differ-by-model": ("message:ResultMessage", "option:model"),
        "total-priced-as-claude-sonnet-4-5": ("message:ResultMessage",),
        "total-priced-as-claude-opus-4-5": ("message:ResultMessage",),
        "total-priced-as-claude-haiku-4-5": ("message:ResultMessage",),
        "model-usage-names-served-model": ("message:ResultMessage", "option:model"),
    },
    sdk_ref="claude_agent_sdk._internal.message_parser.parse_message",
    timeout=150,
)
async def cost_follows_model(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for model in _PRICED:
        run = await h.session("what does it cost?", script=[reply("priced", usage=dict(_COST_USAGE))], model=model)
        result = run.result
        total = getattr(result, "total_cost_usd", None)
        seen[model] = {
            "models asked": sorted({str(r.model) for r in run.on(MAIN)}),
            "total_cost_usd": None if total is None else round(float(total), 6),
            "model_usage": _usage_entries(result),
            "error": run.error_line,
        }
    return seen


def _near(value: Any, expected: float) -> bool:
    return isinstance(value, (int, float)) and abs(value - expected) <= expected * 0.02


@cost_follows_model.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    totals = {m: seen[m]["total_cost_usd"] for m in _PRICED}
    checks = {
        _DIFFER: check(
            None not in totals.values() and len(set(totals.values())) == len(totals),
            f"the same usage cost {totals} under the three models",
        )
    }
    for model, expected in _PRICED.items():
        checks[_priced_check(model)] = check(
            _near(totals[model], expected),
            f"model={model!r} (asked {seen[model]['models asked']}): total_cost_usd {totals[model]}, "
            f"{expected:g} at its price (error {seen[model]['error']})",
        )
    named = {m: (seen[m]["model_usage"] or {}).get(m, {}).get("canonicalModel") for m in _PRICED}
    if all(seen[m]["model_usage"] is None for m in _PRICED) or all(v is None for v in named.values()):
        checks[_CANONICAL] = undecidable(f"no model_usage entry names a canonicalModel ({named})")
    else:
        checks[_CANONICAL] = check(
            all(isinstance(v, str) and v.startswith(m) for m, v in named.items()),
            f"canonicalModel of each model's entry: {named}",
        )
    return checks


def _cost_run(model: str, total: float, canonical: str) -> dict[str, Any]:
    return {
        "models asked": [model],
        "total_cost_usd": total,
        "model_usage": {model: {"costUSD": total, "canonicalModel": canonical}},
        "error": None,
    }


# py#609: Sonnet (and the rest) priced as Opus, the entry naming the Opus model
cost_follows_model.differs_on({m: _cost_run(m, 0.75, "claude-opus-4-5") for m in _PRICED})
# every model priced as Sonnet
cost_follows_model.differs_on({m: _cost_run(m, 0.45, "claude-sonnet-4-5") for m in _PRICED})
