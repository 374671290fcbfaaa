"""The TypeScript SDK's session functions, called by their Python names.

A probe calls `get_session_info(sid, directory=d)` as the Python SDK spells it; here that
becomes `getSessionInfo(sid, {dir: d})` run by the release under test in a Node process of
its own (call.mjs), with the environment the probe set (CLAUDE_CONFIG_DIR), and what it
returns comes back as the Python SDK's type (SDKSessionInfo, SessionMessage), its camelCase
keys in snake_case. A call is bound by sdkprobe's own table of each function's parameters
(the Python SDK's, written down here), never by the Python SDK installed beside: only the
arguments the probe gave are passed; what TypeScript throws is
raised as a TsError named after the thrown error. A function the release does not export
is absent (`getattr(functions, name, None)` is None), as on a Python version without it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import NotApplicable
from sdkprobe.harness.typescript.names import camel, snake
from sdkprobe.harness.typescript.relay import DriverError, node, ts_exception

CALL = Path(__file__).with_name("call.mjs")
_TIMEOUT = 60.0


@dataclass(frozen=True)
class Function:
    """One relayed function: its TypeScript name, the Python parameters passed in place, the
    Python parameters that go into the options object (in the Python signature's order, so a
    call may give them by position too), and the Python type its result becomes."""

    ts_name: str
    positional: tuple[str, ...]
    returns: str | None = None  # the Python SDK's type name a result is read as, for one value or each of a list
    options: tuple[str, ...] = ("directory",)


_PAGED = ("directory", "limit", "offset")
TABLE = {
    "list_sessions": Function("listSessions", (), "SDKSessionInfo", (*_PAGED, "include_worktrees")),
    "get_session_info": Function("getSessionInfo", ("session_id",), "SDKSessionInfo"),
    "get_session_messages": Function("getSessionMessages", ("session_id",), "SessionMessage", _PAGED),
    "list_subagents": Function("listSubagents", ("session_id",)),
    "get_subagent_messages": Function("getSubagentMessages", ("session_id", "agent_id"), "SessionMessage", _PAGED),
    "rename_session": Function("renameSession", ("session_id", "title")),
    "tag_session": Function("tagSession", ("session_id", "tag")),
    "fork_session": Function(
        "forkSession", ("session_id",), "ForkSessionResult", ("directory", "up_to_message_id", "title")
    ),
    "delete_session": Function("deleteSession", ("session_id",)),
}
# Python functions over a SessionStore: TypeScript takes the store as an option of the
# functions above ({sessionStore}), which a call in a process of its own cannot hand over yet.
_WITH_STORE = "() with a sessionStore"
UNRELAYED = {
    "list_sessions_from_store": "listSessions" + _WITH_STORE,
    "get_session_info_from_store": "getSessionInfo" + _WITH_STORE,
    "get_session_messages_from_store": "getSessionMessages" + _WITH_STORE,
    "list_subagents_from_store": "listSubagents" + _WITH_STORE,
    "get_subagent_messages_from_store": "getSubagentMessages" + _WITH_STORE,
    "rename_session_via_store": "renameSession" + _WITH_STORE,
    "tag_session_via_store": "tagSession" + _WITH_STORE,
    "fork_session_via_store": "forkSession" + _WITH_STORE,
    "delete_session_via_store": "deleteSession" + _WITH_STORE,
    "import_session_to_store": "importSessionToStore()",
    "fold_session_summary": "foldSessionSummary()",
}
# a Python keyword whose TypeScript option is not its camelCase spelling
_RENAMED = {"directory": "dir"}


def ts_arguments(python_name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """The TypeScript call's arguments for a Python call, bound by the table's parameters (a
    wrong call raises TypeError, as it would in Python)."""
    spec = TABLE[python_name]
    given = _bind(python_name, (*spec.positional, *spec.options), args, kwargs)
    missing = [name for name in spec.positional if name not in given]
    if missing:
        raise TypeError(f"{python_name}() missing required argument(s): {', '.join(missing)}")
    out = [given.pop(name, None) for name in spec.positional]
    options = {_RENAMED.get(k, camel(k)): str(v) if isinstance(v, os.PathLike) else v for k, v in given.items()}
    return [*out, options] if options else out


def _bind(name: str, parameters: tuple[str, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Each argument given, by its parameter's name, as Python binds a call."""
    if len(args) > len(parameters):
        raise TypeError(f"{name}() takes {len(parameters)} arguments but {len(args)} were given")
    given = dict(zip(parameters[: len(args)], args, strict=True))
    for key, value in kwargs.items():
        if key not in parameters:
            raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
        if key in given:
            raise TypeError(f"{name}() got multiple values for argument {key!r}")
        given[key] = value
    return given


