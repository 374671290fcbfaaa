"""Which tools the model is offered, what the options add or take away, and what a built-in tool
then does."""

from __future__ import annotations

import io
import json
import re
import struct
import zipfile
import zlib
from collections.abc import Sequence
from typing import Any, TypedDict, cast

from sdkprobe.behaviour import Check, behaviour, check, needs_live, undecidable
from sdkprobe.catalogue.tools.support import SESSIONS_CEILING, first_result, mem_server, second_results
from sdkprobe.harness import (
    MAIN,
    CliRun,
    Harness,
    McpTool,
    OptionMissing,
    Reply,
    in_process_server,
    in_process_tool,
    plugin_folder,
    reply,
    result_text,
    stdio_mcp_server,
    tool_use,
)

# The built-in tools the claim names; the rest of the offered list moves with every CLI
# release and says nothing about the claim, so it is not kept.
_WATCHED = ("Bash", "Edit", "Read", "Write")

OffersSeen = TypedDict("OffersSeen", {"allowed_tools=[Read] offers": list[str], "tools=[Read] offers": list[str]})


@behaviour(
    id="tools.allowed-tools-does-not-restrict",
    claim=(
        "allowed_tools only pre-approves tools and removes none from the model's view; "
        "the tools option is what decides which built-in tools exist."
    ),
    summary="allowed_tools only pre-approves; the tools option decides which built-ins exist",
    security="a host that reads allowed_tools as a whitelist believes tools are blocked that the model can use",
    source=("003", "Quick answer"),
    tier="cli",
    checks=("allowed-tools-keeps-others", "tools-narrows-to-read"),
    requires=("option:tools", "option:allowed_tools"),
    pins={
        "allowed-tools-keeps-others": ("option:allowed_tools",),
        "tools-narrows-to-read": ("option:tools",),
    },
)
async def allowed_tools_does_not_restrict(h: Harness) -> OffersSeen:
    allowed = await h.cli("hi", allowed_tools=["Read"])
    narrowed = await h.cli("hi", tools=["Read"])
    return {
        "allowed_tools=[Read] offers": [t for t in _WATCHED if t in allowed.offered_tools],
        "tools=[Read] offers": sorted(narrowed.offered_tools),
    }


@allowed_tools_does_not_restrict.decide
def _(seen: OffersSeen) -> dict[str, Check]:
    allowed, narrowed = seen["allowed_tools=[Read] offers"], seen["tools=[Read] offers"]
    return {
        "allowed-tools-keeps-others": check(
            list(_WATCHED) == allowed, f"with allowed_tools=[Read] the model was offered only {allowed} of {_WATCHED}"
        ),
        "tools-narrows-to-read": check(narrowed == ["Read"], f"with tools=[Read] the model was offered {narrowed}"),
    }


allowed_tools_does_not_restrict.differs_on(
    {"allowed_tools=[Read] offers": ["Read"], "tools=[Read] offers": ["Bash", "Read"]}
)


# --- shared by the blocks below ---------------------------------------------------------

# Old CLIs (2.1.1) take seconds per session. A probe below that this takes past the default
# 60 s is given _ONE_SESSION_CEILING when it runs one session, SESSIONS_CEILING when it
# runs one per case.
_ONE_SESSION_CEILING = 90


# --- tools.skill-must-be-listed-in-tools ------------------------------------------------

_SKILL_MD = "---\nname: demo\ndescription: Greets the user in Dutch, a probe's demo skill.\n---\nSay hallo.\n"
_SKILL_DESCRIPTION = "Greets the user in Dutch"
_SKILL_CONFIGS: dict[str, dict[str, Any]] = {
    "tools=[Read, Bash]": {"tools": ["Read", "Bash"]},
    "tools=[Read, Bash, Skill]": {"tools": ["Read", "Bash", "Skill"]},
    "tools=[Read], skills=all": {"tools": ["Read"], "skills": "all"},
}
# one config's run (None: this SDK lacks one of its options)
SkillSeen = TypedDict("SkillSeen", {"Skill offered": bool, "demo listed": bool, "demo loaded": bool})


