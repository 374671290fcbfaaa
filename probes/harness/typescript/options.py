"""ClaudeAgentOptions, by their Python names, as the TypeScript SDK's `Options`: one table.

Probes are written once, in Python terms. For a TypeScript run each option a probe passes
is looked up here: its TypeScript name and how its value is reshaped (a HookMatcher
becomes `{matcher, hooks, timeout, onFailure}`, a callback becomes a `{"$callback": NAME}` the Node
driver turns into a function that asks Python). A Python option with no TypeScript
counterpart, or one the release under test does not declare in its `Options`, is named by
`missing`, so the behaviour is `not-applicable` with that reason before anything starts.

`env` passes as it is too, though its meaning differs: Python's adds its variables to the
SDK process's environment, the TypeScript SDK's is the CLI's whole environment. What a
probe's own `env` does is the finding; a session the harness starts gives the TypeScript
SDK the host's environment with the session's variables over it (real_cli), as a
TypeScript host adds variables (`{...process.env, ...more}`).

Values are otherwise passed as they are: both SDKs take the same JSON shapes for tools,
MCP server configs, plugins, sandbox and output formats, since both hand them to the same
CLI; a preset or custom system prompt's keys are camelCased (exclude_dynamic_sections is
TypeScript's excludeDynamicSections). What a probe gives in the harness's types (given.py:
HookMatcher, AgentDefinition) is read by their fields, whichever Python SDK is installed beside:
a field it leaves None (a HookMatcher's matcher, an AgentDefinition's model) reaches the
TypeScript SDK as a key written `undefined`: whether the SDK then sends it, leaves it out or
sends null is its own doing, observed on the wire. Another dataclass (one a probe built of the
Python SDK's classes on purpose) is read by its attributes the same way.

An option only the TypeScript SDK has (`debugFile`, `persistSession`, ...) is passed by its
TypeScript name: any name the release's `Options` declares that no row above takes is one
(`ts_only`), its value passed as it is, a Python callable becoming a callback that asks it
with the JSON arguments the SDK called it with (its return value the answer). The Python
SDK has no such field, so a behaviour declaring `requires=("option:debugFile",)` is
`not-applicable` there, and on a TypeScript release whose `Options` lacks it.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sdkprobe.harness.in_process import InProcessServer
from sdkprobe.harness.node_values import AsGiven, NodeAbort, NodeSpawn
from sdkprobe.harness.typescript import callbacks
from sdkprobe.harness.typescript.callbacks import Answer
from sdkprobe.harness.typescript.names import camel, snake

Notify = Callable[[list[Any]], None]


@dataclass(frozen=True)
class Row:
    """How one Python option reaches the TypeScript SDK: `ts` its name there (None: no
    counterpart, `why` says so); `shape` the name of the reshaping in `_SHAPES`."""

    ts: str | None
    shape: str = "as-is"
    why: str = ""


TABLE: dict[str, Row] = {
    "tools": Row("tools"),
    "allowed_tools": Row("allowedTools"),
    "disallowed_tools": Row("disallowedTools"),
    "system_prompt": Row("systemPrompt", "system-prompt"),
    "mcp_servers": Row("mcpServers", "mcp-servers"),
    "strict_mcp_config": Row("strictMcpConfig"),
    "permission_mode": Row("permissionMode"),
    "continue_conversation": Row("continue"),
    "resume": Row("resume"),
    "session_id": Row("sessionId"),
    "max_turns": Row("maxTurns"),
    "max_budget_usd": Row("maxBudgetUsd"),
    "model": Row("model"),
    "fallback_model": Row("fallbackModel"),
    "betas": Row("betas"),
    "permission_prompt_tool_name": Row("permissionPromptToolName"),
    "cwd": Row("cwd", "path"),
    "cli_path": Row("pathToClaudeCodeExecutable", "path"),
    "settings": Row("settings", "path"),
    "add_dirs": Row("additionalDirectories", "paths"),
    "env": Row("env"),
    "extra_args": Row("extraArgs"),
    "stderr": Row("stderr", "notify"),
    "can_use_tool": Row("canUseTool", "can-use-tool"),
    "hooks": Row("hooks", "hooks"),
    "include_partial_messages": Row("includePartialMessages"),
    "include_hook_events": Row("includeHookEvents"),
    "forward_subagent_text": Row("forwardSubagentText"),
    "verbatim_prompts": Row("verbatimPrompts"),
    "fork_session": Row("forkSession"),
    "resume_session_at": Row("resumeSessionAt"),
    "resume_drops_turn": Row("resumeDropsTurn"),
    "agents": Row("agents", "agents"),
    "setting_sources": Row("settingSources"),
    "skills": Row("skills"),
    "sandbox": Row("sandbox"),
    "plugins": Row("plugins"),
    "max_thinking_tokens": Row("maxThinkingTokens"),
    "thinking": Row("thinking", "thinking"),
    "effort": Row("effort"),
    "output_format": Row("outputFormat"),
    "enable_file_checkpointing": Row("enableFileCheckpointing"),
    "session_store_flush": Row("sessionStoreFlush"),
    "load_timeout_ms": Row("loadTimeoutMs"),
    "task_budget": Row("taskBudget"),
    "max_buffer_size": Row(None, why="the TypeScript SDK has no buffer limit option"),
    "debug_stderr": Row(None, why="the TypeScript SDK has no debug_stderr file option"),
    "user": Row(None, why="the TypeScript SDK cannot run its CLI as another OS user"),
    "client_app": Row(None, why="the TypeScript SDK has no client_app option"),
    "session_store": Row("sessionStore", "session-store"),
}


# Types probes name that a release declares inline, not under that name: the Options field
# holding them and the `type` of the member that is this one.
_INLINE_TYPES = {"SystemPromptPreset": ("systemPrompt", "preset"), "SystemPromptCustom": ("systemPrompt", "custom")}


def declared_keys(declarations: Any, name: str) -> list[str] | None:
    """The keys a release's declarations give the type probes call `name` (a hook output or
    input, a system prompt's form), spelt as a probe writes them for the Python SDK: a hook
    output's `continue`/`async` as `continue_`/`async_`, a system prompt's keys snake_cased
    (this module camelCases them back). None when the release declares no such type."""
    inline = _INLINE_TYPES.get(name)
    if inline is None:
        fields = declarations.fields(name)
        python = {ts: py for py, ts in callbacks.OUTPUT_KEYS.items()}
        return None if fields is None else [python.get(k, k) for k in fields]
    field, form = inline
    members = ((declarations.fields("Options") or {}).get(field) or {}).get("members") or []
    for member in members:
        if form in ((member["fields"].get("type") or {}).get("literals") or ()):
            return [snake(k) for k in member["fields"]]
    return None


# The TypeScript names the rows take: passed by their Python names only, never by these.
_TAKEN = frozenset(row.ts for row in TABLE.values() if row.ts)


def ts_only(name: str, declared: tuple[str, ...]) -> bool:
    """Whether `name` is an option only the TypeScript SDK has, which this release declares:
    passed by its TypeScript name (no row takes it, and it is no Python option's name)."""
    return name not in TABLE and name not in _TAKEN and name in declared


def missing(names: set[str] | list[str], declared: tuple[str, ...]) -> list[str]:
    """Why each of these options (by Python names, or a TypeScript-only option's own name)
    cannot reach the TypeScript release whose `Options` declares `declared`, one clause
    each; empty when all can."""
    why = []
    for name in sorted(names):
        row = TABLE.get(name)
        if ts_only(name, declared):
            continue
        if row is None and name in _TAKEN:
            py = next(py for py, r in TABLE.items() if r.ts == name)
            why.append(f"{name!r} is passed by its Python name, {py!r}")
        elif row is None and name != name.lower():  # camelCase: a TypeScript name
            why.append(f"Options has no {name!r} (an option only the TypeScript SDK has)")
        elif row is None:
            why.append(f"sdkprobe's option table has no TypeScript counterpart for {name!r}")
        elif row.ts is None:
            why.append(f"{name}: {row.why}")
        elif row.ts not in declared:
            why.append(f"Options has no {row.ts!r} (ClaudeAgentOptions.{name})")
    return why


def fields(declared: tuple[str, ...]) -> set[str]:
    """The option names a release declaring `declared` can take: Python names with a row, and
    the TypeScript names of its options only the TypeScript SDK has."""
    python = {name for name, row in TABLE.items() if row.ts is not None and row.ts in declared}
    return python | {name for name in declared if ts_only(name, declared)}


@dataclass
class Translated:
    """Options as the driver sends them, and the Python functions behind their callbacks."""

    options: dict[str, Any]
    answers: dict[str, Answer]
    notifies: dict[str, Notify]
    servers: dict[str, InProcessServer] = dataclasses.field(default_factory=dict)  # in-process MCP, by key


def translate(options: dict[str, Any]) -> Translated:
    """The TypeScript `Options` for these Python-named options (an option left None is left
    out, as a TypeScript caller leaves out an option it does not set)."""
    out = Translated({}, {}, {})
    for name, value in options.items():
        row = TABLE.get(name) or Row(name, "ts-only")  # not in the table: a TypeScript-only option (`fields`)
        if value is None or row.ts is None:
            continue
        if isinstance(value, AsGiven):  # any callback option, handed the SDK's JSON as it is
            out.answers[name] = _called(value.fn)
            out.options[row.ts] = {"$callback": name, "kind": "call"}
            continue
        out.options[row.ts] = _SHAPES[row.shape](value, out, name)
    return out


# --- reshapings ---------------------------------------------------------------------


def _as_is(value: Any, out: Translated, name: str) -> Any:
    return _plain(value)


def _path(value: Any, out: Translated, name: str) -> Any:
    return os.fspath(value)


def _paths(value: Any, out: Translated, name: str) -> Any:
    return [os.fspath(v) for v in value]


def _notify(value: Any, out: Translated, name: str) -> Any:
    out.notifies[name] = lambda args: value(*args)
    return {"$callback": name, "kind": "notify"}


def _ts_only(value: Any, out: Translated, name: str) -> Any:
    """A TypeScript-only option's value: a NodeSpawn the driver's spawner; a callable a callback
    asking it with the SDK's JSON arguments (its return value the answer); anything else as it is."""
    if isinstance(value, NodeAbort):
        out.answers[name] = value.wait
        return {"$callback": name, "kind": "abort"}
    if isinstance(value, NodeSpawn):
        out.notifies[name] = lambda args: value.seen(*args)
        return {"$callback": name, "kind": "spawn"}
    if callable(value):
        out.answers[name] = _called(value)
        return {"$callback": name, "kind": "call"}
    return _plain(value)


def _called(fn: Any) -> Answer:
    async def answer(args: list[Any]) -> Any:
        result = fn(*args)
        return await result if inspect.isawaitable(result) else result

    return answer


def _can_use_tool(value: Any, out: Translated, name: str) -> Any:
    out.answers[name] = callbacks.can_use_tool(value)
    return {"$callback": name, "kind": "canUseTool"}


def _hooks(value: Any, out: Translated, name: str) -> Any:
    hooks: dict[str, list[dict[str, Any]]] = {}
    for event, matchers in value.items():
        hooks[event] = []
        for i, matcher in enumerate(matchers):
            entry: dict[str, Any] = {"hooks": []}
            for field, given in callbacks.fields_of(matcher).items():  # matcher, timeout, on_failure -> onFailure
                if field != "hooks":
                    entry[camel(field)] = _plain_value(given)
            for j, fn in enumerate(matcher.hooks):
                key = f"hook:{event}:{i}:{j}"
                out.answers[key] = callbacks.hook(fn)
                entry["hooks"].append({"$callback": key, "kind": "hook"})
            hooks[event].append(entry)
    return hooks


def _session_store(value: Any, out: Translated, name: str) -> Any:
    """A SessionStore as the object the TypeScript SDK calls: each method the Python store
    has becomes one that asks it (callbacks.store_method)."""
    store: dict[str, Any] = {}
    for ts_method, py_method in callbacks.STORE_METHODS.items():
        if callable(getattr(value, py_method, None)):
            key = f"store:{ts_method}"
            out.answers[key] = callbacks.store_method(value, ts_method)
            store[ts_method] = {"$callback": key, "kind": "store"}
    return store


def _agents(value: Any, out: Translated, name: str) -> Any:
    return {agent: _definition(d) for agent, d in value.items()}


def _definition(d: Any) -> dict[str, Any]:
    """An AgentDefinition as a TypeScript caller writes one: its fields (already camelCase),
    its `extra` ones after them, one left None as a key written undefined; a mapping as it is."""
    return _plain(d) if isinstance(d, dict) else _plain_fields(d)


def _thinking(value: Any, out: Translated, name: str) -> Any:
    renamed = {"budget_tokens": "budgetTokens"}
    return {renamed.get(k, k): v for k, v in dict(value).items()}


def _mcp_servers(value: Any, out: Translated, name: str) -> Any:
    if not isinstance(value, dict):
        from sdkprobe.behaviour import NotApplicable

        raise NotApplicable("mcp_servers as a file path or JSON text has no counterpart in the TypeScript SDK")
    servers: dict[str, Any] = {}
    for server, config in value.items():
        if isinstance(config, InProcessServer):  # built by the driver (mcp.serve) before the run starts
            out.servers[server] = config
            servers[server] = None
        elif isinstance(config, dict) and config.get("type") == "sdk":  # an error of the probe
            raise TypeError(
                f"mcp_servers[{server!r}] is an in-process server the Python SDK built; describe it with "
                "harness.in_process_server, which each SDK builds with its own functions"
            )
        else:
            servers[server] = _plain(config)
    return servers


def _system_prompt(value: Any, out: Translated, name: str) -> Any:
    """A preset or custom prompt's keys as TypeScript spells them (exclude_dynamic_sections ->
    excludeDynamicSections); a string or a list as it is."""
    if not isinstance(value, dict):
        return _plain(value)
    return {camel(str(k)): _plain(v) for k, v in value.items()}


# A value a probe left None inside an object it gives (a dataclass field): the key written
# with the value undefined, which the driver revives as such. What the SDK then sends is its own.
UNDEFINED = {"$undefined": True}


def _plain_fields(value: Any) -> dict[str, Any]:
    return {k: _plain_value(v) for k, v in callbacks.fields_of(value).items()}


def _plain_value(value: Any) -> Any:
    """A dataclass field's value as the driver gets it: None as undefined."""
    return UNDEFINED if value is None else _plain(value)


def _plain(value: Any) -> Any:
    """A JSON-ready copy: paths as strings, dataclasses as dicts (a None field undefined)."""
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain_fields(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


_SHAPES: dict[str, Callable[[Any, Translated, str], Any]] = {
    "as-is": _as_is,
    "path": _path,
    "paths": _paths,
    "notify": _notify,
    "can-use-tool": _can_use_tool,
    "hooks": _hooks,
    "agents": _agents,
    "session-store": _session_store,
    "thinking": _thinking,
    "system-prompt": _system_prompt,
    "mcp-servers": _mcp_servers,
    "ts-only": _ts_only,
}
