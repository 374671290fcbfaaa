"""What a running subagent is given and held to: its model, its tools and its turns."""

from __future__ import annotations

from typing import Any, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.catalogue.agents.support import (
    AGENT_CALL_ID,
    agent_call,
    agent_result,
    first_line,
    first_sentence,
    spawn,
    task_texts,
)
from sdkprobe.harness import (
    AGENT_TOOL,
    MAIN,
    SUBAGENT,
    Harness,
    Script,
    reply,
    result_text,
    tool_use,
)

# --- spawning ---------------------------------------------------------------------


class RefusalSeen(TypedDict):
    refusal: str | None  # the first line naming zero tools
    refusal_in: list[str]  # where it was seen: tool_result, task messages
    agent_tool_result: str | None
    subagent_requests: int
    subagent_offered_bash: bool | None


@behaviour(
    id="agents.subagent-tools-within-session-tools",
    claim=(
        "A subagent can use only tools the session has: one whose tools all lie outside the "
        "session's set is refused ('would be spawned with zero tools ... unrecognized [Bash]') and never runs."
    ),
    summary="A subagent whose tools all lie outside the session's is refused and never runs",
    source=("000", "Subagents"),
    tier="cli",
    checks=("spawn-refused-naming-bash", "no-subagent-request"),
    requires=("option:tools", "option:agents"),
    timeout=90,
)
async def subagent_tools_within_session_tools(h: Harness) -> RefusalSeen:
    run = await h.cli(
        "delegate",
        script=Script(main=[reply(agent_call("runner")), "main done"], subagent=["runner done"]),
        tools=["Read", "Task"],
        agents={"runner": {"description": "runs commands", "prompt": "You run commands.", "tools": ["Bash"]}},
    )
    block = agent_result(run)
    places = [("tool_result", result_text(block))] if block else []
    places += task_texts(run)
    refusals = sorted({(where, line) for where, text in places for line in text.splitlines() if "zero tools" in line})
    sub = run.on(SUBAGENT)
    return {
        "refusal": refusals[0][1] if refusals else None,
        "refusal_in": sorted({where for where, _ in refusals}),
        "agent_tool_result": first_line(result_text(block)) if block and not refusals else None,
        "subagent_requests": len(sub),
        "subagent_offered_bash": "Bash" in sub[0].offered_tools if sub else None,
    }


@subagent_tools_within_session_tools.decide
def _(seen: RefusalSeen) -> dict[str, Check]:
    refusal = seen["refusal"] or ""
    return {
        "spawn-refused-naming-bash": check(
            "zero tools" in refusal and "Bash" in refusal,
            f"no refusal naming zero tools and Bash; the agent tool said {seen['agent_tool_result']!r}"
            if not refusal
            else f"the refusal was {refusal!r}",
        ),
        "no-subagent-request": check(
            seen["subagent_requests"] == 0,
            f"the subagent ran: {seen['subagent_requests']} request(s) reached the model"
            + ("" if seen["subagent_offered_bash"] is None else f", Bash offered {seen['subagent_offered_bash']}"),
        ),
    }


subagent_tools_within_session_tools.differs_on(
    {
        "refusal": None,
        "refusal_in": [],
        "agent_tool_result": "runner done",
        "subagent_requests": 1,
        "subagent_offered_bash": False,
    }
)


_WATCHED = ("Read", "Bash", *AGENT_TOOL)
_RO_PROMPT, _NOB_PROMPT = "Read-only task 4417.", "No-Bash task 4418."
_RO_BASH_ID = "toolu_double_robash"


class BashInside(TypedDict):
    tool_result_error: bool | None  # None: the call got no result
    ran: bool


# each agent's first request's offer among _WATCHED (None: no such request); built step by step
LimitsSeen = TypedDict(
    "LimitsSeen",
    {
        "ro": list[str] | None,
        "nob": list[str] | None,
        "ro offered, all": list[str] | None,
        "Bash called inside ro": BashInside,
    },
    total=False,
)


