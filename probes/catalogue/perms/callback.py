"""can_use_tool: when it is asked, what its context holds, and what each of its answers does."""

from __future__ import annotations

import asyncio
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import (
    MAIN,
    Harness,
    ProbeTimeout,
    Scenario,
    Script,
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
        from claude_agent_sdk import PermissionResultDeny

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
async def can_use_tool_signal_on_interrupt(h: Harness) -> dict[str, Any]:
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
    wire_seen = {
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
async def ask_user_question_through_can_use_tool(h: Harness) -> dict[str, Any]:

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
def _(seen: dict[str, Any]) -> dict[str, Check]:
    asked = [c for c in seen["callbacks"] if c["tool"] == "AskUserQuestion"]
    result = seen["tool_result"]
    text = (result or {}).get("text", "")
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
async def ask_user_question_answers_in_updated_input(h: Harness) -> dict[str, Any]:
    from claude_agent_sdk import PermissionResultAllow

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
    results = {}
    for case, tid in (("single", "toolu_ask1"), ("multi", "toolu_ask2")):
        block = last.tool_result(tid) if last else None
        results[case] = None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)}
    schema = main[0].tool_schema("AskUserQuestion") if main else None
    return {
        "tool_results": results,
        "schema_properties": None if schema is None else sorted(schema.get("properties") or {}),
    }


