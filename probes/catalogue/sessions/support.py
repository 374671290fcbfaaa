"""What several of the sessions behaviours share; declares no behaviour."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict, final

from sdkprobe.behaviour import Check, undecidable
from sdkprobe.harness import (
    Harness,
    lacks,
    session_functions,
)

# --- where sessions live, and resuming them ------------------------------------------------

MARKER = "PLUM-7731"

SID = "5e551011-1111-4111-8111-111111111111"
OTHER_SID = "5e551011-2222-4222-8222-222222222222"  # a session no transcript has
U1, A1 = "00000000-0000-4000-8000-0000000000a1", "00000000-0000-4000-8000-0000000000a2"
U2, A2 = "00000000-0000-4000-8000-0000000000a3", "00000000-0000-4000-8000-0000000000a4"
SU1, SA1 = "00000000-0000-4000-8000-0000000000b1", "00000000-0000-4000-8000-0000000000b2"
NAMES = {SID: "session", U1: "u1", A1: "a1", U2: "u2", A2: "a2", SU1: "su1", SA1: "sa1"}
AGENT = "a1b2c3"
SPAWNED_BY = "toolu_probe_agent"  # the Agent tool_use the subagent's metadata names
TITLE = "Fruit count"
FIRST_PROMPT = "count the plums"
T0 = "2026-01-02T03:04:05.000Z"
CREATED_AT = int(datetime.fromisoformat(T0.replace("Z", "+00:00")).timestamp() * 1000)
CHAIN = [("u1", "user", FIRST_PROMPT), ("a1", "assistant", "seven plums")]
CHAIN += [("u2", "user", "and the pears?"), ("a2", "assistant", "three pears")]
SUB_CHAIN = [("su1", "user", "fetch the plums"), ("sa1", "assistant", "fetched seven")]
NO_FUNCTION = "this SDK has no {}"


def transcript_line(kind: str, uid: str, parent: str | None, text: str, second: int, **extra: Any) -> dict[str, Any]:
    """One transcript entry as the CLI writes it: a user prompt or an assistant text reply."""
    content: Any = text if kind == "user" else [{"type": "text", "text": text}]
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": f"msg_probe_{uid[-2:]}", "type": "message", **message}
    return {
        "type": kind,
        "uuid": uid,
        "parentUuid": parent,
        "sessionId": SID,
        "timestamp": T0.replace(":05.", f":{5 + second:02d}."),
        **extra,
        "message": message,
    }


def main_lines(cwd: str) -> list[dict[str, Any]]:
    """The main transcript: two turns, then the custom title the CLI appends."""
    common = {"cwd": cwd, "isSidechain": False}
    return [
        transcript_line("user", U1, None, FIRST_PROMPT, 0, **common),
        transcript_line("assistant", A1, U1, "seven plums", 1, **common),
        transcript_line("user", U2, A1, "and the pears?", 2, **common),
        transcript_line("assistant", A2, U2, "three pears", 3, **common),
        {"type": "custom-title", "customTitle": TITLE, "sessionId": SID},
    ]


def sub_lines(cwd: str) -> list[dict[str, Any]]:
    common = {"cwd": cwd, "isSidechain": True, "agentId": AGENT}
    return [
        transcript_line("user", SU1, None, "fetch the plums", 4, **common),
        transcript_line("assistant", SA1, SU1, "fetched seven", 5, **common),
    ]


META = {"agentType": "runner", "toolUseId": SPAWNED_BY}


def project_folder_key(directory: Path) -> str:
    """The CLI's folder name for a project: its real path, every non-alphanumeric a '-'."""
    return re.sub(r"[^a-zA-Z0-9]", "-", os.path.realpath(directory))


def jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in lines)


def write_transcript(h: Harness) -> Path:
    """The session's transcript, its subagent's and the subagent's metadata, under
    h.config_dir; the main transcript's path."""
    project = h.config_dir / "projects" / project_folder_key(h.cwd)
    subagents = project / SID / "subagents"
    subagents.mkdir(parents=True, exist_ok=True)
    main = project / f"{SID}.jsonl"
    main.write_text(jsonl(main_lines(str(h.cwd))), encoding="utf-8")
    (subagents / f"agent-{AGENT}.jsonl").write_text(jsonl(sub_lines(str(h.cwd))), encoding="utf-8")
    (subagents / f"agent-{AGENT}.meta.json").write_text(json.dumps(META), encoding="utf-8")
    return main


def sdk_functions() -> Any:
    """The SDK under test's session functions, read when the probe runs; untyped, as they
    differ by version."""
    return session_functions()


def function(name: str) -> Any:
    """The SDK's function `name`, or None on a version without it."""
    fn = getattr(sdk_functions(), name, None)
    return fn if callable(fn) else None


