"""Area `sessions`, topic functions: the SDK's session functions over a transcript the probe writes.

The CLI keeps a session as JSON lines in <config dir>/projects/<project key>/<session id>.jsonl,
its subagents' transcripts beside it in <session id>/subagents/agent-<id>.jsonl (with an
agent-<id>.meta.json naming the Agent tool_use that spawned each). The SDK reads and
changes those files (get_session_info, get_session_messages, list_subagents,
get_subagent_messages, rename_session, tag_session, fork_session, delete_session), and does
the same over a SessionStore (the *_from_store and *_via_store twins, import_session_to_store,
fold_session_summary). Each probe writes one small transcript with fixed ids and times
into its own config dir, calls the functions, and records what they returned and what
they changed; no CLI runs. The functions are newer than some SDK versions, one by one:
where a version lacks one, only its sub-checks are not-applicable.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import Harness, config_dir_env, lacks, session_functions

_SID = "5e551011-1111-4111-8111-111111111111"
_OTHER_SID = "5e551011-2222-4222-8222-222222222222"  # a session no transcript has
_U1, _A1 = "00000000-0000-4000-8000-0000000000a1", "00000000-0000-4000-8000-0000000000a2"
_U2, _A2 = "00000000-0000-4000-8000-0000000000a3", "00000000-0000-4000-8000-0000000000a4"
_SU1, _SA1 = "00000000-0000-4000-8000-0000000000b1", "00000000-0000-4000-8000-0000000000b2"
_NAMES = {_SID: "session", _U1: "u1", _A1: "a1", _U2: "u2", _A2: "a2", _SU1: "su1", _SA1: "sa1"}
_AGENT = "a1b2c3"
_SUBPATH = f"subagents/agent-{_AGENT}"
_SPAWNED_BY = "toolu_probe_agent"  # the Agent tool_use the subagent's metadata names
_TITLE = "Fruit count"
_FIRST_PROMPT = "count the plums"
_T0 = "2026-01-02T03:04:05.000Z"
_CREATED_AT = int(datetime.fromisoformat(_T0.replace("Z", "+00:00")).timestamp() * 1000)
# the main chain as get_session_messages must give it: (uuid name, type, text)
_CHAIN = [("u1", "user", _FIRST_PROMPT), ("a1", "assistant", "seven plums")]
_CHAIN += [("u2", "user", "and the pears?"), ("a2", "assistant", "three pears")]
_SUB_CHAIN = [("su1", "user", "fetch the plums"), ("sa1", "assistant", "fetched seven")]
_NO_FUNCTION = "this SDK has no {}"


def _line(kind: str, uid: str, parent: str | None, text: str, second: int, **extra: Any) -> dict[str, Any]:
    """One transcript entry as the CLI writes it: a user prompt or an assistant text reply."""
    content: Any = text if kind == "user" else [{"type": "text", "text": text}]
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": f"msg_probe_{uid[-2:]}", "type": "message", **message}
    return {
        "type": kind,
        "uuid": uid,
        "parentUuid": parent,
        "sessionId": _SID,
        "timestamp": _T0.replace(":05.", f":{5 + second:02d}."),
        **extra,
        "message": message,
    }


def _main_lines(cwd: str) -> list[dict[str, Any]]:
    """The main transcript: two turns, then the custom title the CLI appends."""
    common = {"cwd": cwd, "isSidechain": False}
    return [
        _line("user", _U1, None, _FIRST_PROMPT, 0, **common),
        _line("assistant", _A1, _U1, "seven plums", 1, **common),
        _line("user", _U2, _A1, "and the pears?", 2, **common),
        _line("assistant", _A2, _U2, "three pears", 3, **common),
        {"type": "custom-title", "customTitle": _TITLE, "sessionId": _SID},
    ]


def _sub_lines(cwd: str) -> list[dict[str, Any]]:
    common = {"cwd": cwd, "isSidechain": True, "agentId": _AGENT}
    return [
        _line("user", _SU1, None, "fetch the plums", 4, **common),
        _line("assistant", _SA1, _SU1, "fetched seven", 5, **common),
    ]


_META = {"agentType": "runner", "toolUseId": _SPAWNED_BY}


def _project_key(directory: Path) -> str:
    """The CLI's folder name for a project: its real path, every non-alphanumeric a '-'."""
    return re.sub(r"[^a-zA-Z0-9]", "-", os.path.realpath(directory))


def _jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in lines)


def _write_transcript(h: Harness) -> Path:
    """The session's transcript, its subagent's and the subagent's metadata, under
    h.config_dir; the main transcript's path."""
    project = h.config_dir / "projects" / _project_key(h.cwd)
    subagents = project / _SID / "subagents"
    subagents.mkdir(parents=True, exist_ok=True)
    main = project / f"{_SID}.jsonl"
    main.write_text(_jsonl(_main_lines(str(h.cwd))), encoding="utf-8")
    (subagents / f"agent-{_AGENT}.jsonl").write_text(_jsonl(_sub_lines(str(h.cwd))), encoding="utf-8")
    (subagents / f"agent-{_AGENT}.meta.json").write_text(json.dumps(_META), encoding="utf-8")
    return main


def _sdk() -> Any:
    """The SDK under test's session functions, read when the probe runs; untyped, as they
    differ by version."""
    return session_functions()


def _function(name: str) -> Any:
    """The SDK's function `name`, or None on a version without it."""
    fn = getattr(_sdk(), name, None)
    return fn if callable(fn) else None


def _raised(call: Callable[[], Any]) -> str | None:
    """The exception's type a call raised (None when it returned)."""
    try:
        call()
    except Exception as exc:  # which exception the SDK raises is the finding
        return type(exc).__name__
    return None


async def _raised_async(call: Callable[[], Any]) -> str | None:
    try:
        await call()
    except Exception as exc:  # which exception the SDK raises is the finding
        return type(exc).__name__
    return None