@behaviour(
    id="agents.definition-tool-limits-in-subagent-request",
    claim=(
        "A subagent defined with tools=[...] is offered only those tools, and one defined with "
        "disallowedTools=[...] is offered none of those; neither gets the agent tool (Agent/Task) unless listed."
    ),
    summary="A subagent's tools and disallowedTools limit what its own requests offer",
    source=("ts#172", "report"),
    tier="cli",
    checks=("tools-list-limits-offer", "disallowed-tools-not-offered", "unlisted-call-refused"),
    requires=("option:tools", "option:agents", "option:allowed_tools", "field:AgentDefinition.disallowedTools"),
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
    timeout=90,
    pins={
        "tools-list-limits-offer": ("agent:tools",),
        "disallowed-tools-not-offered": ("agent:disallowedTools",),
    },
)
async def definition_tool_limits_in_subagent_request(h: Harness) -> LimitsSeen:
    mark = h.cwd / "ro-bash-ran"
    bash = tool_use("Bash", {"command": f"touch {mark}", "description": "mark"}, _RO_BASH_ID)
    run = await h.cli(
        "delegate twice",
        script=Script(
            main=[reply(spawn("ro", _RO_PROMPT)), reply(spawn("nob", _NOB_PROMPT)), "main done"],
            subagent=[reply(bash), "ro done", "nob done"],
        ),
        tools=["Read", "Bash", "Task"],
        allowed_tools=["Read", "Bash"],  # a Bash the subagent was wrongly given would run
        agents={
            "ro": {"description": "reads", "prompt": "You read files.", "tools": ["Read"]},
            "nob": {"description": "no bash", "prompt": "You help.", "disallowedTools": ["Bash", "Agent", "Task"]},
        },
    )
    seen: LimitsSeen = {}
    for name, prompt in (("ro", _RO_PROMPT), ("nob", _NOB_PROMPT)):
        first = run.first(SUBAGENT, carrying=prompt)
        cast("dict[str, Any]", seen)[name] = (
            None if first is None else sorted(t for t in first.offered_tools if t in _WATCHED)
        )
    ro = run.first(SUBAGENT, carrying=_RO_PROMPT)
    # the whole offer only for ro, which should be one tool long
    seen["ro offered, all"] = None if ro is None else sorted(ro.offered_tools)
    block = next((b for r in run.on(SUBAGENT) if (b := r.tool_result(_RO_BASH_ID)) is not None), None)
    seen["Bash called inside ro"] = {
        "tool_result_error": None if block is None else bool(block.get("is_error")),
        "ran": mark.exists(),
    }
    return seen


@definition_tool_limits_in_subagent_request.decide
def _(seen: LimitsSeen) -> dict[str, Check]:
    ro, nob, call = seen["ro offered, all"], seen["nob"], seen["Bash called inside ro"]
    return {
        "tools-list-limits-offer": check(ro == ["Read"], f"ro (tools=[Read]) was offered {ro}"),
        "disallowed-tools-not-offered": check(
            nob is not None and "Read" in nob and not any(t in nob for t in ("Bash", *AGENT_TOOL)),
            f"nob (disallowedTools=[Bash, Agent]) was offered {nob} of {list(_WATCHED)}",
        ),
        "unlisted-call-refused": check(
            call["tool_result_error"] is True and not call["ran"],
            f"Bash called inside ro: tool_result error {call['tool_result_error']}, the command ran {call['ran']}",
        ),
    }


definition_tool_limits_in_subagent_request.differs_on(
    {
        "ro": ["Agent", "Bash", "Read"],
        "nob": ["Agent", "Read"],
        "ro offered, all": ["Agent", "Bash", "Read"],
        "Bash called inside ro": {"tool_result_error": False, "ran": True},
    }
)


_SESSION_MODEL = "claude-sonnet-4-5-20250929"
_SPAWNS = {
    # case: (agent, extra input of the agent call)
    "a (no model)": ("a", {}),
    "b (model=haiku)": ("b", {}),
    "a, the call asks for haiku": ("a", {"model": "haiku"}),
}
_ENVS: dict[str, dict[str, str]] = {
    "no env": {},
    "CLAUDE_CODE_SUBAGENT_MODEL=opus": {"CLAUDE_CODE_SUBAGENT_MODEL": "opus"},
    "... and CLAUDE_CODE_SUBAGENT_MODEL_FORCE=1": {
        "CLAUDE_CODE_SUBAGENT_MODEL": "opus",
        "CLAUDE_CODE_SUBAGENT_MODEL_FORCE": "1",
    },
}


