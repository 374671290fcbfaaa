"""Area `hooks`, topic timing: callbacks that are still pending when the CLI moves on (their
HookMatcher.timeout passed, the turn was interrupted), and PreCompact on a compaction
(CATALOGUE-4 Part B1).

A pending callback is a HeldCallback: it answers only when the probe lets it go, at a later
step of the session, so what the CLI did meanwhile (ran the tool, sent the prompt, ended the
turn, cancelled the request) is read by order; its ceiling is reached only by a hang.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    COMPACT,
    MAIN,
    Harness,
    HeldCallback,
    Scenario,
    Script,
    reply,
    tool_use,
    tool_use_offered,
)


def _bash(command: str, tool_use_id: str) -> dict[str, Any]:
    return tool_use("Bash", {"command": command, "description": "probe"}, tool_use_id)


_AGENT_TOOL = ("Agent", "Task")  # the agent tool's name in the API: Task up to CLI 2.1.37, Agent by 2.1.97


def _is_result(message: Any) -> bool:
    return type(message).__name__ == "ResultMessage"


# --- hooks.callback-timeout-semantics --------------------------------------------------------

_TIMEOUT = 2  # HookMatcher.timeout, in seconds: the CLI's to keep; the probe waits by order
_CEILING = 25.0  # how long a turn may wait on a held callback before the probe lets it go (a hang)
_PROMPT_HELD = "third prompt HELD-PROMPT"
_PROMPT_AFTER = "fourth prompt AFTER-PROMPT"


async def _turn_while_held(c: Any, prompt: str, held: HeldCallback) -> dict[str, Any]:
    """Send `prompt`, read its turn to the result while `held` keeps its call pending; if no
    result comes by the ceiling, let the callback go (the CLI waited for it) and read on.
    What the callback's state was when the turn ended."""
    await c.send(prompt)
    reading = asyncio.ensure_future(c.response())
    done, _ = await asyncio.wait({reading}, timeout=_CEILING)
    released_for_result = not done
    if released_for_result:
        held.release()
    messages = await reading
    pending_at_result = held.pending
    c.mark(f"result of {prompt!r}")
    held.release()
    result = next((m for m in reversed(messages) if _is_result(m)), None)
    return {
        "asked": len(held.calls),
        "pending at result": pending_at_result,
        "released for the result": released_for_result,
        "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
    }


