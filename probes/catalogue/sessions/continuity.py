"""One conversation across prompts and processes: resume, fork, continue, session ids and the
streaming prompt."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.sessions.support import MARKER
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Conversation,
    Harness,
    Scenario,
    Script,
    config_dir_env,
    session_functions,
)

_FIRST = {
    "type": "user",
    "message": {"role": "user", "content": "first"},
    "parent_tool_use_id": None,
    "session_id": "default",
}
_NOT_READY = "ProcessTransport is not ready for writing"


def _two_turns() -> Scenario:
    """A CLI that answers a first and, if it comes, a second user message."""
    return (
        Scenario()
        .wait_for_user()
        .init()
        .assistant("one")
        .result(result="one")
        .wait_for_user()
        .assistant("two")
        .result(result="two")
    )


IterableRun = TypedDict(
    "IterableRun",
    {
        "stdin": list[str],  # what the SDK wrote to the CLI ("in:TYPE"), and "eof" when it closed its input
        "results": int,
        "second query": str | None,  # what the next query() raised
        "error": str | None,
    },
)
TwoQueries = TypedDict("TwoQueries", {"user lines": int, "results": list[str | None], "error": str | None})
OpenSeen = TypedDict("OpenSeen", {"iterable prompt": IterableRun, "no prompt, two queries": TwoQueries})


@behaviour(
    id="sessions.prompt-iterable-must-stay-open",
    claim=(
        "A multi-turn session needs its prompt iterable to stay open: once the iterable ends "
        "the SDK closes the CLI's input, and the next message fails with 'ProcessTransport is "
        "not ready for writing'; a client connected without a prompt takes several queries."
    ),
    summary="Once the prompt iterable ends the CLI's input closes, and the next message fails",
    source=("000", "Messages and results"),
    tier="wire",
    checks=("iterable-end-closes-stdin", "next-query-fails-not-ready", "open-client-takes-second-query"),
    sdk_ref="claude_agent_sdk._internal.query.Query.stream_input",
)
async def prompt_iterable_must_stay_open(h: Harness) -> OpenSeen:
    seen: dict[str, Any] = {}

    async def after_iterable(client: Any, out: Any) -> None:
        async for m in client.receive_response():
            out.messages.append(m)
        try:
            await client.query("second")
            seen["second_query"] = None
        except Exception as exc:  # what the SDK raises is the finding
            seen["second_query"] = f"{type(exc).__name__}: {exc}".splitlines()[0]

    closed = await h.wire([_FIRST], scenario=_two_turns(), client=True, connect_prompt=True, drive=after_iterable)

    async def two_queries(client: Any, out: Any) -> None:
        for prompt in ("first", "second"):
            await client.query(prompt)
            async for m in client.receive_response():
                out.messages.append(m)

    kept = await h.wire(None, scenario=_two_turns(), client=True, drive=two_queries)
    return {
        "iterable prompt": {
            # what the SDK wrote to the CLI, and when it closed its input
            "stdin": [t for t in closed.timeline() if t.startswith("in:") or t == "eof"],
            "results": len(closed.of_type("ResultMessage")),
            "second query": seen.get("second_query"),
            "error": closed.error_line,
        },
        "no prompt, two queries": {
            "user lines": len(kept.user_messages),
            "results": [getattr(r, "result", None) for r in kept.of_type("ResultMessage")],
            "error": kept.error_line,
        },
    }


@prompt_iterable_must_stay_open.decide
def _(seen: OpenSeen) -> dict[str, Check]:
    it, kept = seen["iterable prompt"], seen["no prompt, two queries"]
    stdin = [t for t in it["stdin"] if not t.startswith("in:control_")]
    second = it["second query"]
    return {
        "iterable-end-closes-stdin": check(
            stdin[:2] == ["in:user", "eof"], f"after the iterable's one message the CLI's stdin saw {stdin}"
        ),
        "next-query-fails-not-ready": check(
            it["results"] == 1 and second is not None and _NOT_READY in second,
            f"the first turn gave {it['results']} result(s); the next query() raised {second or 'nothing'}",
        ),
        "open-client-takes-second-query": check(
            kept["user lines"] == 2 and kept["results"] == ["one", "two"] and kept["error"] is None,
            f"connected without a prompt: {kept['user lines']} user line(s) sent, results {kept['results']}, "
            f"error {kept['error']}",
        ),
    }


prompt_iterable_must_stay_open.differs_on(
    {
        "iterable prompt": {
            "stdin": ["in:control_request/initialize", "in:user", "in:user"],
            "results": 1,
            "second query": None,
            "error": None,
        },
        "no prompt, two queries": {"user lines": 1, "results": ["one"], "error": "CLIConnectionError: closed"},
    }
)


def _texts(messages: list[Any]) -> list[str]:
    """The text blocks (or string content) of SDK messages, in order."""
    out: list[str] = []
    for m in messages:
        content = getattr(m, "content", None)
        if isinstance(content, str):
            out.append(content)
        for b in content if isinstance(content, list) else []:
            if isinstance(getattr(b, "text", None), str):
                out.append(b.text)
    return out


# What get_session_messages read back: its messages' types, and whether the old prompt was among them.
ReadBack = TypedDict("ReadBack", {"types": list[str | None], "has marker": bool})
RestoredSeen = TypedDict(
    "RestoredSeen",
    {
        "resumed session id kept": bool,
        "request has old turn": bool,
        "request has old reply": bool,
        "stream assistant texts": list[str],
        "stream user messages": int,
        "get_session_messages": ReadBack | None,  # None: this SDK has none
        "error": str | None,
    },
)


@behaviour(
    id="sessions.resume-restores-context-no-history",
    claim=(
        "A new process given resume=<the session id from system/init> continues with the old context "
        "(the model sees the earlier turn), but the SDK does not replay the old conversation to the "
        "caller; in Python, get_session_messages reads it back from disk."
    ),
    summary="Resuming restores the model's context but replays no old messages to the caller",
    source=("004", "Resuming a session"),
    tier="cli",
    checks=("resumed-request-has-old-turn", "stream-has-only-new-turn", "get-session-messages-reads-old-turn"),
    requires=("option:resume",),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.resume",
)
async def resume_restores_context_no_history(h: Harness) -> RestoredSeen:
    first = await h.cli(f"remember {MARKER}", script=["first-reply"])
    sid = str(first.init.get("session_id") or "")
    second = await h.cli("what was it?", script=["second-reply"], resume=sid)
    request = second.first(MAIN)
    reader = getattr(session_functions(), "get_session_messages", None)
    history = None
    if reader and sid:
        with config_dir_env(h.config_dir):
            history = reader(sid, directory=str(h.cwd))
    return {
        "resumed session id kept": bool(sid) and second.init.get("session_id") == sid,
        "request has old turn": request.carries(MARKER) if request else False,
        "request has old reply": request.carries("first-reply", role="assistant") if request else False,
        "stream assistant texts": _texts(second.of_type("AssistantMessage")),
        "stream user messages": len(second.of_type("UserMessage")),
        "get_session_messages": None
        if history is None
        else {
            "types": [getattr(m, "type", None) for m in history],
            "has marker": any(MARKER in str(getattr(m, "message", "")) for m in history),
        },
        "error": first.error_line or second.error_line,
    }


@resume_restores_context_no_history.decide
def _(seen: RestoredSeen) -> dict[str, Check]:
    texts, users, hist = seen["stream assistant texts"], seen["stream user messages"], seen["get_session_messages"]
    return {
        "resumed-request-has-old-turn": check(
            seen["request has old turn"] and seen["request has old reply"],
            f"the resumed run's first request had the old prompt: {seen['request has old turn']}, the old reply: "
            f"{seen['request has old reply']} (same session id: {seen['resumed session id kept']})",
        ),
        "stream-has-only-new-turn": check(
            texts == ["second-reply"] and users == 0,
            f"the resumed run yielded assistant texts {texts} and {users} UserMessage(s)",
        ),
        "get-session-messages-reads-old-turn": check(
            hist is not None and hist["has marker"],
            "this SDK has no get_session_messages"
            if hist is None
            else f"get_session_messages gave types {hist['types']}, old prompt among them: {hist['has marker']}",
        ),
    }


resume_restores_context_no_history.differs_on(
    {
        "resumed session id kept": False,
        "request has old turn": False,
        "request has old reply": False,
        "stream assistant texts": ["first-reply", "second-reply"],
        "stream user messages": 1,
        "get_session_messages": None,
        "error": None,
    }
)


# --- sessions.resume-keeps-id-fork-mints-new ---------------------------------------------


def _transcripts(config: Path) -> dict[str, bytes]:
    """Session id -> bytes of each main transcript, <config>/projects/<key>/<id>.jsonl
    (a subagent's files sit one folder deeper and are left out)."""
    projects = config / "projects"
    return {p.stem: p.read_bytes() for p in projects.glob("*/*.jsonl")} if projects.is_dir() else {}


def _named(ids: dict[str, str]) -> Callable[[Any], str | None]:
    """Names a session id by the first run that showed it (`ids`: id -> name), else "new"."""

    def name(sid: Any) -> str | None:
        return None if not sid else ids.get(str(sid), "new")

    return name


_ASK_RESUMED, _ASK_FORKED = "what was it?", "and now, forked?"

# Session ids are named: "run 1", "new" (any other), None (none shown).
Resumed = TypedDict(
    "Resumed",
    {
        "init id": str | None,
        "result id": str | None,
        "transcripts holding its prompt": list[str],
        "request has run 1": bool,
        "error": str | None,
    },
)
Forked = TypedDict(
    "Forked",
    {
        "init id": str | None,
        "result id": str | None,
        "new transcripts holding its prompt": list[str | None],
        "new transcript has run 1": bool,
        "run 1 transcript unchanged": bool,
        "error": str | None,
    },
)
_Run1 = TypedDict("_Run1", {"run 1 session id": str | None})


class ForkSeen(_Run1, total=False):  # resume and fork when run 1 showed a session id, else its error
    resume: Resumed
    fork: Forked
    error: str | None


@behaviour(
    id="sessions.resume-keeps-id-fork-mints-new",
    claim=(
        "Resuming with resume=<id> continues under that same session id (and the same transcript "
        "file), so storing one id is enough; only fork_session=True starts a new id, copying the "
        "history into a new transcript and leaving the original untouched."
    ),
    summary="Resuming keeps the session id; only fork_session=True starts a new one",
    source=("cc#8069", "report"),
    tier="cli",
    checks=(
        "resume-keeps-id",
        "resume-continues-same-transcript",
        "fork-mints-new-id",
        "fork-copies-history-keeps-original",
    ),
    requires=("option:resume", "option:fork_session"),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.fork_session",
    timeout=120,
    pins={"resume-keeps-id": ("option:resume",), "resume-continues-same-transcript": ("option:resume",)},
)
async def resume_keeps_id_fork_mints_new(h: Harness) -> ForkSeen:
    first = await h.cli(f"remember {MARKER}", script=["first-reply"])
    sid = str(first.init.get("session_id") or "")
    if not sid:
        return {"run 1 session id": None, "error": first.error_line}
    before = _transcripts(h.config_dir)
    resumed = await h.cli(_ASK_RESUMED, script=["second-reply"], resume=sid)
    after_resume = _transcripts(h.config_dir)
    name = _named({sid: "run 1"})
    request = resumed.first(MAIN)
    forked = await h.cli(_ASK_FORKED, script=["third-reply"], resume=sid, fork_session=True)
    after_fork = _transcripts(h.config_dir)
    # old CLIs also write transcripts of their own side requests: only those holding the
    # prompt of the run tell where its conversation went
    made = sorted(s for s in set(after_fork) - set(after_resume) if _ASK_FORKED.encode() in after_fork[s])
    return {
        "run 1 session id": "run 1",
        "resume": {
            "init id": name(resumed.init.get("session_id")),
            "result id": name(getattr(resumed.result, "session_id", None)),
            "transcripts holding its prompt": sorted(
                name(s) or "" for s, b in after_resume.items() if before.get(s) != b and _ASK_RESUMED.encode() in b
            ),
            "request has run 1": request is not None and request.carries(MARKER),
            "error": resumed.error_line,
        },
        "fork": {
            "init id": name(forked.init.get("session_id")),
            "result id": name(getattr(forked.result, "session_id", None)),
            "new transcripts holding its prompt": [name(s) for s in made],
            "new transcript has run 1": any(MARKER.encode() in after_fork[s] for s in made),
            "run 1 transcript unchanged": after_fork.get(sid) == after_resume.get(sid),
            "error": forked.error_line,
        },
    }


@resume_keeps_id_fork_mints_new.decide
def _(seen: ForkSeen) -> dict[str, Check]:
    if seen["run 1 session id"] is None:
        said = f"run 1 showed no session id (error {seen['error']})"
        return {name: check(False, said) for name in resume_keeps_id_fork_mints_new.behaviour.checks}
    r, f = seen["resume"], seen["fork"]
    return {
        "resume-keeps-id": check(
            r["init id"] == "run 1" and r["result id"] == "run 1",
            f"resume=<run 1's id> gave init session_id {r['init id']}, result session_id {r['result id']} "
            f"(error {r['error']})",
        ),
        "resume-continues-same-transcript": check(
            r["transcripts holding its prompt"] == ["run 1"] and r["request has run 1"],
            f"transcripts holding the resumed run's prompt: {r['transcripts holding its prompt']}; its request held "
            "run 1's prompt: "
            f"{r['request has run 1']}",
        ),
        "fork-mints-new-id": check(
            f["init id"] == "new" and f["result id"] == "new",
            f"fork_session=True gave init session_id {f['init id']}, result session_id {f['result id']} "
            f"(error {f['error']})",
        ),
        "fork-copies-history-keeps-original": check(
            f["new transcripts holding its prompt"] == ["new"]
            and f["new transcript has run 1"]
            and f["run 1 transcript unchanged"],
            f"new transcripts holding the fork's prompt: {f['new transcripts holding its prompt']} (with run 1's: "
            f"{f['new transcript has run 1']}); run 1's transcript unchanged: {f['run 1 transcript unchanged']}",
        ),
    }


resume_keeps_id_fork_mints_new.differs_on(
    {
        "run 1 session id": "run 1",
        "resume": {
            "init id": "new",
            "result id": "new",
            "transcripts holding its prompt": ["new"],
            "request has run 1": True,
            "error": None,
        },
        "fork": {
            "init id": "run 1",
            "result id": "run 1",
            "new transcripts holding its prompt": [],
            "new transcript has run 1": False,
            "run 1 transcript unchanged": False,
            "error": None,
        },
    }
)


# --- sessions.resume-scoped-to-cwd ----------------------------------------------------------

_MISSING_SID = "00000000-0000-4000-8000-00000000d1e5"  # a well-formed id no session has


def _said(text: Any, names: dict[str, str]) -> Any:
    """`text` (one line) with each session id replaced by its name."""
    if not isinstance(text, str):
        return text
    for sid, label in names.items():
        text = text.replace(sid, label)
    return text


# One resumed run, its session ids named (<SID>: run 1's, <MISSING>: one no session has).
Resumption = TypedDict(
    "Resumption",
    {
        "yielded": list[str],  # the kinds of message
        "init id": str | None,
        "model requests": int,
        "request has run 1": bool,
        "exception": str | None,
        "stderr": list[str],  # the lines naming a session id
    },
)
ScopedSeen = TypedDict("ScopedSeen", {"run 1 session id seen": bool, "other cwd": Resumption, "missing id": Resumption})


@behaviour(
    id="sessions.resume-scoped-to-cwd",
    claim=(
        "resume=<id> finds the session whatever the working directory, and resuming a session "
        "that does not exist raises a Python exception that says so."
    ),
    summary="resume=<id> finds a session from any cwd; an unknown id raises an error",
    source=("ts#47", "report"),
    tier="cli",
    checks=("resume-found-from-other-cwd", "missing-session-clear-exception"),
    requires=("option:resume",),
    sdk_ref="claude_agent_sdk.types.ClaudeAgentOptions.resume",
    timeout=120,
    pins={"resume-found-from-other-cwd": ("option:resume",)},
)
async def resume_scoped_to_cwd(h: Harness) -> ScopedSeen:
    first = await h.cli(f"remember {MARKER}", script=["first-reply"])
    sid = str(first.init.get("session_id") or "")
    names = {sid: "<SID>", _MISSING_SID: "<MISSING>"} if sid else {_MISSING_SID: "<MISSING>"}
    elsewhere = await h.cli("what was it?", script=["second-reply"], resume=sid, cwd=str(h.workdir("elsewhere")))
    missing = await h.cli("what was it?", script=["second-reply"], resume=_MISSING_SID)

    def seen(run: Any) -> Resumption:
        main = run.on(MAIN)
        return {
            "yielded": [type(m).__name__ for m in run.messages],
            "init id": _said(run.init.get("session_id"), names),
            "model requests": len(main),
            "request has run 1": any(r.carries(MARKER) for r in main[:1]),
            "exception": _said(run.error_line, names),
            "stderr": [_said(line.strip(), names) for line in run.stderr if any(s in line for s in names)],
        }

    return {"run 1 session id seen": bool(sid), "other cwd": seen(elsewhere), "missing id": seen(missing)}


@resume_scoped_to_cwd.decide
def _(seen: ScopedSeen) -> dict[str, Check]:
    other, missing = seen["other cwd"], seen["missing id"]
    error = missing["exception"] or ""
    return {
        "resume-found-from-other-cwd": check(
            other["init id"] == "<SID>" and other["request has run 1"] and other["exception"] is None,
            f"resumed from another cwd: init session_id {other['init id']}, run 1's prompt in its request: "
            f"{other['request has run 1']}, {other['model requests']} model request(s), yielded "
            f"{other['yielded']}, exception {other['exception']}",
        )
        if seen["run 1 session id seen"]
        else undecidable("the first run showed no session id, so there was nothing to resume"),
        "missing-session-clear-exception": check(
            "<MISSING>" in error or "No conversation found" in error,
            f"resume=<missing id> raised {missing['exception']} after yielding {missing['yielded']} "
            f"({missing['model requests']} model request(s); stderr {missing['stderr']})",
        ),
    }


resume_scoped_to_cwd.differs_on(
    {
        "run 1 session id seen": True,
        "other cwd": {
            "yielded": [],
            "init id": None,
            "model requests": 0,
            "request has run 1": False,
            "exception": "ProcessError: Command failed with exit code 1 (exit code: 1)",
            "stderr": ["No conversation found with session ID: <SID>"],
        },
        "missing id": {
            "yielded": [],
            "init id": None,
            "model requests": 0,
            "request has run 1": False,
            "exception": "ProcessError: Command failed with exit code 1 (exit code: 1)",
            "stderr": ["No conversation found with session ID: <MISSING>"],
        },
    }
)


# --- sessions.query-session-id-shares-context -----------------------------------------------

_SECRET = "ALPHA-5531"
_ASK_B = "what did I say?"

QueriedSeen = TypedDict(
    "QueriedSeen",
    {
        "user line session ids": list[str | None],
        "B requests": int,
        "B request has A turn": bool,
        "result session ids": list[str | None],  # "A", "B", "the CLI's id of turn 1", "another CLI id", None
        "error": str | None,
    },
)


@behaviour(
    id="sessions.query-session-id-shares-context",
    claim=(
        "client.query(prompt, session_id='B') starts a conversation kept apart from the one under "
        "session_id='A' in the same client: B's model request does not carry what was said under A."
    ),
    summary="Queries under different session_ids in one client keep their conversations apart",
    source=("cc#24605", "report"),
    tier="cli",
    checks=("session-id-reaches-cli", "b-request-lacks-a-turn", "b-result-has-own-session-id"),
    requires=("api:ClaudeSDKClient.query",),
    sdk_ref="claude_agent_sdk.client.ClaudeSDKClient.query",
    pins={
        "session-id-reaches-cli": ("client:query",),
        "b-request-lacks-a-turn": ("client:query",),
        "b-result-has-own-session-id": ("client:query",),
    },
)
async def query_session_id_shares_context(h: Harness) -> QueriedSeen:
    async def two_ids(client: Any, out: Any) -> None:
        for prompt, session in ((f"remember {_SECRET}", "A"), (_ASK_B, "B")):
            await client.query(prompt, session_id=session)
            async for m in client.receive_response():
                out.messages.append(m)

    wired = await h.wire(None, scenario=_two_turns(), client=True, drive=two_ids)

    async def steps(c: Conversation) -> None:
        for prompt, session in ((f"remember {_SECRET}", "A"), (_ASK_B, "B")):
            await c.send(prompt, session_id=session)
            await c.response()

    run = await h.converse(steps, script=Script(main=["noted", "you said nothing"]))
    asked_b = [r for r in run.on(MAIN) if r.texts("user")[-1:] == [_ASK_B]]
    ids = [getattr(r, "session_id", None) for t in run.turns for r in t if type(r).__name__ == "ResultMessage"]

    def named(sid: Any) -> str | None:
        return sid if sid in ("A", "B", None) else ("the CLI's id of turn 1" if sid == ids[0] else "another CLI id")

    return {
        "user line session ids": [m.get("session_id") for m in wired.user_messages],
        "B requests": len(asked_b),
        "B request has A turn": any(_SECRET in t for r in asked_b[:1] for t in r.texts()),
        "result session ids": [named(s) for s in ids],
        "error": run.error_line or wired.error_line,
    }


@query_session_id_shares_context.decide
def _(seen: QueriedSeen) -> dict[str, Check]:
    ids = seen["result session ids"]
    return {
        "session-id-reaches-cli": check(
            seen["user line session ids"] == ["A", "B"],
            f"the user lines the SDK wrote carried session_id {seen['user line session ids']}",
        ),
        "b-request-lacks-a-turn": check(
            seen["B requests"] >= 1 and not seen["B request has A turn"],
            f"the model request for B's prompt carried A's secret: {seen['B request has A turn']} "
            f"({seen['B requests']} such request(s); error {seen['error']})",
        ),
        "b-result-has-own-session-id": check(
            len(ids) == 2 and ids[1] != ids[0],
            f"the two turns' ResultMessage.session_id: {ids}",
        ),
    }


query_session_id_shares_context.differs_on(
    {
        "user line session ids": ["default", "default"],
        "B requests": 1,
        "B request has A turn": True,
        "result session ids": ["the CLI's id of turn 1", "the CLI's id of turn 1"],
        "error": None,
    }
)

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


def _name_of(sid: Any) -> str | None:
    return None if not sid else _NAMES.get(str(sid), "another id")


# One run (the observation is keyed by run): its session ids named (_NAMES, "another id", None), what it
# raised, which of the CLI's refusal texts it carried; the "fresh" run also its transcripts and error.
_Ran = TypedDict(
    "_Ran", {"init id": str | None, "result id": str | None, "raised": str | None, "cli texts seen": list[str]}
)


class Ran(_Ran, total=False):
    transcripts: list[str | None]
    error: str | None


def _ran(run: CliRun, *texts: str) -> Ran:
    """The ids a session showed, what it raised and which of the CLI's refusal texts it carried."""
    said = "\n".join([run.error or "", *run.stderr])
    return {
        "init id": _name_of(run.init.get("session_id")),
        "result id": _name_of(getattr(run.result, "session_id", None)),
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
async def session_id_option_rules(h: Harness) -> dict[str, Ran]:
    fresh = await h.cli("remember this", script=["ok"], session_id=_GIVEN)
    seen: dict[str, Ran] = {
        "fresh": {
            **_ran(fresh),
            "transcripts": [_name_of(s) for s in _transcript_ids(h.config_dir)],
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
        seen[label] = _ran(await h.cli("and now?", script=["ok"], **options), *texts)
    return seen


@session_id_option_rules.decide
def _(seen: dict[str, Ran]) -> dict[str, Check]:
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


def _seen_run(init: str | None, raised: str | None = None) -> Ran:
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


InA = TypedDict("InA", {"raised": str | None, "first request carries": list[str], "result": str | None})
InB = TypedDict(
    "InB",
    {
        "raised": str | None,
        "says no conversation": bool,
        "result": str | None,
        "requests carry": list[str],
        "continued an A session id": bool,
    },
)
ContinuedSeen = TypedDict("ContinuedSeen", {"in A": InA, "in B": InB})


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
async def continue_conversation_target(h: Harness) -> ContinuedSeen:
    older = await h.cli(f"{_A1} first session", script=["ok"])
    newer = await h.cli(f"{_A2} second session", script=["ok"])
    ids = {older.init.get("session_id"), newer.init.get("session_id")} - {None}
    here = await h.cli("continue here", script=["continued"], continue_conversation=True)
    first = here.first(MAIN)
    elsewhere = await h.cli(
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
def _(seen: ContinuedSeen) -> dict[str, Check]:
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
