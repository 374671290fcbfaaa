"""What several of the agents behaviours share; declares no behaviour."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, TypedDict

from sdkprobe.harness import (
    AGENT_TOOL,
    MAIN,
    SUBAGENT,
    CliRun,
    Harness,
    Script,
    WireRun,
    allow_every_tool,
    reply,
    tool_use,
)
from sdkprobe.harness import tool_use_offered as offered

AGENT_CALL_ID = "toolu_double_agentcall"
SUB_BASH_ID = "toolu_double_subbash"
PRESET = {"type": "preset", "preset": "claude_code"}


def agent_call(subagent_type: str, prompt: str = "Carry out the delegated task") -> dict[str, Any]:
    """The model's agent call (id AGENT_CALL_ID), launched as the CLI launches it by default."""
    return offered(
        AGENT_TOOL, {"description": "delegate", "prompt": prompt, "subagent_type": subagent_type}, AGENT_CALL_ID
    )


def spawn(subagent_type: str, prompt: str, id: str | None = None, **extra: Any) -> dict[str, Any]:
    """An agent call that waits for its subagent (run_in_background is in the agent tool's
    schema on every CLI probed, 2.1.1 on), so several calls run one after another."""
    call = {"description": "delegate", "prompt": prompt, "subagent_type": subagent_type, "run_in_background": False}
    return offered(AGENT_TOOL, {**call, **extra}, id)


def agent_result(run: CliRun) -> dict[str, Any] | None:
    """The tool_result the CLI gave the main conversation for the scripted agent call."""
    for r in run.on(MAIN):
        block = r.tool_result(AGENT_CALL_ID)
        if block is not None:
            return block
    return None


def first_line(s: str, limit: int = 90) -> str:
    line = s.strip().splitlines()[0] if s.strip() else ""
    return line if len(line) <= limit else line[:limit] + "..."


def first_sentence(s: str) -> str:
    """Up to the first full stop: an error without the list of names that follows it."""
    line = first_line(s, 200)
    return line.split(". ", 1)[0].rstrip(".") + "." if line else ""


def is_task_message(m: Any) -> bool:
    return type(m).__name__.startswith("Task") or str(getattr(m, "subtype", "")).startswith("task_")


def task_texts(run: CliRun) -> list[tuple[str, str]]:
    """(subtype, text) of the task messages: a notification's summary, an update's error."""
    out = []
    for m in run.messages:
        data = getattr(m, "data", None)
        if not is_task_message(m) or not isinstance(data, dict):
            continue
        patch = data.get("patch")
        patch = patch if isinstance(patch, dict) else {}
        for text in (data.get("summary"), data.get("error"), patch.get("error")):
            if isinstance(text, str) and text:
                out.append((str(data.get("subtype")), text))
    return out


def streamed(prompt: str) -> list[dict[str, Any]]:
    """A prompt as streaming input, which can_use_tool needs on older SDKs."""
    return [{"type": "user", "message": {"role": "user", "content": prompt}, "parent_tool_use_id": None}]


class BashRunAlways(TypedDict):
    runner_listed: bool  # the runner named among init's agents
    error: str | None
    subagent_requests: int
    can_use_tool_asked: list[str]  # the tools can_use_tool was asked about
    bash_ran: bool


class BashRun(BashRunAlways, total=False):
    bash_result_came_back_on: list[str]  # routes; written only with origin=True


async def subagent_runs_bash(h: Harness, agent: Any, mark: str, *, origin: bool = False, **options: Any) -> BashRun:
    """Spawn `agent` (as type `runner`), have it call Bash to create `mark` in the cwd, and
    say whether can_use_tool (recording, allowing) was asked and whether the command ran;
    with `origin`, also on which routes the double saw the Bash call's tool_result come
    back (the subagent's own conversation, when the call was the subagent's)."""
    bash = tool_use("Bash", {"command": f"echo ran > {mark}", "description": "mark"}, SUB_BASH_ID)
    run = await h.cli(
        streamed("delegate"),
        script=Script(main=[reply(agent_call("runner")), "main done"], subagent=[reply(bash), "runner done"]),
        tools=["Bash", "Task"],
        can_use_tool=allow_every_tool,
        agents={"runner": agent},
        **options,
    )
    seen: BashRun = {
        "runner_listed": "runner" in (run.init.get("agents") or []),
        "error": run.error,
        "subagent_requests": len(run.on(SUBAGENT)),
        "can_use_tool_asked": sorted({str(c["tool"]) for c in run.callbacks if c["kind"] == "can_use_tool"}),
        "bash_ran": (h.cwd / mark).exists(),
    }
    if origin:
        seen["bash_result_came_back_on"] = sorted({str(r.route) for r in run.requests if r.tool_result(SUB_BASH_ID)})
    return seen


def bash_run(asked: list[str], ran: bool, routes: tuple[str, ...] = (SUBAGENT,)) -> BashRun:
    """What `subagent_runs_bash(..., origin=True)` observes of a listed runner that got its
    two requests, for a counterexample: whom can_use_tool was asked about, whether Bash ran,
    on which routes its tool_result came back."""
    return {
        "runner_listed": True,
        "error": None,
        "subagent_requests": 2,
        "can_use_tool_asked": asked,
        "bash_ran": ran,
        "bash_result_came_back_on": list(routes),
    }


def subclassed(cls: Any, key: str, value: Any) -> Any:
    """An instance of a dataclass subclass of `cls` with one more field, `key` (set to
    `value`): the one way an extra field gets past the SDK's AgentDefinition."""
    sub = dataclasses.make_dataclass("Extended", [(key, Any, dataclasses.field(default=None))], bases=(cls,))
    return sub(description="d", prompt="p", **{key: value})


def sent_agents(run: WireRun) -> dict[str, Any] | None:
    """The agent definitions as the CLI received them: in initialize, or (older SDKs) as
    the JSON value of --agents."""
    agents = (run.initialize or {}).get("agents")
    if isinstance(agents, dict):
        return agents
    flag = run.flag("--agents")
    if flag:
        try:
            parsed = json.loads(flag)
        except ValueError:
            return None
        return parsed if isinstance(parsed, dict) else None
    return None
