"""Session stores: what the CLI mirrors into one, resuming from it, and the store functions beside
the disk ones."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from typing import Any, Literal, TypedDict

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.catalogue.sessions.support import (
    A1,
    AGENT,
    CHAIN,
    FIRST_PROMPT,
    INFO,
    MARKER,
    META,
    NAMES,
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
    main_lines,
    message_rows,
    project_folder_key,
    same_fields,
    sdk_functions,
    sub_lines,
    write_transcript,
)
from sdkprobe.harness import (
    AGENT_TOOL,
    MAIN,
    Harness,
    Script,
    config_dir_env,
    reply,
    session_functions,
    tool_use_offered,
)

_AGENT_CALL_ID = "toolu_double_store_agent"

MirrorSeen = TypedDict(
    "MirrorSeen",
    {
        "run 1 session id seen": bool,
        "run 1 subagent result reached main": bool,
        "cli copy after run 1": list[str],  # under projects/<key>, the session id named <SID>
        "store appends (run 1)": list[str],  # the keys appended to: "main", or the subpath's first part
        "store has marker": bool,
        "store loads (run 2)": list[str],  # likewise, the keys loaded
        "resumed id kept": bool,
        "resumed request has marker": bool,
        "resumed request has subagent result": bool,
        "error": str | None,
    },
)


@behaviour(
    id="sessions.store-mirror-and-resume",
    claim=(
        "With a session_store the SDK hands the store every transcript entry (the subagent's under "
        "their own subkeys) and loads them again to resume; the resumed session keeps its id and its "
        "memory even after the CLI's own files are deleted, and the CLI still writes its own copy."
    ),
    summary="A session store gets every transcript entry, and a session resumes from it alone",
    source=("000", "Sessions"),
    tier="cli",
    checks=("store-gets-entries-and-is-loaded", "resume-keeps-id-and-context", "cli-copy-still-written"),
    requires=("option:session_store", "option:resume", "option:agents", "api:InMemorySessionStore"),
    sdk_ref="claude_agent_sdk._internal.session_resume",
    timeout=120,
    pins={
        "store-gets-entries-and-is-loaded": ("option:session_store",),
        "resume-keeps-id-and-context": ("option:resume", "option:session_store"),
    },
)
async def store_mirror_and_resume(h: Harness) -> MirrorSeen:
    calls: list[tuple[str, str, str | None]] = []

    class Recording(_store_class()):  # type: ignore[misc]
        """An in-memory store that notes which keys it was asked to append and load."""

        async def append(self, key: Any, entries: list[Any]) -> None:
            calls.append(("append", str(key.get("session_id")), key.get("subpath")))
            await super().append(key, entries)

        async def load(self, key: Any) -> Any:
            calls.append(("load", str(key.get("session_id")), key.get("subpath")))
            return await super().load(key)

    store = Recording()
    agents = {"runner": {"description": "runs errands", "prompt": "You run errands."}}
    call = tool_use_offered(
        AGENT_TOOL, {"description": "delegate", "prompt": "Carry it out", "subagent_type": "runner"}, _AGENT_CALL_ID
    )
    first = await h.cli(
        f"remember {MARKER}",
        script=Script(main=[reply(call), "main done", "main done"], subagent=["runner done"]),
        tools=["Task"],
        agents=agents,
        session_store=store,
    )
    sid = str(first.init.get("session_id") or "")
    key = project_folder_key(h.cwd)  # the CLI's own folder name, not a function of the SDK under test
    local = h.config_dir / "projects" / key
    # the subagent's own file name carries its agent id: name the folder, not the file
    cli_copy = (
        sorted(
            {
                str(p.relative_to(local).parent / "*.jsonl" if p.parent != local else p.name).replace(sid, "<SID>")
                for p in local.rglob("*.jsonl")
            }
        )
        if sid
        else []
    )
    # new CLIs run the agent in the background: its answer comes back as a later notification
    ran = any("runner done" in json.dumps(r.messages) for r in first.on(MAIN))

    def kinds(kind: str) -> list[str]:
        """Which keys of this session a kind of call touched: main, or the subpath's first part."""
        return sorted({"main" if sub is None else sub.split("/")[0] for k, s, sub in calls if k == kind and s == sid})

    appended = kinds("append")
    stored = await store.load({"project_key": key, "session_id": sid}) if sid else None
    shutil.rmtree(h.config_dir / "projects", ignore_errors=True)
    calls.clear()
    second = await h.cli("what was it?", script=["recalled"], resume=sid, session_store=store, agents=agents)
    request = second.first(MAIN)
    return {
        "run 1 session id seen": bool(sid),
        "run 1 subagent result reached main": ran,
        "cli copy after run 1": cli_copy,
        "store appends (run 1)": appended,
        "store has marker": MARKER in str(stored or []),
        "store loads (run 2)": kinds("load"),
        "resumed id kept": bool(sid) and second.init.get("session_id") == sid,
        "resumed request has marker": request.carries(MARKER) if request else False,
        "resumed request has subagent result": "runner done" in json.dumps(request.messages) if request else False,
        "error": first.error_line or second.error_line,
    }


