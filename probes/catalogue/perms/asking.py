"""When can_use_tool is asked and how a host's callback is reached: AskUserQuestion, a plain string
prompt, an interrupt while it is pending, a callback that fails."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import (
    MAIN,
    Harness,
    ProbeTimeout,
    Scenario,
    allow_every_tool,
    reply,
    result_text,
    tool_use,
)

# How long a blocked can_use_tool callback waits for its cancellation before it gives up.
_BLOCK_SECONDS = 6.0


def _blocking_callback(events: list[str], context_seen: dict[str, Any], started: asyncio.Event) -> Any:
    """A can_use_tool that notes its context, then waits (a user who never clicks) until cancelled."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import PermissionResultDeny

        context_seen.update(
            signal=None if getattr(context, "signal", None) is None else type(context.signal).__name__,
            tool_use_id=getattr(context, "tool_use_id", None),
        )
        events.append("asked")
        started.set()
        try:
            await asyncio.sleep(_BLOCK_SECONDS)
        except asyncio.CancelledError:
            events.append("cancelled")
            raise
        events.append("gave up waiting")
        return PermissionResultDeny(message="no answer")

    return callback


class WireSignal(TypedDict):
    context: dict[str, Any]  # signal (its class name), tool_use_id; empty when the callback was never asked
    events: list[str]  # the callback's: asked, cancelled, gave up waiting; and the turn's result
    answer: str | None  # the subtype written to the cancelled request; None: nothing written


class CliSignal(TypedDict):
    events: list[str]
    cli_sent_cancel_for_the_question: bool
    result_subtype: str | None
    error: str | None


class SignalSeen(TypedDict):
    wire: WireSignal
    cli: CliSignal