@behaviour(
    id="tools.skill-must-be-listed-in-tools",
    claim=(
        "With an explicit tools list the Skill tool (and the skill listing) is offered only when the "
        "list names Skill, although the skills are loaded; skills='all' does not add it. Without it "
        "a model looks for SKILL.md files by hand."
    ),
    summary="With an explicit tools list, Skill is offered only when the list names it",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=(
        "unlisted-skill-tool-absent",
        "listed-skill-tool-offered",
        "skills-option-does-not-add-it",
        "model-hunts-skill-md",
    ),
    cannot_decide=("model-hunts-skill-md",),
    requires=("option:tools", "option:setting_sources"),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=SESSIONS_CEILING,
)
async def skill_must_be_listed_in_tools(h: Harness) -> dict[str, SkillSeen | None]:
    skill = h.cwd / ".claude" / "skills" / "demo"
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(_SKILL_MD, encoding="utf-8")
    seen: dict[str, SkillSeen | None] = {}
    for config, options in _SKILL_CONFIGS.items():
        try:
            run = await h.cli("hi", setting_sources=["project"], **options)
        except OptionMissing:  # skills= is newer than tools=
            seen[config] = None
            continue
        main = run.on(MAIN)
        # Newer CLIs list skills in a context message, older ones in the Skill tool's description.
        body = main[0].body if main else {}
        seen[config] = {
            "Skill offered": "Skill" in run.offered_tools,
            "demo listed": _SKILL_DESCRIPTION in json.dumps(body),
            "demo loaded": "demo" in (run.init.get("skills") or []),
        }
    return seen


@skill_must_be_listed_in_tools.decide
def _(seen: dict[str, SkillSeen | None]) -> dict[str, Check]:
    # only skills= is newer than tools=, so only its config's run may be None
    unlisted, listed, skills_all = cast(
        "tuple[SkillSeen, SkillSeen, SkillSeen | None]", (seen[c] for c in _SKILL_CONFIGS)
    )
    return {
        "unlisted-skill-tool-absent": check(
            unlisted["demo loaded"] and not unlisted["Skill offered"] and not unlisted["demo listed"],
            f"with tools=[Read, Bash]: {unlisted}",
        ),
        "listed-skill-tool-offered": check(
            listed["Skill offered"] and listed["demo listed"], f"with tools=[Read, Bash, Skill]: {listed}"
        ),
        "skills-option-does-not-add-it": (
            undecidable("ClaudeAgentOptions has no skills")
            if skills_all is None
            else check(not skills_all["Skill offered"], f"with tools=[Read] and skills='all': {skills_all}")
        ),
        "model-hunts-skill-md": needs_live("whether a model then reads SKILL.md by hand is the model's choice"),
    }


skill_must_be_listed_in_tools.differs_on(
    {
        "tools=[Read, Bash]": {"Skill offered": True, "demo listed": True, "demo loaded": True},
        "tools=[Read, Bash, Skill]": {"Skill offered": False, "demo listed": False, "demo loaded": True},
        "tools=[Read], skills=all": {"Skill offered": True, "demo listed": True, "demo loaded": True},
    }
)


# --- tools.in-process-record-schema-drops-server ----------------------------------------

# What zod's z.record(z.string()) turns into, as a JSON Schema property (the Python analogue).
_RECORD = {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {"type": "string"}}
_SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
_RECORD_SERVERS = {
    # sub-check: (server name, whether the tool schema carries a top-level $schema)
    "record-property-drops-tools": ("rec", False),
    "record-with-schema-uri-drops-tools": ("recs", True),
}


# one server's status in init, the tools of it offered, and the arguments its `tag` got
RecordServer = TypedDict(
    "RecordServer", {"status": str | None, "offered": list[str], "tag called with": list[dict[str, Any]]}
)


def _record_server(name: str, with_uri: bool, calls: list[dict[str, Any]]) -> Any:
    """In-process server with a record-shaped tool `tag` and a plain tool `plain`."""
    schema: dict[str, Any] = {"type": "object", "properties": {"labels": _RECORD}, "required": ["labels"]}
    if with_uri:
        schema["$schema"] = _SCHEMA_URI

    @in_process_tool("tag", "Tags something with string labels.", schema)
    async def tag(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(dict(args))
        return {"content": [{"type": "text", "text": "tagged"}]}

    @in_process_tool("plain", "A plain tool beside it.", {"type": "object", "properties": {}})
    async def plain(args: dict[str, Any]) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "plain ran"}]}

    return in_process_server(name, tools=[tag, plain])