def python_value(python_name: str, value: Any, declared: Mapping[str, Any] | None = None) -> Any:
    """A TypeScript result read as the Python SDK's function returns it: an object named as the
    Python type whose fields are those the TypeScript SDK returned, snake_cased, plus those the
    release's own type declares (`declared`: its fields, from its sdk.d.ts) that came back
    undefined, read as None. No Python class decides what it holds: a field neither returned
    nor declared is absent (never a Python default), and one the Python class lacks is kept."""
    kind = TABLE[python_name].returns
    if kind is None or value is None:
        return value
    if isinstance(value, list):
        return [_as(kind, v, declared) for v in value]
    return _as(kind, value, declared)


def _as(kind: str, value: Any, declared: Mapping[str, Any] | None) -> Any:
    if not isinstance(value, dict):
        return value
    fields = {snake(k): None for k in declared or {}} | {snake(k): v for k, v in value.items()}
    cls = dataclasses.make_dataclass(kind, [(name, Any) for name in sorted(fields)], frozen=True)
    return cls(**fields)


class TsFunctions:
    """The relayed functions of one TypeScript release, as attributes named as in Python."""

    def __init__(self, release: Any) -> None:
        self._release = release

    def _declared(self, type_name: str | None) -> Mapping[str, Any] | None:
        """The fields the release's own type `type_name` declares; None for no such type (or a
        release whose declarations cannot be read, as the fake one of the tests)."""
        read = getattr(self._release, "declarations", None)
        return None if type_name is None or read is None else read().fields(type_name)

    def __getattr__(self, name: str) -> Any:
        if name in UNRELAYED:  # the release has it; sdkprobe cannot call it: the probe is not-applicable
            raise NotApplicable(f"sdkprobe does not relay {UNRELAYED[name]} yet ({name})")
        spec = TABLE.get(name)
        if spec is None or spec.ts_name not in self._release.exports():
            raise AttributeError(f"@anthropic-ai/claude-agent-sdk {self._release.version} has no relayed {name}")

        def call(*args: Any, **kwargs: Any) -> Any:
            value = _call(self._release.entry, spec.ts_name, ts_arguments(name, args, kwargs))
            return python_value(name, value, self._declared(spec.returns))

        call.__name__ = name
        return call

    # --- the release's own exports, by their TypeScript names --------------------------------
    def call_exported(self, ts_name: str, *args: Any) -> Any:
        """The release's exported function `ts_name`(*args), arguments and result as JSON, in a
        Node process of its own: what it returned (None for undefined), or what it threw raised
        as a TsError. A function the release does not export is a TsError too (TypeError)."""
        return _call(self._release.entry, ts_name, list(args))

    def instance_calls(self, cls: str, calls: list[tuple[str, list[Any]]], *args: Any) -> list[dict[str, Any]]:
        """One `new cls(*args)` of a class the release exports, then each (method, arguments) of
        `calls` on it in turn, in one Node process: per call `{"value": V}`, `{"undefined": True}`
        or `{"error": {"name", "message"}}` (an error does not stop the calls after it). A class
        it does not export, or one that cannot be made, is a TsError."""
        line = {"sdk": str(self._release.entry), "new": cls, "args": list(args)}
        line["calls"] = [{"method": method, "args": list(given)} for method, given in calls]
        got = _exchange(line, cls)
        if "error" in got:
            raise ts_exception(got["error"])
        return list(got.get("value") or [])


def _call(entry: Path, ts_name: str, args: list[Any]) -> Any:
    got = _exchange({"sdk": str(entry), "name": ts_name, "args": args}, f"{ts_name}()")
    if "error" in got:
        raise ts_exception(got["error"])
    return None if got.get("undefined") else got.get("value")


def _exchange(request: dict[str, Any], what: str) -> dict[str, Any]:
    """call.mjs's one reply to one request line, in a Node process of its own."""
    line = json.dumps(request) + "\n"
    try:
        done = subprocess.run(
            [node(), str(CALL)],
            input=line,
            capture_output=True,
            text=True,
            timeout=_TIMEOUT,
            env=dict(os.environ),
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise DriverError(f"{what} did not return within {_TIMEOUT:.0f} s") from None
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise DriverError(f"{what}: node exited {done.returncode} without a reply: {done.stderr.strip()[-500:]}")
    got: dict[str, Any] = json.loads(lines[-1])
    return got