@behaviour(
    id="perms.can-use-tool-signal-on-interrupt",
    claim=(
        "can_use_tool is given an abort signal and the tool_use id; when the turn is interrupted the "
        "pending question is aborted (in Python: the callback's task is cancelled and nothing is answered)."
    ),
    summary="An interrupt aborts a pending can_use_tool question (in Python, cancels its task)",
    source=("004", "Asking permission with canUseTool"),
    tier="cli",
    checks=(
        "callback-gets-tool-use-id",
        "callback-gets-abort-signal",
        "cancel-request-cancels-pending-callback",
        "interrupt-aborts-pending-question",
    ),
    requires=("option:can_use_tool", "api:ClaudeSDKClient.interrupt"),
    pins={
        "callback-gets-abort-signal": ("permission:ToolPermissionContext.signal",),
        "interrupt-aborts-pending-question": ("client:interrupt",),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
)
async def can_use_tool_signal_on_interrupt(h: Harness) -> SignalSeen:
    # Wire: the fake asks can_use_tool, then cancels that request while the callback waits.
    events: list[str] = []
    context: dict[str, Any] = {}
    request = {"subtype": "can_use_tool", "tool_name": "Bash", "input": {"command": "true"}, "tool_use_id": "toolu_w1"}
    scenario = (
        Scenario()
        .wait_for_user()
        .init()
        .emit({"type": "control_request", "request_id": "perm_1", "request": request})
        .sleep(0.5)
        .emit({"type": "control_cancel_request", "request_id": "perm_1"})
        .sleep(0.5)
        .result()
    )

    async def read_turn(client: Any, out: Any) -> None:
        await client.query("go")
        async for message in client.receive_response():
            out.messages.append(message)
            if type(message).__name__ == "ResultMessage":
                events.append("result")

    wire = await h.wire(
        None,
        scenario=scenario,
        client=True,
        drive=read_turn,
        timeout=20,
        can_use_tool=_blocking_callback(events, context, asyncio.Event()),
    )
    answer = wire.answers.get("perm_1")
    wire_seen: WireSignal = {
        "context": dict(context),
        "events": list(events),
        "answer": None if answer is None else answer.get("subtype"),
    }

    # Real CLI: the callback blocks on a scripted Bash; the client interrupts the turn.
    events.clear()
    context.clear()
    started = asyncio.Event()

    async def interrupt_while_asked(client: Any, out: Any, double: Any) -> None:
        await client.query("run it")

        async def read() -> None:
            async for message in client.receive_response():
                out.messages.append(message)
                if type(message).__name__ == "ResultMessage":
                    events.append("result")

        reader = asyncio.create_task(read())
        try:
            await asyncio.wait_for(started.wait(), 20)
        except asyncio.TimeoutError:
            events.append("never asked")
        await client.interrupt()
        await reader

    run = await h.cli(
        None,
        client=True,
        drive=interrupt_while_asked,
        # a command that needs approval (a read-only one would be allowed without asking)
        script=[reply(tool_use("Bash", {"command": "touch never-approved", "description": "mark"})), "done"],
        timeout=40,
        record_stdout=True,
        can_use_tool=_blocking_callback(events, context, started),
    )
    asked = [m.get("request_id") for m in run.stdout if _control(m, "control_request", "can_use_tool")]
    cancelled = [m.get("request_id") for m in run.stdout if _control(m, "control_cancel_request")]
    return {
        "wire": wire_seen,
        "cli": {
            "events": list(events),
            "cli_sent_cancel_for_the_question": bool(asked) and asked[0] in cancelled,
            "result_subtype": getattr(run.result, "subtype", None),
            "error": run.error,
        },
    }


def _control(m: Any, kind: str, subtype: str | None = None) -> bool:
    return (
        isinstance(m, dict)
        and m.get("type") == kind
        and (subtype is None or (m.get("request") or {}).get("subtype") == subtype)
    )


def _cancelled_before_result(events: list[str]) -> bool:
    return "cancelled" in events and ("result" not in events or events.index("cancelled") < events.index("result"))


@can_use_tool_signal_on_interrupt.decide
def _(seen: SignalSeen) -> dict[str, Check]:
    wire, cli = seen["wire"], seen["cli"]
    ctx = wire["context"]
    return {
        "callback-gets-tool-use-id": check(
            ctx.get("tool_use_id") == "toolu_w1", f"the context's tool_use_id was {ctx.get('tool_use_id')!r}"
        ),
        "callback-gets-abort-signal": check(
            ctx.get("signal") is not None, f"the context's signal was {ctx.get('signal')!r}"
        ),
        "cancel-request-cancels-pending-callback": check(
            _cancelled_before_result(wire["events"]) and wire["answer"] is None,
            f"callback events {wire['events']}, answer written to the cancelled request: {wire['answer']!r}",
        ),
        "interrupt-aborts-pending-question": check(
            cli["cli_sent_cancel_for_the_question"] and _cancelled_before_result(cli["events"]),
            f"CLI sent control_cancel_request for the question: {cli['cli_sent_cancel_for_the_question']}, "
            f"callback events {cli['events']}, result {cli['result_subtype']!r}",
        ),
    }


can_use_tool_signal_on_interrupt.differs_on(
    {
        "wire": {
            "context": {"signal": None, "tool_use_id": None},
            "events": ["asked", "result", "cancelled"],
            "answer": "success",
        },
        "cli": {
            "events": ["asked", "result", "cancelled"],
            "cli_sent_cancel_for_the_question": False,
            "result_subtype": "error_during_execution",
            "error": None,
        },
    }
)


_QUESTION = "Which colour should the banner be?"
_OPTIONS = [{"label": "Red", "description": "warm"}, {"label": "Blue", "description": "cool"}]


def _ask(multi: bool, n: int) -> dict[str, Any]:
    question = {"question": _QUESTION, "header": "Colour", "options": _OPTIONS, "multiSelect": multi}
    return tool_use("AskUserQuestion", {"questions": [question]}, id=f"toolu_ask{n}")


class ToolResult(TypedDict):
    is_error: bool
    text: str


class AskedCallback(TypedDict):
    tool: str
    questions: Any  # the tool input's questions, as asked


class AskSeen(TypedDict):
    callbacks: list[AskedCallback]
    tool_result: ToolResult | None  # None: no tool_result for the question


@behaviour(
    id="perms.ask-user-question-through-can-use-tool",
    claim=(
        "AskUserQuestion is put to can_use_tool like any tool, and a plain approval (allow without an answer) "
        "gives the model no answer (that the model then asks again in plain text is a real model's choice, "
        "not checked here)."
    ),
    summary="AskUserQuestion goes to can_use_tool, and a bare allow gives the model no answer",
    source=("004", "AskUserQuestion: the answer goes through updatedInput"),
    tier="cli",
    checks=("callback-asked-for-ask-user-question", "plain-allow-gives-no-answer"),
    requires=("option:can_use_tool",),
    sdk_ref="claude_agent_sdk.types.PermissionResultAllow",
)
async def ask_user_question_through_can_use_tool(h: Harness) -> AskSeen:

    run = await h.cli(
        "ask me",
        client=True,  # streaming mode: old SDKs refuse callbacks with a string prompt to query()
        script=[reply(_ask(False, 1)), "done"],
        can_use_tool=allow_every_tool,
    )
    main = run.on(MAIN)
    block = main[-1].tool_result("toolu_ask1") if len(main) > 1 else None
    return {
        "callbacks": [{"tool": c["tool"], "questions": c["input"].get("questions")} for c in run.callbacks],
        "tool_result": None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)},
    }


