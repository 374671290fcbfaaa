"""Transcript files on disk: where they live, and the functions that read and change them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.sessions.support import (
    A1,
    AGENT,
    CHAIN,
    FIRST_PROMPT,
    INFO,
    OTHER_SID,
    SID,
    SPAWNED_BY,
    SUB_CHAIN,
    TITLE,
    Absent,
    Read,
    Rows,
    absent,
    absent_or,
    brief,
    claimed_rows,
    fork_shape,
    forked_rows,
    function,
    has_parent_ids,
    info_dict,
    info_without,
    is_fresh,
    message_rows,
    same_fields,
    write_transcript,
)
from sdkprobe.harness import (
    Harness,
    config_dir_env,
    session_functions,
)

RootSeen = TypedDict(
    "RootSeen",
    {
        "session id seen": bool,
        "transcripts": list[str],  # under the moved root, its key and session id named <KEY> and <SID>
        "list_sessions finds it": bool,
        "listed": int,
        "error": str | None,
    },
)


@behaviour(
    id="sessions.config-dir-moves-root-only",
    claim=(
        "CLAUDE_CONFIG_DIR moves only the root of the CLI's storage: the transcript still lands in "
        "<dir>/projects/<key of the cwd>/<session id>.jsonl, where list_sessions finds it."
    ),
    summary="CLAUDE_CONFIG_DIR moves only the storage root; projects/<cwd key>/ stays fixed",
    source=("000", "Sessions"),
    tier="cli",
    checks=("transcript-at-projects-key-sid", "list-sessions-finds-it"),
    requires=("api:list_sessions", "api:project_key_for_directory"),
    sdk_ref="claude_agent_sdk._internal.sessions.list_sessions",
    pins={
        "transcript-at-projects-key-sid": ("function:project_key_for_directory",),
        "list-sessions-finds-it": ("function:list_sessions",),
    },
)
async def config_dir_moves_root_only(h: Harness) -> RootSeen:
    import claude_agent_sdk as py_sdk  # project_key_for_directory: Python's alone (requires= says so)

    sdk = session_functions()
    cfg = h.workdir("cfgA")
    run = await h.cli("hi", script=["ok"], env={"CLAUDE_CONFIG_DIR": str(cfg)})
    sid = str(run.init.get("session_id") or "")
    key = py_sdk.project_key_for_directory(str(h.cwd))
    # every transcript the CLI wrote under the moved root, ids and key named, not spelled
    files = sorted(
        str(p.relative_to(cfg)).replace(key, "<KEY>").replace(sid, "<SID>") if sid else str(p.relative_to(cfg))
        for p in cfg.rglob("*.jsonl")
    )
    with config_dir_env(cfg):
        listed = sdk.list_sessions(directory=str(h.cwd))
    return {
        "session id seen": bool(sid),
        "transcripts": files,
        "list_sessions finds it": any(getattr(s, "session_id", None) == sid for s in listed) if sid else False,
        "listed": len(listed),
        "error": run.error_line,
    }


@config_dir_moves_root_only.decide
def _(seen: RootSeen) -> dict[str, Check]:
    return {
        "transcript-at-projects-key-sid": check(
            "projects/<KEY>/<SID>.jsonl" in seen["transcripts"],
            f"transcripts under CLAUDE_CONFIG_DIR: {seen['transcripts']} (session id seen: {seen['session id seen']})",
        ),
        "list-sessions-finds-it": check(
            seen["list_sessions finds it"],
            f"list_sessions(directory=cwd) with the same CLAUDE_CONFIG_DIR listed {seen['listed']} session(s), "
            f"this one {'among them' if seen['list_sessions finds it'] else 'not among them'}",
        ),
    }


config_dir_moves_root_only.differs_on(
    {
        "session id seen": True,
        "transcripts": ["sessions/<SID>.jsonl"],
        "list_sessions finds it": False,
        "listed": 0,
        "error": None,
    }
)
# the main chain as get_session_messages must give it: (uuid name, type, text)


def _raised(call: Callable[[], Any]) -> str | None:
    """The exception's type a call raised (None when it returned)."""
    try:
        call()
    except Exception as exc:  # which exception the SDK raises is the finding
        return type(exc).__name__
    return None


