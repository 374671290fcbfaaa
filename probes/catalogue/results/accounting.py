"""What a result accounts for: usage and cost over a session, the model a cost is priced at, and
the refused tool calls."""

from __future__ import annotations

import json
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    Conversation,
    Harness,
    Script,
    reply,
    result_text,
    tool_use,
)

# --- results.usage-cumulative ---------------------------------------------------------


class Tokens(TypedDict):
    input_tokens: int | None
    output_tokens: int | None


UsageSeen = TypedDict(
    "UsageSeen",
    {
        "per call": Tokens,
        "turns": list[Tokens],
        "second total_cost_usd vs first": str | None,  # "equal", "larger", "smaller" (None: a cost missing)
        "model calls for the prompts": int,
    },
)


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
async def usage_cumulative(h: Harness) -> UsageSeen:
    async def steps(c: Conversation) -> None:
        for prompt in ("first", "second"):
            await c.send(prompt)
            await c.response()

    # The double reports the same usage (10 in, 5 out) for every call: one call per turn.
    run = await h.converse(steps, script=Script(main=["one", "two"]))
    turns: list[Tokens] = []
    costs: list[Any] = []
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
def _(seen: UsageSeen) -> dict[str, Check]:
    turns = seen["turns"]
    if len(turns) < 2 or seen["model calls for the prompts"] != 2:
        said = f"{len(turns)} turn(s), {seen['model calls for the prompts']} model call(s): not two turns of one call"
        return {"usage-cumulative": check(False, said), "cost-cumulative": check(False, said)}
    first, second = turns[0], turns[1]

    def doubled(key: Literal["input_tokens", "output_tokens"]) -> bool:
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


# --- results.permission-denials-coverage ----------------------------------------------

# sub-check -> the id of the call it is about: a Read under a path deny rule, a Bash
# command under a Bash deny rule, a Write that no rule allows in dontAsk mode
_DENIED_CALLS = {
    "path-rule-denial-listed": "toolu_deny_read",
    "bash-rule-denial-listed": "toolu_deny_bash",
    "dont-ask-denial-listed": "toolu_deny_write",
}


class Denial(TypedDict):
    refused: bool
    listed: bool


DenialsSeen = TypedDict(
    "DenialsSeen",
    {
        "calls": dict[str, Denial],  # sub-check -> its call's fate
        "denials listed": int,
        "subtype": str | None,
        "is_error": bool | None,
        "exception": str | None,
    },
)


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
async def permission_denials_coverage(h: Harness) -> DenialsSeen:
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
    run = await h.cli("do these", script=[calls, "done"], settings=json.dumps(settings), permission_mode="dontAsk")
    main = run.on(MAIN)
    after = main[1] if len(main) > 1 else None
    r = run.result
    listed = {str(d.get("tool_use_id")) for d in (getattr(r, "permission_denials", None) or []) if isinstance(d, dict)}
    ran = {"toolu_deny_read": False, "toolu_deny_bash": touched.exists(), "toolu_deny_write": written.exists()}
    fates: dict[str, Denial] = {}
    for call, tid in _DENIED_CALLS.items():
        block = after.tool_result(tid) if after else None
        text = result_text(block)
        fates[call] = {
            "refused": bool(block and block.get("is_error")) and "CANARY-CONTENT" not in text and not ran[tid],
            "listed": tid in listed,
        }
    return {
        "calls": fates,
        "denials listed": len(listed),
        "subtype": getattr(r, "subtype", None),
        "is_error": getattr(r, "is_error", None),
        "exception": run.error_line,
    }


@permission_denials_coverage.decide
def _(seen: DenialsSeen) -> dict[str, Check]:
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


class UsageEntry(TypedDict):
    costUSD: float
    canonicalModel: str | None


# one model's run
Cost = TypedDict(
    "Cost",
    {
        "models asked": list[str],
        "total_cost_usd": float | None,
        "model_usage": dict[str, UsageEntry] | None,  # None: the result has no model_usage
        "error": str | None,
    },
)


def _priced_check(model: str) -> str:
    return f"total-priced-as-{model}"


def _usage_entries(result: Any) -> dict[str, UsageEntry] | None:
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
async def cost_follows_model(h: Harness) -> dict[str, Cost]:
    seen: dict[str, Cost] = {}
    for model in _PRICED:
        run = await h.cli("what does it cost?", script=[reply("priced", usage=dict(_COST_USAGE))], model=model)
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


def _canonical(entries: dict[str, UsageEntry] | None, model: str) -> str | None:
    entry = (entries or {}).get(model)
    return entry.get("canonicalModel") if entry else None


@cost_follows_model.decide
def _(seen: dict[str, Cost]) -> dict[str, Check]:
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
    named = {m: _canonical(seen[m]["model_usage"], m) for m in _PRICED}
    if all(seen[m]["model_usage"] is None for m in _PRICED) or all(v is None for v in named.values()):
        checks[_CANONICAL] = undecidable(f"no model_usage entry names a canonicalModel ({named})")
    else:
        checks[_CANONICAL] = check(
            all(isinstance(v, str) and v.startswith(m) for m, v in named.items()),
            f"canonicalModel of each model's entry: {named}",
        )
    return checks


def _cost_run(model: str, total: float, canonical: str) -> Cost:
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
