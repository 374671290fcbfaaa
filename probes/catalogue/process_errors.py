"""Area `process`, topic errors: each public error class raised where the SDK says, with its attributes.

CLINotFoundError for a cli_path that does not exist, CLIConnectionError for a client used
before connect() or written to after its CLI exited, CLIJSONDecodeError for a stdout line
that looks like JSON and is not, ResultError when the CLI exits after an error result; every
one of them a ClaudeSDKError. A class some SDK versions lack makes only its own sub-check
not-applicable there, with what the SDK raised instead.
"""

from __future__ import annotations

from typing import Any

from sdkprobe.behaviour import Check, behaviour, check, undecidable
from sdkprobe.harness import Harness, Scenario

_ERRORS = (
    "ClaudeSDKError",
    "CLIConnectionError",
    "CLINotFoundError",
    "CLIJSONDecodeError",
    "ProcessError",
    "ResultError",
)
_MISSING_CLI = "/nonexistent/sdkprobe/claude"
_CORRUPT = '{"type": "assistant", "message": {sdkprobe-corrupt'
_ERROR_RESULT = {
    "errors": ["Reached maximum number of turns (1)"],
    "terminal_reason": "max_turns",
    "num_turns": 2,
}
# sub-check: (the case it reads, the class it must be, the attributes it must carry)
_CASES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "cli-not-found-error-for-missing-cli-path": ("missing cli_path", "CLINotFoundError", {}),
    "connection-error-before-connect": ("query() before connect()", "CLIConnectionError", {}),
    "connection-error-writing-after-cli-exit": ("query() after the CLI exited", "CLIConnectionError", {}),
    "json-decode-error-for-corrupt-line": (
        "a corrupt JSON line",
        "CLIJSONDecodeError",
        {"line": _CORRUPT, "original_error": "JSONDecodeError"},
    ),
    "result-error-after-error-result": (
        "exit 1 after an error result",
        "ResultError",
        {
            "subtype": "error_max_turns",
            "errors": ["Reached maximum number of turns (1)"],
            "result": None,
            "api_error_status": None,
            "terminal_reason": "max_turns",
            "session_id": "fake-session",
            "exit_code": 1,
            "data subtype": "error_max_turns",
        },
    ),
}
_ATTRIBUTES = ("line", "subtype", "errors", "result", "api_error_status", "terminal_reason", "session_id", "exit_code")


def _raised(exc: BaseException | None) -> dict[str, Any]:
    """What a case raised: its class, the SDK's error classes it is an instance of, its attributes."""
    import claude_agent_sdk

    if exc is None:
        return {"raised": None}
    kinds = {n: getattr(claude_agent_sdk, n) for n in _ERRORS if isinstance(getattr(claude_agent_sdk, n, None), type)}
    seen: dict[str, Any] = {
        "raised": type(exc).__name__,
        "instance of": sorted(n for n, k in kinds.items() if isinstance(exc, k)),
        "message": str(exc).splitlines()[0] if str(exc) else "",
    }
    for name in _ATTRIBUTES:
        if hasattr(exc, name):
            seen[name] = getattr(exc, name)
    original = getattr(exc, "original_error", None)
    if original is not None:
        seen["original_error"] = type(original).__name__
    data = getattr(exc, "data", None)
    if isinstance(data, dict):
        seen["data subtype"] = data.get("subtype")
    return seen


async def _missing_cli(h: Harness) -> BaseException | None:
    from claude_agent_sdk import ClaudeAgentOptions, query

    try:
        async for _ in query(prompt="hi", options=ClaudeAgentOptions(cli_path=_MISSING_CLI, cwd=str(h.cwd))):
            pass
    except Exception as exc:  # what the SDK raises is the finding
        return exc
    return None


async def _before_connect(h: Harness) -> BaseException | None:
    from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient

    try:
        await ClaudeSDKClient(options=ClaudeAgentOptions(cwd=str(h.cwd))).query("hi")
    except Exception as exc:
        return exc
    return None


async def _after_exit(client: Any, out: Any) -> None:
    """One turn read to its result; the fake CLI then exits 0; a second query() writes to it."""
    await client.query("hi")
    async for message in client.receive_response():
        out.messages.append(message)
    async for message in client.receive_messages():  # ends when the SDK has read the CLI's stdout to its end
        out.messages.append(message)
    await client.query("again")


