"""Starting a subagent through the Agent tool: its input, background or not, which agents may be
spawned, and the caps on nesting and concurrency."""

from __future__ import annotations

from typing import Any, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.agents.support import (
    agent_call,
    agent_result,
    first_line,
    is_task_message,
    sent_agents,
    spawn,
)
from sdkprobe.harness import (
    AGENT_TOOL,
    MAIN,
    SUBAGENT,
    CliRun,
    Conversation,
    Harness,
    Script,
    reply,
    result_text,
)
from sdkprobe.harness import tool_use_offered as offered


class GeneralSeen(TypedDict):
    agent_tool_result: str | None  # the agent tool's error, if it gave one
    subagent_requests: int
    session_offers: list[str]  # the main conversation's first offer
    subagent_offered: list[str] | None  # None: no subagent request


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
async def general_purpose_always_spawnable(h: Harness) -> GeneralSeen:
    run = await h.cli(
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
def _(seen: GeneralSeen) -> dict[str, Check]:
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


class InputShapeSeen(TypedDict):
    api_name: str | None  # the agent tool's name as offered (Agent or Task); None: not offered
    properties: list[str]
    required: list[str]


@behaviour(
    id="agents.agent-tool-input-shape",
    claim="The agent tool (Agent, formerly Task) takes description, prompt and subagent_type as its input.",
    summary="The agent tool's input is description, prompt and subagent_type",
    source=("000", "Subagents"),
    tier="cli",
    checks=("has-description-prompt-subagent-type",),
    requires=("option:tools",),
)
async def agent_tool_input_shape(h: Harness) -> InputShapeSeen:
    run = await h.cli("hi", script=["ok"], tools=["Task"])
    first = run.first(MAIN)
    name = next((n for n in AGENT_TOOL if first and n in first.tool_names), None)
    schema = (first.tool_schema(name) if first and name else None) or {}
    return {
        "api_name": name,
        "properties": sorted(schema.get("properties") or {}),
        "required": sorted(schema.get("required") or []),
    }


@agent_tool_input_shape.decide
def _(seen: InputShapeSeen) -> dict[str, Check]:
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


class Launch(TypedDict):
    tool_result_has_report: bool
    tool_result_error: bool
    tool_result_starts: str | None  # None: the agent call got no tool_result
    report_reached_host_in: list[str]  # _kind of each message that carried the report


class LaunchRun(Launch):
    parent_turn_ended_before_the_report: bool


def _launch(run: CliRun) -> Launch:
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


BackgroundSeen = TypedDict(
    "BackgroundSeen",
    {
        "background=False sent as": Any,  # the definition's background as sent, or "absent"
        "default": LaunchRun,
        "background=False": LaunchRun,
        "hook sets run_in_background=False": LaunchRun,
        "default, query() read to its end": Launch,
    },
)


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
async def background_by_default(h: Harness) -> BackgroundSeen:
    from sdkprobe.harness import HookMatcher

    seen: dict[str, Any] = {}
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

    run = await h.cli(
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
    return cast("BackgroundSeen", seen)  # built step by step, three of its keys from variants at run time


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
def _(seen: BackgroundSeen) -> dict[str, Check]:
    default, defined, hooked = seen["default"], seen["background=False"], seen["hook sets run_in_background=False"]

    def mode(v: Launch) -> str:
        if v["tool_result_error"]:
            return f"an error ({v['tool_result_starts']!r})"
        return "foreground (the report in the tool_result)" if v["tool_result_has_report"] else "background"

    leaked = {
        host: [k for k in launch["report_reached_host_in"] if k != "task message"]
        for host, launch in (
            ("a client stopping at its first result", seen["default"]),
            ("query() read to its end", seen["default, query() read to its end"]),
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


_FOREGROUND: Launch = {
    "tool_result_has_report": True,
    "tool_result_error": False,
    "tool_result_starts": MARKER,
    "report_reached_host_in": ["UserMessage with the tool_result"],
}
_BACKGROUND: Launch = {
    "tool_result_has_report": False,
    "tool_result_error": False,
    "tool_result_starts": "Async agent launched successfully.",
    "report_reached_host_in": [],
}
_BACKGROUND_RUN: LaunchRun = {**_BACKGROUND, "parent_turn_ended_before_the_report": True}
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

# --- agents.nesting-and-concurrency-caps -------------------------------------------------

_CONCURRENT = "CLAUDE_CODE_MAX_CONCURRENT_SUBAGENTS"
_DEPTH = "CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH"
_WORKERS = [f"WORKER-TASK-{i}" for i in range(1, 5)]  # the four background spawns' prompts
_WORKER_IDS = [f"toolu_double_worker{i}" for i in range(1, 5)]
_RUNNER, _LEAF = "RUNNER-TASK", "LEAF-TASK"  # the spawned subagent's prompt, and the one it spawns
_REFUSAL = ("limit", "maximum", "concurren", "too many", "cannot", "not allowed", "refused", "denied")


def _said(text: str, limit: int = 120) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit] + "..."


def _started(run: CliRun, prompts: list[str]) -> list[str]:
    """Which of the subagent prompts opened a subagent's conversation (a request whose user text is it)."""
    return [p for p in prompts if run.first(SUBAGENT, carrying=p) is not None]


ConcurrencySeen = TypedDict(
    "ConcurrencySeen",
    {
        "started": list[str],  # the worker prompts that opened a subagent's conversation
        "refused": list[str],  # the worker prompts whose tool_result says refused
        "refused texts": list[str],
        "results came back": list[str],  # the worker prompts whose call got a tool_result
        "error": str | None,
    },
)
NestRun = TypedDict(
    "NestRun",
    {
        "subagent ran": bool,
        "subagent offered the agent tool": bool,
        "nested subagent ran": bool,
        "error": str | None,
    },
)


async def _concurrency(h: Harness) -> ConcurrencySeen:
    """Four background spawns in one message, with a cap of two, decided by order: each
    subagent that starts is held at its first model answer (it stays running), so none
    ends and frees a place. Once the main conversation's turn has its four tool_results
    (or its result), the probe waits for as many held subagents as spawns the CLI did not
    refuse; then every subagent that started did so while the others were still running.
    The ceiling on that wait is one only a launched subagent that never starts reaches."""
    calls = [
        offered(
            AGENT_TOOL, {"description": "work", "prompt": p, "subagent_type": "worker", "run_in_background": True}, i
        )
        for p, i in zip(_WORKERS, _WORKER_IDS, strict=True)
    ]

    async def spawn_four(c: Conversation) -> None:
        await c.send("start four workers")
        answered: dict[str, dict[str, Any]] = {}

        def spawns_answered(m: Any) -> bool:
            content = getattr(m, "content", None)
            for block in content if isinstance(content, list) else []:
                if getattr(block, "tool_use_id", None) in _WORKER_IDS:
                    answered[block.tool_use_id] = {
                        "is_error": bool(getattr(block, "is_error", False)),
                        "text": result_text({"content": getattr(block, "content", None)}),
                    }
            return len(answered) == len(_WORKER_IDS) or type(m).__name__ == "ResultMessage"

        await c.until(spawns_answered)
        launched = sum(1 for r in answered.values() if not _refusal(r))
        if launched:
            try:
                await c.held(launched, timeout=_START_CEILING)
            except RuntimeError:  # a launched subagent never started: the run's record says which
                c.mark("ceiling")

    run = await h.converse(
        spawn_four,
        script=Script(main=[reply(*calls), "main done"], subagent=[reply("worker done", hold_after=1)] * 4),
        agents={"worker": _definition("works for a while")},
        env={_CONCURRENT: "2"},
        timeout=90,
    )
    results: dict[str, Any] = {}
    for p, i in zip(_WORKERS, _WORKER_IDS, strict=True):
        block = next((r.tool_result(i) for r in run.on(MAIN) if r.tool_result(i)), None)
        results[p] = None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)}
    refused = {p: r for p, r in results.items() if r is not None and _refusal(r)}
    return {
        "started": _started(run, _WORKERS),
        "refused": sorted(refused),
        "refused texts": sorted({_said(r["text"]) for r in refused.values()}),
        "results came back": sorted(p for p, r in results.items() if r is not None),
        "error": run.error_line,
    }


_START_CEILING = 60.0  # seconds: reached only by a subagent the CLI launched that never starts


def _refusal(result: dict[str, Any]) -> bool:
    low = str(result["text"]).lower()
    return bool(result["is_error"]) or any(w in low for w in _REFUSAL)


async def _nesting(h: Harness, depth: str) -> NestRun:
    """A subagent whose script spawns another, under a depth cap of `depth`."""
    run = await h.cli(
        "delegate",
        script=Script(
            main=[reply(spawn("runner", _RUNNER)), "main done"],
            subagent=[reply(spawn("runner", _LEAF)), "leaf done", "runner done"],
        ),
        agents={"runner": _definition("delegates further")},
        env={_DEPTH: depth},
        timeout=90,
    )
    first = run.first(SUBAGENT, carrying=_RUNNER)
    return {
        "subagent ran": first is not None,
        "subagent offered the agent tool": first is not None and any(t in first.offered_tools for t in AGENT_TOOL),
        "nested subagent ran": run.first(SUBAGENT, carrying=_LEAF) is not None,
        "error": run.error_line,
    }


def _definition(description: str) -> Any:
    from sdkprobe.harness import AgentDefinition

    return AgentDefinition(description=description, prompt="Do what you are asked.")


CapsSeen = TypedDict("CapsSeen", {"concurrency 2": ConcurrencySeen, "depth 1": NestRun, "depth 2": NestRun})


@behaviour(
    id="agents.nesting-and-concurrency-caps",
    claim=(
        "The CLI caps subagents and the variables in env set the caps: with CLAUDE_CODE_MAX_CONCURRENT_SUBAGENTS=2 "
        "at most two of four background subagents run at once and each refused spawn's tool_result tells the "
        "model so; with CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH=1 a subagent cannot spawn one (no agent tool, no "
        "nested run), with 2 it can."
    ),
    summary="Concurrency and spawn-depth caps follow env; a refused spawn tells the model",
    source=("cc#84974", "report"),
    tier="cli",
    checks=("concurrency-cap-holds", "refused-spawn-told", "depth-one-no-nesting", "depth-two-nests"),
    requires=("option:agents", "option:env", "api:AgentDefinition"),
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
    timeout=240,
)
async def nesting_and_concurrency_caps(h: Harness) -> CapsSeen:
    return {
        "concurrency 2": await _concurrency(h),
        "depth 1": await _nesting(h, "1"),
        "depth 2": await _nesting(h, "2"),
    }


@nesting_and_concurrency_caps.decide
def _(seen: CapsSeen) -> dict[str, Check]:
    c, one, two = seen["concurrency 2"], seen["depth 1"], seen["depth 2"]
    unstarted = [p for p in c["results came back"] if p not in c["started"]]

    def nested(s: NestRun) -> str:
        return (
            f"the subagent ran: {s['subagent ran']}, was offered the agent tool: "
            f"{s['subagent offered the agent tool']}, "
            f"its nested subagent ran: {s['nested subagent ran']} (error {s['error']})"
        )

    return {
        "concurrency-cap-holds": check(
            0 < len(c["started"]) <= 2,
            f"with {_CONCURRENT}=2, {len(c['started'])} of 4 background subagents started: {c['started']} "
            f"(error {c['error']})",
        ),
        "refused-spawn-told": (
            undecidable(f"all {len(c['started'])} spawns started: none was refused to tell the model of")
            if len(c["started"]) == len(_WORKERS)
            else check(
                bool(unstarted) and all(p in c["refused"] for p in unstarted),
                f"spawns that started no subagent: {unstarted}; those whose tool_result says refused: "
                f"{c['refused']} ({c['refused texts']})",
            )
        ),
        "depth-one-no-nesting": check(
            one["subagent ran"] and not one["subagent offered the agent tool"] and not one["nested subagent ran"],
            f"with {_DEPTH}=1: {nested(one)}",
        ),
        "depth-two-nests": check(two["subagent ran"] and two["nested subagent ran"], f"with {_DEPTH}=2: {nested(two)}"),
    }


def _nest(offered_tool: bool, nested: bool) -> NestRun:
    return {
        "subagent ran": True,
        "subagent offered the agent tool": offered_tool,
        "nested subagent ran": nested,
        "error": None,
    }


nesting_and_concurrency_caps.differs_on(
    {
        "concurrency 2": {
            "started": _WORKERS,  # all four ran at once
            "refused": [],
            "refused texts": [],
            "results came back": _WORKERS,
            "error": None,
        },
        "depth 1": _nest(True, True),  # 1 still allows one nested level (cc#84974)
        "depth 2": _nest(False, False),
    }
)
nesting_and_concurrency_caps.differs_on(
    {
        "concurrency 2": {  # two started, two silently never ran
            "started": _WORKERS[:2],
            "refused": [],
            "refused texts": [],
            "results came back": _WORKERS,
            "error": None,
        },
        "depth 1": _nest(False, False),
        "depth 2": _nest(True, True),
    }
)