@ask_user_question_through_can_use_tool.decide
def _(seen: AskSeen) -> dict[str, Check]:
    asked = [c for c in seen["callbacks"] if c["tool"] == "AskUserQuestion"]
    result = seen["tool_result"]
    text = result.get("text", "") if result else ""
    no_answer = result is not None and _QUESTION not in text and ("not answer" in text or "no answer" in text)
    return {
        "callback-asked-for-ask-user-question": check(
            bool(asked) and asked[0]["questions"][0]["question"] == _QUESTION,
            f"can_use_tool was asked about {[c['tool'] for c in seen['callbacks']]}",
        ),
        "plain-allow-gives-no-answer": check(no_answer, f"after a plain allow the tool_result was {result!r}"),
    }


ask_user_question_through_can_use_tool.differs_on(
    {
        "callbacks": [],
        "tool_result": {"is_error": False, "text": f'Your questions have been answered: "{_QUESTION}"="Red".'},
    }
)


class AnswersSeen(TypedDict):
    tool_results: dict[str, ToolResult | None]  # "single", "multi" -> the question's tool_result
    schema_properties: list[str] | None


@behaviour(
    id="perms.ask-user-question-answers-in-updated-input",
    claim=(
        "The host answers AskUserQuestion by allowing it with updated input holding `answers`, keyed by the "
        "question text; for a multiSelect question the chosen labels are joined with commas."
    ),
    summary="AskUserQuestion is answered through updated input's answers, keyed by question text",
    source=("004", "AskUserQuestion: the answer goes through updatedInput"),
    tier="cli",
    checks=("answer-reaches-model", "multiselect-comma-joined-reaches-model", "schema-has-answers-property"),
    requires=("option:can_use_tool",),
    sdk_ref="claude_agent_sdk.types.PermissionResultAllow",
)
async def ask_user_question_answers_in_updated_input(h: Harness) -> AnswersSeen:
    from sdkprobe.harness import PermissionResultAllow

    async def answer(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        if name != "AskUserQuestion":
            return PermissionResultAllow()
        multi = bool(tool_input["questions"][0].get("multiSelect"))
        return PermissionResultAllow(
            updated_input={**tool_input, "answers": {_QUESTION: "Red, Blue" if multi else "Blue"}}
        )

    run = await h.cli(
        "ask me twice",
        client=True,  # streaming mode: old SDKs refuse callbacks with a string prompt to query()
        script=[reply(_ask(False, 1)), reply(_ask(True, 2)), "done"],
        can_use_tool=answer,
    )
    main = run.on(MAIN)
    last = main[-1] if main else None
    results: dict[str, ToolResult | None] = {}
    for case, tid in (("single", "toolu_ask1"), ("multi", "toolu_ask2")):
        block = last.tool_result(tid) if last else None
        results[case] = None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)}
    schema = main[0].tool_schema("AskUserQuestion") if main else None
    return {
        "tool_results": results,
        "schema_properties": None if schema is None else sorted(schema.get("properties") or {}),
    }