@behaviour(
    id="hooks.callback-timeout-semantics",
    claim=(
        "A hook callback still pending when its HookMatcher.timeout passes fails safe: a timed-out PreToolUse "
        "does not let the tool run as if approved, a timed-out UserPromptSubmit blocks only its own prompt and the "
        "session takes the next one, and an interrupt while a PreToolUse callback is pending keeps the tool from "
        "running; the SDK cancels a callback whose request the CLI cancels and answers nothing."
    ),
    summary="A timed-out or interrupted pending hook never lets the tool run; session goes on",
    source=("cc#77634", "report"),
    tier="cli",
    checks=(
        "cancel-request-cancels-callback",
        "timed-out-pretooluse-tool-not-run",
        "timed-out-prompt-hook-blocks-only-its-prompt",
        "session-takes-next-prompt",
        "interrupt-during-pretooluse-tool-not-run",
    ),
    requires=("option:hooks", "api:HookMatcher", "api:ClaudeSDKClient.interrupt"),
    pins={
        "cancel-request-cancels-callback": ("hook-matcher:timeout",),
        "timed-out-pretooluse-tool-not-run": ("hook-matcher:timeout",),
        "timed-out-prompt-hook-blocks-only-its-prompt": ("hook-matcher:timeout",),
        "session-takes-next-prompt": ("hook-matcher:timeout",),
        "interrupt-during-pretooluse-tool-not-run": ("hook-matcher:timeout", "client:interrupt"),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
    security="a hook that timed out or was interrupted would let a command it was there to vet run unvetted",
    timeout=180,
)
async def callback_timeout_semantics(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    with_timeout = "timeout" in getattr(HookMatcher, "__dataclass_fields__", {})
    seen: dict[str, Any] = {"wire": await _cancelled_on_the_wire(h, with_timeout)}
    if not with_timeout:
        seen["cli"] = {"absent": "this SDK's HookMatcher has no timeout"}
        return seen
    timed_out_tool, interrupted_tool, prompt_hook = HeldCallback(hold=1), HeldCallback(hold=1), HeldCallback(hold=1)

    turns: dict[str, Any] = {}

    async def steps(c: Any) -> None:
        turns["timed-out PreToolUse"] = await _turn_while_held(c, "first prompt", timed_out_tool)
        await c.send("second prompt")
        asked = await interrupted_tool.asked(1, timeout=_CEILING)
        if asked:
            await c.interrupt()
        messages = await c.response()
        result = next((m for m in reversed(messages) if _is_result(m)), None)
        turns["interrupted PreToolUse"] = {
            "asked": asked,
            "pending at result": interrupted_tool.pending,
            "result": None if result is None else {"subtype": result.subtype, "is_error": result.is_error},
        }
        interrupted_tool.release()
        turns["timed-out UserPromptSubmit"] = await _turn_while_held(c, _PROMPT_HELD, prompt_hook)
        await c.send(_PROMPT_AFTER)
        messages = await c.response()
        result = next((m for m in reversed(messages) if _is_result(m)), None)
        turns["next prompt"] = {"result": None if result is None else result.subtype}

    run = await h.converse(
        steps,
        script=Script(
            main=[
                reply(_bash("touch m-timeout.txt", "toolu_to_1")),
                "after the timed-out hook",
                reply(_bash("touch m-interrupt.txt", "toolu_to_2")),
            ],
            fallback=reply("ok"),
        ),
        timeout=150,
        allowed_tools=["Bash"],
        hooks={
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[_dispatch(timed_out_tool.hook({}), "m-timeout")], timeout=_TIMEOUT),
                HookMatcher(matcher="Bash", hooks=[_dispatch(interrupted_tool.hook({}), "m-interrupt")]),
            ],
            "UserPromptSubmit": [HookMatcher(hooks=[_dispatch(prompt_hook.hook({}), "HELD-PROMPT")], timeout=_TIMEOUT)],
        },
    )
    main = run.on(MAIN)
    seen["cli"] = {
        "turns": turns,
        "events": {
            "timed-out PreToolUse": timed_out_tool.events,
            "interrupted PreToolUse": interrupted_tool.events,
            "timed-out UserPromptSubmit": prompt_hook.events,
        },
        "files": {name: (h.cwd / name).exists() for name in ("m-timeout.txt", "m-interrupt.txt")},
        "held prompt reached the model": any(r.carries("HELD-PROMPT") for r in main),
        "next prompt reached the model": any(r.carries("AFTER-PROMPT") for r in main),
        "error": run.error_line,
    }
    return seen


def _dispatch(held_hook: Any, mark: str) -> Any:
    """A hook that hands the calls whose input mentions `mark` to `held_hook` and answers {} to any other."""

    async def hook(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        return await held_hook(hook_input, tool_use_id, context) if mark in str(hook_input) else {}

    return hook


_CALLBACK_HELD = "the callback is held"


async def _cancelled_on_the_wire(h: Harness, with_timeout: bool) -> dict[str, Any]:
    """The fake CLI asks a PreToolUse callback, then cancels the request while it is held:
    it waits for the host's word that the callback was called (a user line), so the cancel
    never comes before the callback however slow the machine."""
    from claude_agent_sdk import HookMatcher

    held = HeldCallback(ceiling=30)
    request = {
        "subtype": "hook_callback",
        "callback_id": "hook_0",
        "input": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "touch m"}},
        "tool_use_id": "toolu_wire_1",
    }
    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .emit({"type": "control_request", "request_id": "hook_req_1", "request": request})
        .wait_for(type="user", message={"content": _CALLBACK_HELD})
        .emit({"type": "control_cancel_request", "request_id": "hook_req_1"})
        .sleep(0.5)
        .result()
    )

    at_result: list[str] = []

    async def read_turn(client: Any, out: Any) -> None:
        await client.query("go")
        if not await held.asked(timeout=10):
            return  # never called: nothing to cancel (the events say so)
        await client.query(_CALLBACK_HELD)  # the fake's cue to cancel
        async for message in client.receive_response():
            out.messages.append(message)
            if _is_result(message):  # the fake sent it after the cancel: before the SDK closes (and cancels all)
                at_result.extend(held.events)

    extra: dict[str, Any] = {"timeout": _TIMEOUT} if with_timeout else {}
    wire = await h.wire(
        None,
        scenario=scenario,
        client=True,
        drive=read_turn,
        timeout=20,
        hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[held.hook({})], **extra)]},
    )
    matchers = ((wire.initialize or {}).get("hooks") or {}).get("PreToolUse") or [{}]
    answer = wire.answers.get("hook_req_1")
    return {
        "timeout sent": matchers[0].get("timeout"),
        "events at result": at_result,
        "answer": None if answer is None else answer.get("subtype"),
        "error": wire.error_line,
    }