@behaviour(
    id="tools.in-process-record-schema-drops-server",
    claim=(
        "A zod z.record() in an in-process tool's schema makes the TypeScript SDK drop every tool of "
        "that server while it shows as connected; the Python analogue is a record-shaped JSON Schema "
        "property (with or without a $schema URI), which would leave the server's tools unoffered."
    ),
    summary="A record-shaped schema in one in-process tool leaves all its server's tools unoffered",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=("zod-record-drops-server", *_RECORD_SERVERS),
    cannot_decide=("zod-record-drops-server",),
    requires=("option:mcp_servers", "api:create_sdk_mcp_server"),
    sdk_ref="claude_agent_sdk.create_sdk_mcp_server",
    timeout=_ONE_SESSION_CEILING,
)
async def in_process_record_schema_drops_server(h: Harness) -> dict[str, RecordServer]:
    calls: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in _RECORD_SERVERS.values()}
    run = await h.cli(
        "tag it",
        script=[reply(*(tool_use(f"mcp__{name}__tag", {"labels": {"k": "v"}}) for name in calls)), "done"],
        client=True,
        mcp_servers={name: _record_server(name, uri, calls[name]) for name, uri in _RECORD_SERVERS.values()},
        allowed_tools=[f"mcp__{name}" for name in calls],
        env={"ENABLE_TOOL_SEARCH": "false"},  # every tool in the request's tools, none deferred
    )
    status = {s.get("name"): s.get("status") for s in run.init.get("mcp_servers") or []}
    seen: dict[str, RecordServer] = {}
    for name in calls:
        prefix = f"mcp__{name}__"
        seen[name] = {
            "status": status.get(name),
            "offered": sorted(t[len(prefix) :] for t in run.offered_tools if t.startswith(prefix)),
            "tag called with": calls[name],
        }
    return seen


@in_process_record_schema_drops_server.decide
def _(seen: dict[str, RecordServer]) -> dict[str, Check]:
    checks: dict[str, Check] = {
        "zod-record-drops-server": undecidable("zod schemas exist only in the TypeScript SDK"),
    }
    for case, (name, _) in _RECORD_SERVERS.items():
        s = seen[name]
        checks[case] = check(
            s["status"] == "connected" and not s["offered"],
            f"server {name!r} was {s['status']!r} and offered {s['offered']}",
        )
    return checks


in_process_record_schema_drops_server.differs_on(
    {
        name: {"status": "connected", "offered": ["plain", "tag"], "tag called with": [{"labels": {"k": "v"}}]}
        for name, _ in _RECORD_SERVERS.values()
    }
)


# --- tools.disallowed-removes-builtin-not-mcp -------------------------------------------


def _where(run: CliRun, name: str) -> str:
    """Where the first main request carries a tool: in `tools`, only named as deferred, or absent."""
    main = run.on(MAIN)
    if not main:
        return "no request"
    if name in main[0].loaded_tools:
        return "tools"
    return "deferred" if name in main[0].deferred_tools else "absent"


# the call's tool_result (first_result: {} when none came back) and whether the handler ran
BlockedCall = TypedDict("BlockedCall", {"is_error": bool, "text": str, "handler ran": bool}, total=False)
# run -> where each watched tool was in its first request (_where); built run by run, so no key is required
DisallowedSeen = TypedDict(
    "DisallowedSeen",
    {
        "baseline": dict[str, str],
        "disallowed, tool search on": dict[str, str],
        "disallowed, tool search off": dict[str, str],
        "calling the disallowed MCP tool": BlockedCall,
    },
    total=False,
)


