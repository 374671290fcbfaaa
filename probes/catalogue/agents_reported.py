"""Area `agents`, reported: the CLI's caps on subagents running at once and on subagents spawning subagents."""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.agents_support import AGENT_TOOL, spawn
from sdkprobe.harness import MAIN, SUBAGENT, CliRun, Harness, Script, reply, result_text, tool_use
from sdkprobe.harness import tool_use_offered as offered

# --- agents.nesting-and-concurrency-caps -------------------------------------------------

_CONCURRENT = "CLAUDE_CODE_MAX_CONCURRENT_SUBAGENTS"
_DEPTH = "CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH"
_WORKERS = [f"WORKER-TASK-{i}" for i in range(1, 5)]  # the four background spawns' prompts
_WORKER_IDS = [f"toolu_double_worker{i}" for i in range(1, 5)]
_RUNNER, _LEAF = "RUNNER-TASK", "LEAF-TASK"  # the spawned subagent's prompt, and the one it spawns
_REFUSAL = ("limit", "maximum", "concurren", "too many", "cannot", "not allowed", "refused", "denied")


def _sleep(seconds: int) -> dict[str, Any]:
    return tool_use("Bash", {"command": f"sleep {seconds}", "description": "wait"})


def _said(text: str, limit: int = 120) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit] + "..."


def _started(run: CliRun, prompts: list[str]) -> list[str]:
    """Which of the subagent prompts opened a subagent's conversation (a request whose user text is it)."""
    return [p for p in prompts if run.first(SUBAGENT, carrying=p) is not None]


async def _concurrency(h: Harness) -> dict[str, Any]:
    """Four background spawns in one message, each subagent sleeping, with a cap of two."""
    calls = [
        offered(
            AGENT_TOOL, {"description": "work", "prompt": p, "subagent_type": "worker", "run_in_background": True}, i
        )
        for p, i in zip(_WORKERS, _WORKER_IDS, strict=True)
    ]
    run = await h.session(
        "start four workers",
        # the main conversation waits a while, so that the workers that started ask the model
        script=Script(main=[reply(*calls), reply(_sleep(8)), "main done"], subagent=[reply(_sleep(3))] * 4),
        agents={"worker": _definition("works for a while")},
        allowed_tools=["Bash"],
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


def _refusal(result: dict[str, Any]) -> bool:
    low = str(result["text"]).lower()
    return bool(result["is_error"]) or any(w in low for w in _REFUSAL)


async def _nesting(h: Harness, depth: str) -> dict[str, Any]:
    """A subagent whose script spawns another, under a depth cap of `depth`."""
    run = await h.session(
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
    import claude_agent_sdk as sdk

    return sdk.AgentDefinition(description=description, prompt="Do what you are asked.")


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
    requires=("option:agents", "option:env", "option:allowed_tools", "api:AgentDefinition"),
    sdk_ref="claude_agent_sdk.types.AgentDefinition",
    timeout=240,
)
async def nesting_and_concurrency_caps(h: Harness) -> dict[str, Any]:
    return {
        "concurrency 2": await _concurrency(h),
        "depth 1": await _nesting(h, "1"),
        "depth 2": await _nesting(h, "2"),
    }


@nesting_and_concurrency_caps.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    c, one, two = seen["concurrency 2"], seen["depth 1"], seen["depth 2"]
    unstarted = [p for p in c["results came back"] if p not in c["started"]]

    def nested(s: dict[str, Any]) -> str:
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


def _nest(offered_tool: bool, nested: bool) -> dict[str, Any]:
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