@ask_user_question_answers_in_updated_input.decide
def _(seen: AnswersSeen) -> dict[str, Check]:
    results, props = seen["tool_results"], seen["schema_properties"]

    def echoed(case: str, value: str) -> bool:
        r = results[case]
        return r is not None and not r["is_error"] and _QUESTION in r["text"] and value in r["text"]

    return {
        "answer-reaches-model": check(echoed("single", '"Blue"'), f"the tool_result was {results['single']!r}"),
        "multiselect-comma-joined-reaches-model": check(
            echoed("multi", '"Red, Blue"'), f"the tool_result was {results['multi']!r}"
        ),
        "schema-has-answers-property": check(
            props is not None and "answers" in props, f"AskUserQuestion's input_schema properties were {props}"
        ),
    }


ask_user_question_answers_in_updated_input.differs_on(
    {
        "tool_results": {
            "single": {"is_error": False, "text": "The user did not answer the questions."},
            "multi": {"is_error": True, "text": "invalid answers"},
        },
        "schema_properties": ["questions"],
    }
)


# --- perms.can-use-tool-with-string-prompt ------------------------------------------------


def _recording_allow(calls: list[str]) -> Any:
    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import PermissionResultAllow

        calls.append(name)
        return PermissionResultAllow()

    return callback


WireAnswered = TypedDict(
    "WireAnswered",
    {
        "callback asked": int,
        "answer": dict[str, Any] | None,  # subtype and the response's fields
        "answered before stdin closed": bool,
        "result": bool,
        "error": str | None,
    },
)
WriteRun = TypedDict(
    "WriteRun",
    {
        "callback asked for": list[str],
        "file written": bool,
        "tool result": str | None,  # "error: " and its text when is_error
        "stream closed said": bool,
        "error": str | None,
    },
)
StringPromptSeen = TypedDict(
    "StringPromptSeen", {"wire": WireAnswered, "cli": WriteRun, "cli, async-iterable prompt": WriteRun}
)


@behaviour(
    id="perms.can-use-tool-with-string-prompt",
    claim=(
        "can_use_tool works with a plain string prompt, query(prompt='...'): the callback is asked and its "
        "answer reaches the CLI, with no async-iterable prompt and no dummy PreToolUse hook needed."
    ),
    summary="can_use_tool is asked and answered with a plain string prompt too",
    source=("py#1105", "report"),
    tier="cli",
    checks=(
        "wire-string-prompt-callback-answered",
        "cli-string-prompt-write-allowed",
        "cli-iterable-prompt-write-allowed",
    ),
    # the documented workaround, a one-message async iterable: shows the scripted Write can pass the callback at all
    controls=("cli-iterable-prompt-write-allowed",),
    requires=("option:can_use_tool",),
    sdk_ref="claude_agent_sdk._internal.client.InternalClient.process_query",
)
async def can_use_tool_with_string_prompt(h: Harness) -> StringPromptSeen:
    asked: list[str] = []
    request = {"tool_name": "Bash", "input": {"command": "true"}, "tool_use_id": "toolu_str_1"}
    scenario = Scenario().wait_for_user().init().request("can_use_tool", **request).result()
    wire = await h.wire("x", scenario=scenario, can_use_tool=_recording_allow(asked))
    line = wire.timeline()
    answer = wire.answers.get("fake_req_1")
    answered = "in:control_response/success" in line
    wire_seen: WireAnswered = {
        "callback asked": len(asked),
        "answer": None if answer is None else {"subtype": answer.get("subtype"), **(answer.get("response") or {})},
        "answered before stdin closed": answered
        and ("eof" not in line or line.index("in:control_response/success") < line.index("eof")),
        "result": wire.result is not None,
        "error": wire.error_line,
    }

    return {
        "wire": wire_seen,
        "cli": await _write_with_callback(h, "write it", "f.txt"),
        "cli, async-iterable prompt": await _write_with_callback(
            h,
            [{"type": "user", "message": {"role": "user", "content": "write it"}, "parent_tool_use_id": None}],
            "g.txt",
        ),
    }


