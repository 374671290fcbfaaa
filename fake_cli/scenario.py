"""Scenarios for the fake CLI: plain JSON data, built from Python with `Scenario`.

A scenario is a list of steps the fake plays in order, plus how it answers the
control requests the SDK sends (initialize, interrupt, mcp_status, ...). Steps:

  emit      write one JSON message to stdout (or the same one many times)
  raw       write text to stdout as it is (half lines, non-JSON noise)
  stderr    write text to stderr
  await     block until a stdin line matches a pattern (a subset of its JSON)
  request   send a CLI->SDK control_request and wait for the SDK's answer
  await_eof block until the SDK closes stdin (or, given a ceiling, at most that many seconds:
            a close that never comes then shows after what the fake writes next)
  sleep     pause for some seconds (the SDK gets on with what it was sent)
  exit      exit with a code at once (a crash mid-stream when it comes early)

When the steps run out the fake waits for stdin to close, then exits 0.
"""

from __future__ import annotations

import json
from typing import Any

from .blocks import as_block

DEFAULT_CLI_VERSION = "2.1.332"
SESSION_ID = "fake-session"
MODEL = "fake-model"


class Scenario:
    """Builder for a scenario. Every method returns self, so calls chain."""

    def __init__(self, cli_version: str = DEFAULT_CLI_VERSION) -> None:
        self.cli_version = cli_version
        self.steps: list[dict[str, Any]] = []
        # subtype -> {"response": {...}} or {"responses": [{...}, ...]} (in turn, the last again)
        # or {"error": "..."} or {"silent": True}
        self.control: dict[str, dict[str, Any]] = {
            "initialize": {"response": {"commands": [], "output_style": "default"}},
        }
        self._requests = 0

    # --- how SDK->CLI control requests are answered -------------------------
    def answer(self, subtype: str, response: dict[str, Any] | None = None) -> Scenario:
        self.control[subtype] = {"response": response or {}}
        return self

    def answer_each(self, subtype: str, *responses: dict[str, Any]) -> Scenario:
        """Answer the requests of this subtype with `responses` in turn, the last one again after."""
        self.control[subtype] = {"responses": [dict(r) for r in responses]}
        return self

    def fail(self, subtype: str, error: str) -> Scenario:
        self.control[subtype] = {"error": error}
        return self

    def ignore(self, subtype: str) -> Scenario:
        """Leave this control request unanswered (the SDK then waits for its timeout)."""
        self.control[subtype] = {"silent": True}
        return self

    # --- steps ----------------------------------------------------------------
    def emit(self, message: dict[str, Any], times: int = 1) -> Scenario:
        """Write `message` to stdout, `times` times over (hundreds of lines in one step)."""
        self.steps.append({"op": "emit", "message": message, **({"times": times} if times != 1 else {})})
        return self

    def raw(self, text: str) -> Scenario:
        self.steps.append({"op": "raw", "text": text})
        return self

    def stderr(self, text: str) -> Scenario:
        self.steps.append({"op": "stderr", "text": text})
        return self

    def wait_for(self, **pattern: Any) -> Scenario:
        """Wait for a stdin line whose JSON contains `pattern` (nested dicts match as subsets)."""
        self.steps.append({"op": "await", "match": pattern})
        return self

    def wait_for_user(self) -> Scenario:
        return self.wait_for(type="user")

    def wait_for_eof(self, ceiling: float | None = None) -> Scenario:
        """Wait for the SDK to close stdin; with `ceiling`, go on after that many seconds without it."""
        self.steps.append({"op": "await_eof", **({"ceiling": ceiling} if ceiling is not None else {})})
        return self

    def request(self, subtype: str, **fields: Any) -> Scenario:
        """Send a CLI->SDK control request and wait for the SDK's answer (or stdin EOF)."""
        self._requests += 1
        self.steps.append(
            {
                "op": "request",
                "request_id": f"fake_req_{self._requests}",
                "request": {"subtype": subtype, **fields},
            }
        )
        return self

    def mcp(self, server: str, method: str, params: dict[str, Any] | None = None, id: int | None = None) -> Scenario:
        """Send one JSON-RPC message to an in-process (SDK) MCP server through the SDK.

        Without `id` it is a notification, which the SDK acknowledges with an empty result.
        """
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if id is not None:
            message["id"] = id
        return self.request("mcp_message", server_name=server, message=message)

    def mcp_handshake(self, server: str) -> Scenario:
        """What the CLI does first with an SDK server: initialize, initialized, tools/list."""
        return (
            self.mcp(
                server,
                "initialize",
                {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "fake-claude", "version": self.cli_version},
                },
                id=1,
            )
            .mcp(server, "notifications/initialized")
            .mcp(server, "tools/list", {}, id=2)
        )

    def sleep(self, seconds: float) -> Scenario:
        """Pause, so the SDK has begun handling what was sent before the next step."""
        self.steps.append({"op": "sleep", "seconds": seconds})
        return self

    def exit(self, code: int = 0) -> Scenario:
        self.steps.append({"op": "exit", "code": code})
        return self

    # --- common messages --------------------------------------------------------
    def init(self, **extra: Any) -> Scenario:
        return self.emit(init_message(self.cli_version, **extra))

    def assistant(self, *blocks: dict[str, Any] | str, times: int = 1) -> Scenario:
        return self.emit(assistant_message(*blocks), times=times)

    def result(self, subtype: str = "success", is_error: bool = False, **extra: Any) -> Scenario:
        return self.emit(result_message(subtype, is_error, **extra))

    def user(self, *blocks: dict[str, Any] | str) -> Scenario:
        """A user line as the CLI echoes one (tool results, images pasted into a prompt)."""
        return self.emit(user_message(*blocks))

    def rate_limit_event(self, *, omit: tuple[str, ...] = (), **info: Any) -> Scenario:
        """A `rate_limit_event` line; `omit` leaves out top-level fields ("uuid", ...)."""
        return self.emit(rate_limit_event_message(omit=omit, **info))

    def turn(self, text: str = "Hello from the fake CLI") -> Scenario:
        """One ordinary turn: wait for the prompt, then init, assistant text, result."""
        return self.wait_for_user().init().assistant(text).result(result=text)

    def to_json(self) -> str:
        return json.dumps({"cli_version": self.cli_version, "control": self.control, "steps": self.steps})


