"""Area `sessions`, reported: the rules of the session_id option; which session continue_conversation takes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check
from sdkprobe.harness import MAIN, CliRun, Harness

# --- sessions.session-id-option-rules ---------------------------------------------------

# Fixed ids, so that an observation is the same on every run (each is a valid UUID v4).
_GIVEN = "5d3c2b1a-0000-4000-8000-00000000a001"
_FORKED = "5d3c2b1a-0000-4000-8000-00000000a002"
_RESUMED = "5d3c2b1a-0000-4000-8000-00000000a003"
_CONTINUED = "5d3c2b1a-0000-4000-8000-00000000a004"
_NOT_UUID = "abc"
_NAMES = {_GIVEN: "the given id", _FORKED: "the fork's given id", _RESUMED: "resume's given id"}

# What the CLI says for each refusal (the 2.1.x texts), looked for in the error and stderr.
_INVALID, _IN_USE, _NEEDS_FORK = "Invalid session ID", "already in use", "--fork-session"


def _transcript_ids(config: Path) -> list[str]:
    """The ids of the main transcripts, <config>/projects/<key>/<id>.jsonl."""
    projects = config / "projects"
    return sorted(p.stem for p in projects.glob("*/*.jsonl")) if projects.is_dir() else []


def _named(sid: Any) -> str | None:
    return None if not sid else _NAMES.get(str(sid), "another id")


def _ran(run: CliRun, *texts: str) -> dict[str, Any]:
    """The ids a session showed, what it raised and which of the CLI's refusal texts it carried."""
    said = "\n".join([run.error or "", *run.stderr])
    return {
        "init id": _named(run.init.get("session_id")),
        "result id": _named(getattr(run.result, "session_id", None)),
        "raised": (run.error_line or "").split(":")[0] or None,
        "cli texts seen": [t for t in texts if t in said],
    }