async def _write_with_callback(h: Harness, prompt: Any, name: str) -> WriteRun:
    """A scripted Write in default mode through query(prompt), with a recording, allowing can_use_tool."""
    calls: list[str] = []
    target = h.cwd / name
    write = tool_use("Write", {"file_path": str(target), "content": "written\n"}, "toolu_str_write")
    run = await h.cli(prompt, script=[reply(write), "done"], can_use_tool=_recording_allow(calls))
    main = run.on(MAIN)
    block = main[-1].tool_result("toolu_str_write") if len(main) > 1 else None
    return {
        "callback asked for": calls,
        "file written": target.exists(),
        "tool result": None
        if block is None
        else ("error: " if block.get("is_error") else "") + result_text(block)[:120],
        "stream closed said": any("Stream closed" in t for r in main for t in r.texts()),
        "error": run.error_line,
    }


@can_use_tool_with_string_prompt.decide
def _(seen: StringPromptSeen) -> dict[str, Check]:
    w = seen["wire"]

    def write_allowed(c: WriteRun) -> Check:
        return check(
            c["error"] is None
            and c["callback asked for"] == ["Write"]
            and c["file written"]
            and not c["stream closed said"],
            f"raised {c['error']}; callback asked for {c['callback asked for']}; file written {c['file written']}; "
            f"tool result {c['tool result']!r}",
        )

    return {
        "wire-string-prompt-callback-answered": check(
            w["error"] is None and w["callback asked"] == 1 and w["answered before stdin closed"] and w["result"],
            f"query(prompt=str, can_use_tool=...) raised {w['error']}; callback asked {w['callback asked']} time(s), "
            f"answer {w['answer']}, before stdin closed: {w['answered before stdin closed']}",
        ),
        "cli-string-prompt-write-allowed": write_allowed(seen["cli"]),
        "cli-iterable-prompt-write-allowed": write_allowed(seen["cli, async-iterable prompt"]),
    }


can_use_tool_with_string_prompt.differs_on(
    {
        "wire": {
            "callback asked": 0,
            "answer": None,
            "answered before stdin closed": False,
            "result": False,
            "error": "ValueError: can_use_tool callback requires streaming mode.",
        },
        "cli": {
            "callback asked for": [],
            "file written": False,
            "tool result": None,
            "stream closed said": False,
            "error": "ValueError: can_use_tool callback requires streaming mode.",
        },
        "cli, async-iterable prompt": {
            "callback asked for": [],
            "file written": False,
            "tool result": "error: Stream closed",
            "stream closed said": True,
            "error": None,
        },
    }
)


# --- perms.callback-errors-reach-caller ---------------------------------------------------

# how a misbehaving can_use_tool answers, keyed by a word in the Bash command it is asked about
_MISBEHAVIOURS = {
    "dict": "returns the dict {'behavior': 'allow'}",
    "none": "returns None",
    "raise": "raises RuntimeError('boom')",
}


# what a run that hung on an unanswered request records as its answer or its result
_NEVER = "nothing: the run hung until sdkprobe's timeout"


