"""Area `results`: what the ResultMessage says when a turn ends, well or badly."""

from __future__ import annotations

from typing import Any

from probes.behaviour import Check, behaviour, check
from probes.harness import MAIN, Conversation, Harness, Script, http_error

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