@behaviour(
    id="tools.disallowed-removes-builtin-not-mcp",
    claim=(
        "disallowed_tools takes a built-in tool (Bash) out of the API request, but a disallowed "
        "in-process MCP tool keeps its definition in the request and is only blocked when called; "
        "only not registering its server removes it."
    ),
    summary="disallowed_tools drops a built-in from the request, but only blocks an MCP tool's calls",
    security="a host that disallows a tool by name relies on it being gone from what the model is offered",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=("builtin-leaves-request", "mcp-definition-still-sent", "mcp-call-blocked"),
    requires=("option:disallowed_tools", "option:mcp_servers", "api:create_sdk_mcp_server"),
    timeout=SESSIONS_CEILING,
)
async def disallowed_removes_builtin_not_mcp(h: Harness) -> DisallowedSeen:
    watched = ("Bash", "mcp__mem__plain")
    baseline = await h.cli("hi", client=True, mcp_servers={"mem": mem_server([])})
    seen: DisallowedSeen = {"baseline": {t: _where(baseline, t) for t in watched}}
    calls: list[dict[str, Any]] = []
    for search in ("tool search on", "tool search off"):
        run = await h.cli(
            "call it",
            script=[reply(tool_use("mcp__mem__plain", {})), "done"],
            client=True,
            mcp_servers={"mem": mem_server(calls)},
            disallowed_tools=list(watched),
            env={} if search == "tool search on" else {"ENABLE_TOOL_SEARCH": "false"},
        )
        cast("dict[str, Any]", seen)[f"disallowed, {search}"] = {t: _where(run, t) for t in watched}
        if search == "tool search on":
            seen["calling the disallowed MCP tool"] = {
                **cast("BlockedCall", first_result(run)),
                "handler ran": bool(calls),
            }
    return seen


@disallowed_removes_builtin_not_mcp.decide
def _(seen: DisallowedSeen) -> dict[str, Check]:
    base = seen["baseline"]
    runs = cast("dict[str, dict[str, str]]", seen)  # the runs read alike, by label
    disallowed = {k: v for k, v in runs.items() if k.startswith("disallowed")}
    call = seen["calling the disallowed MCP tool"]
    bash = {k: v["Bash"] for k, v in disallowed.items()}
    mcp = {k: v["mcp__mem__plain"] for k, v in disallowed.items()}
    return {
        "builtin-leaves-request": check(
            base["Bash"] != "absent" and all(w == "absent" for w in bash.values()),
            f"Bash was in {base['Bash']!r} by default; disallowed: {bash}",
        ),
        "mcp-definition-still-sent": check(
            base["mcp__mem__plain"] != "absent" and all(w != "absent" for w in mcp.values()),
            f"mcp__mem__plain was in {base['mcp__mem__plain']!r} by default; disallowed: {mcp}",
        ),
        "mcp-call-blocked": check(
            call.get("is_error") is True and not call["handler ran"],
            f"the call returned {call.get('text')!r} (is_error {call.get('is_error')}), handler ran: "
            f"{call['handler ran']}",
        ),
    }


disallowed_removes_builtin_not_mcp.differs_on(
    {
        "baseline": {"Bash": "tools", "mcp__mem__plain": "deferred"},
        "disallowed, tool search on": {"Bash": "tools", "mcp__mem__plain": "absent"},
        "disallowed, tool search off": {"Bash": "tools", "mcp__mem__plain": "absent"},
        "calling the disallowed MCP tool": {"is_error": False, "text": "plain ran", "handler ran": True},
    }
)


# --- tools.todowrite-needs-enable-tasks-0 -----------------------------------------------

_TASK_TOOLS = ("TaskCreate", "TaskUpdate", "TaskList", "TaskGet")
_TASKS_OFF = {"CLAUDE_CODE_ENABLE_TASKS": "0"}
_ASKS_TODOS = {"allowed_tools": ["TodoWrite"]}
_NAMES_TODOS = {"tools": ["TodoWrite", "Read"]}
_TODO_CONFIGS: dict[str, dict[str, Any]] = {
    # Recent CLIs offer neither family unless an option names one, so the configs that ask
    # for TodoWrite say so with an allow rule or the tools list.
    "default": {},
    "allowed_tools=[TodoWrite]": _ASKS_TODOS,
    "allowed_tools=[TodoWrite], =0": {**_ASKS_TODOS, "env": _TASKS_OFF},
    "tools=[TodoWrite, Read]": _NAMES_TODOS,
    "tools=[TodoWrite, Read], =0": {**_NAMES_TODOS, **_ASKS_TODOS, "env": _TASKS_OFF},
}
_CALLS_TODOS = "tools=[TodoWrite, Read], =0"  # where TodoWrite should exist: it is called there
_TODOS = {
    "todos": [
        {"content": "Write the probe", "status": "in_progress", "activeForm": "Writing the probe"},
        {"content": "Run the probe", "status": "pending", "activeForm": "Running the probe"},
    ]
}