def _family(model: str | None) -> str | None:
    """session, haiku, opus, sonnet or the id itself: aliases resolve to ids that move with releases."""
    if model is None or model == _SESSION_MODEL:
        return None if model is None else "session"
    return next((f for f in ("haiku", "opus", "sonnet") if f in model), model)


@behaviour(
    id="agents.subagent-model-resolution",
    claim=(
        "A subagent runs on its AgentDefinition.model when that is set and otherwise on the session's model; "
        "CLAUDE_CODE_SUBAGENT_MODEL applies only when neither the definition nor the agent call names a model."
    ),
    summary="A subagent runs on its definition's model when set, else on the session's model",
    source=("py#123", "maintainer reply"),
    tier="cli",
    checks=(
        "session-model-inherited",
        "definition-model-used",
        "env-applies-when-unset",
        "definition-model-beats-env",
        "call-model-beats-env",
    ),
    requires=("option:agents", "option:model", "option:tools", "field:AgentDefinition.model"),
    sdk_ref="claude_agent_sdk.types.AgentDefinition.model",
    timeout=120,
    # the definition's model is seen where agent b runs; the session's model where agent a
    # inherits it (the agent call's own model is the tool input, sent by the model, not the SDK)
    pins={
        "session-model-inherited": ("option:model",),
        "definition-model-used": ("agent:model",),
        "definition-model-beats-env": ("agent:model",),
    },
)
async def subagent_model_resolution(h: Harness) -> dict[str, dict[str, str | None]]:
    # env case -> "main" and each spawn case -> the model family it ran on
    seen: dict[str, dict[str, str | None]] = {}
    for env_case, env in _ENVS.items():
        prompts = {case: f"Model task {i} ({case})." for i, case in enumerate(_SPAWNS)}
        run = await h.cli(
            "delegate three times",
            script=Script(
                main=[*(reply(spawn(a, prompts[c], **extra)) for c, (a, extra) in _SPAWNS.items()), "main done"],
                subagent=[f"done {i}" for i in range(len(_SPAWNS))],
            ),
            model=_SESSION_MODEL,
            tools=["Read", "Task"],
            agents={
                "a": {"description": "no model", "prompt": "You help."},
                "b": {"description": "haiku", "prompt": "You help.", "model": "haiku"},
            },
            env=env,
        )
        seen[env_case] = {
            "main": _family(getattr(run.first(MAIN), "model", None)),
            **{case: _family(getattr(run.first(SUBAGENT, carrying=prompts[case]), "model", None)) for case in _SPAWNS},
        }
    return seen


@subagent_model_resolution.decide
def _(seen: dict[str, dict[str, str | None]]) -> dict[str, Check]:
    plain, env = seen["no env"], seen["CLAUDE_CODE_SUBAGENT_MODEL=opus"]
    a, b, call = _SPAWNS
    return {
        "session-model-inherited": check(
            plain[a] == "session", f"without env, agent a ran on {plain[a]} (the session on {plain['main']})"
        ),
        "definition-model-used": check(plain[b] == "haiku", f"without env, agent b (model=haiku) ran on {plain[b]}"),
        "env-applies-when-unset": check(
            env[a] == "opus", f"with CLAUDE_CODE_SUBAGENT_MODEL=opus agent a ran on {env[a]}"
        ),
        "definition-model-beats-env": check(
            env[b] == "haiku", f"with CLAUDE_CODE_SUBAGENT_MODEL=opus agent b (model=haiku) ran on {env[b]}"
        ),
        "call-model-beats-env": check(
            env[call] == "haiku",
            f"with CLAUDE_CODE_SUBAGENT_MODEL=opus an agent call asking for haiku ran on {env[call]}",
        ),
    }