@callback_timeout_semantics.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    wire = seen["wire"]
    checks = {
        "cancel-request-cancels-callback": check(
            wire["events at result"] == ["asked 1", "cancelled 1"] and wire["answer"] is None,
            f"held callback events when the result came {wire['events at result']}, "
            f"answer written to the cancelled request {wire['answer']!r} "
            f"(timeout sent in initialize: {wire['timeout sent']!r}; raised {wire['error']})",
        )
    }
    cli = seen["cli"]
    if "absent" in cli:
        for name in _CLI_CHECKS:
            checks[name] = undecidable(cli["absent"])
        return checks
    turns, events, files = cli["turns"], cli["events"], cli["files"]
    timed_out, prompt, interrupted = (
        turns["timed-out PreToolUse"],
        turns["timed-out UserPromptSubmit"],
        turns["interrupted PreToolUse"],
    )

    def said(name: str) -> str:
        turn = turns[name]
        return (
            f"{name}: callback events {events[name]}, still pending at the turn's result: "
            f"{turn['pending at result']}, turn result {turn['result']}, "
            f"released by the probe for the result: {turn.get('released for the result', False)}"
        )

    checks["timed-out-pretooluse-tool-not-run"] = check(
        timed_out["asked"] == 1 and not timed_out["released for the result"] and not files["m-timeout.txt"],
        f"{said('timed-out PreToolUse')}; m-timeout.txt made: {files['m-timeout.txt']}",
    )
    checks["timed-out-prompt-hook-blocks-only-its-prompt"] = check(
        prompt["asked"] == 1 and not prompt["released for the result"] and not cli["held prompt reached the model"],
        f"{said('timed-out UserPromptSubmit')}; the held prompt reached the model: "
        f"{cli['held prompt reached the model']}",
    )
    # No "next prompt" turn at all when the session ended at the prompt hook's timeout.
    following = (turns.get("next prompt") or {}).get("result")
    checks["session-takes-next-prompt"] = check(
        cli["next prompt reached the model"] and following == "success",
        f"the prompt after the timed-out prompt hook reached the model: {cli['next prompt reached the model']}, "
        f"its turn's result {following!r}; raised {cli['error']}",
    )
    checks["interrupt-during-pretooluse-tool-not-run"] = check(
        interrupted["asked"] and not files["m-interrupt.txt"],
        f"interrupted PreToolUse: asked {interrupted['asked']}, callback events {events['interrupted PreToolUse']}, "
        f"turn result {interrupted['result']}; m-interrupt.txt made: {files['m-interrupt.txt']}",
    )
    return checks


_CLI_CHECKS = (
    "timed-out-pretooluse-tool-not-run",
    "timed-out-prompt-hook-blocks-only-its-prompt",
    "session-takes-next-prompt",
    "interrupt-during-pretooluse-tool-not-run",
)