@behaviour(
    id="tools.todowrite-needs-enable-tasks-0",
    claim=(
        "TodoWrite is offered only with CLAUDE_CODE_ENABLE_TASKS=0; by default the CLI offers "
        "TaskCreate/TaskUpdate/TaskList/TaskGet instead, even when tools names TodoWrite. Each "
        "TodoWrite call carries the whole list {todos:[{content,status,activeForm}]}, and its "
        "result only says the list was saved."
    ),
    summary="TodoWrite is offered only with CLAUDE_CODE_ENABLE_TASKS=0; the Task tools otherwise",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=(
        "todowrite-only-with-tasks-0",
        "task-tools-by-default",
        "call-carries-whole-list",
        "result-only-says-saved",
    ),
    requires=("option:tools", "option:allowed_tools", "option:env"),
    timeout=SESSIONS_CEILING,
    pins={"task-tools-by-default": ("option:tools",)},
)
async def todowrite_needs_enable_tasks_0(h: Harness) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for config, options in _TODO_CONFIGS.items():
        calls = config == _CALLS_TODOS
        script: list[Reply | str] | None = [reply(tool_use("TodoWrite", _TODOS)), "done"] if calls else None
        run = await h.cli("plan it", script=script, **options)
        offered = run.offered_tools
        seen[config] = {"TodoWrite": "TodoWrite" in offered, "task tools": [t for t in _TASK_TOOLS if t in offered]}
        if calls:
            main = run.on(MAIN)
            schema = (main[0].tool_schema("TodoWrite") if main else None) or {}
            item = ((schema.get("properties") or {}).get("todos") or {}).get("items") or {}
            seen["TodoWrite input"] = {
                "required": schema.get("required"),
                "todos item required": sorted(item.get("required") or []),
            }
            seen["TodoWrite result"] = first_result(run)
    return seen


@todowrite_needs_enable_tasks_0.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    todo = {c: seen[c]["TodoWrite"] for c in _TODO_CONFIGS}
    wanted = {c: c.endswith("=0") for c in _TODO_CONFIGS}
    tasks = {c: seen[c]["task tools"] for c in ("default", "allowed_tools=[TodoWrite]")}
    schema, result = seen["TodoWrite input"], seen["TodoWrite result"]
    text = result.get("text", "")
    return {
        "todowrite-only-with-tasks-0": check(todo == wanted, f"TodoWrite offered: {todo}"),
        "task-tools-by-default": check(
            all(t == list(_TASK_TOOLS) for t in tasks.values()), f"the task tools offered: {tasks}"
        ),
        "call-carries-whole-list": check(
            schema["required"] == ["todos"] and schema["todos item required"] == ["activeForm", "content", "status"],
            f"TodoWrite's input schema requires {schema}",
        ),
        "result-only-says-saved": check(
            result.get("is_error") is False and "Write the probe" not in text and "Run the probe" not in text,
            f"the TodoWrite result was {result or 'none'}",
        ),
    }


todowrite_needs_enable_tasks_0.differs_on(
    {
        **{c: {"TodoWrite": True, "task tools": []} for c in _TODO_CONFIGS},
        "TodoWrite input": {"required": None, "todos item required": []},
        "TodoWrite result": {"is_error": True, "text": "No such tool available: TodoWrite"},
    }
)


# --- tools.read-refuses-docx-pptx -------------------------------------------------------