def text_of(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    return " ".join(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")


# A message as a row (message_rows): [uuid name, type, text, and "session X" / "spawned by ID" when set].
Rows = list[list[str]]


def message_rows(found: Any) -> Any:
    """SessionMessages as [uuid name, type, text] (and the spawning tool_use id when set)."""
    if not isinstance(found, list):
        return found
    out = []
    for m in found:
        row: list[Any] = [NAMES.get(m.uuid, "other"), m.type, text_of(m.message)]
        if NAMES.get(m.session_id) != "session":
            row.append(f"session {NAMES.get(m.session_id, 'other')}")
        parent = getattr(m, "parent_tool_use_id", None)
        if parent is not None:
            row.append(f"spawned by {parent}")
        out.append(row)
    return out


def claimed_rows(chain: list[tuple[str, str, str]], *extra: str) -> list[list[str]]:
    return [[name, kind, text, *extra] for name, kind, text in chain]


def info_dict(h: Harness, info: Any, size: int | None = None) -> Any:
    """An SDKSessionInfo as a dict: its session named, its mtime left out, its file size
    said to be the file's when it is."""
    if info is None or not dataclasses.is_dataclass(info) or isinstance(info, type):
        return info
    seen = {k: v for k, v in dataclasses.asdict(info).items() if k != "last_modified"}
    seen["session_id"] = NAMES.get(seen["session_id"], "other")
    if size is not None and seen.get("file_size") == size:
        seen["file_size"] = "the file's size"
    return h.observe(seen)


# what get_session_info reads from the transcript
INFO = {
    "session_id": "session",
    "summary": TITLE,
    "file_size": "the file's size",
    "custom_title": TITLE,
    "first_prompt": FIRST_PROMPT,
    "git_branch": None,
    "cwd": "<CWD>",
    "tag": None,
    "created_at": CREATED_AT,
}


def same_fields(seen: Any, claimed: dict[str, Any]) -> bool:
    """Every claimed field is there with its value: every SDK with get_session_info has them
    all, so one missing is a field dropped or renamed, never one a version lacks."""
    return isinstance(seen, dict) and all(k in seen and seen[k] == v for k, v in claimed.items())


@final  # nothing else has an "absent" key, so `"absent" in value` tells it apart
class Absent(TypedDict):
    absent: str  # what this SDK lacks (NO_FUNCTION)


def absent_or(seen: Mapping[str, Any], key: str, decide: Callable[[Any], Check]) -> Check:
    value = seen[key]
    if isinstance(value, dict) and "absent" in value:
        return undecidable(value["absent"])
    return decide(value)


def absent(name: str) -> Absent:
    return {"absent": NO_FUNCTION.format(name)}


def has_parent_ids() -> bool:
    """Whether this SDK's SessionMessage carries the subagent's spawning ids (newer versions)."""
    return lacks("field:SessionMessage.parent_agent_id") is None


DROPPED = ("custom_title", "first_prompt", "created_at", "tag")  # SDKSessionInfo fields a regression loses


def info_without(info: dict[str, Any], dropped: tuple[str, ...] = DROPPED) -> dict[str, Any]:
    return {k: v for k, v in info.items() if k not in dropped}


# What get_session_info read after a mutation (None: this SDK has no such reader).
class Read(TypedDict):
    custom_title: str | None
    tag: str | None


# --- sessions.transcript-mutations ---------------------------------------------------

UUID_SHAPE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def is_fresh(uid: Any, every: list[Any]) -> bool:
    """A uuid of the fork's own: well formed, none of the source's, used once."""
    return isinstance(uid, str) and bool(UUID_SHAPE.match(uid)) and uid not in NAMES and every.count(uid) == 1


def fork_shape(entries: Any, fork_id: Any) -> Any:
    """A fork's entries with their ids named: `fresh` for a new uuid, `line N` for a parent
    among them, the source's by name; what each was forked from, its title."""
    if not isinstance(entries, list):
        return entries
    ids = [e.get("uuid") for e in entries]
    at = {uid: f"line {i}" for i, uid in enumerate(ids, 1)}
    shape = []
    for e in entries:
        row: dict[str, Any] = {"type": e.get("type")}
        row["session"] = "fork" if e.get("sessionId") == fork_id else NAMES.get(e.get("sessionId"), "other")
        if e.get("type") in ("user", "assistant"):  # a message's id is the fork's own (a title's is no claim)
            row["uuid"] = "fresh" if is_fresh(e.get("uuid"), ids) else "reused"
            parent = e.get("parentUuid")
            row["parent"] = at.get(parent) or NAMES.get(parent, "other") if parent else None
            row["text"] = text_of(e.get("message"))
            origin = e.get("forkedFrom") or {}
            row["forked from"] = [
                NAMES.get(str(origin.get("sessionId")), "other"),
                NAMES.get(str(origin.get("messageUuid"))),
            ]
        if "customTitle" in e:
            row["customTitle"] = e["customTitle"]
        shape.append(row)
    return shape


def forked_rows(chain: list[tuple[str, str, str]], title: str) -> list[dict[str, Any]]:
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


def brief(entries: list[Any]) -> list[dict[str, Any]]:
    """Appended metadata entries by what they claim: their type, title or tag, and session."""
    keys = ("type", "customTitle", "tag", "sessionId")
    return [{k: NAMES.get(e[k], "other") if k == "sessionId" else e[k] for k in keys if k in e} for e in entries]
