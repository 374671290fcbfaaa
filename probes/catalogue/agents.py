"""Area `agents`: subagent definitions, the Agent tool, and what a subagent may use.

Subagents may run in the background, so the double's subagent queue answers them
whenever they ask. What several of these behaviours share (agent calls that name the
agent tool for old and new CLIs alike, a subagent that runs Bash, the definitions as the
CLI received them) is in agents_support.py.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.agents_support import (
    AGENT_CALL_ID,
    AGENT_TOOL,
    PRESET,
    agent_call,
    agent_result,
    bash_run,
    first_line,
    first_sentence,
    is_task_message,
    sent_agents,
    spawn,
    subagent_runs_bash,
    subclassed,
    task_texts,
)
from sdkprobe.harness import (
    MAIN,
    SUBAGENT,
    CliRun,
    Conversation,
    Harness,
    Script,
    reply,
    result_text,
    tool_use,
)

# --- spawning ---------------------------------------------------------------------


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
async def subagent_tools_within_session_tools(h: Harness) -> dict[str, Any]:
    run = await h.session(
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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


@behaviour(
    id="agents.general-purpose-always-spawnable",
    claim=(
        "The built-in general-purpose subagent type can be spawned whatever `agents` declares, "
        "and it gets every tool of the session."
    ),
    summary="general-purpose subagents spawn whatever agents declares, with every session tool",
    source=("000", "Subagents"),
    tier="cli",
    checks=("general-purpose-spawned", "inherits-session-tools"),
    requires=("option:tools", "option:agents"),
    timeout=90,
    pins={"inherits-session-tools": ("option:tools",)},
)
async def general_purpose_always_spawnable(h: Harness) -> dict[str, Any]:
    run = await h.session(
        "delegate",
        script=Script(main=[reply(agent_call("general-purpose")), "main done"], subagent=["general done"]),
        tools=["Read", "Bash", "Task"],
        agents={"only": {"description": "the only declared agent", "prompt": "You read.", "tools": ["Read"]}},
    )
    block = agent_result(run)
    sub, main = run.on(SUBAGENT), run.on(MAIN)
    return {
        "agent_tool_result": first_line(result_text(block)) if block and block.get("is_error") else None,
        "subagent_requests": len(sub),
        "session_offers": sorted(main[0].offered_tools) if main else [],
        "subagent_offered": sorted(sub[0].offered_tools) if sub else None,
    }


@general_purpose_always_spawnable.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    session = [t for t in seen["session_offers"] if t not in AGENT_TOOL]
    got = seen["subagent_offered"]
    missing = [t for t in session if got is None or t not in got]
    return {
        "general-purpose-spawned": check(
            seen["subagent_requests"] > 0,
            f"no general-purpose request reached the model; the agent tool said {seen['agent_tool_result']!r}",
        ),
        "inherits-session-tools": check(
            got is not None and not missing,
            f"the session offered {session}, the general-purpose subagent {got} (missing {missing})",
        ),
    }


general_purpose_always_spawnable.differs_on(
    {
        "agent_tool_result": "Agent type 'general-purpose' not found",
        "subagent_requests": 0,
        "session_offers": ["Agent", "Bash", "Read"],
        "subagent_offered": None,
    }
)


@behaviour(
    id="agents.agent-tool-input-shape",
    claim="The agent tool (Agent, formerly Task) takes description, prompt and subagent_type as its input.",
    summary="The agent tool's input is description, prompt and subagent_type",
    source=("000", "Subagents"),
    tier="cli",
    checks=("has-description-prompt-subagent-type",),
    requires=("option:tools",),
)
async def agent_tool_input_shape(h: Harness) -> dict[str, Any]:
    run = await h.session("hi", script=["ok"], tools=["Task"])
    first = run.first(MAIN)
    name = next((n for n in AGENT_TOOL if first and n in first.tool_names), None)
    schema = (first.tool_schema(name) if first and name else None) or {}
    return {
        "api_name": name,
        "properties": sorted(schema.get("properties") or {}),
        "required": sorted(schema.get("required") or []),
    }


@agent_tool_input_shape.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    missing = [p for p in ("description", "prompt", "subagent_type") if p not in seen["properties"]]
    return {
        "has-description-prompt-subagent-type": check(
            seen["api_name"] is not None and not missing,
            f"the {seen['api_name'] or 'agent'} tool's input has {seen['properties']}, missing {missing}",
        )
    }


agent_tool_input_shape.differs_on({"api_name": "Agent", "properties": ["description", "task"], "required": []})


# --- background subagents -----------------------------------------------------------


MARKER = "SUBAGENT-REPORT-5521"  # what a subagent answers, to find where its report went


async def _foreground(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
    """A PreToolUse hook that sets run_in_background=False on the agent tool's input."""
    tool_input = dict(hook_input.get("tool_input") or {})
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {**tool_input, "run_in_background": False},
        }
    }