def _pdf() -> bytes:
    """A one-page PDF saying 'sdkprobe', with a correct cross-reference table."""
    text = b"BT /F1 12 Tf 20 50 Td (sdkprobe) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (n, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _png() -> bytes:
    """A 4x4 red RGB PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 4 for _ in range(4))
    header = struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


_OOXML_NS = "http://schemas.openxmlformats.org"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'


def _ooxml(main_part: str, content_type: str, body: str) -> bytes:
    """A minimal Office Open XML package (a zip): content types, the root relationship, one part."""
    types = (
        f'{_XML}<Types xmlns="{_OOXML_NS}/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/{main_part}" ContentType="{content_type}"/></Types>'
    )
    rels = (
        f'{_XML}<Relationships xmlns="{_OOXML_NS}/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{_OOXML_NS}/officeDocument/2006/relationships/officeDocument" '
        f'Target="{main_part}"/></Relationships>'
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", types), ("_rels/.rels", rels), (main_part, _XML + body)):
            z.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


def _docx() -> bytes:
    return _ooxml(
        "word/document.xml",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        f'<w:document xmlns:w="{_OOXML_NS}/wordprocessingml/2006/main">'
        "<w:body><w:p><w:r><w:t>sdkprobe</w:t></w:r></w:p></w:body></w:document>",
    )


def _pptx() -> bytes:
    return _ooxml(
        "ppt/presentation.xml",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
        f'<p:presentation xmlns:p="{_OOXML_NS}/presentationml/2006/main"><p:sldIdLst/></p:presentation>',
    )


_DOCUMENTS = {
    # sub-check: (file name, how to make it, whether Read should refuse it)
    "pdf-read": ("probe.pdf", _pdf, False),
    "png-read": ("probe.png", _png, False),
    "docx-refused": ("probe.docx", _docx, True),
    "pptx-refused": ("probe.pptx", _pptx, True),
}
_BINARY_REFUSAL = "This tool cannot read binary files"


class ReadResult(TypedDict):
    """Read's result for one file."""

    is_error: bool | None  # None: no result came back
    content: list[Any] | str  # the content's block types, or its type's name when it is not a list
    refusal: str | None  # the binary-file refusal's first sentence


@behaviour(
    id="tools.read-refuses-docx-pptx",
    claim=(
        "The Read tool reads PDFs and images but refuses DOCX and PPTX files with 'This tool cannot read binary files'."
    ),
    summary="Read reads PDFs and images but refuses DOCX and PPTX as binary files",
    source=("000", "Tools and permissions"),
    tier="cli",
    checks=tuple(_DOCUMENTS),
    requires=("option:allowed_tools",),
    timeout=_ONE_SESSION_CEILING,
)
async def read_refuses_docx_pptx(h: Harness) -> dict[str, ReadResult]:
    ids = {}
    blocks = []
    for case, (name, make, _) in _DOCUMENTS.items():
        (h.cwd / name).write_bytes(make())
        ids[case] = f"toolu_read_{case.split('-')[0]}"
        blocks.append(tool_use("Read", {"file_path": str(h.cwd / name)}, id=ids[case]))
    run = await h.cli("read them", script=[reply(*blocks), "done"], allowed_tools=["Read"])
    main = run.on(MAIN)
    seen: dict[str, ReadResult] = {}
    for case, (name, _, _) in _DOCUMENTS.items():
        block = main[1].tool_result(ids[case]) if len(main) > 1 else None
        content = (block or {}).get("content")
        text = result_text(block)
        seen[name] = {
            "is_error": bool((block or {}).get("is_error")) if block else None,
            # What came back: a string, or the kinds of blocks (text, image, document).
            "content": sorted({c.get("type") for c in content})
            if isinstance(content, list)
            else type(content).__name__,
            "refusal": text[text.find(_BINARY_REFUSAL) :].split(".")[0] if _BINARY_REFUSAL in text else None,
        }
    return seen


@read_refuses_docx_pptx.decide
def _(seen: dict[str, ReadResult]) -> dict[str, Check]:
    checks = {}
    for case, (name, _, refused) in _DOCUMENTS.items():
        r = seen[name]
        ok = (
            (r["is_error"] is True and r["refusal"] is not None)
            if refused
            else (r["is_error"] is False and not r["refusal"])
        )
        checks[case] = check(ok, f"{name}: is_error {r['is_error']}, content {r['content']}, refusal {r['refusal']!r}")
    return checks