def _misbehaving() -> Any:
    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from sdkprobe.harness import PermissionResultAllow

        command = str(tool_input.get("command", ""))
        if "m-dict" in command:
            return {"behavior": "allow"}
        if "m-none" in command:
            return None
        if "m-raise" in command:
            raise RuntimeError("boom")
        return PermissionResultAllow()

    return callback


def _none_for(marker: str) -> Any:
    """A PreToolUse hook that returns None (not a dict) for the one command naming `marker`."""

    async def hook(hook_input: Any, tool_use_id: Any, context: Any) -> Any:
        command = str(((hook_input or {}).get("tool_input") or {}).get("command", ""))
        return None if command.endswith(f"/{marker}") else {}

    return hook


WireFate = TypedDict(
    "WireFate",
    {
        "sent to the CLI": str | None,  # the answer's subtype, or _NEVER
        "error sent": str | None,
        "caller got": str | None,
        "result": bool,
    },
)
MarkerRun = TypedDict("MarkerRun", {"ran": bool, "tool result": str | None})
# result: the run's subtype, or _NEVER
_CliFateAlways = TypedDict("_CliFateAlways", {"caller got": str | None, "result": str | None})
# one per Bash call of the turn, by its marker; none when the run hung, m-hook-block only where on_failure exists
_CliMarkers = TypedDict(
    "_CliMarkers",
    {"m-dict": MarkerRun, "m-none": MarkerRun, "m-raise": MarkerRun, "m-hook": MarkerRun, "m-hook-block": MarkerRun},
    total=False,
)


class CliFate(_CliFateAlways, _CliMarkers):
    """The real CLI's run: what the caller got, the result, and each marker's call."""


class ErrorsSeen(TypedDict):
    wire: dict[str, WireFate]  # a key of _MISBEHAVIOURS, or "hook none" -> what became of it
    cli: CliFate