def _text(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")


def _messages(found: Any) -> Any:
    """SessionMessages as [uuid name, type, text] (and the spawning tool_use id when set)."""
    if not isinstance(found, list):
        return found
    out = []
    for m in found:
        row: list[Any] = [_NAMES.get(m.uuid, "other"), m.type, _text(m.message)]
        if _NAMES.get(m.session_id) != "session":
            row.append(f"session {_NAMES.get(m.session_id, 'other')}")
        parent = getattr(m, "parent_tool_use_id", None)
        if parent is not None:
            row.append(f"spawned by {parent}")
        out.append(row)
    return out


def _claimed(chain: list[tuple[str, str, str]], *extra: str) -> list[list[str]]:
    return [[name, kind, text, *extra] for name, kind, text in chain]


def _info(h: Harness, info: Any, size: int | None = None) -> Any:
    """An SDKSessionInfo as a dict: its session named, its mtime left out, its file size
    said to be the file's when it is."""
    if info is None or not dataclasses.is_dataclass(info) or isinstance(info, type):
        return info
    seen = {k: v for k, v in dataclasses.asdict(info).items() if k != "last_modified"}
    seen["session_id"] = _NAMES.get(seen["session_id"], "other")
    if size is not None and seen.get("file_size") == size:
        seen["file_size"] = "the file's size"
    return h.observe(seen)


# what get_session_info reads from the transcript
_INFO = {
    "session_id": "session",
    "summary": _TITLE,
    "file_size": "the file's size",
    "custom_title": _TITLE,
    "first_prompt": _FIRST_PROMPT,
    "git_branch": None,
    "cwd": "<CWD>",
    "tag": None,
    "created_at": _CREATED_AT,
}
_STORE_INFO = {**_INFO, "file_size": None}  # a store has no file size


def _same_fields(seen: Any, claimed: dict[str, Any]) -> bool:
    """Every claimed field is there with its value: every SDK with get_session_info has them
    all, so one missing is a field dropped or renamed, never one a version lacks."""
    return isinstance(seen, dict) and all(k in seen and seen[k] == v for k, v in claimed.items())


def _absent_or(seen: dict[str, Any], key: str, decide: Callable[[Any], Check]) -> Check:
    value = seen[key]
    if isinstance(value, dict) and "absent" in value:
        return undecidable(value["absent"])
    return decide(value)


def _absent(name: str) -> dict[str, str]:
    return {"absent": _NO_FUNCTION.format(name)}


def _has_parent_ids() -> bool:
    """Whether this SDK's SessionMessage carries the subagent's spawning ids (newer versions)."""
    return lacks("field:SessionMessage.parent_agent_id") is None


# --- sessions.transcript-readers -----------------------------------------------------


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
async def transcript_readers(h: Harness) -> dict[str, Any]:
    main = _write_transcript(h)
    size = main.stat().st_size
    where = str(h.cwd)
    info, messages = _function("get_session_info"), _function("get_session_messages")
    subagents, sub_messages = _function("list_subagents"), _function("get_subagent_messages")
    assert messages is not None  # required
    with config_dir_env(h.config_dir):
        seen: dict[str, Any] = {
            "info": _info(h, info(_SID, directory=where), size) if info else _absent("get_session_info"),
            "messages": _messages(messages(_SID, directory=where)),
            "messages limit 2 offset 1": _messages(messages(_SID, directory=where, limit=2, offset=1)),
            "without directory": {
                "messages": _messages(messages(_SID)),
                "info": _info(h, info(_SID), size) if info else "no get_session_info",
            },
            "unknown or invalid id": {
                "messages unknown": _messages(messages(_OTHER_SID, directory=where)),
                "messages invalid": _messages(messages("not-a-uuid", directory=where)),
                "info unknown": _info(h, info(_OTHER_SID, directory=where)) if info else None,
                "info invalid": _info(h, info("not-a-uuid", directory=where)) if info else None,
            },
            "subagents": subagents(_SID, directory=where) if subagents else _absent("list_subagents"),
            "subagent messages": _messages(sub_messages(_SID, _AGENT, directory=where))
            if sub_messages
            else _absent("get_subagent_messages"),
            "unknown subagent": _messages(sub_messages(_SID, "nobody", directory=where)) if sub_messages else None,
        }
    seen["subagent ids supported"] = _has_parent_ids()
    return seen


@transcript_readers.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    unknown, without = seen["unknown or invalid id"], seen["without directory"]
    sub = seen["subagent messages"]
    return {
        "info-read-from-transcript": _absent_or(
            seen, "info", lambda info: check(_same_fields(info, _INFO), f"get_session_info gave {info}")
        ),
        "messages-follow-chain-in-order": check(
            seen["messages"] == _claimed(_CHAIN), f"get_session_messages gave {seen['messages']}"
        ),
        "messages-paged-by-limit-offset": check(
            seen["messages limit 2 offset 1"] == _claimed(_CHAIN[1:3]),
            f"limit=2, offset=1 gave {seen['messages limit 2 offset 1']}",
        ),
        "found-without-directory": check(
            without["messages"] == _claimed(_CHAIN)
            and (without["info"] == "no get_session_info" or _same_fields(without["info"], _INFO)),
            f"with no directory get_session_messages gave {without['messages']}, get_session_info {without['info']}",
        ),
        "nothing-for-unknown-or-invalid-id": check(
            unknown["messages unknown"] == [] == unknown["messages invalid"]
            and unknown["info unknown"] is None is unknown["info invalid"]
            and seen["unknown subagent"] in (None, []),
            f"an unknown or invalid id gave {unknown}; an unknown agent id {seen['unknown subagent']}",
        ),
        "subagents-listed": _absent_or(
            seen, "subagents", lambda ids: check(ids == [_AGENT], f"list_subagents gave {ids}")
        ),
        "subagent-messages-read": _absent_or(
            seen,
            "subagent messages",
            lambda got: check([row[:3] for row in got] == _claimed(_SUB_CHAIN), f"get_subagent_messages gave {got}"),
        ),
        "subagent-messages-name-spawning-tool-use": undecidable("this SDK's SessionMessage has no subagent parent ids")
        if not seen["subagent ids supported"]
        else _absent_or(
            seen,
            "subagent messages",
            lambda got: check(
                got == _claimed(_SUB_CHAIN, f"spawned by {_SPAWNED_BY}"),
                f"get_subagent_messages gave {sub} (the metadata names {_SPAWNED_BY})",
            ),
        ),
    }


_DROPPED = ("custom_title", "first_prompt", "created_at", "tag")  # SDKSessionInfo fields a regression loses


def _info_without(info: dict[str, Any], dropped: tuple[str, ...] = _DROPPED) -> dict[str, Any]:
    return {k: v for k, v in info.items() if k not in dropped}


_READERS_HOLD = {  # what a release that keeps the claim gives (0.2.189's observation)
    "info": dict(_INFO),
    "messages": _claimed(_CHAIN),
    "messages limit 2 offset 1": _claimed(_CHAIN[1:3]),
    "without directory": {"messages": _claimed(_CHAIN), "info": dict(_INFO)},
    "unknown or invalid id": {
        "messages unknown": [],
        "messages invalid": [],
        "info unknown": None,
        "info invalid": None,
    },
    "subagents": [_AGENT],
    "subagent messages": _claimed(_SUB_CHAIN, f"spawned by {_SPAWNED_BY}"),
    "unknown subagent": [],
    "subagent ids supported": True,
}
# SDKSessionInfo losing custom_title, first_prompt, created_at and tag, all else as it was
transcript_readers.differs_on(
    _READERS_HOLD
    | {
        "info": _info_without(_INFO),
        "without directory": {"messages": _claimed(_CHAIN), "info": _info_without(_INFO)},
    }
)
transcript_readers.differs_on(
    {
        "info": {**_INFO, "summary": _FIRST_PROMPT, "custom_title": None, "file_size": 0},
        "messages": _claimed(_CHAIN[::-1]),
        "messages limit 2 offset 1": _claimed(_CHAIN[:2]),
        "without directory": {"messages": [], "info": None},
        "unknown or invalid id": {
            "messages unknown": [],
            "messages invalid": [],
            "info unknown": dict(_INFO),
            "info invalid": None,
        },
        "subagents": [],
        "subagent messages": [],
        "unknown subagent": [],
        "subagent ids supported": True,
    }
)


# --- sessions.transcript-mutations ---------------------------------------------------

_UUID_SHAPE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _is_fresh(uid: Any, every: list[Any]) -> bool:
    """A uuid of the fork's own: well formed, none of the source's, used once."""
    return isinstance(uid, str) and bool(_UUID_SHAPE.match(uid)) and uid not in _NAMES and every.count(uid) == 1


def _fork_shape(entries: Any, fork_id: Any) -> Any:
    """A fork's entries with their ids named: `fresh` for a new uuid, `line N` for a parent
    among them, the source's by name; what each was forked from, its title."""
    if not isinstance(entries, list):
        return entries
    ids = [e.get("uuid") for e in entries]
    at = {uid: f"line {i}" for i, uid in enumerate(ids, 1)}
    shape = []
    for e in entries:
        row: dict[str, Any] = {"type": e.get("type")}
        row["session"] = "fork" if e.get("sessionId") == fork_id else _NAMES.get(e.get("sessionId"), "other")
        if e.get("type") in ("user", "assistant"):  # a message's id is the fork's own (a title's is no claim)
            row["uuid"] = "fresh" if _is_fresh(e.get("uuid"), ids) else "reused"
            parent = e.get("parentUuid")
            row["parent"] = at.get(parent) or _NAMES.get(parent, "other") if parent else None
            row["text"] = _text(e.get("message"))
            origin = e.get("forkedFrom") or {}
            row["forked from"] = [
                _NAMES.get(str(origin.get("sessionId")), "other"),
                _NAMES.get(str(origin.get("messageUuid"))),
            ]
        if "customTitle" in e:
            row["customTitle"] = e["customTitle"]
        shape.append(row)
    return shape


def _forked(chain: list[tuple[str, str, str]], title: str) -> list[dict[str, Any]]:
    """The fork fork_session documents: the chain with fresh ids and its parents kept, each
    entry naming what it was forked from, then the fork's custom title."""
    rows: list[dict[str, Any]] = [
        {
            "type": kind,
            "uuid": "fresh",
            "session": "fork",
            "parent": f"line {i}" if i else None,
            "text": text,
            "forked from": ["session", name],
        }
        for i, (name, kind, text) in enumerate(chain)
    ]
    return [*rows, {"type": "custom-title", "session": "fork", "customTitle": title}]


def _brief(entries: list[Any]) -> list[dict[str, Any]]:
    """Appended metadata entries by what they claim: their type, title or tag, and session."""
    keys = ("type", "customTitle", "tag", "sessionId")
    return [{k: _NAMES.get(e[k], "other") if k == "sessionId" else e[k] for k in keys if k in e} for e in entries]


def _appended(path: Path, before: int) -> Any:
    """The entries a call appended to a transcript, in brief (`_brief`)."""
    if not path.exists():
        return "the transcript is gone"
    return _brief([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[before:] if line.strip()])


def _fork_on_disk(main: Path, fork: Callable[[], Any]) -> Any:
    """Fork the session; the fork's id said to be new, where its file is, and its entries."""
    try:
        result = fork()
    except Exception as exc:  # which exception the SDK raises is the finding
        return {"raised": type(exc).__name__}
    fork_id = getattr(result, "session_id", None)
    path = main.parent / f"{fork_id}.jsonl"
    return {
        "id": "new" if _is_fresh(fork_id, [fork_id]) and fork_id != _SID else str(fork_id),
        "file beside the source": path.exists(),
        "entries": _fork_shape(
            [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            if path.exists()
            else [],
            fork_id,
        ),
    }


def _listing(project: Path, forks: list[Any]) -> list[str]:
    """What a project folder holds, the session and its forks named."""
    names = {_SID: "session", **{f"{f}": f"fork {i}" for i, f in enumerate(forks, 1)}}
    return sorted(
        names.get(p.name.removesuffix(".jsonl"), "other") + (".jsonl" if p.suffix == ".jsonl" else "/")
        for p in project.iterdir()
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
async def transcript_mutations(h: Harness) -> dict[str, Any]:
    main = _write_transcript(h)
    source = main.read_bytes()
    where = str(h.cwd)
    rename, tag = _function("rename_session"), _function("tag_session")
    fork, delete, info = _function("fork_session"), _function("delete_session"), _function("get_session_info")
    assert rename is not None and tag is not None  # required
    seen: dict[str, Any] = {}

    def latest() -> Any:
        """What get_session_info reads now: the title and tag (None without the function)."""
        found = info(_SID, directory=where) if info else None
        return None if found is None else {"custom_title": found.custom_title, "tag": found.tag}

    with config_dir_env(h.config_dir):
        if fork:
            seen["fork up to a1"] = _fork_on_disk(main, lambda: fork(_SID, directory=where, up_to_message_id=_A1))
            seen["fork titled"] = _fork_on_disk(main, lambda: fork(_SID, directory=where, title="  Branch  "))
            seen["source unchanged"] = main.read_bytes() == source
        else:
            seen["fork up to a1"] = seen["fork titled"] = seen["source unchanged"] = _absent("fork_session")
        steps: list[tuple[str, Callable[[], Any]]] = [
            ("rename '  New title  '", lambda: rename(_SID, "  New title  ", directory=where)),
            ("tag '\\u200burgent '", lambda: tag(_SID, "\u200burgent ", directory=where)),
            ("rename 'Last title'", lambda: rename(_SID, "Last title", directory=where)),
            ("tag None", lambda: tag(_SID, None, directory=where)),
        ]
        for label, step in steps:
            before = len(main.read_text(encoding="utf-8").splitlines())
            raised = _raised(step)
            seen[label] = {"raised": raised, "appended": _appended(main, before), "then read": latest()}
        seen["refused"] = {
            "rename '   '": _raised(lambda: rename(_SID, "   ", directory=where)),
            "rename invalid id": _raised(lambda: rename("not-a-uuid", "x", directory=where)),
            "rename unknown id": _raised(lambda: rename(_OTHER_SID, "x", directory=where)),
            "tag '\\u200b '": _raised(lambda: tag(_SID, "\u200b ", directory=where)),
        }
        if delete:
            forks = [p.name.removesuffix(".jsonl") for p in main.parent.glob("*.jsonl") if p != main]
            raised = _raised(lambda: delete(_SID, directory=where))
            seen["delete"] = {
                "raised": raised,
                "left": _listing(main.parent, sorted(forks)),
                "again": _raised(lambda: delete(_SID, directory=where)),
            }
        else:
            seen["delete"] = _absent("delete_session")
    return seen


def _step_wrong(seen: dict[str, Any], label: str, claimed: list[dict[str, Any]]) -> str | None:
    step = seen[label]
    if step["raised"] or step["appended"] != claimed:
        return f"{label} raised {step['raised'] or 'nothing'} and appended {step['appended']}"
    return None


@transcript_mutations.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
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
        "fork-up-to-message-with-derived-title": _absent_or(
            seen,
            "fork up to a1",
            fork_check("fork_session(up_to_message_id=a1)", _forked(_CHAIN[:2], f"{_TITLE} (fork)")),
        ),
        "fork-whole-with-given-title": _absent_or(
            seen, "fork titled", fork_check("fork_session(title='  Branch  ')", _forked(_CHAIN, "Branch"))
        ),
        "fork-leaves-source": _absent_or(
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
        "delete-removes-transcript-and-subagents": _absent_or(
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


def _mutations_broken() -> dict[str, Any]:
    """Forks that reuse the source's ids and lose the chain, a rename that keeps the spaces,
    tags that are not sanitized, reads that keep the first title, refusals that do not come."""
    reused = [
        {**row, "uuid": "reused", "parent": None} if row["type"] != "custom-title" else row
        for row in _forked(_CHAIN[:2], "Forked session (fork)")
    ]
    return {
        "fork up to a1": {"id": "new", "file beside the source": True, "entries": reused},
        "fork titled": {"id": "new", "file beside the source": False, "entries": []},
        "source unchanged": False,
        "rename '  New title  '": {
            "raised": None,
            "appended": [{"type": "custom-title", "customTitle": "  New title  ", "sessionId": "session"}],
            "then read": {"custom_title": _TITLE, "tag": None},
        },
        "tag '\\u200burgent '": {
            "raised": None,
            "appended": [{"type": "tag", "tag": "\u200burgent ", "sessionId": "session"}],
            "then read": {"custom_title": _TITLE, "tag": None},
        },
        "rename 'Last title'": {"raised": None, "appended": [], "then read": {"custom_title": _TITLE, "tag": None}},
        "tag None": {"raised": "TypeError", "appended": [], "then read": {"custom_title": _TITLE, "tag": "urgent"}},
        "refused": {
            "rename '   '": None,
            "rename invalid id": "ValueError",
            "rename unknown id": None,
            "tag '\\u200b '": "ValueError",
        },
        "delete": {"raised": None, "left": ["fork 1.jsonl", "fork 2.jsonl", "session/"], "again": None},
    }


transcript_mutations.differs_on(_mutations_broken())


# --- over a SessionStore -------------------------------------------------------------


def _key(h: Harness, subpath: str | None = None) -> dict[str, str]:
    """The session's SessionKey (its subagent's with `subpath`)."""
    key = {"project_key": _project_key(h.cwd), "session_id": _SID}
    return {**key, "subpath": subpath} if subpath else key


def _new_store() -> Any:
    """The probe's own store: the Python SDK's InMemorySessionStore, which a TypeScript SDK
    under test is handed as its sessionStore."""
    import claude_agent_sdk

    return claude_agent_sdk.InMemorySessionStore()


async def _stored(h: Harness) -> Any:
    """An InMemorySessionStore holding the transcript as the SDK mirrors it: the main
    entries, and the subagent's under its subpath with its metadata entry."""
    store = _new_store()
    cwd = str(h.cwd)
    await store.append(_key(h), _main_lines(cwd))
    await store.append(_key(h, _SUBPATH), [*_sub_lines(cwd), {**_META, "type": "agent_metadata"}])
    return store


def _entry_rows(entries: Any) -> Any:
    """Stored entries in brief: the transcript's own by uuid name, the others by their type."""
    if not isinstance(entries, list):
        return entries
    return [_NAMES.get(str(e.get("uuid")), e.get("type")) if isinstance(e, dict) else "not an object" for e in entries]


# --- sessions.store-readers-match-disk -----------------------------------------------


@behaviour(
    id="sessions.store-readers-match-disk",
    claim=(
        "Over a SessionStore holding a session's transcript entries, list_sessions_from_store, "
        "get_session_info_from_store, get_session_messages_from_store, list_subagents_from_store and "
        "get_subagent_messages_from_store give what their disk counterparts give for the same transcript "
        "(the subagent's messages naming the Agent tool_use its agent_metadata entry records); and "
        "import_session_to_store replays a transcript on disk into a store under the session's key, its "
        "subagents' under subagents/agent-<id> with their .meta.json as an agent_metadata entry, so the "
        "store readers read it back."
    ),
    summary="Store readers give what disk readers give; import replays a transcript into a store",
    source=("sdk-py", "SessionStore"),
    tier="wire",
    checks=(
        "list-from-store-as-on-disk",
        "info-from-store-as-on-disk",
        "messages-from-store-as-on-disk",
        "subagents-from-store",
        "subagent-messages-from-store",
        "subagent-from-store-names-spawning-tool-use",
        "import-replays-transcript-and-subagents",
    ),
    requires=("api:InMemorySessionStore", "api:list_sessions_from_store", "api:get_session_info"),
    pins={
        "info-from-store-as-on-disk": ("function:get_session_info_from_store",),
        "messages-from-store-as-on-disk": ("function:get_session_messages_from_store",),
        "subagents-from-store": ("function:list_subagents_from_store",),
        "subagent-messages-from-store": ("function:get_subagent_messages_from_store",),
        "subagent-from-store-names-spawning-tool-use": ("function:get_subagent_messages_from_store",),
        "import-replays-transcript-and-subagents": ("function:import_session_to_store",),
    },
    sdk_ref="claude_agent_sdk._internal.sessions.get_session_info_from_store",
)
async def store_readers_match_disk(h: Harness) -> dict[str, Any]:
    sdk = _sdk()

    main = _write_transcript(h)
    size, where = main.stat().st_size, str(h.cwd)
    with config_dir_env(h.config_dir):
        disk = _info(h, sdk.get_session_info(_SID, directory=where), size)
    store = await _stored(h)
    info, messages = _function("get_session_info_from_store"), _function("get_session_messages_from_store")
    subagents, sub_messages = _function("list_subagents_from_store"), _function("get_subagent_messages_from_store")
    seen: dict[str, Any] = {
        "disk info": disk,
        "listed": [_info(h, i, size) for i in await sdk.list_sessions_from_store(store, directory=where)],
        "info": _info(h, await info(store, _SID, directory=where), size)
        if info
        else _absent("get_session_info_from_store"),
        "info unknown": _info(h, await info(store, _OTHER_SID, directory=where)) if info else None,
        "messages": {
            "all": _messages(await messages(store, _SID, directory=where)),
            "limit 2 offset 1": _messages(await messages(store, _SID, directory=where, limit=2, offset=1)),
            "unknown": _messages(await messages(store, _OTHER_SID, directory=where)),
        }
        if messages
        else _absent("get_session_messages_from_store"),
        "subagents": await subagents(store, _SID, directory=where)
        if subagents
        else _absent("list_subagents_from_store"),
        "subagent messages": _messages(await sub_messages(store, _SID, _AGENT, directory=where))
        if sub_messages
        else _absent("get_subagent_messages_from_store"),
        "subagent ids supported": _has_parent_ids(),
        "import": await _imported(h) if _function("import_session_to_store") else _absent("import_session_to_store"),
    }
    return seen


async def _imported(h: Harness) -> dict[str, Any]:
    """What import_session_to_store put into a fresh store, with and without subagents."""
    sdk = _sdk()

    whole, main_only = _new_store(), _new_store()
    with config_dir_env(h.config_dir):  # read from disk across the awaits: no other probe runs in this process
        await sdk.import_session_to_store(_SID, whole, directory=str(h.cwd))
        await sdk.import_session_to_store(_SID, main_only, directory=str(h.cwd), include_subagents=False)
        missing = await _raised_async(lambda: sdk.import_session_to_store(_OTHER_SID, _new_store()))
    sub = await whole.load(_key(h, _SUBPATH))
    return {
        "sessions": sorted(
            _NAMES.get(e["session_id"], "other") for e in await whole.list_sessions(_project_key(h.cwd))
        ),
        "main entries are the transcript's": await whole.load(_key(h)) == _main_lines(str(h.cwd)),
        "main entries": _entry_rows(await whole.load(_key(h))),
        "subkeys": sorted(await whole.list_subkeys(_key(h))),
        "subagent entries": _entry_rows(sub),
        "subagent metadata": [
            {k: e.get(k) for k in ("agentType", "toolUseId")}
            for e in sub or []
            if isinstance(e, dict) and e.get("type") == "agent_metadata"
        ],
        "subkeys without subagents": sorted(await main_only.list_subkeys(_key(h))),
        "unknown session raised": missing,
    }


def _without(info: Any, *keys: str) -> Any:
    return {k: v for k, v in info.items() if k not in keys} if isinstance(info, dict) else info


@store_readers_match_disk.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    disk, parents = seen["disk info"], seen["subagent ids supported"]
    spawned = f"spawned by {_SPAWNED_BY}"

    def imported(got: dict[str, Any]) -> Check:
        sub_rows = ["su1", "sa1", *(["agent_metadata"] if got["subagent metadata"] else [])]
        return check(
            got["sessions"] == ["session"]
            and got["main entries are the transcript's"]
            and got["subkeys"] == [_SUBPATH]
            and got["subagent entries"] == sub_rows
            and got["subagent metadata"] == [_META]
            and got["subkeys without subagents"] == []
            and got["unknown session raised"] == "FileNotFoundError",
            f"import_session_to_store gave {got}",
        )

    return {
        "list-from-store-as-on-disk": check(
            [_without(i, "file_size") for i in seen["listed"]] == [_without(disk, "file_size")]
            and _same_fields(disk, _INFO),
            f"list_sessions_from_store gave {seen['listed']}; on disk get_session_info gave {disk}",
        ),
        "info-from-store-as-on-disk": _absent_or(
            seen,
            "info",
            lambda info: check(
                info == disk and _same_fields(info, _INFO) and seen["info unknown"] is None,
                f"get_session_info_from_store gave {info} (for an unknown id {seen['info unknown']}); "
                f"on disk get_session_info gave {disk}",
            ),
        ),
        "messages-from-store-as-on-disk": _absent_or(
            seen,
            "messages",
            lambda m: check(
                m == {"all": _claimed(_CHAIN), "limit 2 offset 1": _claimed(_CHAIN[1:3]), "unknown": []},
                f"get_session_messages_from_store gave {m}",
            ),
        ),
        "subagents-from-store": _absent_or(
            seen, "subagents", lambda ids: check(ids == [_AGENT], f"list_subagents_from_store gave {ids}")
        ),
        "subagent-messages-from-store": _absent_or(
            seen,
            "subagent messages",
            lambda got: check(
                [row[:3] for row in got] == _claimed(_SUB_CHAIN), f"get_subagent_messages_from_store gave {got}"
            ),
        ),
        "subagent-from-store-names-spawning-tool-use": _absent_or(
            seen,
            "subagent messages",
            lambda got: check(
                got == _claimed(_SUB_CHAIN, spawned),
                f"get_subagent_messages_from_store gave {got} (the agent_metadata entry names {_SPAWNED_BY})",
            ),
        )
        if parents
        else undecidable("this SDK's SessionMessage has no subagent parent ids"),
        "import-replays-transcript-and-subagents": _absent_or(seen, "import", imported),
    }


store_readers_match_disk.differs_on(  # SDKSessionInfo losing fields, on disk and from the store alike
    {
        "disk info": _info_without(_INFO),
        "listed": [_info_without(_STORE_INFO)],
        "info": _info_without(_INFO),
        "info unknown": None,
        "messages": {"all": _claimed(_CHAIN), "limit 2 offset 1": _claimed(_CHAIN[1:3]), "unknown": []},
        "subagents": [_AGENT],
        "subagent messages": _claimed(_SUB_CHAIN, f"spawned by {_SPAWNED_BY}"),
        "subagent ids supported": True,
        "import": {
            "sessions": ["session"],
            "main entries are the transcript's": True,
            "main entries": ["u1", "a1", "u2", "a2", "custom-title"],
            "subkeys": [_SUBPATH],
            "subagent entries": ["su1", "sa1", "agent_metadata"],
            "subagent metadata": [{"agentType": "runner", "toolUseId": _SPAWNED_BY}],
            "subkeys without subagents": [],
            "unknown session raised": "FileNotFoundError",
        },
    }
)
store_readers_match_disk.differs_on(
    {
        "disk info": dict(_INFO),
        "listed": [],
        "info": {**_INFO, "summary": _FIRST_PROMPT},
        "info unknown": None,
        "messages": {"all": _claimed(_CHAIN[:2]), "limit 2 offset 1": [], "unknown": []},
        "subagents": [f"agent-{_AGENT}"],
        "subagent messages": _claimed(_SUB_CHAIN[::-1]),
        "subagent ids supported": True,
        "import": {
            "sessions": ["session"],
            "main entries are the transcript's": True,
            "main entries": ["u1", "a1", "u2", "a2", "custom-title"],
            "subkeys": [],
            "subagent entries": None,
            "subagent metadata": [],
            "subkeys without subagents": [],
            "unknown session raised": "FileNotFoundError",
        },
    }
)


# --- sessions.store-mutations --------------------------------------------------------


class _AppendOnly:
    """A store with only the two required methods (a WORM backend): no delete()."""

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        self.entries = list(entries)

    async def append(self, key: Any, entries: list[Any]) -> None:
        self.entries.extend(entries)

    async def load(self, key: Any) -> list[Any] | None:
        return list(self.entries)


async def _fork_in_store(h: Harness, store: Any, fork: Callable[[], Any]) -> Any:
    try:
        result = await fork()
    except Exception as exc:  # which exception the SDK raises is the finding
        return {"raised": type(exc).__name__}
    fork_id = getattr(result, "session_id", None)
    entries = await store.load({"project_key": _project_key(h.cwd), "session_id": str(fork_id)})
    return {
        "id": "new" if _is_fresh(fork_id, [fork_id]) and fork_id != _SID else str(fork_id),
        "stored under the project key": entries is not None,
        "entries": _fork_shape(entries or [], fork_id),
    }


@behaviour(
    id="sessions.store-mutations",
    claim=(
        "fork_session_via_store writes the fork (fresh uuids, chain kept, forkedFrom, the given or derived "
        "title) under a new session id in the same store and project key, leaving the source; "
        "rename_session_via_store and tag_session_via_store append a custom-title entry (title stripped) "
        "and a tag entry (sanitized, None clearing) that the store readers then read; an empty title or tag "
        "or an invalid id is a ValueError; delete_session_via_store deletes the session and its subkeys, "
        "and is a no-op on a store without delete()."
    ),
    summary="The *_via_store mutations fork, rename, tag and delete in the store as on disk",
    source=("sdk-py", "SessionStore"),
    tier="wire",
    checks=(
        "fork-via-store-up-to-message",
        "fork-via-store-given-title",
        "fork-via-store-leaves-source",
        "rename-via-store-appends-title",
        "tag-via-store-appends-and-clears",
        "bad-input-refused",
        "delete-via-store-cascades",
        "delete-without-store-delete-is-no-op",
    ),
    requires=("api:InMemorySessionStore",),
    pins={
        "fork-via-store-up-to-message": ("function:fork_session_via_store",),
        "fork-via-store-given-title": ("function:fork_session_via_store",),
        "fork-via-store-leaves-source": ("function:fork_session_via_store",),
        "rename-via-store-appends-title": ("function:rename_session_via_store",),
        "tag-via-store-appends-and-clears": ("function:tag_session_via_store",),
        "delete-via-store-cascades": ("function:delete_session_via_store",),
        "delete-without-store-delete-is-no-op": ("function:delete_session_via_store",),
    },
    sdk_ref="claude_agent_sdk._internal.session_mutations.rename_session_via_store",
)
async def store_mutations(h: Harness) -> dict[str, Any]:
    store, where, key = await _stored(h), str(h.cwd), _key(h)
    fork, rename = _function("fork_session_via_store"), _function("rename_session_via_store")
    tag, delete = _function("tag_session_via_store"), _function("delete_session_via_store")
    info = _function("get_session_info_from_store")
    seen: dict[str, Any] = {}
    if fork:
        seen["fork up to a1"] = await _fork_in_store(
            h, store, lambda: fork(store, _SID, directory=where, up_to_message_id=_A1)
        )
        seen["fork titled"] = await _fork_in_store(
            h, store, lambda: fork(store, _SID, directory=where, title=" Branch ")
        )
        seen["source unchanged"] = await store.load(key) == _main_lines(where)
        seen["fork unknown"] = await _raised_async(lambda: fork(store, _OTHER_SID, directory=where))
    else:
        seen["fork up to a1"] = seen["fork titled"] = seen["source unchanged"] = _absent("fork_session_via_store")
    steps: list[tuple[str, Callable[[], Any] | None, str]] = [
        (
            "rename '  Store title  '",
            rename and (lambda: rename(store, _SID, "  Store title  ", directory=where)),
            "rename",
        ),
        ("tag '\\u200bstored '", tag and (lambda: tag(store, _SID, "\u200bstored ", directory=where)), "tag"),
        ("tag None", tag and (lambda: tag(store, _SID, None, directory=where)), "tag"),
    ]
    for label, step, name in steps:
        if step is None:
            seen[label] = _absent(f"{name}_session_via_store")
            continue
        before = len(await store.load(key) or [])
        raised = await _raised_async(step)
        read = await info(store, _SID, directory=where) if info else None
        seen[label] = {
            "raised": raised,
            "appended": _brief((await store.load(key) or [])[before:]),
            "then read": None if read is None else {"custom_title": read.custom_title, "tag": read.tag},
        }
    seen["refused"] = {
        label: await _raised_async(call) if fn else "absent"
        for label, fn, call in (
            ("rename '   '", rename, lambda: rename(store, _SID, "   ", directory=where)),
            ("rename invalid id", rename, lambda: rename(store, "not-a-uuid", "x", directory=where)),
            ("tag '\\u200b '", tag, lambda: tag(store, _SID, "\u200b ", directory=where)),
            ("delete invalid id", delete, lambda: delete(store, "not-a-uuid", directory=where)),
        )
    }
    if delete:
        forks = [e["session_id"] for e in await store.list_sessions(_project_key(h.cwd)) if e["session_id"] != _SID]
        raised = await _raised_async(lambda: delete(store, _SID, directory=where))
        worm = _AppendOnly(_main_lines(where))
        worm_raised = await _raised_async(lambda: delete(worm, _SID, directory=where))
        seen["delete"] = {
            "raised": raised,
            "session loads": await store.load(key),
            "subkeys left": await store.list_subkeys(key),
            "forks still load": [bool(await store.load({**key, "session_id": f})) for f in forks],
        }
        seen["delete on a store without delete()"] = {
            "raised": worm_raised,
            "entries kept": worm.entries == _main_lines(where),
        }
    else:
        seen["delete"] = seen["delete on a store without delete()"] = _absent("delete_session_via_store")
    return seen


@store_mutations.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    def step(label: str, claimed: list[dict[str, Any]], read: dict[str, Any]) -> str | None:
        got = seen[label]
        if "absent" in got:
            return None
        if got["raised"] or got["appended"] != claimed or got["then read"] not in (None, read):
            return (
                f"{label} raised {got['raised'] or 'nothing'}, appended {got['appended']}, then read {got['then read']}"
            )
        return None

    def fork_check(label: str, claimed: list[dict[str, Any]]) -> Callable[[Any], Check]:
        return lambda got: check(
            got.get("id") == "new"
            and got.get("stored under the project key") is True
            and got.get("entries") == claimed,
            f"{label} gave {got}",
        )

    renamed = step(
        "rename '  Store title  '",
        [{"type": "custom-title", "customTitle": "Store title", "sessionId": "session"}],
        {"custom_title": "Store title", "tag": None},
    )
    tags = [
        w
        for w in (
            step(
                "tag '\\u200bstored '",
                [{"type": "tag", "tag": "stored", "sessionId": "session"}],
                {"custom_title": "Store title", "tag": "stored"},
            ),
            step(
                "tag None",
                [{"type": "tag", "tag": "", "sessionId": "session"}],
                {"custom_title": "Store title", "tag": None},
            ),
        )
        if w
    ]
    refused = {k: v for k, v in seen["refused"].items() if v != "absent"}
    return {
        "fork-via-store-up-to-message": _absent_or(
            seen,
            "fork up to a1",
            fork_check("fork_session_via_store(up_to_message_id=a1)", _forked(_CHAIN[:2], f"{_TITLE} (fork)")),
        ),
        "fork-via-store-given-title": _absent_or(
            seen, "fork titled", fork_check("fork_session_via_store(title=' Branch ')", _forked(_CHAIN, "Branch"))
        ),
        "fork-via-store-leaves-source": _absent_or(
            seen,
            "source unchanged",
            lambda same: check(
                same is True and seen.get("fork unknown") == "FileNotFoundError",
                f"the source's entries {'stayed' if same else 'changed'}; forking an unknown session raised "
                f"{seen.get('fork unknown') or 'nothing'}",
            ),
        ),
        "rename-via-store-appends-title": _absent_or(
            seen, "rename '  Store title  '", lambda _: check(renamed is None, renamed or "")
        ),
        "tag-via-store-appends-and-clears": _absent_or(seen, "tag None", lambda _: check(not tags, "; ".join(tags))),
        "bad-input-refused": check(all(v == "ValueError" for v in refused.values()), f"the calls raised {refused}")
        if refused
        else undecidable("this SDK has none of the *_via_store mutations"),
        "delete-via-store-cascades": _absent_or(
            seen,
            "delete",
            lambda d: check(
                d["raised"] is None
                and d["session loads"] is None
                and d["subkeys left"] == []
                and d["forks still load"] in ([], [True, True]),
                f"delete_session_via_store raised {d['raised'] or 'nothing'}; then the session loaded "
                f"{_entry_rows(d['session loads'])}, subkeys {d['subkeys left']}, the forks {d['forks still load']}",
            ),
        ),
        "delete-without-store-delete-is-no-op": _absent_or(
            seen,
            "delete on a store without delete()",
            lambda d: check(
                d["raised"] is None and d["entries kept"],
                f"on a store without delete() it raised {d['raised'] or 'nothing'}, the entries "
                f"{'kept' if d['entries kept'] else 'changed'}",
            ),
        ),
    }


store_mutations.differs_on(
    {
        "fork up to a1": {"raised": "KeyError"},
        "fork titled": {"id": "new", "stored under the project key": True, "entries": _forked(_CHAIN, "Branch (fork)")},
        "source unchanged": True,
        "fork unknown": None,
        "rename '  Store title  '": {
            "raised": None,
            "appended": [{"type": "custom-title", "customTitle": "  Store title  ", "sessionId": "session"}],
            "then read": {"custom_title": "  Store title  ", "tag": None},
        },
        "tag '\\u200bstored '": {
            "raised": None,
            "appended": [{"type": "tag", "tag": "stored", "sessionId": "session"}],
            "then read": {"custom_title": "Store title", "tag": "stored"},
        },
        "tag None": {"raised": None, "appended": [], "then read": {"custom_title": "Store title", "tag": "stored"}},
        "refused": {"rename '   '": None, "rename invalid id": "ValueError", "tag '\\u200b '": "ValueError"},
        "delete": {"raised": None, "session loads": [], "subkeys left": [_SUBPATH], "forks still load": [False, False]},
        "delete on a store without delete()": {"raised": "NotImplementedError", "entries kept": True},
    }
)


# --- sessions.fold-summary-feeds-store-listing ---------------------------------------

_STAMPED = 4242  # the storage write time a store stamps on its summary


class _SummaryStore:
    """A store that keeps a fold_session_summary sidecar, as the SessionStore protocol
    describes, and lists from it alone (no list_sessions())."""

    def __init__(self, summaries: list[Any], entries: list[Any]) -> None:
        self.summaries, self.entries = summaries, entries

    async def append(self, key: Any, entries: list[Any]) -> None:
        self.entries.extend(entries)

    async def load(self, key: Any) -> list[Any] | None:
        return list(self.entries) if key.get("session_id") == _SID and not key.get("subpath") else None

    async def list_session_summaries(self, project_key: str) -> list[Any]:
        return list(self.summaries)


@behaviour(
    id="sessions.fold-summary-feeds-store-listing",
    claim=(
        "fold_session_summary(prev, key, entries) folds a batch of appended entries into the session's "
        "SessionSummaryEntry: a new one (prev None) keyed by the key's session_id with mtime 0, a later one "
        "keeping prev's mtime (the store stamps it); a store that serves those summaries from "
        "list_session_summaries gets from list_sessions_from_store the session's info as its entries give it "
        "(title, first prompt, tag, created_at, cwd), with the stamped mtime as last_modified."
    ),
    summary="fold_session_summary's sidecar lists a session as its entries give it",
    source=("sdk-py", "fold_session_summary"),
    tier="wire",
    checks=("new-summary-keyed-with-mtime-zero", "later-fold-keeps-mtime", "listing-from-summaries-as-from-entries"),
    requires=("api:fold_session_summary", "api:list_sessions_from_store", "api:get_session_info_from_store"),
    sdk_ref="claude_agent_sdk._internal.session_summary.fold_session_summary",
    pins={
        "new-summary-keyed-with-mtime-zero": ("function:fold_session_summary",),
        "later-fold-keeps-mtime": ("function:fold_session_summary",),
        "listing-from-summaries-as-from-entries": (
            "function:fold_session_summary",
            "function:list_sessions_from_store",
        ),
    },
)
async def fold_summary_feeds_store_listing(h: Harness) -> dict[str, Any]:
    sdk = _sdk()

    where, key = str(h.cwd), _key(h)
    lines = _main_lines(where)
    tagged = {"type": "tag", "tag": "urgent", "sessionId": _SID}
    first = sdk.fold_session_summary(None, key, lines[:2])
    later = sdk.fold_session_summary({**first, "mtime": _STAMPED}, key, [*lines[2:], tagged])
    store = _SummaryStore([later], [*lines, tagged])
    listed = await sdk.list_sessions_from_store(store, directory=where)
    from_entries = await sdk.get_session_info_from_store(store, _SID, directory=where)
    return {
        "first fold": {"session_id": _NAMES.get(first.get("session_id"), "other"), "mtime": first.get("mtime")},
        "later fold": {"session_id": _NAMES.get(later.get("session_id"), "other"), "mtime": later.get("mtime")},
        "listed": [_info(h, i) for i in listed],
        "listed last_modified": [i.last_modified for i in listed],
        "info from entries": _without(_info(h, from_entries), "file_size"),  # its size: of the entries' JSON
    }


@fold_summary_feeds_store_listing.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    first, later, listed = seen["first fold"], seen["later fold"], seen["listed"]
    claimed = {**_STORE_INFO, "tag": "urgent"}
    entries = seen["info from entries"]
    return {
        "new-summary-keyed-with-mtime-zero": check(
            first == {"session_id": "session", "mtime": 0}, f"folding the first batch into None gave {first}"
        ),
        "later-fold-keeps-mtime": check(
            later == {"session_id": "session", "mtime": _STAMPED},
            f"folding into a summary stamped {_STAMPED} gave {later}",
        ),
        "listing-from-summaries-as-from-entries": check(
            len(listed) == 1
            and _same_fields(listed[0], claimed)
            and _without(listed[0], "file_size") == entries
            and seen["listed last_modified"] == [_STAMPED],
            f"list_sessions_from_store over the folded summary gave {listed} (last_modified "
            f"{seen['listed last_modified']}); from the entries themselves {seen['info from entries']}",
        ),
    }


fold_summary_feeds_store_listing.differs_on(
    {
        "first fold": {"session_id": "session", "mtime": 1767323048000},
        "later fold": {"session_id": "session", "mtime": 1767323048000},
        "listed": [{**_STORE_INFO, "tag": None, "summary": _FIRST_PROMPT}],
        "listed last_modified": [1767323048000],
        "info from entries": _without({**_STORE_INFO, "tag": "urgent"}, "file_size"),
    }
)