@behaviour(
    id="process.errors-raised-where-documented",
    claim=(
        "The SDK's error classes are raised where it says: CLINotFoundError (a CLIConnectionError) for a "
        "cli_path that does not exist; CLIConnectionError for a ClaudeSDKClient used before connect() and "
        "for a write after its CLI exited; CLIJSONDecodeError, carrying the line and the original error, for "
        "a stdout line that looks like JSON and does not parse; ResultError (a ProcessError) when the CLI "
        "exits non-zero after an is_error result, carrying its subtype, errors, result, api_error_status, "
        "terminal_reason, session_id, exit_code and the raw result as data; and every one is a ClaudeSDKError."
    ),
    summary="Each SDK error class is raised where documented, with its attributes",
    source=("sdk-py", "claude_agent_sdk._errors"),
    tier="wire",
    checks=(*_CASES, "every-error-is-a-claude-sdk-error"),
    pins={
        "cli-not-found-error-for-missing-cli-path": ("error:CLINotFoundError",),
        "connection-error-before-connect": ("error:CLIConnectionError",),
        "connection-error-writing-after-cli-exit": ("error:CLIConnectionError",),
        "json-decode-error-for-corrupt-line": ("error:CLIJSONDecodeError",),
        "result-error-after-error-result": ("error:ResultError",),
        "every-error-is-a-claude-sdk-error": ("error:ClaudeSDKError",),
    },
    sdk_ref="claude_agent_sdk._internal.transport.subprocess_cli.SubprocessCLITransport",
)
async def errors_raised_where_documented(h: Harness) -> dict[str, Any]:
    import claude_agent_sdk

    corrupt = Scenario().wait_for_user().init().raw(_CORRUPT + "\n").assistant("after").result()
    failed = Scenario().wait_for_user().init().result("error_max_turns", True, **_ERROR_RESULT).exit(1)
    after = Scenario().wait_for_user().init().assistant("one").result().exit(0)
    exceptions = {
        "missing cli_path": await _missing_cli(h),
        "query() before connect()": await _before_connect(h),
        "query() after the CLI exited": (await h.wire(client=True, drive=_after_exit, scenario=after)).exception,
        "exit 1 after an error result": (await h.wire("hi", scenario=failed)).exception,
    }
    corrupted = await h.wire("hi", scenario=corrupt)
    exceptions["a corrupt JSON line"] = corrupted.exception
    seen = {case: _raised(exc) for case, exc in exceptions.items()}
    # what the caller got instead, when nothing was raised for the corrupt line
    seen["a corrupt JSON line"]["yielded"] = [type(m).__name__ for m in corrupted.messages]
    observed: dict[str, Any] = h.observe(
        {"classes the SDK has": [n for n in _ERRORS if hasattr(claude_agent_sdk, n)], **seen}
    )
    return observed


def _case_check(seen: dict[str, Any], name: str) -> Check:
    case, cls, attributes = _CASES[name]
    got = seen[case]
    if cls not in seen["classes the SDK has"]:
        return undecidable(f"this SDK has no {cls}; {case}: raised {got['raised']} ({got.get('message')!r})")
    if got["raised"] is None:
        yielded = f"; the caller got {got['yielded']}" if "yielded" in got else ""
        return check(False, f"{case}: nothing was raised{yielded}")
    wrong = [f"{k}={got.get(k, '<absent>')!r} (documented: {v!r})" for k, v in attributes.items() if got.get(k) != v]
    if cls not in got["instance of"]:
        wrong.insert(0, f"raised {got['raised']} ({got['message']!r}), not a {cls}")
    if name.startswith("cli-not-found") and _MISSING_CLI not in got["message"]:
        wrong.append(f"the message {got['message']!r} does not name the cli_path")
    return check(not wrong, f"{case}: " + "; ".join(wrong))


@errors_raised_where_documented.decide
def _(seen: dict[str, Any]) -> dict[str, Check]:
    checks = {name: _case_check(seen, name) for name in _CASES}
    outside = {
        case: seen[case]["raised"]
        for case, *_ in _CASES.values()
        if seen[case]["raised"] is not None and "ClaudeSDKError" not in seen[case]["instance of"]
    }
    raised = [case for case, *_ in _CASES.values() if seen[case]["raised"] is not None]
    checks["every-error-is-a-claude-sdk-error"] = (
        check(False, "no case raised anything")
        if not raised
        else check(not outside, f"raised outside ClaudeSDKError: {outside}")
    )
    return checks


errors_raised_where_documented.differs_on(
    {
        "classes the SDK has": list(_ERRORS),
        **{
            case: {"raised": "Exception", "instance of": [], "message": "Command failed with exit code 1"}
            for case, *_ in _CASES.values()
        },
    }
)
errors_raised_where_documented.differs_on(
    {
        "classes the SDK has": list(_ERRORS),
        "missing cli_path": {
            "raised": "CLINotFoundError",
            "instance of": ["CLIConnectionError", "CLINotFoundError", "ClaudeSDKError"],
            "message": "Claude Code not found",
        },
        "query() before connect()": {"raised": None},
        "query() after the CLI exited": {"raised": None},
        "a corrupt JSON line": {
            "raised": "CLIJSONDecodeError",
            "instance of": ["CLIJSONDecodeError", "ClaudeSDKError"],
            "message": "Failed to decode JSON",
            "line": "",
            "original_error": "ValueError",
        },
        "exit 1 after an error result": {
            "raised": "ResultError",
            "instance of": ["ClaudeSDKError", "ProcessError", "ResultError"],
            "message": "Claude Code returned an error result",
            "subtype": None,
            "errors": [],
            "result": None,
            "api_error_status": None,
            "terminal_reason": None,
            "session_id": None,
            "exit_code": 1,
            "data subtype": None,
        },
    }
)