def _timeout_seen(
    *, wire_events: list[str], answer: str | None, ran: bool, prompt_sent: bool, next_ok: bool
) -> dict[str, Any]:
    result = {"subtype": "success", "is_error": False}
    return {
        "wire": {"timeout sent": 2, "events at result": wire_events, "answer": answer, "error": None},
        "cli": {
            "turns": {
                "timed-out PreToolUse": {
                    "asked": 1,
                    "pending at result": 1,
                    "released for the result": False,
                    "result": result,
                },
                "interrupted PreToolUse": {"asked": True, "pending at result": 0, "result": result},
                "timed-out UserPromptSubmit": {
                    "asked": 1,
                    "pending at result": 0,
                    "released for the result": False,
                    "result": {"subtype": "error_during_execution", "is_error": True},
                },
                "next prompt": {"result": "success" if next_ok else None},
            },
            "events": {
                "timed-out PreToolUse": ["asked 1", "released 1"],
                "interrupted PreToolUse": ["asked 1", "released 1"],
                "timed-out UserPromptSubmit": ["asked 1", "cancelled 1"],
            },
            "files": {"m-timeout.txt": ran, "m-interrupt.txt": ran},
            "held prompt reached the model": prompt_sent,
            "next prompt reached the model": next_ok,
            "error": None,
        },
    }


# The tool ran once its hook timed out or the turn was interrupted, the prompt went to the model
# anyway and the session took no next prompt; the SDK left the cancelled callback running.
callback_timeout_semantics.differs_on(
    _timeout_seen(wire_events=["asked 1"], answer=None, ran=True, prompt_sent=True, next_ok=False)
)
# Before CLI 2.1.208 (cc#77634): the timed-out prompt hook ended the run, the next prompt unanswered.
callback_timeout_semantics.differs_on(
    _timeout_seen(wire_events=["asked 1", "cancelled 1"], answer=None, ran=False, prompt_sent=False, next_ok=False)
)
# As CLI 2.1.181 does: the session ended at the prompt hook's timeout, so no next turn was run at all.
_ended_at_prompt_hook = _timeout_seen(
    wire_events=["asked 1", "cancelled 1"], answer=None, ran=False, prompt_sent=False, next_ok=False
)
del _ended_at_prompt_hook["cli"]["turns"]["next prompt"]
callback_timeout_semantics.differs_on(_ended_at_prompt_hook)


# --- hooks.precompact-manual-and-subagent ----------------------------------------------------

_INSTRUCTIONS = "keep MARK-PC"
_SUB_PROMPT = "SUB-PROMPT-PC: run two commands"
# A subagent's reply reporting this much context makes the CLI compact the subagent's
# conversation before its next request, under the window the probe's env sets: what the CLI
# counts is the usage the API reports, so the double reports it.
_FULL = {"input_tokens": 150000, "output_tokens": 5}
_SMALL_WINDOW = {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "20000", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}
_AGENT_FIELDS = ("agent_id", "agent_type")


def _input_fields(hook_input: Any) -> dict[str, Any]:
    """The PreCompact input without what differs per run (session ids, paths); an agent id is
    kept as whether one was given."""
    skip = {"session_id", "transcript_path", "cwd", "prompt_id"}
    fields = {k: v for k, v in sorted(dict(hook_input).items()) if k not in skip}
    if "agent_id" in fields:
        fields["agent_id"] = "<agent id>" if fields["agent_id"] else fields["agent_id"]
    return fields