@store_mirror_and_resume.decide
def _(seen: MirrorSeen) -> dict[str, Check]:
    appended, loads, copy = seen["store appends (run 1)"], seen["store loads (run 2)"], seen["cli copy after run 1"]
    return {
        "store-gets-entries-and-is-loaded": check(
            "main" in appended and len(appended) > 1 and seen["store has marker"] and "main" in loads,
            f"run 1 appended to {appended} (marker stored: {seen['store has marker']}); the resume loaded {loads}",
        ),
        "resume-keeps-id-and-context": check(
            seen["resumed id kept"]
            and seen["resumed request has marker"]
            and seen["resumed request has subagent result"],
            f"with the CLI's files deleted the resumed run kept the id: {seen['resumed id kept']}, its request had "
            f"the marker: {seen['resumed request has marker']}, the subagent's result: "
            f"{seen['resumed request has subagent result']} (in run 1: {seen['run 1 subagent result reached main']}; "
            f"error {seen['error']})",
        ),
        "cli-copy-still-written": check(
            "<SID>.jsonl" in copy, f"the CLI's own transcripts under projects/<key> after run 1: {copy}"
        ),
    }


store_mirror_and_resume.differs_on(
    {
        "run 1 session id seen": True,
        "run 1 subagent result reached main": True,
        "cli copy after run 1": [],
        "store appends (run 1)": ["main"],
        "store has marker": True,
        "store loads (run 2)": [],
        "resumed id kept": False,
        "resumed request has marker": False,
        "resumed request has subagent result": False,
        "error": None,
    }
)
_SUBPATH = f"subagents/agent-{AGENT}"


async def _raised_async(call: Callable[[], Any]) -> str | None:
    try:
        await call()
    except Exception as exc:  # which exception the SDK raises is the finding
        return type(exc).__name__
    return None


_STORE_INFO = {**INFO, "file_size": None}  # a store has no file size


# --- over a SessionStore -------------------------------------------------------------


def _key(h: Harness, subpath: str | None = None) -> dict[str, str]:
    """The session's SessionKey (its subagent's with `subpath`)."""
    key = {"project_key": project_folder_key(h.cwd), "session_id": SID}
    return {**key, "subpath": subpath} if subpath else key


def _store_class() -> Any:
    """The probe's own store: the Python SDK's InMemorySessionStore, a plain in-memory map of
    keys to entries which a TypeScript SDK under test is handed as its sessionStore too (what
    it answers is the probe's input, not evidence of either SDK)."""
    import claude_agent_sdk

    return claude_agent_sdk.InMemorySessionStore


def _new_store() -> Any:
    return _store_class()()