# --- sessions.transcript-readers -----------------------------------------------------


class Undirected(TypedDict):
    messages: Rows
    info: dict[str, Any] | str | None


Unknown = TypedDict(
    "Unknown",
    {
        "messages unknown": Rows,
        "messages invalid": Rows,
        "info unknown": dict[str, Any] | None,
        "info invalid": dict[str, Any] | None,
    },
)
_Reads = TypedDict(
    "_Reads",
    {
        "info": dict[str, Any] | Absent | None,  # info_dict's SDKSessionInfo
        "messages": Rows,
        "messages limit 2 offset 1": Rows,
        "without directory": Undirected,
        "unknown or invalid id": Unknown,
        "subagents": list[str] | Absent,
        "subagent messages": Rows | Absent,
        "unknown subagent": Rows | None,
    },
)
_SupportSeen = TypedDict("_SupportSeen", {"subagent ids supported": bool}, total=False)  # added after the reads


class ReadersSeen(_Reads, _SupportSeen):
    pass


@behaviour(
    id="sessions.transcript-readers",
    claim=(
        "Given the session id and the project directory (or no directory: every project is searched), "
        "get_session_info reads the session's metadata from its transcript (the custom title as summary "
        "and title, the first prompt, cwd, tag, created_at from the first timestamp, the file's size), "
        "get_session_messages its user and assistant messages along the parentUuid chain in order "
        "(limit and offset paging them), list_subagents the ids of its subagent transcripts and "
        "get_subagent_messages a subagent's messages, each carrying the spawning Agent tool_use id from "
        "the .meta.json beside it; an unknown or invalid id gives None or an empty list."
    ),
    summary="The transcript readers give a session's info, messages, subagents and their messages",
    source=("sdk-py", "get_session_messages"),
    tier="wire",
    checks=(
        "info-read-from-transcript",
        "messages-follow-chain-in-order",
        "messages-paged-by-limit-offset",
        "found-without-directory",
        "nothing-for-unknown-or-invalid-id",
        "subagents-listed",
        "subagent-messages-read",
        "subagent-messages-name-spawning-tool-use",
    ),
    requires=("api:get_session_messages",),
    pins={
        "info-read-from-transcript": ("function:get_session_info",),
        "messages-follow-chain-in-order": ("function:get_session_messages",),
        "messages-paged-by-limit-offset": ("function:get_session_messages",),
        "found-without-directory": ("function:get_session_info",),
        "nothing-for-unknown-or-invalid-id": ("function:get_session_messages",),
        "subagents-listed": ("function:list_subagents",),
        "subagent-messages-read": ("function:get_subagent_messages",),
        "subagent-messages-name-spawning-tool-use": ("function:get_subagent_messages",),
    },
    sdk_ref="claude_agent_sdk._internal.sessions.get_session_messages",
)
async def transcript_readers(h: Harness) -> ReadersSeen:
    main = write_transcript(h)
    size = main.stat().st_size
    where = str(h.cwd)
    info, messages = function("get_session_info"), function("get_session_messages")
    subagents, sub_messages = function("list_subagents"), function("get_subagent_messages")
    assert messages is not None  # required
    with config_dir_env(h.config_dir):
        seen: ReadersSeen = {
            "info": info_dict(h, info(SID, directory=where), size) if info else absent("get_session_info"),
            "messages": message_rows(messages(SID, directory=where)),
            "messages limit 2 offset 1": message_rows(messages(SID, directory=where, limit=2, offset=1)),
            "without directory": {
                "messages": message_rows(messages(SID)),
                "info": info_dict(h, info(SID), size) if info else "no get_session_info",
            },
            "unknown or invalid id": {
                "messages unknown": message_rows(messages(OTHER_SID, directory=where)),
                "messages invalid": message_rows(messages("not-a-uuid", directory=where)),
                "info unknown": info_dict(h, info(OTHER_SID, directory=where)) if info else None,
                "info invalid": info_dict(h, info("not-a-uuid", directory=where)) if info else None,
            },
            "subagents": subagents(SID, directory=where) if subagents else absent("list_subagents"),
            "subagent messages": message_rows(sub_messages(SID, AGENT, directory=where))
            if sub_messages
            else absent("get_subagent_messages"),
            "unknown subagent": message_rows(sub_messages(SID, "nobody", directory=where)) if sub_messages else None,
        }
    seen["subagent ids supported"] = has_parent_ids()
    return seen