@behaviour(
    id="perms.callback-errors-reach-caller",
    renamed_from=("perms.callback-errors-become-denials",),
    claim=(
        "When a can_use_tool callback returns the wrong type (a dict, None) or raises, or a hook callback "
        "returns None, the caller's program gets the error rather than the run carrying on without it."
    ),
    summary="A callback that raises or returns the wrong type reaches the caller as an error",
    security="a can_use_tool that raises must never turn into an allow; where the error goes decides that",
    source=("py#159", "report"),
    tier="cli",
    checks=(
        "dict-return-reaches-caller",
        "none-return-reaches-caller",
        "raised-error-reaches-caller",
        "hook-none-return-reaches-caller",
        "cli-run-surfaces-callback-errors",
    ),
    requires=("option:can_use_tool", "option:hooks"),
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
)
async def callback_errors_reach_caller(h: Harness) -> ErrorsSeen:
    from sdkprobe.harness import HookMatcher, lacks

    wire: dict[str, WireFate] = {}
    for kind in (*_MISBEHAVIOURS, "hook none"):
        if kind == "hook none":
            request: dict[str, Any] = {
                "callback_id": "hook_0",
                "input": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "x/m-hook"}},
                "tool_use_id": "toolu_cb_1",
            }
            subtype = "hook_callback"
        else:
            request = {"tool_name": "Bash", "input": {"command": f"touch m-{kind}"}, "tool_use_id": "toolu_cb_1"}
            subtype = "can_use_tool"
        scenario = Scenario().wait_for_user().init().request(subtype, **request).result()
        try:
            run = await h.wire(
                "go",
                scenario=scenario,
                client=True,
                can_use_tool=_misbehaving(),
                hooks={"PreToolUse": [HookMatcher(matcher="Bash", hooks=[_none_for("m-hook")])]},
            )
        except ProbeTimeout:  # an SDK that never answers the request hangs the run: a finding
            wire[kind] = {"sent to the CLI": _NEVER, "error sent": None, "caller got": None, "result": False}
            continue
        answer = run.answers.get("fake_req_1") or {}
        wire[kind] = {
            "sent to the CLI": answer.get("subtype"),
            "error sent": (str(answer["error"]).splitlines() or [""])[0] if answer.get("error") else None,
            "caller got": run.error_line,
            "result": run.result is not None,
        }

    # The real CLI: one turn of Bash calls, one per misbehaviour, plus two whose hook returns None:
    # one under a plain matcher, one under on_failure="block" where this SDK has it.
    blocking = lacks("field:HookMatcher.on_failure") is None
    markers = [f"m-{k}" for k in _MISBEHAVIOURS] + ["m-hook"] + (["m-hook-block"] if blocking else [])
    matchers = [HookMatcher(matcher="Bash", hooks=[_none_for("m-hook")])]
    if blocking:
        matchers.append(HookMatcher(matcher="Bash", hooks=[_none_for("m-hook-block")], on_failure="block"))
    blocks = [
        tool_use("Bash", {"command": f"touch {h.cwd / m}", "description": m}, f"toolu_cb_{n}")
        for n, m in enumerate(markers, 1)
    ]
    # a client, not query(str): before 0.2.140 can_use_tool refused a string prompt outright
    try:
        session = await h.cli(
            "mark",
            script=[reply(*blocks), "done"],
            client=True,
            can_use_tool=_misbehaving(),
            hooks={"PreToolUse": matchers},
            timeout=30.0,
        )
    except ProbeTimeout:
        return {"wire": wire, "cli": {"caller got": None, "result": _NEVER}}
    main = session.on(MAIN)
    cli: CliFate = {"caller got": session.error_line, "result": getattr(session.result, "subtype", None)}
    for n, m in enumerate(markers, 1):
        block = main[1].tool_result(f"toolu_cb_{n}") if len(main) > 1 else None
        cast("dict[str, Any]", cli)[m] = {  # a marker: its key computed at run time
            "ran": (h.cwd / m).exists(),
            "tool result": None
            if block is None
            else ("error: " if block.get("is_error") else "") + (result_text(block).splitlines() or [""])[0][:160],
        }
    return {"wire": wire, "cli": cli}


@callback_errors_reach_caller.decide
def _(seen: ErrorsSeen) -> dict[str, Check]:
    wire, cli = seen["wire"], seen["cli"]

    def reached(kind: str, what: str) -> Check:
        r = wire[kind]
        return check(
            r["caller got"] is not None,
            f"a {what}: the caller got nothing; the SDK answered the CLI {r['sent to the CLI']!r}"
            + (f" ({r['error sent']})" if r["error sent"] else ""),
        )

    tools: dict[str, Any] = {m: r for m, r in cli.items() if m.startswith("m-")}
    return {
        "dict-return-reaches-caller": reached("dict", "can_use_tool that " + _MISBEHAVIOURS["dict"]),
        "none-return-reaches-caller": reached("none", "can_use_tool that " + _MISBEHAVIOURS["none"]),
        "raised-error-reaches-caller": reached("raise", "can_use_tool that " + _MISBEHAVIOURS["raise"]),
        "hook-none-return-reaches-caller": reached("hook none", "PreToolUse hook that returns None"),
        "cli-run-surfaces-callback-errors": check(
            cli["caller got"] is not None,
            f"with the real CLI the run ended {cli['result']!r} and the caller got nothing; "
            + "; ".join(f"{m}: {'ran' if r['ran'] else 'not run'} ({r['tool result']!r})" for m, r in tools.items()),
        ),
    }


callback_errors_reach_caller.differs_on(
    {
        "wire": {
            kind: {"sent to the CLI": "error", "error sent": "boom", "caller got": None, "result": True}
            for kind in (*_MISBEHAVIOURS, "hook none")
        },
        "cli": {
            "caller got": None,
            "result": "success",
            "m-raise": {"ran": False, "tool result": "error: boom"},
        },
    }
)