# every subagent on the env's model, whatever the definition or the call said (cc#91160) ...
subagent_model_resolution.differs_on(
    {env_case: {"main": "session", **dict.fromkeys(_SPAWNS, "opus")} for env_case in _ENVS}
)
_RESOLVED: dict[str, dict[str, str | None]] = {  # as 2.1.332 resolves them
    "no env": {
        "main": "session",
        "a (no model)": "session",
        "b (model=haiku)": "haiku",
        "a, the call asks for haiku": "haiku",
    },
    "CLAUDE_CODE_SUBAGENT_MODEL=opus": {
        "main": "session",
        "a (no model)": "opus",
        "b (model=haiku)": "haiku",
        "a, the call asks for haiku": "haiku",
    },
    "... and CLAUDE_CODE_SUBAGENT_MODEL_FORCE=1": {"main": "session", **dict.fromkeys(_SPAWNS, "opus")},
}
# AgentDefinition.model no longer sent: agent b runs as agent a does
subagent_model_resolution.differs_on(
    {
        "no env": {**_RESOLVED["no env"], "b (model=haiku)": "session"},
        "CLAUDE_CODE_SUBAGENT_MODEL=opus": {**_RESOLVED["CLAUDE_CODE_SUBAGENT_MODEL=opus"], "b (model=haiku)": "opus"},
        "... and CLAUDE_CODE_SUBAGENT_MODEL_FORCE=1": _RESOLVED["... and CLAUDE_CODE_SUBAGENT_MODEL_FORCE=1"],
    }
)
# the model option no longer reaching the CLI: the session, and the agent that inherits it, on the CLI's default
subagent_model_resolution.differs_on(
    {
        env_case: {**models, "main": "opus", **({"a (no model)": "opus"} if env_case == "no env" else {})}
        for env_case, models in _RESOLVED.items()
    }
)
# ... or every subagent on the session's model, the env and the definition ignored (py#123)
subagent_model_resolution.differs_on(
    {env_case: {"main": "session", **dict.fromkeys(_SPAWNS, "session")} for env_case in _ENVS}
)


_LIMIT = 2
_LIM_PROMPT = "Keep echoing, task 4419."


class MaxTurnsSeen(TypedDict):
    max_turns: int
    scripted_tool_calls: int
    subagent_requests: int
    agent_tool_result: str | None
    agent_tool_result_error: bool | None
    task_messages: list[str]


@behaviour(
    id="agents.definition-max-turns-enforced",
    claim="A subagent defined with maxTurns=N stops after N turns, however many more tool calls its model makes.",
    summary="A subagent defined with maxTurns=N stops after N turns",
    source=("cc#41143", "report"),
    tier="cli",
    checks=("stops-after-max-turns",),
    requires=("option:agents", "option:tools", "option:allowed_tools", "field:AgentDefinition.maxTurns"),
    sdk_ref="claude_agent_sdk.types.AgentDefinition.maxTurns",
    timeout=90,
    pins={"stops-after-max-turns": ("agent:maxTurns",)},
)
async def definition_max_turns_enforced(h: Harness) -> MaxTurnsSeen:
    scripted = 8  # tool calls the subagent's model would go on making
    echoes = [reply(tool_use("Bash", {"command": f"echo turn {n}", "description": "echo"})) for n in range(scripted)]
    run = await h.cli(
        "delegate",
        script=Script(
            main=[reply(spawn("lim", _LIM_PROMPT, AGENT_CALL_ID)), "main done"], subagent=[*echoes, "lim done"]
        ),
        tools=["Bash", "Task"],
        allowed_tools=["Bash"],
        agents={"lim": {"description": "echoes", "prompt": "You echo.", "tools": ["Bash"], "maxTurns": _LIMIT}},
    )
    block = agent_result(run)
    return {
        "max_turns": _LIMIT,
        "scripted_tool_calls": scripted,
        "subagent_requests": len(run.on(SUBAGENT, carrying=_LIM_PROMPT)),
        "agent_tool_result": first_line(result_text(block), 120) if block else None,
        "agent_tool_result_error": None if block is None else bool(block.get("is_error")),
        "task_messages": sorted({first_sentence(text) for _, text in task_texts(run)}),
    }


@definition_max_turns_enforced.decide
def _(seen: MaxTurnsSeen) -> dict[str, Check]:
    n = seen["subagent_requests"]
    return {
        "stops-after-max-turns": check(
            0 < n <= seen["max_turns"],
            f"with maxTurns={seen['max_turns']} the subagent made {n} model request(s) "
            f"(of {seen['scripted_tool_calls']} scripted tool calls); "
            f"the agent tool said {seen['agent_tool_result']!r}",
        )
    }


definition_max_turns_enforced.differs_on(
    {
        "max_turns": _LIMIT,
        "scripted_tool_calls": 8,
        "subagent_requests": 9,
        "agent_tool_result": "lim done",
        "agent_tool_result_error": False,
        "task_messages": [],
    }
)