def _launch(run: CliRun) -> dict[str, Any]:
    """How the agent call came back (its tool_result), and in which of the messages the
    host read the subagent's report reached it."""
    block = agent_result(run)
    text = result_text(block)
    carried = sorted({_kind(m) for m in run.messages if MARKER in repr(m)})
    return {
        "tool_result_has_report": MARKER in text,
        "tool_result_error": bool(block and block.get("is_error")),
        "tool_result_starts": first_line(text, 60) if block else None,
        "report_reached_host_in": carried,
    }


def _kind(m: Any) -> str:
    """A message's kind as a host would sort it: task messages apart, subagent text marked."""
    if is_task_message(m):
        return "task message"
    name = type(m).__name__
    if name in ("AssistantMessage", "UserMessage") and getattr(m, "parent_tool_use_id", None):
        return f"{name} of the subagent"
    if name == "UserMessage" and any(type(b).__name__ == "ToolResultBlock" for b in getattr(m, "content", []) or []):
        return "UserMessage with the tool_result"
    return name


@behaviour(
    id="agents.background-by-default",
    claim=(
        "The agent tool starts subagents in the background unless told otherwise, so a host that "
        "ignores task messages loses the subagent's report; background=False on the AgentDefinition "
        "leaves that as it is, while a PreToolUse hook that rewrites run_in_background to false "
        "makes the call wait for the report."
    ),
    summary="Subagents start in the background; only a hook setting run_in_background=false waits",
    source=("000", "Subagents"),
    tier="cli",
    checks=(
        "default-launch-in-background",
        "report-lost-without-task-messages",
        "definition-background-false-no-change",
        "hook-rewrite-runs-in-foreground",
    ),
    requires=("option:tools", "option:agents", "option:hooks", "api:HookMatcher", "field:AgentDefinition.background"),
    timeout=300,
    pins={
        "definition-background-false-no-change": ("agent:background",),
    },
)
async def background_by_default(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    seen = {}
    variants: dict[str, tuple[str, dict[str, Any]]] = {
        "default": ("general-purpose", {}),
        "background=False": (
            "waiter",
            {"agents": {"waiter": {"description": "waits", "prompt": "You report.", "background": False}}},
        ),
        "hook sets run_in_background=False": (
            "general-purpose",
            {"hooks": {"PreToolUse": [HookMatcher(matcher="Agent|Task", hooks=[_foreground])]}},
        ),
    }
    # What the SDK sends for the definition (the fake CLI records it): the CLI ignoring
    # background=False is only a finding when the SDK sent it.
    sent = sent_agents(await h.wire(agents=variants["background=False"][1]["agents"]))
    seen["background=False sent as"] = ((sent or {}).get("waiter") or {}).get("background", "absent")
    for name, (subagent_type, options) in variants.items():
        # The host reads one response: it stops at its first result. The subagent's answer
        # is held until that result has come, so a report the host got was waited for; a
        # turn that waits for the subagent gets its answer only at a ceiling that such a
        # wait alone reaches.
        ended: list[bool] = []

        async def first_response(c: Conversation, ended: list[bool] = ended) -> None:
            await c.send("delegate")
            _, released = await c.until_or_release(_is_result, _PARENT_CEILING)
            ended.append(not released)
            c.stop_holding()  # the parent's turn is over: the subagent may answer now

        run = await h.converse(
            first_response,
            script=Script(main=[reply(agent_call(subagent_type)), _PARENT_DONE], subagent=[_held_report()]),
            tools=["Read", "Task"],
            timeout=_PARENT_CEILING + 60,
            **options,
        )
        seen[name] = {**_launch(run), "parent_turn_ended_before_the_report": ended == [True]}
    # The same default call under query(), read to its end: the Python SDK keeps the
    # CLI's stdin open while a background task runs, so the report may still come. The
    # subagent's answer is let go once the parent's last answer has reached the host (the
    # CLI may hold its result back until the task ends); it is held only when the default
    # call ran in the background, as a foreground call waits for it.
    background = not seen["default"]["tool_result_has_report"]

    def at_parents_last_answer(message: Any, double: Any) -> None:
        if _is_parents_last_answer(message) and double is not None:
            double.stop_holding()

    run = await h.session(
        "delegate",
        script=Script(
            main=[reply(agent_call("general-purpose")), _PARENT_DONE],
            subagent=[_held_report() if background else reply(MARKER)],
        ),
        tools=["Read", "Task"],
        on_message=at_parents_last_answer,
        timeout=90,
    )
    seen["default, query() read to its end"] = _launch(run)
    return seen


_PARENT_CEILING = 20.0  # seconds: reached only by a parent turn that waits for the held subagent
_PARENT_DONE = "main done"  # the parent's answer after the agent call


def _is_parents_last_answer(m: Any) -> bool:
    return (
        type(m).__name__ == "AssistantMessage"
        and not getattr(m, "parent_tool_use_id", None)
        and any(getattr(b, "text", None) == _PARENT_DONE for b in m.content)
    )


def _held_report() -> Any:
    """The subagent's report, its stream held after message_start until released."""
    return reply(MARKER, hold_after=1)


def _is_result(m: Any) -> bool:
    return type(m).__name__ == "ResultMessage"


@background_by_default.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    default, defined, hooked = seen["default"], seen["background=False"], seen["hook sets run_in_background=False"]

    def mode(v: dict[str, Any]) -> str:
        if v["tool_result_error"]:
            return f"an error ({v['tool_result_starts']!r})"
        return "foreground (the report in the tool_result)" if v["tool_result_has_report"] else "background"

    leaked = {
        host: [k for k in seen[variant]["report_reached_host_in"] if k != "task message"]
        for host, variant in (
            ("a client stopping at its first result", "default"),
            ("query() read to its end", "default, query() read to its end"),
        )
    }
    lost = "; ".join(f"{host} got it in {', '.join(kinds)}" for host, kinds in leaked.items() if kinds)
    return {
        "default-launch-in-background": check(
            mode(default) == "background" and default["parent_turn_ended_before_the_report"],
            f"by default the agent call ran {mode(default)}; the parent's turn ended while the subagent's "
            f"answer was held: {default['parent_turn_ended_before_the_report']}",
        ),
        "report-lost-without-task-messages": check(
            not lost, f"the subagent's report reached a host that ignores task messages: {lost}"
        ),
        "definition-background-false-no-change": check(
            seen["background=False sent as"] is False and mode(defined) == mode(default),
            f"the SDK sent the definition's background as {seen['background=False sent as']!r}; with it the "
            f"call ran {mode(defined)}, by default {mode(default)}",
        ),
        "hook-rewrite-runs-in-foreground": check(
            mode(hooked) == "foreground (the report in the tool_result)",
            f"with the hook's run_in_background=False the call ran {mode(hooked)}",
        ),
    }


_FOREGROUND = {
    "tool_result_has_report": True,
    "tool_result_error": False,
    "tool_result_starts": MARKER,
    "report_reached_host_in": ["UserMessage with the tool_result"],
}
_BACKGROUND = {
    "tool_result_has_report": False,
    "tool_result_error": False,
    "tool_result_starts": "Async agent launched successfully.",
    "report_reached_host_in": [],
}
_BACKGROUND_RUN = {**_BACKGROUND, "parent_turn_ended_before_the_report": True}
# AgentDefinition.background no longer sent: the CLI runs the agent as by default, which alone looks the same
background_by_default.differs_on(
    {
        "background=False sent as": "absent",
        "default": _BACKGROUND_RUN,
        "background=False": _BACKGROUND_RUN,
        "hook sets run_in_background=False": {**_FOREGROUND, "parent_turn_ended_before_the_report": False},
        "default, query() read to its end": {**_BACKGROUND, "report_reached_host_in": ["task message"]},
    }
)
background_by_default.differs_on(
    {
        "background=False sent as": False,
        "default": {**_FOREGROUND, "parent_turn_ended_before_the_report": False},
        "background=False": {**_BACKGROUND, "parent_turn_ended_before_the_report": True},
        "hook sets run_in_background=False": {**_BACKGROUND, "parent_turn_ended_before_the_report": True},
        "default, query() read to its end": _FOREGROUND,
    }
)


# --- what a definition may carry, and where it travels -------------------------------


def _tool_fields() -> list[str]:
    """AgentDefinition's fields about tools, in the SDK under test."""
    from claude_agent_sdk import AgentDefinition

    return sorted(f.name for f in dataclasses.fields(AgentDefinition) if "tools" in f.name.lower())


@behaviour(
    id="agents.no-allowed-tools-field",
    claim=(
        "An AgentDefinition has no allowedTools: only tools (what exists) and disallowedTools, so a "
        "subagent carries no approval list of its own and its tool calls are approved by the top level."
    ),
    summary="An AgentDefinition has no allowedTools; the top level approves a subagent's calls",
    source=("003", "The part nobody has written up: the subagent level"),
    tier="cli",
    checks=("definition-lacks-allowed-tools", "bash-call-from-subagent", "approval-from-top-level"),
    controls=("bash-call-from-subagent",),
    requires=("option:tools", "option:agents", "option:allowed_tools", "option:can_use_tool"),
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
    timeout=90,
)
async def no_allowed_tools_field(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import AgentDefinition

    try:
        AgentDefinition(description="d", prompt="p", allowedTools=["Bash"])  # type: ignore[call-arg]
        keyword = "accepted"
    except TypeError:
        keyword = "TypeError"
    # A subagent limited to Bash runs it, once with Bash pre-approved at the top level and
    # once without: the difference is what the top-level rule does inside the subagent.
    runner = {"description": "runs commands", "prompt": "You run commands.", "tools": ["Bash"]}
    return {
        "tool_fields": _tool_fields(),
        "allowedTools=": keyword,
        "top-level allowed_tools=[Bash]": await subagent_runs_bash(
            h, runner, "allowed.txt", origin=True, allowed_tools=["Bash"]
        ),
        "no allow rule": await subagent_runs_bash(h, runner, "unruled.txt", origin=True),
    }


@no_allowed_tools_field.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    allowed, control = seen["top-level allowed_tools=[Bash]"], seen["no allow rule"]
    approved = allowed["bash_ran"] and "Bash" not in allowed["can_use_tool_asked"]
    prompted = "Bash" in control["can_use_tool_asked"] or not control["bash_ran"]
    return {
        "definition-lacks-allowed-tools": check(
            "allowedTools" not in seen["tool_fields"] and seen["allowedTools="] == "TypeError",
            f"AgentDefinition's tool fields are {seen['tool_fields']}; allowedTools= was {seen['allowedTools=']}",
        ),
        # the Bash call was the subagent's: its tool_result went back in the subagent's own
        # conversation (the double's routing), in both runs
        "bash-call-from-subagent": check(
            all(v.get("bash_result_came_back_on") == [SUBAGENT] for v in (allowed, control)),
            f"the Bash call's tool_result came back on {allowed.get('bash_result_came_back_on')} with the rule, "
            f"on {control.get('bash_result_came_back_on')} without",
        ),
        "approval-from-top-level": check(
            approved and prompted,
            f"with the top-level rule the subagent's Bash ran {allowed['bash_ran']}, can_use_tool asked for "
            f"{allowed['can_use_tool_asked']}; without it ran {control['bash_ran']}, asked for "
            f"{control['can_use_tool_asked']}",
        ),
    }


no_allowed_tools_field.differs_on(
    {
        "tool_fields": ["allowedTools", "disallowedTools", "tools"],
        "allowedTools=": "accepted",
        "top-level allowed_tools=[Bash]": bash_run(["Bash"], True),
        "no allow rule": bash_run(["Bash"], True),
    }
)
no_allowed_tools_field.differs_on(  # the Bash call was the main conversation's, not the subagent's
    {
        "tool_fields": ["disallowedTools", "tools"],
        "allowedTools=": "TypeError",
        "top-level allowed_tools=[Bash]": bash_run([], True, (MAIN,)),
        "no allow rule": bash_run(["Bash"], True, (MAIN,)),
    }
)


@behaviour(
    id="agents.definitions-sent-in-initialize",
    claim=(
        "Subagent definitions are not put on the CLI's command line; they travel as JSON in the "
        "initialize control request on stdin."
    ),
    summary="Subagent definitions travel in the initialize request on stdin, not as flags",
    source=("003", "What the SDK does not catch"),
    tier="wire",
    checks=("not-sent-as-flag", "sent-in-initialize"),
    requires=("option:agents",),
    sdk_ref="claude_agent_sdk._internal.query.Query.initialize",
    pins={"not-sent-as-flag": ("option:agents",), "sent-in-initialize": ("option:agents",)},
)
async def definitions_sent_in_initialize(h: Harness) -> dict[str, Any]:
    prompt = "You review code (definition marker 8812)."
    run = await h.wire(agents={"reviewer": {"description": "reviews", "prompt": prompt, "tools": ["Read"]}})
    return {
        "initialize.agents": (run.initialize or {}).get("agents"),
        "--agents": run.flag("--agents"),
        "argv_mentions_definition": any("8812" in a for a in run.argv),
    }


@definitions_sent_in_initialize.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    sent = (seen["initialize.agents"] or {}).get("reviewer") or {}
    return {
        "not-sent-as-flag": check(
            seen["--agents"] is None and not seen["argv_mentions_definition"],
            f"--agents was {seen['--agents']!r}",
        ),
        "sent-in-initialize": check(
            sent.get("description") == "reviews" and "8812" in str(sent.get("prompt")),
            f"initialize carried agents {seen['initialize.agents']!r}",
        ),
    }


definitions_sent_in_initialize.differs_on(
    {"initialize.agents": None, "--agents": '{"reviewer": {}}', "argv_mentions_definition": True}
)

# case: (the key written into a definition, its value); each goes through every route
_WRITTEN: dict[str, tuple[str, Any]] = {
    "unknown-field-forwarded": ("allowedTools", ["Bash"]),
    "preset-shape-forwarded": ("tools", PRESET),
    "typo-forwarded": ("toolz", ["Read"]),
}


@behaviour(
    id="agents.definition-fields-unvalidated",
    claim=(
        "The SDK forwards agent definitions as written, without checking them: an unknown field "
        "(allowedTools), a shape the types forbid (tools as the preset object) and a typo (toolz) all "
        "reach the CLI, with no error, warning or stripping."
    ),
    summary="Agent definitions reach the CLI as written, unknown fields and typos unchecked",
    source=("003", "What the SDK does not catch"),
    tier="wire",
    checks=tuple(_WRITTEN),
    requires=("option:agents",),
    sdk_ref="claude_agent_sdk._internal.client.InternalClient.process_query",
)
async def definition_fields_unvalidated(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import AgentDefinition

    seen: dict[str, Any] = {}
    for case, (key, value) in _WRITTEN.items():
        known = key in {f.name for f in dataclasses.fields(AgentDefinition)}
        routes: dict[str, Any] = {
            # written as a keyword: what the typed API offers
            "keyword": lambda key=key, value=value: AgentDefinition(description="d", prompt="p", **{key: value}),
            # a mapping as read from JSON or YAML (not a dict, which the harness would convert)
            "mapping": lambda key=key, value=value: types.MappingProxyType(
                {"description": "d", "prompt": "p", key: value}
            ),
        }
        if not known:
            routes["attribute"] = lambda key=key, value=value: _with_attribute(AgentDefinition, key, value)
            routes["subclass field"] = lambda key=key, value=value: subclassed(AgentDefinition, key, value)
        seen[case] = {route: await _send(h, make, key) for route, make in routes.items()}
    return seen


def _with_attribute(cls: Any, key: str, value: Any) -> Any:
    agent = cls(description="d", prompt="p")
    setattr(agent, key, value)
    return agent


async def _send(h: Harness, make: Any, key: str) -> dict[str, Any]:
    """What became of one way of writing a definition: raised where, or what was sent and
    how many warnings spoke of it (old SDKs also warn of unclosed streams on every run)."""
    try:
        agent = make()
    except TypeError:
        return {"raised": "TypeError at construction"}
    run = await h.wire(agents={"x": agent})
    if run.exception is not None:
        return {"raised": f"{type(run.exception).__name__} in the SDK"}
    about = [w for w in run.warnings if key in w or "agent" in w.lower()]
    return {"sent": (sent_agents(run) or {}).get("x"), "warnings": len(about)}


@definition_fields_unvalidated.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {}
    for case, (key, value) in _WRITTEN.items():
        written = {"description": "d", "prompt": "p", key: value}
        routes = seen[case]
        verbatim = [
            r for r in ("keyword", "mapping") if routes[r].get("sent") == written and not routes[r].get("warnings")
        ]
        checks[case] = check(bool(verbatim), f"{key}: " + "; ".join(_fate(r, v, key) for r, v in routes.items()))
    return checks


def _fate(route: str, v: dict[str, Any], key: str) -> str:
    if "raised" in v:
        return f"{route}: {v['raised']}"
    sent = v.get("sent") or {}
    fate = f"{route}: sent {key}={sent[key]!r}" if key in sent else f"{route}: {key} silently dropped"
    return fate + (f" with {v['warnings']} warning(s)" if v.get("warnings") else "")


definition_fields_unvalidated.differs_on(
    {
        case: {"keyword": {"raised": "TypeError at construction"}, "mapping": {"raised": "TypeError in the SDK"}}
        for case in _WRITTEN
    }
)


@behaviour(
    id="agents.tools-preset-translated-only-top-level",
    claim=(
        "The tools preset object is translated only at the top level: as the tools option it becomes "
        "--tools default, as an AgentDefinition's tools it is forwarded as the raw object."
    ),
    summary="The tools preset becomes --tools default at the top level, stays raw in an agent",
    source=("003", "What the SDK does not catch"),
    tier="wire",
    checks=("top-level-preset-sent-as-default", "agent-preset-sent-raw"),
    requires=("option:tools", "option:agents"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
)
async def tools_preset_translated_only_top_level(h: Harness) -> dict[str, Any]:
    run = await h.wire(tools=PRESET, agents={"x": {"description": "d", "prompt": "p", "tools": PRESET}})
    return {
        "--tools": run.flag("--tools"),
        "agent x tools sent": ((sent_agents(run) or {}).get("x") or {}).get("tools"),
    }


@tools_preset_translated_only_top_level.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    agent = seen["agent x tools sent"]
    return {
        "top-level-preset-sent-as-default": check(seen["--tools"] == "default", f"--tools was {seen['--tools']!r}"),
        "agent-preset-sent-raw": check(agent == PRESET, f"the agent's tools were sent as {agent!r}"),
    }


tools_preset_translated_only_top_level.differs_on({"--tools": None, "agent x tools sent": "default"})


@behaviour(
    id="agents.unknown-fields-ignored-by-cli",
    claim=(
        "The CLI ignores an allowedTools key inside a subagent definition: it neither fails on it nor "
        "auto-approves the listed tools for that subagent."
    ),
    summary="The CLI ignores allowedTools in a subagent definition: no failure, no approval",
    source=("003", "What the SDK does not catch"),
    tier="cli",
    checks=("definition-accepted", "allowed-tools-has-no-effect"),
    requires=("option:tools", "option:agents", "option:can_use_tool"),
    timeout=90,
)
async def unknown_fields_ignored_by_cli(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import AgentDefinition

    # Only a dataclass subclass gets an extra field past the SDK (see definition-fields-unvalidated).
    with_field = subclassed(AgentDefinition, "allowedTools", ["Bash"])
    with_field.description, with_field.prompt, with_field.tools = "runs commands", "You run commands.", ["Bash"]
    plain = AgentDefinition(description="runs commands", prompt="You run commands.", tools=["Bash"])
    seen: dict[str, Any] = {
        "allowedTools=[Bash] in the definition": await subagent_runs_bash(h, with_field, "with-field.txt"),
        "same definition without it": await subagent_runs_bash(h, plain, "without-field.txt"),
    }
    # Recorded, not judged: what the CLI makes of the preset object as an agent's tools.
    preset = await h.session(
        "delegate",
        script=Script(main=[reply(agent_call("p")), "main done"], subagent=["p done"]),
        tools=["Read", "Bash", "Task"],
        agents={"p": AgentDefinition(description="preset tools", prompt="You help.", tools=PRESET)},  # type: ignore[arg-type]
    )
    block, sub = agent_result(preset), preset.on(SUBAGENT)
    seen["tools=<preset> in the definition"] = {
        "listed": "p" in (preset.init.get("agents") or []),
        "subagent_offered": sorted(sub[0].offered_tools) if sub else None,
        "agent_tool_error": first_sentence(result_text(block)) if block and block.get("is_error") else None,
        "task_errors": sorted({first_sentence(text) for _, text in task_texts(preset) if "p done" not in text}),
    }
    return seen


@unknown_fields_ignored_by_cli.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    extra, plain = seen["allowedTools=[Bash] in the definition"], seen["same definition without it"]

    def outcome(v: dict[str, Any]) -> str:
        return f"can_use_tool asked for {v['can_use_tool_asked']}, Bash ran {v['bash_ran']}"

    return {
        "definition-accepted": check(
            extra["runner_listed"] and extra["error"] is None and extra["subagent_requests"] > 0,
            f"the agent with allowedTools: listed in init {extra['runner_listed']}, error {extra['error']!r}, "
            f"{extra['subagent_requests']} subagent request(s)",
        ),
        "allowed-tools-has-no-effect": check(
            outcome(extra) == outcome(plain),
            f"with allowedTools in the definition {outcome(extra)}; without it {outcome(plain)}",
        ),
    }


unknown_fields_ignored_by_cli.differs_on(
    {
        "allowedTools=[Bash] in the definition": {
            **bash_run([], True),
            "runner_listed": False,
            "subagent_requests": 0,
        },
        "same definition without it": bash_run(["Bash"], True),
        "tools=<preset> in the definition": {
            "listed": False,
            "subagent_offered": None,
            "agent_tool_error": None,
            "task_errors": [],
        },
    }
)


# The misuse as a user writes it, one definition a line; a wrongly typed description on the
# last line must fail too, showing AgentDefinition is the SDK's checked type, not `any`.
_MISUSE = """import type { AgentDefinition } from "@anthropic-ai/claude-agent-sdk";
const approving: AgentDefinition = { description: "d", prompt: "p", allowedTools: ["Bash"] };
const preset: AgentDefinition = { description: "d", prompt: "p", tools: { type: "preset", preset: "claude_code" } };
const typed: AgentDefinition = { description: 1, prompt: "p" };
"""
_MISUSE_LINES = {"allowedTools": 2, "tools preset": 3, "typed": 4}


@behaviour(
    id="agents.ts-compiler-catches-misuse",
    claim=(
        "With strict on, tsc rejects allowedTools on an AgentDefinition (TS2561, suggesting disallowedTools, "
        "the opposite intent) and the tools preset object on AgentDefinition.tools (TS2353). The Python "
        "analogues: building an AgentDefinition with allowedTools fails, and its declared type for tools "
        "admits no preset object, so a type checker flags it."
    ),
    summary="Type checks reject allowedTools and the tools preset on an AgentDefinition",
    source=("003", "What TypeScript catches"),
    tier="wire",
    checks=(
        "tsc-rejects-allowed-tools",
        "tsc-rejects-preset-on-agent-tools",
        "python-rejects-allowed-tools",
        "python-types-reject-preset-on-agent-tools",
    ),
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
    # the Python analogues stand in for the compiler's verdict; they never decide the claim
    controls=("python-rejects-allowed-tools", "python-types-reject-preset-on-agent-tools"),
)
async def ts_compiler_catches_misuse(h: Harness) -> dict[str, Any]:
    # On a TypeScript SDK the compiler itself is asked (h.type_check); on the Python SDK no
    # compiler runs, so the tsc sub-checks stay not-applicable and only the Python analogues
    # are observed, as controls: the verdict is not-applicable unless one of them differs.
    said = await h.type_check(_MISUSE)
    if said is not None:
        stray = [d for d in said if d["line"] not in _MISUSE_LINES.values()]
        if stray or not any(d["line"] == _MISUSE_LINES["typed"] for d in said):
            # the module did not check against the SDK's own AgentDefinition: no finding either way
            raise RuntimeError(f"tsc could not check the module against the SDK's types: {said}")
        return {"tsc --strict": {name: [d for d in said if d["line"] == at] for name, at in _MISUSE_LINES.items()}}
    from claude_agent_sdk import AgentDefinition

    seen: dict[str, Any] = {}
    try:
        AgentDefinition(description="d", prompt="p", allowedTools=["Bash"])  # type: ignore[call-arg]
        seen["AgentDefinition(allowedTools=...)"] = {"raised": None}
    except TypeError as exc:
        # Whether the error points at disallowedTools, as TS2561's "did you mean" does.
        seen["AgentDefinition(allowedTools=...)"] = {"raised": "TypeError", "suggests": "disallowedTools" in str(exc)}
    declared = {f.name: f.type for f in dataclasses.fields(AgentDefinition)}.get("tools")
    seen["AgentDefinition.tools declared as"] = declared if isinstance(declared, str) else repr(declared)
    try:
        AgentDefinition(description="d", prompt="p", tools=PRESET)  # type: ignore[arg-type]
        seen["AgentDefinition(tools=<preset>) at runtime"] = "accepted"
    except TypeError:
        seen["AgentDefinition(tools=<preset>) at runtime"] = "TypeError"
    return seen


@ts_compiler_catches_misuse.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    if "tsc --strict" in seen:
        said = seen["tsc --strict"]
        analogue = undecidable("the Python analogue; the TypeScript SDK is under test and its compiler was asked")
        allowed, preset = said["allowedTools"], said["tools preset"]
        return {
            "tsc-rejects-allowed-tools": check(
                any(d["code"] == "TS2561" and "disallowedTools" in d["message"] for d in allowed),
                f"tsc --strict said of allowedTools on an AgentDefinition: {allowed or 'nothing'}",
            ),
            "tsc-rejects-preset-on-agent-tools": check(
                any(d["code"] == "TS2353" for d in preset),
                f"tsc --strict said of the tools preset on an AgentDefinition: {preset or 'nothing'}",
            ),
            "python-rejects-allowed-tools": analogue,
            "python-types-reject-preset-on-agent-tools": analogue,
        }
    allowed, declared = seen["AgentDefinition(allowedTools=...)"], seen["AgentDefinition.tools declared as"]
    no_tsc = undecidable("a TypeScript compiler check; nothing runs tsc against the Python SDK")
    admits_preset = any(word in declared for word in ("dict", "Dict", "Mapping", "Preset", "Any", "object"))
    return {
        "tsc-rejects-allowed-tools": no_tsc,
        "tsc-rejects-preset-on-agent-tools": no_tsc,
        "python-rejects-allowed-tools": check(
            allowed["raised"] == "TypeError", "AgentDefinition(allowedTools=['Bash']) was accepted"
        ),
        "python-types-reject-preset-on-agent-tools": check(
            not admits_preset, f"AgentDefinition.tools is declared {declared!r}, which admits the preset object"
        ),
    }


ts_compiler_catches_misuse.differs_on(
    {
        "AgentDefinition(allowedTools=...)": {"raised": None},
        "AgentDefinition.tools declared as": "list[str] | ToolsPreset | None",
        "AgentDefinition(tools=<preset>) at runtime": "accepted",
    }
)
# the compiler's own verdict: allowedTools accepted, the preset refused under another code
ts_compiler_catches_misuse.differs_on(
    {
        "tsc --strict": {
            "allowedTools": [],
            "tools preset": [{"line": 3, "column": 82, "code": "TS2322", "message": "Type '{...}' is not assignable"}],
            "typed": [{"line": 4, "column": 42, "code": "TS2322", "message": "Type 'number' is not assignable"}],
        }
    }
)


# --- CATALOGUE-3: what users reported about subagents ---------------------------------


_WATCHED = ("Read", "Bash", *AGENT_TOOL)
_RO_PROMPT, _NOB_PROMPT = "Read-only task 4417.", "No-Bash task 4418."
_RO_BASH_ID = "toolu_double_robash"


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
async def definition_tool_limits_in_subagent_request(h: Harness) -> dict[str, Any]:
    mark = h.cwd / "ro-bash-ran"
    bash = tool_use("Bash", {"command": f"touch {mark}", "description": "mark"}, _RO_BASH_ID)
    run = await h.session(
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
    seen: dict[str, Any] = {}
    for name, prompt in (("ro", _RO_PROMPT), ("nob", _NOB_PROMPT)):
        first = run.first(SUBAGENT, carrying=prompt)
        seen[name] = None if first is None else sorted(t for t in first.offered_tools if t in _WATCHED)
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
    pins={
        "session-model-inherited": ("agent:model", "option:model"),
        "definition-model-used": ("agent:model", "option:model"),
        "definition-model-beats-env": ("agent:model", "option:model"),
        "call-model-beats-env": ("agent:model", "option:model"),
    },
)
async def subagent_model_resolution(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for env_case, env in _ENVS.items():
        prompts = {case: f"Model task {i} ({case})." for i, case in enumerate(_SPAWNS)}
        run = await h.session(
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
# ... or every subagent on the session's model, the env and the definition ignored (py#123)
subagent_model_resolution.differs_on(
    {env_case: {"main": "session", **dict.fromkeys(_SPAWNS, "session")} for env_case in _ENVS}
)


_LIMIT = 2
_LIM_PROMPT = "Keep echoing, task 4419."


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
async def definition_max_turns_enforced(h: Harness) -> dict[str, Any]:
    scripted = 8  # tool calls the subagent's model would go on making
    echoes = [reply(tool_use("Bash", {"command": f"echo turn {n}", "description": "echo"})) for n in range(scripted)]
    run = await h.session(
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