async def _stored(h: Harness) -> Any:
    """An InMemorySessionStore holding the transcript as the SDK mirrors it: the main
    entries, and the subagent's under its subpath with its metadata entry."""
    store = _new_store()
    cwd = str(h.cwd)
    await store.append(_key(h), main_lines(cwd))
    await store.append(_key(h, _SUBPATH), [*sub_lines(cwd), {**META, "type": "agent_metadata"}])
    return store


def _entry_rows(entries: Any) -> Any:
    """Stored entries in brief: the transcript's own by uuid name, the others by their type."""
    if not isinstance(entries, list):
        return entries
    return [NAMES.get(str(e.get("uuid")), e.get("type")) if isinstance(e, dict) else "not an object" for e in entries]


# --- sessions.store-readers-match-disk -----------------------------------------------

StoredMessages = TypedDict("StoredMessages", {"all": Rows, "limit 2 offset 1": Rows, "unknown": Rows})
# What import_session_to_store put into a fresh store (entries in brief, as _entry_rows gives them).
Imported = TypedDict(
    "Imported",
    {
        "sessions": list[str],
        "main entries are the transcript's": bool,
        "main entries": list[str] | None,
        "subkeys": list[str],
        "subagent entries": list[str] | None,
        "subagent metadata": list[dict[str, Any]],  # agentType and toolUseId of each agent_metadata entry
        "subkeys without subagents": list[str],
        "unknown session raised": str | None,
    },
)
# SDKSessionInfos as info_dict gives them.
StoreReadersSeen = TypedDict(
    "StoreReadersSeen",
    {
        "disk info": dict[str, Any] | None,
        "listed": list[dict[str, Any]],
        "info": dict[str, Any] | Absent | None,
        "info unknown": dict[str, Any] | None,
        "messages": StoredMessages | Absent,
        "subagents": list[str] | Absent,
        "subagent messages": Rows | Absent,
        "subagent ids supported": bool,
        "import": Imported | Absent,
    },
)


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
async def store_readers_match_disk(h: Harness) -> StoreReadersSeen:
    sdk = sdk_functions()

    main = write_transcript(h)
    size, where = main.stat().st_size, str(h.cwd)
    with config_dir_env(h.config_dir):
        disk = info_dict(h, sdk.get_session_info(SID, directory=where), size)
    store = await _stored(h)
    info, messages = function("get_session_info_from_store"), function("get_session_messages_from_store")
    subagents, sub_messages = function("list_subagents_from_store"), function("get_subagent_messages_from_store")
    seen: StoreReadersSeen = {
        "disk info": disk,
        "listed": [info_dict(h, i, size) for i in await sdk.list_sessions_from_store(store, directory=where)],
        "info": info_dict(h, await info(store, SID, directory=where), size)
        if info
        else absent("get_session_info_from_store"),
        "info unknown": info_dict(h, await info(store, OTHER_SID, directory=where)) if info else None,
        "messages": {
            "all": message_rows(await messages(store, SID, directory=where)),
            "limit 2 offset 1": message_rows(await messages(store, SID, directory=where, limit=2, offset=1)),
            "unknown": message_rows(await messages(store, OTHER_SID, directory=where)),
        }
        if messages
        else absent("get_session_messages_from_store"),
        "subagents": await subagents(store, SID, directory=where) if subagents else absent("list_subagents_from_store"),
        "subagent messages": message_rows(await sub_messages(store, SID, AGENT, directory=where))
        if sub_messages
        else absent("get_subagent_messages_from_store"),
        "subagent ids supported": has_parent_ids(),
        "import": await _imported(h) if function("import_session_to_store") else absent("import_session_to_store"),
    }
    return seen