read_refuses_docx_pptx.differs_on(
    {
        name: {"is_error": True, "content": "str", "refusal": _BINARY_REFUSAL}
        if not refused
        else {"is_error": False, "content": ["text"], "refusal": None}
        for name, _, refused in _DOCUMENTS.values()
    }
)


# --- tools.mcp-tool-naming --------------------------------------------------------------


# each list holds only the probe's own tools (plain, peek, glance), however the CLI named them
NamingSeen = TypedDict(
    "NamingSeen",
    {"init.tools": list[str], "request tools": list[str], "PostToolUse tool_name": list[str], "results": list[str]},
)


@behaviour(
    id="tools.mcp-tool-naming",
    claim=(
        "A tool of an MCP server passed in mcp_servers is named mcp__<server>__<tool>, for an "
        "in-process and a stdio server alike, in init.tools, in the API request and in what the CLI "
        "reports about a call of it."
    ),
    summary="An MCP server's tool is named mcp__<server>__<tool> everywhere it appears",
    source=("004", "strictMcpConfig also blocks plugin MCP"),
    tier="cli",
    checks=("in-process-server-name", "stdio-server-name", "reported-call-name"),
    requires=("option:mcp_servers", "option:plugins", "option:hooks", "api:create_sdk_mcp_server", "api:HookMatcher"),
    timeout=_ONE_SESSION_CEILING,
    pins={"in-process-server-name": ("function:create_sdk_mcp_server",)},
)
async def mcp_tool_naming(h: Harness) -> NamingSeen:
    from sdkprobe.harness import HookMatcher

    disk = stdio_mcp_server(h.workdir("mcp"), "disk", [McpTool("peek", result="peeked")])
    # A plugin's own .mcp.json server, loaded with the plugin: its form is recorded, not judged.
    shelf = stdio_mcp_server(h.workdir("mcp"), "shelf", [McpTool("glance")])
    plugin = plugin_folder(h.workdir("plugin"), "plug", mcp_servers={"shelf": shelf.config})

    async def ran(hook_input: Any, tool_use_id: str | None, context: Any) -> Any:
        return {}

    run = await h.cli(
        "use them",
        script=[reply(tool_use("mcp__mem__plain", {}), tool_use("mcp__disk__peek", {})), "done"],
        client=True,
        mcp_servers={"mem": mem_server([]), "disk": disk.config},
        plugins=[plugin.config],
        allowed_tools=["mcp__mem", "mcp__disk"],
        env={"ENABLE_TOOL_SEARCH": "false"},
        # The ToolUseBlock names are the model's own (here the script's); the CLI's PostToolUse
        # input names the tool it ran, which is the name a host sees from the CLI itself.
        hooks={"PostToolUse": [HookMatcher(hooks=[ran])]},
    )
    ours = ("plain", "peek", "glance")

    def named(names: Sequence[str]) -> list[str]:
        return sorted(n for n in names if n.split("__")[-1] in ours)

    reported = [c["input"] for c in run.callbacks if c["kind"] == "hook" and c["event"] == "PostToolUse"]
    return {
        "init.tools": named(run.init.get("tools") or []),
        "request tools": named(run.offered_tools),
        "PostToolUse tool_name": sorted(str(i.get("tool_name")) for i in reported),
        "results": sorted(result_text(b) for b in second_results(run)),
    }


@mcp_tool_naming.decide
def _(seen: NamingSeen) -> dict[str, Check]:
    places = {k: seen[k] for k in ("init.tools", "request tools")}

    def everywhere(name: str) -> Check:
        missing = [k for k, names in places.items() if name not in names]
        return check(not missing, f"{name} missing from {missing}: {places}")

    return {
        "in-process-server-name": everywhere("mcp__mem__plain"),
        "stdio-server-name": everywhere("mcp__disk__peek"),
        "reported-call-name": check(
            seen["PostToolUse tool_name"] == ["mcp__disk__peek", "mcp__mem__plain"]
            and seen["results"] == ["peeked", "plain ran"],
            f"the CLI reported calls of {seen['PostToolUse tool_name']}, results {seen['results']}",
        ),
    }


