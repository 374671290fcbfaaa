"""Area `process`: the CLI as a child process of the host: its stdin, its exit, the terminal.

The two readline claims are about Node's `readline` module, which the Python SDK never
touches: their Node sub-checks are declared `cannot_decide`, and each carries a Python
analogue that can be observed (what the analogue is, and why, is said at each).
"""

from __future__ import annotations

import sys
from typing import Any

from probes.behaviour import Check, behaviour, check, undecidable
from probes.harness import MAIN, Harness, Scenario, reply, result_text, tool_use

_NODE_ONLY = "Node's readline module; the Python SDK has no counterpart to run"

QUESTION = "SDKPROBE-QUESTION? "
QUESTION_CALL_ID = "toolu_double_question"


@behaviour(
    id="process.readline-question-non-tty",
    claim=(
        "Node's readline.question() prints its question to stdout even when stdin is not a terminal, "
        "where nobody can ever answer it; Python's input() behaves the same way."
    ),
    source=("000", "Terminal"),
    tier="cli",
    checks=("node-question-printed-without-tty", "python-input-prompt-printed-without-tty"),
    requires=("option:tools", "option:allowed_tools"),
    cannot_decide=("node-question-printed-without-tty",),
)
async def readline_question_non_tty(h: Harness) -> dict[str, Any]:
    # The CLI's Bash tool runs commands with no terminal on stdin: a scripted call runs
    # this interpreter's input() there, stdin from /dev/null, and the tool_result shows
    # what it printed before it failed to read.
    command = f"{sys.executable} -c 'input(\"{QUESTION}\")' < /dev/null 2>&1; echo exit=$?"
    call = tool_use("Bash", {"command": command, "description": "ask without a tty"}, QUESTION_CALL_ID)
    run = await h.session("ask", script=[reply(call), "done"], tools=["Bash"], allowed_tools=["Bash"])
    block = next((b for r in run.on(MAIN) if (b := r.tool_result(QUESTION_CALL_ID)) is not None), None)
    out = result_text(block)
    return {
        "tool_ran": block is not None and not block.get("is_error"),
        "prompt_printed": QUESTION.strip() in out,
        "eof_error": "EOFError" in out,
        "exit_line": next((line.strip() for line in out.splitlines() if line.strip().startswith("exit=")), None),
    }


@readline_question_non_tty.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    return {
        "node-question-printed-without-tty": undecidable(_NODE_ONLY),
        "python-input-prompt-printed-without-tty": check(
            seen["tool_ran"] and seen["prompt_printed"],
            f"the Bash tool ran: {seen['tool_ran']}; prompt printed: {seen['prompt_printed']}, "
            f"EOFError: {seen['eof_error']}, {seen['exit_line']}",
        ),
    }


readline_question_non_tty.differs_on(
    {"tool_ran": True, "prompt_printed": False, "eof_error": True, "exit_line": "exit=1"}
)


STDERR_LINE = "sdkprobe: the CLI writes to stderr\n"


@behaviour(
    id="process.readline-prevrows-stale",
    claim=(
        "Node readline's prevRows bookkeeping goes stale when other code writes to the terminal, so an "
        "interactive chat has to reset it after every such write; in Python the CLI child's stderr is "
        "what writes behind the host's back, and the stderr callback is how a host learns of each write."
    ),
    source=("000", "Terminal"),
    tier="wire",
    checks=("node-prevrows-stale-after-foreign-write", "cli-stderr-reaches-host-callback"),
    requires=("option:stderr",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.connect",
    cannot_decide=("node-prevrows-stale-after-foreign-write",),
)
async def readline_prevrows_stale(h: Harness) -> dict[str, Any]:
    lines: list[str] = []
    run = await h.wire("hi", scenario=Scenario().init().stderr(STDERR_LINE).turn(), stderr=lines.append)
    return {
        "callback_lines": [line.rstrip("\n") for line in lines if "sdkprobe" in line],
        "error": run.error,
    }


@readline_prevrows_stale.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    got = seen["callback_lines"]
    return {
        "node-prevrows-stale-after-foreign-write": undecidable(_NODE_ONLY),
        "cli-stderr-reaches-host-callback": check(
            got == [STDERR_LINE.rstrip("\n")],
            f"the stderr callback got {got}" + (f"; the run failed: {seen['error']}" if seen["error"] else ""),
        ),
    }


readline_prevrows_stale.differs_on({"callback_lines": [], "error": None})


_SIGTERM_STATUSES = (-15, 143)  # the SDK's terminate(): the signal itself, or a CLI that caught it


@behaviour(
    id="process.exit-on-stdin-close",
    claim=(
        "A process driven over stdin/stdout must exit once its stdin closes, or orphans pile up; "
        "the bundled CLI ends on its own when the SDK closes its stdin, and no CLI process is left "
        "behind once a query() is done."
    ),
    source=("004", "Houd de runner netjes"),
    tier="cli",
    checks=("cli-exits-on-stdin-eof", "no-cli-left-after-query"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport.close",
)
async def exit_on_stdin_close(h: Harness) -> dict[str, Any]:
    run = await h.session("hi", script=["ok"])
    return {
        "result_seen": run.result is not None,
        "exit_code": run.exit_code,
        # whether any process of the session's tree outlived the SDK (how many varies run to run)
        "processes_left": bool(run.leftovers),
    }


@exit_on_stdin_close.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    code = seen["exit_code"]
    if code in _SIGTERM_STATUSES:
        own: Check = undecidable(
            f"the SDK sent SIGTERM right after closing stdin (status {code}), so whether the CLI "
            "would have ended on the EOF alone was not observed"
        )
    else:
        own = check(
            code is not None and code >= 0,
            "the CLI was still running after the SDK was done and the harness killed it"
            if code is None
            else f"the CLI ended with status {code}",
        )
    return {
        "cli-exits-on-stdin-eof": own,
        "no-cli-left-after-query": check(
            not seen["processes_left"],
            f"process(es) of the session's tree still ran after the SDK was done (the CLI's own status: {code})",
        ),
    }


exit_on_stdin_close.differs_on({"result_seen": True, "exit_code": None, "processes_left": True})