@transcript_readers.decide
def _(seen: ReadersSeen) -> dict[str, Check]:
    unknown, without = seen["unknown or invalid id"], seen["without directory"]
    sub = seen["subagent messages"]
    return {
        "info-read-from-transcript": absent_or(
            seen, "info", lambda info: check(same_fields(info, INFO), f"get_session_info gave {info}")
        ),
        "messages-follow-chain-in-order": check(
            seen["messages"] == claimed_rows(CHAIN), f"get_session_messages gave {seen['messages']}"
        ),
        "messages-paged-by-limit-offset": check(
            seen["messages limit 2 offset 1"] == claimed_rows(CHAIN[1:3]),
            f"limit=2, offset=1 gave {seen['messages limit 2 offset 1']}",
        ),
        "found-without-directory": check(
            without["messages"] == claimed_rows(CHAIN)
            and (without["info"] == "no get_session_info" or same_fields(without["info"], INFO)),
            f"with no directory get_session_messages gave {without['messages']}, get_session_info {without['info']}",
        ),
        "nothing-for-unknown-or-invalid-id": check(
            unknown["messages unknown"] == [] == unknown["messages invalid"]
            and unknown["info unknown"] is None is unknown["info invalid"]
            and seen["unknown subagent"] in (None, []),
            f"an unknown or invalid id gave {unknown}; an unknown agent id {seen['unknown subagent']}",
        ),
        "subagents-listed": absent_or(
            seen, "subagents", lambda ids: check(ids == [AGENT], f"list_subagents gave {ids}")
        ),
        "subagent-messages-read": absent_or(
            seen,
            "subagent messages",
            lambda got: check([row[:3] for row in got] == claimed_rows(SUB_CHAIN), f"get_subagent_messages gave {got}"),
        ),
        "subagent-messages-name-spawning-tool-use": undecidable("this SDK's SessionMessage has no subagent parent ids")
        if not seen["subagent ids supported"]
        else absent_or(
            seen,
            "subagent messages",
            lambda got: check(
                got == claimed_rows(SUB_CHAIN, f"spawned by {SPAWNED_BY}"),
                f"get_subagent_messages gave {sub} (the metadata names {SPAWNED_BY})",
            ),
        ),
    }


_READERS_HOLD: ReadersSeen = {  # what a release that keeps the claim gives (0.2.189's observation)
    "info": dict(INFO),
    "messages": claimed_rows(CHAIN),
    "messages limit 2 offset 1": claimed_rows(CHAIN[1:3]),
    "without directory": {"messages": claimed_rows(CHAIN), "info": dict(INFO)},
    "unknown or invalid id": {
        "messages unknown": [],
        "messages invalid": [],
        "info unknown": None,
        "info invalid": None,
    },
    "subagents": [AGENT],
    "subagent messages": claimed_rows(SUB_CHAIN, f"spawned by {SPAWNED_BY}"),
    "unknown subagent": [],
    "subagent ids supported": True,
}
# SDKSessionInfo losing custom_title, first_prompt, created_at and tag, all else as it was
transcript_readers.differs_on(
    _READERS_HOLD
    | {
        "info": info_without(INFO),
        "without directory": {"messages": claimed_rows(CHAIN), "info": info_without(INFO)},
    }
)
transcript_readers.differs_on(
    {
        "info": {**INFO, "summary": FIRST_PROMPT, "custom_title": None, "file_size": 0},
        "messages": claimed_rows(CHAIN[::-1]),
        "messages limit 2 offset 1": claimed_rows(CHAIN[:2]),
        "without directory": {"messages": [], "info": None},
        "unknown or invalid id": {
            "messages unknown": [],
            "messages invalid": [],
            "info unknown": dict(INFO),
            "info invalid": None,
        },
        "subagents": [],
        "subagent messages": [],
        "unknown subagent": [],
        "subagent ids supported": True,
    }
)


