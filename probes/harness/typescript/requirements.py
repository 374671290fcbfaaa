"""What a behaviour's declared requirements mean on a TypeScript release.

Requirements are declared in the Python SDK's terms (`option:can_use_tool`,
`api:ClaudeSDKClient.interrupt`, `field:AgentDefinition.maxTurns`; a function type's field is one
of the objects it is handed, `field:CanUseTool.requestId`); here each is answered for
the TypeScript release under test from what its `sdk.d.ts` declares, through the one
client-method table and the one function table (an option through the option table, by
TypeScriptSdk.missing_options). Where the TypeScript SDK has the API but sdkprobe's driver
does not relay it yet, the reason says so, naming the TypeScript API: that is a gap of this
harness, not of the SDK, and the report keeps the two apart.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.harness.typescript.client import METHODS, STREAM
from sdkprobe.harness.typescript.functions import TABLE as FUNCTIONS
from sdkprobe.harness.typescript.names import camel

# Python types whose TypeScript counterpart has another name (fields: the same, camelCased).
_TYPES = {"HookMatcher": "HookCallbackMatcher"}
# Python API names whose TypeScript counterpart the probes reach through the harness.
_SAME = {
    "AgentDefinition": ("type", "AgentDefinition"),
    "ClaudeSDKClient": ("function", "query"),
    "HookMatcher": ("option", "hooks"),
    # the Python SDK's own store serves as the probe's store; the release takes it as sessionStore
    "InMemorySessionStore": ("option", "sessionStore"),
    "PermissionResultAllow": ("option", "canUseTool"),
    "PermissionResultDeny": ("option", "canUseTool"),
    "PermissionUpdate": ("option", "canUseTool"),
    "PermissionRequestHookInput": ("type", "PermissionRequestHookInput"),
    "SDKMessage": ("type", "SDKMessage"),
    "create_sdk_mcp_server": ("function", "createSdkMcpServer"),
    "ToolAnnotations": ("function", "tool"),
}
# Python functions a probe calls itself, whose TypeScript counterpart the driver does not call yet.
_NOT_RELAYED = {
    "fold_session_summary": "the session summary fold",
    "list_sessions_from_store": "listSessions() over a store",
    "get_session_info_from_store": "getSessionInfo() over a store",
}
# Python API the TypeScript SDK has no counterpart of -> what it has instead.
_NO_COUNTERPART = {
    "project_key_for_directory": "it exports no function naming a directory's project key",
    "SystemMessage": (
        "its messages are the CLI's JSON typed by SDKMessage's declarations, not classes a parser fills "
        "(messages.every-declared-member-yielded checks them)"
    ),
    "ToolPermissionContext": (
        "canUseTool gets a plain options object, its suggestions the CLI's PermissionUpdate JSON, "
        "not a context class the SDK fills"
    ),
}


def unmet(kind: str, name: str, release: Any) -> str | None:
    """Why TypeScript release `release` cannot run a probe needing `kind:name` (a field or an
    api; an option is the seam's to answer, TypeScriptSdk.missing_options); None if it can."""
    sdk = f"@anthropic-ai/claude-agent-sdk {release.version}"
    if kind == "field":
        cls, field = name.split(".")
        if cls == "ResultMessage":
            return None  # messages are the CLI's, passed through whole: the field is there when the CLI sends it
        ts_cls = _TYPES.get(cls, cls)
        fields = release.type_fields(ts_cls)
        if fields is None:
            return f"{sdk} declares no type {ts_cls}"
        if not fields:  # a function type (CanUseTool): the fields of the objects it is handed
            parameters = (release.declarations().entry(ts_cls) or {}).get("parameters", [])
            fields = tuple(key for parameter in parameters for key in parameter["fields"])
        return None if field in fields or camel(field) in fields else f"{ts_cls} in {sdk} has no field {field!r}"
    if kind == "api":
        head, _, method = name.partition(".")
        if head == "ClaudeSDKClient" and method:
            if method in STREAM:
                return None
            ts = METHODS.get(method)
            if ts is None:
                return f"{sdk}: Query has no counterpart of ClaudeSDKClient.{method}"
            return None if ts in release.query_methods() else f"{sdk}: Query has no method {ts}()"
        if name in FUNCTIONS:
            ts_name = FUNCTIONS[name].ts_name
            return None if ts_name in release.exports() else f"{sdk} exports no {ts_name}()"
        if name in _NO_COUNTERPART:
            return f"{sdk} has no counterpart of {name}: {_NO_COUNTERPART[name]}"
        if name in _NOT_RELAYED:
            return f"sdkprobe's TypeScript driver does not relay {_NOT_RELAYED[name]} yet ({name})"
        same = _SAME.get(name)
        if same is None:
            return _own(name, release, sdk)
        what, ts_name = same
        if what == "option":
            return None if ts_name in release.options() else f"{sdk}: Options has no {ts_name!r}"
        if what == "function":
            return None if ts_name in release.exports() else f"{sdk} exports no {ts_name}()"
        return None if release.type_fields(ts_name) is not None else f"{sdk} declares no type {ts_name}"
    raise ValueError(f"{kind}: is not a field or api requirement")


def _own(name: str, release: Any, sdk: str) -> str | None:
    """A name of the TypeScript SDK's own, which the Python SDK has no counterpart of: a Query
    method (`Query.applyFlagSettings`), an exported function or class (`matchDeniedModels`,
    `AbortError`), or a class's method (`InMemorySessionStore.getEntries`), as its sdk.d.ts
    declares them; what the release does not declare so (a Python name too) it lacks."""
    head, _, member = name.partition(".")
    if head == "Query" and member:
        return None if member in release.query_methods() else f"{sdk}: Query has no method {member}()"
    declarations = release.declarations()
    entry = declarations.entry(head)
    if entry is None or entry.get("kind") not in ("function", "class"):
        return f"{sdk} exports no function or class {head}"
    if member and member not in declarations.methods(head):
        return f"{head} in {sdk} has no method {member}()"
    return None


def surface_names(release: Any) -> list[str]:
    """The release's public items as a report records them, read from its own declarations
    (sdkprobe.ts_surface: options, Query methods, functions, hook events and inputs, messages...)."""
    from sdkprobe import ts_surface

    return ts_surface.names(release.declarations())