@behaviour(
    id="hooks.precompact-manual-and-subagent",
    claim=(
        "A PreCompact callback is called for a manual /compact with trigger 'manual' and the instructions given "
        "after the command as custom_instructions; when a subagent's own conversation is compacted, the main "
        "session's PreCompact callback is either not called or can tell it from the main thread's (agent fields)."
    ),
    summary="PreCompact fires for /compact (manual, instructions); a subagent's compaction tellable",
    source=("cc#13572", "report"),
    tier="cli",
    checks=("manual-compact-fires-precompact", "custom-instructions-passed", "subagent-compaction-distinguishable"),
    requires=("option:hooks", "api:HookMatcher"),
    pins={
        "manual-compact-fires-precompact": ("hook-event:PreCompact",),
        "custom-instructions-passed": ("hook-event:PreCompact",),
        "subagent-compaction-distinguishable": ("hook-event:PreCompact",),
    },
    sdk_ref="claude_agent_sdk.types.PreCompactHookInput",
    timeout=150,
)
async def precompact_manual_and_subagent(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import HookMatcher

    calls: list[dict[str, Any]] = []
    compacted: dict[str, Any] = {}

    async def pre_compact(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        calls.append(_input_fields(hook_input))
        return {}

    async def steps(c: Any) -> None:
        await c.send("hello")
        await c.response()
        await c.send(f"/compact {_INSTRUCTIONS}")
        await c.response()
        compacted["calls after /compact"] = len(calls)
        await c.send("delegate it")
        # the subagent's compaction request comes only after any PreCompact call for it was answered
        try:
            await c.requests(2, route=COMPACT, timeout=_CEILING)
            compacted["subagent compacted"] = True
        except RuntimeError:
            compacted["subagent compacted"] = False
        await c.response()

    run = await h.converse(
        steps,
        script=Script(
            main=[
                "first answer",
                reply(
                    tool_use_offered(
                        _AGENT_TOOL,
                        {"description": "delegate", "prompt": _SUB_PROMPT, "subagent_type": "general-purpose"},
                        "toolu_pc_agent",
                    )
                ),
                "all done",
            ],
            subagent=[
                reply(_bash("echo one", "toolu_pc_sub_1"), usage=_FULL),
                reply(_bash("echo two", "toolu_pc_sub_2"), usage=_FULL),
                "sub done",
            ],
            fallback=reply("ok"),
        ),
        timeout=120,
        allowed_tools=["Bash", *_AGENT_TOOL],
        env=dict(_SMALL_WINDOW),
        hooks={"PreCompact": [HookMatcher(hooks=[pre_compact])]},
    )
    compactions = run.on(COMPACT)
    manual = calls[: compacted.get("calls after /compact", len(calls))]
    return {
        "manual calls": manual,
        "summary request carried the instructions": bool(compactions) and compactions[0].carries(_INSTRUCTIONS),
        "compaction requests": len(compactions),
        "subagent compacted": compacted.get("subagent compacted", False),
        "calls during the subagent's run": calls[len(manual) :],
        "error": run.error_line,
    }


@precompact_manual_and_subagent.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    manual = seen["manual calls"]
    triggers = [c.get("trigger") for c in manual]
    instructions = [c.get("custom_instructions") for c in manual]
    later = seen["calls during the subagent's run"]
    told = [c for c in later if any(c.get(f) for f in _AGENT_FIELDS)]
    checks = {
        "manual-compact-fires-precompact": check(
            triggers == ["manual"],
            f"PreCompact calls for /compact: triggers {triggers} (one 'manual' claimed); raised {seen['error']}",
        ),
        "custom-instructions-passed": check(
            instructions == [_INSTRUCTIONS],
            f"custom_instructions {instructions} ({_INSTRUCTIONS!r} claimed); the summary request carried them: "
            f"{seen['summary request carried the instructions']}",
        ),
    }
    if not seen["subagent compacted"]:
        checks["subagent-compaction-distinguishable"] = undecidable(
            f"the CLI did not compact the subagent's conversation ({seen['compaction requests']} compaction "
            "request(s) in all)"
        )
    else:
        checks["subagent-compaction-distinguishable"] = check(
            len(told) == len(later),
            f"the subagent's compaction called the main PreCompact callback {len(later)} time(s), "
            f"{len(told)} with an agent field: {later}",
        )
    return checks


# cc#13572 and cc#40138: /compact never reached the callback, and a subagent's auto-compaction
# called it as the main thread's.
precompact_manual_and_subagent.differs_on(
    {
        "manual calls": [],
        "summary request carried the instructions": True,
        "compaction requests": 2,
        "subagent compacted": True,
        "calls during the subagent's run": [
            {"custom_instructions": None, "hook_event_name": "PreCompact", "trigger": "auto"}
        ],
        "error": None,
    }
)
# The instructions dropped, the trigger mislabelled.
precompact_manual_and_subagent.differs_on(
    {
        "manual calls": [{"custom_instructions": None, "hook_event_name": "PreCompact", "trigger": "auto"}],
        "summary request carried the instructions": False,
        "compaction requests": 1,
        "subagent compacted": False,
        "calls during the subagent's run": [],
        "error": None,
    }
)