def _appended(path: Path, before: int) -> Any:
    """The entries a call appended to a transcript, in brief (`brief`)."""
    if not path.exists():
        return "the transcript is gone"
    return brief([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[before:] if line.strip()])


# What one fork_session call made: its id ("new" when fresh), whether its file is beside the source, its
# entries (fork_shape); only "raised" when it raised.
ForkMade = TypedDict(
    "ForkMade",
    {"id": str, "file beside the source": bool, "entries": list[dict[str, Any]], "raised": str},
    total=False,
)


def _fork_on_disk(main: Path, fork: Callable[[], Any]) -> ForkMade:
    """Fork the session; the fork's id said to be new, where its file is, and its entries."""
    try:
        result = fork()
    except Exception as exc:  # which exception the SDK raises is the finding
        return {"raised": type(exc).__name__}
    fork_id = getattr(result, "session_id", None)
    path = main.parent / f"{fork_id}.jsonl"
    return {
        "id": "new" if is_fresh(fork_id, [fork_id]) and fork_id != SID else str(fork_id),
        "file beside the source": path.exists(),
        "entries": fork_shape(
            [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            if path.exists()
            else [],
            fork_id,
        ),
    }


def _listing(project: Path, forks: list[Any]) -> list[str]:
    """What a project folder holds, the session and its forks named."""
    names = {SID: "session", **{f"{f}": f"fork {i}" for i, f in enumerate(forks, 1)}}
    return sorted(
        names.get(p.name.removesuffix(".jsonl"), "other") + (".jsonl" if p.suffix == ".jsonl" else "/")
        for p in project.iterdir()
    )


Step = TypedDict(
    "Step",
    {
        "raised": str | None,
        "appended": list[dict[str, Any]] | str,  # the entries appended, in brief, or that the transcript is gone
        "then read": Read | None,
    },
)


class Delete(TypedDict):
    raised: str | None
    left: list[str]
    again: str | None


# The calls that should be refused: the exception each raised (None: it returned).
Refusals = TypedDict(
    "Refusals",
    {
        "rename '   '": str | None,
        "rename invalid id": str | None,
        "rename unknown id": str | None,
        "tag '\\u200b '": str | None,
    },
)
_Stepped = Literal["rename '  New title  '", "tag '\\u200burgent '", "rename 'Last title'", "tag None"]
# Filled in call by call.
MutationsSeen = TypedDict(
    "MutationsSeen",
    {
        "fork up to a1": ForkMade | Absent,
        "fork titled": ForkMade | Absent,
        "source unchanged": bool | Absent,
        "rename '  New title  '": Step,
        "tag '\\u200burgent '": Step,
        "rename 'Last title'": Step,
        "tag None": Step,
        "refused": Refusals,
        "delete": Delete | Absent,
    },
    total=False,
)


@behaviour(
    id="sessions.transcript-mutations",
    claim=(
        "fork_session copies a session (up to up_to_message_id, inclusive) into a new transcript beside it "
        "with fresh uuids, the parentUuid chain kept, each entry's forkedFrom naming its source, and a custom "
        "title (the given one, else the source's title + ' (fork)'), leaving the source as it was; "
        "rename_session appends a custom-title entry with the stripped title and tag_session a tag entry "
        "(Unicode-sanitized and stripped; None appends an empty tag that clears it), the last one winning; "
        "an empty title or tag, or an invalid id, is a ValueError, a session not found a FileNotFoundError; "
        "delete_session removes the transcript and its subagent folder."
    ),
    summary="fork, rename, tag and delete_session change the transcript files as documented",
    source=("sdk-py", "rename_session"),
    tier="wire",
    checks=(
        "fork-up-to-message-with-derived-title",
        "fork-whole-with-given-title",
        "fork-leaves-source",
        "rename-appends-stripped-title",
        "tag-appends-sanitized-and-clears",
        "last-title-and-tag-win",
        "bad-input-refused",
        "delete-removes-transcript-and-subagents",
    ),
    requires=("api:rename_session", "api:tag_session"),
    pins={
        "fork-up-to-message-with-derived-title": ("function:fork_session",),
        "fork-whole-with-given-title": ("function:fork_session",),
        "fork-leaves-source": ("function:fork_session",),
        "rename-appends-stripped-title": ("function:rename_session",),
        "tag-appends-sanitized-and-clears": ("function:tag_session",),
        "last-title-and-tag-win": ("function:rename_session", "function:tag_session"),
        "delete-removes-transcript-and-subagents": ("function:delete_session",),
    },
    sdk_ref="claude_agent_sdk._internal.session_mutations.rename_session",
)
async def transcript_mutations(h: Harness) -> MutationsSeen:
    main = write_transcript(h)
    source = main.read_bytes()
    where = str(h.cwd)
    rename, tag = function("rename_session"), function("tag_session")
    fork, delete, info = function("fork_session"), function("delete_session"), function("get_session_info")
    assert rename is not None and tag is not None  # required
    seen: MutationsSeen = {}

    def latest() -> Read | None:
        """What get_session_info reads now: the title and tag (None without the function)."""
        found = info(SID, directory=where) if info else None
        return None if found is None else {"custom_title": found.custom_title, "tag": found.tag}

    with config_dir_env(h.config_dir):
        if fork:
            seen["fork up to a1"] = _fork_on_disk(main, lambda: fork(SID, directory=where, up_to_message_id=A1))
            seen["fork titled"] = _fork_on_disk(main, lambda: fork(SID, directory=where, title="  Branch  "))
            seen["source unchanged"] = main.read_bytes() == source
        else:
            seen["fork up to a1"] = seen["fork titled"] = seen["source unchanged"] = absent("fork_session")
        steps: list[tuple[_Stepped, Callable[[], Any]]] = [
            ("rename '  New title  '", lambda: rename(SID, "  New title  ", directory=where)),
            ("tag '\\u200burgent '", lambda: tag(SID, "\u200burgent ", directory=where)),
            ("rename 'Last title'", lambda: rename(SID, "Last title", directory=where)),
            ("tag None", lambda: tag(SID, None, directory=where)),
        ]
        for label, step in steps:
            before = len(main.read_text(encoding="utf-8").splitlines())
            raised = _raised(step)
            seen[label] = {"raised": raised, "appended": _appended(main, before), "then read": latest()}
        seen["refused"] = {
            "rename '   '": _raised(lambda: rename(SID, "   ", directory=where)),
            "rename invalid id": _raised(lambda: rename("not-a-uuid", "x", directory=where)),
            "rename unknown id": _raised(lambda: rename(OTHER_SID, "x", directory=where)),
            "tag '\\u200b '": _raised(lambda: tag(SID, "\u200b ", directory=where)),
        }
        if delete:
            forks = [p.name.removesuffix(".jsonl") for p in main.parent.glob("*.jsonl") if p != main]
            raised = _raised(lambda: delete(SID, directory=where))
            seen["delete"] = {
                "raised": raised,
                "left": _listing(main.parent, sorted(forks)),
                "again": _raised(lambda: delete(SID, directory=where)),
            }
        else:
            seen["delete"] = absent("delete_session")
    return seen


def _step_wrong(seen: MutationsSeen, label: _Stepped, claimed: list[dict[str, Any]]) -> str | None:
    step = seen[label]
    if step["raised"] or step["appended"] != claimed:
        return f"{label} raised {step['raised'] or 'nothing'} and appended {step['appended']}"
    return None


@transcript_mutations.decide
def _(seen: MutationsSeen) -> dict[str, Check]:
    def title(text: str) -> list[dict[str, Any]]:
        return [{"type": "custom-title", "customTitle": text, "sessionId": "session"}]

    def tagged(text: str) -> list[dict[str, Any]]:
        return [{"type": "tag", "tag": text, "sessionId": "session"}]

    def fork_check(label: str, claimed: list[dict[str, Any]]) -> Callable[[Any], Check]:
        return lambda got: check(
            got.get("id") == "new" and got.get("file beside the source") is True and got.get("entries") == claimed,
            f"{label} gave {got}",
        )

    reads = {label: seen[label]["then read"] for label in ("rename '  New title  '", "tag None")}
    read_ok = reads["rename '  New title  '"] in (None, {"custom_title": "New title", "tag": None}) and reads[
        "tag None"
    ] in (None, {"custom_title": "Last title", "tag": None})
    tag_read = seen["tag '\\u200burgent '"]["then read"]
    refused = seen["refused"]
    claimed_refusals = {
        "rename '   '": "ValueError",
        "rename invalid id": "ValueError",
        "rename unknown id": "FileNotFoundError",
        "tag '\\u200b '": "ValueError",
    }
    wrong_tags = [
        w
        for w in (
            _step_wrong(seen, "tag '\\u200burgent '", tagged("urgent")),
            _step_wrong(seen, "tag None", tagged("")),
        )
        if w
    ]
    return {
        "fork-up-to-message-with-derived-title": absent_or(
            seen,
            "fork up to a1",
            fork_check("fork_session(up_to_message_id=a1)", forked_rows(CHAIN[:2], f"{TITLE} (fork)")),
        ),
        "fork-whole-with-given-title": absent_or(
            seen, "fork titled", fork_check("fork_session(title='  Branch  ')", forked_rows(CHAIN, "Branch"))
        ),
        "fork-leaves-source": absent_or(
            seen, "source unchanged", lambda same: check(same is True, "the source transcript changed when forked")
        ),
        "rename-appends-stripped-title": check(
            not _step_wrong(seen, "rename '  New title  '", title("New title")),
            _step_wrong(seen, "rename '  New title  '", title("New title")) or "",
        ),
        "tag-appends-sanitized-and-clears": check(not wrong_tags, "; ".join(wrong_tags)),
        "last-title-and-tag-win": check(
            read_ok
            and tag_read in (None, {"custom_title": "New title", "tag": "urgent"})
            and not _step_wrong(seen, "rename 'Last title'", title("Last title")),
            f"get_session_info read {reads} after those steps and {tag_read} after the tag; "
            + (_step_wrong(seen, "rename 'Last title'", title("Last title")) or "the second rename appended its entry"),
        ),
        "bad-input-refused": check(refused == claimed_refusals, f"the calls raised {refused}"),
        "delete-removes-transcript-and-subagents": absent_or(
            seen,
            "delete",
            lambda d: check(
                d["raised"] is None
                and "session.jsonl" not in d["left"]
                and "session/" not in d["left"]
                and d["again"] == "FileNotFoundError",
                f"delete_session raised {d['raised'] or 'nothing'}, leaving {d['left']}; deleting again raised "
                f"{d['again'] or 'nothing'}",
            ),
        ),
    }


def _mutations_broken() -> MutationsSeen:
    """Forks that reuse the source's ids and lose the chain, a rename that keeps the spaces,
    tags that are not sanitized, reads that keep the first title, refusals that do not come."""
    reused = [
        {**row, "uuid": "reused", "parent": None} if row["type"] != "custom-title" else row
        for row in forked_rows(CHAIN[:2], "Forked session (fork)")
    ]
    return {
        "fork up to a1": {"id": "new", "file beside the source": True, "entries": reused},
        "fork titled": {"id": "new", "file beside the source": False, "entries": []},
        "source unchanged": False,
        "rename '  New title  '": {
            "raised": None,
            "appended": [{"type": "custom-title", "customTitle": "  New title  ", "sessionId": "session"}],
            "then read": {"custom_title": TITLE, "tag": None},
        },
        "tag '\\u200burgent '": {
            "raised": None,
            "appended": [{"type": "tag", "tag": "\u200burgent ", "sessionId": "session"}],
            "then read": {"custom_title": TITLE, "tag": None},
        },
        "rename 'Last title'": {"raised": None, "appended": [], "then read": {"custom_title": TITLE, "tag": None}},
        "tag None": {"raised": "TypeError", "appended": [], "then read": {"custom_title": TITLE, "tag": "urgent"}},
        "refused": {
            "rename '   '": None,
            "rename invalid id": "ValueError",
            "rename unknown id": None,
            "tag '\\u200b '": "ValueError",
        },
        "delete": {"raised": None, "left": ["fork 1.jsonl", "fork 2.jsonl", "session/"], "again": None},
    }


transcript_mutations.differs_on(_mutations_broken())


# --- sessions.archive-marks-and-unarchive-clears ---------------------------------------------------


class ArchivedSeen(TypedDict):
    """listSessions()' `archived` for the session after each step (None: not listed; a string: what a
    call threw), whether the transcript's bytes were the same after archiving, and what archiving a
    session no transcript has did."""

    archived_after_archive: bool | str | None
    transcript_unchanged: bool
    archived_after_unarchive: bool | str | None
    archive_unknown: str


def _archived(functions: Any, where: str) -> bool | str | None:
    try:
        listed = functions.call_exported("listSessions", {"dir": where})
    except Exception as exc:
        return f"listSessions threw {type(exc).__name__}: {exc}"
    mine = [s for s in listed or [] if isinstance(s, dict) and s.get("sessionId") == SID]
    return bool(mine[0].get("archived")) if mine else None


def _step(functions: Any, name: str, *args: Any) -> str | None:
    try:
        functions.call_exported(name, *args)
    except Exception as exc:  # what the SDK threw
        return f"{type(exc).__name__}: {exc}"
    return None


@behaviour(
    id="sessions.archive-marks-and-unarchive-clears",
    claim=(
        "archiveSession(id) of the TypeScript SDK leaves the session on disk, its transcript unchanged, and "
        "listSessions still returns it with archived: true; unarchiveSession(id) makes listSessions return it "
        "with archived: false; archiving a session that is not found throws."
    ),
    summary="archiveSession marks a listed session archived, unarchiveSession clears it",
    source=("sdk-ts", "archiveSession"),
    tier="wire",
    checks=("archive-marks-it", "unarchive-clears-it", "unknown-session-throws"),
    requires=("api:archiveSession", "api:unarchiveSession"),
    pins={
        "archive-marks-it": ("function:archiveSession",),
        "unarchive-clears-it": ("function:unarchiveSession",),
        "unknown-session-throws": ("function:archiveSession",),
    },
)
async def archive_marks_and_unarchive_clears(h: Harness) -> ArchivedSeen:
    main = write_transcript(h)
    before, where = main.read_bytes(), str(h.cwd)
    functions = session_functions()
    with config_dir_env(h.config_dir):
        threw = _step(functions, "archiveSession", SID, {"dir": where})
        archived = threw or _archived(functions, where)
        unchanged = main.read_bytes() == before
        threw = _step(functions, "unarchiveSession", SID, {"dir": where})
        unarchived = threw or _archived(functions, where)
        unknown = _step(functions, "archiveSession", OTHER_SID, {"dir": where})
    return {
        "archived_after_archive": archived,
        "transcript_unchanged": unchanged,
        "archived_after_unarchive": unarchived,
        "archive_unknown": unknown or "returned",
    }


@archive_marks_and_unarchive_clears.decide
def _(seen: ArchivedSeen) -> dict[str, Check]:
    after = seen["archived_after_archive"]
    return {
        "archive-marks-it": check(
            after is True and seen["transcript_unchanged"],
            f"after archiveSession, listSessions gave archived={after!r}; transcript unchanged: "
            f"{seen['transcript_unchanged']}",
        ),
        "unarchive-clears-it": check(
            seen["archived_after_unarchive"] is False,
            f"after unarchiveSession, listSessions gave archived={seen['archived_after_unarchive']!r}",
        ),
        "unknown-session-throws": check(
            seen["archive_unknown"] != "returned", f"archiveSession of an unknown session: {seen['archive_unknown']}"
        ),
    }


_ARCHIVED: ArchivedSeen = {
    "archived_after_archive": True,
    "transcript_unchanged": True,
    "archived_after_unarchive": False,
    "archive_unknown": "Error: Session 5e551011-2222-4222-8222-222222222222 not found",
}
# a release whose archiveSession drops the session from listSessions instead of marking it
archive_marks_and_unarchive_clears.differs_on({**_ARCHIVED, "archived_after_archive": None})
# a release that keeps the mark in the transcript itself (appends an entry to it)
archive_marks_and_unarchive_clears.differs_on({**_ARCHIVED, "transcript_unchanged": False})
# a release whose unarchiveSession leaves the mark
archive_marks_and_unarchive_clears.differs_on({**_ARCHIVED, "archived_after_unarchive": True})
# a release that writes a mark for a session no transcript has, silently
archive_marks_and_unarchive_clears.differs_on({**_ARCHIVED, "archive_unknown": "returned"})