@behaviour(
    id="sessions.session-id-option-rules",
    claim=(
        "session_id=<uuid> makes that uuid the new session's id (in init, in the ResultMessage and as the "
        "transcript's file name); a value that is no UUID, an id already in use, or session_id with resume or "
        "continue_conversation but without fork_session fails with the CLI's error; with resume and "
        "fork_session=True the fork gets the given id."
    ),
    summary="session_id names the session; a bad, taken or unforked-resume id fails",
    source=("cc#13676", "report"),
    tier="cli",
    checks=(
        "given-id-used",
        "non-uuid-refused",
        "id-in-use-refused",
        "resume-without-fork-refused",
        "fork-gets-given-id",
        "continue-without-fork-refused",
    ),
    requires=("option:session_id", "option:resume", "option:fork_session", "option:continue_conversation"),
    pins={
        "given-id-used": ("option:session_id",),
        "non-uuid-refused": ("option:session_id",),
        "id-in-use-refused": ("option:session_id",),
        "resume-without-fork-refused": ("option:session_id", "option:resume"),
        "fork-gets-given-id": ("option:session_id",),
        "continue-without-fork-refused": ("option:session_id",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.session_id",
    timeout=180,
)
async def session_id_option_rules(h: Harness) -> dict[str, Any]:
    fresh = await h.session("remember this", script=["ok"], session_id=_GIVEN)
    seen: dict[str, Any] = {
        "fresh": {
            **_ran(fresh),
            "transcripts": [_named(s) for s in _transcript_ids(h.config_dir)],
            "error": fresh.error_line,
        }
    }
    runs: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
        "not a uuid": ({"session_id": _NOT_UUID}, (_INVALID,)),
        "id in use": ({"session_id": _GIVEN}, (_IN_USE,)),
        "resume without fork": ({"session_id": _RESUMED, "resume": _GIVEN}, (_NEEDS_FORK,)),
        "resume with fork": ({"session_id": _FORKED, "resume": _GIVEN, "fork_session": True}, ()),
        "continue without fork": ({"session_id": _CONTINUED, "continue_conversation": True}, (_NEEDS_FORK,)),
    }
    for label, (options, texts) in runs.items():
        seen[label] = _ran(await h.session("and now?", script=["ok"], **options), *texts)
    return seen


@session_id_option_rules.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def said(label: str) -> str:
        s = seen[label]
        return (
            f"{label}: init session_id {s['init id']}, result session_id {s['result id']}, raised {s['raised']}, "
            f"CLI texts seen {s['cli texts seen']}"
        )

    def refused(label: str) -> Check:
        s = seen[label]
        return check(s["raised"] is not None and bool(s["cli texts seen"]), said(label))

    fresh, fork = seen["fresh"], seen["resume with fork"]
    return {
        "given-id-used": check(
            fresh["init id"] == fresh["result id"] == "the given id" and "the given id" in fresh["transcripts"],
            said("fresh") + f"; transcripts {fresh['transcripts']} (error {fresh['error']})",
        ),
        "non-uuid-refused": refused("not a uuid"),
        "id-in-use-refused": refused("id in use"),
        "resume-without-fork-refused": refused("resume without fork"),
        "fork-gets-given-id": check(
            fork["init id"] == fork["result id"] == "the fork's given id" and fork["raised"] is None,
            said("resume with fork"),
        ),
        "continue-without-fork-refused": refused("continue without fork"),
    }


def _seen_run(init: str | None, raised: str | None = None) -> dict[str, Any]:
    return {"init id": init, "result id": init, "raised": raised, "cli texts seen": []}


session_id_option_rules.differs_on(
    {
        "fresh": {**_seen_run("another id"), "transcripts": ["another id"], "error": None},
        "not a uuid": _seen_run("another id"),
        "id in use": _seen_run("the given id"),
        "resume without fork": _seen_run("resume's given id"),
        "resume with fork": _seen_run("another id"),
        "continue without fork": _seen_run("another id"),
    }
)


# --- sessions.continue-conversation-target ----------------------------------------------

_A1, _A2 = "CONT-MARK-A1", "CONT-MARK-A2"  # the prompts of dir A's older and newer session
_NO_CONVERSATION = "No conversation found"  # the CLI's text when there is nothing to continue


def _carried(run: CliRun) -> list[str]:
    """Which of dir A's markers any model request of a run carries (its history)."""
    return [m for m in (_A1, _A2) if any(r.carries(m) for r in run.requests)]


@behaviour(
    id="sessions.continue-conversation-target",
    claim=(
        "continue_conversation=True continues the most recent session of the cwd it runs in: the first model "
        "request carries that session's history and no older one's; in a cwd with no session the caller gets "
        "a clear error (or a fresh session), never the session of another directory."
    ),
    summary="continue_conversation picks cwd's newest session; none there never means another's",
    source=("cc#18282", "report"),
    tier="cli",
    checks=("continues-newest-of-cwd", "none-in-cwd-clear-outcome", "never-another-directory"),
    requires=("option:continue_conversation", "option:cwd"),
    pins={
        "continues-newest-of-cwd": ("option:continue_conversation", "option:cwd"),
        "none-in-cwd-clear-outcome": ("option:continue_conversation", "option:cwd"),
        "never-another-directory": ("option:continue_conversation",),
    },
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.continue_conversation",
    timeout=150,
)
async def continue_conversation_target(h: Harness) -> dict[str, Any]:
    older = await h.session(f"{_A1} first session", script=["ok"])
    newer = await h.session(f"{_A2} second session", script=["ok"])
    ids = {older.init.get("session_id"), newer.init.get("session_id")} - {None}
    here = await h.session("continue here", script=["continued"], continue_conversation=True)
    first = here.first(MAIN)
    elsewhere = await h.session(
        "continue elsewhere", script=["fresh"], continue_conversation=True, cwd=str(h.workdir("dir-b"))
    )
    said = "\n".join([elsewhere.error or "", *elsewhere.stderr])
    return {
        "in A": {
            "raised": (here.error_line or "").split(":")[0] or None,
            "first request carries": [] if first is None else [m for m in (_A1, _A2) if first.carries(m)],
            "result": getattr(here.result, "subtype", None),
        },
        "in B": {
            "raised": (elsewhere.error_line or "").split(":")[0] or None,
            "says no conversation": _NO_CONVERSATION in said,
            "result": getattr(elsewhere.result, "subtype", None),
            "requests carry": _carried(elsewhere),
            "continued an A session id": elsewhere.init.get("session_id") in ids,
        },
    }


@continue_conversation_target.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    a, b = seen["in A"], seen["in B"]
    clear = (b["raised"] is not None and b["says no conversation"]) or (
        b["raised"] is None and b["result"] == "success"
    )
    return {
        "continues-newest-of-cwd": check(
            a["raised"] is None and a["first request carries"] == [_A2],
            f"continuing in dir A: the first request carried {a['first request carries']} of [{_A1}, {_A2}] "
            f"(raised {a['raised']}, result {a['result']})",
        ),
        "none-in-cwd-clear-outcome": check(
            clear,
            f"continuing in dir B (no session): raised {b['raised']}, the CLI said {_NO_CONVERSATION!r}: "
            f"{b['says no conversation']}, result {b['result']}",
        ),
        "never-another-directory": check(
            not b["requests carry"] and not b["continued an A session id"],
            f"continuing in dir B: its requests carried dir A's markers {b['requests carry']}; it went on with one "
            f"of dir A's session ids: {b['continued an A session id']}",
        ),
    }


continue_conversation_target.differs_on(
    {
        "in A": {"raised": None, "first request carries": [_A1], "result": "success"},
        "in B": {
            "raised": "ProcessError",
            "says no conversation": False,
            "result": None,
            "requests carry": [_A2],
            "continued an A session id": True,
        },
    }
)
