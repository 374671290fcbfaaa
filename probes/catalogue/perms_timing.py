"""Area `perms`, topic timing: what a denial with `interrupt=True` stops, when the model asked
for several tools in one message (CATALOGUE-4 Part B2).

Two real-CLI sessions with the same scripted assistant message (three Bash calls); the
can_use_tool callback denies the first, with interrupt=True in one session and False in the
other, and allows the rest. What ran is read from the files the calls make; whether the turn
went on, from the requests the model double got after that message.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import MAIN, Harness, Script, reply, tool_use

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
    run = await h.session(
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