@ask_user_question_answers_in_updated_input.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
        from claude_agent_sdk import PermissionResultAllow

        calls.append(name)
        return PermissionResultAllow()

    return callback


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
async def can_use_tool_with_string_prompt(h: Harness) -> dict[str, Any]:
    asked: list[str] = []
    request = {"tool_name": "Bash", "input": {"command": "true"}, "tool_use_id": "toolu_str_1"}
    scenario = Scenario().wait_for_user().init().request("can_use_tool", **request).result()
    wire = await h.wire("x", scenario=scenario, can_use_tool=_recording_allow(asked))
    line = wire.timeline()
    answer = wire.answers.get("fake_req_1")
    answered = "in:control_response/success" in line
    wire_seen = {
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


async def _write_with_callback(h: Harness, prompt: Any, name: str) -> dict[str, Any]:
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
def _(seen: dict[str, Any]) -> dict[str, Check]:
    w = seen["wire"]

    def write_allowed(c: dict[str, Any]) -> Check:
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
        from claude_agent_sdk import PermissionResultAllow

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
async def callback_errors_reach_caller(h: Harness) -> dict[str, Any]:
    import dataclasses

    from claude_agent_sdk import HookMatcher

    wire: dict[str, Any] = {}
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
    blocking = "on_failure" in {f.name for f in dataclasses.fields(HookMatcher)}
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
    cli: dict[str, Any] = {"caller got": session.error_line, "result": getattr(session.result, "subtype", None)}
    for n, m in enumerate(markers, 1):
        block = main[1].tool_result(f"toolu_cb_{n}") if len(main) > 1 else None
        cli[m] = {
            "ran": (h.cwd / m).exists(),
            "tool result": None
            if block is None
            else ("error: " if block.get("is_error") else "") + (result_text(block).splitlines() or [""])[0][:160],
        }
    return {"wire": wire, "cli": cli}


@callback_errors_reach_caller.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    wire, cli = seen["wire"], seen["cli"]

    def reached(kind: str, what: str) -> Check:
        r = wire[kind]
        return check(
            r["caller got"] is not None,
            f"a {what}: the caller got nothing; the SDK answered the CLI {r['sent to the CLI']!r}"
            + (f" ({r['error sent']})" if r["error sent"] else ""),
        )

    tools = {m: r for m, r in cli.items() if m.startswith("m-")}
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

# --- perms.permission-callback-wire-contract ---------------------------------------------

# The context fields a can_use_tool request carries as plain strings: attribute -> request key.
_STRING_FIELDS = {
    "tool_use_id": "tool_use_id",
    "agent_id": "agent_id",
    "blocked_path": "blocked_path",
    "decision_reason": "decision_reason",
    "title": "title",
    "display_name": "display_name",
    "description": "description",
}

# One update of each type, in the CLI's JSON shape, each with every field its type takes.
_UPDATES: list[dict[str, Any]] = [
    {
        "type": "addRules",
        "destination": "session",
        "rules": [{"toolName": "Bash", "ruleContent": "npm test"}],
        "behavior": "allow",
    },
    {
        "type": "replaceRules",
        "destination": "projectSettings",
        "rules": [{"toolName": "Read", "ruleContent": "./docs/**"}, {"toolName": "Grep", "ruleContent": "*.md"}],
        "behavior": "deny",
    },
    {
        "type": "removeRules",
        "destination": "userSettings",
        "rules": [{"toolName": "WebFetch", "ruleContent": "domain:example.com"}],
        "behavior": "ask",
    },
    {"type": "setMode", "destination": "localSettings", "mode": "acceptEdits"},
    {"type": "addDirectories", "destination": "session", "directories": ["/srv/extra-a", "/srv/extra-b"]},
    {"type": "removeDirectories", "destination": "localSettings", "directories": ["/srv/extra-a"]},
]

# The full request: every optional field the CLI may send, the six updates as its suggestions.
_FULL = {
    "tool_use_id": "toolu_full",
    "agent_id": "agent-7",
    "blocked_path": "/srv/outside/notes.txt",
    "decision_reason": "a PreToolUse hook asked",
    "title": "Claude wants to run npm test",
    "display_name": "Run command",
    "description": "Runs the project's tests",
    "permission_suggestions": _UPDATES,
}

# case -> what the callback answers (keyed by the input's description, which every SDK passes on)
_CASES = {
    "full": "allow with the context's own suggestions as updated_permissions",
    "bare": "allow with one PermissionUpdate of each type, built by the callback",
    "defaults": "allow with an addRules for the whole tool and no destination",
    "unsendable": "allow with an addRules and a setMode that has no mode",
    "deny": "deny with a message",
    "interrupt": "deny with a message and interrupt=True",
}
_DENY_MESSAGE = "refused by the host"
_STOP_MESSAGE = "stop the turn"


# the update sub-checks, in _UPDATES' order
_UPDATE_NAMES = ("add-rules", "replace-rules", "remove-rules", "set-mode", "add-directories", "remove-directories")


def _update_pins(index: int) -> tuple[str, ...]:
    """What an update's sub-check pins: the answer's updated_permissions, the update's type and field; and
    TypeScript's own items, the behavior of its rules and the values it sends (PermissionUpdateDestination)."""
    u = _UPDATES[index]
    field = next(k for k in ("rules", "mode", "directories") if k in u)
    rule = (
        (f"permission-update:{u['type']}.behavior", f"value:PermissionBehavior={u['behavior']}")
        if "behavior" in u
        else ()
    )
    return (
        "permission:PermissionResultAllow.updated_permissions",
        f"permission-update:{field}",
        f"permission-update:type={u['type']}",
        *rule,
        f"value:PermissionUpdateDestination={u['destination']}",
    )


def _request(case: str) -> dict[str, Any]:
    fields: dict[str, Any] = _FULL if case == "full" else {"tool_use_id": f"toolu_{case}"}
    return {"tool_name": "Bash", "input": {"command": "true", "description": case}, **fields}


def _update(wire: dict[str, Any]) -> Any:
    """A PermissionUpdate built from its fields by hand (not by the SDK's from_dict)."""
    from claude_agent_sdk import PermissionUpdate
    from claude_agent_sdk.types import PermissionRuleValue

    rules = [
        PermissionRuleValue(tool_name=r["toolName"], rule_content=r.get("ruleContent")) for r in wire.get("rules") or []
    ]
    return PermissionUpdate(
        type=wire["type"],
        rules=rules or None,
        behavior=wire.get("behavior"),
        mode=wire.get("mode"),
        directories=wire.get("directories"),
        destination=wire.get("destination"),
    )


def _seen_update(update: Any) -> dict[str, Any]:
    """A suggestion as the callback got it: its class and, for an object, its fields."""
    if isinstance(update, dict):
        return {"class": "dict", "value": update}
    rules = getattr(update, "rules", None)
    return {
        "class": type(update).__name__,
        "type": getattr(update, "type", None),
        "rules": None
        if rules is None
        else [
            {"tool_name": getattr(r, "tool_name", r), "rule_content": getattr(r, "rule_content", None)} for r in rules
        ],
        "behavior": getattr(update, "behavior", None),
        "mode": getattr(update, "mode", None),
        "directories": getattr(update, "directories", None),
        "destination": getattr(update, "destination", None),
    }


def _seen_context(context: Any) -> dict[str, Any]:
    import dataclasses

    names = {f.name for f in dataclasses.fields(context)}
    seen: dict[str, Any] = {"fields": sorted(names)}
    seen.update({name: getattr(context, name) for name in _STRING_FIELDS if name in names})
    seen["suggestions"] = [_seen_update(s) for s in context.suggestions]
    return seen


def _answering(contexts: dict[str, Any]) -> Any:
    """The one can_use_tool of the run: notes the context, answers as its case says."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny, PermissionUpdate
        from claude_agent_sdk.types import PermissionRuleValue

        case = str(tool_input.get("description"))
        contexts[case] = _seen_context(context)
        if case == "full":
            return PermissionResultAllow(updated_permissions=list(context.suggestions))
        if case == "bare":
            return PermissionResultAllow(updated_permissions=[_update(u) for u in _UPDATES])
        if case == "defaults":
            whole_tool = PermissionUpdate(
                type="addRules", rules=[PermissionRuleValue(tool_name="Bash")], behavior="allow"
            )
            return PermissionResultAllow(updated_permissions=[whole_tool])
        if case == "unsendable":
            return PermissionResultAllow(updated_permissions=[_update(_UPDATES[0]), PermissionUpdate(type="setMode")])
        if case == "deny":
            return PermissionResultDeny(message=_DENY_MESSAGE)
        return PermissionResultDeny(message=_STOP_MESSAGE, interrupt=True)

    return callback


@behaviour(
    id="perms.permission-callback-wire-contract",
    claim=(
        "Each field of the CLI's can_use_tool request reaches the callback's ToolPermissionContext as its "
        "attribute (tool_use_id, agent_id, blocked_path, decision_reason, title, display_name, description; "
        "permission_suggestions as PermissionUpdate objects in `suggestions`), absent ones None or empty; "
        "PermissionResultAllow.updated_permissions is sent as updatedPermissions, each PermissionUpdate in the "
        "CLI's shape (type, destination, rules as toolName/ruleContent with behavior, mode, directories; a rule "
        "with no rule_content without ruleContent, no destination as 'session'; one unsendable update sends "
        "none), a suggestion sent back unchanged; PermissionResultDeny is sent as behavior 'deny' with its "
        "message, and interrupt true only when asked."
    ),
    summary="can_use_tool gets every request field in its context; its answers reach the CLI intact",
    source=("sdk-py", "ToolPermissionContext, PermissionResultAllow, PermissionResultDeny, PermissionUpdate"),
    tier="wire",
    checks=(
        "context-tool-use-id",
        "context-agent-id",
        "context-blocked-path",
        "context-decision-reason",
        "context-title",
        "context-display-name",
        "context-description",
        "context-suggestions-parsed",
        "context-absent-fields-empty",
        "update-add-rules",
        "update-replace-rules",
        "update-remove-rules",
        "update-set-mode",
        "update-add-directories",
        "update-remove-directories",
        "suggestions-round-trip",
        "whole-tool-rule-default-destination",
        "unsendable-update-sends-none",
        "deny-sends-message",
        "deny-interrupt-sent",
    ),
    requires=("option:can_use_tool",),
    pins={
        "context-tool-use-id": ("permission:ToolPermissionContext.tool_use_id",),
        "context-agent-id": ("permission:ToolPermissionContext.agent_id",),
        "context-blocked-path": ("permission:ToolPermissionContext.blocked_path",),
        "context-decision-reason": ("permission:ToolPermissionContext.decision_reason",),
        "context-title": ("permission:ToolPermissionContext.title",),
        "context-display-name": ("permission:ToolPermissionContext.display_name",),
        "context-description": ("permission:ToolPermissionContext.description",),
        "context-suggestions-parsed": ("permission:ToolPermissionContext.suggestions",),
        **{f"update-{name}": _update_pins(n) for n, name in enumerate(_UPDATE_NAMES)},
        "suggestions-round-trip": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission:ToolPermissionContext.suggestions",
        ),
        "whole-tool-rule-default-destination": (
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:destination",
        ),
        "unsendable-update-sends-none": ("permission:PermissionResultAllow.updated_permissions",),
        "deny-sends-message": ("permission:PermissionResultDeny", "permission:PermissionResultDeny.message"),
        "deny-interrupt-sent": ("permission:PermissionResultDeny", "permission:PermissionResultDeny.interrupt"),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
)
async def permission_callback_wire_contract(h: Harness) -> dict[str, Any]:
    scenario = Scenario().wait_for_user().init()
    for case in _CASES:
        scenario = scenario.request("can_use_tool", **_request(case))
    contexts: dict[str, Any] = {}
    # a client: before 0.2.140 can_use_tool refused a string prompt to query()
    wire = await h.wire("go", scenario=scenario.result(), client=True, can_use_tool=_answering(contexts))
    answers = {}
    for n, case in enumerate(_CASES, 1):
        answer = wire.answers.get(f"fake_req_{n}")
        answers[case] = (
            None
            if answer is None
            else {"subtype": answer.get("subtype"), "response": answer.get("response"), "error": answer.get("error")}
        )
    return {"contexts": contexts, "answers": answers, "error": wire.error_line}


def _expected_suggestion(wire: dict[str, Any]) -> dict[str, Any]:
    """What a suggestion in the CLI's shape is as a PermissionUpdate's fields."""
    rules = wire.get("rules")
    return {
        "class": "PermissionUpdate",
        "type": wire["type"],
        "rules": None
        if rules is None
        else [{"tool_name": r["toolName"], "rule_content": r.get("ruleContent")} for r in rules],
        "behavior": wire.get("behavior"),
        "mode": wire.get("mode"),
        "directories": wire.get("directories"),
        "destination": wire.get("destination"),
    }


def _response(seen: dict[str, Any], case: str) -> dict[str, Any] | None:
    answer = seen["answers"].get(case)
    return None if answer is None or answer["subtype"] != "success" else answer["response"]


def _answer_said(seen: dict[str, Any], case: str) -> str:
    answer = seen["answers"].get(case)
    if answer is None:
        return f"no answer to the {case!r} request (callback context seen: {case in seen['contexts']})"
    if answer["subtype"] != "success":
        return f"the {case!r} request was answered {answer['subtype']!r}: {answer['error']!r}"
    return f"the {case!r} answer was {answer['response']!r}"


def _context_field(seen: dict[str, Any], name: str) -> Check:
    full, bare = seen["contexts"].get("full"), seen["contexts"].get("bare")
    if full is None or bare is None:
        return check(
            False, f"the callback was asked for {sorted(seen['contexts'])}, not both the full and bare requests"
        )
    if name not in full["fields"]:
        return undecidable(f"this SDK's ToolPermissionContext has no field {name!r}")
    sent = _FULL[_STRING_FIELDS[name]]
    if name == "tool_use_id":
        return check(
            full[name] == sent and bare[name] == "toolu_bare",
            f"tool_use_id sent 'toolu_full' / 'toolu_bare', context had {full[name]!r} / {bare[name]!r}",
        )
    return check(full[name] == sent, f"{_STRING_FIELDS[name]} sent {sent!r}, context.{name} was {full[name]!r}")


def _update_sent(seen: dict[str, Any], index: int) -> Check:
    wanted = _UPDATES[index]
    response = _response(seen, "bare")
    sent = None if response is None else response.get("updatedPermissions")
    got = sent[index] if isinstance(sent, list) and len(sent) == len(_UPDATES) else None
    return check(
        got == wanted,
        f"PermissionUpdate(type={wanted['type']!r}, ...) was sent as {got!r}"
        + ("" if response is not None else f" ({_answer_said(seen, 'bare')})"),
    )


@permission_callback_wire_contract.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    contexts = seen["contexts"]
    full, bare = contexts.get("full"), contexts.get("bare")
    expected = [_expected_suggestion(u) for u in _UPDATES]
    checks = {f"context-{name.replace('_', '-')}": _context_field(seen, name) for name in _STRING_FIELDS}
    got = None if full is None else full["suggestions"]
    checks["context-suggestions-parsed"] = check(
        got == expected,
        f"the six permission_suggestions arrived as {[s['class'] for s in got or []]}"
        + ("" if got == expected or any(s["class"] != "PermissionUpdate" for s in got or []) else f": {got!r}"),
    )
    if bare is None:
        checks["context-absent-fields-empty"] = check(False, "the callback was not asked for the bare request")
    else:
        empty = {name: bare[name] for name in _STRING_FIELDS if name in bare and name != "tool_use_id"}
        checks["context-absent-fields-empty"] = check(
            bare["suggestions"] == [] and all(v is None for v in empty.values()),
            f"with only tool_use_id sent, the context had {empty}, suggestions {bare['suggestions']!r}",
        )
    for index, name in enumerate(_UPDATE_NAMES):
        checks[f"update-{name}"] = _update_sent(seen, index)
    full_response = _response(seen, "full")
    checks["suggestions-round-trip"] = check(
        full_response is not None and full_response.get("updatedPermissions") == _UPDATES,
        f"the suggestions sent back as updated_permissions: {_answer_said(seen, 'full')}",
    )
    defaults = _response(seen, "defaults")
    whole_tool = {"type": "addRules", "destination": "session", "rules": [{"toolName": "Bash"}], "behavior": "allow"}
    checks["whole-tool-rule-default-destination"] = check(
        defaults is not None and defaults.get("updatedPermissions") == [whole_tool],
        f"PermissionUpdate('addRules', rules=[PermissionRuleValue('Bash')], behavior='allow'): "
        f"{_answer_said(seen, 'defaults')}",
    )
    unsendable = _response(seen, "unsendable")
    checks["unsendable-update-sends-none"] = check(
        unsendable is not None and unsendable.get("behavior") == "allow" and "updatedPermissions" not in unsendable,
        f"an addRules with a setMode lacking its mode: {_answer_said(seen, 'unsendable')}",
    )
    deny, stop = _response(seen, "deny"), _response(seen, "interrupt")
    checks["deny-sends-message"] = check(
        deny is not None
        and deny.get("behavior") == "deny"
        and deny.get("message") == _DENY_MESSAGE
        and not deny.get("interrupt")
        and "updatedInput" not in deny,
        f"PermissionResultDeny(message={_DENY_MESSAGE!r}): {_answer_said(seen, 'deny')}",
    )
    checks["deny-interrupt-sent"] = check(
        stop is not None
        and stop.get("behavior") == "deny"
        and stop.get("message") == _STOP_MESSAGE
        and stop.get("interrupt") is True,
        f"PermissionResultDeny(message={_STOP_MESSAGE!r}, interrupt=True): {_answer_said(seen, 'interrupt')}",
    )
    return checks


def _success(response: dict[str, Any]) -> dict[str, Any]:
    return {"subtype": "success", "response": response, "error": None}


_ALL_STRINGS = {name: _FULL[key] for name, key in _STRING_FIELDS.items()}
_ALL_FIELDS = sorted(["signal", "suggestions", *_STRING_FIELDS])

# The contract broken everywhere: fields dropped or renamed, suggestions left as dicts, updates
# in snake_case or with ruleContent null, the unsendable update sent half, a deny sent as allow.
permission_callback_wire_contract.differs_on(
    {
        "contexts": {
            "full": {
                "fields": _ALL_FIELDS,
                **{name: None for name in _STRING_FIELDS},
                "tool_use_id": "toolu_bare",
                "suggestions": [{"class": "dict", "value": u} for u in _UPDATES],
            },
            "bare": {"fields": _ALL_FIELDS, **_ALL_STRINGS, "suggestions": [{"class": "dict", "value": _UPDATES[0]}]},
        },
        "answers": {
            "full": {"subtype": "error", "response": None, "error": "'dict' object has no attribute 'to_dict'"},
            "bare": _success(
                {
                    "behavior": "allow",
                    "updatedInput": {},
                    "updatedPermissions": [
                        {"type": u["type"], "tool_name": "Bash", "rule_content": None, "mode": None} for u in _UPDATES
                    ],
                }
            ),
            "defaults": _success(
                {
                    "behavior": "allow",
                    "updatedPermissions": [
                        {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": None}], "behavior": "allow"}
                    ],
                }
            ),
            "unsendable": _success(
                {
                    "behavior": "allow",
                    "updatedPermissions": [_UPDATES[0], {"type": "setMode", "destination": "session"}],
                }
            ),
            "deny": _success({"behavior": "allow", "updatedInput": {}}),
            "interrupt": _success({"behavior": "deny", "message": _STOP_MESSAGE}),
        },
        "error": None,
    }
)
# Unanswered requests (the callback never asked) make every check differ too, with no context seen.
permission_callback_wire_contract.differs_on(
    {"contexts": {}, "answers": dict.fromkeys(_CASES), "error": "ProbeTimeout: the SDK never answered"}
)


# --- perms.permission-results-take-effect ------------------------------------------------

_HOST_DENY = "DENIED-BY-HOST: not this file"
_HOST_STOP = "STOPPED-BY-HOST"

# The turn's Bash calls in order (each its own model reply): tool_use id -> the file it touches.
_STEPS = {
    "toolu_rule1": "ruled.txt",  # allowed with an addRules for this very command (session)
    "toolu_rule2": "ruled.txt",  # the identical call: the rule answers, the callback is not asked
    "toolu_deny": "denied.txt",  # denied with a message
    "toolu_edit": "original.txt",  # allowed with updated_input touching rewritten.txt instead
    "toolu_stop": "stopped.txt",  # denied with interrupt=True: the turn ends here
    "toolu_after": "after.txt",  # never reached when the interrupt is honoured
}


def _touch(h: Harness, name: str) -> str:
    return f"touch {h.cwd / name}"


def _deciding(h: Harness, asked: list[str]) -> Any:
    """The host's can_use_tool: a different answer for each file a Bash call touches."""

    async def callback(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny, PermissionUpdate
        from claude_agent_sdk.types import PermissionRuleValue

        command = str(tool_input.get("command", ""))
        target = command.rsplit("/", 1)[-1]
        asked.append(target)
        if target == "ruled.txt":
            rule = PermissionRuleValue(tool_name="Bash", rule_content=command)
            update = PermissionUpdate(type="addRules", rules=[rule], behavior="allow", destination="session")
            return PermissionResultAllow(updated_permissions=[update])
        if target == "denied.txt":
            return PermissionResultDeny(message=_HOST_DENY)
        if target == "original.txt":
            return PermissionResultAllow(updated_input={**tool_input, "command": _touch(h, "rewritten.txt")})
        if target == "stopped.txt":
            return PermissionResultDeny(message=_HOST_STOP, interrupt=True)
        return PermissionResultAllow()

    return callback


@behaviour(
    id="perms.permission-results-take-effect",
    claim=(
        "What can_use_tool answers is what the CLI does: PermissionResultDeny(message=...) keeps the tool from "
        "running and the model gets the message in the tool result; PermissionResultDeny(interrupt=True) ends "
        "the turn; PermissionResultAllow(updated_input=...) runs the tool with the new input; "
        "PermissionResultAllow(updated_permissions=[addRules, destination 'session']) allows an identical later "
        "call without asking the callback again."
    ),
    summary="A deny stops the tool (interrupt: the turn); updated input and added rules apply",
    source=("sdk-py", "PermissionResultAllow, PermissionResultDeny"),
    tier="cli",
    checks=(
        "deny-tool-not-run",
        "deny-message-reaches-model",
        "deny-interrupt-ends-turn",
        "updated-input-runs-instead",
        "added-rule-not-asked-again",
    ),
    requires=("option:can_use_tool",),
    pins={
        "deny-tool-not-run": (
            "permission:PermissionResultDeny",
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
        ),
        "deny-message-reaches-model": (
            "permission:PermissionResultDeny",
            "permission:PermissionResultDeny.message",
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
        ),
        "deny-interrupt-ends-turn": (
            "permission:PermissionResultDeny",
            "permission:PermissionResultDeny.interrupt",
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
        ),
        "updated-input-runs-instead": (
            "permission:PermissionResultDeny",
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
        ),
        "added-rule-not-asked-again": (
            "permission:PermissionResultDeny",
            "permission:PermissionResultAllow.updated_permissions",
            "permission-update:type=addRules",
        ),
    },
    sdk_ref="claude_agent_sdk._internal.query.Query._handle_control_request",
    security="a deny or interrupt not honoured, or a rewritten input ignored, would run a tool the host refused",
)
async def permission_results_take_effect(h: Harness) -> dict[str, Any]:
    asked: list[str] = []
    script = [
        reply(tool_use("Bash", {"command": _touch(h, name), "description": "mark"}, id=tid))
        for tid, name in _STEPS.items()
    ]
    # a client: before 0.2.140 can_use_tool refused a string prompt to query()
    run = await h.cli("mark the files", script=[*script, "done"], client=True, can_use_tool=_deciding(h, asked))
    main = run.on(MAIN)
    last = main[-1] if main else None
    results: dict[str, Any] = {}
    for tid in _STEPS:
        block = last.tool_result(tid) if last else None
        results[tid] = (
            None if block is None else {"is_error": bool(block.get("is_error")), "text": result_text(block)[:200]}
        )
    return {
        "asked": asked,
        "files": {name: (h.cwd / name).exists() for name in (*_STEPS.values(), "rewritten.txt")},
        "tool_results": h.observe(results),
        "model_requests": len(main),
        "result": getattr(run.result, "subtype", None),
        "error": run.error_line,
    }


@permission_results_take_effect.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    files, results, asked = seen["files"], seen["tool_results"], seen["asked"]
    denied = results.get("toolu_deny")
    # the model is asked once per reply until the stop; a request after it means the turn went on
    requests_to_stop = list(_STEPS).index("toolu_stop") + 1
    return {
        "deny-tool-not-run": check(
            "denied.txt" in asked and not files["denied.txt"],
            f"callback asked for {asked}; denied.txt written: {files['denied.txt']}",
        ),
        "deny-message-reaches-model": check(
            denied is not None and denied["is_error"] and _HOST_DENY in denied["text"],
            f"the denied call's tool_result was {denied!r}",
        ),
        "deny-interrupt-ends-turn": check(
            "stopped.txt" in asked
            and not files["stopped.txt"]
            and not files["after.txt"]
            and seen["model_requests"] == requests_to_stop,
            f"stopped.txt written: {files['stopped.txt']}; the model was asked {seen['model_requests']} time(s) "
            f"({requests_to_stop} up to the interrupt); after.txt written: {files['after.txt']}; "
            f"result {seen['result']!r}",
        ),
        "updated-input-runs-instead": check(
            files["rewritten.txt"] and not files["original.txt"],
            f"rewritten.txt written: {files['rewritten.txt']}; original.txt written: {files['original.txt']}",
        ),
        "added-rule-not-asked-again": check(
            asked.count("ruled.txt") == 1
            and files["ruled.txt"]
            and results.get("toolu_rule2") is not None
            and not results["toolu_rule2"]["is_error"],
            f"the callback was asked {asked.count('ruled.txt')} time(s) for the two identical calls; "
            f"the second's tool_result {results.get('toolu_rule2')!r}",
        ),
    }


permission_results_take_effect.differs_on(
    {
        "asked": ["ruled.txt", "ruled.txt", "denied.txt", "original.txt", "stopped.txt", "after.txt"],
        "files": {
            "ruled.txt": True,
            "denied.txt": True,
            "original.txt": True,
            "stopped.txt": False,
            "after.txt": True,
            "rewritten.txt": False,
        },
        "tool_results": {
            "toolu_rule2": {"is_error": False, "text": ""},
            "toolu_deny": {"is_error": True, "text": "Permission denied"},
        },
        "model_requests": 7,
        "result": "success",
        "error": None,
    }
)

_FILES = ("a.txt", "b.txt", "c.txt")
_AFTER = "the model was asked again after the denial"


def _calls() -> Any:
    return reply(
        *(
            tool_use("Bash", {"command": f"touch {name}", "description": "probe"}, f"toolu_par_{name[0]}")
            for name in _FILES
        )
    )


async def _session(h: Harness, interrupt: bool) -> dict[str, Any]:
    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    asked: list[str] = []

    async def deny_a(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        command = str(tool_input.get("command", ""))
        asked.append(command)
        if "a.txt" in command:
            return PermissionResultDeny(message="not a", interrupt=interrupt)
        return PermissionResultAllow()

    for name in _FILES:
        (h.cwd / name).unlink(missing_ok=True)
    run = await h.cli(
        "touch three files",
        client=True,
        script=Script(main=[_calls(), _AFTER], fallback=reply("ok")),
        can_use_tool=deny_a,
    )
    result = run.result
    return {
        "asked": asked,
        "files": {name: (h.cwd / name).exists() for name in _FILES},
        "model requests": len(run.on(MAIN)),
        "result": None
        if result is None
        else {
            "subtype": result.subtype,
            "is_error": result.is_error,
            "terminal_reason": getattr(result, "terminal_reason", None),
        },
        "error": run.error_line,
    }


@behaviour(
    id="perms.deny-interrupt-stops-parallel",
    claim=(
        "A PermissionResultDeny with interrupt=True ends the turn: the denied tool does not run, nor do the other "
        "tool calls of the same assistant message, and the model is not asked again; with interrupt=False only "
        "the denied call is refused, the others run and the turn goes on."
    ),
    summary="Deny with interrupt=True stops the message's other calls; interrupt=False doesn't",
    source=("acp#425", "report"),
    tier="cli",
    checks=(
        "interrupting-deny-denied-tool-not-run",
        "interrupting-deny-stops-sibling-calls",
        "interrupting-deny-ends-turn",
        "plain-deny-siblings-run-turn-goes-on",
    ),
    controls=("plain-deny-siblings-run-turn-goes-on",),
    requires=("option:can_use_tool", "api:PermissionResultDeny"),
    pins={
        "interrupting-deny-denied-tool-not-run": ("permission:PermissionResultDeny.interrupt",),
        "interrupting-deny-stops-sibling-calls": ("permission:PermissionResultDeny.interrupt",),
        "interrupting-deny-ends-turn": ("permission:PermissionResultDeny.interrupt",),
    },
    sdk_ref="claude_agent_sdk.types.PermissionResultDeny",
    security="a denial meant to stop the turn would let the other commands the model queued beside it run",
    timeout=120,
)
async def deny_interrupt_stops_parallel(h: Harness) -> dict[str, Any]:
    return {
        "interrupt=True": await _session(h, True),
        "interrupt=False": await _session(h, False),
    }


@deny_interrupt_stops_parallel.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    stop, plain = seen["interrupt=True"], seen["interrupt=False"]

    def said(run: dict[str, Any]) -> str:
        return (
            f"asked for {run['asked']}, files made {run['files']}, the model asked {run['model requests']} time(s), "
            f"result {run['result']}, raised {run['error']}"
        )

    return {
        "interrupting-deny-denied-tool-not-run": check(
            bool(stop["asked"]) and not stop["files"]["a.txt"], f"interrupt=True: {said(stop)}"
        ),
        "interrupting-deny-stops-sibling-calls": check(
            not stop["files"]["b.txt"] and not stop["files"]["c.txt"], f"interrupt=True: {said(stop)}"
        ),
        "interrupting-deny-ends-turn": check(stop["model requests"] == 1, f"interrupt=True: {said(stop)}"),
        "plain-deny-siblings-run-turn-goes-on": check(
            not plain["files"]["a.txt"]
            and plain["files"]["b.txt"]
            and plain["files"]["c.txt"]
            and plain["model requests"] >= 2,
            f"interrupt=False: {said(plain)}",
        ),
    }


def _seen(files: dict[str, bool], requests: int) -> dict[str, Any]:
    return {
        "asked": ["touch a.txt", "touch b.txt", "touch c.txt"],
        "files": files,
        "model requests": requests,
        "result": {"subtype": "success", "is_error": False, "terminal_reason": None},
        "error": None,
    }


# interrupt dropped (claude-agent-acp#425 before its fix, read the other way): the siblings ran
# and the turn went on; and a plain deny that stopped everything.
deny_interrupt_stops_parallel.differs_on(
    {
        "interrupt=True": _seen({"a.txt": False, "b.txt": True, "c.txt": True}, 2),
        "interrupt=False": _seen({"a.txt": False, "b.txt": False, "c.txt": False}, 1),
    }
)
# The denied call itself ran.
deny_interrupt_stops_parallel.differs_on(
    {
        "interrupt=True": _seen({"a.txt": True, "b.txt": False, "c.txt": False}, 1),
        "interrupt=False": _seen({"a.txt": True, "b.txt": True, "c.txt": True}, 2),
    }
)