mcp_tool_naming.differs_on(
    {
        "init.tools": ["disk__peek", "mem__plain"],
        "request tools": ["disk__peek", "mem__plain"],
        "PostToolUse tool_name": ["peek", "plain"],
        "results": [],
    }
)

# An option starts near the left margin; its description (which may name other flags) is indented far.
_OPTION_LINE = re.compile(r"^\s{1,6}-")


def _help_entry(help_text: str, flag: str) -> str | None:
    """The help text of one option (its line and the indented lines that continue it), one line."""
    lines = help_text.splitlines()
    for i, line in enumerate(lines):
        if re.match(rf"^\s{{1,6}}(?:-\w, )?{re.escape(flag)}[ ,<]", line + " "):
            entry = [line]
            for more in lines[i + 1 :]:
                if not more.strip() or _OPTION_LINE.match(more):
                    break
                entry.append(more)
            return " ".join(" ".join(entry).split())
    return None


HelpSeen = TypedDict(
    "HelpSeen",
    {
        "--tools help": str | None,  # the CLI's --help entry for --tools, one line
        "tools omitted offers": int,
        "offered only with tools omitted": list[str],
        "offered only with the preset": list[str],
        "tools=[] offers": list[str],
        "tools=[] sent a request": bool,
    },
)


@behaviour(
    id="tools.tools-flag-as-help-defines",
    claim=(
        "The CLI's own help defines --tools '' as no built-in tools and 'default' as the default set; the "
        "CLI offers the model none for '' (tools=[]), and the same tools for the preset (--tools default) "
        "as when the tools option is left out (no flag)."
    ),
    summary="--tools '' offers no built-ins, and --tools default the same set as no flag",
    source=("003", "What each shape actually sends"),
    tier="cli",
    checks=("help-defines-empty-and-default", "empty-offers-no-tools", "preset-same-as-omitted"),
    requires=("option:tools",),
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport._build_command",
    timeout=120,
    pins={"empty-offers-no-tools": ("option:tools",)},
)
async def tools_flag_as_help_defines(h: Harness) -> HelpSeen:
    entry = _help_entry(await h.cli_output("--help"), "--tools")
    omitted = (await h.cli("hi", script=["ok"])).offered_tools
    preset = (await h.cli("hi", script=["ok"], tools={"type": "preset", "preset": "claude_code"})).offered_tools
    empty = await h.cli("hi", script=["ok"], tools=[])
    # the offered lists move with every CLI release: keep how the two differ, not the lists
    return {
        "--tools help": entry,
        "tools omitted offers": len(omitted),
        "offered only with tools omitted": sorted(set(omitted) - set(preset)),
        "offered only with the preset": sorted(set(preset) - set(omitted)),
        "tools=[] offers": sorted(empty.offered_tools),
        "tools=[] sent a request": bool(empty.requests),
    }


@tools_flag_as_help_defines.decide
def _(seen: HelpSeen) -> dict[str, Check]:
    entry = seen["--tools help"] or ""
    only_omitted, only_preset = seen["offered only with tools omitted"], seen["offered only with the preset"]
    return {
        "help-defines-empty-and-default": check(
            '""' in entry and "default" in entry,
            f"the CLI's help for --tools: {seen['--tools help']!r}",
        ),
        "empty-offers-no-tools": check(
            seen["tools=[] sent a request"] and not seen["tools=[] offers"],
            f"with tools=[] (--tools '') the model was offered {seen['tools=[] offers']} "
            f"(a request sent: {seen['tools=[] sent a request']})",
        ),
        "preset-same-as-omitted": check(
            seen["tools omitted offers"] > 0 and not only_omitted and not only_preset,
            f"{seen['tools omitted offers']} tools offered with tools omitted; only there: {only_omitted}; "
            f"only with the preset: {only_preset}",
        ),
    }


tools_flag_as_help_defines.differs_on(
    {
        "--tools help": "--tools <tools...> Specify the list of available tools",
        "tools omitted offers": 20,
        "offered only with tools omitted": ["Task"],
        "offered only with the preset": [],
        "tools=[] offers": ["Bash"],
        "tools=[] sent a request": True,
    }
)