def init_message(cli_version: str = DEFAULT_CLI_VERSION, **extra: Any) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "init",
        "uuid": "00000000-0000-0000-0000-000000000001",
        "session_id": SESSION_ID,
        "cwd": ".",
        "claude_code_version": cli_version,
        "tools": ["Bash", "Read", "Edit"],
        "mcp_servers": [],
        "model": MODEL,
        "permissionMode": "default",
        "slash_commands": [],
        "apiKeySource": "none",
        "output_style": "default",
        "skills": [],
        "plugins": [],
        **extra,
    }


def assistant_message(*blocks: dict[str, Any] | str) -> dict[str, Any]:
    content = [as_block(b) for b in blocks]
    content = [
        {**b, "id": f"toolu_fake_{n}"} if b.get("type") == "tool_use" and not b.get("id") else b
        for n, b in enumerate(content, 1)
    ]
    stop = "tool_use" if any(b.get("type") == "tool_use" for b in content) else "end_turn"
    return {
        "type": "assistant",
        "uuid": "00000000-0000-0000-0000-000000000002",
        "session_id": SESSION_ID,
        "parent_tool_use_id": None,
        "message": {
            "id": "msg_fake_1",
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": content,
            "stop_reason": stop,
            "usage": {"input_tokens": 3, "output_tokens": 5},
        },
    }


def result_message(subtype: str = "success", is_error: bool = False, **extra: Any) -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": subtype,
        "is_error": is_error,
        "duration_ms": 1,
        "duration_api_ms": 1,
        "num_turns": 1,
        "session_id": SESSION_ID,
        "total_cost_usd": 0.0,
        "usage": {"input_tokens": 3, "output_tokens": 5},
        **extra,
    }


def user_message(*blocks: dict[str, Any] | str) -> dict[str, Any]:
    return {
        "type": "user",
        "uuid": "00000000-0000-0000-0000-000000000003",
        "session_id": SESSION_ID,
        "parent_tool_use_id": None,
        "message": {"role": "user", "content": [as_block(b) for b in blocks]},
    }


def rate_limit_event_message(*, omit: tuple[str, ...] = (), **info: Any) -> dict[str, Any]:
    """What the CLI sends when the account nears or hits a usage limit (CLI 2.1.45 on)."""
    message = {
        "type": "rate_limit_event",
        "uuid": "00000000-0000-0000-0000-000000000004",
        "session_id": SESSION_ID,
        "rate_limit_info": {"status": "allowed_warning", "rateLimitType": "five_hour", "utilization": 0.9, **info},
    }
    return {k: v for k, v in message.items() if k not in omit}