async def _imported(h: Harness) -> Imported:
    """What import_session_to_store put into a fresh store, with and without subagents."""
    sdk = sdk_functions()

    whole, main_only = _new_store(), _new_store()
    with config_dir_env(h.config_dir):  # read from disk across the awaits: no other probe runs in this process
        await sdk.import_session_to_store(SID, whole, directory=str(h.cwd))
        await sdk.import_session_to_store(SID, main_only, directory=str(h.cwd), include_subagents=False)
        missing = await _raised_async(lambda: sdk.import_session_to_store(OTHER_SID, _new_store()))
    sub = await whole.load(_key(h, _SUBPATH))
    return {
        "sessions": sorted(
            NAMES.get(e["session_id"], "other") for e in await whole.list_sessions(project_folder_key(h.cwd))
        ),
        "main entries are the transcript's": await whole.load(_key(h)) == main_lines(str(h.cwd)),
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
def _(seen: StoreReadersSeen) -> dict[str, Check]:
    disk, parents = seen["disk info"], seen["subagent ids supported"]
    spawned = f"spawned by {SPAWNED_BY}"

    def imported(got: Imported) -> Check:
        sub_rows = ["su1", "sa1", *(["agent_metadata"] if got["subagent metadata"] else [])]
        return check(
            got["sessions"] == ["session"]
            and got["main entries are the transcript's"]
            and got["subkeys"] == [_SUBPATH]
            and got["subagent entries"] == sub_rows
            and got["subagent metadata"] == [META]
            and got["subkeys without subagents"] == []
            and got["unknown session raised"] == "FileNotFoundError",
            f"import_session_to_store gave {got}",
        )

    return {
        "list-from-store-as-on-disk": check(
            [_without(i, "file_size") for i in seen["listed"]] == [_without(disk, "file_size")]
            and same_fields(disk, INFO),
            f"list_sessions_from_store gave {seen['listed']}; on disk get_session_info gave {disk}",
        ),
        "info-from-store-as-on-disk": absent_or(
            seen,
            "info",
            lambda info: check(
                info == disk and same_fields(info, INFO) and seen["info unknown"] is None,
                f"get_session_info_from_store gave {info} (for an unknown id {seen['info unknown']}); "
                f"on disk get_session_info gave {disk}",
            ),
        ),
        "messages-from-store-as-on-disk": absent_or(
            seen,
            "messages",
            lambda m: check(
                m == {"all": claimed_rows(CHAIN), "limit 2 offset 1": claimed_rows(CHAIN[1:3]), "unknown": []},
                f"get_session_messages_from_store gave {m}",
            ),
        ),
        "subagents-from-store": absent_or(
            seen, "subagents", lambda ids: check(ids == [AGENT], f"list_subagents_from_store gave {ids}")
        ),
        "subagent-messages-from-store": absent_or(
            seen,
            "subagent messages",
            lambda got: check(
                [row[:3] for row in got] == claimed_rows(SUB_CHAIN), f"get_subagent_messages_from_store gave {got}"
            ),
        ),
        "subagent-from-store-names-spawning-tool-use": absent_or(
            seen,
            "subagent messages",
            lambda got: check(
                got == claimed_rows(SUB_CHAIN, spawned),
                f"get_subagent_messages_from_store gave {got} (the agent_metadata entry names {SPAWNED_BY})",
            ),
        )
        if parents
        else undecidable("this SDK's SessionMessage has no subagent parent ids"),
        "import-replays-transcript-and-subagents": absent_or(seen, "import", imported),
    }


store_readers_match_disk.differs_on(  # SDKSessionInfo losing fields, on disk and from the store alike
    {
        "disk info": info_without(INFO),
        "listed": [info_without(_STORE_INFO)],
        "info": info_without(INFO),
        "info unknown": None,
        "messages": {"all": claimed_rows(CHAIN), "limit 2 offset 1": claimed_rows(CHAIN[1:3]), "unknown": []},
        "subagents": [AGENT],
        "subagent messages": claimed_rows(SUB_CHAIN, f"spawned by {SPAWNED_BY}"),
        "subagent ids supported": True,
        "import": {
            "sessions": ["session"],
            "main entries are the transcript's": True,
            "main entries": ["u1", "a1", "u2", "a2", "custom-title"],
            "subkeys": [_SUBPATH],
            "subagent entries": ["su1", "sa1", "agent_metadata"],
            "subagent metadata": [{"agentType": "runner", "toolUseId": SPAWNED_BY}],
            "subkeys without subagents": [],
            "unknown session raised": "FileNotFoundError",
        },
    }
)
store_readers_match_disk.differs_on(
    {
        "disk info": dict(INFO),
        "listed": [],
        "info": {**INFO, "summary": FIRST_PROMPT},
        "info unknown": None,
        "messages": {"all": claimed_rows(CHAIN[:2]), "limit 2 offset 1": [], "unknown": []},
        "subagents": [f"agent-{AGENT}"],
        "subagent messages": claimed_rows(SUB_CHAIN[::-1]),
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


# What one fork_session_via_store call made: its id ("new" when fresh), whether it loads under the project
# key, its entries (fork_shape); only "raised" when it raised.
ForkStored = TypedDict(
    "ForkStored",
    {"id": str, "stored under the project key": bool, "entries": list[dict[str, Any]], "raised": str},
    total=False,
)
StoreStep = TypedDict(
    "StoreStep",
    {"raised": str | None, "appended": list[dict[str, Any]], "then read": Read | None},  # appended: in brief
)
StoreDelete = TypedDict(
    "StoreDelete",
    {
        "raised": str | None,
        "session loads": list[Any] | None,
        "subkeys left": list[str],
        "forks still load": list[bool],
    },
)
WormDelete = TypedDict("WormDelete", {"raised": str | None, "entries kept": bool})
_StoreStepped = Literal["rename '  Store title  '", "tag '\\u200bstored '", "tag None"]
# Filled in call by call.
StoreMutationsSeen = TypedDict(
    "StoreMutationsSeen",
    {
        "fork up to a1": ForkStored | Absent,
        "fork titled": ForkStored | Absent,
        "source unchanged": bool | Absent,
        "fork unknown": str | None,
        "rename '  Store title  '": StoreStep | Absent,
        "tag '\\u200bstored '": StoreStep | Absent,
        "tag None": StoreStep | Absent,
        "refused": dict[str, str | None],  # call: the exception it raised, None, or "absent"
        "delete": StoreDelete | Absent,
        "delete on a store without delete()": WormDelete | Absent,
    },
    total=False,
)


async def _fork_in_store(h: Harness, store: Any, fork: Callable[[], Any]) -> ForkStored:
    try:
        result = await fork()
    except Exception as exc:  # which exception the SDK raises is the finding
        return {"raised": type(exc).__name__}
    fork_id = getattr(result, "session_id", None)
    entries = await store.load({"project_key": project_folder_key(h.cwd), "session_id": str(fork_id)})
    return {
        "id": "new" if is_fresh(fork_id, [fork_id]) and fork_id != SID else str(fork_id),
        "stored under the project key": entries is not None,
        "entries": fork_shape(entries or [], fork_id),
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
async def store_mutations(h: Harness) -> StoreMutationsSeen:
    store, where, key = await _stored(h), str(h.cwd), _key(h)
    fork, rename = function("fork_session_via_store"), function("rename_session_via_store")
    tag, delete = function("tag_session_via_store"), function("delete_session_via_store")
    info = function("get_session_info_from_store")
    seen: StoreMutationsSeen = {}
    if fork:
        seen["fork up to a1"] = await _fork_in_store(
            h, store, lambda: fork(store, SID, directory=where, up_to_message_id=A1)
        )
        seen["fork titled"] = await _fork_in_store(
            h, store, lambda: fork(store, SID, directory=where, title=" Branch ")
        )
        seen["source unchanged"] = await store.load(key) == main_lines(where)
        seen["fork unknown"] = await _raised_async(lambda: fork(store, OTHER_SID, directory=where))
    else:
        seen["fork up to a1"] = seen["fork titled"] = seen["source unchanged"] = absent("fork_session_via_store")
    steps: list[tuple[_StoreStepped, Callable[[], Any] | None, str]] = [
        (
            "rename '  Store title  '",
            rename and (lambda: rename(store, SID, "  Store title  ", directory=where)),
            "rename",
        ),
        ("tag '\\u200bstored '", tag and (lambda: tag(store, SID, "\u200bstored ", directory=where)), "tag"),
        ("tag None", tag and (lambda: tag(store, SID, None, directory=where)), "tag"),
    ]
    for label, step, name in steps:
        if step is None:
            seen[label] = absent(f"{name}_session_via_store")
            continue
        before = len(await store.load(key) or [])
        raised = await _raised_async(step)
        read = await info(store, SID, directory=where) if info else None
        seen[label] = {
            "raised": raised,
            "appended": brief((await store.load(key) or [])[before:]),
            "then read": None if read is None else {"custom_title": read.custom_title, "tag": read.tag},
        }
    seen["refused"] = {
        label: await _raised_async(call) if fn else "absent"
        for label, fn, call in (
            ("rename '   '", rename, lambda: rename(store, SID, "   ", directory=where)),
            ("rename invalid id", rename, lambda: rename(store, "not-a-uuid", "x", directory=where)),
            ("tag '\\u200b '", tag, lambda: tag(store, SID, "\u200b ", directory=where)),
            ("delete invalid id", delete, lambda: delete(store, "not-a-uuid", directory=where)),
        )
    }
    if delete:
        forks = [
            e["session_id"] for e in await store.list_sessions(project_folder_key(h.cwd)) if e["session_id"] != SID
        ]
        raised = await _raised_async(lambda: delete(store, SID, directory=where))
        worm = _AppendOnly(main_lines(where))
        worm_raised = await _raised_async(lambda: delete(worm, SID, directory=where))
        seen["delete"] = {
            "raised": raised,
            "session loads": await store.load(key),
            "subkeys left": await store.list_subkeys(key),
            "forks still load": [bool(await store.load({**key, "session_id": f})) for f in forks],
        }
        seen["delete on a store without delete()"] = {
            "raised": worm_raised,
            "entries kept": worm.entries == main_lines(where),
        }
    else:
        seen["delete"] = seen["delete on a store without delete()"] = absent("delete_session_via_store")
    return seen


@store_mutations.decide
def _(seen: StoreMutationsSeen) -> dict[str, Check]:
    def step(label: _StoreStepped, claimed: list[dict[str, Any]], read: dict[str, Any]) -> str | None:
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
        "fork-via-store-up-to-message": absent_or(
            seen,
            "fork up to a1",
            fork_check("fork_session_via_store(up_to_message_id=a1)", forked_rows(CHAIN[:2], f"{TITLE} (fork)")),
        ),
        "fork-via-store-given-title": absent_or(
            seen, "fork titled", fork_check("fork_session_via_store(title=' Branch ')", forked_rows(CHAIN, "Branch"))
        ),
        "fork-via-store-leaves-source": absent_or(
            seen,
            "source unchanged",
            lambda same: check(
                same is True and seen.get("fork unknown") == "FileNotFoundError",
                f"the source's entries {'stayed' if same else 'changed'}; forking an unknown session raised "
                f"{seen.get('fork unknown') or 'nothing'}",
            ),
        ),
        "rename-via-store-appends-title": absent_or(
            seen, "rename '  Store title  '", lambda _: check(renamed is None, renamed or "")
        ),
        "tag-via-store-appends-and-clears": absent_or(seen, "tag None", lambda _: check(not tags, "; ".join(tags))),
        "bad-input-refused": check(all(v == "ValueError" for v in refused.values()), f"the calls raised {refused}")
        if refused
        else undecidable("this SDK has none of the *_via_store mutations"),
        "delete-via-store-cascades": absent_or(
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
        "delete-without-store-delete-is-no-op": absent_or(
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
        "fork titled": {
            "id": "new",
            "stored under the project key": True,
            "entries": forked_rows(CHAIN, "Branch (fork)"),
        },
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
        return list(self.entries) if key.get("session_id") == SID and not key.get("subpath") else None

    async def list_session_summaries(self, project_key: str) -> list[Any]:
        return list(self.summaries)


class Folded(TypedDict):  # a SessionSummaryEntry, its session named
    session_id: str
    mtime: int | None


FoldSeen = TypedDict(
    "FoldSeen",
    {
        "first fold": Folded,
        "later fold": Folded,
        "listed": list[dict[str, Any]],  # SDKSessionInfos as info_dict gives them
        "listed last_modified": list[int],
        "info from entries": dict[str, Any] | None,  # likewise, without its file_size
    },
)


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
async def fold_summary_feeds_store_listing(h: Harness) -> FoldSeen:
    sdk = sdk_functions()

    where, key = str(h.cwd), _key(h)
    lines = main_lines(where)
    tagged = {"type": "tag", "tag": "urgent", "sessionId": SID}
    first = sdk.fold_session_summary(None, key, lines[:2])
    later = sdk.fold_session_summary({**first, "mtime": _STAMPED}, key, [*lines[2:], tagged])
    store = _SummaryStore([later], [*lines, tagged])
    listed = await sdk.list_sessions_from_store(store, directory=where)
    from_entries = await sdk.get_session_info_from_store(store, SID, directory=where)
    return {
        "first fold": {"session_id": NAMES.get(first.get("session_id"), "other"), "mtime": first.get("mtime")},
        "later fold": {"session_id": NAMES.get(later.get("session_id"), "other"), "mtime": later.get("mtime")},
        "listed": [info_dict(h, i) for i in listed],
        "listed last_modified": [i.last_modified for i in listed],
        "info from entries": _without(info_dict(h, from_entries), "file_size"),  # its size: of the entries' JSON
    }


@fold_summary_feeds_store_listing.decide
def _(seen: FoldSeen) -> dict[str, Check]:
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
            and same_fields(listed[0], claimed)
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
        "listed": [{**_STORE_INFO, "tag": None, "summary": FIRST_PROMPT}],
        "listed last_modified": [1767323048000],
        "info from entries": _without({**_STORE_INFO, "tag": "urgent"}, "file_size"),
    }
)


# --- sessions.in-memory-store-keeps-what-was-appended ---------------------------------------------

# ids no normalising rewrites (a UUID would read <UUID> in the report), so the decision compares them
_STORED_SID = "probe-stored-session"
_KEY = {"projectKey": "probe-project", "sessionId": _STORED_SID}
_SUBKEY = {**_KEY, "subpath": f"subagents/agent-{AGENT}"}
_ENTRIES = [{"type": "user", "uuid": "probe-u1", "marker": MARKER}, {"type": "assistant", "uuid": "probe-a1"}]
_LATER = [{"type": "user", "uuid": "probe-u2"}]
_SUB_ENTRIES = [{"type": "user", "uuid": "probe-su1", "isSidechain": True}]
# (label, method, arguments): one instance, called in this order
_STORE_CALLS: list[tuple[str, str, list[Any]]] = [
    ("load before any append", "load", [_KEY]),
    ("append", "append", [_KEY, _ENTRIES]),
    ("append again", "append", [_KEY, _LATER]),
    ("load", "load", [_KEY]),
    ("append to a subpath", "append", [_SUBKEY, _SUB_ENTRIES]),
    ("load the subpath", "load", [_SUBKEY]),
    ("listSessions", "listSessions", ["probe-project"]),
    ("listSubkeys", "listSubkeys", [{"projectKey": "probe-project", "sessionId": _STORED_SID}]),
    ("delete", "delete", [_KEY]),
    ("load after delete", "load", [_KEY]),
]


class KeptSeen(TypedDict):
    """Each call's reply by its label: `{"value": V}`, `{"undefined": True}` or `{"error": ...}`
    (listSessions' mtimes read as whether each is a number)."""

    replies: dict[str, Any]


def _listed(reply: Any) -> Any:
    value = reply.get("value") if isinstance(reply, dict) else None
    if not isinstance(value, list):
        return reply
    rows = [{**r, "mtime": isinstance(r.get("mtime"), (int, float))} if isinstance(r, dict) else r for r in value]
    return {"value": rows}


@behaviour(
    id="sessions.in-memory-store-keeps-what-was-appended",
    claim=(
        "The TypeScript SDK's InMemorySessionStore, a SessionStore, gives back from load(key) every entry appended "
        "under that key, in order (null before any), keeps a subpath's entries apart, lists the session with its "
        "mtime and its subkeys, and after delete(key) loads null."
    ),
    summary="InMemorySessionStore loads what was appended, lists it, and forgets it on delete",
    source=("sdk-ts", "InMemorySessionStore"),
    tier="wire",
    checks=("load-gives-what-was-appended", "lists-what-it-holds", "delete-forgets-it"),
    requires=("api:InMemorySessionStore.getEntries",),
    pins={
        "load-gives-what-was-appended": ("class:InMemorySessionStore",),
        "lists-what-it-holds": ("class:InMemorySessionStore",),
        "delete-forgets-it": ("class:InMemorySessionStore",),
    },
)
async def in_memory_store_keeps_what_was_appended(h: Harness) -> KeptSeen:
    replies = session_functions().instance_calls(
        "InMemorySessionStore", [(method, args) for _, method, args in _STORE_CALLS]
    )
    by_label = {label: reply for (label, _, _), reply in zip(_STORE_CALLS, replies, strict=True)}
    by_label["listSessions"] = _listed(by_label.get("listSessions"))
    return {"replies": by_label}


@in_memory_store_keeps_what_was_appended.decide
def _(seen: KeptSeen) -> dict[str, Check]:
    r = seen["replies"]
    loaded = [r.get("load before any append"), r.get("load"), r.get("load the subpath")]
    listed = [r.get("listSessions"), r.get("listSubkeys")]
    return {
        "load-gives-what-was-appended": check(
            loaded == [{"value": None}, {"value": [*_ENTRIES, *_LATER]}, {"value": _SUB_ENTRIES}],
            f"load before, after two appends, of the subpath: {loaded}",
        ),
        "lists-what-it-holds": check(
            listed == [{"value": [{"sessionId": _STORED_SID, "mtime": True}]}, {"value": [_SUBKEY["subpath"]]}],
            f"listSessions, listSubkeys: {listed}",
        ),
        "delete-forgets-it": check(
            r.get("load after delete") == {"value": None}, f"load after delete: {r.get('load after delete')}"
        ),
    }


_KEPT: KeptSeen = {
    "replies": {
        "load before any append": {"value": None},
        "append": {"undefined": True},
        "append again": {"undefined": True},
        "load": {"value": [*_ENTRIES, *_LATER]},
        "append to a subpath": {"undefined": True},
        "load the subpath": {"value": _SUB_ENTRIES},
        "listSessions": {"value": [{"sessionId": _STORED_SID, "mtime": True}]},
        "listSubkeys": {"value": [_SUBKEY["subpath"]]},
        "delete": {"undefined": True},
        "load after delete": {"value": None},
    }
}
# a release whose append replaces what was there instead of adding to it
in_memory_store_keeps_what_was_appended.differs_on({"replies": {**_KEPT["replies"], "load": {"value": _LATER}}})
# a release that keys subpaths with the main transcript (a subagent's entries mixed in), so lists no subkey
in_memory_store_keeps_what_was_appended.differs_on({"replies": {**_KEPT["replies"], "listSubkeys": {"value": []}}})
# a release whose delete leaves the entries
in_memory_store_keeps_what_was_appended.differs_on(
    {"replies": {**_KEPT["replies"], "load after delete": {"value": [*_ENTRIES, *_LATER]}}}
)
